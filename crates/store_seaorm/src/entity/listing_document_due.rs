//! Table `listing_documents_due`: listings whose kept document is missing or older than its
//! listing's revision, put here by triggers and taken off by the task that builds documents.

use sea_orm::entity::prelude::*;

#[derive(Clone, Debug, PartialEq, Eq, DeriveEntityModel)]
#[sea_orm(table_name = "listing_documents_due")]
pub struct Model {
    #[sea_orm(primary_key, auto_increment = false)]
    pub listing_id: i64,
}

#[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
pub enum Relation {}

impl ActiveModelBehavior for ActiveModel {}
