//! The `update_draft` body, and how it is read into a `DraftEdit`: field names, types and
//! bounds are checked here, every bad one named, before the use case runs.

use super::sections::{FaqInput, MilestoneInput, StoryInput, socials_schema};
use crate::wire::SchemaOf;
use crate::{InputPart, OpError};
use drafts::{DraftEdit, DraftFounder, DraftMilestone, DraftSeo, FieldKind, FieldName, FieldValue, PictureRole};
use garde::Validate;
use kernel::{Faq, FieldError};
use schemars::{JsonSchema, Schema, SchemaGenerator, json_schema};
use serde::Deserialize;
use serde_json::{Map, Value};
use std::collections::BTreeMap;

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
    #[serde(default)]
    #[garde(length(max = 20))]
    #[schemars(schema_with = "lock_fields_schema")]
    pub lock_fields: Option<Vec<String>>,
    /// Fields to redraft from the website, in the background (at most 5).
    #[serde(default)]
    #[garde(length(max = 5))]
    #[schemars(schema_with = "regenerate_schema")]
    pub regenerate: Option<Vec<String>>,
    /// Fields to put back to the AI's value.
    #[serde(default)]
    #[garde(length(max = 20))]
    #[schemars(schema_with = "lock_fields_schema")]
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
    #[serde(default, deserialize_with = "crate::input::object_or_null")]
    pub story: Option<StoryInput>,
    /// Replaces the milestones.
    #[garde(length(max = 50), dive)]
    pub milestones: Option<Vec<MilestoneInput>>,
    /// A competitor's website to read and compare; an empty string clears the comparison.
    #[garde(length(chars, max = 2048))]
    #[schemars(extend("pattern" = competitor_url_pattern()))]
    pub competitor_url: Option<String>,
    #[garde(dive)]
    #[serde(default, deserialize_with = "crate::input::object_or_null")]
    pub seo: Option<SeoInput>,
    /// Replaces the pictures (at most 15): those found on the site that stay in view, in order,
    /// and uploads (an `image` from `upload_image`). `kept: false` drops one from the listing
    /// while it stays here; a kept screenshot needs alt text. On submission the first kept
    /// logo becomes the listing's logo, the kept screenshots its gallery (at most 8).
    #[garde(length(max = 15), dive)]
    pub pictures: Option<Vec<PictureInput>>,
}

impl InputPart for UpdateDraftBody {}

/// One picture of a draft as `update_draft` takes it.
#[derive(Debug, Deserialize, JsonSchema, Validate)]
#[serde(deny_unknown_fields)]
pub struct PictureInput {
    /// A picture's `image` as `get_draft` shows it, or one from `upload_image`.
    #[garde(length(max = 120))]
    #[schemars(with = "SchemaOf<kernel::ImageRef>")]
    pub image: String,
    /// What it shows, for people who cannot see it (at most 300 characters).
    #[garde(length(chars, max = 300))]
    #[serde(default)]
    pub alt: String,
    /// Whether the listing gets it.
    #[garde(skip)]
    #[serde(default = "kept_by_default")]
    pub kept: bool,
    /// `logo` or `screenshot`; a picture the draft holds keeps its own when left out, an upload
    /// is a screenshot.
    #[garde(skip)]
    #[schemars(with = "Option<SchemaOf<PictureRole>>")]
    pub role: Option<PictureRole>,
}

fn kept_by_default() -> bool {
    true
}

/// A web address, or empty to clear.
fn competitor_url_pattern() -> String {
    format!("^$|{}", kernel::WebUrl::PATTERN)
}

/// The draft field names, for lists of names: each at most once.
fn field_names_schema(max: usize) -> serde_json::Value {
    let names: Vec<&str> = FieldName::ALL.iter().map(|name| name.as_str()).collect();
    serde_json::json!({"type": ["array", "null"], "maxItems": max, "uniqueItems": true, "items": {"type": "string", "enum": names}})
}

fn lock_fields_schema(_: &mut SchemaGenerator) -> Schema {
    Schema::try_from(field_names_schema(20)).unwrap_or_default()
}

fn regenerate_schema(_: &mut SchemaGenerator) -> Schema {
    Schema::try_from(field_names_schema(5)).unwrap_or_default()
}

fn fields_schema(_: &mut SchemaGenerator) -> Schema {
    let mut properties = Map::new();
    for name in FieldName::ALL {
        // The meaning `check_field_values` gives some text fields, as patterns.
        let pattern = match name {
            FieldName::Country => Some("^[A-Za-z]{2}$"),
            FieldName::FoundedYear => Some("^(1[89][0-9]{2}|20[0-9]{2}|2100)$"),
            FieldName::ContactEmail => Some(kernel::Email::PATTERN),
            FieldName::DemoVideoUrl | FieldName::LogoUrl => Some(kernel::HTTPS_LINK_PATTERN),
            _ => None,
        };
        let schema = match (name.kind(), pattern) {
            (FieldKind::Text(max), Some(pattern)) => serde_json::json!({"type": ["string", "null"], "maxLength": max, "pattern": pattern}),
            (FieldKind::Text(max), None) => serde_json::json!({"type": ["string", "null"], "maxLength": max}),
            (FieldKind::List(max), _) => {
                serde_json::json!({"type": ["array", "null"], "maxItems": max, "items": {"type": "string", "maxLength": 200}})
            }
        };
        properties.insert(name.as_str().to_owned(), schema);
    }
    json_schema!({"type": ["object", "null"], "properties": properties, "additionalProperties": false})
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
    pub fn into_edit(self) -> Result<DraftEdit, OpError> {
        let mut errors = Vec::new();
        let fields = self.fields.as_ref().map(|fields| parse_fields(fields, &mut errors)).unwrap_or_default();
        let lock_fields = parse_names("lock_fields", &self.lock_fields, &mut errors);
        let regenerate = parse_names("regenerate", &self.regenerate, &mut errors);
        let restore = parse_names("restore", &self.restore, &mut errors);
        check_social_lengths("company_socials", &self.company_socials, &mut errors);
        check_social_lengths("founder_socials", &self.founder_socials, &mut errors);
        let pictures = self.pictures.map(|pictures| {
            pictures
                .into_iter()
                .enumerate()
                .filter_map(|(i, picture)| match kernel::ImageRef::parse(picture.image.trim()) {
                    Ok(image) => Some(drafts::edit::PictureEdit { image, alt: picture.alt, kept: picture.kept, role: picture.role }),
                    Err(error) => {
                        errors.push(FieldError::new(format!("pictures[{i}].image"), error.0));
                        None
                    }
                })
                .collect()
        });
        if !errors.is_empty() {
            return Err(OpError::Validation(errors));
        }
        Ok(DraftEdit {
            fields,
            lock_fields,
            regenerate,
            restore,
            faqs: self.faqs.map(|faqs| faqs.into_iter().map(Faq::from).collect()),
            company_socials: self.company_socials,
            founder_socials: self.founder_socials,
            founders: self
                .founders
                .map(|founders| founders.into_iter().map(|f| DraftFounder { name: f.name, title: f.title, bio: f.bio }).collect()),
            story: self.story.map(|story| story.0),
            milestones: self.milestones.map(|milestones| {
                milestones
                    .into_iter()
                    .map(|m| DraftMilestone { date: m.date, title: m.title, description: m.description, url: m.url })
                    .collect()
            }),
            competitor_url: self.competitor_url,
            seo: self.seo.map(|s| DraftSeo { title: s.title, meta: s.meta }),
            pictures,
        })
    }
}
