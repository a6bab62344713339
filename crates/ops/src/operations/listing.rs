//! `get_listing`: a listing's full public profile.

use crate::registry::{Input, Operation, OperationSpec};
use crate::wire::{ListingSlug, ListingView};
use crate::{Caller, Context, ListingServices, NoInput, OpError, RawInput};
use async_trait::async_trait;

pub struct GetListing;

#[async_trait]
impl Operation for GetListing {
    type Path = ListingSlug;
    type Query = NoInput;
    type Body = NoInput;
    type Output = ListingView;
    type Area = ListingServices;

    const SPEC: OperationSpec = OperationSpec {
        id: "get_listing",
        path: "/listings/{slug}",
        summary: "A listing's full profile",
        description: "Description, features, pricing, categories (one primary, up to three more for paid listings), founders, \
                      FAQs, socials, links, the latest updates, the community rating from genuine reviews only, Domain \
                      Rating with its trend, and `not_found_on_website` (facts the company's site did not state). Paid-only \
                      sections (story, milestones, media) appear only when unlocked. Live, scheduled and badge-pending \
                      listings are public; 404 otherwise.",
        tag: "directory",
        not_found: true,
        ..OperationSpec::READ
    };

    async fn run(
        &self,
        listings: Context<'_, Self::Area>,
        caller: &Caller,
        input: Input<ListingSlug, NoInput, NoInput>,
    ) -> Result<ListingView, OpError> {
        let profile = listings
            .profiles
            .profile(&input.path.slug, caller.viewer().as_deref())
            .await
            .map_err(|err| OpError::from_profile(err, &input.path.slug))?;
        Ok(ListingView::of(profile, listings))
    }

    fn answered_from_cache(&self, listings: Context<'_, Self::Area>, caller: &Caller, input: &RawInput) {
        let slug = input.path.get("slug").and_then(|slug| slug.as_str()).and_then(|slug| kernel::Slug::parse(slug).ok());
        if let Some(slug) = slug {
            listings.profiles.count_view(&slug, caller.viewer().as_deref());
        }
    }
}
