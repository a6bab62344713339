//! Search over listings: an index of their text, filters and sort keys behind a port.
//!
//! The index answers which listings match the words and the filters, in the order asked, with
//! an exact total, so no search is bounded by how many text matches it may look at. It is kept
//! from the database's change feed, which also fires on the values searches filter and sort by
//! (votes, views and follows included). Browses the database already orders in an index of its
//! own, with totals the directory keeps (no words, no filter but a category), are paged there.

use crate::feeds::{FeedRepository, TrendingScores};
use crate::model::ListingSummary;
use crate::service::DirectoryShape;
use async_trait::async_trait;
use kernel::{CategoryId, CountryCode, ListingId, PageRequest, Paged, RepoError, Slug};
use std::collections::HashSet;
use std::sync::Arc;
use time::OffsetDateTime;

/// What the index holds of a listing: its text, what searches filter by and what they sort by.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SearchDoc {
    pub id: ListingId,
    pub name: String,
    pub tagline: String,
    pub description: String,
    pub keywords: Vec<String>,
    /// Scheduled or waiting for its badge (not yet live).
    pub upcoming: bool,
    /// The categories it is linked to and their parents, so a search by a top-level category
    /// finds the listings of its subcategories.
    pub categories: Vec<CategoryId>,
    /// The names of those categories: searched words match them as they match the text, so
    /// "productivity" finds what is filed under Productivity.
    pub topics: Vec<String>,
    pub stage: Option<String>,
    pub country: Option<String>,
    /// As `pricing_key` writes it.
    pub pricing_model: Option<String>,
    /// As `domain_key` writes it.
    pub domain: Option<String>,
    pub votes: u64,
    pub views: u64,
    pub follows: u64,
    /// When it launched; for an upcoming listing, when it was submitted.
    pub published_at: OffsetDateTime,
}

/// How a pricing model is compared: without regard to case.
pub fn pricing_key(model: &str) -> String {
    model.trim().to_lowercase()
}

/// How a domain is compared: lower case, without a trailing dot or a leading `www.`.
pub fn domain_key(domain: &str) -> String {
    let domain = domain.trim().trim_end_matches('.').to_lowercase();
    domain.strip_prefix("www.").map(str::to_owned).unwrap_or(domain)
}

/// The order of an index search; ties go to the lower id.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum IndexOrder {
    /// Best text match first (most voted first without words).
    Relevance,
    Votes,
    Newest,
    Views,
    /// Most followed first, listings without a follower left out.
    Follows,
}

/// What an index search keeps (every filter given must hold) and in which order.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct IndexSearch {
    /// Every word must match (typo-tolerant, the last word as a prefix).
    pub words: Option<String>,
    /// A category: the listings linked to it or to one of its subcategories.
    pub category: Option<CategoryId>,
    pub stage: Option<String>,
    pub country: Option<String>,
    /// As `pricing_key` writes it.
    pub pricing_model: Option<String>,
    /// As `domain_key` writes it.
    pub domain: Option<String>,
    /// `false`: live listings; `true`: scheduled or awaiting their badge.
    pub upcoming: bool,
    pub order: IndexOrder,
}

/// The search index.
#[async_trait]
pub trait SearchIndex: Send + Sync {
    /// The listings passing `search`, in its order, from `offset`, at most `limit`; and how many
    /// pass in all.
    async fn search(&self, search: &IndexSearch, offset: usize, limit: usize) -> Result<(Vec<ListingId>, u64), RepoError>;
    /// Every listing passing `search` (its order aside), ascending by id: for an order kept
    /// outside the index (trending).
    async fn passing(&self, search: &IndexSearch) -> Result<Vec<ListingId>, RepoError>;
    /// Adds or replaces these documents and removes `removed` (after removing every document
    /// when `from_scratch`), and keeps `position`, where the index now stands in the change
    /// feed, with them in one commit; searchable when it returns.
    async fn apply(&self, upserts: Vec<SearchDoc>, removed: Vec<ListingId>, position: u64, from_scratch: bool) -> Result<(), RepoError>;
    /// The change-feed position kept with the last commit: `None` for an index that is new,
    /// in memory, or was written by another schema version (then it is read in full).
    async fn kept_position(&self) -> Result<Option<u64>, RepoError>;
    /// How many documents the index holds.
    async fn document_count(&self) -> Result<u64, RepoError>;
    /// The words with each one no listing holds replaced by the likeliest spelling close to
    /// it ("prodcutivity" -> "productivity"); `None` when there is nothing to offer.
    async fn did_you_mean(&self, words: &str) -> Result<Option<String>, RepoError>;
}

/// What changed for the index, read from the database's change feed (each node feeds its own
/// index). The feed is a sequence of positions, one per write to what the index holds of a
/// listing, written by the database itself in the writing transaction.
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

/// The database side of search.
#[async_trait]
pub trait SearchSource: Send + Sync {
    /// Every public listing, every other listing as removed, and the feed's head.
    async fn everything(&self) -> Result<SearchChanges, RepoError>;
    /// The changes at feed positions after `after`, at most `limit` positions.
    async fn changes_after(&self, after: u64, limit: u64) -> Result<SearchChanges, RepoError>;
    /// One page of live listings (in these categories, when given), ordered in the database
    /// (ties to the lower id). `total` is how many pass, from the directory's counts.
    async fn page(
        &self,
        categories: Option<&[CategoryId]>,
        order: DbOrder,
        page: PageRequest,
        total: u64,
    ) -> Result<Paged<ListingSummary>, RepoError>;
}

/// Orders the database walks in an index of its own.
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

/// The search use cases, and keeping the index in step with the database.
#[derive(Clone)]
pub struct SearchService {
    index: Arc<dyn SearchIndex>,
    source: Arc<dyn SearchSource>,
    feeds: Arc<dyn FeedRepository>,
    trending: TrendingScores,
    shape: DirectoryShape,
    cursor: Arc<cursor::Cursor>,
}

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
    ) -> Self {
        Self { index, source, feeds, trending, shape, cursor: Arc::default() }
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
        let facets = request.stage.is_some() || request.country.is_some() || request.pricing_model.is_some() || request.domain.is_some();
        let shape = self.shape.get().await?;
        let (all, counts) = (&shape.0, &shape.1);
        let category = match &request.category {
            None => None,
            Some(slug) => Some(all.iter().find(|c| &c.slug == slug).ok_or(SearchError::UnknownCategory)?),
        };
        // Live listings without words or a filter but a category: the database walks an index in
        // exactly the order asked, and the directory's counts know the total.
        if words.is_none() && !facets && !request.upcoming {
            let total = |table: &std::collections::HashMap<CategoryId, u64>, id: CategoryId| table.get(&id).copied().unwrap_or(0);
            let known = match (request.sort, category) {
                (SortBy::Relevance | SortBy::Votes, None) => Some((DbOrder::Votes, counts.live)),
                (SortBy::Newest, None) => Some((DbOrder::Newest, counts.live)),
                (SortBy::MostViewed, None) => Some((DbOrder::Views, counts.live)),
                (SortBy::MostFollowed, None) => Some((DbOrder::Follows, counts.followed)),
                (SortBy::Relevance | SortBy::Votes | SortBy::Newest | SortBy::MostViewed, Some(category)) => {
                    let order = match request.sort {
                        SortBy::Newest => DbOrder::Newest,
                        SortBy::MostViewed => DbOrder::Views,
                        _ => DbOrder::Votes,
                    };
                    let table = if category.parent_id.is_none() { &counts.by_top_level } else { &counts.direct };
                    Some((order, total(table, category.id)))
                }
                _ => None,
            };
            if let Some((order, total)) = known {
                let categories = category.map(|category| {
                    let mut ids = vec![category.id];
                    ids.extend(all.iter().filter(|c| c.parent_id == Some(category.id)).map(|c| c.id));
                    ids
                });
                return Ok(self.source.page(categories.as_deref(), order, request.page, total).await?);
            }
            // Trending over every live listing: a page of the ranking the feed shows.
            if request.sort == SortBy::Trending && category.is_none() {
                let scored = self.trending.ranked().await?;
                let page_ids = scored.iter().skip(request.page.offset() as usize).take(request.page.per_page() as usize).map(|(id, _)| *id);
                return self.summaries_page(page_ids.collect(), request.page, scored.len() as u64).await;
            }
        }
        let order = match (request.sort, words) {
            (SortBy::Relevance, Some(_)) => IndexOrder::Relevance,
            (SortBy::Newest, _) => IndexOrder::Newest,
            (SortBy::MostViewed, _) => IndexOrder::Views,
            (SortBy::MostFollowed, _) => IndexOrder::Follows,
            _ => IndexOrder::Votes,
        };
        let search = IndexSearch {
            words: words.map(str::to_owned),
            category: category.map(|category| category.id),
            stage: request.stage.clone(),
            country: request.country.as_ref().map(|country| country.as_str().to_owned()),
            pricing_model: request.pricing_model.as_deref().map(pricing_key),
            domain: request.domain.as_deref().map(domain_key),
            upcoming: request.upcoming,
            order,
        };
        let (offset, per_page) = (request.page.offset() as usize, request.page.per_page() as usize);
        if request.sort != SortBy::Trending {
            let (ids, total) = self.index.search(&search, offset, per_page).await?;
            return self.summaries_page(ids, request.page, total).await;
        }
        // Trending with words or filters: the index says which listings pass, the kept ranking
        // orders them (scored ones best first, then the rest by id).
        let passing = self.index.passing(&search).await?;
        let scored = self.trending.ranked().await?;
        let wanted = offset + per_page;
        let mut ordered: Vec<ListingId> = Vec::with_capacity(wanted);
        let mut ranked = HashSet::new();
        for (id, score) in scored.iter() {
            if *score > 0.0 && passing.binary_search(id).is_ok() {
                ranked.insert(*id);
                if ordered.len() < wanted {
                    ordered.push(*id);
                }
            }
        }
        if ordered.len() < wanted {
            let rest = passing.iter().filter(|id| !ranked.contains(id)).take(wanted - ordered.len());
            ordered.extend(rest);
        }
        let page_ids = ordered.into_iter().skip(offset).collect();
        self.summaries_page(page_ids, request.page, passing.len() as u64).await
    }

    /// What to offer instead of `words`, when a word of it is held by no listing and a close
    /// spelling is (see [`SearchIndex::did_you_mean`]).
    pub async fn did_you_mean(&self, words: &str) -> Result<Option<String>, RepoError> {
        self.index.did_you_mean(words).await
    }

    /// The summaries of these listings, in this order, as one page.
    async fn summaries_page(&self, ids: Vec<ListingId>, page: PageRequest, total: u64) -> Result<Paged<ListingSummary>, SearchError> {
        let mut summaries = self.feeds.summaries(&ids).await?;
        let items = ids.iter().filter_map(|id| summaries.remove(id)).collect();
        Ok(Paged::new(items, page, total))
    }

    /// How many documents the index holds (for readiness and tests).
    pub async fn indexed(&self) -> Result<u64, RepoError> {
        self.index.document_count().await
    }
}
