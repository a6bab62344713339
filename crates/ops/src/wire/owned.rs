//! A listing as its owner sees it: `list_my_listings`, `get_my_listing`, `choose_free_listing`
//! and `update_my_listing` answer with these views.

use super::dates::rfc3339;
use super::listing::{ListingView, MediaView};
use crate::{Context, ListingServices, OpError};
use listings::OwnedListing;
use schemars::JsonSchema;
use serde::Serialize;

/// A listing as its owner sees it.
#[derive(Debug, Serialize, JsonSchema)]
pub struct OwnedListingView {
    pub id: i64,
    pub slug: String,
    pub name: String,
    pub url: String,
    pub tagline: Option<String>,
    /// `draft` (submitted, not published), `awaiting_badge` (free queue, badge not seen yet),
    /// `scheduled`, `live` or `archived`.
    pub status: &'static str,
    /// `free` or `paid`; null until a route to publication is chosen.
    pub plan: Option<String>,
    /// The launch week's Monday (`YYYY-MM-DD`).
    pub launch_week: Option<String>,
    /// RFC 3339.
    pub launched_at: Option<String>,
    /// Paid-only sections unlocked: `story`, `milestones`, `media`.
    pub unlocked_sections: Vec<String>,
    /// The public page, once the listing is public.
    pub public_url: Option<String>,
    /// The last check of the homepage for our badge (free queue); null before the first.
    pub badge_check: Option<BadgeCheckView>,
    pub created_at: String,
    pub updated_at: String,
}

impl OwnedListingView {
    pub fn of(listing: &OwnedListing, listings: Context<'_, ListingServices>) -> Self {
        let public = !matches!(listing.status, listings::ListingStatus::Draft | listings::ListingStatus::Archived);
        Self {
            id: listing.id.get(),
            slug: listing.slug.clone(),
            name: listing.name.clone(),
            url: listing.url.clone(),
            tagline: listing.tagline.clone(),
            status: listing.status.as_str(),
            plan: listing.plan.clone(),
            launch_week: listing.launch_week.map(|week| week.to_string()),
            launched_at: listing.launched_at.map(rfc3339),
            unlocked_sections: listing.unlocked_sections.clone(),
            public_url: public.then(|| format!("{}/listings/{}", listings.site.site_url, listing.slug)),
            badge_check: listing.badge_check.as_ref().map(|check| BadgeCheckView {
                result: check.result.clone(),
                detail: check.detail.clone(),
                checked_at: rfc3339(check.checked_at),
                seen_at: check.seen_at.map(rfc3339),
                next_check_at: check.next_check_at.map(rfc3339),
                failures_in_a_row: check.failures,
            }),
            created_at: rfc3339(listing.created_at),
            updated_at: rfc3339(listing.updated_at),
        }
    }
}

/// The badge check's last result.
#[derive(Debug, Serialize, JsonSchema)]
pub struct BadgeCheckView {
    /// `found`, `not_found`, `unreachable`, `robots_disallowed`, `blocked_address`, `not_html`
    /// or `too_large`.
    pub result: String,
    /// What was found, or why the homepage could not be read.
    pub detail: Option<String>,
    /// RFC 3339.
    pub checked_at: String,
    /// When the badge was first seen.
    pub seen_at: Option<String>,
    /// When the homepage is looked at again; checks of a failing site back off.
    pub next_check_at: Option<String>,
    pub failures_in_a_row: u32,
}

/// One owned listing: the owner's fields and everything public.
#[derive(Debug, Serialize, JsonSchema)]
pub struct MyListingView {
    #[serde(flatten)]
    pub owned: OwnedListingView,
    /// The profile as the public sees it (or will, once published): paid-only sections appear
    /// only where unlocked.
    pub profile: ListingView,
    /// The gallery as it stands, whether or not the media section is unlocked (the profile
    /// shows it publicly only when it is).
    pub gallery: Vec<MediaView>,
}

impl MyListingView {
    /// The owner's fields plus the profile as the public sees it (counting no view).
    pub async fn of(listing: OwnedListing, listings: Context<'_, ListingServices>) -> Result<Self, OpError> {
        let slug = kernel::Slug::parse(&listing.slug).map_err(OpError::corrupt)?;
        let profile = listings.profiles.owner_profile(&slug).await?;
        let gallery = profile.gallery.iter().map(|picture| MediaView::of(picture, &listings.site.site_url)).collect();
        Ok(Self { owned: OwnedListingView::of(&listing, listings), profile: ListingView::of(profile, listings), gallery })
    }
}
