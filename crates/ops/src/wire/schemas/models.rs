//! The shapes of the domains' read models that operations serve as they are (a listing card, a
//! category, a quote of evidence, a draft's sections): the fields a caller receives, described
//! for the caller. Schema only: the domain value is serialised by serde, and the tests check that
//! each shape names exactly the keys its value is written with.

#![allow(dead_code)] // the structs below are never built; schemars reads their fields

use super::SchemaOf;
use kernel::{Slug, WebUrl, Week};
use schemars::JsonSchema;
use std::borrow::Cow;

/// `SchemaOf<Domain::Type>` is the shape declared here under the same name.
macro_rules! shape_of {
    ($($domain:path => $shape:ident),+ $(,)?) => {$(
        impl JsonSchema for SchemaOf<$domain> {
            fn schema_name() -> Cow<'static, str> {
                $shape::schema_name()
            }

            fn schema_id() -> Cow<'static, str> {
                $shape::schema_id()
            }

            fn inline_schema() -> bool {
                $shape::inline_schema()
            }

            fn json_schema(generator: &mut schemars::SchemaGenerator) -> schemars::Schema {
                $shape::json_schema(generator)
            }
        }
    )+};
}

shape_of! {
    listings::ListingSummary => ListingSummary,
    listings::CategoryNode => CategoryNode,
    listings::CategoryRef => CategoryRef,
    listings::SiteCounts => SiteCounts,
    listings::CompanyRef => CompanyRef,
    listings::Link => Link,
    kernel::Faq => Faq,
    kernel::Story => Story,
    content::InterviewQuestion => InterviewQuestion,
    drafts::Evidence => Evidence,
    drafts::FieldValue => FieldValue,
    drafts::DraftFounder => DraftFounder,
    drafts::DraftMilestone => DraftMilestone,
    drafts::DraftSeo => DraftSeo,
    drafts::Competitor => Competitor,
    drafts::ComparisonRow => ComparisonRow,
}

/// A listing as it appears in lists and feeds.
#[derive(JsonSchema)]
pub(super) struct ListingSummary {
    #[schemars(with = "SchemaOf<Slug>")]
    slug: Slug,
    name: String,
    /// The product's own website.
    url: String,
    tagline: Option<String>,
    /// The logo we keep: its address on this site, from the root (`/media/<sha256>-full.<ext>`;
    /// scaled copies replace `full` with 64, 128 or 256 where the logo is wider); null without one.
    logo_url: Option<String>,
    /// Community votes received, all time.
    votes: u64,
    #[schemars(with = "Option<SchemaOf<Slug>>")]
    primary_category: Option<Slug>,
    #[schemars(with = "Option<SchemaOf<Week>>")]
    launch_week: Option<Week>,
    #[schemars(with = "SchemaOf<listings::ListingStatus>")]
    status: listings::ListingStatus,
}

/// A category in the tree, with the number of live listings in it or its subcategories.
#[derive(JsonSchema)]
pub(super) struct CategoryNode {
    #[schemars(with = "SchemaOf<Slug>")]
    slug: Slug,
    name: String,
    description: String,
    live_listings: u64,
    subcategories: Vec<CategoryNode>,
}

/// A short reference to a category.
#[derive(JsonSchema)]
pub(super) struct CategoryRef {
    #[schemars(with = "SchemaOf<Slug>")]
    slug: Slug,
    name: String,
    live_listings: u64,
}

/// Counts shown on the site's front page.
#[derive(JsonSchema)]
pub(super) struct SiteCounts {
    live_listings: u64,
    categories: u64,
}

/// A listing named from a founder's side.
#[derive(JsonSchema)]
pub(super) struct CompanyRef {
    #[schemars(with = "SchemaOf<Slug>")]
    slug: Slug,
    name: String,
}

/// A labelled link.
#[derive(JsonSchema)]
pub(super) struct Link {
    label: String,
    url: String,
}

/// A question and its answer.
#[derive(JsonSchema)]
pub(super) struct Faq {
    question: String,
    answer: String,
}

/// A founder story: a title and eight sections, every one optional.
#[derive(JsonSchema)]
#[serde(deny_unknown_fields)]
pub(super) struct Story {
    title: Option<String>,
    story: Option<String>,
    why_started: Option<String>,
    problem: Option<String>,
    journey: Option<String>,
    challenges: Option<String>,
    achievements: Option<String>,
    lessons: Option<String>,
    whats_next: Option<String>,
}

/// A question founders can answer on their profile.
#[derive(JsonSchema)]
pub(super) struct InterviewQuestion {
    /// The id an answer refers to (`question_id`).
    id: i64,
    position: i32,
    question: String,
    /// A hint shown under the question.
    hint: Option<String>,
}

/// A quote from a fetched page.
#[derive(JsonSchema)]
pub(super) struct Evidence {
    /// The page the quote is from.
    url: String,
    /// Verbatim text of that page (whitespace folded).
    quote: String,
    /// What kind of evidence the quote is; the grounding check verifies it on the page.
    #[serde(default)]
    #[schemars(with = "SchemaOf<drafts::Basis>")]
    basis: drafts::Basis,
}

/// A field's value: text, or a list of strings.
#[derive(JsonSchema)]
#[serde(untagged)]
pub(super) enum FieldValue {
    Text(String),
    List(Vec<String>),
}

/// A founder as a draft holds one.
#[derive(JsonSchema)]
pub(super) struct DraftFounder {
    name: String,
    /// The role.
    title: Option<String>,
    bio: Option<String>,
}

/// A milestone as a draft holds one.
#[derive(JsonSchema)]
pub(super) struct DraftMilestone {
    /// `YYYY-MM-DD`.
    date: String,
    title: String,
    description: Option<String>,
    url: Option<String>,
}

/// The SEO title and meta description.
#[derive(JsonSchema)]
pub(super) struct DraftSeo {
    title: Option<String>,
    meta: Option<String>,
}

/// A competitor's site, read and set beside this draft.
#[derive(JsonSchema)]
pub(super) struct Competitor {
    #[schemars(with = "SchemaOf<WebUrl>")]
    url: WebUrl,
    /// `pending` while it is read, then `ready` or `failed`.
    status: String,
    #[schemars(with = "Option<SchemaOf<drafts::FailureReason>>")]
    failure_reason: Option<drafts::FailureReason>,
    /// Rows of facts side by side: `{field, ours, theirs}`; a null side was not stated.
    comparison: Vec<ComparisonRow>,
}

#[derive(JsonSchema)]
pub(super) struct ComparisonRow {
    field: String,
    ours: Option<String>,
    theirs: Option<String>,
    /// Quotes from the competitor's site for `theirs`.
    evidence: Vec<Evidence>,
}
