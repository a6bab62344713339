//! Table `listing_updates`.

use sea_orm::entity::prelude::*;

#[derive(Clone, Debug, PartialEq, Eq, DeriveEntityModel)]
#[sea_orm(table_name = "listing_updates")]
pub struct Model {
    #[sea_orm(primary_key)]
    pub id: i64,
    pub listing_id: i64,
    pub title: String,
    pub body: String,
    pub created_at: TimeDateTimeWithTimeZone,
}

#[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
pub enum Relation {}

impl ActiveModelBehavior for ActiveModel {}
