//! Checks on what a caller submits: the meaning of an `update_draft` body beyond its bounds
//! (which the operation's input type checks). Addresses are `kernel::WebUrl`s, parsed once.

use crate::grounding::CategoryRef;
use crate::model::{DraftFounder, DraftMilestone, DraftSeo, FieldName, FieldValue, Socials};
use kernel::{Faq, FieldError};

/// What `update_draft` asks for, with names already parsed.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct DraftEdit {
    /// Field values to set; `None` removes the value.
    pub fields: Vec<(FieldName, Option<FieldValue>)>,
    pub lock_fields: Vec<FieldName>,
    pub regenerate: Vec<FieldName>,
    pub restore: Vec<FieldName>,
    pub faqs: Option<Vec<Faq>>,
    pub company_socials: Option<Socials>,
    pub founder_socials: Option<Socials>,
    pub founders: Option<Vec<DraftFounder>>,
    pub story: Option<kernel::Story>,
    pub milestones: Option<Vec<DraftMilestone>>,
    /// `Some("")` clears the comparison.
    pub competitor_url: Option<String>,
    pub seo: Option<DraftSeo>,
    /// Replaces the pictures: the ones to keep in view, in order, with their alt text and
    /// whether the listing gets them; an image not among them yet is an upload.
    pub pictures: Option<Vec<PictureEdit>>,
}

/// One picture of an `update_draft`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PictureEdit {
    pub image: kernel::ImageRef,
    pub alt: String,
    pub kept: bool,
    /// What it is to the listing; a picture the draft has keeps its own when `None`, an upload
    /// is a screenshot.
    pub role: Option<crate::PictureRole>,
}

/// Checks field values for meaning: known categories (names or slugs, stored as slugs),
/// country codes, years, e-mail addresses and links. Returns the values to store.
pub fn check_field_values(
    fields: &[(FieldName, Option<FieldValue>)],
    categories: &[CategoryRef],
    errors: &mut Vec<FieldError>,
) -> Vec<(FieldName, Option<FieldValue>)> {
    let mut checked = Vec::new();
    for (name, value) in fields {
        let at = format!("fields.{name}");
        let Some(value) = value else {
            checked.push((*name, None));
            continue;
        };
        let value = match (name, value) {
            (FieldName::Categories, FieldValue::List(items)) => {
                let mut slugs = Vec::new();
                for (i, item) in items.iter().enumerate() {
                    match categories.iter().find(|c| c.slug == item.trim() || c.name.eq_ignore_ascii_case(item.trim())) {
                        Some(category) if !slugs.contains(&category.slug) => slugs.push(category.slug.clone()),
                        Some(_) => errors.push(FieldError::new(format!("{at}[{i}]"), "names the same category twice")),
                        None => errors.push(FieldError::new(format!("{at}[{i}]"), "is not a category; see list_categories")),
                    }
                }
                FieldValue::List(slugs)
            }
            (FieldName::Country, FieldValue::Text(text)) => {
                let code = text.trim().to_ascii_uppercase();
                if code.len() != 2 || !code.bytes().all(|b| b.is_ascii_uppercase()) {
                    errors.push(FieldError::new(&at, "must be a two-letter ISO 3166 country code, such as DE"));
                }
                FieldValue::Text(code)
            }
            (FieldName::FoundedYear, FieldValue::Text(text)) => {
                if !text.trim().parse::<u16>().is_ok_and(|year| (1800..=2100).contains(&year)) {
                    errors.push(FieldError::new(&at, "must be a year from 1800 to 2100"));
                }
                FieldValue::Text(text.trim().to_owned())
            }
            (FieldName::ContactEmail, FieldValue::Text(text)) => {
                if kernel::Email::parse(text).is_err() {
                    errors.push(FieldError::new(&at, "must be an e-mail address"));
                }
                FieldValue::Text(text.trim().to_owned())
            }
            (FieldName::DemoVideoUrl | FieldName::LogoUrl, FieldValue::Text(text)) => {
                if let Err(message) = kernel::check_https_link(text.trim()) {
                    errors.push(FieldError::new(&at, message));
                }
                FieldValue::Text(text.trim().to_owned())
            }
            (_, value) => value.clone(),
        };
        checked.push((*name, Some(value)));
    }
    checked
}

/// Whether a drafted value would pass the checks a person's own value gets (its bounds, and
/// [`check_field_values`]): the drafter never proposes what saving or submitting would refuse,
/// such as a logo at an `http://` address. Drafted categories are matched to the tree already.
pub fn passes_checks(name: FieldName, value: &FieldValue) -> bool {
    let within_bounds = match (name.kind(), value) {
        (crate::FieldKind::Text(most), FieldValue::Text(text)) => text.chars().count() <= most,
        (crate::FieldKind::List(most), FieldValue::List(items)) => {
            items.len() <= most && items.iter().all(|item| item.chars().count() <= 200)
        }
        _ => false,
    };
    if !within_bounds {
        return false;
    }
    if name == FieldName::Categories {
        return true;
    }
    let mut errors = Vec::new();
    check_field_values(&[(name, Some(value.clone()))], &[], &mut errors);
    errors.is_empty()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_drafted_value_its_own_check_refuses_is_not_proposed() {
        let text = |text: &str| FieldValue::Text(text.to_owned());
        assert!(passes_checks(FieldName::LogoUrl, &text("https://acme.example/logo.png")));
        assert!(!passes_checks(FieldName::LogoUrl, &text("http://acme.example/logo.png")));
        assert!(!passes_checks(FieldName::FoundedYear, &text("1066")));
        assert!(!passes_checks(FieldName::Country, &text("Germany")));
        assert!(!passes_checks(FieldName::Tagline, &text(&"x".repeat(501))));
        assert!(!passes_checks(FieldName::Features, &FieldValue::List(vec!["x".repeat(201)])));
        assert!(passes_checks(FieldName::Features, &FieldValue::List(vec!["Fast".into()])));
    }
}
