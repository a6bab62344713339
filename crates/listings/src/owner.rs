//! Owners and their listings: every owned listing of any status, one listing in full for its
//! owner, and the free queue (`choose_free_listing`).

use crate::model::ListingStatus;
use async_trait::async_trait;
use kernel::{Clock, Job, JobHandler, JobOutcome, JobRun, ListingId, MailError, NewJob, PageRequest, Paged, RepoError, UserId, Week};
use serde::{Deserialize, Serialize};
use std::sync::Arc;
use time::{OffsetDateTime, UtcOffset};

/// A listing as its owner sees it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct OwnedListing {
    pub id: ListingId,
    pub slug: String,
    pub name: String,
    pub url: String,
    pub tagline: Option<String>,
    pub status: ListingStatus,
    /// `free` or `paid`; none until a route to publication is chosen.
    pub plan: Option<String>,
    pub launch_week: Option<Week>,
    pub launched_at: Option<OffsetDateTime>,
    /// Paid-only sections unlocked: `story`, `milestones`, `media`.
    pub unlocked_sections: Vec<String>,
    /// The last badge check, for listings in the free queue.
    pub badge_check: Option<BadgeCheckState>,
    pub created_at: OffsetDateTime,
    pub updated_at: OffsetDateTime,
}

/// The badge check as its owner sees it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BadgeCheckState {
    /// `found`, `not_found`, `unreachable`, `robots_disallowed`, `blocked_address`, `not_html`
    /// or `too_large`.
    pub result: String,
    pub detail: Option<String>,
    pub checked_at: OffsetDateTime,
    /// When the badge was first seen.
    pub seen_at: Option<OffsetDateTime>,
    /// When the next check is due (none once the badge was seen).
    pub next_check_at: Option<OffsetDateTime>,
    /// Failed checks in a row.
    pub failures: u32,
}

/// What putting a listing in the free queue did.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum FreeQueueOutcome {
    /// Queued for this week now.
    Queued(Week),
    /// It was in the free queue already; nothing moved.
    AlreadyQueued(Week),
}

/// Where owned listings are read and queued.
#[async_trait]
pub trait OwnedListingRepository: Send + Sync {
    /// The owner's listings of every status, newest first.
    async fn owned(&self, owner: UserId, page: PageRequest) -> Result<Paged<OwnedListing>, RepoError>;

    async fn owned_one(&self, owner: UserId, id: ListingId) -> Result<Option<OwnedListing>, RepoError>;

    /// A listing whoever owns it (for jobs).
    async fn owned_listing_by_id(&self, id: ListingId) -> Result<Option<OwnedListing>, RepoError>;

    /// Free listings already queued (awaiting the badge, scheduled or live) for each of `weeks`.
    async fn free_slots_taken(&self, weeks: &[Week]) -> Result<Vec<(Week, u32)>, RepoError>;

    /// Puts a `draft` listing in the free queue for `week` (status `awaiting_badge`, plan
    /// `free`). Returns `false` when the listing was no longer a draft (a concurrent call won).
    async fn queue_free(&self, id: ListingId, week: Week, now: OffsetDateTime) -> Result<bool, RepoError>;

    /// Adds a what's-new update and, in the same transaction, the job `job_for` makes from the
    /// new update's id (the one that tells the listing's followers); returns the update's id.
    async fn post_update(
        &self,
        id: ListingId,
        title: &str,
        body: &str,
        job_for: &(dyn Fn(i64) -> NewJob + Send + Sync),
        now: OffsetDateTime,
    ) -> Result<i64, RepoError>;

    /// The e-mail addresses of the listing's followers whose accounts are not blocked.
    async fn follower_emails(&self, id: ListingId) -> Result<Vec<kernel::Email>, RepoError>;

    /// The title and body of an update of a listing.
    async fn update_text(&self, id: ListingId, update_id: i64) -> Result<Option<(String, String)>, RepoError>;

    /// Adds a milestone; returns its id. Moves the listing's `updated_at`.
    async fn add_milestone(&self, id: ListingId, milestone: &crate::Milestone, now: OffsetDateTime) -> Result<i64, RepoError>;

    /// Deletes a milestone of this listing; `false` when the listing has no such milestone.
    async fn delete_milestone(&self, id: ListingId, milestone_id: i64, now: OffsetDateTime) -> Result<bool, RepoError>;

    /// Applies an owner's edit in one transaction: reads the editable copy, makes the new one
    /// with [`crate::ListingEdit::apply`], writes the listing and keeps a version (who, when,
    /// before, after). `None` when the edit changed nothing; then nothing is written.
    async fn edit(
        &self,
        id: ListingId,
        editor: UserId,
        edit: &crate::ListingEdit,
        now: OffsetDateTime,
    ) -> Result<Option<crate::ListingVersion>, RepoError>;

    /// Sets (or, with `None`, removes) the avatar of a founder of this listing; `false` when the
    /// listing has no founder with this slug. The documents of the founder's listings move on
    /// (a trigger), so every listing that shows them shows the new picture.
    async fn set_founder_avatar(&self, id: ListingId, founder: &kernel::Slug, avatar: Option<kernel::ImageRef>) -> Result<bool, RepoError>;

    /// Kept edits, newest first: of one listing, or of every listing.
    async fn versions(&self, listing: Option<ListingId>, limit: u64) -> Result<Vec<crate::ListingVersion>, RepoError>;

    /// One kept edit.
    async fn version(&self, id: i64) -> Result<Option<crate::ListingVersion>, RepoError>;

    /// Replaces the founder story; `published_at` is set for a public listing, else left for
    /// publication.
    async fn set_story(
        &self,
        id: ListingId,
        story: &kernel::Story,
        published_at: Option<OffsetDateTime>,
        now: OffsetDateTime,
    ) -> Result<(), RepoError>;
}

/// The free queue's rules (`decisions.md`).
#[derive(Debug, Clone, Copy)]
pub struct FreeQueuePolicy {
    pub launch_offset: UtcOffset,
    /// The earliest week, in weeks ahead of the current one (6).
    pub min_weeks: u32,
    /// The last week of the window (8); beyond it only when the window is full.
    pub max_weeks: u32,
    pub slots_per_week: u32,
}

/// Why an owner use case did not succeed.
#[derive(Debug, thiserror::Error)]
pub enum OwnerError {
    #[error("no such listing")]
    NotFound,
    #[error("this listing has no founder with this slug")]
    NoSuchFounder,
    #[error("{0}")]
    NotAllowed(String),
    #[error(transparent)]
    Repo(#[from] RepoError),
    #[error(transparent)]
    Mail(#[from] MailError),
}

/// How far past the window the queue looks for room before giving up.
const FURTHEST_WEEKS: u32 = 104;

/// Tells a listing's followers of a new update: one plain e-mail each, sent from the job.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct NotifyFollowers {
    pub listing_id: ListingId,
    pub update_id: i64,
}

impl Job for NotifyFollowers {
    const KIND: &'static str = "listing.notify_followers";
}

#[derive(Clone)]
pub struct OwnerService {
    repo: Arc<dyn OwnedListingRepository>,
    clock: Arc<dyn Clock>,
    policy: FreeQueuePolicy,
    mailer: Arc<dyn kernel::Mailer>,
    /// The site address, for links in e-mails.
    site_url: String,
}

impl OwnerService {
    pub fn new(
        repo: Arc<dyn OwnedListingRepository>,
        clock: Arc<dyn Clock>,
        policy: FreeQueuePolicy,
        mailer: Arc<dyn kernel::Mailer>,
        site_url: String,
    ) -> Self {
        Self { repo, clock, policy, mailer, site_url }
    }

    /// `post_listing_update`: stores the update (it feeds the profile's latest updates) and
    /// enqueues the e-mails to followers, which a background job sends, never the request.
    pub async fn post_update(&self, owner: UserId, id: ListingId, title: &str, body: &str) -> Result<(i64, OffsetDateTime), OwnerError> {
        self.get(owner, id).await?;
        let now = self.clock.now();
        // The job names the update, whose id the insert makes: the repository asks for the job
        // once it has the id, and writes both in one transaction.
        let job_for = move |update_id| NotifyFollowers { listing_id: id, update_id }.new_job(now);
        let update_id = self.repo.post_update(id, title, body, &job_for, now).await?;
        Ok((update_id, now))
    }

    /// Sends one plain e-mail per follower of the update's listing; returns how many.
    async fn notify_followers(&self, job: &NotifyFollowers) -> Result<usize, OwnerError> {
        let id = job.listing_id;
        let Some((title, body)) = self.repo.update_text(id, job.update_id).await? else { return Ok(0) };
        let listing = self.repo.owned_listing_by_id(id).await?.ok_or(OwnerError::NotFound)?;
        let followers = self.repo.follower_emails(id).await?;
        for follower in &followers {
            self.mailer
                .send(kernel::OutgoingEmail {
                    to: follower.clone(),
                    subject: format!("{}: {title}", listing.name),
                    body: format!(
                        "{} posted an update:\n\n{title}\n\n{body}\n\nSee it on {}/listings/{}\n\nYou get this because you follow {}. Unfollow on the listing's page.\n",
                        listing.name, self.site_url, listing.slug, listing.name
                    ),
                    kind: "listing_update".into(),
                })
                .await?;
        }
        Ok(followers.len())
    }

    pub async fn list(&self, owner: UserId, page: PageRequest) -> Result<Paged<OwnedListing>, OwnerError> {
        Ok(self.repo.owned(owner, page).await?)
    }

    /// Someone else's listing is not found.
    pub async fn get(&self, owner: UserId, id: ListingId) -> Result<OwnedListing, OwnerError> {
        self.repo.owned_one(owner, id).await?.ok_or(OwnerError::NotFound)
    }

    /// `update_my_listing`: the edit publishes at once (there is no review before it) and is
    /// kept in the version history. Returns the listing and the version, none when nothing
    /// changed.
    pub async fn update(
        &self,
        owner: UserId,
        id: ListingId,
        edit: &crate::ListingEdit,
    ) -> Result<(OwnedListing, Option<crate::ListingVersion>), OwnerError> {
        self.get(owner, id).await?;
        let version = self.repo.edit(id, owner, edit, self.clock.now()).await?;
        Ok((self.get(owner, id).await?, version))
    }

    /// The version history, newest first, for the site team's review.
    pub async fn versions(&self, listing: Option<ListingId>, limit: u64) -> Result<Vec<crate::ListingVersion>, OwnerError> {
        Ok(self.repo.versions(listing, limit).await?)
    }

    pub async fn version(&self, id: i64) -> Result<crate::ListingVersion, OwnerError> {
        self.repo.version(id).await?.ok_or(OwnerError::NotFound)
    }

    /// `add_milestone`: returns the new milestone's id and whether the public sees it (paid
    /// listings, or milestones unlocked).
    pub async fn add_milestone(&self, owner: UserId, id: ListingId, milestone: crate::Milestone) -> Result<(i64, bool), OwnerError> {
        let listing = self.get(owner, id).await?;
        let milestone_id = self.repo.add_milestone(id, &milestone, self.clock.now()).await?;
        Ok((milestone_id, listing.unlocked_sections.iter().any(|s| s == "milestones")))
    }

    /// `delete_milestone`: a milestone of someone else's listing, or of another listing, is not
    /// found.
    pub async fn delete_milestone(&self, owner: UserId, id: ListingId, milestone_id: i64) -> Result<(), OwnerError> {
        self.get(owner, id).await?;
        if self.repo.delete_milestone(id, milestone_id, self.clock.now()).await? { Ok(()) } else { Err(OwnerError::NotFound) }
    }

    /// `set_founder_avatar`: someone else's listing, or a founder not of this listing, is not
    /// found. The picture shows wherever the founder does, on every listing of theirs.
    pub async fn set_founder_avatar(
        &self,
        owner: UserId,
        id: ListingId,
        founder: &kernel::Slug,
        avatar: Option<kernel::ImageRef>,
    ) -> Result<(), OwnerError> {
        self.get(owner, id).await?;
        if self.repo.set_founder_avatar(id, founder, avatar).await? { Ok(()) } else { Err(OwnerError::NoSuchFounder) }
    }

    /// `set_founder_story`: published at once on a public listing, else with the listing.
    pub async fn set_story(&self, owner: UserId, id: ListingId, story: kernel::Story) -> Result<(OwnedListing, bool), OwnerError> {
        let listing = self.get(owner, id).await?;
        let now = self.clock.now();
        let published = listing.status == ListingStatus::Live;
        self.repo.set_story(id, &story, published.then_some(now), now).await?;
        Ok((listing, published))
    }

    /// `choose_free_listing`: the earliest week from `min_weeks` to `max_weeks` ahead with a
    /// free slot, else the first week after with room. A listing already in the free queue
    /// keeps its week.
    pub async fn choose_free(&self, owner: UserId, id: ListingId) -> Result<(OwnedListing, FreeQueueOutcome), OwnerError> {
        let listing = self.get(owner, id).await?;
        if listing.plan.as_deref() == Some("free")
            && let (ListingStatus::AwaitingBadge | ListingStatus::Scheduled, Some(week)) = (listing.status, listing.launch_week)
        {
            return Ok((listing, FreeQueueOutcome::AlreadyQueued(week)));
        }
        if listing.status != ListingStatus::Draft {
            return Err(OwnerError::NotAllowed(format!(
                "only a submitted listing in status draft can join the free queue; this one is {}",
                listing.status.as_str()
            )));
        }
        let now = self.clock.now();
        let current = Week::at(now, self.policy.launch_offset);
        let candidates: Vec<Week> =
            (self.policy.min_weeks..=FURTHEST_WEEKS.max(self.policy.max_weeks)).map(|ahead| current.plus_weeks(i64::from(ahead))).collect();
        let taken = self.repo.free_slots_taken(&candidates).await?;
        let week = candidates
            .into_iter()
            .find(|week| taken.iter().find(|(w, _)| w == week).map_or(0, |(_, n)| *n) < self.policy.slots_per_week)
            .ok_or_else(|| OwnerError::NotAllowed("the free queue is full for the next two years; choose a paid launch".into()))?;
        if !self.repo.queue_free(id, week, now).await? {
            // A concurrent call queued it first: answer with what it did.
            let listing = self.get(owner, id).await?;
            return match listing.launch_week {
                Some(week) if listing.plan.as_deref() == Some("free") => Ok((listing, FreeQueueOutcome::AlreadyQueued(week))),
                _ => Err(OwnerError::NotAllowed("the listing is no longer a draft".into())),
            };
        }
        Ok((self.get(owner, id).await?, FreeQueueOutcome::Queued(week)))
    }
}

#[async_trait]
impl JobHandler<NotifyFollowers> for OwnerService {
    async fn run(&self, job: NotifyFollowers, _: JobRun) -> JobOutcome {
        match self.notify_followers(&job).await {
            Ok(sent) => JobOutcome::Done(serde_json::json!({"listing_id": job.listing_id, "update_id": job.update_id, "emails": sent})),
            Err(OwnerError::NotFound) => JobOutcome::Failed(format!("listing {} is gone", job.listing_id)),
            Err(error) => JobOutcome::Retry(kernel::error_chain(&error)),
        }
    }
}
