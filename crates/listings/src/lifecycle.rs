//! The calendar moving by itself: the badge check of listings in the free queue, the week-start
//! publication of scheduled listings, and the periodic jobs that run both (and the week-end
//! awards) once per period however many server processes run.

use crate::AwardsService;
use async_trait::async_trait;
use kernel::{Clock, Job, JobHandler, JobOutcome, JobQueue, JobRun, ListingId, RepoError, WebUrl, Week};
use serde::{Deserialize, Serialize};
use serde_json::json;
use std::sync::Arc;
use time::{Duration, OffsetDateTime, UtcOffset};

/// Publishes `scheduled` listings whose week has started (one per week, keyed by its Monday).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct StartWeek {}

impl Job for StartWeek {
    const KIND: &'static str = "calendar.week_start";
}

/// Fixes the awards of finished weeks (one per week, keyed by the last finished Monday).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct EndWeek {}

impl Job for EndWeek {
    const KIND: &'static str = "calendar.week_end";
}

/// Finds the listings whose badge check is due and enqueues one check each (one per period).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct SweepBadges {}

impl Job for SweepBadges {
    const KIND: &'static str = "badge.sweep";
}

/// Checks one listing's homepage for the badge.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct CheckBadge {
    pub listing_id: ListingId,
}

impl Job for CheckBadge {
    const KIND: &'static str = "badge.check";
    /// The check's own schedule (interval, backoff) is its retry: one run per enqueue.
    const MAX_ATTEMPTS: u32 = 1;
}

/// What a look at a homepage found.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum BadgeSighting {
    /// A link to the listing's page or an image from our badge endpoint; the detail says which.
    Found(String),
    /// The homepage was read; no badge on it.
    NotFound,
    /// The homepage could not be read: `reason` is `unreachable`, `robots_disallowed`,
    /// `blocked_address`, `not_html` or `too_large`.
    Failed { reason: &'static str, detail: String },
}

/// Reads a homepage and looks for our badge (an adapter: the safe fetcher with robots.txt).
#[async_trait]
pub trait BadgeProbe: Send + Sync {
    /// `listing_page` is `{site}/listings/{slug}`; `badge_images` is `{site}/badges/{slug}/`.
    /// Matches inside comments and scripts do not count.
    async fn look(&self, homepage: &WebUrl, listing_page: &WebUrl, badge_images: &WebUrl) -> BadgeSighting;
}

/// A listing in the free queue, as the badge check needs it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct QueuedListing {
    pub id: ListingId,
    pub slug: String,
    pub url: WebUrl,
    pub launch_week: Week,
    /// Checks that failed in a row.
    pub failures: u32,
}

/// One badge check's result, as stored.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BadgeCheckRecord {
    /// `found`, `not_found`, or a failure reason.
    pub result: String,
    pub detail: String,
    pub checked_at: OffsetDateTime,
    /// When the next check is due (none once found).
    pub next_check_at: Option<OffsetDateTime>,
    pub failures: u32,
    /// On `found`: the new status, `scheduled` or `live`.
    pub publish: Option<crate::ListingStatus>,
}

/// Where the lifecycle reads and moves listings.
#[async_trait]
pub trait LifecycleRepository: Send + Sync {
    /// `awaiting_badge` listings whose next check is due at `now` (never checked first), at
    /// most `limit`.
    async fn badge_checks_due(&self, now: OffsetDateTime, limit: u64) -> Result<Vec<QueuedListing>, RepoError>;

    /// The listing if it is still `awaiting_badge`.
    async fn queued_listing(&self, id: ListingId) -> Result<Option<QueuedListing>, RepoError>;

    /// Stores a check's result. On `found` it also moves the listing from `awaiting_badge` to
    /// `record.publish` (and sets `launched_at` when live), in one compare-and-set; returns
    /// whether the listing was still awaiting the badge.
    async fn record_badge_check(&self, id: ListingId, record: &BadgeCheckRecord) -> Result<bool, RepoError>;

    /// Makes every `scheduled` listing whose week starts on or before `week` live (free ones
    /// only once their badge was seen), each with one compare-and-set on its status; returns
    /// the listings this call published. One whose week already ended (no server ran at its
    /// start) launches in `week` instead, so finished weeks never change.
    async fn publish_scheduled(&self, week: Week, now: OffsetDateTime) -> Result<Vec<ListingId>, RepoError>;
}

/// Timing of the lifecycle (settings).
#[derive(Debug, Clone)]
pub struct LifecyclePolicy {
    pub launch_offset: UtcOffset,
    pub site_url: String,
    /// How often a listing without the badge is looked at again, and the period of the sweep.
    pub badge_check_interval: Duration,
    /// The longest wait between two checks of a site that keeps failing.
    pub badge_max_backoff: Duration,
    /// At most this many checks are enqueued per sweep.
    pub badge_checks_per_sweep: u64,
}

/// What one badge check did.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum BadgeOutcome {
    /// The listing was not awaiting the badge any more.
    Skipped,
    Checked(BadgeCheckRecord),
}

#[derive(Clone)]
pub struct LifecycleService {
    repo: Arc<dyn LifecycleRepository>,
    probe: Arc<dyn BadgeProbe>,
    jobs: Arc<dyn JobQueue>,
    awards: AwardsService,
    clock: Arc<dyn Clock>,
    policy: LifecyclePolicy,
}

impl LifecycleService {
    pub fn new(
        repo: Arc<dyn LifecycleRepository>,
        probe: Arc<dyn BadgeProbe>,
        jobs: Arc<dyn JobQueue>,
        awards: AwardsService,
        clock: Arc<dyn Clock>,
        policy: LifecyclePolicy,
    ) -> Self {
        Self { repo, probe, jobs, awards, clock, policy }
    }

    /// Enqueues this period's periodic jobs, each under a key naming its period, so that however
    /// many processes call this, each runs once: the start of the current week, the end of the
    /// last finished week, and the badge sweep of the current check period. A process that was
    /// down enqueues them when it is back, and each job catches up on all it missed.
    pub async fn enqueue_periodic(&self) -> Result<usize, RepoError> {
        let now = self.clock.now();
        let week = Week::at(now, self.policy.launch_offset);
        let period = self.sweep_period(now);
        let jobs = [
            StartWeek {}.new_job(now).unique(format!("{}:{week}", StartWeek::KIND)),
            EndWeek {}.new_job(now).unique(format!("{}:{}", EndWeek::KIND, week.plus_weeks(-1))),
            SweepBadges {}.new_job(now).unique(format!("{}:{period}", SweepBadges::KIND)),
        ];
        let mut added = 0;
        for job in jobs {
            if self.jobs.enqueue(job).await? {
                added += 1;
            }
        }
        Ok(added)
    }

    /// The week-start job: publishes every scheduled listing whose week has come.
    pub async fn start_week(&self) -> Result<Vec<ListingId>, RepoError> {
        let now = self.clock.now();
        self.repo.publish_scheduled(Week::at(now, self.policy.launch_offset), now).await
    }

    /// Enqueues one check per listing whose check is due, keyed by listing and period so a
    /// listing is never checked twice in one period.
    pub async fn sweep_badges(&self) -> Result<usize, RepoError> {
        let now = self.clock.now();
        let period = self.sweep_period(now);
        let due = self.repo.badge_checks_due(now, self.policy.badge_checks_per_sweep).await?;
        let mut added = 0;
        for listing in due {
            if self.enqueue_check(listing.id, now, period).await? {
                added += 1;
            }
        }
        Ok(added)
    }

    /// Enqueues a check of a listing just put in the free queue: its badge may be up already.
    /// It shares the sweep's key for this period, so the two never check it twice.
    pub async fn check_soon(&self, id: ListingId) -> Result<bool, RepoError> {
        let now = self.clock.now();
        self.enqueue_check(id, now, self.sweep_period(now)).await
    }

    async fn enqueue_check(&self, id: ListingId, now: OffsetDateTime, period: i64) -> Result<bool, RepoError> {
        let job = CheckBadge { listing_id: id }.new_job(now).unique(format!("{}:{}:{period}", CheckBadge::KIND, id.get()));
        self.jobs.enqueue(job).await
    }

    /// Looks for the badge on one queued listing's homepage and records what was found. Found:
    /// `scheduled`, or `live` when its week has started. Not found: looked at again after the
    /// check interval. A failure: again after a wait that doubles with each failure in a row, up
    /// to the longest backoff.
    pub async fn check_badge(&self, id: ListingId) -> Result<BadgeOutcome, RepoError> {
        let Some(listing) = self.repo.queued_listing(id).await? else { return Ok(BadgeOutcome::Skipped) };
        let site = self.policy.site_url.trim_end_matches('/');
        let ours =
            (WebUrl::parse(&format!("{site}/listings/{}", listing.slug)), WebUrl::parse(&format!("{site}/badges/{}/", listing.slug)));
        let sighting = match ours {
            (Ok(listing_page), Ok(badge_images)) => self.probe.look(&listing.url, &listing_page, &badge_images).await,
            _ => BadgeSighting::Failed { reason: "unreachable", detail: format!("{site} (site_url) is not a web address") },
        };
        let now = self.clock.now();
        let record = match sighting {
            BadgeSighting::Found(detail) => {
                let started = Week::at(now, self.policy.launch_offset) >= listing.launch_week;
                BadgeCheckRecord {
                    result: "found".into(),
                    detail,
                    checked_at: now,
                    next_check_at: None,
                    failures: 0,
                    publish: Some(if started { crate::ListingStatus::Live } else { crate::ListingStatus::Scheduled }),
                }
            }
            BadgeSighting::NotFound => BadgeCheckRecord {
                result: "not_found".into(),
                detail: format!(
                    "no link to {site}/listings/{} and no image from {site}/badges/{}/ on {}",
                    listing.slug, listing.slug, listing.url
                ),
                checked_at: now,
                next_check_at: Some(now + self.policy.badge_check_interval),
                failures: 0,
                publish: None,
            },
            BadgeSighting::Failed { reason, detail } => {
                let failures = listing.failures.saturating_add(1);
                BadgeCheckRecord {
                    result: reason.into(),
                    detail,
                    checked_at: now,
                    next_check_at: Some(now + self.backoff(failures)),
                    failures,
                    publish: None,
                }
            }
        };
        if !self.repo.record_badge_check(id, &record).await? {
            return Ok(BadgeOutcome::Skipped);
        }
        Ok(BadgeOutcome::Checked(record))
    }

    /// The number of the sweep period `now` falls in. Sweeps run every five minutes (or every
    /// check interval, when shorter), so a check is at most that late.
    fn sweep_period(&self, now: OffsetDateTime) -> i64 {
        let every = self.policy.badge_check_interval.min(Duration::minutes(5)).whole_seconds().max(1);
        now.unix_timestamp().div_euclid(every)
    }

    /// The wait after `failures` failed checks in a row: the interval, doubled each time, capped.
    pub fn backoff(&self, failures: u32) -> Duration {
        let doublings = failures.saturating_sub(1).min(20);
        let wait = self.policy.badge_check_interval.saturating_mul(1i32 << doublings);
        wait.min(self.policy.badge_max_backoff).max(self.policy.badge_check_interval.min(self.policy.badge_max_backoff))
    }
}

#[async_trait]
impl JobHandler<StartWeek> for LifecycleService {
    async fn run(&self, _: StartWeek, _: JobRun) -> JobOutcome {
        JobOutcome::from_result(
            self.start_week().await,
            |published| json!({"published": published.iter().map(|id| id.get()).collect::<Vec<_>>()}),
        )
    }
}

#[async_trait]
impl JobHandler<EndWeek> for LifecycleService {
    async fn run(&self, _: EndWeek, _: JobRun) -> JobOutcome {
        JobOutcome::from_result(
            self.awards.fix_finished_weeks().await,
            |fixed| json!({"fixed": fixed.iter().map(|(week, winners)| json!({"week": week.to_string(), "winners": winners})).collect::<Vec<_>>()}),
        )
    }
}

#[async_trait]
impl JobHandler<SweepBadges> for LifecycleService {
    async fn run(&self, _: SweepBadges, _: JobRun) -> JobOutcome {
        JobOutcome::from_result(self.sweep_badges().await, |checks| json!({"checks_enqueued": checks}))
    }
}

#[async_trait]
impl JobHandler<CheckBadge> for LifecycleService {
    async fn run(&self, job: CheckBadge, _: JobRun) -> JobOutcome {
        let id = job.listing_id;
        JobOutcome::from_result(self.check_badge(id).await, |outcome| match outcome {
            BadgeOutcome::Skipped => json!({"listing_id": id, "result": "skipped"}),
            BadgeOutcome::Checked(record) => json!({"listing_id": id, "result": record.result, "detail": record.detail}),
        })
    }
}
