//! Table `document_counters`: the last number each document series (`INV`, `CN`) gave out.

use sea_orm::entity::prelude::*;

#[derive(Clone, Debug, PartialEq, Eq, DeriveEntityModel)]
#[sea_orm(table_name = "document_counters")]
pub struct Model {
    #[sea_orm(primary_key, auto_increment = false)]
    pub series: String,
    pub last_value: i64,
}

#[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
pub enum Relation {}

impl ActiveModelBehavior for ActiveModel {}
