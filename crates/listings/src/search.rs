//! Full-text search over listings: a typo-tolerant index behind a port, filters and sorts.
//!
//! The index answers which listings match the words, best first. Filters and the other sorts
//! are applied to those candidates from the database, so the index never needs to hold votes
//! or views that change every second.

use crate::feeds::{FeedRepository, TrendingScores};
use crate::model::ListingSummary;
use crate::ports::CategoryRepository;
use async_trait::async_trait;
use kernel::{CategoryId, CountryCode, ListingId, PageRequest, Paged, RepoError, Slug};
use std::collections::HashMap;
use std::sync::Arc;
use time::OffsetDateTime;

/// What the index holds of a listing.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SearchDoc {
    pub id: ListingId,
    pub name: String,
    pub tagline: String,
    pub description: String,
    pub keywords: Vec<String>,
    /// Scheduled or waiting for its badge (not yet live).
    pub upcoming: bool,
}

/// The full-text index.
#[async_trait]
pub trait SearchIndex: Send + Sync {
    /// Listings (live, or upcoming when `upcoming`) whose text matches every word of `query`
    /// (typo-tolerant, the last word as a prefix), best first, at most `limit`; and how many
    /// match in all.
    async fn matching(&self, query: &str, upcoming: bool, limit: usize) -> Result<(Vec<ListingId>, u64), RepoError>;
    /// Adds or replaces these documents and removes `removed`; searchable when it returns.
    async fn apply(&self, upserts: Vec<SearchDoc>, removed: Vec<ListingId>) -> Result<(), RepoError>;
    /// How many documents the index holds.
    async fn document_count(&self) -> Result<u64, RepoError>;
}

/// Changes since a point in time, read from the database (each node feeds its own index).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct SearchChanges {
    /// Public listings (live, scheduled, awaiting badge) changed since then.
    pub upserts: Vec<SearchDoc>,
    /// Listings changed since then that are no longer public.
    pub removed: Vec<ListingId>,
    /// The latest change seen; the next poll asks from here.
    pub watermark: Option<OffsetDateTime>,
}

/// A listing that passed the filters, with what the sorts need.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Candidate {
    pub id: ListingId,
    pub votes: u64,
    pub views: u64,
    pub published_at: OffsetDateTime,
}

/// Which listings a search looks at.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct SearchFilter {
    /// Only these listings (the text matches); `None` browses everything.
    pub ids: Option<Vec<ListingId>>,
    pub categories: Option<Vec<CategoryId>>,
    pub stage: Option<String>,
    pub country: Option<CountryCode>,
    pub pricing_model: Option<String>,
    pub domain: Option<String>,
    /// `false`: live; `true`: scheduled or awaiting badge.
    pub upcoming: bool,
}

/// The database side of search.
#[async_trait]
pub trait SearchSource: Send + Sync {
    /// Changes at or after `since` (everything when `None`).
    async fn changes_since(&self, since: Option<OffsetDateTime>) -> Result<SearchChanges, RepoError>;
    /// Listings passing `filter`.
    async fn candidates(&self, filter: &SearchFilter) -> Result<Vec<Candidate>, RepoError>;
    /// Followers of each of these listings.
    async fn followers(&self, ids: &[ListingId]) -> Result<HashMap<ListingId, u64>, RepoError>;

    /// One page of the listings passing `filter`, ordered in the database (ties to the lower id).
    async fn page(&self, filter: &SearchFilter, order: DbOrder, page: PageRequest) -> Result<Paged<ListingId>, RepoError>;
}

/// Orders the database can apply itself.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum DbOrder {
    Votes,
    Newest,
    Views,
}

/// How results are ordered.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SortBy {
    /// Best text match first; without words, most voted first.
    Relevance,
    Newest,
    Votes,
    Trending,
    MostViewed,
    MostFollowed,
}

/// A search as callers ask it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SearchRequest {
    pub q: Option<String>,
    pub category: Option<Slug>,
    pub stage: Option<String>,
    pub country: Option<CountryCode>,
    pub pricing_model: Option<String>,
    pub domain: Option<String>,
    pub upcoming: bool,
    pub sort: SortBy,
    pub page: PageRequest,
}

/// Why a search failed.
#[derive(Debug, thiserror::Error)]
pub enum SearchError {
    #[error("no category has this slug")]
    UnknownCategory,
    #[error(transparent)]
    Repo(#[from] RepoError),
}

/// The most text matches a search considers.
pub const MAX_MATCHES: usize = 2000;

/// The search use cases, and keeping the index in step with the database.
#[derive(Clone)]
pub struct SearchService {
    index: Arc<dyn SearchIndex>,
    source: Arc<dyn SearchSource>,
    categories: Arc<dyn CategoryRepository>,
    feeds: Arc<dyn FeedRepository>,
    trending: TrendingScores,
    watermark: Arc<watermark::Watermark>,
}

/// The latest change the index has seen, shared by clones of the service.
mod watermark {
    use std::sync::Mutex;
    use time::OffsetDateTime;

    #[derive(Debug, Default)]
    pub struct Watermark(Mutex<Option<OffsetDateTime>>);

    impl Watermark {
        pub fn get(&self) -> Option<OffsetDateTime> {
            *self.0.lock().unwrap_or_else(|p| p.into_inner())
        }

        pub fn set(&self, at: Option<OffsetDateTime>) {
            if at.is_some() {
                *self.0.lock().unwrap_or_else(|p| p.into_inner()) = at;
            }
        }
    }
}

impl SearchService {
    pub fn new(
        index: Arc<dyn SearchIndex>,
        source: Arc<dyn SearchSource>,
        categories: Arc<dyn CategoryRepository>,
        feeds: Arc<dyn FeedRepository>,
        trending: TrendingScores,
    ) -> Self {
        Self { index, source, categories, feeds, trending, watermark: Arc::default() }
    }

    /// Brings the index up to date with the database: everything on the first call, then what
    /// changed since the last one. Returns how many documents were written or removed.
    pub async fn sync(&self) -> Result<usize, RepoError> {
        let changes = self.source.changes_since(self.watermark.get()).await?;
        let touched = changes.upserts.len() + changes.removed.len();
        if touched > 0 {
            self.index.apply(changes.upserts, changes.removed).await?;
        }
        self.watermark.set(changes.watermark);
        Ok(touched)
    }

    pub async fn search(&self, request: &SearchRequest) -> Result<Paged<ListingSummary>, SearchError> {
        let words = request.q.as_deref().map(str::trim).filter(|q| !q.is_empty());
        let other_filters = request.category.is_some()
            || request.stage.is_some()
            || request.country.is_some()
            || request.pricing_model.is_some()
            || request.domain.is_some();
        // The common case (words, best match first, no other filter) is answered by the index
        // alone: one page of ids and an exact count, without a round trip through SQL.
        if let (Some(q), SortBy::Relevance, false) = (words, request.sort, other_filters) {
            let wanted = (request.page.offset() + u64::from(request.page.per_page())) as usize;
            let (ids, total) = self.index.matching(q, request.upcoming, wanted).await?;
            let page_ids: Vec<ListingId> = ids.into_iter().skip(request.page.offset() as usize).collect();
            let mut summaries = self.feeds.summaries(&page_ids).await?;
            let items = page_ids.iter().filter_map(|id| summaries.remove(id)).collect();
            return Ok(Paged::new(items, request.page, total));
        }
        let matches = match words {
            Some(q) => Some(self.index.matching(q, request.upcoming, MAX_MATCHES).await?.0),
            None => None,
        };
        let categories = match &request.category {
            None => None,
            Some(slug) => {
                let all = self.categories.all().await?;
                let category = all.iter().find(|c| &c.slug == slug).ok_or(SearchError::UnknownCategory)?;
                let mut ids = vec![category.id];
                ids.extend(all.iter().filter(|c| c.parent_id == Some(category.id)).map(|c| c.id));
                Some(ids)
            }
        };
        let filter = SearchFilter {
            ids: matches.clone(),
            categories,
            stage: request.stage.clone(),
            country: request.country.clone(),
            pricing_model: request.pricing_model.clone(),
            domain: request.domain.clone(),
            upcoming: request.upcoming,
        };
        // Orders the database can apply are paged there, so browsing never loads every listing.
        let db_order = match (request.sort, &matches) {
            (SortBy::Relevance, None) | (SortBy::Votes, _) => Some(DbOrder::Votes),
            (SortBy::Newest, _) => Some(DbOrder::Newest),
            (SortBy::MostViewed, _) => Some(DbOrder::Views),
            _ => None,
        };
        if let Some(order) = db_order {
            let ids = self.source.page(&filter, order, request.page).await?;
            let mut summaries = self.feeds.summaries(&ids.items).await?;
            let items = ids.items.iter().filter_map(|id| summaries.remove(id)).collect();
            return Ok(Paged::new(items, request.page, ids.total));
        }
        let mut candidates = self.source.candidates(&filter).await?;
        match (request.sort, &matches) {
            (SortBy::Relevance, Some(order)) => {
                let rank: HashMap<ListingId, usize> = order.iter().enumerate().map(|(i, id)| (*id, i)).collect();
                candidates.sort_by_key(|c| rank.get(&c.id).copied().unwrap_or(usize::MAX));
            }
            (SortBy::Relevance | SortBy::Votes, _) => candidates.sort_by(|a, b| b.votes.cmp(&a.votes).then(a.id.cmp(&b.id))),
            (SortBy::Newest, _) => candidates.sort_by(|a, b| b.published_at.cmp(&a.published_at).then(a.id.cmp(&b.id))),
            (SortBy::MostViewed, _) => candidates.sort_by(|a, b| b.views.cmp(&a.views).then(a.id.cmp(&b.id))),
            (SortBy::MostFollowed, _) => {
                let ids: Vec<ListingId> = candidates.iter().map(|c| c.id).collect();
                let followers = self.source.followers(&ids).await?;
                let of = |id: &ListingId| followers.get(id).copied().unwrap_or(0);
                candidates.sort_by(|a, b| of(&b.id).cmp(&of(&a.id)).then(a.id.cmp(&b.id)));
            }
            (SortBy::Trending, _) => {
                let scored = self.trending.ranked().await?;
                let score: HashMap<ListingId, f64> = scored.iter().copied().collect();
                let of = |id: &ListingId| score.get(id).copied().unwrap_or(0.0);
                candidates.sort_by(|a, b| of(&b.id).total_cmp(&of(&a.id)).then(a.id.cmp(&b.id)));
            }
        }
        let total = candidates.len() as u64;
        let page_ids: Vec<ListingId> =
            candidates.into_iter().skip(request.page.offset() as usize).take(request.page.per_page() as usize).map(|c| c.id).collect();
        let mut summaries = self.feeds.summaries(&page_ids).await?;
        let items = page_ids.iter().filter_map(|id| summaries.remove(id)).collect();
        Ok(Paged::new(items, request.page, total))
    }

    /// How many documents the index holds (for readiness and tests).
    pub async fn indexed(&self) -> Result<u64, RepoError> {
        self.index.document_count().await
    }
}
