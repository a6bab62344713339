//! Table `listing_metrics`: Domain Rating (with the previous reading, for its trend) and
//! monthly revenue of a listing, and whether the listing is live.

use sea_orm::entity::prelude::*;

#[derive(Clone, Debug, PartialEq, Eq, DeriveEntityModel)]
#[sea_orm(table_name = "listing_metrics")]
pub struct Model {
    #[sea_orm(primary_key, auto_increment = false)]
    pub listing_id: i64,
    pub domain_rating: Option<i32>,
    pub domain_rating_previous: Option<i32>,
    pub domain_rating_checked_at: Option<TimeDateTimeWithTimeZone>,
    pub monthly_revenue_cents: Option<i64>,
    pub revenue_verified: bool,
    pub revenue_reported_at: Option<TimeDateTimeWithTimeZone>,
    /// Whether its listing is live: a mirror kept by migration 27's triggers, so the boards
    /// page inside one index.
    pub live: bool,
}

#[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
pub enum Relation {}

impl ActiveModelBehavior for ActiveModel {}
