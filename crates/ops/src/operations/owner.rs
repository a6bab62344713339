//! The owner's listings: `list_my_listings`, `get_my_listing` and `choose_free_listing`.

use super::rfc3339;
use crate::registry::{Input, Operation, OperationSpec};
use crate::{App, Caller, HttpMethod, NoInput, OpError, Pagination};
use accounts::Scope;
use async_trait::async_trait;
use garde::Validate;
use kernel::{ListingId, Paged, UserId};
use listings::{FreeQueueOutcome, OwnedListing, OwnerError};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

fn owner(caller: &Caller) -> Result<UserId, OpError> {
    caller.principal.as_ref().map(|p| p.user.id).ok_or(OpError::Unauthorized { credential_sent: false, detail: "sign in first".into() })
}

impl From<OwnerError> for OpError {
    fn from(error: OwnerError) -> Self {
        match error {
            OwnerError::NotFound => OpError::NotFound("you own no listing with this id".into()),
            OwnerError::NotAllowed(message) => OpError::field("listing_id", message),
            OwnerError::Repo(err) => OpError::internal(err),
        }
    }
}

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
    pub created_at: String,
    pub updated_at: String,
}

impl OwnedListingView {
    fn of(listing: &OwnedListing, app: &App) -> Self {
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
            public_url: public.then(|| format!("{}/listings/{}", app.site.site_url, listing.slug)),
            created_at: rfc3339(listing.created_at),
            updated_at: rfc3339(listing.updated_at),
        }
    }
}

/// `{listing_id}`.
#[derive(Debug, Deserialize, JsonSchema, Validate)]
#[serde(deny_unknown_fields)]
pub struct ListingPath {
    /// The listing's id.
    #[garde(range(min = 1))]
    pub listing_id: i64,
}

impl crate::InputPart for ListingPath {}

pub struct ListMyListings;

#[async_trait]
impl Operation for ListMyListings {
    type Path = NoInput;
    type Query = Pagination;
    type Body = NoInput;
    type Output = Paged<OwnedListingView>;

    const SPEC: OperationSpec = OperationSpec {
        id: "list_my_listings",
        path: "/me/listings",
        scope: Some(Scope::AccountRead),
        summary: "Your listings",
        description: "Every listing you own, of any status, newest first.",
        tag: "owner",
        ..OperationSpec::READ
    };

    async fn run(
        &self,
        app: &App,
        caller: &Caller,
        input: Input<NoInput, Pagination, NoInput>,
    ) -> Result<Paged<OwnedListingView>, OpError> {
        let page = app.owners.list(owner(caller)?, input.query.request()).await?;
        Ok(page.map(|listing| OwnedListingView::of(&listing, app)))
    }
}

pub struct GetMyListing;

#[async_trait]
impl Operation for GetMyListing {
    type Path = ListingPath;
    type Query = NoInput;
    type Body = NoInput;
    type Output = OwnedListingView;

    const SPEC: OperationSpec = OperationSpec {
        id: "get_my_listing",
        path: "/me/listings/{listing_id}",
        scope: Some(Scope::AccountRead),
        summary: "One of your listings",
        description: "Status, plan, launch week and unlocked paid sections of a listing you own. Someone else's listing is 404.",
        tag: "owner",
        not_found: true,
        ..OperationSpec::READ
    };

    async fn run(&self, app: &App, caller: &Caller, input: Input<ListingPath, NoInput, NoInput>) -> Result<OwnedListingView, OpError> {
        let listing = app.owners.get(owner(caller)?, ListingId::new(input.path.listing_id)).await?;
        Ok(OwnedListingView::of(&listing, app))
    }
}

/// What `choose_free_listing` did.
#[derive(Debug, Serialize, JsonSchema)]
pub struct FreeQueueView {
    /// `queued` now, or `already_queued` (a repeated call moves nothing).
    pub outcome: &'static str,
    /// The launch week's Monday.
    pub launch_week: String,
    pub listing: OwnedListingView,
    /// What happens next.
    pub next_step: String,
}

pub struct ChooseFreeListing;

#[async_trait]
impl Operation for ChooseFreeListing {
    type Path = ListingPath;
    type Query = NoInput;
    type Body = NoInput;
    type Output = FreeQueueView;

    const SPEC: OperationSpec = OperationSpec {
        id: "choose_free_listing",
        method: HttpMethod::Post,
        path: "/me/listings/{listing_id}/free",
        scope: Some(Scope::ListingsWrite),
        idempotent: true,
        summary: "Join the free launch queue",
        description: "Queues a submitted listing (status draft) for the earliest launch week 6 to 8 weeks ahead with a free slot (status awaiting_badge). It goes live in that week once our badge is found on the product's homepage. Repeated calls do not move it.",
        tag: "owner",
        not_found: true,
        ..OperationSpec::READ
    };

    async fn run(&self, app: &App, caller: &Caller, input: Input<ListingPath, NoInput, NoInput>) -> Result<FreeQueueView, OpError> {
        let (listing, outcome) = app.owners.choose_free(owner(caller)?, ListingId::new(input.path.listing_id)).await?;
        let (outcome, week) = match outcome {
            FreeQueueOutcome::Queued(week) => ("queued", week),
            FreeQueueOutcome::AlreadyQueued(week) => ("already_queued", week),
        };
        Ok(FreeQueueView {
            outcome,
            launch_week: week.to_string(),
            next_step: format!(
                "Add the Launchdir badge (get_badges) to the homepage of {}; the listing is scheduled once the badge is seen and goes live in the week of {week}.",
                listing.url
            ),
            listing: OwnedListingView::of(&listing, app),
        })
    }
}
