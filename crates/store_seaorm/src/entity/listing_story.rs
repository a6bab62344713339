//! Table `listing_stories`: the founder story of a listing, public once published.

use sea_orm::entity::prelude::*;

#[derive(Clone, Debug, PartialEq, Eq, DeriveEntityModel)]
#[sea_orm(table_name = "listing_stories")]
pub struct Model {
    #[sea_orm(primary_key, auto_increment = false)]
    pub listing_id: i64,
    pub title: Option<String>,
    pub story: Option<String>,
    pub why_started: Option<String>,
    pub problem: Option<String>,
    pub journey: Option<String>,
    pub challenges: Option<String>,
    pub achievements: Option<String>,
    pub lessons: Option<String>,
    pub whats_next: Option<String>,
    pub published_at: Option<TimeDateTimeWithTimeZone>,
    pub updated_at: TimeDateTimeWithTimeZone,
}

#[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
pub enum Relation {}

impl ActiveModelBehavior for ActiveModel {}
