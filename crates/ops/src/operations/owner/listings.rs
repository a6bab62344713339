//! `list_my_listings`, `get_my_listing` and `choose_free_listing`: an owned listing's status,
//! and the free launch queue.

use crate::registry::{Input, Operation, OperationSpec};
use crate::spec_presets::{OWNER_READ, OWNER_WRITE};
use crate::wire::PageOf;
use crate::wire::{ListingPath, MyListingView, OwnedListingView, Pagination};
use crate::{Caller, Context, ListingServices, NoInput, OpError};
use async_trait::async_trait;
use listings::FreeQueueOutcome;
use schemars::JsonSchema;
use serde::Serialize;

pub struct ListMyListings;

#[async_trait]
impl Operation for ListMyListings {
    type Path = NoInput;
    type Query = Pagination;
    type Body = NoInput;
    type Output = PageOf<OwnedListingView>;
    type Area = ListingServices;

    const SPEC: OperationSpec = OperationSpec {
        id: "list_my_listings",
        path: "/me/listings",
        summary: "Your listings",
        description: "Every listing you own, of any status, newest first.",
        ..OWNER_READ
    };

    async fn run(
        &self,
        listings: Context<'_, Self::Area>,
        caller: &Caller,
        input: Input<NoInput, Pagination, NoInput>,
    ) -> Result<PageOf<OwnedListingView>, OpError> {
        let page = listings.owners.list(caller.user_id()?, input.query.page_request()).await?;
        Ok(PageOf::from(page.map(|listing| OwnedListingView::of(&listing, listings))))
    }
}

pub struct GetMyListing;

#[async_trait]
impl Operation for GetMyListing {
    type Path = ListingPath;
    type Query = NoInput;
    type Body = NoInput;
    type Output = MyListingView;
    type Area = ListingServices;

    const SPEC: OperationSpec = OperationSpec {
        id: "get_my_listing",
        path: "/me/listings/{listing_id}",
        summary: "One of your listings",
        description: "Status, plan, launch week, unlocked paid sections and the last badge check (result and time) of a listing you own, plus its public profile. Someone else's listing is 404.",
        not_found: true,
        ..OWNER_READ
    };

    async fn run(
        &self,
        listings: Context<'_, Self::Area>,
        caller: &Caller,
        input: Input<ListingPath, NoInput, NoInput>,
    ) -> Result<MyListingView, OpError> {
        let listing = listings.owners.get(caller.user_id()?, input.path.id()).await?;
        MyListingView::of(listing, listings).await
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
    type Area = ListingServices;

    const SPEC: OperationSpec = OperationSpec {
        id: "choose_free_listing",
        path: "/me/listings/{listing_id}/free",
        summary: "Join the free launch queue",
        description: "Queues a submitted listing (status draft) for the earliest launch week 6 to 8 weeks ahead with a free slot (status awaiting_badge). It goes live in that week once our badge is found on the product's homepage. Repeated calls do not move it.",
        ..OWNER_WRITE
    };

    async fn run(
        &self,
        listings: Context<'_, Self::Area>,
        caller: &Caller,
        input: Input<ListingPath, NoInput, NoInput>,
    ) -> Result<FreeQueueView, OpError> {
        let (listing, outcome) = listings.owners.choose_free(caller.user_id()?, input.path.id()).await?;
        let (outcome, week) = match outcome {
            FreeQueueOutcome::Queued(week) => {
                // Look for the badge now rather than at the next sweep; if this fails, the
                // sweep checks it within minutes anyway.
                if let Err(err) = listings.lifecycle.check_soon(listing.id).await {
                    tracing::warn!(error = %err, "could not enqueue the first badge check; the sweep will");
                }
                ("queued", week)
            }
            FreeQueueOutcome::AlreadyQueued(week) => ("already_queued", week),
        };
        Ok(FreeQueueView {
            outcome,
            launch_week: week.to_string(),
            next_step: format!(
                "Add the Launchdir badge (get_badges) to the homepage of {}; the listing is scheduled once the badge is seen and goes live in the week of {week}.",
                listing.url
            ),
            listing: OwnedListingView::of(&listing, listings),
        })
    }
}
