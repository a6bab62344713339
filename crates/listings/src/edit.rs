//! Owner edits of a listing (`update_my_listing`): the editable copy of a listing, the bounds
//! of each editable field (the spec's owned-listing table), and the version kept of each edit.

use crate::GalleryImage;
use kernel::{CountryCode, Email, Faq, FieldError, ImageRef, UserId};
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};
use std::collections::BTreeMap;
use time::OffsetDateTime;

/// Everything an owner can edit, as one copy: what the version history keeps before and after
/// each edit.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default)]
pub struct ListingCopy {
    pub tagline: Option<String>,
    pub short_description: Option<String>,
    pub description: Option<String>,
    pub pricing_model: Option<String>,
    pub pricing_summary: Option<String>,
    pub country: Option<String>,
    pub city: Option<String>,
    pub founded_year: Option<i32>,
    pub demo_video_url: Option<String>,
    pub contact_email: Option<String>,
    pub features: Vec<String>,
    pub usps: Vec<String>,
    pub keywords: Vec<String>,
    pub headline: Option<String>,
    pub summary: Option<String>,
    pub seo_title: Option<String>,
    pub seo_description: Option<String>,
    /// Platform key to https link.
    pub socials: BTreeMap<String, String>,
    pub faqs: Vec<Faq>,
    /// The logo we keep (`upload_image`).
    pub logo: Option<ImageRef>,
    /// The gallery, in order.
    pub gallery: Vec<GalleryImage>,
}

/// What kind of value a field takes, with its bounds.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FieldKind {
    /// A string of at most this many characters.
    Text(usize),
    /// An ISO 3166-1 alpha-2 country code.
    Country,
    /// A year from 1800 to 2100.
    Year,
    /// An https link of at most 500 characters.
    Link,
    /// An e-mail address of at most 254 characters.
    Email,
    /// At most 20 strings of at most 200 characters each.
    List,
}

/// The most items a list field holds, and the longest item.
pub const MAX_LIST_ITEMS: usize = 20;
pub const MAX_LIST_ITEM_CHARS: usize = 200;
/// The most FAQs an owned listing has.
pub const MAX_FAQS: usize = 10;

/// The fields of `update_my_listing`'s `fields` object.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum EditableField {
    Tagline,
    ShortDescription,
    Description,
    PricingModel,
    PricingSummary,
    Country,
    City,
    FoundedYear,
    DemoVideoUrl,
    ContactEmail,
    Features,
    Usps,
    Keywords,
    Headline,
    Summary,
    SeoTitle,
    SeoDescription,
}

impl EditableField {
    pub const ALL: [Self; 17] = [
        Self::Tagline,
        Self::ShortDescription,
        Self::Description,
        Self::PricingModel,
        Self::PricingSummary,
        Self::Country,
        Self::City,
        Self::FoundedYear,
        Self::DemoVideoUrl,
        Self::ContactEmail,
        Self::Features,
        Self::Usps,
        Self::Keywords,
        Self::Headline,
        Self::Summary,
        Self::SeoTitle,
        Self::SeoDescription,
    ];

    pub fn as_str(self) -> &'static str {
        match self {
            Self::Tagline => "tagline",
            Self::ShortDescription => "short_description",
            Self::Description => "description",
            Self::PricingModel => "pricing_model",
            Self::PricingSummary => "pricing_summary",
            Self::Country => "country",
            Self::City => "city",
            Self::FoundedYear => "founded_year",
            Self::DemoVideoUrl => "demo_video_url",
            Self::ContactEmail => "contact_email",
            Self::Features => "features",
            Self::Usps => "usps",
            Self::Keywords => "keywords",
            Self::Headline => "headline",
            Self::Summary => "summary",
            Self::SeoTitle => "seo_title",
            Self::SeoDescription => "seo_description",
        }
    }

    pub fn parse(name: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|field| field.as_str() == name)
    }

    /// The spec's bounds for the field.
    pub fn kind(self) -> FieldKind {
        match self {
            Self::Tagline | Self::Headline | Self::SeoTitle => FieldKind::Text(200),
            Self::ShortDescription | Self::PricingSummary => FieldKind::Text(300),
            Self::Description | Self::Summary => FieldKind::Text(20_000),
            Self::PricingModel => FieldKind::Text(40),
            Self::City => FieldKind::Text(120),
            Self::SeoDescription => FieldKind::Text(320),
            Self::Country => FieldKind::Country,
            Self::FoundedYear => FieldKind::Year,
            Self::DemoVideoUrl => FieldKind::Link,
            Self::ContactEmail => FieldKind::Email,
            Self::Features | Self::Usps | Self::Keywords => FieldKind::List,
        }
    }
}

/// A new value for one field; `None`/empty clears it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum EditValue {
    Text(Option<String>),
    Year(Option<i32>),
    List(Vec<String>),
}

/// One `update_my_listing` request, checked.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ListingEdit {
    pub fields: Vec<(EditableField, EditValue)>,
    /// Replaces all socials.
    pub socials: Option<BTreeMap<String, String>>,
    /// Replaces all FAQs.
    pub faqs: Option<Vec<Faq>>,
    /// Sets (`Some(Some(..))`) or removes (`Some(None)`) the logo.
    pub logo: Option<Option<ImageRef>>,
    /// Replaces the gallery.
    pub gallery: Option<Vec<GalleryImage>>,
}

/// One kept edit: who made it, when, and the copy before and after.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ListingVersion {
    pub id: i64,
    pub listing_id: kernel::ListingId,
    pub editor: Option<UserId>,
    /// The editor's e-mail address, for the site team's review.
    pub editor_email: Option<String>,
    /// The keys the edit changed (`tagline`, `socials`, `faqs`, ...).
    pub changed: Vec<String>,
    pub before: ListingCopy,
    pub after: ListingCopy,
    pub created_at: OffsetDateTime,
}

/// Checks a `fields` object against the owned-listing bounds: every error names its field
/// (`fields.tagline`), and nothing is accepted while one is wrong.
pub fn parse_fields(fields: &Map<String, Value>) -> Result<Vec<(EditableField, EditValue)>, Vec<FieldError>> {
    let mut errors = Vec::new();
    let mut parsed = Vec::new();
    for (key, value) in fields {
        let at = format!("fields.{key}");
        let Some(field) = EditableField::parse(key) else {
            errors.push(FieldError::new(at, "is not an editable field of a listing"));
            continue;
        };
        match parse_value(field.kind(), value, &at) {
            Ok(value) => parsed.push((field, value)),
            Err(mut found) => errors.append(&mut found),
        }
    }
    if errors.is_empty() { Ok(parsed) } else { Err(errors) }
}

fn parse_value(kind: FieldKind, value: &Value, at: &str) -> Result<EditValue, Vec<FieldError>> {
    let error = |message: String| vec![FieldError::new(at, message)];
    // Text values are trimmed; an empty string clears the field, as null does.
    let text = |value: &Value| -> Result<Option<String>, Vec<FieldError>> {
        match value {
            Value::Null => Ok(None),
            Value::String(text) => Ok(Some(text.trim().to_owned()).filter(|text| !text.is_empty())),
            _ => Err(error("must be a string or null".into())),
        }
    };
    Ok(match kind {
        FieldKind::Text(max) => {
            let value = text(value)?;
            if value.as_ref().is_some_and(|text| text.chars().count() > max) {
                return Err(error(format!("must be at most {max} characters")));
            }
            EditValue::Text(value)
        }
        FieldKind::Country => match text(value)? {
            None => EditValue::Text(None),
            Some(code) => match CountryCode::parse(&code) {
                Ok(code) => EditValue::Text(Some(code.as_str().to_owned())),
                Err(_) => return Err(error("must be a two-letter ISO 3166-1 country code".into())),
            },
        },
        FieldKind::Year => match value {
            Value::Null => EditValue::Year(None),
            // 2020.0 is the integer 2020, as JSON Schema counts.
            Value::Number(number) => match number.as_i64().or_else(|| number.as_f64().filter(|f| f.fract() == 0.0).map(|f| f as i64)) {
                Some(year) if (1800..=2100).contains(&year) => EditValue::Year(Some(year as i32)),
                _ => return Err(error("must be a year from 1800 to 2100".into())),
            },
            _ => return Err(error("must be an integer year or null".into())),
        },
        FieldKind::Link => {
            let value = text(value)?;
            if let Some(link) = &value {
                kernel::check_https_link(link).map_err(|message| error(message.into()))?;
            }
            EditValue::Text(value)
        }
        FieldKind::Email => match text(value)? {
            None => EditValue::Text(None),
            Some(address) => match Email::parse(&address) {
                Ok(address) => EditValue::Text(Some(address.as_str().to_owned())),
                Err(_) => return Err(error(format!("must be an e-mail address of at most {} characters", Email::MAX_LEN))),
            },
        },
        FieldKind::List => match value {
            Value::Null => EditValue::List(Vec::new()),
            Value::Array(items) => {
                if items.len() > MAX_LIST_ITEMS {
                    return Err(error(format!("must have at most {MAX_LIST_ITEMS} items")));
                }
                let mut list = Vec::new();
                let mut errors = Vec::new();
                for (i, item) in items.iter().enumerate() {
                    match item.as_str().map(str::trim) {
                        Some(text) if text.chars().count() > MAX_LIST_ITEM_CHARS => {
                            errors.push(FieldError::new(format!("{at}[{i}]"), format!("must be at most {MAX_LIST_ITEM_CHARS} characters")))
                        }
                        Some("") => errors.push(FieldError::new(format!("{at}[{i}]"), "must not be empty")),
                        Some(text) => list.push(text.to_owned()),
                        None => errors.push(FieldError::new(format!("{at}[{i}]"), "must be a string")),
                    }
                }
                if !errors.is_empty() {
                    return Err(errors);
                }
                EditValue::List(list)
            }
            _ => return Err(error("must be an array of strings or null".into())),
        },
    })
}

/// The longest FAQ question and answer of a listing.
pub const MAX_FAQ_QUESTION_CHARS: usize = 300;
pub const MAX_FAQ_ANSWER_CHARS: usize = 1500;

/// Checks a gallery: at most eight pictures, none twice, each with alt text of 1 to 300
/// characters (what a screen reader says for it). The pictures themselves are checked against
/// the media store by the caller.
pub fn check_gallery(at: &str, gallery: &[GalleryImage], errors: &mut Vec<FieldError>) {
    if gallery.len() > GalleryImage::MAX_IMAGES {
        errors.push(FieldError::new(at, format!("must have at most {} pictures", GalleryImage::MAX_IMAGES)));
    }
    for (i, picture) in gallery.iter().enumerate() {
        let alt = picture.alt.trim().chars().count();
        if alt == 0 {
            errors.push(FieldError::new(format!("{at}[{i}].alt"), "must say what the picture shows (a screen reader reads it out)"));
        } else if alt > GalleryImage::MAX_ALT_CHARS {
            errors.push(FieldError::new(format!("{at}[{i}].alt"), format!("must be at most {} characters", GalleryImage::MAX_ALT_CHARS)));
        }
        if gallery[..i].iter().any(|earlier| earlier.image == picture.image) {
            errors.push(FieldError::new(format!("{at}[{i}].image"), "is in the gallery already"));
        }
    }
}

/// Checks a listing's FAQs: at most ten, each question and answer within its bound.
pub fn check_faqs(at: &str, faqs: &[Faq], errors: &mut Vec<FieldError>) {
    if faqs.len() > MAX_FAQS {
        errors.push(FieldError::new(at, format!("must have at most {MAX_FAQS} items")));
    }
    for (i, faq) in faqs.iter().enumerate() {
        if faq.question.chars().count() > MAX_FAQ_QUESTION_CHARS {
            errors.push(FieldError::new(format!("{at}[{i}].question"), format!("must be at most {MAX_FAQ_QUESTION_CHARS} characters")));
        }
        if faq.answer.chars().count() > MAX_FAQ_ANSWER_CHARS {
            errors.push(FieldError::new(format!("{at}[{i}].answer"), format!("must be at most {MAX_FAQ_ANSWER_CHARS} characters")));
        }
    }
}

impl ListingEdit {
    /// The copy after this edit, and the keys whose value it changed (in the copy's order).
    pub fn apply(&self, before: &ListingCopy) -> (ListingCopy, Vec<String>) {
        let mut after = before.clone();
        for (field, value) in &self.fields {
            match (field, value.clone()) {
                (EditableField::FoundedYear, EditValue::Year(year)) => after.founded_year = year,
                (EditableField::Features, EditValue::List(list)) => after.features = list,
                (EditableField::Usps, EditValue::List(list)) => after.usps = list,
                (EditableField::Keywords, EditValue::List(list)) => after.keywords = list,
                (field, EditValue::Text(text)) => {
                    if let Some(slot) = text_slot(&mut after, *field) {
                        *slot = text;
                    }
                }
                // `parse_fields` pairs every field with a value of its kind.
                _ => {}
            }
        }
        if let Some(socials) = &self.socials {
            after.socials = socials.iter().map(|(key, link)| (key.clone(), link.trim().to_owned())).collect();
        }
        if let Some(faqs) = &self.faqs {
            after.faqs = faqs.clone();
        }
        if let Some(logo) = self.logo {
            after.logo = logo;
        }
        if let Some(gallery) = &self.gallery {
            after.gallery = gallery.clone();
        }
        let changed = changed_keys(before, &after);
        (after, changed)
    }
}

/// The slot of a text field; none for the year and the lists.
fn text_slot(copy: &mut ListingCopy, field: EditableField) -> Option<&mut Option<String>> {
    Some(match field {
        EditableField::Tagline => &mut copy.tagline,
        EditableField::ShortDescription => &mut copy.short_description,
        EditableField::Description => &mut copy.description,
        EditableField::PricingModel => &mut copy.pricing_model,
        EditableField::PricingSummary => &mut copy.pricing_summary,
        EditableField::Country => &mut copy.country,
        EditableField::City => &mut copy.city,
        EditableField::DemoVideoUrl => &mut copy.demo_video_url,
        EditableField::ContactEmail => &mut copy.contact_email,
        EditableField::Headline => &mut copy.headline,
        EditableField::Summary => &mut copy.summary,
        EditableField::SeoTitle => &mut copy.seo_title,
        EditableField::SeoDescription => &mut copy.seo_description,
        EditableField::FoundedYear | EditableField::Features | EditableField::Usps | EditableField::Keywords => return None,
    })
}

/// The keys whose values differ between two copies, sorted.
pub fn changed_keys(before: &ListingCopy, after: &ListingCopy) -> Vec<String> {
    let (Ok(Value::Object(before)), Ok(Value::Object(after))) = (serde_json::to_value(before), serde_json::to_value(after)) else {
        return Vec::new();
    };
    let mut changed: Vec<String> =
        after.iter().filter(|(key, value)| before.get(*key) != Some(value)).map(|(key, _)| key.clone()).collect();
    changed.sort();
    changed
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn fields(value: Value) -> Map<String, Value> {
        value.as_object().cloned().unwrap_or_default()
    }

    #[test]
    fn every_bound_names_its_field() {
        let too_long = |n: usize| "x".repeat(n + 1);
        for (key, bad) in [
            ("tagline", json!(too_long(200))),
            ("short_description", json!(too_long(300))),
            ("description", json!(too_long(20_000))),
            ("pricing_model", json!(too_long(40))),
            ("pricing_summary", json!(too_long(300))),
            ("country", json!("DEU")),
            ("city", json!(too_long(120))),
            ("founded_year", json!(1799)),
            ("founded_year", json!(2101)),
            ("founded_year", json!("2020")),
            ("demo_video_url", json!("http://example.com/video")),
            ("demo_video_url", json!(format!("https://example.com/{}", too_long(490)))),
            ("contact_email", json!("not an address")),
            ("features", json!(vec!["a"; 21])),
            ("usps", json!([too_long(200)])),
            ("keywords", json!([1])),
            ("headline", json!(too_long(200))),
            ("summary", json!(too_long(20_000))),
            ("seo_title", json!(too_long(200))),
            ("seo_description", json!(too_long(320))),
            ("tagline", json!(5)),
            ("nickname", json!("x")),
        ] {
            let errors = parse_fields(&fields(json!({ key: bad }))).expect_err(key);
            assert!(errors[0].field.starts_with(&format!("fields.{key}")), "{key}: {errors:?}");
        }
    }

    #[test]
    fn values_at_the_bounds_pass_and_null_clears() {
        let parsed = parse_fields(&fields(json!({
            "tagline": "x".repeat(200),
            "country": "de",
            "founded_year": 2100,
            "features": vec!["f".repeat(200); 20],
            "city": null,
            "headline": "  ",
        })))
        .unwrap();
        assert!(parsed.contains(&(EditableField::Country, EditValue::Text(Some("DE".into())))));
        assert!(parsed.contains(&(EditableField::City, EditValue::Text(None))));
        assert!(parsed.contains(&(EditableField::Headline, EditValue::Text(None))));
    }

    #[test]
    fn faqs_are_bounded_by_count_and_length() {
        let faq = |q: usize, a: usize| Faq { question: "q".repeat(q), answer: "a".repeat(a) };
        let mut errors = Vec::new();
        check_faqs("faqs", &[faq(300, 1500)], &mut errors);
        assert!(errors.is_empty());
        check_faqs("faqs", &vec![faq(301, 1501); 11], &mut errors);
        assert_eq!(errors[0], FieldError::new("faqs", "must have at most 10 items"));
        assert_eq!((errors[1].field.as_str(), errors[2].field.as_str()), ("faqs[0].question", "faqs[0].answer"));
    }

    #[test]
    fn apply_reports_only_what_changed() {
        let before = ListingCopy { tagline: Some("Old".into()), city: Some("Berlin".into()), ..Default::default() };
        let edit = ListingEdit {
            fields: vec![
                (EditableField::Tagline, EditValue::Text(Some("New".into()))),
                (EditableField::City, EditValue::Text(Some("Berlin".into()))),
                (EditableField::Features, EditValue::List(vec!["Fast".into()])),
            ],
            socials: None,
            faqs: Some(vec![Faq { question: "Q".into(), answer: "A".into() }]),
            ..ListingEdit::default()
        };
        let (after, changed) = edit.apply(&before);
        assert_eq!(after.tagline.as_deref(), Some("New"));
        assert_eq!(changed, ["faqs", "features", "tagline"]);
        assert!(ListingEdit::default().apply(&after).1.is_empty());
    }

    fn picture(byte: u8, alt: &str) -> GalleryImage {
        GalleryImage { image: ImageRef::new([byte; 32], kernel::ImageFormat::Jpeg, 1280, 800), alt: alt.into() }
    }

    #[test]
    fn a_gallery_holds_eight_different_pictures_each_with_alt_text() {
        let mut errors = Vec::new();
        check_gallery("gallery", &[picture(1, "The board"), picture(2, "Settings")], &mut errors);
        assert!(errors.is_empty(), "{errors:?}");
        let too_many: Vec<_> = (0..9).map(|n| picture(n, "A screen")).collect();
        check_gallery("gallery", &too_many, &mut errors);
        assert_eq!(errors.iter().map(|e| e.field.as_str()).collect::<Vec<_>>(), ["gallery"]);
        errors.clear();
        check_gallery("gallery", &[picture(1, "  "), picture(1, "Again"), picture(3, &"x".repeat(301))], &mut errors);
        let fields: Vec<_> = errors.iter().map(|e| e.field.as_str()).collect();
        assert_eq!(fields, ["gallery[0].alt", "gallery[1].image", "gallery[2].alt"]);
    }

    #[test]
    fn a_logo_and_a_gallery_are_edits_kept_like_any_other() {
        let before = ListingCopy::default();
        let edit =
            ListingEdit { logo: Some(Some(picture(7, "").image)), gallery: Some(vec![picture(1, "The board")]), ..ListingEdit::default() };
        let (after, changed) = edit.apply(&before);
        assert_eq!(changed, ["gallery", "logo"]);
        assert_eq!(after.gallery.len(), 1);
        let removed = ListingEdit { logo: Some(None), ..ListingEdit::default() }.apply(&after);
        assert_eq!((removed.0.logo, removed.1), (None, vec!["logo".to_owned()]));
        // A copy kept before logos existed reads as one without them.
        let old: ListingCopy = serde_json::from_value(json!({"tagline": "Old"})).unwrap();
        assert_eq!((old.logo, old.gallery.len()), (None, 0));
    }
}
