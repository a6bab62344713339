//! Table `listing_alternatives`: alternatives named for a listing; `approved` by its owner.

use sea_orm::entity::prelude::*;

#[derive(Clone, Debug, PartialEq, Eq, DeriveEntityModel)]
#[sea_orm(table_name = "listing_alternatives")]
pub struct Model {
    #[sea_orm(primary_key, auto_increment = false)]
    pub listing_id: i64,
    #[sea_orm(primary_key, auto_increment = false)]
    pub alternative_id: i64,
    pub approved: bool,
    pub position: i32,
}

#[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
pub enum Relation {}

impl ActiveModelBehavior for ActiveModel {}
