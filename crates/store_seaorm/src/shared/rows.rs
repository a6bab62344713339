//! Rows turned into domain values and back, for the conversions more than one repository needs.

use crate::entity::{job, listing, user};
use accounts::User;
use kernel::{Email, ListingId, NewJob, RepoError, Slug, UserId, Week};
use listings::{ListingCopy, ListingSummary};
use sea_orm::Set;
use std::collections::HashMap;
use time::OffsetDateTime;

pub(crate) fn to_user(row: user::Model) -> Result<User, RepoError> {
    let email = Email::parse(&row.email).map_err(RepoError::backend)?;
    Ok(User {
        id: UserId::new(row.id),
        email,
        display_name: row.display_name,
        created_at: row.created_at,
        blocked: row.blocked,
        email_confirmed_at: row.email_confirmed_at,
        is_admin: row.is_admin,
    })
}

/// Turns listing rows into summaries; `category_slugs` resolves primary category ids.
pub(crate) fn to_summary(row: listing::Model, category_slugs: &HashMap<i64, Slug>) -> Result<ListingSummary, RepoError> {
    let status = crate::listing_status(&row.status)?;
    Ok(ListingSummary {
        id: ListingId::new(row.id),
        slug: Slug::parse(&row.slug).map_err(RepoError::backend)?,
        name: row.name,
        url: row.url,
        tagline: row.tagline,
        logo_url: row.logo_url,
        votes: u64::try_from(row.votes_count).unwrap_or(0),
        primary_category: row.primary_category_id.and_then(|id| category_slugs.get(&id).cloned()),
        launch_week: row.launch_week.map(Week::containing),
        status,
    })
}

/// `listings LEFT JOIN categories ON categories.id = listings.primary_category_id`: a listing
/// read with its primary category (`select_also(category::Entity)`) in one statement.
pub(crate) fn primary_category() -> sea_orm::RelationDef {
    use crate::entity::category;
    use sea_orm::EntityTrait;
    listing::Entity::belongs_to(category::Entity).from(listing::Column::PrimaryCategoryId).to(category::Column::Id).into()
}

/// A listing row read with its primary category, as a summary.
pub(crate) fn summary_with_primary(
    row: listing::Model,
    primary: Option<crate::entity::category::Model>,
) -> Result<ListingSummary, RepoError> {
    let slugs: HashMap<i64, Slug> =
        primary.and_then(|category| Some((category.id, Slug::parse(&category.slug).ok()?))).into_iter().collect();
    to_summary(row, &slugs)
}

/// The editable copy of a listing row.
pub(crate) fn copy_of(row: &listing::Model) -> ListingCopy {
    ListingCopy {
        tagline: row.tagline.clone(),
        short_description: row.short_description.clone(),
        description: row.description.clone(),
        pricing_model: row.pricing_model.clone(),
        pricing_summary: row.pricing_summary.clone(),
        country: row.country.clone(),
        city: row.city.clone(),
        founded_year: row.founded_year,
        demo_video_url: row.demo_video_url.clone(),
        contact_email: row.contact_email.clone(),
        features: strings(&row.features),
        usps: strings(&row.usps),
        keywords: strings(&row.keywords),
        headline: row.headline.clone(),
        summary: row.summary.clone(),
        seo_title: row.seo_title.clone(),
        seo_description: row.seo_description.clone(),
        socials: row.socials.as_ref().and_then(|v| serde_json::from_value(v.clone()).ok()).unwrap_or_default(),
        faqs: row.faqs.as_ref().and_then(|v| serde_json::from_value(v.clone()).ok()).unwrap_or_default(),
    }
}

/// Writes an editable copy onto a listing row.
pub(crate) fn write_copy(row: &mut listing::ActiveModel, copy: &ListingCopy) {
    row.tagline = Set(copy.tagline.clone());
    row.short_description = Set(copy.short_description.clone());
    row.description = Set(copy.description.clone());
    row.pricing_model = Set(copy.pricing_model.clone());
    row.pricing_summary = Set(copy.pricing_summary.clone());
    row.country = Set(copy.country.clone());
    row.city = Set(copy.city.clone());
    row.founded_year = Set(copy.founded_year);
    row.demo_video_url = Set(copy.demo_video_url.clone());
    row.contact_email = Set(copy.contact_email.clone());
    row.features = Set(Some(serde_json::json!(copy.features)));
    row.usps = Set(Some(serde_json::json!(copy.usps)));
    row.keywords = Set(Some(serde_json::json!(copy.keywords)));
    row.headline = Set(copy.headline.clone());
    row.summary = Set(copy.summary.clone());
    row.seo_title = Set(copy.seo_title.clone());
    row.seo_description = Set(copy.seo_description.clone());
    row.socials = Set(Some(serde_json::json!(copy.socials)));
    row.faqs = Set(Some(serde_json::json!(copy.faqs)));
}

/// The row of a new job; every enqueue (alone, or in the transaction of the write that makes
/// the job) goes through it.
pub(crate) fn job_row(job: &NewJob, now: OffsetDateTime) -> job::ActiveModel {
    job::ActiveModel {
        kind: Set(job.kind.clone()),
        payload: Set(job.payload.clone()),
        unique_key: Set(job.unique_key.clone()),
        state: Set("queued".into()),
        run_at: Set(job.run_at.to_offset(time::UtcOffset::UTC)),
        attempts: Set(0),
        max_attempts: Set(i32::try_from(job.max_attempts).unwrap_or(3)),
        locked_until: Set(None),
        locked_by: Set(None),
        last_error: Set(None),
        created_at: Set(now.to_offset(time::UtcOffset::UTC)),
        finished_at: Set(None),
        ..Default::default()
    }
}

fn strings(value: &Option<serde_json::Value>) -> Vec<String> {
    value.as_ref().and_then(|v| serde_json::from_value(v.clone()).ok()).unwrap_or_default()
}
