//! Table `listing_changes`: the change feed the search indexes read. Triggers on `listings`
//! append a position for every insert, delete, and update of the indexed columns, in the writing
//! transaction, so no writer can forget it. The daily purge keeps the newest positions.

use sea_orm::entity::prelude::*;

#[derive(Clone, Debug, PartialEq, Eq, DeriveEntityModel)]
#[sea_orm(table_name = "listing_changes")]
pub struct Model {
    #[sea_orm(primary_key)]
    pub seq: i64,
    pub listing_id: i64,
}

#[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
pub enum Relation {}

impl ActiveModelBehavior for ActiveModel {}
