//! The draft operations: `submit_listing`, `list_my_drafts`, `get_draft`, `update_draft`,
//! `invite_cofounder` and `submit_draft`.

use crate::registry::{Input, Operation, OperationSpec};
use crate::wire::PageOf;
use crate::wire::SchemaOf;
use crate::wire::{DraftPath, DraftView, Pagination, UpdateDraftBody, rfc3339};
use crate::{Caller, Context, HttpMethod, NoInput, OpError, RateClass};
use accounts::Scope;
use async_trait::async_trait;
use drafts::FieldName;
use garde::Validate;
use kernel::Email;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

/// A draft in a list.
#[derive(Debug, Serialize, JsonSchema)]
pub struct DraftSummary {
    pub id: String,
    pub url: String,
    /// The drafted or edited name, when there is one.
    pub name: Option<String>,
    #[schemars(with = "SchemaOf<drafts::DraftStatus>")]
    pub status: drafts::DraftStatus,
    #[schemars(with = "Option<SchemaOf<drafts::FailureReason>>")]
    pub failure_reason: Option<drafts::FailureReason>,
    pub completeness: u8,
    pub missing: Vec<&'static str>,
    pub listing_id: Option<i64>,
    pub created_at: String,
    pub updated_at: String,
}

// ---------------------------------------------------------------------------------------------
// Inputs

#[derive(Debug, Deserialize, JsonSchema, Validate)]
#[serde(deny_unknown_fields)]
pub struct SubmitListingBody {
    /// The product's public website (http or https; no user name or password).
    #[garde(length(chars, min = 1, max = 2048))]
    #[schemars(extend("pattern" = kernel::WebUrl::PATTERN))]
    pub url: String,
}

impl crate::InputPart for SubmitListingBody {}

#[derive(Debug, Deserialize, JsonSchema, Validate)]
#[serde(deny_unknown_fields)]
pub struct InviteBody {
    /// The co-founder's e-mail address.
    #[schemars(with = "SchemaOf<Email>")]
    #[garde(length(chars, max = 254), custom(is_email))]
    pub email: String,
}

impl crate::InputPart for InviteBody {}

fn is_email(value: &str, _: &()) -> garde::Result {
    Email::parse(value).map(|_| ()).map_err(|err| garde::Error::new(err.0))
}

// ---------------------------------------------------------------------------------------------
// Operations

/// What the reads of the caller's drafts share.
const DRAFTS_READ: OperationSpec = OperationSpec { scope: Some(Scope::AccountRead), tag: "drafts", ..OperationSpec::READ };

/// What the changes to a draft share.
const DRAFTS_WRITE: OperationSpec = OperationSpec {
    method: HttpMethod::Post,
    scope: Some(Scope::ListingsWrite),
    idempotent: true,
    tag: "drafts",
    rate: RateClass::Write,
    ..OperationSpec::READ
};

pub struct SubmitListing;

#[async_trait]
impl Operation for SubmitListing {
    type Path = NoInput;
    type Query = NoInput;
    type Body = SubmitListingBody;
    type Output = DraftView;
    type Area = drafts::DraftsService;

    const SPEC: OperationSpec = OperationSpec {
        id: "submit_listing",
        path: "/drafts",
        success_status: 201,
        summary: "Submit a website to draft a listing",
        description: "Starts a draft from the product's website. The service reads the site (respecting robots.txt) and drafts every profile field with quotes from the site as evidence; anything the site does not state is left blank. Poll get_draft every few seconds while the status is crawling or drafting. Nothing is published or charged.",
        // Each submission reads a website: a budget of its own (20 an hour by default).
        rate: RateClass::SubmitListing,
        ..DRAFTS_WRITE
    };

    async fn run(
        &self,
        drafts: Context<'_, Self::Area>,
        caller: &Caller,
        input: Input<NoInput, NoInput, SubmitListingBody>,
    ) -> Result<DraftView, OpError> {
        let draft = drafts.submit(caller.user_id()?, &input.body.url).await?;
        Ok(DraftView::from(&draft))
    }
}

pub struct ListMyDrafts;

#[async_trait]
impl Operation for ListMyDrafts {
    type Path = NoInput;
    type Query = Pagination;
    type Body = NoInput;
    type Output = PageOf<DraftSummary>;
    type Area = drafts::DraftsService;

    const SPEC: OperationSpec = OperationSpec {
        id: "list_my_drafts",
        path: "/drafts",
        summary: "Your drafts",
        description: "Your drafts, newest first, with status and completeness.",
        ..DRAFTS_READ
    };

    async fn run(
        &self,
        drafts: Context<'_, Self::Area>,
        caller: &Caller,
        input: Input<NoInput, Pagination, NoInput>,
    ) -> Result<PageOf<DraftSummary>, OpError> {
        let page = drafts.list(caller.user_id()?, input.query.page_request()).await?;
        Ok(PageOf::from(page.map(|draft| {
            let completeness = draft.completeness();
            DraftSummary {
                id: draft.id.to_string(),
                url: draft.url.to_string(),
                name: draft.text(FieldName::Name).map(str::to_owned),
                status: draft.status,
                failure_reason: draft.failure_reason,
                completeness: completeness.percent,
                missing: completeness.missing,
                listing_id: draft.listing_id.map(kernel::ListingId::get),
                created_at: rfc3339(draft.created_at),
                updated_at: rfc3339(draft.updated_at),
            }
        })))
    }
}

pub struct GetDraft;

#[async_trait]
impl Operation for GetDraft {
    type Path = DraftPath;
    type Query = NoInput;
    type Body = NoInput;
    type Output = DraftView;
    type Area = drafts::DraftsService;

    const SPEC: OperationSpec = OperationSpec {
        id: "get_draft",
        path: "/drafts/{id}",
        summary: "A draft",
        description: "A draft with every field's value, state and evidence quoted from the website, its completeness and what is missing.",
        not_found: true,
        ..DRAFTS_READ
    };

    async fn run(
        &self,
        drafts: Context<'_, Self::Area>,
        caller: &Caller,
        input: Input<DraftPath, NoInput, NoInput>,
    ) -> Result<DraftView, OpError> {
        let draft = drafts.get(caller.user_id()?, input.path.id()?).await?;
        Ok(DraftView::from(&draft))
    }
}

pub struct UpdateDraft;

#[async_trait]
impl Operation for UpdateDraft {
    type Path = DraftPath;
    type Query = NoInput;
    type Body = UpdateDraftBody;
    type Output = DraftView;
    type Area = drafts::DraftsService;

    const SPEC: OperationSpec = OperationSpec {
        id: "update_draft",
        method: HttpMethod::Patch,
        path: "/drafts/{id}",
        summary: "Edit a draft",
        description: "Sets fields (state edited or manual; null removes: deleted), locks fields against redrafts (override), restores the AI's values, redrafts fields from the website in the background (regenerate, at most 5), and replaces FAQs, socials, founders, story, milestones and SEO. competitor_url reads a competitor's site and compares. Once submitted, the listing is updated too.",
        not_found: true,
        ..DRAFTS_WRITE
    };

    async fn run(
        &self,
        drafts: Context<'_, Self::Area>,
        caller: &Caller,
        input: Input<DraftPath, NoInput, UpdateDraftBody>,
    ) -> Result<DraftView, OpError> {
        let id = input.path.id()?;
        let edit = input.body.into_edit()?;
        let draft = drafts.update(caller.user_id()?, id, edit).await?;
        Ok(DraftView::from(&draft))
    }
}

/// What `invite_cofounder` did.
#[derive(Debug, Serialize, JsonSchema)]
pub struct InvitationView {
    pub draft_id: String,
    /// Who was invited.
    pub email: String,
    pub invites_sent: u32,
    /// Invitations this draft may still send (10 in all).
    pub invites_left: u32,
}

pub struct InviteCofounder;

#[async_trait]
impl Operation for InviteCofounder {
    type Path = DraftPath;
    type Query = NoInput;
    type Body = InviteBody;
    type Output = InvitationView;
    type Area = drafts::DraftsService;

    const SPEC: OperationSpec = OperationSpec {
        id: "invite_cofounder",
        path: "/drafts/{id}/invites",
        success_status: 201,
        summary: "Invite a co-founder",
        description: "E-mails an invitation to add their own founder profile. At most 10 per draft; an address is invited once.",
        not_found: true,
        ..DRAFTS_WRITE
    };

    async fn run(
        &self,
        drafts: Context<'_, Self::Area>,
        caller: &Caller,
        input: Input<DraftPath, NoInput, InviteBody>,
    ) -> Result<InvitationView, OpError> {
        let id = input.path.id()?;
        let email = Email::parse(&input.body.email).map_err(|err| OpError::field("email", err.0))?;
        let principal = caller.signed_in()?;
        let inviter = if principal.user.display_name.trim().is_empty() {
            principal.user.email.to_string()
        } else {
            principal.user.display_name.clone()
        };
        let invitation = drafts.invite(principal.user.id, id, email, &inviter).await?;
        Ok(InvitationView {
            draft_id: id.to_string(),
            email: invitation.email.to_string(),
            invites_sent: invitation.invites_sent,
            invites_left: invitation.invites_left,
        })
    }
}

/// What `submit_draft` did.
#[derive(Debug, Serialize, JsonSchema)]
pub struct SubmittedView {
    /// The listing, saved with status `draft`: not published.
    pub listing_id: i64,
    pub listing_status: &'static str,
    pub draft: DraftView,
}

pub struct SubmitDraft;

#[async_trait]
impl Operation for SubmitDraft {
    type Path = DraftPath;
    type Query = NoInput;
    type Body = NoInput;
    type Output = SubmittedView;
    type Area = drafts::DraftsService;

    const SPEC: OperationSpec = OperationSpec {
        id: "submit_draft",
        path: "/drafts/{id}/submit",
        summary: "Save a draft as a listing",
        description: "Saves the draft as a listing in status draft (not published, nothing charged) and returns listing_id. Running it again after edits updates the same listing. A listing needs a name and a category.",
        not_found: true,
        ..DRAFTS_WRITE
    };

    async fn run(
        &self,
        drafts: Context<'_, Self::Area>,
        caller: &Caller,
        input: Input<DraftPath, NoInput, NoInput>,
    ) -> Result<SubmittedView, OpError> {
        let (draft, listing) = drafts.submit_draft(caller.user_id()?, input.path.id()?).await?;
        Ok(SubmittedView { listing_id: listing.get(), listing_status: "draft", draft: DraftView::from(&draft) })
    }
}
