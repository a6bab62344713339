//! Rows turned into domain values and back, for the conversions more than one repository needs.

use crate::entity::{job, listing, user};
use accounts::User;
use kernel::{Email, ListingId, NewJob, RepoError, Slug, UserId, Week};
use listings::{ListingCopy, ListingSummary};
use sea_orm::Set;
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

/// A summary's row with how many rows of another table name the listing, counted in the same
/// statement ([`CountedRow::find`]).
#[derive(Debug, sea_orm::FromQueryResult)]
pub(crate) struct CountedRow {
    #[sea_orm(nested)]
    pub summary: SummaryRow,
    counted: i64,
}

impl CountedRow {
    /// The listing with this slug, whatever its status, as a card with, counted beside it, the
    /// rows of `table` whose `listing_column` is its id and that pass `only`: one statement.
    pub(crate) async fn find<E: sea_orm::EntityTrait, C: sea_orm::ColumnTrait>(
        db: &sea_orm::DatabaseConnection,
        slug: &Slug,
        table: E,
        listing_column: C,
        only: Option<sea_orm::sea_query::SimpleExpr>,
    ) -> Result<Option<Self>, RepoError> {
        use sea_orm::sea_query::{Asterisk, Expr, ExprTrait, Query, SubQueryStatement};
        use sea_orm::{ColumnTrait, QueryFilter, QuerySelect};
        let mut rows = Query::select()
            .expr(Expr::col(Asterisk).count())
            .from(table)
            .and_where(Expr::col((table, listing_column)).equals((listing::Entity, listing::Column::Id)))
            .to_owned();
        if let Some(only) = only {
            rows.and_where(only);
        }
        SummaryRow::select()
            .expr_as(Expr::SubQuery(None, Box::new(SubQueryStatement::SelectStatement(rows))), "counted")
            .filter(listing::Column::Slug.eq(slug.as_str()))
            .into_model::<Self>()
            .one(db)
            .await
            .map_err(crate::repo_err)
    }

    pub(crate) fn counted(&self) -> u64 {
        u64::try_from(self.counted).unwrap_or(0)
    }
}

/// The columns of a listing a summary (a card) shows, with its primary category's slug and the
/// marks behind its Featured and Verified badges: a list reads these and not the whole row,
/// whose JSON columns (features, FAQs, socials, links, ...) cost more to decode than the rest.
#[derive(Debug, sea_orm::FromQueryResult)]
pub(crate) struct SummaryRow {
    pub id: i64,
    pub slug: String,
    pub name: String,
    pub url: String,
    pub tagline: Option<String>,
    pub logo: Option<String>,
    pub votes_count: i64,
    pub launch_week: Option<time::Date>,
    pub status: String,
    pub featured_at: Option<OffsetDateTime>,
    pub verified_at: Option<OffsetDateTime>,
    pub primary_slug: Option<String>,
}

impl SummaryRow {
    /// `listings` with just a summary's columns and its primary category's slug, joined: filter
    /// and order it, then read it `into_model::<SummaryRow>()`.
    pub(crate) fn select() -> sea_orm::Select<listing::Entity> {
        use sea_orm::EntityTrait;
        Self::of(listing::Entity::find())
    }

    /// `query` (filtered and ordered) reading just a summary's columns, its primary category's
    /// slug joined; more columns may be added after.
    pub(crate) fn of(query: sea_orm::Select<listing::Entity>) -> sea_orm::Select<listing::Entity> {
        use crate::entity::category;
        use sea_orm::sea_query::Expr;
        use sea_orm::{JoinType, QuerySelect};
        query
            .select_only()
            .columns([
                listing::Column::Id,
                listing::Column::Slug,
                listing::Column::Name,
                listing::Column::Url,
                listing::Column::Tagline,
                listing::Column::Logo,
                listing::Column::VotesCount,
                listing::Column::LaunchWeek,
                listing::Column::Status,
                listing::Column::FeaturedAt,
                listing::Column::VerifiedAt,
            ])
            .column_as(Expr::col((category::Entity, category::Column::Slug)), "primary_slug")
            .join(JoinType::LeftJoin, primary_category())
    }

    /// The marks on the row, with the awards the listing won (counted elsewhere).
    pub(crate) fn marks(&self, awards: u64) -> listings::ListingMarks {
        listings::ListingMarks { featured_at: self.featured_at, verified_at: self.verified_at, awards }
    }

    pub(crate) fn into_summary(self) -> Result<ListingSummary, RepoError> {
        Ok(ListingSummary {
            id: ListingId::new(self.id),
            slug: Slug::parse(&self.slug).map_err(RepoError::backend)?,
            status: crate::listing_status(&self.status)?,
            name: self.name,
            url: self.url,
            tagline: self.tagline,
            logo: image_of(self.logo.as_deref()),
            votes: u64::try_from(self.votes_count).unwrap_or(0),
            primary_category: self.primary_slug.and_then(|slug| Slug::parse(&slug).ok()),
            launch_week: self.launch_week.map(Week::containing),
        })
    }
}

/// `listings LEFT JOIN categories ON categories.id = listings.primary_category_id`: a listing
/// read with its primary category (`select_also(category::Entity)`) in one statement.
pub(crate) fn primary_category() -> sea_orm::RelationDef {
    use crate::entity::category;
    use sea_orm::EntityTrait;
    listing::Entity::belongs_to(category::Entity).from(listing::Column::PrimaryCategoryId).to(category::Column::Id).into()
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
        logo: image_of(row.logo.as_deref()),
        gallery: gallery_of(row.gallery.as_ref()),
    }
}

/// An image from its column (a logo, an avatar). Only `ImageRef`s are ever written there; one
/// that does not read is left out rather than failing every read of the listing.
pub(crate) fn image_of(column: Option<&str>) -> Option<kernel::ImageRef> {
    column.and_then(|text| kernel::ImageRef::parse(text).ok())
}

/// A listing's gallery from its JSON column, in order.
pub(crate) fn gallery_of(column: Option<&serde_json::Value>) -> Vec<listings::GalleryImage> {
    column.and_then(|value| serde_json::from_value(value.clone()).ok()).unwrap_or_default()
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
    row.logo = Set(copy.logo.map(|logo| logo.to_string()));
    row.gallery = Set(Some(serde_json::json!(copy.gallery)));
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
