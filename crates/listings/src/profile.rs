//! The full public profile of a listing, and page views counted in memory and written in
//! batches (never one database write per view).

use crate::founders::CompanyRef;
use crate::model::{ListingStatus, ListingSummary};
use async_trait::async_trait;
use kernel::{Faq, ListingId, RepoError, Slug};
use std::collections::{BTreeMap, HashMap};
use std::sync::{Arc, Mutex};
use time::{Date, Duration, OffsetDateTime};

/// A category of a listing.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct ListingCategory {
    pub slug: Slug,
    pub name: String,
    pub primary: bool,
}

/// A founder as a listing shows them.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct FounderCard {
    pub slug: Slug,
    pub name: String,
    pub title: Option<String>,
    /// Their picture, when an owner set one (documents built before avatars have none).
    #[serde(default)]
    pub avatar: Option<kernel::ImageRef>,
}

/// A what's-new post of the owners.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct ListingUpdate {
    pub title: String,
    pub body: String,
    pub posted_at: OffsetDateTime,
}

/// A dated achievement (a paid-only section).
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Milestone {
    pub date: Date,
    pub title: String,
    pub description: Option<String>,
    pub url: Option<String>,
}

impl Milestone {
    /// The longest title and description (the spec's Milestone table).
    pub const MAX_TITLE_CHARS: usize = 200;
    pub const MAX_DESCRIPTION_CHARS: usize = 2000;

    /// Checks the spec's bounds; each error names its key under `at` (`milestones[0].title`).
    pub fn check(&self, at: &str) -> Vec<kernel::FieldError> {
        let mut errors = Vec::new();
        let title = self.title.trim().chars().count();
        if title == 0 || title > Self::MAX_TITLE_CHARS {
            errors.push(kernel::FieldError::new(format!("{at}.title"), format!("must be 1 to {} characters", Self::MAX_TITLE_CHARS)));
        }
        if self.description.as_ref().is_some_and(|text| text.chars().count() > Self::MAX_DESCRIPTION_CHARS) {
            errors.push(kernel::FieldError::new(
                format!("{at}.description"),
                format!("must be at most {} characters", Self::MAX_DESCRIPTION_CHARS),
            ));
        }
        if let Some(Err(message)) = self.url.as_deref().map(kernel::check_https_link) {
            errors.push(kernel::FieldError::new(format!("{at}.url"), message));
        }
        errors
    }
}

/// A picture of the product in its gallery (the paid-only `media` section), with the words a
/// screen reader says for it.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct GalleryImage {
    pub image: kernel::ImageRef,
    pub alt: String,
}

impl GalleryImage {
    /// The most pictures a gallery holds.
    pub const MAX_IMAGES: usize = 8;
    /// The longest alt text.
    pub const MAX_ALT_CHARS: usize = 300;
}

/// A labelled link.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Link {
    pub label: String,
    pub url: String,
}

/// The community rating from genuine reviews only: written by a person whose e-mail address is
/// confirmed and whose account is not blocked and old enough when the rating is read
/// ([`crate::ReviewPolicy`]), who is not the listing's owner, and whose review was not hidden by
/// moderation.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct CommunityRating {
    /// Mean of the ratings (1 to 5); `None` without any genuine review.
    pub average: Option<f64>,
    pub count: u64,
    /// How many genuine reviews gave 1, 2, 3, 4 and 5 stars.
    pub distribution: [u64; 5],
}

/// How a listing's counted votes came in over time; no voter is named.
#[derive(Debug, Clone, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct VoteMomentum {
    /// Counted votes per launch week they were cast in, newest week first, at most
    /// [`MOMENTUM_WEEKS`] weeks.
    pub by_week: Vec<(kernel::Week, u64)>,
    /// When the earliest and the latest counted vote standing now were cast.
    pub first_vote_at: Option<OffsetDateTime>,
    pub last_vote_at: Option<OffsetDateTime>,
}

/// How many weeks `VoteMomentum::by_week` holds at most: a year of momentum.
pub const MOMENTUM_WEEKS: usize = 52;

/// Domain Rating with its previous reading.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct DomainRating {
    pub value: i32,
    pub previous: Option<i32>,
    pub checked_at: Option<OffsetDateTime>,
}

/// Which paid-only sections a listing has unlocked.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Unlocked {
    pub story: bool,
    pub milestones: bool,
    pub media: bool,
}

/// A listing's full public profile.
#[derive(Debug, Clone, PartialEq)]
pub struct ListingProfile {
    pub summary: ListingSummary,
    pub short_description: Option<String>,
    /// The owner's headline and long summary (`update_my_listing`).
    pub headline: Option<String>,
    pub long_summary: Option<String>,
    pub description: Option<String>,
    pub stage: Option<String>,
    pub country: Option<String>,
    pub city: Option<String>,
    pub founded_year: Option<i32>,
    pub pricing_model: Option<String>,
    pub pricing_summary: Option<String>,
    pub features: Vec<String>,
    pub usps: Vec<String>,
    pub keywords: Vec<String>,
    pub faqs: Vec<Faq>,
    pub socials: BTreeMap<String, String>,
    pub links: Vec<Link>,
    pub demo_video_url: Option<String>,
    pub categories: Vec<ListingCategory>,
    pub founders: Vec<FounderCard>,
    pub latest_updates: Vec<ListingUpdate>,
    pub rating: CommunityRating,
    pub momentum: VoteMomentum,
    pub domain_rating: Option<DomainRating>,
    pub not_found_on_website: Vec<String>,
    pub launched_at: Option<OffsetDateTime>,
    pub views: u64,
    pub followers: u64,
    pub unlocked: Unlocked,
    /// Present only when unlocked and published.
    pub story: Option<(kernel::Story, CompanyRef)>,
    pub milestones: Vec<Milestone>,
    /// Shown publicly only where the `media` section is unlocked.
    pub gallery: Vec<GalleryImage>,
}

/// Where profiles are read from, and where counted views go.
#[async_trait]
pub trait ProfileRepository: Send + Sync {
    /// The profile of the listing with this slug, whatever its status; paid-only sections are
    /// filled only where unlocked (and the story only when published by `now`). The rating
    /// counts the reviews `genuine` holds for ([`crate::ReviewPolicy::genuine_at`] `now`).
    async fn profile(
        &self,
        slug: &Slug,
        now: OffsetDateTime,
        genuine: crate::GenuineReviews,
        latest_updates: usize,
    ) -> Result<Option<ListingProfile>, RepoError>;

    /// Adds counted views to listings' `views` in one batch.
    async fn add_views(&self, views: &[(ListingId, u64)]) -> Result<(), RepoError>;

    /// Makes ready, one batch at a time, the profiles of listings that changed since theirs
    /// was last made ready (so `profile` reads each in one go); how many were waiting in this
    /// batch, 0 when none are. A profile read before it is ready is read part by part, never stale.
    async fn prepare_profiles(&self) -> Result<usize, RepoError>;
}

/// One view per viewer per listing in this long (views drive the most-viewed sort, so a client
/// reloading a page must not move it).
pub const ONE_VIEW_PER: Duration = Duration::HOUR;
/// Viewer and listing pairs remembered; when full, pairs older than `ONE_VIEW_PER` go, and if
/// none are, all go (memory stays bounded; the worst case is a repeat view counted again).
pub const MAX_REMEMBERED_VIEWS: usize = 200_000;

/// Views counted in memory since the last flush. Cheap to record from many threads.
#[derive(Debug, Default)]
pub struct ViewTally {
    counts: Mutex<HashMap<ListingId, u64>>,
    /// When each (listing, viewer hash) pair last counted.
    seen: Mutex<HashMap<(ListingId, u64), OffsetDateTime>>,
}

impl ViewTally {
    pub fn record(&self, listing: ListingId) {
        let mut counts = self.counts.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
        *counts.entry(listing).or_default() += 1;
    }

    /// Counts a view unless `viewer` counted one of `listing` within `ONE_VIEW_PER`. A view
    /// without a known viewer is not counted.
    pub fn record_once(&self, listing: ListingId, viewer: Option<&str>, now: OffsetDateTime) -> bool {
        let Some(viewer) = viewer else { return false };
        let key = (listing, viewer_hash(viewer));
        {
            let mut seen = self.seen.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
            if seen.get(&key).is_some_and(|at| now - *at < ONE_VIEW_PER) {
                return false;
            }
            if seen.len() >= MAX_REMEMBERED_VIEWS {
                seen.retain(|_, at| now - *at < ONE_VIEW_PER);
                if seen.len() >= MAX_REMEMBERED_VIEWS {
                    seen.clear();
                }
            }
            seen.insert(key, now);
        }
        self.record(listing);
        true
    }

    /// Adds counts back (after a failed write).
    pub fn restore(&self, views: &[(ListingId, u64)]) {
        let mut counts = self.counts.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
        for (listing, count) in views {
            *counts.entry(*listing).or_default() += count;
        }
    }

    /// Takes every count recorded so far, leaving the tally empty.
    pub fn drain(&self) -> Vec<(ListingId, u64)> {
        let mut counts = self.counts.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
        let mut drained: Vec<(ListingId, u64)> = counts.drain().collect();
        drained.sort_unstable();
        drained
    }
}

fn viewer_hash(viewer: &str) -> u64 {
    use std::hash::{BuildHasher, Hasher};
    // A per-process random seed: the pairs cannot be made to collide from outside.
    static SEED: std::sync::OnceLock<std::collections::hash_map::RandomState> = std::sync::OnceLock::new();
    let mut hasher = SEED.get_or_init(Default::default).build_hasher();
    hasher.write(viewer.as_bytes());
    hasher.finish()
}

/// Why a profile could not be read.
#[derive(Debug, thiserror::Error)]
pub enum ProfileError {
    #[error("no public listing has this slug")]
    NotFound,
    #[error(transparent)]
    Repo(#[from] RepoError),
}

/// How many latest updates a profile shows.
pub const LATEST_UPDATES: usize = 5;

/// The listing profile use cases.
#[derive(Clone)]
pub struct ProfileService {
    profiles: Arc<dyn ProfileRepository>,
    clock: Arc<dyn kernel::Clock>,
    /// Which reviews count in the rating by their author's account age.
    reviews: crate::ReviewPolicy,
    views: Arc<ViewTally>,
    /// The live listings this server served a profile of, by slug: what a profile answered from
    /// the answer cache needs to count its view. Bounded like the tally's memory of viewers.
    live_ids: Arc<Mutex<HashMap<Slug, ListingId>>>,
}

impl ProfileService {
    pub fn new(profiles: Arc<dyn ProfileRepository>, clock: Arc<dyn kernel::Clock>, reviews: crate::ReviewPolicy) -> Self {
        Self { profiles, clock, reviews, views: Arc::new(ViewTally::default()), live_ids: Arc::default() }
    }

    /// The profile at `now`, its rating from the reviews that count at `now`.
    async fn read(&self, slug: &Slug, now: OffsetDateTime) -> Result<Option<ListingProfile>, RepoError> {
        self.profiles.profile(slug, now, self.reviews.genuine_at(now), LATEST_UPDATES).await
    }

    /// The public profile of a live, scheduled or badge-pending listing; counts a view of a
    /// live one, once per `viewer` an hour (in memory: `flush_views` writes them).
    pub async fn profile(&self, slug: &Slug, viewer: Option<&str>) -> Result<ListingProfile, ProfileError> {
        let now = self.clock.now();
        let profile = self.read(slug, now).await?.ok_or(ProfileError::NotFound)?;
        match profile.summary.status {
            ListingStatus::Live => {
                self.views.record_once(profile.summary.id, viewer, now);
                let mut live_ids = self.live_ids.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
                if live_ids.len() >= MAX_REMEMBERED_VIEWS && !live_ids.contains_key(slug) {
                    live_ids.clear();
                }
                live_ids.insert(slug.clone(), profile.summary.id);
            }
            ListingStatus::Scheduled | ListingStatus::AwaitingBadge => {}
            ListingStatus::Draft | ListingStatus::Archived => return Err(ProfileError::NotFound),
        }
        Ok(profile)
    }

    /// Counts `viewer`'s view of a live listing whose profile was answered without reading it
    /// (from the answer cache, which keeps only what `profile` answered moments ago).
    pub fn count_view(&self, slug: &Slug, viewer: Option<&str>) {
        let known = self.live_ids.lock().unwrap_or_else(|poisoned| poisoned.into_inner()).get(slug).copied();
        if let Some(listing) = known {
            self.views.record_once(listing, viewer, self.clock.now());
        }
    }

    /// The profile of a listing of any status, for its owner; counts no view.
    pub async fn owner_profile(&self, slug: &Slug) -> Result<ListingProfile, ProfileError> {
        self.read(slug, self.clock.now()).await?.ok_or(ProfileError::NotFound)
    }

    /// This service writing through `profiles` instead: the same counted views, another way
    /// to the database (at shutdown, a connection opened for the last writes).
    pub fn writing_to(&self, profiles: Arc<dyn ProfileRepository>) -> Self {
        Self { profiles, ..self.clone() }
    }

    /// Makes ready the profiles of listings that changed, a batch at a time, until none wait;
    /// how many were made ready.
    pub async fn prepare_profiles(&self) -> Result<usize, RepoError> {
        let mut prepared = 0;
        loop {
            match self.profiles.prepare_profiles().await? {
                0 => return Ok(prepared),
                batch => prepared += batch,
            }
        }
    }

    /// Writes the views counted since the last flush, in one batch. On failure the counts are
    /// put back, so a later flush writes them.
    pub async fn flush_views(&self) -> Result<usize, RepoError> {
        let views = self.views.drain();
        if views.is_empty() {
            return Ok(0);
        }
        match self.profiles.add_views(&views).await {
            Ok(()) => Ok(views.len()),
            Err(err) => {
                self.views.restore(&views);
                Err(err)
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Remembers which accounts' reviews each read let count; knows no listing.
    #[derive(Default)]
    struct Profiles {
        asked: Mutex<Vec<(OffsetDateTime, OffsetDateTime)>>,
    }

    #[async_trait]
    impl ProfileRepository for Profiles {
        async fn profile(
            &self,
            _: &Slug,
            now: OffsetDateTime,
            genuine: crate::GenuineReviews,
            _: usize,
        ) -> Result<Option<ListingProfile>, RepoError> {
            self.asked.lock().unwrap().push((now, genuine.reviewers_made_by));
            Ok(None)
        }
        async fn add_views(&self, _: &[(ListingId, u64)]) -> Result<(), RepoError> {
            Ok(())
        }
        async fn prepare_profiles(&self) -> Result<usize, RepoError> {
            Ok(0)
        }
    }

    #[tokio::test]
    async fn the_rating_counts_reviews_of_accounts_old_enough_at_the_time_of_the_read() {
        let now = OffsetDateTime::UNIX_EPOCH + Duration::days(20_000);
        let profiles = Arc::new(Profiles::default());
        let clock = Arc::new(kernel::FixedClock::new(now));
        let service = ProfileService::new(profiles.clone(), clock.clone(), crate::ReviewPolicy { min_account_age: Duration::hours(24) });
        let slug = Slug::parse("rated").unwrap();
        assert!(matches!(service.profile(&slug, None).await, Err(ProfileError::NotFound)));
        clock.advance(Duration::hours(25));
        assert!(matches!(service.owner_profile(&slug).await, Err(ProfileError::NotFound)));
        assert_eq!(
            profiles.asked.lock().unwrap().clone(),
            [(now, now - Duration::hours(24)), (now + Duration::hours(25), now + Duration::hours(1))],
            "an account made at `now` counts from 24 hours on, as its votes would"
        );
    }

    #[test]
    fn one_view_per_viewer_per_listing_per_hour() {
        let tally = ViewTally::default();
        let now = OffsetDateTime::UNIX_EPOCH + Duration::days(20_000);
        let (acme, other) = (ListingId::new(1), ListingId::new(2));
        for _ in 0..500 {
            tally.record_once(acme, Some("ip:203.0.113.9"), now);
        }
        assert!(tally.record_once(other, Some("ip:203.0.113.9"), now), "another listing counts");
        assert!(tally.record_once(acme, Some("user:7"), now), "another viewer counts");
        assert!(!tally.record_once(acme, None, now), "an unknown viewer does not");
        assert!(!tally.record_once(acme, Some("ip:203.0.113.9"), now + Duration::minutes(59)));
        assert!(tally.record_once(acme, Some("ip:203.0.113.9"), now + Duration::minutes(61)), "an hour later, again");
        assert_eq!(tally.drain(), [(acme, 3), (other, 1)]);
        for n in 0..MAX_REMEMBERED_VIEWS + 10 {
            tally.record_once(acme, Some(&format!("ip:{n}")), now);
        }
        assert!(tally.seen.lock().unwrap().len() <= MAX_REMEMBERED_VIEWS, "bounded");
    }

    #[test]
    fn tally_counts_and_drains() {
        let tally = ViewTally::default();
        for _ in 0..3 {
            tally.record(ListingId::new(7));
        }
        tally.record(ListingId::new(2));
        assert_eq!(tally.drain(), [(ListingId::new(2), 1), (ListingId::new(7), 3)]);
        assert!(tally.drain().is_empty());
        tally.restore(&[(ListingId::new(2), 4)]);
        tally.record(ListingId::new(2));
        assert_eq!(tally.drain(), [(ListingId::new(2), 5)]);
    }
}
