//! Table `awards`: Launch of the Week #1 to #3, fixed once per finished week.

use sea_orm::entity::prelude::*;

#[derive(Clone, Debug, PartialEq, Eq, DeriveEntityModel)]
#[sea_orm(table_name = "awards")]
pub struct Model {
    #[sea_orm(primary_key)]
    pub id: i64,
    pub week: TimeDate,
    pub rank: i32,
    pub listing_id: i64,
    pub votes: i64,
}

#[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
pub enum Relation {}

impl ActiveModelBehavior for ActiveModel {}
