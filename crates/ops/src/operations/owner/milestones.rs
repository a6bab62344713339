//! `add_milestone` and `delete_milestone`: the dated milestones of an owned listing.

use crate::registry::{Input, Operation, OperationSpec};
use crate::spec_presets::OWNER_WRITE;
use crate::wire::{ListingPath, MilestoneInput};
use crate::{Caller, Context, HttpMethod, InputPart, ListingServices, NoInput, OpError};
use async_trait::async_trait;
use garde::Validate;
use kernel::ListingId;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

/// `{listing_id}/milestones/{milestone_id}`.
#[derive(Debug, Deserialize, JsonSchema, Validate)]
#[serde(deny_unknown_fields)]
pub struct MilestonePath {
    #[garde(range(min = 1))]
    pub listing_id: i64,
    #[garde(range(min = 1))]
    pub milestone_id: i64,
}

impl InputPart for MilestonePath {}

/// A milestone as added.
#[derive(Debug, Serialize, JsonSchema)]
pub struct MilestoneView {
    pub id: i64,
    pub listing_id: i64,
    /// `YYYY-MM-DD`.
    pub date: String,
    pub title: String,
    pub description: Option<String>,
    pub url: Option<String>,
    /// Whether the public profile shows it: milestones are a paid-only section.
    pub shown_publicly: bool,
}

pub struct AddMilestone;

#[async_trait]
impl Operation for AddMilestone {
    type Path = ListingPath;
    type Query = NoInput;
    type Body = MilestoneInput;
    type Output = MilestoneView;
    type Area = ListingServices;

    const SPEC: OperationSpec = OperationSpec {
        id: "add_milestone",
        path: "/me/listings/{listing_id}/milestones",
        success_status: 201,
        summary: "Add a milestone",
        description: "Adds a dated milestone (title up to 200 characters, description up to 2000, an https link). Shown publicly on paid listings or when the milestones section is unlocked.",
        ..OWNER_WRITE
    };

    async fn run(
        &self,
        listings: Context<'_, Self::Area>,
        caller: &Caller,
        input: Input<ListingPath, NoInput, MilestoneInput>,
    ) -> Result<MilestoneView, OpError> {
        let milestone = input.body.to_milestone()?;
        let (id, shown) = listings.owners.add_milestone(caller.user_id()?, input.path.id(), milestone).await?;
        let body = input.body;
        Ok(MilestoneView {
            id,
            listing_id: input.path.listing_id,
            date: body.date,
            title: body.title,
            description: body.description,
            url: body.url,
            shown_publicly: shown,
        })
    }
}

/// What `delete_milestone` did.
#[derive(Debug, Serialize, JsonSchema)]
pub struct DeletedView {
    pub deleted: bool,
    pub id: i64,
}

pub struct DeleteMilestone;

#[async_trait]
impl Operation for DeleteMilestone {
    type Path = MilestonePath;
    type Query = NoInput;
    type Body = NoInput;
    type Output = DeletedView;
    type Area = ListingServices;

    const SPEC: OperationSpec = OperationSpec {
        id: "delete_milestone",
        method: HttpMethod::Delete,
        path: "/me/listings/{listing_id}/milestones/{milestone_id}",
        summary: "Delete a milestone",
        description: "Deletes a milestone of a listing you own. A milestone of another listing is 404.",
        destructive: true,
        ..OWNER_WRITE
    };

    async fn run(
        &self,
        listings: Context<'_, Self::Area>,
        caller: &Caller,
        input: Input<MilestonePath, NoInput, NoInput>,
    ) -> Result<DeletedView, OpError> {
        let path = input.path;
        listings
            .owners
            .delete_milestone(caller.user_id()?, ListingId::new(path.listing_id), path.milestone_id)
            .await
            .map_err(OpError::from_milestone_delete)?;
        Ok(DeletedView { deleted: true, id: path.milestone_id })
    }
}
