//! The owner's listings: `list_my_listings`, `get_my_listing` and `choose_free_listing`.

use super::rfc3339;
use crate::registry::{Input, Operation, OperationSpec};
use crate::{App, Caller, HttpMethod, NoInput, OpError, Pagination};
use accounts::Scope;
use async_trait::async_trait;
use garde::Validate;
use kernel::{ListingId, Paged};
use listings::{FreeQueueOutcome, OwnedListing, OwnerError};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

impl From<OwnerError> for OpError {
    fn from(error: OwnerError) -> Self {
        match error {
            OwnerError::NotFound => OpError::NotFound("you own no listing with this id".into()),
            OwnerError::NotAllowed(message) => OpError::field("listing_id", message),
            OwnerError::Repo(err) => OpError::internal(err),
            OwnerError::Mail(err) => OpError::internal(err),
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
    /// The last check of the homepage for our badge (free queue); null before the first.
    pub badge_check: Option<BadgeCheckView>,
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
        let page = app.owners.list(caller.user_id()?, input.query.request()).await?;
        Ok(page.map(|listing| OwnedListingView::of(&listing, app)))
    }
}

/// One owned listing: the owner's fields and everything public.
#[derive(Debug, Serialize, JsonSchema)]
pub struct MyListingView {
    #[serde(flatten)]
    pub owned: OwnedListingView,
    /// The profile as the public sees it (or will, once published): paid-only sections appear
    /// only where unlocked.
    pub profile: super::listing::ListingView,
}

pub struct GetMyListing;

#[async_trait]
impl Operation for GetMyListing {
    type Path = ListingPath;
    type Query = NoInput;
    type Body = NoInput;
    type Output = MyListingView;

    const SPEC: OperationSpec = OperationSpec {
        id: "get_my_listing",
        path: "/me/listings/{listing_id}",
        scope: Some(Scope::AccountRead),
        summary: "One of your listings",
        description: "Status, plan, launch week, unlocked paid sections and the last badge check (result and time) of a listing you own, plus its public profile. Someone else's listing is 404.",
        tag: "owner",
        not_found: true,
        ..OperationSpec::READ
    };

    async fn run(&self, app: &App, caller: &Caller, input: Input<ListingPath, NoInput, NoInput>) -> Result<MyListingView, OpError> {
        let listing = app.owners.get(caller.user_id()?, ListingId::new(input.path.listing_id)).await?;
        MyListingView::of(listing, app).await
    }
}

impl MyListingView {
    /// The owner's fields plus the profile as the public sees it (counting no view).
    async fn of(listing: OwnedListing, app: &App) -> Result<Self, OpError> {
        let slug = kernel::Slug::parse(&listing.slug).map_err(|err| OpError::internal(std::io::Error::other(err.0)))?;
        let profile = app.profiles.owner_profile(&slug).await.map_err(OpError::internal)?;
        Ok(Self { owned: OwnedListingView::of(&listing, app), profile: super::listing::listing_view(profile, app) })
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
        let (listing, outcome) = app.owners.choose_free(caller.user_id()?, ListingId::new(input.path.listing_id)).await?;
        let (outcome, week) = match outcome {
            FreeQueueOutcome::Queued(week) => {
                // Look for the badge now rather than at the next sweep; if this fails, the
                // sweep checks it within minutes anyway.
                if let Err(err) = app.lifecycle.check_soon(listing.id).await {
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
            listing: OwnedListingView::of(&listing, app),
        })
    }
}

/// `{listing_id}/milestones/{milestone_id}`.
#[derive(Debug, Deserialize, JsonSchema, Validate)]
#[serde(deny_unknown_fields)]
pub struct MilestonePath {
    #[garde(range(min = 1))]
    pub listing_id: i64,
    #[garde(range(min = 1))]
    pub milestone_id: i64,
}

impl crate::InputPart for MilestonePath {}

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

impl crate::InputPart for super::drafts::MilestoneInput {}

pub struct AddMilestone;

#[async_trait]
impl Operation for AddMilestone {
    type Path = ListingPath;
    type Query = NoInput;
    type Body = super::drafts::MilestoneInput;
    type Output = MilestoneView;

    const SPEC: OperationSpec = OperationSpec {
        id: "add_milestone",
        method: HttpMethod::Post,
        path: "/me/listings/{listing_id}/milestones",
        scope: Some(Scope::ListingsWrite),
        idempotent: true,
        success_status: 201,
        summary: "Add a milestone",
        description: "Adds a dated milestone (title up to 200 characters, description up to 2000, an https link). Shown publicly on paid listings or when the milestones section is unlocked.",
        tag: "owner",
        not_found: true,
        ..OperationSpec::READ
    };

    async fn run(
        &self,
        app: &App,
        caller: &Caller,
        input: Input<ListingPath, NoInput, super::drafts::MilestoneInput>,
    ) -> Result<MilestoneView, OpError> {
        let body = input.body;
        let format = time::macros::format_description!("[year]-[month]-[day]");
        let date = time::Date::parse(&body.date, format).map_err(|_| OpError::field("date", "must be a date YYYY-MM-DD"))?;
        let milestone =
            listings::Milestone { date, title: body.title.clone(), description: body.description.clone(), url: body.url.clone() };
        let (id, shown) = app.owners.add_milestone(caller.user_id()?, ListingId::new(input.path.listing_id), milestone).await?;
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

    const SPEC: OperationSpec = OperationSpec {
        id: "delete_milestone",
        method: HttpMethod::Delete,
        path: "/me/listings/{listing_id}/milestones/{milestone_id}",
        scope: Some(Scope::ListingsWrite),
        idempotent: true,
        summary: "Delete a milestone",
        description: "Deletes a milestone of a listing you own. A milestone of another listing is 404.",
        tag: "owner",
        not_found: true,
        destructive: true,
        ..OperationSpec::READ
    };

    async fn run(&self, app: &App, caller: &Caller, input: Input<MilestonePath, NoInput, NoInput>) -> Result<DeletedView, OpError> {
        let path = input.path;
        app.owners.delete_milestone(caller.user_id()?, ListingId::new(path.listing_id), path.milestone_id).await.map_err(
            |err| match err {
                OwnerError::NotFound => OpError::NotFound("you own no listing with this id, or it has no such milestone".into()),
                other => other.into(),
            },
        )?;
        Ok(DeletedView { deleted: true, id: path.milestone_id })
    }
}

/// The founder story of an owned listing: nine sections, all optional.
#[derive(Debug, Deserialize, JsonSchema, Validate)]
#[serde(deny_unknown_fields)]
pub struct OwnedStoryInput {
    #[garde(length(chars, max = 200))]
    pub title: Option<String>,
    #[garde(length(chars, max = 8000))]
    pub story: Option<String>,
    #[garde(length(chars, max = 8000))]
    pub why_started: Option<String>,
    #[garde(length(chars, max = 8000))]
    pub problem: Option<String>,
    #[garde(length(chars, max = 8000))]
    pub journey: Option<String>,
    #[garde(length(chars, max = 8000))]
    pub challenges: Option<String>,
    #[garde(length(chars, max = 8000))]
    pub achievements: Option<String>,
    #[garde(length(chars, max = 8000))]
    pub lessons: Option<String>,
    #[garde(length(chars, max = 8000))]
    pub whats_next: Option<String>,
}

impl crate::InputPart for OwnedStoryInput {}

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

    const SPEC: OperationSpec = OperationSpec {
        id: "set_founder_story",
        method: HttpMethod::Put,
        path: "/me/listings/{listing_id}/story",
        scope: Some(Scope::ListingsWrite),
        idempotent: true,
        summary: "Write the founder story",
        description: "Replaces the founder story (title up to 200 characters; story, why_started, problem, journey, challenges, achievements, lessons, whats_next up to 8000 each; all optional). Published with the listing.",
        tag: "owner",
        not_found: true,
        ..OperationSpec::READ
    };

    async fn run(&self, app: &App, caller: &Caller, input: Input<ListingPath, NoInput, OwnedStoryInput>) -> Result<StoryView, OpError> {
        let body = input.body;
        let story = kernel::Story {
            title: body.title,
            story: body.story,
            why_started: body.why_started,
            problem: body.problem,
            journey: body.journey,
            challenges: body.challenges,
            achievements: body.achievements,
            lessons: body.lessons,
            whats_next: body.whats_next,
        };
        let (listing, published) = app.owners.set_story(caller.user_id()?, ListingId::new(input.path.listing_id), story).await?;
        Ok(StoryView {
            listing_id: input.path.listing_id,
            published,
            shown_publicly: listing.unlocked_sections.iter().any(|s| s == "story"),
        })
    }
}

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

impl crate::InputPart for UpdateInput {}

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

    const SPEC: OperationSpec = OperationSpec {
        id: "post_listing_update",
        method: HttpMethod::Post,
        path: "/me/listings/{listing_id}/updates",
        scope: Some(Scope::ListingsWrite),
        idempotent: true,
        success_status: 201,
        summary: "Post what's new",
        description: "Posts an update (title up to 200 characters, plain-text body up to 5000). It feeds the latest updates of the public profile, and the listing's followers are told by e-mail in the background.",
        tag: "owner",
        not_found: true,
        ..OperationSpec::READ
    };

    async fn run(&self, app: &App, caller: &Caller, input: Input<ListingPath, NoInput, UpdateInput>) -> Result<UpdateView, OpError> {
        let body = input.body;
        let (id, at) = app.owners.post_update(caller.user_id()?, ListingId::new(input.path.listing_id), &body.title, &body.body).await?;
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

/// The `update_my_listing` body. Every key is optional; send only what changes.
#[derive(Debug, Default, Deserialize, JsonSchema, Validate)]
#[serde(deny_unknown_fields)]
pub struct UpdateMyListingBody {
    /// New values of editable fields; null (or an empty string) clears one.
    #[serde(default)]
    #[schemars(schema_with = "editable_fields_schema")]
    #[garde(skip)]
    pub fields: Option<serde_json::Map<String, serde_json::Value>>,
    /// Platform key to https link; replaces all socials.
    #[serde(default)]
    #[schemars(schema_with = "super::drafts::socials_schema")]
    #[garde(skip)]
    pub socials: Option<std::collections::BTreeMap<String, String>>,
    /// Replaces all FAQs (at most 10).
    #[garde(length(max = 10), dive)]
    pub faqs: Option<Vec<super::drafts::FaqInput>>,
}

impl crate::InputPart for UpdateMyListingBody {}

fn editable_fields_schema(_: &mut schemars::SchemaGenerator) -> schemars::Schema {
    use listings::edit::{FieldKind, MAX_LIST_ITEM_CHARS, MAX_LIST_ITEMS};
    let mut properties = serde_json::Map::new();
    for field in listings::EditableField::ALL {
        let schema = match field.kind() {
            FieldKind::Text(max) => serde_json::json!({"type": ["string", "null"], "maxLength": max}),
            FieldKind::Country => serde_json::json!({"type": ["string", "null"], "maxLength": 2, "description": "ISO 3166-1 alpha-2"}),
            FieldKind::Year => serde_json::json!({"type": ["integer", "null"], "minimum": 1800, "maximum": 2100}),
            FieldKind::Link => {
                serde_json::json!({"type": ["string", "null"], "maxLength": 500, "format": "uri", "description": "an https link"})
            }
            FieldKind::Email => serde_json::json!({"type": ["string", "null"], "maxLength": 254, "format": "email"}),
            FieldKind::List => serde_json::json!({
                "type": ["array", "null"],
                "maxItems": MAX_LIST_ITEMS,
                "items": {"type": "string", "maxLength": MAX_LIST_ITEM_CHARS}
            }),
        };
        properties.insert(field.as_str().to_owned(), schema);
    }
    schemars::json_schema!({"type": "object", "properties": properties, "additionalProperties": false})
}

impl UpdateMyListingBody {
    fn into_edit(self) -> Result<listings::ListingEdit, OpError> {
        let mut errors = Vec::new();
        let fields = match self.fields.as_ref().map(listings::edit::parse_fields).transpose() {
            Ok(fields) => fields.unwrap_or_default(),
            Err(mut found) => {
                errors.append(&mut found);
                Vec::new()
            }
        };
        if let Some(socials) = &self.socials {
            kernel::check_socials("socials", socials, &mut errors);
        }
        if !errors.is_empty() {
            return Err(OpError::Validation(errors));
        }
        Ok(listings::ListingEdit {
            fields,
            socials: self.socials,
            faqs: self.faqs.map(|faqs| {
                faqs.into_iter()
                    .map(|faq| kernel::Faq { question: faq.question.trim().to_owned(), answer: faq.answer.trim().to_owned() })
                    .collect()
            }),
        })
    }
}

/// One kept edit.
#[derive(Debug, Serialize, JsonSchema)]
pub struct VersionView {
    pub id: i64,
    /// The keys the edit changed.
    pub changed: Vec<String>,
    /// RFC 3339.
    pub created_at: String,
}

/// What `update_my_listing` did.
#[derive(Debug, Serialize, JsonSchema)]
pub struct UpdatedListingView {
    /// The version kept of this edit; null when it changed nothing (nothing was written).
    pub version: Option<VersionView>,
    pub listing: MyListingView,
}

pub struct UpdateMyListing;

#[async_trait]
impl Operation for UpdateMyListing {
    type Path = ListingPath;
    type Query = NoInput;
    type Body = UpdateMyListingBody;
    type Output = UpdatedListingView;

    const SPEC: OperationSpec = OperationSpec {
        id: "update_my_listing",
        method: HttpMethod::Patch,
        path: "/me/listings/{listing_id}",
        scope: Some(Scope::ListingsWrite),
        idempotent: true,
        summary: "Edit your listing",
        description: "Sets editable fields (tagline 200, short_description 300, description 20000, pricing_model 40, pricing_summary 300, country (ISO code), city 120, founded_year 1800 to 2100, demo_video_url (https, 500), contact_email 254, features/usps/keywords (20 items of 200), headline 200, summary 20000, seo_title 200, seo_description 320; null clears), replaces socials and FAQs (at most 10). Edits publish at once, a live listing's edit is searchable at once, and each edit is kept in the version history with the copy before and after.",
        tag: "owner",
        not_found: true,
        ..OperationSpec::READ
    };

    async fn run(
        &self,
        app: &App,
        caller: &Caller,
        input: Input<ListingPath, NoInput, UpdateMyListingBody>,
    ) -> Result<UpdatedListingView, OpError> {
        let edit = input.body.into_edit()?;
        let (listing, version) = app.owners.update(caller.user_id()?, ListingId::new(input.path.listing_id), &edit).await?;
        if version.is_some() && listing.status == listings::ListingStatus::Live {
            // Searchable at once on this server; the others read the change within a second.
            if let Err(err) = app.search.sync().await {
                tracing::warn!(error = %err, "could not index an edited listing now; the periodic sync will");
            }
        }
        Ok(UpdatedListingView {
            version: version.map(|v| VersionView { id: v.id, changed: v.changed, created_at: rfc3339(v.created_at) }),
            listing: MyListingView::of(listing, app).await?,
        })
    }
}

/// An answer to one interview question.
#[derive(Debug, Deserialize, JsonSchema, Validate)]
#[serde(deny_unknown_fields)]
pub struct InterviewAnswerInput {
    /// A question of `list_interview_questions`.
    #[garde(range(min = 1))]
    pub question_id: i64,
    #[garde(length(chars, min = 1, max = 4000))]
    pub answer: String,
}

/// The `answer_interview` body.
#[derive(Debug, Deserialize, JsonSchema, Validate)]
#[serde(deny_unknown_fields)]
pub struct AnswerInterviewBody {
    /// At most 30 per call; answering a question again replaces its answer.
    #[garde(length(min = 1, max = 30), dive)]
    pub answers: Vec<InterviewAnswerInput>,
}

impl crate::InputPart for AnswerInterviewBody {}

/// The account's interview after `answer_interview`.
#[derive(Debug, Serialize, JsonSchema)]
pub struct InterviewView {
    /// Every answer of the account, in the questions' order.
    pub answers: Vec<super::founders::InterviewAnswerView>,
    /// The founder profiles the answers appear on: the primary founder of each listing you own.
    /// A profile is public once one of its listings is live.
    pub shown_on: Vec<ShownOnView>,
}

#[derive(Debug, Serialize, JsonSchema)]
pub struct ShownOnView {
    pub founder_slug: String,
    pub url: String,
    /// Whether the public sees it now.
    pub public: bool,
}

pub struct AnswerInterview;

#[async_trait]
impl Operation for AnswerInterview {
    type Path = NoInput;
    type Query = NoInput;
    type Body = AnswerInterviewBody;
    type Output = InterviewView;

    const SPEC: OperationSpec = OperationSpec {
        id: "answer_interview",
        method: HttpMethod::Put,
        path: "/me/interview",
        scope: Some(Scope::ListingsWrite),
        idempotent: true,
        summary: "Answer interview questions",
        description: "Answers up to 30 founder interview questions (list_interview_questions) per call, each answer up to 4000 characters; answering a question again replaces its answer. The answers appear on the founder profile of the primary founder of each listing you own.",
        tag: "owner",
        ..OperationSpec::READ
    };

    async fn run(&self, app: &App, caller: &Caller, input: Input<NoInput, NoInput, AnswerInterviewBody>) -> Result<InterviewView, OpError> {
        let answers = input.body.answers.into_iter().map(|a| (a.question_id, a.answer)).collect();
        let (answers, founders) = app.interviews.answer(caller.user_id()?, answers).await.map_err(|err| match err {
            listings::InterviewError::Invalid(errors) => OpError::Validation(errors),
            listings::InterviewError::Repo(err) => OpError::internal(err),
        })?;
        Ok(InterviewView {
            answers: answers.into_iter().map(super::founders::InterviewAnswerView::of).collect(),
            shown_on: founders
                .into_iter()
                .map(|f| ShownOnView {
                    url: format!("{}/founders/{}", app.site.site_url, f.slug),
                    founder_slug: f.slug.to_string(),
                    public: f.public,
                })
                .collect(),
        })
    }
}
