//! What paid products do to a listing: a paid launch, a moved free-queue week, featured
//! placement, extra categories, a billboard contribution and a relaunch. The orders domain
//! decides *when* (once per paid order line); this module owns *how*, since every write to
//! the listing tables belongs to the listings domain. Each effect is keyed or idempotent, so a
//! fulfilment job that runs again after a crash repeats nothing.

use crate::ListingStatus;
use async_trait::async_trait;
use kernel::{Cents, Clock, ListingId, RepoError, UserId, Week};
use std::sync::Arc;
use time::{OffsetDateTime, UtcOffset};

/// The paid-only sections a paid plan unlocks.
pub const PAID_SECTIONS: [&str; 3] = ["story", "milestones", "media"];

/// What an order needs to know of a listing its buyer owns.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PurchaseFacts {
    pub id: ListingId,
    /// The listing's name, as invoices name what was bought for it.
    pub name: String,
    pub status: ListingStatus,
    /// `free` or `paid`; none until a route to publication is chosen.
    pub plan: Option<String>,
    pub launch_week: Option<Week>,
    /// The slug of the primary category.
    pub primary_category: Option<String>,
    /// Slugs of every category the listing is in, primary included.
    pub categories: Vec<String>,
}

impl PurchaseFacts {
    /// In the free queue: waiting for its badge or its week, not live yet.
    pub fn in_free_queue(&self) -> bool {
        self.plan.as_deref() == Some("free") && matches!(self.status, ListingStatus::AwaitingBadge | ListingStatus::Scheduled)
    }

    /// Launched or booked on the paid plan already.
    pub fn paid_launch_booked(&self) -> bool {
        self.plan.as_deref() == Some("paid") && matches!(self.status, ListingStatus::Scheduled | ListingStatus::Live)
    }
}

/// The listing side of fulfilment.
#[async_trait]
pub trait PurchaseRepository: Send + Sync {
    /// The listing `id` if `owner` owns it.
    async fn facts(&self, owner: UserId, id: ListingId) -> Result<Option<PurchaseFacts>, RepoError>;
    /// Which of `slugs` name categories.
    async fn existing_categories(&self, slugs: &[String]) -> Result<Vec<String>, RepoError>;
    /// How many paid launches each of `weeks` holds (scheduled or live on the paid plan); a week
    /// without any is left out.
    async fn paid_launches_booked(&self, weeks: &[Week]) -> Result<Vec<(Week, u32)>, RepoError>;
    /// Puts the listing on the paid plan with the paid sections unlocked, and either live now
    /// (`launch_week` this week, `launched_at` now unless it was live already) or scheduled for
    /// `week`, recording `order_line` as what paid for it. Returns the status it was in; none
    /// when another order line paid for its launch already (nothing is changed).
    async fn launch_paid(
        &self,
        id: ListingId,
        week: Week,
        live_now: bool,
        order_line: i64,
        now: OffsetDateTime,
    ) -> Result<Option<ListingStatus>, RepoError>;
    /// Moves a listing still in the free queue to `week`; false when it is no longer there.
    async fn move_free_week(&self, id: ListingId, week: Week, now: OffsetDateTime) -> Result<bool, RepoError>;
    /// Marks the listing featured (its Featured badge), once.
    async fn feature(&self, id: ListingId, now: OffsetDateTime) -> Result<(), RepoError>;
    /// Adds the listing to `slugs` (not as primary); categories it is in already are kept.
    async fn add_categories(&self, id: ListingId, slugs: &[String], now: OffsetDateTime) -> Result<(), RepoError>;
    /// Records a billboard contribution, once per order line.
    async fn add_billboard(&self, id: ListingId, amount: Cents, order_line: i64, now: OffsetDateTime) -> Result<(), RepoError>;
    /// Records a relaunch in `week`, once per order line; with `at_once` the listing relaunches
    /// now (this week's board, `launched_at` now).
    async fn relaunch(&self, id: ListingId, week: Week, order_line: i64, at_once: bool, now: OffsetDateTime) -> Result<(), RepoError>;
}

/// What a paid launch did.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum LaunchOutcome {
    LiveNow,
    /// The chosen week had passed (or begun) when the payment came: live at once.
    LiveNowWeekPassed(Week),
    Scheduled(Week),
    /// It was live already; the paid plan and its sections apply from now.
    AlreadyLive,
}

impl std::fmt::Display for LaunchOutcome {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Self::LiveNow => f.write_str("live at once"),
            Self::LiveNowWeekPassed(week) => write!(f, "live at once: the week of {week} had begun when the payment arrived"),
            Self::Scheduled(week) => write!(f, "scheduled for the week of {week}"),
            Self::AlreadyLive => f.write_str("already live; the paid plan and its sections now apply"),
        }
    }
}

/// The purchase use cases the orders domain calls.
#[derive(Clone)]
pub struct PurchaseService {
    repo: Arc<dyn PurchaseRepository>,
    clock: Arc<dyn Clock>,
    launch_offset: UtcOffset,
}

impl PurchaseService {
    pub fn new(repo: Arc<dyn PurchaseRepository>, clock: Arc<dyn Clock>, launch_offset: UtcOffset) -> Self {
        Self { repo, clock, launch_offset }
    }

    pub async fn facts(&self, owner: UserId, id: ListingId) -> Result<Option<PurchaseFacts>, RepoError> {
        self.repo.facts(owner, id).await
    }

    pub async fn existing_categories(&self, slugs: &[String]) -> Result<Vec<String>, RepoError> {
        self.repo.existing_categories(slugs).await
    }

    pub async fn paid_launches_booked(&self, weeks: &[Week]) -> Result<Vec<(Week, u32)>, RepoError> {
        self.repo.paid_launches_booked(weeks).await
    }

    fn current_week(&self, now: OffsetDateTime) -> Week {
        Week::at(now, self.launch_offset)
    }

    /// A paid launch: live at once without a week, or when the week has begun; else scheduled.
    /// None when another order line paid for the listing's launch already.
    pub async fn launch(&self, id: ListingId, week: Option<Week>, order_line: i64) -> Result<Option<LaunchOutcome>, RepoError> {
        let now = self.clock.now();
        let current = self.current_week(now);
        let (target, live_now, outcome) = match week {
            None => (current, true, LaunchOutcome::LiveNow),
            Some(week) if week <= current => (current, true, LaunchOutcome::LiveNowWeekPassed(week)),
            Some(week) => (week, false, LaunchOutcome::Scheduled(week)),
        };
        let Some(was) = self.repo.launch_paid(id, target, live_now, order_line, now).await? else { return Ok(None) };
        Ok(Some(if was == ListingStatus::Live && !live_now { LaunchOutcome::AlreadyLive } else { outcome }))
    }

    /// Skip the queue: the free listing's week becomes `week` (this week when it has begun).
    pub async fn skip_queue(&self, id: ListingId, week: Week) -> Result<Option<String>, RepoError> {
        let now = self.clock.now();
        let current = self.current_week(now);
        let target = week.max(current);
        if !self.repo.move_free_week(id, target, now).await? {
            return Ok(None);
        }
        Ok(Some(if target == week {
            format!("moved to the week of {week}")
        } else {
            format!("moved to this week ({target}): the week of {week} had begun when the payment arrived")
        }))
    }

    pub async fn feature(&self, id: ListingId) -> Result<(), RepoError> {
        self.repo.feature(id, self.clock.now()).await
    }

    pub async fn add_categories(&self, id: ListingId, slugs: &[String]) -> Result<(), RepoError> {
        self.repo.add_categories(id, slugs, self.clock.now()).await
    }

    pub async fn billboard(&self, id: ListingId, amount: Cents, order_line: i64) -> Result<(), RepoError> {
        self.repo.add_billboard(id, amount, order_line, self.clock.now()).await
    }

    /// A relaunch in `week`, or at once when that week has begun.
    pub async fn relaunch(&self, id: ListingId, week: Week, order_line: i64) -> Result<String, RepoError> {
        let now = self.clock.now();
        let current = self.current_week(now);
        let at_once = week <= current;
        self.repo.relaunch(id, week.max(current), order_line, at_once, now).await?;
        Ok(if at_once {
            format!("relaunched at once: the week of {week} had begun when the payment arrived")
        } else {
            format!("relaunch scheduled for the week of {week}")
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::Mutex;

    /// Records each call as text.
    #[derive(Default)]
    struct Recorder(Mutex<Vec<String>>, Option<ListingStatus>);

    #[async_trait]
    impl PurchaseRepository for Recorder {
        async fn facts(&self, _: UserId, _: ListingId) -> Result<Option<PurchaseFacts>, RepoError> {
            Ok(None)
        }
        async fn existing_categories(&self, _: &[String]) -> Result<Vec<String>, RepoError> {
            Ok(Vec::new())
        }
        async fn paid_launches_booked(&self, _: &[Week]) -> Result<Vec<(Week, u32)>, RepoError> {
            Ok(Vec::new())
        }
        async fn launch_paid(
            &self,
            id: ListingId,
            week: Week,
            live_now: bool,
            line: i64,
            _: OffsetDateTime,
        ) -> Result<Option<ListingStatus>, RepoError> {
            self.0.lock().unwrap().push(format!("launch {id} {week} live_now={live_now}"));
            // Line 99 stands for another order's line that paid first.
            Ok((line != 99).then_some(self.1.unwrap_or(ListingStatus::Draft)))
        }
        async fn move_free_week(&self, id: ListingId, week: Week, _: OffsetDateTime) -> Result<bool, RepoError> {
            self.0.lock().unwrap().push(format!("move {id} {week}"));
            Ok(true)
        }
        async fn feature(&self, _: ListingId, _: OffsetDateTime) -> Result<(), RepoError> {
            Ok(())
        }
        async fn add_categories(&self, _: ListingId, _: &[String], _: OffsetDateTime) -> Result<(), RepoError> {
            Ok(())
        }
        async fn add_billboard(&self, _: ListingId, _: Cents, _: i64, _: OffsetDateTime) -> Result<(), RepoError> {
            Ok(())
        }
        async fn relaunch(&self, id: ListingId, week: Week, line: i64, at_once: bool, _: OffsetDateTime) -> Result<(), RepoError> {
            self.0.lock().unwrap().push(format!("relaunch {id} {week} line {line} at_once={at_once}"));
            Ok(())
        }
    }

    fn service(repo: Arc<Recorder>) -> PurchaseService {
        // Wednesday 2026-11-25: its week began on Monday 2026-11-23.
        let now = time::macros::datetime!(2026-11-25 12:00 UTC);
        PurchaseService::new(repo, Arc::new(kernel::FixedClock::new(now)), UtcOffset::UTC)
    }

    fn week(monday: &str) -> Week {
        Week::parse_date(monday).unwrap()
    }

    #[tokio::test]
    async fn a_week_that_has_begun_by_payment_launches_at_once_and_says_so() {
        let repo = Arc::new(Recorder::default());
        let service = service(repo.clone());
        let id = ListingId::new(7);
        assert_eq!(service.launch(id, None, 1).await.unwrap(), Some(LaunchOutcome::LiveNow));
        assert_eq!(
            service.launch(id, Some(week("2026-11-16")), 1).await.unwrap(),
            Some(LaunchOutcome::LiveNowWeekPassed(week("2026-11-16")))
        );
        assert_eq!(
            service.launch(id, Some(week("2026-11-23")), 1).await.unwrap(),
            Some(LaunchOutcome::LiveNowWeekPassed(week("2026-11-23")))
        );
        assert_eq!(service.launch(id, Some(week("2026-12-07")), 1).await.unwrap(), Some(LaunchOutcome::Scheduled(week("2026-12-07"))));
        assert!(LaunchOutcome::LiveNowWeekPassed(week("2026-11-16")).to_string().contains("had begun"));
        assert_eq!(
            *repo.0.lock().unwrap(),
            [
                "launch 7 2026-11-23 live_now=true",
                "launch 7 2026-11-23 live_now=true",
                "launch 7 2026-11-23 live_now=true",
                "launch 7 2026-12-07 live_now=false"
            ]
        );
        let moved = service.skip_queue(id, week("2026-11-16")).await.unwrap().unwrap();
        assert!(moved.contains("moved to this week (2026-11-23)"), "{moved}");
        let relaunched = service.relaunch(id, week("2026-11-16"), 3).await.unwrap();
        assert!(relaunched.contains("at once"), "{relaunched}");
        assert_eq!(repo.0.lock().unwrap().last().unwrap(), "relaunch 7 2026-11-23 line 3 at_once=true");
    }

    #[tokio::test]
    async fn a_listing_live_already_keeps_its_launch() {
        let repo = Arc::new(Recorder(Mutex::default(), Some(ListingStatus::Live)));
        let service = service(repo);
        let outcome = service.launch(ListingId::new(1), Some(week("2026-12-07")), 1).await.unwrap();
        assert_eq!(outcome, Some(LaunchOutcome::AlreadyLive));
        assert_eq!(service.launch(ListingId::new(1), None, 99).await.unwrap(), None, "another order's line paid for the launch");
    }
}
