//! In-memory stand-ins for the ports the owner and lifecycle use cases need, so their job
//! handlers are tested without a database or a network.

use crate::awards::{AwardRepository, Winner};
use crate::calendar::{CalendarPolicy, CalendarService, LaunchRepository};
use crate::lifecycle::{BadgeCheckRecord, BadgeProbe, BadgeSighting, LifecycleRepository, QueuedListing};
use crate::model::{ListingStatus, ListingSummary};
use crate::owner::{OwnedListing, OwnedListingRepository};
use crate::{Award, AwardsService, ListingEdit, ListingVersion, Milestone};
use async_trait::async_trait;
use kernel::{Email, FixedClock, ListingId, NewJob, PageRequest, Paged, RepoError, Slug, UserId, Week};
use std::collections::{HashMap, HashSet};
use std::sync::{Arc, Mutex};
use time::{OffsetDateTime, UtcOffset};

/// Monday 2026-11-16, 09:00 UTC.
pub(crate) const T0: OffsetDateTime = time::macros::datetime!(2026-11-16 09:00 UTC);

pub(crate) fn clock() -> Arc<FixedClock> {
    Arc::new(FixedClock::new(T0))
}

pub(crate) fn owned(id: i64, name: &str, status: ListingStatus) -> OwnedListing {
    OwnedListing {
        id: ListingId::new(id),
        slug: Slug::from_text(name).map(|slug| slug.as_str().to_owned()).unwrap_or_default(),
        name: name.to_owned(),
        url: format!("https://{}.example/", name.to_lowercase()),
        tagline: None,
        status,
        plan: None,
        launch_week: None,
        launched_at: None,
        unlocked_sections: Vec::new(),
        badge_check: None,
        created_at: T0,
        updated_at: T0,
    }
}

/// Owned listings, their updates and followers, and the jobs enqueued with updates.
#[derive(Default)]
pub(crate) struct Owned {
    pub listings: Mutex<Vec<OwnedListing>>,
    pub updates: Mutex<Vec<(ListingId, String, String)>>,
    pub followers: Mutex<Vec<Email>>,
    pub jobs: Mutex<Vec<NewJob>>,
}

#[async_trait]
impl OwnedListingRepository for Owned {
    async fn owned(&self, _: UserId, _: PageRequest) -> Result<Paged<OwnedListing>, RepoError> {
        let items = self.listings.lock().unwrap().clone();
        Ok(Paged { total: items.len() as u64, items, page: 1, per_page: 20 })
    }

    async fn owned_one(&self, _: UserId, id: ListingId) -> Result<Option<OwnedListing>, RepoError> {
        self.owned_listing_by_id(id).await
    }

    async fn owned_listing_by_id(&self, id: ListingId) -> Result<Option<OwnedListing>, RepoError> {
        Ok(self.listings.lock().unwrap().iter().find(|listing| listing.id == id).cloned())
    }

    async fn free_slots_taken(&self, _: &[Week]) -> Result<Vec<(Week, u32)>, RepoError> {
        Ok(Vec::new())
    }

    async fn queue_free(&self, _: ListingId, _: Week, _: OffsetDateTime) -> Result<bool, RepoError> {
        Ok(false)
    }

    async fn post_update(
        &self,
        id: ListingId,
        title: &str,
        body: &str,
        job_for: &(dyn Fn(i64) -> NewJob + Send + Sync),
        _: OffsetDateTime,
    ) -> Result<i64, RepoError> {
        let mut updates = self.updates.lock().unwrap();
        updates.push((id, title.to_owned(), body.to_owned()));
        let update_id = updates.len() as i64;
        self.jobs.lock().unwrap().push(job_for(update_id));
        Ok(update_id)
    }

    async fn follower_emails(&self, _: ListingId) -> Result<Vec<Email>, RepoError> {
        Ok(self.followers.lock().unwrap().clone())
    }

    async fn update_text(&self, id: ListingId, update_id: i64) -> Result<Option<(String, String)>, RepoError> {
        let updates = self.updates.lock().unwrap();
        let update = usize::try_from(update_id - 1).ok().and_then(|i| updates.get(i)).filter(|(listing, _, _)| *listing == id);
        Ok(update.map(|(_, title, body)| (title.clone(), body.clone())))
    }

    async fn add_milestone(&self, _: ListingId, _: &Milestone, _: OffsetDateTime) -> Result<i64, RepoError> {
        Ok(1)
    }

    async fn delete_milestone(&self, _: ListingId, _: i64, _: OffsetDateTime) -> Result<bool, RepoError> {
        Ok(false)
    }

    async fn set_founder_avatar(&self, _: ListingId, _: &kernel::Slug, _: Option<kernel::ImageRef>) -> Result<bool, RepoError> {
        Ok(false)
    }

    async fn edit(&self, _: ListingId, _: UserId, _: &ListingEdit, _: OffsetDateTime) -> Result<Option<ListingVersion>, RepoError> {
        Ok(None)
    }

    async fn versions(&self, _: Option<ListingId>, _: u64) -> Result<Vec<ListingVersion>, RepoError> {
        Ok(Vec::new())
    }

    async fn version(&self, _: i64) -> Result<Option<ListingVersion>, RepoError> {
        Ok(None)
    }

    async fn set_story(&self, _: ListingId, _: &kernel::Story, _: Option<OffsetDateTime>, _: OffsetDateTime) -> Result<(), RepoError> {
        Ok(())
    }
}

/// Listings in the free queue and scheduled ones, with the lifecycle's moves recorded.
#[derive(Default)]
pub(crate) struct Lifecycle {
    pub queued: Mutex<Vec<QueuedListing>>,
    pub scheduled: Mutex<Vec<(ListingId, Week)>>,
    pub checks: Mutex<Vec<(ListingId, BadgeCheckRecord)>>,
    pub live: Mutex<Vec<ListingId>>,
}

#[async_trait]
impl LifecycleRepository for Lifecycle {
    async fn badge_checks_due(&self, _: OffsetDateTime, limit: u64) -> Result<Vec<QueuedListing>, RepoError> {
        Ok(self.queued.lock().unwrap().iter().take(limit as usize).cloned().collect())
    }

    async fn queued_listing(&self, id: ListingId) -> Result<Option<QueuedListing>, RepoError> {
        Ok(self.queued.lock().unwrap().iter().find(|listing| listing.id == id).cloned())
    }

    async fn record_badge_check(&self, id: ListingId, record: &BadgeCheckRecord) -> Result<bool, RepoError> {
        let mut queued = self.queued.lock().unwrap();
        let Some(listing) = queued.iter_mut().find(|listing| listing.id == id) else { return Ok(false) };
        listing.failures = record.failures;
        if record.publish.is_some() {
            queued.retain(|listing| listing.id != id);
        }
        self.checks.lock().unwrap().push((id, record.clone()));
        Ok(true)
    }

    async fn publish_scheduled(&self, week: Week, _: OffsetDateTime) -> Result<Vec<ListingId>, RepoError> {
        let mut scheduled = self.scheduled.lock().unwrap();
        let due: Vec<ListingId> = scheduled.iter().filter(|(_, w)| *w <= week).map(|(id, _)| *id).collect();
        scheduled.retain(|(id, _)| !due.contains(id));
        self.live.lock().unwrap().extend(&due);
        Ok(due)
    }
}

/// A homepage with or without the badge.
pub(crate) struct Probe(pub Mutex<BadgeSighting>);

#[async_trait]
impl BadgeProbe for Probe {
    async fn look(&self, _: &kernel::WebUrl, _: &kernel::WebUrl, _: &kernel::WebUrl) -> BadgeSighting {
        self.0.lock().unwrap().clone()
    }
}

/// The job queue the tests read what was enqueued from.
pub(crate) type Queue = kernel::MemoryJobQueue;

/// Launches of one listing in one week, with its votes that week.
#[derive(Default)]
pub(crate) struct Launches {
    pub launches: Mutex<Vec<(ListingSummary, u64)>>,
}

#[async_trait]
impl LaunchRepository for Launches {
    async fn launching_in(&self, week: Week, _: &[ListingStatus]) -> Result<Vec<ListingSummary>, RepoError> {
        Ok(self.launches.lock().unwrap().iter().filter(|(l, _)| l.launch_week == Some(week)).map(|(l, _)| l.clone()).collect())
    }

    async fn votes_between(
        &self,
        listings: &[ListingId],
        _: OffsetDateTime,
        _: OffsetDateTime,
    ) -> Result<HashMap<ListingId, u64>, RepoError> {
        Ok(self.launches.lock().unwrap().iter().filter(|(l, _)| listings.contains(&l.id)).map(|(l, votes)| (l.id, *votes)).collect())
    }

    async fn earliest_live_week(&self) -> Result<Option<Week>, RepoError> {
        Ok(self.launches.lock().unwrap().iter().filter_map(|(l, _)| l.launch_week).min())
    }
}

/// Weeks fixed, with their winners.
#[derive(Default)]
pub(crate) struct Awards {
    pub fixed: Mutex<Vec<(Week, Vec<Winner>)>>,
}

#[async_trait]
impl AwardRepository for Awards {
    async fn list(&self, _: Option<ListingId>, _: PageRequest) -> Result<Paged<Award>, RepoError> {
        Ok(Paged { items: Vec::new(), page: 1, per_page: 20, total: 0 })
    }

    async fn fixed_weeks(&self, from: Week, to: Week) -> Result<HashSet<Week>, RepoError> {
        Ok(self.fixed.lock().unwrap().iter().map(|(week, _)| *week).filter(|week| (from..=to).contains(week)).collect())
    }

    async fn fix_week(&self, week: Week, winners: &[Winner], _: OffsetDateTime) -> Result<bool, RepoError> {
        let mut fixed = self.fixed.lock().unwrap();
        if fixed.iter().any(|(w, _)| *w == week) {
            return Ok(false);
        }
        fixed.push((week, winners.to_vec()));
        Ok(true)
    }

    async fn listing_id(&self, _: &Slug) -> Result<Option<ListingId>, RepoError> {
        Ok(None)
    }
}

/// An awards service over fakes, on the clock given.
pub(crate) fn awards(launches: Arc<Launches>, awards: Arc<Awards>, clock: Arc<FixedClock>) -> AwardsService {
    let calendar = CalendarService::new(launches, clock.clone(), CalendarPolicy { launch_offset: UtcOffset::UTC, weeks_ahead: 12 });
    AwardsService::new(awards, calendar, clock)
}
