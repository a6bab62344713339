//! Profile sections an owner writes and the public reads: FAQs, milestones, the founder story
//! and socials. The draft and the owned listing take the same inputs; `get_listing` and
//! `get_founder` show the same views.

use super::dates::{NOT_A_DATE, date_schema, is_date, parse_date};
use crate::{InputPart, OpError};
use garde::Validate;
use kernel::Faq;
use listings::StorySections;
use schemars::{JsonSchema, Schema, SchemaGenerator, json_schema};
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

/// A question and its answer.
#[derive(Debug, Clone, Deserialize, JsonSchema, Validate)]
#[serde(deny_unknown_fields)]
pub struct FaqInput {
    #[garde(length(chars, min = 1, max = 300))]
    pub question: String,
    #[garde(length(chars, min = 1, max = 1500))]
    pub answer: String,
}

impl From<FaqInput> for Faq {
    fn from(faq: FaqInput) -> Self {
        Faq { question: faq.question, answer: faq.answer }
    }
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

impl InputPart for MilestoneInput {}

impl MilestoneInput {
    /// The milestone of an owned listing, its date read.
    pub fn to_milestone(&self) -> Result<listings::Milestone, OpError> {
        let date = parse_date(&self.date).ok_or_else(|| OpError::field("date", NOT_A_DATE))?;
        Ok(listings::Milestone { date, title: self.title.clone(), description: self.description.clone(), url: self.url.clone() })
    }
}

fn is_https_option(value: &Option<String>, _: &()) -> garde::Result {
    match value {
        Some(link) if !link.starts_with("https://") || drafts::normalise_url(link).is_err() => {
            Err(garde::Error::new("must be an https:// link"))
        }
        _ => Ok(()),
    }
}

/// Declares a founder story input: an optional title of at most `title_max` characters and the
/// eight sections of `StorySections`, each at most 8000. A draft's story and an owned listing's
/// bound the title differently, so one list of fields declares both.
macro_rules! story_input {
    ($(#[$attr:meta])* $name:ident, title_max = $title_max:tt) => {
        $(#[$attr])*
        #[derive(Debug, Clone, Deserialize, JsonSchema, Validate)]
        #[serde(deny_unknown_fields)]
        pub struct $name {
            #[garde(length(chars, max = $title_max))]
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

        impl $name {
            /// The title, and the sections.
            pub fn into_parts(self) -> (Option<String>, StorySections) {
                let sections = StorySections {
                    story: self.story,
                    why_started: self.why_started,
                    problem: self.problem,
                    journey: self.journey,
                    challenges: self.challenges,
                    achievements: self.achievements,
                    lessons: self.lessons,
                    whats_next: self.whats_next,
                };
                (self.title, sections)
            }
        }
    };
}

story_input! {
    /// The founder story (draft): nine sections, each at most 8000 characters.
    StoryInput, title_max = 8000
}

story_input! {
    /// The founder story of an owned listing: nine sections, all optional.
    OwnedStoryInput, title_max = 200
}

impl InputPart for OwnedStoryInput {}

// A founder story as the public reads it. No doc comment on purpose: it would become the
// schema's description, where the document shows the description of `StorySections`.
#[derive(Debug, Serialize, JsonSchema)]
pub struct StoryView {
    pub title: Option<String>,
    #[serde(flatten)]
    pub sections: StorySections,
}

// A milestone as the public reads it. No doc comment on purpose: the document shows this schema
// without a description.
#[derive(Debug, Serialize, JsonSchema)]
pub struct MilestoneView {
    /// YYYY-MM-DD.
    pub date: String,
    pub title: String,
    pub description: Option<String>,
    pub url: Option<String>,
}

/// Platform key to https link: the schema of the socials a draft or an owned listing sets.
pub(crate) fn socials_schema(_: &mut SchemaGenerator) -> Schema {
    let properties: Map<String, Value> = kernel::SocialKey::ALL
        .iter()
        .map(|key| ((*key).to_owned(), serde_json::json!({"type": "string", "maxLength": 500, "format": "uri"})))
        .collect();
    json_schema!({"type": "object", "properties": properties, "additionalProperties": false})
}
