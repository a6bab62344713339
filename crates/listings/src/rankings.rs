//! Leaderboards: community votes (weekly, all time), the paid billboard, Domain Rating and
//! revenue, each its own ranking.

use crate::calendar::{CalendarService, WeekRef};
use crate::model::ListingSummary;
use crate::service::DirectoryShape;
use async_trait::async_trait;
use kernel::{PageRequest, Paged, RepoError, Week};
use std::sync::Arc;

/// The leaderboards.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Board {
    CommunityWeekly,
    CommunityAllTime,
    Billboard,
    DomainRating,
    Revenue,
}

impl Board {
    pub const ALL: [Board; 5] = [Self::CommunityWeekly, Self::CommunityAllTime, Self::Billboard, Self::DomainRating, Self::Revenue];

    pub fn as_str(self) -> &'static str {
        match self {
            Self::CommunityWeekly => "community-weekly",
            Self::CommunityAllTime => "community-all-time",
            Self::Billboard => "billboard",
            Self::DomainRating => "domain-rating",
            Self::Revenue => "revenue",
        }
    }

    pub fn parse(raw: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|board| board.as_str() == raw)
    }

    /// Only the billboard is bought: it must always be shown as paid.
    pub fn is_paid(self) -> bool {
        self == Self::Billboard
    }
}

/// What an entry is ranked by.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Metric {
    VotesInWeek(u64),
    Votes(u64),
    ContributedCents(i64),
    DomainRating { value: i32, previous: Option<i32> },
    MonthlyRevenueCents { value: i64, verified: bool },
}

/// One entry of a board.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BoardEntry {
    pub rank: u32,
    pub listing: ListingSummary,
    pub metric: Metric,
}

/// A page of a board.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Leaderboard {
    pub board: Board,
    /// The week, for the weekly board.
    pub week: Option<Week>,
    pub entries: Paged<BoardEntry>,
}

/// Where the non-weekly boards are read from. Each returns live listings only, best first,
/// ties to the lower listing id (the billboard: to the earlier first contribution).
#[async_trait]
pub trait RankingRepository: Send + Sync {
    /// One page of the live listings by votes; `total` is how many are live (the directory's
    /// counts).
    async fn by_votes(&self, page: PageRequest, total: u64) -> Result<Paged<ListingSummary>, RepoError>;
    async fn by_contributions(&self, page: PageRequest) -> Result<Paged<(ListingSummary, i64)>, RepoError>;
    async fn by_domain_rating(&self, page: PageRequest) -> Result<Paged<(ListingSummary, i32, Option<i32>)>, RepoError>;
    async fn by_revenue(&self, page: PageRequest) -> Result<Paged<(ListingSummary, i64, bool)>, RepoError>;
}

/// Why a board could not be read.
#[derive(Debug, thiserror::Error)]
pub enum LeaderboardError {
    /// `week` was given for a board that has none.
    #[error("only the community-weekly board takes a week")]
    WeekNotAllowed,
    #[error("week {week} has no community ranking: the weekly board runs from {first} to {last}")]
    WeekOutOfRange { week: Week, first: Week, last: Week },
    #[error(transparent)]
    Repo(#[from] RepoError),
}

fn ranked<T>(
    page: Paged<T>,
    request: PageRequest,
    metric: impl Fn(&T) -> Metric,
    listing: impl Fn(T) -> ListingSummary,
) -> Paged<BoardEntry> {
    let start = request.offset() as u32;
    Paged {
        page: page.page,
        per_page: page.per_page,
        total: page.total,
        items: page
            .items
            .into_iter()
            .enumerate()
            .map(|(position, item)| BoardEntry { rank: start + position as u32 + 1, metric: metric(&item), listing: listing(item) })
            .collect(),
    }
}

/// The leaderboard use cases.
#[derive(Clone)]
pub struct LeaderboardService {
    rankings: Arc<dyn RankingRepository>,
    calendar: CalendarService,
    shape: DirectoryShape,
}

impl LeaderboardService {
    pub fn new(rankings: Arc<dyn RankingRepository>, calendar: CalendarService, shape: DirectoryShape) -> Self {
        Self { rankings, calendar, shape }
    }

    /// A page of `board`. `week` only for the community-weekly board (default: this week),
    /// which covers the weeks from the first live launch to this one.
    pub async fn board(&self, board: Board, week: Option<WeekRef>, page: PageRequest) -> Result<Leaderboard, LeaderboardError> {
        if week.is_some() && board != Board::CommunityWeekly {
            return Err(LeaderboardError::WeekNotAllowed);
        }
        let (week, entries) = match board {
            Board::CommunityWeekly => {
                let current = self.calendar.current_week();
                let week = week.unwrap_or(WeekRef::This).resolve(current);
                let first = self.calendar.first_week().await?;
                if week < first || week > current {
                    return Err(LeaderboardError::WeekOutOfRange { week, first, last: current });
                }
                let all = self.calendar.ranking(week).await?;
                let total = all.len() as u64;
                let items = all
                    .iter()
                    .skip(page.offset() as usize)
                    .take(page.per_page() as usize)
                    .cloned()
                    .map(|launch| BoardEntry {
                        rank: launch.rank.unwrap_or_default(),
                        metric: Metric::VotesInWeek(launch.votes_in_week.unwrap_or_default()),
                        listing: launch.listing,
                    })
                    .collect();
                (Some(week), Paged::new(items, page, total))
            }
            Board::CommunityAllTime => (
                None,
                ranked(
                    self.rankings.by_votes(page, self.shape.live().await?).await?,
                    page,
                    |listing| Metric::Votes(listing.votes),
                    |listing| listing,
                ),
            ),
            Board::Billboard => {
                (None, ranked(self.rankings.by_contributions(page).await?, page, |(_, cents)| Metric::ContributedCents(*cents), |(l, _)| l))
            }
            Board::DomainRating => (
                None,
                ranked(
                    self.rankings.by_domain_rating(page).await?,
                    page,
                    |(_, value, previous)| Metric::DomainRating { value: *value, previous: *previous },
                    |(l, _, _)| l,
                ),
            ),
            Board::Revenue => (
                None,
                ranked(
                    self.rankings.by_revenue(page).await?,
                    page,
                    |(_, value, verified)| Metric::MonthlyRevenueCents { value: *value, verified: *verified },
                    |(l, _, _)| l,
                ),
            ),
        };
        Ok(Leaderboard { board, week, entries })
    }
}
