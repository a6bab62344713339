//! The launch calendar: a week's launches, ranked by the votes they received that week.

use crate::model::{ListingStatus, ListingSummary};
use async_trait::async_trait;
use kernel::{CachedByKey, Clock, ListingId, RepoError, Week};
use std::collections::HashMap;
use std::sync::Arc;
use time::{OffsetDateTime, UtcOffset};

/// A week as a caller names it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum WeekRef {
    This,
    Next,
    Last,
    /// Any date of the week (snapped to its Monday).
    Of(Week),
}

impl WeekRef {
    /// `this`, `next`, `last`, or a date `YYYY-MM-DD`.
    pub fn parse(raw: &str) -> Option<Self> {
        match raw {
            "this" => Some(Self::This),
            "next" => Some(Self::Next),
            "last" => Some(Self::Last),
            date if date.len() == 10 => Week::parse_date(date).map(Self::Of),
            _ => None,
        }
    }

    pub fn resolve(self, current: Week) -> Week {
        match self {
            Self::This => current,
            Self::Next => current.plus_weeks(1),
            Self::Last => current.plus_weeks(-1),
            Self::Of(week) => week,
        }
    }
}

/// Where a week stands relative to now.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum WeekPhase {
    Past,
    Current,
    Upcoming,
}

/// One launch of a week.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct WeekLaunch {
    /// 1 for the most voted; `None` in an upcoming week.
    pub rank: Option<u32>,
    /// Votes received from Monday to Sunday of the week; `None` in an upcoming week.
    pub votes_in_week: Option<u64>,
    pub listing: ListingSummary,
}

/// A launch week with its launches.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LaunchWeek {
    pub week: Week,
    pub phase: WeekPhase,
    pub starts_at: OffsetDateTime,
    pub ends_at: OffsetDateTime,
    /// Shared with the kept ranking of a past or the current week, not copied.
    pub launches: Arc<Vec<WeekLaunch>>,
    /// The neighbouring weeks, where they are within range.
    pub previous: Option<Week>,
    pub next: Option<Week>,
}

/// Where launches are read from.
#[async_trait]
pub trait LaunchRepository: Send + Sync {
    /// Listings whose launch week is `week` and whose status is one of `statuses`, the earliest
    /// launched first (then by id).
    async fn launching_in(&self, week: Week, statuses: &[ListingStatus]) -> Result<Vec<ListingSummary>, RepoError>;

    /// Votes each listing received at or after `from` and before `to` (UTC instants).
    async fn votes_between(
        &self,
        listings: &[ListingId],
        from: OffsetDateTime,
        to: OffsetDateTime,
    ) -> Result<HashMap<ListingId, u64>, RepoError>;

    /// The earliest launch week of any live listing.
    async fn earliest_live_week(&self) -> Result<Option<Week>, RepoError>;
}

/// Why a calendar read failed.
#[derive(Debug, thiserror::Error)]
pub enum CalendarError {
    #[error("week {week} is outside the calendar, which runs from {first} to {last}")]
    OutOfRange { week: Week, first: Week, last: Week },
    #[error(transparent)]
    Repo(#[from] RepoError),
}

/// Calendar settings.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct CalendarPolicy {
    pub launch_offset: UtcOffset,
    /// How many weeks ahead the calendar reaches (the furthest week a launch can be booked).
    pub weeks_ahead: u32,
}

/// Ranks launches by votes received in the week; equal votes go to the listing that launched
/// earlier (the order `launching_in` returns), so the ranking never changes between reads.
pub fn rank(mut launches: Vec<(ListingSummary, u64)>) -> Vec<WeekLaunch> {
    // A stable sort keeps the launch order among equal vote counts.
    launches.sort_by_key(|launch| std::cmp::Reverse(launch.1));
    launches
        .into_iter()
        .enumerate()
        .map(|(position, (listing, votes))| WeekLaunch { rank: Some(position as u32 + 1), votes_in_week: Some(votes), listing })
        .collect()
}

/// How long the current week's ranking is reused by the reads that show it (this week's feed,
/// the weekly board, the week page): a vote shows within this time on every server, and a
/// week of many thousand launches is ranked once per period, not per request.
pub const CURRENT_WEEK_TTL: time::Duration = time::Duration::seconds(1);

/// How long a past week's ranking is reused: only a discounted vote or a closed account still
/// changes it.
pub const PAST_WEEK_TTL: time::Duration = time::Duration::seconds(30);

/// The most weeks whose rankings are kept at once (a crawler walking every week must not grow
/// memory without bound); beyond it the kept rankings are dropped and computed again.
const WEEKS_KEPT: usize = 16;

/// The calendar use cases.
#[derive(Clone)]
pub struct CalendarService {
    launches: Arc<dyn LaunchRepository>,
    clock: Arc<dyn Clock>,
    policy: CalendarPolicy,
    rankings: Arc<CachedByKey<Week, Vec<WeekLaunch>>>,
}

impl CalendarService {
    pub fn new(launches: Arc<dyn LaunchRepository>, clock: Arc<dyn Clock>, policy: CalendarPolicy) -> Self {
        Self { launches, clock, policy, rankings: Arc::new(CachedByKey::new(WEEKS_KEPT)) }
    }

    /// The ranking of `week` as the reads show it: at most `CURRENT_WEEK_TTL` old for the
    /// current week, `PAST_WEEK_TTL` for a past one. The awards rank with `ranked`, fresh.
    pub async fn ranking(&self, week: Week) -> Result<Arc<Vec<WeekLaunch>>, RepoError> {
        // The current week is ranked again in the background every `CURRENT_WEEK_TTL`; a read
        // ranks it itself only when that has stalled.
        let ttl = if week >= self.current_week() { CURRENT_WEEK_TTL * 3 } else { PAST_WEEK_TTL };
        let cached = self.rankings.slot(week, ttl);
        cached.get_or_load(self.clock.now(), || self.ranked(week)).await
    }

    /// Ranks the current week again now (the background refresh, every `CURRENT_WEEK_TTL`), and
    /// last week when its kept ranking is missing or nearly `PAST_WEEK_TTL` old, so no read
    /// waits for a week of thousands of launches to be ranked: last week is the past week
    /// people open most (the site's and the API's `last`).
    pub async fn refresh_recent_weeks(&self) -> Result<(), RepoError> {
        let week = self.current_week();
        let ranked = self.ranked(week).await?;
        self.rankings.slot(week, CURRENT_WEEK_TTL * 3).put(self.clock.now(), ranked);
        let last = week.plus_weeks(-1);
        let kept = self.rankings.slot(last, PAST_WEEK_TTL);
        let now = self.clock.now();
        // Ranked again a few seconds before readers would find it expired.
        if kept.computed_at().is_none_or(|at| now - at >= PAST_WEEK_TTL - time::Duration::seconds(5) || now < at) {
            kept.put(now, self.ranked(last).await?);
        }
        Ok(())
    }

    pub fn current_week(&self) -> Week {
        Week::at(self.clock.now(), self.policy.launch_offset)
    }

    /// The furthest week a launch can be booked for: the calendar's last week.
    pub fn last_bookable_week(&self) -> Week {
        self.current_week().plus_weeks(i64::from(self.policy.weeks_ahead))
    }

    /// The first week of the calendar: the earliest week with a live launch (or this week).
    pub async fn first_week(&self) -> Result<Week, RepoError> {
        let current = self.current_week();
        Ok(self.launches.earliest_live_week().await?.map_or(current, |earliest| earliest.min(current)))
    }

    /// The live launches of `week` ranked by the votes they received within it: the ranking of
    /// the weekly calendar, the community-weekly board and the awards.
    pub async fn ranked(&self, week: Week) -> Result<Vec<WeekLaunch>, RepoError> {
        let (starts_at, ends_at) = (week.starts_at(self.policy.launch_offset), week.ends_at(self.policy.launch_offset));
        let live = self.launches.launching_in(week, &[ListingStatus::Live]).await?;
        let ids: Vec<ListingId> = live.iter().map(|listing| listing.id).collect();
        let votes = self.launches.votes_between(&ids, starts_at, ends_at).await?;
        Ok(rank(
            live.into_iter()
                .map(|listing| {
                    let received = votes.get(&listing.id).copied().unwrap_or(0);
                    (listing, received)
                })
                .collect(),
        ))
    }

    /// A week's launches: for a past or the current week, live launches ranked by the votes
    /// they received that week; for an upcoming week, what is scheduled (paid or badge seen)
    /// and what waits for its badge, scheduled first.
    pub async fn week(&self, reference: WeekRef) -> Result<LaunchWeek, CalendarError> {
        let current = self.current_week();
        let week = reference.resolve(current);
        let first = self.first_week().await?;
        let last = self.last_bookable_week();
        if week < first || week > last {
            return Err(CalendarError::OutOfRange { week, first, last });
        }
        let (starts_at, ends_at) = (week.starts_at(self.policy.launch_offset), week.ends_at(self.policy.launch_offset));
        let phase = match week.cmp(&current) {
            std::cmp::Ordering::Less => WeekPhase::Past,
            std::cmp::Ordering::Equal => WeekPhase::Current,
            std::cmp::Ordering::Greater => WeekPhase::Upcoming,
        };
        let launches = if phase == WeekPhase::Upcoming {
            let mut upcoming = self.launches.launching_in(week, &[ListingStatus::Scheduled, ListingStatus::AwaitingBadge]).await?;
            upcoming.sort_by_key(|listing| (listing.status != ListingStatus::Scheduled, listing.name.to_lowercase()));
            Arc::new(upcoming.into_iter().map(|listing| WeekLaunch { rank: None, votes_in_week: None, listing }).collect())
        } else {
            self.ranking(week).await?
        };
        Ok(LaunchWeek {
            week,
            phase,
            starts_at,
            ends_at,
            launches,
            previous: (week > first).then(|| week.plus_weeks(-1)),
            next: (week < last).then(|| week.plus_weeks(1)),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use kernel::Slug;

    fn listing(id: i64) -> ListingSummary {
        ListingSummary {
            id: ListingId::new(id),
            slug: Slug::parse(&format!("l{id}")).unwrap(),
            name: format!("L{id}"),
            url: format!("https://l{id}.example"),
            tagline: None,
            logo: None,
            votes: 0,
            primary_category: None,
            launch_week: None,
            status: ListingStatus::Live,
        }
    }

    #[test]
    fn week_references() {
        let current = Week::parse_date("2026-11-18").unwrap();
        assert_eq!(WeekRef::parse("this").unwrap().resolve(current).to_string(), "2026-11-16");
        assert_eq!(WeekRef::parse("next").unwrap().resolve(current).to_string(), "2026-11-23");
        assert_eq!(WeekRef::parse("last").unwrap().resolve(current).to_string(), "2026-11-09");
        assert_eq!(WeekRef::parse("2026-11-22").unwrap().resolve(current).to_string(), "2026-11-16");
        for bad in ["", "This", "yesterday", "2026-02-30", "2026-1-1", "20261116"] {
            assert!(WeekRef::parse(bad).is_none(), "{bad}");
        }
    }

    /// Launches one listing in every week and notes which weeks were read.
    struct CountingLaunches(std::sync::Mutex<Vec<Week>>);

    #[async_trait]
    impl LaunchRepository for CountingLaunches {
        async fn launching_in(&self, week: Week, _statuses: &[ListingStatus]) -> Result<Vec<ListingSummary>, RepoError> {
            self.0.lock().unwrap().push(week);
            Ok(vec![listing(1)])
        }
        async fn votes_between(
            &self,
            _listings: &[ListingId],
            _from: OffsetDateTime,
            _to: OffsetDateTime,
        ) -> Result<HashMap<ListingId, u64>, RepoError> {
            Ok(HashMap::new())
        }
        async fn earliest_live_week(&self) -> Result<Option<Week>, RepoError> {
            Ok(Some(Week::parse_date("2026-01-05").unwrap()))
        }
    }

    #[tokio::test]
    async fn the_background_ranks_last_week_before_a_reader_needs_it() {
        let clock = Arc::new(kernel::FixedClock::new(time::macros::datetime!(2026-11-18 12:00 UTC)));
        let repo = Arc::new(CountingLaunches(std::sync::Mutex::new(Vec::new())));
        let policy = CalendarPolicy { launch_offset: time::UtcOffset::UTC, weeks_ahead: 8 };
        let calendar = CalendarService::new(repo.clone(), clock.clone(), policy);
        let (this, last) = (calendar.current_week(), calendar.current_week().plus_weeks(-1));
        let read = || repo.0.lock().unwrap().drain(..).collect::<Vec<_>>();

        calendar.refresh_recent_weeks().await.unwrap();
        assert_eq!(read(), [this, last], "both weeks ranked before the first reader");
        calendar.ranking(last).await.unwrap();
        calendar.ranking(this).await.unwrap();
        assert_eq!(read(), [], "readers wait for nothing");

        // Every second the current week; last week only when its ranking is nearly expired.
        clock.advance(time::Duration::seconds(1));
        calendar.refresh_recent_weeks().await.unwrap();
        assert_eq!(read(), [this]);
        clock.advance(PAST_WEEK_TTL - time::Duration::seconds(6));
        calendar.refresh_recent_weeks().await.unwrap();
        assert_eq!(read(), [this, last]);
        clock.advance(time::Duration::seconds(5));
        calendar.ranking(last).await.unwrap();
        assert_eq!(read(), [], "a reader still finds last week ranked");

        // At the turn of the week the current week becomes last week, kept for a past week's time.
        calendar.ranking(this).await.unwrap();
        clock.set(this.plus_weeks(1).starts_at(time::UtcOffset::UTC) + time::Duration::seconds(1));
        read();
        calendar.refresh_recent_weeks().await.unwrap();
        assert_eq!(read(), [this.plus_weeks(1), this]);
        clock.advance(time::Duration::seconds(10));
        calendar.ranking(this).await.unwrap();
        assert_eq!(read(), [], "the new last week is kept for a past week's time");
    }

    #[test]
    fn ties_keep_launch_order() {
        let ranked = rank(vec![(listing(1), 5), (listing(2), 9), (listing(3), 5), (listing(4), 0)]);
        let order: Vec<(i64, Option<u32>)> = ranked.iter().map(|l| (l.listing.id.get(), l.rank)).collect();
        assert_eq!(order, [(2, Some(1)), (1, Some(2)), (3, Some(3)), (4, Some(4))]);
    }
}
