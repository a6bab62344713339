//! Alternatives to a listing, and two listings side by side.

use crate::model::{ListingStatus, ListingSummary};
use crate::profile::{ListingProfile, ProfileRepository};
use async_trait::async_trait;
use kernel::{CachedByKey, Clock, ListingId, RepoError, Slug};
use std::sync::Arc;

/// How many alternatives are shown at most.
pub const MAX_ALTERNATIVES: usize = 20;

/// How long a category's most voted listings are reused for the alternatives of any listing in
/// it: every listing of a category shares them, so in the long tail (a different listing each
/// request) they are read once per category and period, not once per listing. A vote or a
/// status change shows in them within this time.
pub const CATEGORY_TOP_TTL: time::Duration = time::Duration::seconds(2);

/// The most voted listings a category keeps for alternatives: enough for `MAX_ALTERNATIVES`
/// after leaving out the listing itself and up to `MAX_ALTERNATIVES` approved ones.
const CATEGORY_TOP: usize = 2 * MAX_ALTERNATIVES + 1;

/// An alternative to a listing.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Alternative {
    pub listing: ListingSummary,
    /// Named and approved by the listing's owner.
    pub approved: bool,
}

/// Where alternatives are read from.
#[async_trait]
pub trait AlternativeRepository: Send + Sync {
    /// Live alternatives the owner approved for `listing`, in the owner's order.
    async fn approved(&self, listing: ListingId) -> Result<Vec<ListingSummary>, RepoError>;

    /// Live listings whose primary category is `category`, most voted first (then by id),
    /// leaving out `exclude`.
    async fn in_primary_category(&self, category: &Slug, exclude: &[ListingId], limit: usize) -> Result<Vec<ListingSummary>, RepoError>;

    /// The listing with this slug, whatever its status, and whether its owner approved any
    /// alternatives (most did not: then they need no read).
    async fn find(&self, slug: &Slug) -> Result<Option<(ListingSummary, bool)>, RepoError>;
}

/// One fact in a comparison.
#[derive(Debug, Clone, PartialEq)]
pub enum Cell {
    Text(String),
    Number(f64),
    List(Vec<String>),
}

/// A row of a comparison; `None` means that listing does not state the fact.
#[derive(Debug, Clone, PartialEq)]
pub struct Row {
    pub key: &'static str,
    pub label: &'static str,
    pub a: Option<Cell>,
    pub b: Option<Cell>,
}

/// Two listings side by side.
#[derive(Debug, Clone, PartialEq)]
pub struct Comparison {
    pub a: ListingSummary,
    pub b: ListingSummary,
    pub rows: Vec<Row>,
}

/// Why a comparison or alternatives could not be made.
#[derive(Debug, thiserror::Error)]
pub enum CompareError {
    #[error("no public listing has this slug")]
    NotFound,
    /// `field` (a or b) names no live listing.
    #[error("{field} names no live listing")]
    Unknown { field: &'static str },
    #[error("a and b name the same listing")]
    Same,
    #[error(transparent)]
    Repo(#[from] RepoError),
}

fn text(value: &Option<String>) -> Option<Cell> {
    value.as_ref().filter(|v| !v.trim().is_empty()).map(|v| Cell::Text(v.clone()))
}

fn list(values: &[String]) -> Option<Cell> {
    (!values.is_empty()).then(|| Cell::List(values.to_vec()))
}

/// The facts compared, in display order.
fn facts(p: &ListingProfile) -> Vec<(&'static str, &'static str, Option<Cell>)> {
    let primary = p.categories.iter().find(|c| c.primary).map(|c| Cell::Text(c.name.clone()));
    vec![
        ("tagline", "Tagline", text(&p.summary.tagline)),
        ("primary_category", "Category", primary),
        ("pricing_model", "Pricing model", text(&p.pricing_model)),
        ("pricing_summary", "Pricing", text(&p.pricing_summary)),
        ("stage", "Stage", text(&p.stage)),
        ("founded_year", "Founded", p.founded_year.map(|y| Cell::Number(f64::from(y)))),
        ("country", "Country", text(&p.country)),
        ("city", "City", text(&p.city)),
        ("features", "Features", list(&p.features)),
        ("usps", "Why choose it", list(&p.usps)),
        ("demo_video_url", "Demo video", text(&p.demo_video_url)),
        ("community_rating", "Community rating", p.rating.average.map(Cell::Number)),
        ("domain_rating", "Domain Rating", p.domain_rating.map(|dr| Cell::Number(f64::from(dr.value)))),
        ("votes", "Votes", Some(Cell::Number(p.summary.votes as f64))),
        ("followers", "Followers", Some(Cell::Number(p.followers as f64))),
    ]
}

/// The alternatives and comparison use cases.
#[derive(Clone)]
pub struct CompareService {
    alternatives: Arc<dyn AlternativeRepository>,
    profiles: Arc<dyn ProfileRepository>,
    clock: Arc<dyn Clock>,
    /// Which reviews count in the compared ratings (as on the listings' own pages).
    reviews: crate::ReviewPolicy,
    /// Each primary category's most voted live listings, for `CATEGORY_TOP_TTL`.
    category_tops: Arc<CachedByKey<Slug, Vec<ListingSummary>>>,
}

impl CompareService {
    pub fn new(
        alternatives: Arc<dyn AlternativeRepository>,
        profiles: Arc<dyn ProfileRepository>,
        clock: Arc<dyn Clock>,
        reviews: crate::ReviewPolicy,
    ) -> Self {
        // Categories are few; a directory with more than this many keeps the most recent.
        Self { alternatives, profiles, clock, reviews, category_tops: Arc::new(CachedByKey::new(1_000)) }
    }

    /// Owner-approved alternatives first, then other live listings of the same primary
    /// category, at most `MAX_ALTERNATIVES` in all.
    pub async fn alternatives(&self, slug: &Slug) -> Result<(ListingSummary, Vec<Alternative>), CompareError> {
        let (listing, any_approved) = self.alternatives.find(slug).await?.ok_or(CompareError::NotFound)?;
        if !matches!(listing.status, ListingStatus::Live | ListingStatus::Scheduled | ListingStatus::AwaitingBadge) {
            return Err(CompareError::NotFound);
        }
        let approved = if any_approved { self.alternatives.approved(listing.id).await? } else { Vec::new() };
        let mut result: Vec<Alternative> = approved
            .into_iter()
            .filter(|alt| alt.id != listing.id)
            .take(MAX_ALTERNATIVES)
            .map(|alt| Alternative { listing: alt, approved: true })
            .collect();
        let mut exclude: Vec<ListingId> = result.iter().map(|alt| alt.listing.id).collect();
        exclude.push(listing.id);
        let room = MAX_ALTERNATIVES - result.len();
        if let Some(category) = listing.primary_category.as_ref().filter(|_| room > 0) {
            let top = self
                .category_tops
                .slot(category.clone(), CATEGORY_TOP_TTL)
                .get_or_load(self.clock.now(), || self.alternatives.in_primary_category(category, &[], CATEGORY_TOP))
                .await?;
            let same = top.iter().filter(|alt| !exclude.contains(&alt.id)).take(room).cloned();
            result.extend(same.map(|alt| Alternative { listing: alt, approved: false }));
        }
        Ok((listing, result))
    }

    /// Two live listings side by side.
    pub async fn compare(&self, a: &Slug, b: &Slug) -> Result<Comparison, CompareError> {
        if a == b {
            return Err(CompareError::Same);
        }
        let now = self.clock.now();
        let genuine = self.reviews.genuine_at(now);
        let live = |profile: Option<ListingProfile>| profile.filter(|p| p.summary.status == ListingStatus::Live);
        let pa = live(self.profiles.profile(a, now, genuine, 0).await?).ok_or(CompareError::Unknown { field: "a" })?;
        let pb = live(self.profiles.profile(b, now, genuine, 0).await?).ok_or(CompareError::Unknown { field: "b" })?;
        let rows = facts(&pa).into_iter().zip(facts(&pb)).map(|((key, label, a), (_, _, b))| Row { key, label, a, b }).collect();
        Ok(Comparison { a: pa.summary, b: pb.summary, rows })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use kernel::FixedClock;
    use std::sync::Mutex;
    use time::OffsetDateTime;

    fn listing(id: i64, votes: u64) -> ListingSummary {
        ListingSummary {
            id: ListingId::new(id),
            slug: Slug::parse(&format!("l{id}")).unwrap(),
            name: format!("L{id}"),
            url: format!("https://l{id}.example/"),
            tagline: None,
            logo: None,
            votes,
            primary_category: Some(Slug::parse("notes").unwrap()),
            launch_week: None,
            status: ListingStatus::Live,
        }
    }

    /// A category's live listings, most voted first; counts the reads of the category.
    struct Category {
        listings: Mutex<Vec<ListingSummary>>,
        reads: Mutex<usize>,
    }

    #[async_trait]
    impl AlternativeRepository for Category {
        async fn approved(&self, _: ListingId) -> Result<Vec<ListingSummary>, RepoError> {
            Ok(Vec::new())
        }

        async fn in_primary_category(&self, _: &Slug, exclude: &[ListingId], limit: usize) -> Result<Vec<ListingSummary>, RepoError> {
            *self.reads.lock().unwrap() += 1;
            let mut listings = self.listings.lock().unwrap().clone();
            listings.sort_by_key(|l| (std::cmp::Reverse(l.votes), l.id.get()));
            Ok(listings.into_iter().filter(|l| !exclude.contains(&l.id)).take(limit).collect())
        }

        async fn find(&self, slug: &Slug) -> Result<Option<(ListingSummary, bool)>, RepoError> {
            Ok(self.listings.lock().unwrap().iter().find(|l| &l.slug == slug).map(|l| (l.clone(), false)))
        }
    }

    /// Knows no profile: alternatives read none.
    struct NoProfiles;

    #[async_trait]
    impl ProfileRepository for NoProfiles {
        async fn profile(
            &self,
            _: &Slug,
            _: OffsetDateTime,
            _: crate::GenuineReviews,
            _: usize,
        ) -> Result<Option<ListingProfile>, RepoError> {
            Ok(None)
        }

        async fn add_views(&self, _: &[(ListingId, u64)]) -> Result<(), RepoError> {
            Ok(())
        }

        async fn prepare_profiles(&self) -> Result<usize, RepoError> {
            Ok(0)
        }
    }

    /// Every listing of a category shares one read of its most voted listings for
    /// `CATEGORY_TOP_TTL`, each leaving itself out; after that a new vote shows.
    #[tokio::test]
    async fn a_categorys_most_voted_are_read_once_for_all_its_listings() {
        let category =
            Arc::new(Category { listings: Mutex::new((1..=5).map(|id| listing(id, 10 * id as u64)).collect()), reads: Mutex::new(0) });
        let clock = Arc::new(FixedClock::new(OffsetDateTime::UNIX_EPOCH));
        let service = CompareService::new(
            category.clone(),
            Arc::new(NoProfiles),
            clock.clone(),
            crate::ReviewPolicy { min_account_age: time::Duration::hours(24) },
        );
        let slugs = |alternatives: &[Alternative]| alternatives.iter().map(|a| a.listing.id.get()).collect::<Vec<_>>();
        for (id, expected) in [(1, vec![5, 4, 3, 2]), (5, vec![4, 3, 2, 1]), (3, vec![5, 4, 2, 1])] {
            let (_, alternatives) = service.alternatives(&Slug::parse(&format!("l{id}")).unwrap()).await.unwrap();
            assert_eq!(slugs(&alternatives), expected, "l{id}");
        }
        assert_eq!(*category.reads.lock().unwrap(), 1, "one read for the category");
        category.listings.lock().unwrap()[0].votes = 100;
        clock.advance(CATEGORY_TOP_TTL);
        let (_, alternatives) = service.alternatives(&Slug::parse("l2").unwrap()).await.unwrap();
        assert_eq!(slugs(&alternatives), [1, 5, 4, 3], "the vote shows once the category is read again");
        assert_eq!(*category.reads.lock().unwrap(), 2);
    }
}
