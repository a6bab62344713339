//! What a submitted draft hands to the listings domain: the draft's values in the shape of a
//! `listings::Submission`. The listings domain checks them; nothing here holds a bound.

use crate::model::{Draft, FieldName};
use crate::service::DraftError;
use listings::{Submission, SubmittedFounder};
use serde_json::{Map, Value, json};

/// The listing a draft offers, as the listings domain takes it; the listings domain checks it.
/// The owned-listing fields go as `update_my_listing`'s `fields` object would carry them.
pub(crate) fn submission_of(draft: &Draft) -> Result<Submission, DraftError> {
    let mut fields = Map::new();
    for (key, name) in [
        ("tagline", FieldName::Tagline),
        ("short_description", FieldName::ShortDescription),
        ("description", FieldName::Description),
        ("pricing_model", FieldName::PricingModel),
        ("pricing_summary", FieldName::PricingSummary),
        ("country", FieldName::Country),
        ("city", FieldName::City),
        ("demo_video_url", FieldName::DemoVideoUrl),
        ("contact_email", FieldName::ContactEmail),
    ] {
        if let Some(text) = draft.text(name) {
            fields.insert(key.to_owned(), Value::String(text.to_owned()));
        }
    }
    if let Some(year) = draft.text(FieldName::FoundedYear).map(str::trim) {
        // A year that is not a number stays text, and the listing's check names it.
        fields.insert("founded_year".to_owned(), year.parse::<i64>().map_or_else(|_| Value::String(year.to_owned()), Value::from));
    }
    for (key, name) in [("features", FieldName::Features), ("usps", FieldName::Usps), ("keywords", FieldName::Keywords)] {
        if !draft.list(name).is_empty() {
            fields.insert(key.to_owned(), json!(draft.list(name)));
        }
    }
    let seo = &draft.seo.value;
    for (key, value) in [("seo_title", &seo.title), ("seo_description", &seo.meta)] {
        if let Some(text) = value {
            fields.insert(key.to_owned(), Value::String(text.clone()));
        }
    }
    let format = time::macros::format_description!("[year]-[month]-[day]");
    let mut milestones = Vec::new();
    for (i, milestone) in draft.milestones.value.iter().enumerate() {
        let date = time::Date::parse(&milestone.date, format)
            .map_err(|_| DraftError::field(format!("milestones[{i}].date"), "must be a date YYYY-MM-DD"))?;
        milestones.push(listings::Milestone {
            date,
            title: milestone.title.clone(),
            description: milestone.description.clone(),
            url: milestone.url.clone(),
        });
    }
    Ok(Submission {
        name: draft.text(FieldName::Name).unwrap_or_default().to_owned(),
        url: draft.url.clone(),
        logo_url: draft.text(FieldName::LogoUrl).map(str::to_owned),
        stage: draft.text(FieldName::Stage).map(str::to_owned),
        categories: draft.list(FieldName::Categories).to_vec(),
        tags: draft.list(FieldName::Tags).to_vec(),
        fields,
        socials: draft.company_socials.value.clone(),
        faqs: draft.faqs.value.clone(),
        founders: draft
            .founders
            .value
            .iter()
            .map(|founder| SubmittedFounder { name: founder.name.clone(), title: founder.title.clone(), bio: founder.bio.clone() })
            .collect(),
        founder_socials: draft.founder_socials.value.clone(),
        story: draft.story.value.clone(),
        milestones,
        not_found_on_website: draft.not_found_on_website().into_iter().map(str::to_owned).collect(),
        logo: draft.pictures.iter().find(|p| p.kept && p.role == crate::PictureRole::Logo).map(|p| p.image),
        gallery: draft
            .pictures
            .iter()
            .filter(|p| p.kept && p.role == crate::PictureRole::Screenshot)
            .take(listings::GalleryImage::MAX_IMAGES)
            .map(|p| listings::GalleryImage { image: p.image, alt: p.alt.clone() })
            .collect(),
    })
}

#[cfg(test)]
mod tests {
    use crate::edit::DraftEdit;
    use crate::fakes::World;
    use crate::{DraftError, FieldName, FieldValue};
    use kernel::{Job, JobHandler, JobRun, UserId};

    #[tokio::test]
    async fn submit_draft_hands_the_draft_to_the_listings_domain_which_holds_the_bounds() {
        let world = World::new();
        world.sites.serve("https://acme.example/", "Acme Notes");
        let owner = UserId::new(3);
        let draft = world.service.submit(owner, "https://acme.example/").await.unwrap();
        let job: crate::CrawlDraft = serde_json::from_value(world.drafts.jobs.lock().unwrap()[0].payload.clone()).unwrap();
        assert_eq!(world.drafts.jobs.lock().unwrap()[0].kind, crate::CrawlDraft::KIND);
        world.service.run(job, JobRun { attempt: 1, max_attempts: 3 }).await;

        let missing = world.service.submit_draft(owner, draft.id).await.unwrap_err();
        assert!(matches!(&missing, DraftError::Invalid(errors) if errors[0].field == "fields.categories"), "{missing:?}");
        let category =
            DraftEdit { fields: vec![(FieldName::Categories, Some(FieldValue::List(vec!["Productivity".into()])))], ..Default::default() };
        world.service.update(owner, draft.id, category).await.unwrap();
        let (_, listing) = world.service.submit_draft(owner, draft.id).await.unwrap();
        {
            let saved = world.listings.saved.lock().unwrap();
            assert_eq!(saved.len(), 1);
            assert_eq!((saved[0].slug.as_str(), saved[0].categories.as_slice()), ("acme-notes", ["productivity".to_owned()].as_slice()));
        }

        // A draft allows a 500-character tagline; the listing it made allows 200: refused
        // before anything is written, named as the listing's field.
        let long = DraftEdit { fields: vec![(FieldName::Tagline, Some(FieldValue::Text("t".repeat(250))))], ..Default::default() };
        let refused = world.service.update(owner, draft.id, long).await.unwrap_err();
        assert!(matches!(&refused, DraftError::Invalid(errors) if errors[0].field == "fields.tagline"), "{refused:?}");
        assert_eq!(world.listings.saved.lock().unwrap().len(), 1, "nothing was written");
        assert_eq!(world.draft(draft.id).text(FieldName::Tagline), None);
        assert_eq!(world.draft(draft.id).listing_id, Some(listing));
    }
}
