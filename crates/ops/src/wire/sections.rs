//! Profile sections an owner writes and the public reads: FAQs, milestones, the founder story
//! and socials. The draft and the owned listing take the same inputs; `get_listing` and
//! `get_founder` show the same views.

use super::dates::{NOT_A_DATE, date_schema, is_date, parse_date};
use crate::wire::SchemaOf;
use crate::{InputPart, OpError};
use garde::Validate;
use kernel::Faq;
use kernel::{Story, StoryBounds};
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
    #[schemars(extend("pattern" = kernel::HTTPS_LINK_PATTERN))]
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
        Some(link) => kernel::check_https_link(link).map_err(garde::Error::new),
        None => Ok(()),
    }
}

/// Declares a founder story input: `kernel::Story` (the nine keys, declared once) on the wire,
/// checked with `Story::check` under one of the spec's two tables. Its schema is the story's
/// with each key's `maxLength`.
macro_rules! story_input {
    ($(#[doc = $doc:literal])* $name:ident, $bounds:expr) => {
        $(#[doc = $doc])*
        #[derive(Debug, Clone, Deserialize)]
        #[serde(transparent)]
        pub struct $name(pub Story);

        impl Validate for $name {
            type Context = ();

            fn validate_into(&self, _: &(), parent: &mut dyn FnMut() -> garde::Path, report: &mut garde::Report) {
                for (key, message) in self.0.violations($bounds) {
                    report.append(parent().join(key), garde::Error::new(message));
                }
            }
        }

        impl JsonSchema for $name {
            fn schema_name() -> std::borrow::Cow<'static, str> {
                stringify!($name).into()
            }

            fn json_schema(generator: &mut SchemaGenerator) -> Schema {
                story_schema(generator, $bounds, concat!($($doc),*).trim())
            }
        }
    };
}

/// The story's schema with the bounds of `bounds` and its own description.
fn story_schema(generator: &mut SchemaGenerator, bounds: StoryBounds, description: &str) -> Schema {
    let mut schema = SchemaOf::<Story>::json_schema(generator);
    if let Some(properties) = schema.get_mut("properties").and_then(Value::as_object_mut) {
        for (key, property) in properties.iter_mut() {
            if let Some(property) = property.as_object_mut() {
                property.insert("maxLength".into(), Story::max_chars(key, bounds).into());
            }
        }
    }
    schema.insert("description".into(), description.into());
    schema
}

story_input! {
    /// The founder story (draft): nine sections, each at most 8000 characters.
    StoryInput, StoryBounds::Draft
}

story_input! {
    /// The founder story of an owned listing: nine sections, all optional.
    OwnedStoryInput, StoryBounds::OwnedListing
}

impl InputPart for OwnedStoryInput {}

/// A founder story as the public reads it.
#[derive(Debug, Serialize, JsonSchema)]
pub struct StoryView {
    #[serde(flatten)]
    #[schemars(with = "SchemaOf<Story>")]
    pub story: Story,
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
        .map(|key| ((*key).to_owned(), serde_json::json!({"type": "string", "maxLength": 500, "pattern": kernel::HTTPS_LINK_PATTERN})))
        .collect();
    json_schema!({"type": ["object", "null"], "properties": properties, "additionalProperties": false})
}
