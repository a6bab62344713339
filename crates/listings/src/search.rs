//! Full-text search over listings: a typo-tolerant index behind a port, filters and sorts.
//!
//! The index answers which listings match the words, best first. Filters and the other sorts
//! are applied to those candidates from the database, so the index never needs to hold votes
//! or views that change every second.

use crate::feeds::{FeedRepository, TrendingScores};
use crate::model::ListingSummary;
use crate::service::DirectoryShape;
use async_trait::async_trait;
use kernel::{CategoryId, Clock, CountryCode, ListingId, PageRequest, Paged, RepoError, Slug};
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
    /// Adds or replaces these documents and removes `removed` (after removing every document
    /// when `from_scratch`), and keeps `position`, where the index now stands in the change
    /// feed, with them in one commit; searchable when it returns.
    async fn apply(&self, upserts: Vec<SearchDoc>, removed: Vec<ListingId>, position: u64, from_scratch: bool) -> Result<(), RepoError>;
    /// The change-feed position kept with the last commit: `None` for an index that is new,
    /// in memory, or was written by another schema version (then it is read in full).
    async fn kept_position(&self) -> Result<Option<u64>, RepoError>;
    /// How many documents the index holds.
    async fn document_count(&self) -> Result<u64, RepoError>;
}

/// What changed for the index, read from the database's change feed (each node feeds its own
/// index). The feed is a sequence of positions, one per write to a listing's indexed text or
/// status, written by the database itself in the writing transaction.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct SearchChanges {
    /// Public listings (live, scheduled, awaiting badge) among the changed ones.
    pub upserts: Vec<SearchDoc>,
    /// Changed listings that are no longer public (or no longer exist).
    pub removed: Vec<ListingId>,
    /// The feed positions read, ascending; for a full read, empty.
    pub positions: Vec<u64>,
    /// For a full read: the feed's last position before the read began, to go on from.
    pub head: u64,
    /// The feed no longer holds the positions right after the one asked from (they were
    /// pruned): the index must be read in full again.
    pub lost: bool,
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
    /// Every public listing, every other listing as removed, and the feed's head.
    async fn everything(&self) -> Result<SearchChanges, RepoError>;
    /// The changes at feed positions after `after`, at most `limit` positions.
    async fn changes_after(&self, after: u64, limit: u64) -> Result<SearchChanges, RepoError>;
    /// Listings passing `filter`.
    async fn candidates(&self, filter: &SearchFilter) -> Result<Vec<Candidate>, RepoError>;

    /// How many listings pass `filter` (with at least one follower when `followed`).
    async fn count(&self, filter: &SearchFilter, followed: bool) -> Result<u64, RepoError>;

    /// One page of the listings passing `filter`, ordered in the database (ties to the lower id).
    /// `total` is how many pass (from the directory's counts or `count`).
    async fn page(&self, filter: &SearchFilter, order: DbOrder, page: PageRequest, total: u64) -> Result<Paged<ListingId>, RepoError>;
}

/// Orders the database can apply itself.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum DbOrder {
    Votes,
    Newest,
    Views,
    Follows,
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
    feeds: Arc<dyn FeedRepository>,
    trending: TrendingScores,
    shape: DirectoryShape,
    clock: Arc<dyn Clock>,
    cursor: Arc<cursor::Cursor>,
    filtered_totals: Arc<kernel::CachedByKey<String, u64>>,
}

/// How long the total of a filtered browse (stage, country, pricing model, domain) is reused:
/// counting a filter reads every listing it keeps, which does not scale per request.
pub const FILTERED_TOTAL_TTL: time::Duration = time::Duration::seconds(10);

/// The most filtered totals kept at once (each is a few bytes; the bound keeps a crawler
/// walking every filter from growing memory).
const FILTERED_TOTALS_KEPT: usize = 512;

/// Where the index stands in the change feed, shared by clones of the service.
mod cursor {
    use std::sync::Mutex;
    use std::time::{Duration, Instant};

    /// How long a missing feed position is waited for. PostgreSQL hands positions out before the
    /// writing transaction commits, so a later position can be seen first; a position that stays
    /// missing this long belonged to a transaction that rolled back.
    pub const GAP_WAIT: Duration = Duration::from_secs(5);

    #[derive(Debug, Clone, Copy, Default)]
    pub struct State {
        /// Every position up to this one is in the index; `None` before the first full read.
        pub after: Option<u64>,
        /// The first missing position and since when it has been missing.
        pub gap: Option<(u64, Instant)>,
    }

    impl State {
        /// Moves past the positions read (ascending, all after `self.after`), stopping at a
        /// missing one until it has been missing for `GAP_WAIT`.
        pub fn advance(&mut self, positions: &[u64], now: Instant) {
            let Some(mut after) = self.after else { return };
            for &position in positions {
                if position <= after {
                    continue;
                }
                if position > after + 1 {
                    let missing = after + 1;
                    match self.gap {
                        Some((gap, since)) if gap == missing && now.duration_since(since) >= GAP_WAIT => {}
                        Some((gap, _)) if gap == missing => break,
                        _ => {
                            self.gap = Some((missing, now));
                            break;
                        }
                    }
                }
                after = position;
                self.gap = self.gap.filter(|(gap, _)| *gap > after);
            }
            self.after = Some(after);
        }
    }

    #[derive(Debug, Default)]
    pub struct Cursor(Mutex<State>);

    impl Cursor {
        pub fn get(&self) -> State {
            *self.0.lock().unwrap_or_else(|p| p.into_inner())
        }

        pub fn set(&self, state: State) {
            *self.0.lock().unwrap_or_else(|p| p.into_inner()) = state;
        }
    }

    #[cfg(test)]
    mod tests {
        use super::*;

        #[test]
        fn contiguous_positions_move_the_cursor_to_the_last() {
            let mut state = State { after: Some(4), gap: None };
            state.advance(&[5, 6, 7], Instant::now());
            assert_eq!(state.after, Some(7));
            assert!(state.gap.is_none());
        }

        #[test]
        fn a_missing_position_holds_the_cursor_until_it_arrives() {
            let start = Instant::now();
            let mut state = State { after: Some(4), gap: None };
            state.advance(&[5, 7, 8], start);
            assert_eq!(state.after, Some(5), "position 6 may still be committing");
            assert_eq!(state.gap.map(|(gap, _)| gap), Some(6));
            state.advance(&[6, 7, 8], start + Duration::from_millis(500));
            assert_eq!(state.after, Some(8));
            assert!(state.gap.is_none());
        }

        #[test]
        fn a_position_missing_for_the_wait_is_passed() {
            let start = Instant::now();
            let mut state = State { after: Some(4), gap: None };
            state.advance(&[5, 7], start);
            state.advance(&[7], start + Duration::from_secs(1));
            assert_eq!(state.after, Some(5));
            state.advance(&[7, 9], start + GAP_WAIT);
            assert_eq!(state.after, Some(7), "6 rolled back; 8 is a new gap");
            assert_eq!(state.gap.map(|(gap, _)| gap), Some(8));
        }
    }
}

/// How often every server reads the change feed into its own search index: an edit or a new
/// listing is found by every server within this time (at once on the server that took an
/// owner's edit, which syncs before it answers).
pub const SEARCH_SYNC_PERIOD: std::time::Duration = std::time::Duration::from_millis(500);

/// The most feed positions one sync reads.
const SYNC_BATCH: u64 = 5_000;

impl SearchService {
    pub fn new(
        index: Arc<dyn SearchIndex>,
        source: Arc<dyn SearchSource>,
        feeds: Arc<dyn FeedRepository>,
        trending: TrendingScores,
        shape: DirectoryShape,
        clock: Arc<dyn Clock>,
    ) -> Self {
        Self {
            index,
            source,
            feeds,
            trending,
            shape,
            clock,
            cursor: Arc::default(),
            filtered_totals: Arc::new(kernel::CachedByKey::new(FILTERED_TOTALS_KEPT)),
        }
    }

    /// The total of a filtered browse, at most `FILTERED_TOTAL_TTL` old.
    async fn filtered_total(&self, filter: &SearchFilter, followed: bool) -> Result<u64, RepoError> {
        let cached = self.filtered_totals.slot(format!("{filter:?} {followed}"), FILTERED_TOTAL_TTL);
        Ok(*cached.get_or_load(self.clock.now(), || self.source.count(filter, followed)).await?)
    }

    /// The same search over another index (say, one kept on disk), which starts from where
    /// that index stands.
    pub fn with_index(&self, index: Arc<dyn SearchIndex>) -> Self {
        Self { index, cursor: Arc::default(), ..self.clone() }
    }

    /// Brings the index up to date with the database: on the first call from where a kept
    /// index stands (or everything, into a new one), then the changes since; everything again
    /// when the feed no longer reaches back to where the index stands. Returns how many
    /// documents were written or removed.
    pub async fn sync(&self) -> Result<usize, RepoError> {
        let mut state = self.cursor.get();
        if state.after.is_none() {
            state.after = self.index.kept_position().await?;
        }
        let incremental = match state.after {
            Some(after) => Some(self.source.changes_after(after, SYNC_BATCH).await?).filter(|changes| !changes.lost),
            None => None,
        };
        let Some(changes) = incremental else {
            let everything = self.source.everything().await?;
            let touched = everything.upserts.len() + everything.removed.len();
            self.index.apply(everything.upserts, everything.removed, everything.head, true).await?;
            self.cursor.set(cursor::State { after: Some(everything.head), gap: None });
            return Ok(touched);
        };
        let touched = changes.upserts.len() + changes.removed.len();
        state.advance(&changes.positions, std::time::Instant::now());
        if touched > 0 {
            self.index.apply(changes.upserts, changes.removed, state.after.unwrap_or_default(), false).await?;
        }
        self.cursor.set(state);
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
        let shape = self.shape.get().await?;
        let (all, counts) = (&shape.0, &shape.1);
        let mut category_total = None;
        let categories = match &request.category {
            None => None,
            Some(slug) => {
                let category = all.iter().find(|c| &c.slug == slug).ok_or(SearchError::UnknownCategory)?;
                let table = if category.parent_id.is_none() { &counts.by_top_level } else { &counts.direct };
                category_total = Some(table.get(&category.id).copied().unwrap_or(0));
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
        // Live listings filtered by category at most: the directory's counts know the total.
        let only_category = !request.upcoming
            && matches.is_none()
            && request.stage.is_none()
            && request.country.is_none()
            && request.pricing_model.is_none()
            && request.domain.is_none();
        // Live listings filtered by one stage, country or pricing model alone: kept counts too.
        let facet_total = match (&request.stage, &request.country, &request.pricing_model) {
            (Some(stage), None, None) => Some(counts.by_stage.get(stage)),
            (None, Some(country), None) => Some(counts.by_country.get(country.as_str())),
            (None, None, Some(model)) => Some(counts.by_pricing_model.get(&model.to_lowercase())),
            _ => None,
        }
        .filter(|_| !request.upcoming && matches.is_none() && request.category.is_none() && request.domain.is_none())
        .map(|count| count.copied().unwrap_or(0));
        let known_total = |order: DbOrder| match (only_category, category_total, order) {
            (false, ..) if order == DbOrder::Follows => None,
            (false, ..) => facet_total,
            (true, Some(total), DbOrder::Votes | DbOrder::Newest | DbOrder::Views) => Some(total),
            (true, None, DbOrder::Votes | DbOrder::Newest | DbOrder::Views) => Some(counts.live),
            (true, None, DbOrder::Follows) => Some(counts.followed),
            (true, Some(_), DbOrder::Follows) => None,
        };
        // Orders the database can apply are paged there, so browsing never loads every listing.
        let db_order = match (request.sort, &matches) {
            (SortBy::Relevance, None) | (SortBy::Votes, _) => Some(DbOrder::Votes),
            (SortBy::Newest, _) => Some(DbOrder::Newest),
            (SortBy::MostViewed, _) => Some(DbOrder::Views),
            (SortBy::MostFollowed, _) => Some(DbOrder::Follows),
            _ => None,
        };
        if let Some(order) = db_order {
            let total = match known_total(order) {
                Some(total) => total,
                // Text matches are at most `MAX_MATCHES`: counted as they are.
                None if matches.is_some() => self.source.count(&filter, order == DbOrder::Follows).await?,
                None => self.filtered_total(&filter, order == DbOrder::Follows).await?,
            };
            let ids = self.source.page(&filter, order, request.page, total).await?;
            let mut summaries = self.feeds.summaries(&ids.items).await?;
            let items = ids.items.iter().filter_map(|id| summaries.remove(id)).collect();
            return Ok(Paged::new(items, request.page, ids.total));
        }
        // Trending over every live listing: a page of the ranking the feed shows, never a load
        // of the directory.
        if request.sort == SortBy::Trending && only_category && category_total.is_none() {
            let scored = self.trending.ranked().await?;
            let page_ids: Vec<ListingId> =
                scored.iter().skip(request.page.offset() as usize).take(request.page.per_page() as usize).map(|(id, _)| *id).collect();
            let mut summaries = self.feeds.summaries(&page_ids).await?;
            let items = page_ids.iter().filter_map(|id| summaries.remove(id)).collect();
            return Ok(Paged::new(items, request.page, scored.len() as u64));
        }
        let mut candidates = self.source.candidates(&filter).await?;
        match (request.sort, &matches) {
            (SortBy::Relevance, Some(order)) => {
                let rank: HashMap<ListingId, usize> = order.iter().enumerate().map(|(i, id)| (*id, i)).collect();
                candidates.sort_by_key(|c| rank.get(&c.id).copied().unwrap_or(usize::MAX));
            }
            // Trending within filters: the only other order left to sort here.
            _ => {
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
