//! Launch of the Week awards: #1 to #3 of each finished week by community votes, fixed once.

use crate::calendar::CalendarService;
use crate::model::ListingSummary;
use async_trait::async_trait;
use kernel::{Clock, ListingId, PageRequest, Paged, RepoError, Slug, Week};
use std::collections::HashSet;
use std::sync::Arc;
use time::OffsetDateTime;

/// How many places a week awards.
pub const AWARDED_PLACES: usize = 3;

/// An award as stored.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Award {
    pub week: Week,
    pub rank: u32,
    /// Votes the listing received in that week.
    pub votes: u64,
    pub listing: ListingSummary,
}

/// A winner about to be recorded.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Winner {
    pub listing: ListingId,
    pub rank: u32,
    pub votes: u64,
}

/// Where awards are kept.
#[async_trait]
pub trait AwardRepository: Send + Sync {
    /// Awards, newest week first, then by rank; only those of `listing` when given.
    async fn list(&self, listing: Option<ListingId>, page: PageRequest) -> Result<Paged<Award>, RepoError>;

    /// The weeks between `from` and `to` (inclusive) whose awards are fixed already.
    async fn fixed_weeks(&self, from: Week, to: Week) -> Result<HashSet<Week>, RepoError>;

    /// Records a week's winners (possibly none) in one transaction, keyed by the week: returns
    /// `false`, writing nothing, when the week was fixed already (by this or another process).
    async fn fix_week(&self, week: Week, winners: &[Winner], at: OffsetDateTime) -> Result<bool, RepoError>;

    /// The id of the listing with this slug, whatever its status.
    async fn listing_id(&self, slug: &Slug) -> Result<Option<ListingId>, RepoError>;
}

/// Why reading awards failed.
#[derive(Debug, thiserror::Error)]
pub enum AwardsError {
    #[error("no listing has this slug")]
    UnknownListing,
    #[error(transparent)]
    Repo(#[from] RepoError),
}

/// The awards use cases.
#[derive(Clone)]
pub struct AwardsService {
    awards: Arc<dyn AwardRepository>,
    calendar: CalendarService,
    clock: Arc<dyn Clock>,
}

impl AwardsService {
    pub fn new(awards: Arc<dyn AwardRepository>, calendar: CalendarService, clock: Arc<dyn Clock>) -> Self {
        Self { awards, calendar, clock }
    }

    pub async fn list(&self, listing: Option<&Slug>, page: PageRequest) -> Result<Paged<Award>, AwardsError> {
        let listing = match listing {
            Some(slug) => Some(self.awards.listing_id(slug).await?.ok_or(AwardsError::UnknownListing)?),
            None => None,
        };
        Ok(self.awards.list(listing, page).await?)
    }

    /// Fixes the awards of every finished week that has none yet, oldest first, so it also
    /// catches up after downtime. Winners are the top three of the week's community ranking
    /// with at least one vote. Safe to run from several processes at once: each week is fixed
    /// by exactly one. Returns the weeks this call fixed, with their number of winners.
    pub async fn fix_finished_weeks(&self) -> Result<Vec<(Week, usize)>, RepoError> {
        let current = self.calendar.current_week();
        let first = self.calendar.first_week().await?;
        if first >= current {
            return Ok(Vec::new());
        }
        let last_finished = current.plus_weeks(-1);
        let fixed = self.awards.fixed_weeks(first, last_finished).await?;
        let mut done = Vec::new();
        let mut week = first;
        while week <= last_finished {
            if !fixed.contains(&week) {
                let winners: Vec<Winner> = self
                    .calendar
                    .ranked(week)
                    .await?
                    .into_iter()
                    .filter(|launch| launch.votes_in_week.unwrap_or(0) > 0)
                    .take(AWARDED_PLACES)
                    .map(|launch| Winner {
                        listing: launch.listing.id,
                        rank: launch.rank.unwrap_or_default(),
                        votes: launch.votes_in_week.unwrap_or_default(),
                    })
                    .collect();
                if self.awards.fix_week(week, &winners, self.clock.now()).await? {
                    done.push((week, winners.len()));
                }
            }
            week = week.plus_weeks(1);
        }
        Ok(done)
    }
}
