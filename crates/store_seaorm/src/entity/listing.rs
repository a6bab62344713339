//! Table `listings`. `votes_count` mirrors the number of rows in `votes` for the listing and
//! is written in the same transaction as a vote.

use sea_orm::entity::prelude::*;

#[derive(Clone, Debug, PartialEq, Eq, DeriveEntityModel)]
#[sea_orm(table_name = "listings")]
pub struct Model {
    #[sea_orm(primary_key)]
    pub id: i64,
    #[sea_orm(unique)]
    pub slug: String,
    pub name: String,
    pub url: String,
    pub domain: String,
    pub tagline: Option<String>,
    pub short_description: Option<String>,
    pub description: Option<String>,
    pub logo_url: Option<String>,
    pub status: String,
    pub plan: Option<String>,
    pub primary_category_id: Option<i64>,
    pub country: Option<String>,
    pub city: Option<String>,
    pub stage: Option<String>,
    pub pricing_model: Option<String>,
    pub founded_year: Option<i32>,
    pub launch_week: Option<TimeDate>,
    pub launched_at: Option<TimeDateTimeWithTimeZone>,
    pub votes_count: i64,
    /// Page views, added in batches by the view counter (never one write per view).
    pub views_count: i64,
    pub owner_user_id: Option<i64>,
    pub created_at: TimeDateTimeWithTimeZone,
    pub updated_at: TimeDateTimeWithTimeZone,
    pub pricing_summary: Option<String>,
    /// `["...", ...]`
    pub features: Option<Json>,
    pub usps: Option<Json>,
    pub keywords: Option<Json>,
    /// `[{"question", "answer"}]`
    pub faqs: Option<Json>,
    /// `{"x": "https://...", ...}`
    pub socials: Option<Json>,
    /// `[{"label", "url"}]`
    pub links: Option<Json>,
    /// Field names the company's own site did not state.
    pub not_found_on_website: Option<Json>,
    pub demo_video_url: Option<String>,
    pub contact_email: Option<String>,
    /// Paid-only sections unlocked: `["story", "milestones", "media"]`.
    pub unlocked_sections: Option<Json>,
    /// `["...", ...]`
    pub tags: Option<Json>,
    pub seo_title: Option<String>,
    pub seo_description: Option<String>,
}

#[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
pub enum Relation {}

impl ActiveModelBehavior for ActiveModel {}
