//! Read models of the public directory.

pub use kernel::Faq;
use kernel::{CategoryId, ListingId, Paged, Slug, Week};
use serde::{Deserialize, Serialize};

/// Where a listing is in its life. The free plan moves `draft` -> `awaiting_badge` ->
/// `scheduled` -> `live`; a paid launch moves `draft` -> `scheduled` or `live`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ListingStatus {
    Draft,
    AwaitingBadge,
    Scheduled,
    Live,
    Archived,
}

impl ListingStatus {
    /// The statuses in which people vote on, review and follow a listing: live only. The
    /// domain's rule; stores look a listing up among these.
    pub const OPEN_TO_PEOPLE: [ListingStatus; 1] = [ListingStatus::Live];

    pub fn as_str(self) -> &'static str {
        match self {
            Self::Draft => "draft",
            Self::AwaitingBadge => "awaiting_badge",
            Self::Scheduled => "scheduled",
            Self::Live => "live",
            Self::Archived => "archived",
        }
    }

    pub fn parse(raw: &str) -> Option<Self> {
        [Self::Draft, Self::AwaitingBadge, Self::Scheduled, Self::Live, Self::Archived].into_iter().find(|status| status.as_str() == raw)
    }
}

/// A directory category. `parent_id` is `None` for a top-level category.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Category {
    pub id: CategoryId,
    pub slug: Slug,
    pub name: String,
    pub description: String,
    pub parent_id: Option<CategoryId>,
    pub position: i32,
    pub faqs: Vec<Faq>,
}

/// A category in the tree, with the number of live listings in it or its subcategories.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct CategoryNode {
    pub slug: Slug,
    pub name: String,
    pub description: String,
    pub live_listings: u64,
    pub subcategories: Vec<CategoryNode>,
}

/// A short reference to a category.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct CategoryRef {
    pub slug: Slug,
    pub name: String,
    pub live_listings: u64,
}

/// A listing as it appears in lists and feeds.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct ListingSummary {
    #[serde(skip)]
    pub id: ListingId,
    pub slug: Slug,
    pub name: String,
    /// The product's own website.
    pub url: String,
    pub tagline: Option<String>,
    /// The logo we keep; written as `logo_url`, its address on this site (`/media/...`).
    #[serde(rename = "logo_url", serialize_with = "logo_address")]
    pub logo: Option<kernel::ImageRef>,
    /// Community votes received, all time.
    pub votes: u64,
    pub primary_category: Option<Slug>,
    pub launch_week: Option<Week>,
    pub status: ListingStatus,
}

/// A logo as its address on this site, from the root: the original, which pages and clients
/// scale as they need (`srcset` on the site).
fn logo_address<S: serde::Serializer>(logo: &Option<kernel::ImageRef>, serializer: S) -> Result<S::Ok, S::Error> {
    match logo {
        Some(logo) => serializer.serialize_some(&logo.path(kernel::ImageSize::Original)),
        None => serializer.serialize_none(),
    }
}

/// A category with its neighbours and one page of its live listings, most voted first.
#[derive(Debug, Clone, PartialEq)]
pub struct CategoryPage {
    pub category: Category,
    pub live_listings: u64,
    pub parent: Option<CategoryRef>,
    pub subcategories: Vec<CategoryRef>,
    pub listings: Paged<ListingSummary>,
}

/// Counts shown on the site's front page.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct SiteCounts {
    pub live_listings: u64,
    pub categories: u64,
}
