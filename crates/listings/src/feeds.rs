//! Launch feeds: today, this week, trending (time-decayed votes), most voted, recent, most
//! viewed, most followed, upcoming.

use crate::calendar::CalendarService;
use crate::model::ListingSummary;
use crate::rankings::RankingRepository;
use crate::service::DirectoryShape;
use async_trait::async_trait;
use kernel::{Clock, ListingId, PageRequest, Paged, RepoError, Week};
use std::collections::HashMap;
use std::sync::Arc;
use time::{Duration, OffsetDateTime, UtcOffset};

/// The sections of the launches feed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Section {
    Today,
    ThisWeek,
    Trending,
    MostVoted,
    Recent,
    MostViewed,
    MostFollowed,
    Upcoming,
}

impl Section {
    pub const ALL: [Section; 8] =
        [Self::Today, Self::ThisWeek, Self::Trending, Self::MostVoted, Self::Recent, Self::MostViewed, Self::MostFollowed, Self::Upcoming];

    pub fn as_str(self) -> &'static str {
        match self {
            Self::Today => "today",
            Self::ThisWeek => "this-week",
            Self::Trending => "trending",
            Self::MostVoted => "most-voted",
            Self::Recent => "recent",
            Self::MostViewed => "most-viewed",
            Self::MostFollowed => "most-followed",
            Self::Upcoming => "upcoming",
        }
    }

    pub fn parse(raw: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|section| section.as_str() == raw)
    }
}

/// What a feed item is ordered by.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum FeedMetric {
    Votes(u64),
    VotesInWeek(u64),
    /// Sum of vote weights halving every half-life.
    TrendingScore(f64),
    Views(u64),
    Follows(u64),
    LaunchedAt(OffsetDateTime),
    LaunchWeek(Week),
}

/// One item of a feed.
#[derive(Debug, Clone, PartialEq)]
pub struct FeedItem {
    pub listing: ListingSummary,
    pub metric: FeedMetric,
}

/// Where the feeds are read from. Every method returns live listings only, except
/// `upcoming`; ties go to the lower listing id.
#[async_trait]
pub trait FeedRepository: Send + Sync {
    /// Live listings launched at or after `from` and before `to`, most voted first.
    async fn launched_between(
        &self,
        from: OffsetDateTime,
        to: OffsetDateTime,
        page: PageRequest,
    ) -> Result<Paged<(ListingSummary, OffsetDateTime)>, RepoError>;
    /// Live listings, latest launch first; `total` is how many are live.
    async fn recent(&self, page: PageRequest, total: u64) -> Result<Paged<(ListingSummary, OffsetDateTime)>, RepoError>;
    /// Live listings by page views; `total` is how many are live.
    async fn by_views(&self, page: PageRequest, total: u64) -> Result<Paged<(ListingSummary, u64)>, RepoError>;
    /// Live listings with followers, most followed first; `total` is how many there are.
    async fn by_follows(&self, page: PageRequest, total: u64) -> Result<Paged<(ListingSummary, u64)>, RepoError>;
    /// Scheduled and badge-pending listings with a launch week from `from` on: soonest week
    /// first, scheduled before badge-pending, then by name.
    async fn upcoming(&self, from: Week, page: PageRequest) -> Result<Paged<ListingSummary>, RepoError>;
    /// The instants of votes cast at or after `since` for live listings.
    async fn live_votes_since(&self, since: OffsetDateTime) -> Result<Vec<(ListingId, OffsetDateTime)>, RepoError>;
    /// Summaries of these listings.
    async fn summaries(&self, ids: &[ListingId]) -> Result<HashMap<ListingId, ListingSummary>, RepoError>;
    /// Summaries of the listings with these slugs (a slug no listing has is left out).
    async fn summaries_by_slug(&self, slugs: &[kernel::Slug]) -> Result<HashMap<kernel::Slug, ListingSummary>, RepoError>;
}

/// Feed settings.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct FeedPolicy {
    pub launch_offset: UtcOffset,
}

/// How many half-lives of votes trending looks at: older votes weigh under 1/1000.
const TRENDING_HALF_LIVES: i64 = 10;

/// The trending score of a listing: each vote weighs `0.5^(age / half_life)`.
pub fn trending_score(now: OffsetDateTime, votes: &[OffsetDateTime], half_life: Duration) -> f64 {
    let half = half_life.as_seconds_f64().max(1.0);
    votes.iter().map(|at| 0.5f64.powf(((now - *at).as_seconds_f64().max(0.0)) / half)).sum()
}

/// How long a trending ranking may be reused when the background refresh has stopped: scores
/// move slowly (a half-life is hours), and computing them reads every recent vote.
pub const TRENDING_TTL: Duration = Duration::seconds(60);

/// How often every server scores trending again in the background, so no request waits for it:
/// with the answer cache's second, a vote shows in trending within 5 s on every server (on the
/// server that took it sooner: `launchdir serve` scores again after a vote).
pub const TRENDING_REFRESH: std::time::Duration = std::time::Duration::from_secs(4);

/// Trending scores of live listings, best first, recomputed at most once per `TRENDING_TTL`
/// and shared by the launch feed and search.
#[derive(Clone)]
pub struct TrendingScores {
    feeds: Arc<dyn FeedRepository>,
    clock: Arc<dyn Clock>,
    half_life: Duration,
    cache: Arc<kernel::Cached<Vec<(ListingId, f64)>>>,
}

impl TrendingScores {
    pub fn new(feeds: Arc<dyn FeedRepository>, clock: Arc<dyn Clock>, half_life: Duration) -> Self {
        Self { feeds, clock, half_life, cache: Arc::new(kernel::Cached::new(TRENDING_TTL)) }
    }

    async fn score(&self, now: OffsetDateTime) -> Result<Vec<(ListingId, f64)>, RepoError> {
        let since = now - self.half_life * TRENDING_HALF_LIVES as i32;
        let mut by_listing: HashMap<ListingId, Vec<OffsetDateTime>> = HashMap::new();
        for (listing, at) in self.feeds.live_votes_since(since).await? {
            by_listing.entry(listing).or_default().push(at);
        }
        let mut scored: Vec<(ListingId, f64)> =
            by_listing.iter().map(|(id, votes)| (*id, trending_score(now, votes, self.half_life))).collect();
        scored.sort_by(|a, b| b.1.total_cmp(&a.1).then(a.0.cmp(&b.0)));
        Ok(scored)
    }

    /// Live listings with recent votes, highest score first (ties to the lower id). Kept fresh
    /// by the background refresh; computed here only when it has not run yet (or stopped).
    pub async fn ranked(&self) -> Result<Arc<Vec<(ListingId, f64)>>, RepoError> {
        let now = self.clock.now();
        self.cache.get_or_load(now, || self.score(now)).await
    }

    /// Scores again now (the background refresh, every `TRENDING_REFRESH`).
    pub async fn refresh(&self) -> Result<(), RepoError> {
        let now = self.clock.now();
        let scored = self.score(now).await?;
        self.cache.put(now, scored);
        Ok(())
    }
}

/// The feed use cases.
#[derive(Clone)]
pub struct FeedService {
    feeds: Arc<dyn FeedRepository>,
    rankings: Arc<dyn RankingRepository>,
    calendar: CalendarService,
    clock: Arc<dyn Clock>,
    policy: FeedPolicy,
    trending: TrendingScores,
    shape: DirectoryShape,
}

/// What the feed service reads besides its own repositories: the calendar, the trending scores
/// and the directory's counts, each shared with the other reads.
#[derive(Clone)]
pub struct FeedSources {
    pub calendar: CalendarService,
    pub trending: TrendingScores,
    pub shape: DirectoryShape,
}

impl FeedService {
    pub fn new(
        feeds: Arc<dyn FeedRepository>,
        rankings: Arc<dyn RankingRepository>,
        sources: FeedSources,
        clock: Arc<dyn Clock>,
        policy: FeedPolicy,
    ) -> Self {
        let FeedSources { calendar, trending, shape } = sources;
        Self { feeds, rankings, calendar, clock, policy, trending, shape }
    }

    /// The shared trending scores (for the background refresh).
    pub fn trending(&self) -> &TrendingScores {
        &self.trending
    }

    /// The cards of these listings, by id, whatever their status: for lists of other things
    /// that name listings (the site team's pages).
    pub async fn summaries(&self, ids: &[ListingId]) -> Result<std::collections::HashMap<ListingId, ListingSummary>, RepoError> {
        self.feeds.summaries(ids).await
    }

    /// The cards of the listings with these slugs, whatever their status (lists that name
    /// listings by slug: the site team's votes and reviews).
    pub async fn summaries_by_slug(&self, slugs: &[kernel::Slug]) -> Result<HashMap<kernel::Slug, ListingSummary>, RepoError> {
        self.feeds.summaries_by_slug(slugs).await
    }

    pub async fn section(&self, section: Section, page: PageRequest) -> Result<Paged<FeedItem>, RepoError> {
        let now = self.clock.now();
        let item = |listing, metric| FeedItem { listing, metric };
        Ok(match section {
            Section::Today => {
                let today = now.to_offset(self.policy.launch_offset).date();
                let start = today.midnight().assume_offset(self.policy.launch_offset);
                self.feeds.launched_between(start, start + Duration::days(1), page).await?.map(|(listing, _)| {
                    let votes = listing.votes;
                    item(listing, FeedMetric::Votes(votes))
                })
            }
            Section::ThisWeek => {
                let ranked = self.calendar.ranking(self.calendar.current_week()).await?;
                let total = ranked.len() as u64;
                let items = ranked
                    .iter()
                    .skip(page.offset() as usize)
                    .take(page.per_page() as usize)
                    .cloned()
                    .map(|launch| item(launch.listing, FeedMetric::VotesInWeek(launch.votes_in_week.unwrap_or_default())))
                    .collect();
                Paged::new(items, page, total)
            }
            Section::Trending => {
                let scored = self.trending.ranked().await?;
                let total = scored.len() as u64;
                let window: Vec<(ListingId, f64)> =
                    scored.iter().skip(page.offset() as usize).take(page.per_page() as usize).copied().collect();
                let ids: Vec<ListingId> = window.iter().map(|(id, _)| *id).collect();
                let mut summaries = self.feeds.summaries(&ids).await?;
                let items = window
                    .into_iter()
                    .filter_map(|(id, score)| Some(item(summaries.remove(&id)?, FeedMetric::TrendingScore(score))))
                    .collect();
                Paged::new(items, page, total)
            }
            Section::MostVoted => self.rankings.by_votes(page, self.shape.live().await?).await?.map(|listing| {
                let votes = listing.votes;
                item(listing, FeedMetric::Votes(votes))
            }),
            Section::Recent => {
                let live = self.shape.live().await?;
                self.feeds.recent(page, live).await?.map(|(listing, at)| item(listing, FeedMetric::LaunchedAt(at)))
            }
            Section::MostViewed => {
                let live = self.shape.live().await?;
                self.feeds.by_views(page, live).await?.map(|(listing, views)| item(listing, FeedMetric::Views(views)))
            }
            Section::MostFollowed => {
                let followed = self.shape.get().await?.1.followed;
                self.feeds.by_follows(page, followed).await?.map(|(listing, follows)| item(listing, FeedMetric::Follows(follows)))
            }
            Section::Upcoming => {
                let next = self.calendar.current_week().plus_weeks(1);
                self.feeds.upcoming(self.calendar.current_week(), page).await?.map(|listing| {
                    let week = listing.launch_week.unwrap_or(next);
                    item(listing, FeedMetric::LaunchWeek(week))
                })
            }
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use time::macros::datetime;

    #[test]
    fn votes_halve_every_half_life() {
        let now = datetime!(2026-11-21 12:00 UTC);
        let day = Duration::hours(24);
        assert!((trending_score(now, &[now], day) - 1.0).abs() < 1e-9);
        assert!((trending_score(now, &[now - day], day) - 0.5).abs() < 1e-9);
        assert!((trending_score(now, &[now - day * 2, now - day * 2], day) - 0.5).abs() < 1e-9);
        // Three fresh votes outweigh five from three days ago.
        let fresh = trending_score(now, &[now; 3], day);
        let old = trending_score(now, &[now - day * 3; 5], day);
        assert!(fresh > old);
    }

    #[test]
    fn sections_round_trip() {
        for section in Section::ALL {
            assert_eq!(Section::parse(section.as_str()), Some(section));
        }
        assert_eq!(Section::parse("hot"), None);
    }
}
