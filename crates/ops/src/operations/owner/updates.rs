//! `post_listing_update`: what's new with an owned listing.

use crate::registry::{Input, Operation, OperationSpec};
use crate::spec_presets::OWNER_WRITE;
use crate::wire::{ListingPath, rfc3339};
use crate::{Caller, Context, InputPart, ListingServices, NoInput, OpError};
use async_trait::async_trait;
use garde::Validate;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

/// An update: what's new.
#[derive(Debug, Deserialize, JsonSchema, Validate)]
#[serde(deny_unknown_fields)]
pub struct UpdateInput {
    #[garde(length(chars, min = 1, max = 200))]
    pub title: String,
    /// Plain text.
    #[garde(length(chars, min = 1, max = 5000))]
    pub body: String,
}

impl InputPart for UpdateInput {}

/// A posted update.
#[derive(Debug, Serialize, JsonSchema)]
pub struct UpdateView {
    pub id: i64,
    pub listing_id: i64,
    pub title: String,
    pub body: String,
    /// RFC 3339.
    pub created_at: String,
    /// Followers are told by e-mail in the background, not within this request.
    pub followers_notified: &'static str,
}

pub struct PostListingUpdate;

#[async_trait]
impl Operation for PostListingUpdate {
    type Path = ListingPath;
    type Query = NoInput;
    type Body = UpdateInput;
    type Output = UpdateView;
    type Area = ListingServices;

    const SPEC: OperationSpec = OperationSpec {
        id: "post_listing_update",
        path: "/me/listings/{listing_id}/updates",
        success_status: 201,
        summary: "Post what's new",
        description: "Posts an update (title up to 200 characters, plain-text body up to 5000). It feeds the latest updates of the public profile, and the listing's followers are told by e-mail in the background.",
        ..OWNER_WRITE
    };

    async fn run(
        &self,
        listings: Context<'_, Self::Area>,
        caller: &Caller,
        input: Input<ListingPath, NoInput, UpdateInput>,
    ) -> Result<UpdateView, OpError> {
        let body = input.body;
        let (id, at) = listings.owners.post_update(caller.user_id()?, input.path.id(), &body.title, &body.body).await?;
        Ok(UpdateView {
            id,
            listing_id: input.path.listing_id,
            title: body.title,
            body: body.body,
            created_at: rfc3339(at),
            followers_notified: "queued",
        })
    }
}
