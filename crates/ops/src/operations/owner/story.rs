//! `set_founder_story`: the founder story of an owned listing.

use crate::registry::{Input, Operation, OperationSpec};
use crate::spec_presets::OWNER_WRITE;
use crate::wire::{ListingPath, OwnedStoryInput};
use crate::{Caller, Context, HttpMethod, ListingServices, NoInput, OpError};
use async_trait::async_trait;
use schemars::JsonSchema;
use serde::Serialize;

/// What `set_founder_story` did.
#[derive(Debug, Serialize, JsonSchema)]
pub struct StoryView {
    pub listing_id: i64,
    /// Published now (the listing is live), or kept until the listing is published.
    pub published: bool,
    /// Whether the public sees it once published: the story is a paid-only section.
    pub shown_publicly: bool,
}

pub struct SetFounderStory;

#[async_trait]
impl Operation for SetFounderStory {
    type Path = ListingPath;
    type Query = NoInput;
    type Body = OwnedStoryInput;
    type Output = StoryView;
    type Area = ListingServices;

    const SPEC: OperationSpec = OperationSpec {
        id: "set_founder_story",
        method: HttpMethod::Put,
        path: "/me/listings/{listing_id}/story",
        summary: "Write the founder story",
        description: "Replaces the founder story (title up to 200 characters; story, why_started, problem, journey, challenges, achievements, lessons, whats_next up to 8000 each; all optional). Published with the listing.",
        ..OWNER_WRITE
    };

    async fn run(
        &self,
        listings: Context<'_, Self::Area>,
        caller: &Caller,
        input: Input<ListingPath, NoInput, OwnedStoryInput>,
    ) -> Result<StoryView, OpError> {
        let (listing, published) = listings.owners.set_story(caller.user_id()?, input.path.id(), input.body.0).await?;
        Ok(StoryView {
            listing_id: input.path.listing_id,
            published,
            shown_publicly: listing.unlocked_sections.iter().any(|s| s == "story"),
        })
    }
}
