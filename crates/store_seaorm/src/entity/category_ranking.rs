//! Table `category_rankings`: one row per live listing and category page it appears on (each
//! top-level tree it is in, each subcategory it carries) with its vote count, kept by triggers
//! (migration 26) and read through the index in the page's order.

use sea_orm::entity::prelude::*;

#[derive(Clone, Debug, PartialEq, Eq, DeriveEntityModel)]
#[sea_orm(table_name = "category_rankings")]
pub struct Model {
    #[sea_orm(primary_key, auto_increment = false)]
    pub listing_id: i64,
    #[sea_orm(primary_key, auto_increment = false)]
    pub category_id: i64,
    pub votes_count: i64,
}

#[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
pub enum Relation {}

impl ActiveModelBehavior for ActiveModel {}
