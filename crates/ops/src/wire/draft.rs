//! A draft as every draft operation returns it, and the `{id}` that names one.

use super::dates::rfc3339;
use crate::wire::SchemaOf;
use crate::{InputPart, OpError};
use drafts::{Draft, DraftFounder, DraftId, DraftMilestone, DraftSeo, FieldName, FieldValue, Section};
use garde::Validate;
use kernel::Faq;
use schemars::{JsonSchema, Schema, SchemaGenerator, json_schema};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// `{id}`: a draft's UUID.
#[derive(Debug, Deserialize, JsonSchema, Validate)]
#[serde(deny_unknown_fields)]
pub struct DraftPath {
    /// The draft's id (UUID).
    #[schemars(schema_with = "uuid_schema")]
    #[garde(custom(is_uuid))]
    pub id: String,
}

impl InputPart for DraftPath {}

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
    pub fn id(&self) -> Result<DraftId, OpError> {
        self.id.to_ascii_lowercase().parse().map(DraftId).map_err(|_| OpError::field("id", "must be a draft id (a UUID)"))
    }
}

/// One profile field of a draft.
#[derive(Debug, Serialize, JsonSchema)]
pub struct FieldView {
    /// A string, a list of strings, or null when empty.
    #[schemars(with = "Option<SchemaOf<FieldValue>>")]
    pub value: Option<FieldValue>,
    /// `ai`, `not_found`, `edited`, `manual`, `override` or `deleted`.
    #[schemars(with = "SchemaOf<drafts::FieldState>")]
    pub state: drafts::FieldState,
    /// Quotes from the website behind the value (empty for the caller's own values).
    #[schemars(with = "Vec<SchemaOf<drafts::Evidence>>")]
    pub evidence: Vec<drafts::Evidence>,
}

/// A section besides the profile fields, with its state and evidence.
#[derive(Debug, Serialize, JsonSchema)]
pub struct SectionView<T> {
    pub value: T,
    #[schemars(with = "SchemaOf<drafts::FieldState>")]
    pub state: drafts::FieldState,
    #[schemars(with = "Vec<SchemaOf<drafts::Evidence>>")]
    pub evidence: Vec<drafts::Evidence>,
}

fn section<T: Clone>(section: &Section<T>) -> SectionView<T> {
    SectionView { value: section.value.clone(), state: section.state, evidence: section.evidence.clone() }
}

/// A draft: every profile field with its state and evidence, and how complete it is.
#[derive(Debug, Serialize, JsonSchema)]
pub struct DraftView {
    /// UUID.
    pub id: String,
    /// `crawling`, `drafting`, `ready`, `failed` or `submitted`. Poll while `crawling` or `drafting`.
    #[schemars(with = "SchemaOf<drafts::DraftStatus>")]
    pub status: drafts::DraftStatus,
    /// Why the site could not be read, when `failed`.
    #[schemars(with = "Option<SchemaOf<drafts::FailureReason>>")]
    pub failure_reason: Option<drafts::FailureReason>,
    /// The reason in words.
    pub failure_message: Option<&'static str>,
    /// The website, normalised.
    pub url: String,
    /// The 18 profile fields.
    pub fields: BTreeMap<String, FieldView>,
    #[schemars(with = "SectionView<Vec<SchemaOf<Faq>>>")]
    pub faqs: SectionView<Vec<Faq>>,
    #[schemars(with = "SectionView<Vec<SchemaOf<DraftFounder>>>")]
    pub founders: SectionView<Vec<DraftFounder>>,
    pub company_socials: SectionView<BTreeMap<String, String>>,
    pub founder_socials: SectionView<BTreeMap<String, String>>,
    #[schemars(with = "SectionView<SchemaOf<kernel::Story>>")]
    pub story: SectionView<kernel::Story>,
    #[schemars(with = "SectionView<Vec<SchemaOf<DraftMilestone>>>")]
    pub milestones: SectionView<Vec<DraftMilestone>>,
    #[schemars(with = "SectionView<SchemaOf<DraftSeo>>")]
    pub seo: SectionView<DraftSeo>,
    /// A competitor's site side by side with this draft, when `competitor_url` was set.
    #[schemars(with = "Option<SchemaOf<drafts::Competitor>>")]
    pub competitor: Option<drafts::Competitor>,
    /// Fields being redrafted now (`regenerate`).
    #[schemars(with = "Vec<SchemaOf<FieldName>>")]
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
    /// Pages read as a browser shows them (in headless Chromium), because they show their
    /// content only with JavaScript.
    pub pages_rendered: Vec<String>,
    /// Why the draft may be thin, when it is: the site needs JavaScript that was not run.
    pub reading_note: Option<&'static str>,
    /// The logo and screenshots found on the site (each kept by us, with the page it came from
    /// as `evidence`) and the maker's uploads, in order. `kept` ones go to the listing.
    pub pictures: Vec<PictureView>,
    /// The site's pictures are still being fetched (a few seconds after the draft is ready).
    pub looking_for_pictures: bool,
    /// The listing `submit_draft` made, once submitted.
    pub listing_id: Option<i64>,
    pub invites_sent: u32,
    /// RFC 3339.
    pub created_at: String,
    pub updated_at: String,
}

/// A picture of a draft.
#[derive(Debug, Serialize, JsonSchema)]
pub struct PictureView {
    /// The reference `update_draft`'s `pictures` take.
    pub image: String,
    /// The kept original, on this site from its root (`/media/<sha256>-full.<ext>`).
    pub url: String,
    pub width: u32,
    pub height: u32,
    #[schemars(with = "SchemaOf<drafts::PictureRole>")]
    pub role: drafts::PictureRole,
    /// What it shows, for people who cannot see it.
    pub alt: String,
    /// Whether the listing gets it.
    pub kept: bool,
    /// The page that shows it and how (`og:image`, its alt text); null for an upload.
    #[schemars(with = "Option<SchemaOf<drafts::Evidence>>")]
    pub evidence: Option<drafts::Evidence>,
    /// The address it was fetched from; null for an upload.
    pub source: Option<String>,
}

impl PictureView {
    fn of(picture: &drafts::DraftPicture) -> Self {
        Self {
            image: picture.image.to_string(),
            url: picture.image.path(kernel::ImageSize::Original),
            width: picture.image.width(),
            height: picture.image.height(),
            role: picture.role,
            alt: picture.alt.clone(),
            kept: picture.kept,
            evidence: picture.evidence.clone(),
            source: picture.source.clone(),
        }
    }
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
            pages_rendered: draft.pages_rendered.clone(),
            reading_note: (!draft.pages_needing_javascript.is_empty()).then_some(drafts::NEEDS_JAVASCRIPT_NOTE),
            pictures: draft.pictures.iter().map(PictureView::of).collect(),
            looking_for_pictures: draft.looking_for_pictures,
            listing_id: draft.listing_id.map(kernel::ListingId::get),
            invites_sent: draft.invites,
            created_at: rfc3339(draft.created_at),
            updated_at: rfc3339(draft.updated_at),
        }
    }
}
