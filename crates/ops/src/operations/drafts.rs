//! The draft operations: `submit_listing`, `list_my_drafts`, `get_draft`, `update_draft`,
//! `invite_cofounder` and `submit_draft`.

use super::rfc3339;
use crate::registry::{Input, Operation, OperationSpec};
use crate::{App, Caller, HttpMethod, NoInput, OpError, Pagination};
use accounts::Scope;
use async_trait::async_trait;
use drafts::{Draft, DraftEdit, DraftError, DraftFounder, DraftId, DraftMilestone, DraftSeo, FieldKind, FieldName, FieldValue, Section};
use garde::Validate;
use kernel::{Email, Faq, FieldError, Paged};
use schemars::{JsonSchema, Schema, SchemaGenerator, json_schema};
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};
use std::collections::BTreeMap;

impl From<DraftError> for OpError {
    fn from(error: DraftError) -> Self {
        match error {
            DraftError::NotFound => OpError::NotFound("no draft with this id".into()),
            DraftError::Invalid(errors) => OpError::Validation(errors),
            DraftError::Repo(err) => OpError::internal(err),
            DraftError::Mail(err) => OpError::internal(err),
            err @ (DraftError::Contention | DraftError::SiteUnreachable(_) | DraftError::Drafter(_)) => OpError::internal(err),
        }
    }
}

// ---------------------------------------------------------------------------------------------
// Views

/// One profile field of a draft.
#[derive(Debug, Serialize, JsonSchema)]
pub struct FieldView {
    /// A string, a list of strings, or null when empty.
    pub value: Option<FieldValue>,
    /// `ai`, `not_found`, `edited`, `manual`, `override` or `deleted`.
    pub state: drafts::FieldState,
    /// Quotes from the website behind the value (empty for the caller's own values).
    pub evidence: Vec<drafts::Evidence>,
}

/// A section besides the profile fields, with its state and evidence.
#[derive(Debug, Serialize, JsonSchema)]
pub struct SectionView<T: JsonSchema> {
    pub value: T,
    pub state: drafts::FieldState,
    pub evidence: Vec<drafts::Evidence>,
}

fn section<T: Clone + JsonSchema>(section: &Section<T>) -> SectionView<T> {
    SectionView { value: section.value.clone(), state: section.state, evidence: section.evidence.clone() }
}

/// A draft: every profile field with its state and evidence, and how complete it is.
#[derive(Debug, Serialize, JsonSchema)]
pub struct DraftView {
    /// UUID.
    pub id: String,
    /// `crawling`, `drafting`, `ready`, `failed` or `submitted`. Poll while `crawling` or `drafting`.
    pub status: drafts::DraftStatus,
    /// Why the site could not be read, when `failed`.
    pub failure_reason: Option<drafts::FailureReason>,
    /// The reason in words.
    pub failure_message: Option<&'static str>,
    /// The website, normalised.
    pub url: String,
    /// The 18 profile fields.
    pub fields: BTreeMap<String, FieldView>,
    pub faqs: SectionView<Vec<Faq>>,
    pub founders: SectionView<Vec<DraftFounder>>,
    pub company_socials: SectionView<BTreeMap<String, String>>,
    pub founder_socials: SectionView<BTreeMap<String, String>>,
    pub story: SectionView<kernel::Story>,
    pub milestones: SectionView<Vec<DraftMilestone>>,
    pub seo: SectionView<DraftSeo>,
    /// A competitor's site side by side with this draft, when `competitor_url` was set.
    pub competitor: Option<drafts::Competitor>,
    /// Fields being redrafted now (`regenerate`).
    pub regenerating: Vec<FieldName>,
    /// 0 to 100: the share of the 18 fields, FAQs, founders and company socials filled.
    pub completeness: u8,
    /// What is still empty.
    pub missing: Vec<&'static str>,
    /// Fields the company's own site did not state (left blank on purpose).
    pub not_found_on_website: Vec<&'static str>,
    /// Pages read, and pages robots.txt kept us from reading.
    pub pages_read: Vec<String>,
    pub pages_skipped: Vec<String>,
    /// The listing `submit_draft` made, once submitted.
    pub listing_id: Option<i64>,
    pub invites_sent: u32,
    /// RFC 3339.
    pub created_at: String,
    pub updated_at: String,
}

impl From<&Draft> for DraftView {
    fn from(draft: &Draft) -> Self {
        let completeness = draft.completeness();
        Self {
            id: draft.id.to_string(),
            status: draft.status,
            failure_reason: draft.failure_reason,
            failure_message: draft.failure_reason.map(drafts::FailureReason::message),
            url: draft.url.to_string(),
            fields: draft
                .fields
                .iter()
                .map(|(name, field)| {
                    (
                        name.as_str().to_owned(),
                        FieldView { value: field.value.clone(), state: field.shown_state(), evidence: field.evidence.clone() },
                    )
                })
                .collect(),
            faqs: section(&draft.faqs),
            founders: section(&draft.founders),
            company_socials: section(&draft.company_socials),
            founder_socials: section(&draft.founder_socials),
            story: section(&draft.story),
            milestones: section(&draft.milestones),
            seo: section(&draft.seo),
            competitor: draft.competitor.clone(),
            regenerating: draft.regenerating.clone(),
            completeness: completeness.percent,
            missing: completeness.missing,
            not_found_on_website: draft.not_found_on_website(),
            pages_read: draft.pages_read.clone(),
            pages_skipped: draft.pages_skipped.clone(),
            listing_id: draft.listing_id.map(kernel::ListingId::get),
            invites_sent: draft.invites,
            created_at: rfc3339(draft.created_at),
            updated_at: rfc3339(draft.updated_at),
        }
    }
}

/// A draft in a list.
#[derive(Debug, Serialize, JsonSchema)]
pub struct DraftSummary {
    pub id: String,
    pub url: String,
    /// The drafted or edited name, when there is one.
    pub name: Option<String>,
    pub status: drafts::DraftStatus,
    pub failure_reason: Option<drafts::FailureReason>,
    pub completeness: u8,
    pub missing: Vec<&'static str>,
    pub listing_id: Option<i64>,
    pub created_at: String,
    pub updated_at: String,
}

// ---------------------------------------------------------------------------------------------
// Inputs

/// `{id}`: a draft's UUID.
#[derive(Debug, Deserialize, JsonSchema, Validate)]
#[serde(deny_unknown_fields)]
pub struct DraftPath {
    /// The draft's id (UUID).
    #[schemars(schema_with = "uuid_schema")]
    #[garde(custom(is_uuid))]
    pub id: String,
}

impl crate::InputPart for DraftPath {}

fn uuid_schema(_: &mut SchemaGenerator) -> Schema {
    json_schema!({"type": "string", "format": "uuid"})
}

fn is_uuid(value: &str, _: &()) -> garde::Result {
    value.parse::<uuid_like::Uuid>().map(|_| ()).map_err(|_| garde::Error::new("must be a draft id (a UUID)"))
}

/// Parses UUIDs without a dependency on the uuid crate's features here.
mod uuid_like {
    pub struct Uuid;
    impl std::str::FromStr for Uuid {
        type Err = ();
        fn from_str(s: &str) -> Result<Self, ()> {
            let groups: Vec<&str> = s.split('-').collect();
            let lengths = [8, 4, 4, 4, 12];
            let ok = groups.len() == 5
                && groups.iter().zip(lengths).all(|(group, length)| group.len() == length && group.bytes().all(|b| b.is_ascii_hexdigit()));
            if ok { Ok(Uuid) } else { Err(()) }
        }
    }
}

impl DraftPath {
    fn id(&self) -> Result<DraftId, OpError> {
        self.id.to_ascii_lowercase().parse().map(DraftId).map_err(|_| OpError::field("id", "must be a draft id (a UUID)"))
    }
}

#[derive(Debug, Deserialize, JsonSchema, Validate)]
#[serde(deny_unknown_fields)]
pub struct SubmitListingBody {
    /// The product's public website (http or https; no user name or password).
    #[garde(length(chars, min = 1, max = 2048))]
    pub url: String,
}

impl crate::InputPart for SubmitListingBody {}

/// A question and its answer.
#[derive(Debug, Clone, Deserialize, JsonSchema, Validate)]
#[serde(deny_unknown_fields)]
pub struct FaqInput {
    #[garde(length(chars, min = 1, max = 300))]
    pub question: String,
    #[garde(length(chars, min = 1, max = 1500))]
    pub answer: String,
}

#[derive(Debug, Clone, Deserialize, JsonSchema, Validate)]
#[serde(deny_unknown_fields)]
pub struct FounderInput {
    #[garde(length(chars, min = 1, max = 160))]
    pub name: String,
    /// The role.
    #[garde(length(chars, max = 160))]
    pub title: Option<String>,
    #[garde(length(chars, max = 3000))]
    pub bio: Option<String>,
}

#[derive(Debug, Clone, Deserialize, JsonSchema, Validate)]
#[serde(deny_unknown_fields)]
pub struct MilestoneInput {
    /// `YYYY-MM-DD`.
    #[schemars(schema_with = "date_schema")]
    #[garde(custom(is_date))]
    pub date: String,
    #[garde(length(chars, min = 1, max = 200))]
    pub title: String,
    #[garde(length(chars, max = 2000))]
    pub description: Option<String>,
    /// An https link.
    #[garde(length(chars, max = 500), custom(is_https_option))]
    pub url: Option<String>,
}

fn date_schema(_: &mut SchemaGenerator) -> Schema {
    json_schema!({"type": "string", "format": "date"})
}

fn is_date(value: &str, _: &()) -> garde::Result {
    let format = time::macros::format_description!("[year]-[month]-[day]");
    time::Date::parse(value, format).map(|_| ()).map_err(|_| garde::Error::new("must be a date YYYY-MM-DD"))
}

fn is_https_option(value: &Option<String>, _: &()) -> garde::Result {
    match value {
        Some(link) => kernel::check_https_link(link).map_err(garde::Error::new),
        _ => Ok(()),
    }
}

/// The founder story (draft): nine sections, each at most 8000 characters.
#[derive(Debug, Clone, Deserialize, JsonSchema, Validate)]
#[serde(deny_unknown_fields)]
pub struct StoryInput {
    #[garde(length(chars, max = 8000))]
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

#[derive(Debug, Clone, Deserialize, JsonSchema, Validate)]
#[serde(deny_unknown_fields)]
pub struct SeoInput {
    #[garde(length(chars, max = 70))]
    pub title: Option<String>,
    #[garde(length(chars, max = 170))]
    pub meta: Option<String>,
}

/// The `update_draft` body. Every key is optional; send only what changes.
#[derive(Debug, Deserialize, JsonSchema, Validate)]
#[serde(deny_unknown_fields)]
pub struct UpdateDraftBody {
    /// Profile field values; null removes a value. Keys are the 18 draft fields.
    #[serde(default)]
    #[schemars(schema_with = "fields_schema")]
    #[garde(skip)]
    pub fields: Option<Map<String, Value>>,
    /// Fields to lock against AI redrafts (state `override`).
    #[garde(length(max = 20))]
    pub lock_fields: Option<Vec<String>>,
    /// Fields to redraft from the website, in the background (at most 5).
    #[garde(length(max = 5))]
    pub regenerate: Option<Vec<String>>,
    /// Fields to put back to the AI's value.
    #[garde(length(max = 20))]
    pub restore: Option<Vec<String>>,
    /// Replaces all FAQs. The schema allows 10 (the description of the spec says 5).
    #[garde(length(max = 10), dive)]
    pub faqs: Option<Vec<FaqInput>>,
    /// Platform key to https link (replaces all).
    #[serde(default)]
    #[schemars(schema_with = "socials_schema")]
    #[garde(skip)]
    pub company_socials: Option<BTreeMap<String, String>>,
    #[serde(default)]
    #[schemars(schema_with = "socials_schema")]
    #[garde(skip)]
    pub founder_socials: Option<BTreeMap<String, String>>,
    /// Replaces the founders; the first is the primary one.
    #[garde(length(max = 6), dive)]
    pub founders: Option<Vec<FounderInput>>,
    #[garde(dive)]
    pub story: Option<StoryInput>,
    /// Replaces the milestones.
    #[garde(length(max = 50), dive)]
    pub milestones: Option<Vec<MilestoneInput>>,
    /// A competitor's website to read and compare; an empty string clears the comparison.
    #[garde(length(chars, max = 2048))]
    pub competitor_url: Option<String>,
    #[garde(dive)]
    pub seo: Option<SeoInput>,
}

impl crate::InputPart for UpdateDraftBody {}

fn fields_schema(_: &mut SchemaGenerator) -> Schema {
    let mut properties = Map::new();
    for name in FieldName::ALL {
        let schema = match name.kind() {
            FieldKind::Text(max) => serde_json::json!({"type": ["string", "null"], "maxLength": max}),
            FieldKind::List(max) => {
                serde_json::json!({"type": ["array", "null"], "maxItems": max, "items": {"type": "string", "maxLength": 200}})
            }
        };
        properties.insert(name.as_str().to_owned(), schema);
    }
    json_schema!({"type": "object", "properties": properties, "additionalProperties": false})
}

pub(crate) fn socials_schema(_: &mut SchemaGenerator) -> Schema {
    let properties: Map<String, Value> = kernel::SocialKey::ALL
        .iter()
        .map(|key| ((*key).to_owned(), serde_json::json!({"type": "string", "maxLength": 500, "format": "uri"})))
        .collect();
    json_schema!({"type": "object", "properties": properties, "additionalProperties": false})
}

/// Reads `fields`: known names, the right type, the bounds of each.
fn parse_fields(fields: &Map<String, Value>, errors: &mut Vec<FieldError>) -> Vec<(FieldName, Option<FieldValue>)> {
    let mut parsed = Vec::new();
    for (key, value) in fields {
        let at = format!("fields.{key}");
        let Some(name) = FieldName::parse(key) else {
            errors.push(FieldError::new(at, "is not a draft field"));
            continue;
        };
        let value = match (name.kind(), value) {
            (_, Value::Null) => None,
            (FieldKind::Text(max), Value::String(text)) => {
                if text.chars().count() > max {
                    errors.push(FieldError::new(at, format!("must be at most {max} characters")));
                    continue;
                }
                Some(FieldValue::Text(text.clone()))
            }
            (FieldKind::List(max), Value::Array(items)) => {
                if items.len() > max {
                    errors.push(FieldError::new(at, format!("must have at most {max} items")));
                    continue;
                }
                let mut list = Vec::new();
                for (i, item) in items.iter().enumerate() {
                    match item.as_str() {
                        Some(text) if text.chars().count() <= 200 => list.push(text.to_owned()),
                        Some(_) => errors.push(FieldError::new(format!("{at}[{i}]"), "must be at most 200 characters")),
                        None => errors.push(FieldError::new(format!("{at}[{i}]"), "must be a string")),
                    }
                }
                Some(FieldValue::List(list))
            }
            (FieldKind::Text(_), _) => {
                errors.push(FieldError::new(at, "must be a string or null"));
                continue;
            }
            (FieldKind::List(_), _) => {
                errors.push(FieldError::new(at, "must be an array of strings or null"));
                continue;
            }
        };
        parsed.push((name, value));
    }
    parsed
}

fn parse_names(at: &str, names: &Option<Vec<String>>, errors: &mut Vec<FieldError>) -> Vec<FieldName> {
    let mut parsed = Vec::new();
    for (i, name) in names.iter().flatten().enumerate() {
        match FieldName::parse(name) {
            Some(name) if !parsed.contains(&name) => parsed.push(name),
            Some(_) => errors.push(FieldError::new(format!("{at}[{i}]"), "names a field twice")),
            None => errors.push(FieldError::new(format!("{at}[{i}]"), "is not a draft field")),
        }
    }
    parsed
}

fn check_social_lengths(at: &str, socials: &Option<BTreeMap<String, String>>, errors: &mut Vec<FieldError>) {
    for (key, link) in socials.iter().flatten() {
        if link.chars().count() > 500 {
            errors.push(FieldError::new(format!("{at}.{key}"), "must be at most 500 characters"));
        }
    }
}

impl UpdateDraftBody {
    fn into_edit(self) -> Result<DraftEdit, OpError> {
        let mut errors = Vec::new();
        let fields = self.fields.as_ref().map(|fields| parse_fields(fields, &mut errors)).unwrap_or_default();
        let lock_fields = parse_names("lock_fields", &self.lock_fields, &mut errors);
        let regenerate = parse_names("regenerate", &self.regenerate, &mut errors);
        let restore = parse_names("restore", &self.restore, &mut errors);
        check_social_lengths("company_socials", &self.company_socials, &mut errors);
        check_social_lengths("founder_socials", &self.founder_socials, &mut errors);
        if !errors.is_empty() {
            return Err(OpError::Validation(errors));
        }
        Ok(DraftEdit {
            fields,
            lock_fields,
            regenerate,
            restore,
            faqs: self.faqs.map(|faqs| faqs.into_iter().map(|f| Faq { question: f.question, answer: f.answer }).collect()),
            company_socials: self.company_socials,
            founder_socials: self.founder_socials,
            founders: self
                .founders
                .map(|founders| founders.into_iter().map(|f| DraftFounder { name: f.name, title: f.title, bio: f.bio }).collect()),
            story: self.story.map(|s| kernel::Story {
                title: s.title,
                story: s.story,
                why_started: s.why_started,
                problem: s.problem,
                journey: s.journey,
                challenges: s.challenges,
                achievements: s.achievements,
                lessons: s.lessons,
                whats_next: s.whats_next,
            }),
            milestones: self.milestones.map(|milestones| {
                milestones
                    .into_iter()
                    .map(|m| DraftMilestone { date: m.date, title: m.title, description: m.description, url: m.url })
                    .collect()
            }),
            competitor_url: self.competitor_url,
            seo: self.seo.map(|s| DraftSeo { title: s.title, meta: s.meta }),
        })
    }
}

#[derive(Debug, Deserialize, JsonSchema, Validate)]
#[serde(deny_unknown_fields)]
pub struct InviteBody {
    /// The co-founder's e-mail address.
    #[schemars(with = "Email")]
    #[garde(length(chars, max = 254), custom(is_email))]
    pub email: String,
}

impl crate::InputPart for InviteBody {}

fn is_email(value: &str, _: &()) -> garde::Result {
    Email::parse(value).map(|_| ()).map_err(|err| garde::Error::new(err.0))
}

// ---------------------------------------------------------------------------------------------
// Operations

const WRITE: OperationSpec =
    OperationSpec { method: HttpMethod::Post, scope: Some(Scope::ListingsWrite), idempotent: true, tag: "drafts", ..OperationSpec::READ };

pub struct SubmitListing;

#[async_trait]
impl Operation for SubmitListing {
    type Path = NoInput;
    type Query = NoInput;
    type Body = SubmitListingBody;
    type Output = DraftView;

    const SPEC: OperationSpec = OperationSpec {
        id: "submit_listing",
        path: "/drafts",
        success_status: 201,
        summary: "Submit a website to draft a listing",
        description: "Starts a draft from the product's website. The service reads the site (respecting robots.txt) and drafts every profile field with quotes from the site as evidence; anything the site does not state is left blank. Poll get_draft every few seconds while the status is crawling or drafting. Nothing is published or charged.",
        ..WRITE
    };

    async fn run(&self, app: &App, caller: &Caller, input: Input<NoInput, NoInput, SubmitListingBody>) -> Result<DraftView, OpError> {
        let draft = app.drafts.submit(caller.user_id()?, &input.body.url).await?;
        Ok(DraftView::from(&draft))
    }
}

pub struct ListMyDrafts;

#[async_trait]
impl Operation for ListMyDrafts {
    type Path = NoInput;
    type Query = Pagination;
    type Body = NoInput;
    type Output = Paged<DraftSummary>;

    const SPEC: OperationSpec = OperationSpec {
        id: "list_my_drafts",
        path: "/drafts",
        scope: Some(Scope::AccountRead),
        summary: "Your drafts",
        description: "Your drafts, newest first, with status and completeness.",
        tag: "drafts",
        ..OperationSpec::READ
    };

    async fn run(&self, app: &App, caller: &Caller, input: Input<NoInput, Pagination, NoInput>) -> Result<Paged<DraftSummary>, OpError> {
        let page = app.drafts.list(caller.user_id()?, input.query.request()).await?;
        Ok(page.map(|draft| {
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
        }))
    }
}

pub struct GetDraft;

#[async_trait]
impl Operation for GetDraft {
    type Path = DraftPath;
    type Query = NoInput;
    type Body = NoInput;
    type Output = DraftView;

    const SPEC: OperationSpec = OperationSpec {
        id: "get_draft",
        path: "/drafts/{id}",
        scope: Some(Scope::AccountRead),
        summary: "A draft",
        description: "A draft with every field's value, state and evidence quoted from the website, its completeness and what is missing.",
        tag: "drafts",
        not_found: true,
        ..OperationSpec::READ
    };

    async fn run(&self, app: &App, caller: &Caller, input: Input<DraftPath, NoInput, NoInput>) -> Result<DraftView, OpError> {
        let draft = app.drafts.get(caller.user_id()?, input.path.id()?).await?;
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

    const SPEC: OperationSpec = OperationSpec {
        id: "update_draft",
        method: HttpMethod::Patch,
        path: "/drafts/{id}",
        summary: "Edit a draft",
        description: "Sets fields (state edited or manual; null removes: deleted), locks fields against redrafts (override), restores the AI's values, redrafts fields from the website in the background (regenerate, at most 5), and replaces FAQs, socials, founders, story, milestones and SEO. competitor_url reads a competitor's site and compares. Once submitted, the listing is updated too.",
        not_found: true,
        ..WRITE
    };

    async fn run(&self, app: &App, caller: &Caller, input: Input<DraftPath, NoInput, UpdateDraftBody>) -> Result<DraftView, OpError> {
        let id = input.path.id()?;
        let edit = input.body.into_edit()?;
        let draft = app.drafts.update(caller.user_id()?, id, edit).await?;
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

    const SPEC: OperationSpec = OperationSpec {
        id: "invite_cofounder",
        path: "/drafts/{id}/invites",
        success_status: 201,
        summary: "Invite a co-founder",
        description: "E-mails an invitation to add their own founder profile. At most 10 per draft; an address is invited once.",
        not_found: true,
        ..WRITE
    };

    async fn run(&self, app: &App, caller: &Caller, input: Input<DraftPath, NoInput, InviteBody>) -> Result<InvitationView, OpError> {
        let id = input.path.id()?;
        let email = Email::parse(&input.body.email).map_err(|err| OpError::field("email", err.0))?;
        let principal = caller.signed_in()?;
        let inviter = if principal.user.display_name.trim().is_empty() {
            principal.user.email.to_string()
        } else {
            principal.user.display_name.clone()
        };
        let invitation = app.drafts.invite(principal.user.id, id, email, &inviter).await?;
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

    const SPEC: OperationSpec = OperationSpec {
        id: "submit_draft",
        path: "/drafts/{id}/submit",
        summary: "Save a draft as a listing",
        description: "Saves the draft as a listing in status draft (not published, nothing charged) and returns listing_id. Running it again after edits updates the same listing. A listing needs a name and a category.",
        not_found: true,
        ..WRITE
    };

    async fn run(&self, app: &App, caller: &Caller, input: Input<DraftPath, NoInput, NoInput>) -> Result<SubmittedView, OpError> {
        let (draft, listing) = app.drafts.submit_draft(caller.user_id()?, input.path.id()?).await?;
        Ok(SubmittedView { listing_id: listing.get(), listing_status: "draft", draft: DraftView::from(&draft) })
    }
}
