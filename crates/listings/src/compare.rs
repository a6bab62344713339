//! Alternatives to a listing, and two listings side by side.

use crate::model::{ListingStatus, ListingSummary};
use crate::profile::{ListingProfile, ProfileRepository};
use async_trait::async_trait;
use kernel::{Clock, ListingId, RepoError, Slug};
use std::sync::Arc;

/// How many alternatives are shown at most.
pub const MAX_ALTERNATIVES: usize = 20;

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

    async fn find(&self, slug: &Slug) -> Result<Option<ListingSummary>, RepoError>;
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
}

impl CompareService {
    pub fn new(
        alternatives: Arc<dyn AlternativeRepository>,
        profiles: Arc<dyn ProfileRepository>,
        clock: Arc<dyn Clock>,
        reviews: crate::ReviewPolicy,
    ) -> Self {
        Self { alternatives, profiles, clock, reviews }
    }

    /// Owner-approved alternatives first, then other live listings of the same primary
    /// category, at most `MAX_ALTERNATIVES` in all.
    pub async fn alternatives(&self, slug: &Slug) -> Result<(ListingSummary, Vec<Alternative>), CompareError> {
        let listing = self.alternatives.find(slug).await?.ok_or(CompareError::NotFound)?;
        if !matches!(listing.status, ListingStatus::Live | ListingStatus::Scheduled | ListingStatus::AwaitingBadge) {
            return Err(CompareError::NotFound);
        }
        let mut result: Vec<Alternative> = self
            .alternatives
            .approved(listing.id)
            .await?
            .into_iter()
            .filter(|alt| alt.id != listing.id)
            .take(MAX_ALTERNATIVES)
            .map(|alt| Alternative { listing: alt, approved: true })
            .collect();
        let mut exclude: Vec<ListingId> = result.iter().map(|alt| alt.listing.id).collect();
        exclude.push(listing.id);
        let room = MAX_ALTERNATIVES - result.len();
        if let Some(category) = listing.primary_category.as_ref().filter(|_| room > 0) {
            let same = self.alternatives.in_primary_category(category, &exclude, room).await?;
            result.extend(same.into_iter().map(|alt| Alternative { listing: alt, approved: false }));
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
