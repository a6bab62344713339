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
}

#[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
pub enum Relation {}

impl ActiveModelBehavior for ActiveModel {}
