//! The draft: a profile written from a product's website, each value with its state and the
//! quotes that support it.

pub use crate::field_name::{FieldKind, FieldName};
use kernel::{Faq, ListingId, UserId};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use time::OffsetDateTime;

/// A draft's id: a random UUID, so ids cannot be guessed or counted.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(transparent)]
pub struct DraftId(pub uuid::Uuid);

impl DraftId {
    pub fn random() -> Self {
        Self(uuid::Uuid::new_v4())
    }
}

impl std::str::FromStr for DraftId {
    type Err = uuid::Error;

    fn from_str(text: &str) -> Result<Self, Self::Err> {
        uuid::Uuid::parse_str(text).map(Self)
    }
}

impl std::fmt::Display for DraftId {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        self.0.fmt(f)
    }
}

/// Where a draft stands.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum DraftStatus {
    /// Reading the website.
    Crawling,
    /// Writing the profile from what was read.
    Drafting,
    /// Ready to edit and submit.
    Ready,
    /// The site could not be read; `failure_reason` says why.
    Failed,
    /// Submitted as a listing; edits still flow to it.
    Submitted,
}

impl DraftStatus {
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Crawling => "crawling",
            Self::Drafting => "drafting",
            Self::Ready => "ready",
            Self::Failed => "failed",
            Self::Submitted => "submitted",
        }
    }

    pub fn parse(value: &str) -> Option<Self> {
        Some(match value {
            "crawling" => Self::Crawling,
            "drafting" => Self::Drafting,
            "ready" => Self::Ready,
            "failed" => Self::Failed,
            "submitted" => Self::Submitted,
            _ => return None,
        })
    }
}

/// Why a site could not be read.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum FailureReason {
    /// robots.txt does not let our bot read the homepage.
    RobotsDisallowed,
    /// The site did not answer, or answered with an error.
    Unreachable,
    /// The homepage is not an HTML page.
    NotHtml,
    /// The address (or one it redirects to) is private or reserved.
    BlockedAddress,
    /// The homepage is larger than we read.
    TooLarge,
    /// Reading or drafting failed on our side, several times.
    Internal,
}

/// What a draft of a site whose pages need JavaScript says when they were read without it.
pub const NEEDS_JAVASCRIPT_NOTE: &str = "The site shows its content only with JavaScript, and it could not be run for this draft \
(this server renders such pages in Chromium when Chromium is installed and crawler.render_javascript is on; otherwise, or when \
rendering failed or ran out of time, the pages are read as served), so little or nothing could be drafted from those pages. Fill the \
fields yourself, or try again later.";

impl FailureReason {
    /// What a person is told.
    pub fn message(self) -> &'static str {
        match self {
            Self::RobotsDisallowed => "The site's robots.txt does not allow our bot to read the homepage, so nothing was drafted.",
            Self::Unreachable => "The site could not be reached or answered with an error. Check the address and try again.",
            Self::NotHtml => "The address does not lead to a web page (HTML). Give the address of the product's website.",
            Self::BlockedAddress => "The address leads to a private or reserved network address, which we never read.",
            Self::TooLarge => "The homepage is larger than 2 MiB, more than we read.",
            Self::Internal => "Drafting failed on our side. Try submitting the address again later.",
        }
    }
}

/// The state of a value.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum FieldState {
    /// Drafted from the website, with evidence.
    Ai,
    /// The website does not state it; left blank on purpose.
    NotFound,
    /// The caller changed a drafted value.
    Edited,
    /// The caller filled a value the website did not state.
    Manual,
    /// Locked by the caller against AI redrafts.
    Override,
    /// Removed by the caller.
    Deleted,
}

/// A quote from a fetched page.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Evidence {
    /// The page the quote is from.
    pub url: String,
    /// Verbatim text of that page (whitespace folded).
    pub quote: String,
    /// What kind of evidence the quote is; the grounding check verifies it on the page.
    #[serde(default)]
    pub basis: Basis,
}

impl Evidence {
    pub fn new(url: impl Into<String>, quote: impl Into<String>, basis: Basis) -> Self {
        Self { url: url.into(), quote: quote.into(), basis }
    }
}

/// What kind of evidence a quote is. Founders, pricing and the founding year accept only some
/// kinds (`crate::meaning`); the grounding check refuses a claim the page does not bear out.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Basis {
    /// A value of the page's schema.org JSON-LD (`Organization.founder`, `Offer`, `foundingDate`, ...).
    StructuredData,
    /// Text under a heading, or on a page, named for what the value is (a pricing page, a team
    /// section, a features list).
    LabelledSection,
    /// A sentence that names the product.
    NamesProduct,
    /// The page's title, meta tags, OpenGraph or a link, image or frame address.
    Metadata,
    /// Other visible text of the page.
    #[default]
    PageText,
}

impl Basis {
    pub const ALL: [Basis; 5] = [Self::StructuredData, Self::LabelledSection, Self::NamesProduct, Self::Metadata, Self::PageText];

    pub fn as_str(self) -> &'static str {
        match self {
            Self::StructuredData => "structured_data",
            Self::LabelledSection => "labelled_section",
            Self::NamesProduct => "names_product",
            Self::Metadata => "metadata",
            Self::PageText => "page_text",
        }
    }

    pub fn parse(text: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|basis| basis.as_str() == text)
    }

    /// Where the quote is from, as a person is told.
    pub fn describe(self) -> &'static str {
        match self {
            Self::StructuredData => "from the page's structured data",
            Self::LabelledSection => "from a section about it",
            Self::NamesProduct => "from a sentence naming the product",
            Self::Metadata => "from the page's title, tags or links",
            Self::PageText => "from the page's text",
        }
    }
}

/// A field's value: text, or a list of strings.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(untagged)]
pub enum FieldValue {
    Text(String),
    List(Vec<String>),
}

impl FieldValue {
    pub fn is_empty(&self) -> bool {
        match self {
            Self::Text(text) => text.trim().is_empty(),
            Self::List(items) => items.is_empty(),
        }
    }

    pub fn as_text(&self) -> Option<&str> {
        match self {
            Self::Text(text) => Some(text),
            Self::List(_) => None,
        }
    }

    pub fn as_list(&self) -> &[String] {
        match self {
            Self::Text(_) => &[],
            Self::List(items) => items,
        }
    }
}

/// A value a drafter proposed, with its evidence.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Proposed<T> {
    pub value: T,
    pub evidence: Vec<Evidence>,
}

/// One profile field of a draft.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct DraftField {
    pub value: Option<FieldValue>,
    pub state: FieldState,
    /// The quotes behind the current value (empty for the caller's own values).
    pub evidence: Vec<Evidence>,
    /// What the AI drafted last, kept so `restore` can put it back.
    pub ai: Option<Proposed<FieldValue>>,
    /// Locked against AI redrafts (`lock_fields`); shown as state `override`.
    pub locked: bool,
}

impl DraftField {
    pub fn not_found() -> Self {
        Self { value: None, state: FieldState::NotFound, evidence: Vec::new(), ai: None, locked: false }
    }

    /// The state callers see: `override` while locked.
    pub fn shown_state(&self) -> FieldState {
        if self.locked { FieldState::Override } else { self.state }
    }

    /// Takes the AI's draft (or its absence) for this field.
    pub fn take_ai(&mut self, proposed: Option<Proposed<FieldValue>>) {
        match proposed {
            Some(proposed) => {
                self.value = Some(proposed.value.clone());
                self.evidence = proposed.evidence.clone();
                self.state = FieldState::Ai;
                self.ai = Some(proposed);
            }
            None => {
                self.value = None;
                self.evidence = Vec::new();
                self.state = FieldState::NotFound;
                self.ai = None;
            }
        }
    }

    /// The caller sets (or, with `None`, removes) the value.
    pub fn set_by_caller(&mut self, value: Option<FieldValue>) {
        self.evidence = Vec::new();
        match value {
            Some(value) => {
                self.state = if self.ai.is_some() { FieldState::Edited } else { FieldState::Manual };
                self.value = Some(value);
            }
            None => {
                self.state = FieldState::Deleted;
                self.value = None;
            }
        }
    }

    /// Puts the AI's value back.
    pub fn restore(&mut self) {
        let ai = self.ai.clone();
        self.take_ai(ai);
    }
}

/// A founder as a draft holds one.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct DraftFounder {
    pub name: String,
    /// The role.
    pub title: Option<String>,
    pub bio: Option<String>,
}

/// A milestone as a draft holds one.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct DraftMilestone {
    /// `YYYY-MM-DD`.
    pub date: String,
    pub title: String,
    pub description: Option<String>,
    pub url: Option<String>,
}

/// The SEO title and meta description.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct DraftSeo {
    pub title: Option<String>,
    pub meta: Option<String>,
}

/// Platform key to link (keys from `kernel::SocialKey`).
pub type Socials = BTreeMap<String, String>;

/// A section besides the 18 fields (FAQs, founders, socials, story, milestones, SEO).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Section<T> {
    pub value: T,
    pub state: FieldState,
    pub evidence: Vec<Evidence>,
}

impl<T: Default> Section<T> {
    pub fn empty() -> Self {
        Self { value: T::default(), state: FieldState::NotFound, evidence: Vec::new() }
    }
}

impl<T> Section<T> {
    /// Replaced by the caller.
    pub fn set_by_caller(&mut self, value: T) {
        self.state = if self.state == FieldState::Ai || self.state == FieldState::Edited { FieldState::Edited } else { FieldState::Manual };
        self.value = value;
        self.evidence = Vec::new();
    }
}

/// A competitor's site, read and set beside this draft.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Competitor {
    pub url: kernel::WebUrl,
    /// `pending` while it is read, then `ready` or `failed`.
    pub status: String,
    pub failure_reason: Option<FailureReason>,
    /// Rows of facts side by side: `{field, ours, theirs}`; a null side was not stated.
    pub comparison: Vec<ComparisonRow>,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ComparisonRow {
    pub field: String,
    pub ours: Option<String>,
    pub theirs: Option<String>,
    /// Quotes from the competitor's site for `theirs`.
    pub evidence: Vec<Evidence>,
}

/// A draft.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Draft {
    pub id: DraftId,
    pub owner: UserId,
    /// The website, normalised.
    pub url: kernel::WebUrl,
    pub status: DraftStatus,
    pub failure_reason: Option<FailureReason>,
    pub fields: BTreeMap<FieldName, DraftField>,
    pub faqs: Section<Vec<Faq>>,
    pub founders: Section<Vec<DraftFounder>>,
    pub company_socials: Section<Socials>,
    pub founder_socials: Section<Socials>,
    pub story: Section<kernel::Story>,
    pub milestones: Section<Vec<DraftMilestone>>,
    pub seo: Section<DraftSeo>,
    pub competitor: Option<Competitor>,
    /// Fields an AI redraft is working on now.
    pub regenerating: Vec<FieldName>,
    /// The pages read (robots.txt allowing), in the order read.
    pub pages_read: Vec<String>,
    /// Pages robots.txt kept us from reading.
    pub pages_skipped: Vec<String>,
    /// Pages read as a browser shows them, after their scripts ran.
    #[serde(default)]
    pub pages_rendered: Vec<String>,
    /// Pages that show their content only with JavaScript, read without it.
    #[serde(default)]
    pub pages_needing_javascript: Vec<String>,
    /// The logo and screenshots found on the site (kept by us), and the maker's uploads.
    #[serde(default)]
    pub pictures: Vec<crate::DraftPicture>,
    /// The site's pictures are being fetched and kept (a job after the draft is ready).
    #[serde(default)]
    pub looking_for_pictures: bool,
    /// The listing made by `submit_draft`.
    pub listing_id: Option<ListingId>,
    /// Co-founder invitations sent.
    pub invites: u32,
    pub created_at: OffsetDateTime,
    pub updated_at: OffsetDateTime,
}

/// How complete a draft is.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Completeness {
    /// 0 to 100.
    pub percent: u8,
    /// Names of what is still empty.
    pub missing: Vec<&'static str>,
}

impl Draft {
    /// A new draft for `url`, about to be read.
    pub fn new(owner: UserId, url: kernel::WebUrl, now: OffsetDateTime) -> Self {
        Self {
            id: DraftId::random(),
            owner,
            url,
            status: DraftStatus::Crawling,
            failure_reason: None,
            fields: FieldName::ALL.into_iter().map(|name| (name, DraftField::not_found())).collect(),
            faqs: Section::empty(),
            founders: Section::empty(),
            company_socials: Section::empty(),
            founder_socials: Section::empty(),
            story: Section::empty(),
            milestones: Section::empty(),
            seo: Section::empty(),
            competitor: None,
            regenerating: Vec::new(),
            pages_read: Vec::new(),
            pages_skipped: Vec::new(),
            pages_rendered: Vec::new(),
            pages_needing_javascript: Vec::new(),
            pictures: Vec::new(),
            looking_for_pictures: false,
            listing_id: None,
            invites: 0,
            created_at: now,
            updated_at: now,
        }
    }

    pub fn field(&self, name: FieldName) -> &DraftField {
        // Every draft holds all 18 fields; `new` and deserialisation guarantee it.
        self.fields.get(&name).unwrap_or(&NOT_FOUND)
    }

    pub fn field_mut(&mut self, name: FieldName) -> &mut DraftField {
        self.fields.entry(name).or_insert_with(DraftField::not_found)
    }

    pub fn text(&self, name: FieldName) -> Option<&str> {
        self.field(name).value.as_ref().and_then(FieldValue::as_text).filter(|text| !text.trim().is_empty())
    }

    pub fn list(&self, name: FieldName) -> &[String] {
        self.field(name).value.as_ref().map_or(&[], FieldValue::as_list)
    }

    /// Fields the website did not state, as drafted (those the caller filled since are left out).
    pub fn not_found_on_website(&self) -> Vec<&'static str> {
        self.fields.iter().filter(|(_, field)| field.state == FieldState::NotFound).map(|(name, _)| name.as_str()).collect()
    }

    /// The share of the profile filled: the 18 fields plus FAQs, founders and company socials.
    pub fn completeness(&self) -> Completeness {
        let mut missing: Vec<&'static str> = self
            .fields
            .iter()
            .filter(|(_, field)| field.value.as_ref().is_none_or(FieldValue::is_empty))
            .map(|(name, _)| name.as_str())
            .collect();
        if self.faqs.value.is_empty() {
            missing.push("faqs");
        }
        if self.founders.value.is_empty() {
            missing.push("founders");
        }
        if self.company_socials.value.is_empty() {
            missing.push("company_socials");
        }
        let total = FieldName::ALL.len() + 3;
        let filled = total - missing.len();
        Completeness { percent: u8::try_from(filled * 100 / total).unwrap_or(100), missing }
    }
}

static NOT_FOUND: DraftField = DraftField { value: None, state: FieldState::NotFound, evidence: Vec::new(), ai: None, locked: false };

#[cfg(test)]
mod tests;
