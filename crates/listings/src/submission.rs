//! A submitted draft becomes a listing. The listings domain owns the rules: the submission meets
//! the same bounds an owner's edit meets (`edit::parse_fields`, the one table of field bounds),
//! its slug is made from its name with `Slug::from_text`, and one port writes the listing with
//! its categories, founders, story and milestones.

use crate::edit::{ListingCopy, ListingEdit, MAX_FAQS, check_faqs, parse_fields};
use crate::profile::Milestone;
use async_trait::async_trait;
use kernel::{Clock, Faq, FieldError, ListingId, RepoError, Slug, Story, StoryBounds, UserId, WebUrl, check_https_link, check_socials};
use serde_json::{Map, Value};
use std::collections::BTreeMap;
use std::sync::Arc;
use time::OffsetDateTime;

/// The most categories a listing has: one primary and three more.
pub const MAX_CATEGORIES: usize = 4;
/// The longest founder name and role.
pub const MAX_FOUNDER_CHARS: usize = 160;
/// The longest stage.
pub const MAX_STAGE_CHARS: usize = 40;

/// A listing as a submitted draft offers it, before any check.
#[derive(Debug, Clone, PartialEq)]
pub struct Submission {
    pub name: String,
    /// The website.
    pub url: WebUrl,
    pub logo_url: Option<String>,
    pub stage: Option<String>,
    /// Category slugs; the first is the primary one.
    pub categories: Vec<String>,
    pub tags: Vec<String>,
    /// The owned-listing fields, as `update_my_listing`'s `fields` object takes them
    /// (`{"tagline": "...", "founded_year": 2019, "features": [...]}`).
    pub fields: Map<String, Value>,
    pub socials: BTreeMap<String, String>,
    pub faqs: Vec<Faq>,
    pub founders: Vec<SubmittedFounder>,
    /// The first founder's socials.
    pub founder_socials: BTreeMap<String, String>,
    pub story: Story,
    pub milestones: Vec<Milestone>,
    pub not_found_on_website: Vec<String>,
    /// The logo kept for the listing (a picture found on its site, or an upload).
    pub logo: Option<kernel::ImageRef>,
    /// The gallery, in order.
    pub gallery: Vec<crate::GalleryImage>,
}

/// A founder named by a submission.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SubmittedFounder {
    pub name: String,
    /// The role.
    pub title: Option<String>,
    pub bio: Option<String>,
}

/// A submission that met every bound: what the repository writes.
#[derive(Debug, Clone, PartialEq)]
pub struct CheckedSubmission {
    pub name: String,
    /// The slug a new listing takes, or the first free `slug-2`, `slug-3`, ...
    pub slug: Slug,
    pub url: WebUrl,
    pub logo_url: Option<String>,
    pub stage: Option<String>,
    pub categories: Vec<String>,
    pub tags: Vec<String>,
    /// The editable copy, made by the same `ListingEdit::apply` an owner's edit runs.
    pub copy: ListingCopy,
    /// Each founder with the slug a new founder profile takes.
    pub founders: Vec<(SubmittedFounder, Slug)>,
    pub founder_socials: BTreeMap<String, String>,
    pub story: Story,
    pub milestones: Vec<Milestone>,
    pub not_found_on_website: Vec<String>,
}

impl Submission {
    /// Checks every bound; each error names its field (`fields.tagline`, `founders[0]`), and
    /// nothing is accepted while one is wrong.
    pub fn check(&self) -> Result<CheckedSubmission, Vec<FieldError>> {
        let mut errors = Vec::new();
        let name = self.name.trim();
        if name.is_empty() {
            errors.push(FieldError::new("fields.name", "a listing needs a name; set it with update_draft"));
        }
        if self.categories.is_empty() {
            errors.push(FieldError::new("fields.categories", "a listing needs at least one category; set it with update_draft"));
        } else if self.categories.len() > MAX_CATEGORIES {
            errors.push(FieldError::new("fields.categories", "a listing has one primary category and at most 3 more"));
        }
        let stage = self.stage.as_deref().map(str::trim).filter(|stage| !stage.is_empty());
        if stage.is_some_and(|stage| stage.chars().count() > MAX_STAGE_CHARS) {
            errors.push(FieldError::new("fields.stage", format!("must be at most {MAX_STAGE_CHARS} characters")));
        }
        let logo_url = self.logo_url.as_deref().map(str::trim).filter(|url| !url.is_empty());
        if let Some(Err(message)) = logo_url.map(check_https_link) {
            errors.push(FieldError::new("fields.logo_url", message));
        }
        let fields = parse_fields(&self.fields).unwrap_or_else(|mut found| {
            errors.append(&mut found);
            Vec::new()
        });
        check_socials("socials", &self.socials, &mut errors);
        check_socials("founder_socials", &self.founder_socials, &mut errors);
        check_faqs("faqs", &self.faqs, &mut errors);
        errors.extend(self.story.check("story", StoryBounds::OwnedListing));
        for (i, founder) in self.founders.iter().enumerate() {
            let too_long = |text: &str| text.chars().count() > MAX_FOUNDER_CHARS;
            if founder.name.trim().is_empty() || too_long(&founder.name) || founder.title.as_deref().is_some_and(too_long) {
                errors.push(FieldError::new(
                    format!("founders[{i}]"),
                    format!("a founder has a name, and a name and title of at most {MAX_FOUNDER_CHARS} characters"),
                ));
            }
        }
        for (i, milestone) in self.milestones.iter().enumerate() {
            errors.extend(milestone.check(&format!("milestones[{i}]")));
        }
        crate::edit::check_gallery("pictures", &self.gallery, &mut errors);
        if !errors.is_empty() {
            return Err(errors);
        }
        let edit = ListingEdit {
            fields,
            socials: Some(self.socials.clone()),
            faqs: Some(self.faqs.iter().take(MAX_FAQS).cloned().collect()),
            logo: Some(self.logo),
            gallery: Some(self.gallery.clone()),
        };
        let (copy, _) = edit.apply(&ListingCopy::default());
        Ok(CheckedSubmission {
            name: name.to_owned(),
            slug: slug_of(name, "listing"),
            url: self.url.clone(),
            logo_url: logo_url.map(str::to_owned),
            stage: stage.map(str::to_owned),
            categories: self.categories.clone(),
            tags: self.tags.clone(),
            copy,
            founders: self.founders.iter().map(|founder| (founder.clone(), slug_of(&founder.name, "founder"))).collect(),
            founder_socials: self.founder_socials.clone(),
            story: self.story.clone(),
            milestones: self.milestones.clone(),
            not_found_on_website: self.not_found_on_website.clone(),
        })
    }
}

/// The slug a name makes, or `fallback` for a name without a letter or digit.
fn slug_of(name: &str, fallback: &'static str) -> Slug {
    Slug::from_text(name).or_else(|| Slug::from_text(fallback)).expect("the fallback is a valid slug")
}

/// Where submitted listings are written.
#[async_trait]
pub trait SubmittedListingRepository: Send + Sync {
    /// Creates the listing in status `draft`, owned by `owner`, under the first free slug of
    /// `listing.slug`, `-2`, `-3`, ...; or, with `existing`, updates that listing (its status,
    /// slug, headline and summary stay). Replaces its categories, founders (an existing founder
    /// of the listing with the same name is kept and updated), story (unpublished until the
    /// listing is published) and milestones, in one transaction.
    ///
    /// # Errors
    /// `RepoError::Duplicate` when no free slug is found; `Backend` otherwise.
    async fn save_submitted(
        &self,
        owner: UserId,
        existing: Option<ListingId>,
        listing: &CheckedSubmission,
        now: OffsetDateTime,
    ) -> Result<ListingId, RepoError>;
}

/// Why a submission was not saved.
#[derive(Debug, thiserror::Error)]
pub enum SubmissionError {
    #[error("the listing is invalid")]
    Invalid(Vec<FieldError>),
    #[error(transparent)]
    Repo(#[from] RepoError),
}

/// The use case `submit_draft` hands a draft to.
#[derive(Clone)]
pub struct SubmissionService {
    repo: Arc<dyn SubmittedListingRepository>,
    clock: Arc<dyn Clock>,
}

impl SubmissionService {
    pub fn new(repo: Arc<dyn SubmittedListingRepository>, clock: Arc<dyn Clock>) -> Self {
        Self { repo, clock }
    }

    /// Checks the submission and writes the listing (new, or `existing` updated); nothing is
    /// written while a bound is not met.
    pub async fn save(&self, owner: UserId, existing: Option<ListingId>, submission: &Submission) -> Result<ListingId, SubmissionError> {
        let checked = submission.check().map_err(SubmissionError::Invalid)?;
        Ok(self.repo.save_submitted(owner, existing, &checked, self.clock.now()).await?)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn submission() -> Submission {
        Submission {
            name: "Acme Notes!".into(),
            url: WebUrl::parse("https://acme.example/").unwrap(),
            categories: vec!["productivity".into()],
            fields: json!({"tagline": "Notes", "founded_year": 2019}).as_object().cloned().unwrap_or_default(),
            founders: vec![SubmittedFounder { name: "Ada Lovelace".into(), title: Some("CEO".into()), bio: None }],
            logo_url: None,
            stage: None,
            tags: Vec::new(),
            socials: Default::default(),
            faqs: Vec::new(),
            founder_socials: Default::default(),
            story: Story::default(),
            milestones: Vec::new(),
            not_found_on_website: Vec::new(),
            logo: None,
            gallery: Vec::new(),
        }
    }

    #[test]
    fn a_valid_submission_gets_slugs_and_the_owned_listing_copy() {
        let checked = submission().check().unwrap();
        assert_eq!(checked.slug.as_str(), "acme-notes");
        assert_eq!(checked.founders[0].1.as_str(), "ada-lovelace");
        assert_eq!(checked.copy.tagline.as_deref(), Some("Notes"));
        assert_eq!(checked.copy.founded_year, Some(2019));
        let nameless = Submission { name: "!!!".into(), ..submission() };
        assert_eq!(nameless.check().unwrap().slug.as_str(), "listing");
    }

    #[test]
    fn a_submission_meets_the_bounds_of_an_owner_edit_and_names_each_field() {
        let bad = Submission {
            name: " ".into(),
            categories: vec!["a".into(), "b".into(), "c".into(), "d".into(), "e".into()],
            fields: json!({"tagline": "t".repeat(201), "founded_year": 1700, "demo_video_url": "http://v.example"})
                .as_object()
                .cloned()
                .unwrap_or_default(),
            socials: [("myspace".to_owned(), "https://m.example".to_owned())].into(),
            story: Story { title: Some("t".repeat(201)), ..Default::default() },
            founders: vec![SubmittedFounder { name: "n".repeat(161), title: None, bio: None }],
            stage: Some("s".repeat(41)),
            ..submission()
        };
        let errors = bad.check().unwrap_err();
        let mut named: Vec<&str> = errors.iter().map(|e| e.field.as_str()).collect();
        named.sort_unstable();
        assert_eq!(
            named,
            [
                "fields.categories",
                "fields.demo_video_url",
                "fields.founded_year",
                "fields.name",
                "fields.stage",
                "fields.tagline",
                "founders[0]",
                "socials.myspace",
                "story.title"
            ]
        );
    }
}
