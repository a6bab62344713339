//! Table `listing_documents`: each listing's kept profile parts as one JSON document, and the
//! revision triggers move on whenever a part changes (see `shared::documents`, migration 25).

use sea_orm::entity::prelude::*;

#[derive(Clone, Debug, PartialEq, Eq, DeriveEntityModel)]
#[sea_orm(table_name = "listing_documents")]
pub struct Model {
    #[sea_orm(primary_key, auto_increment = false)]
    pub listing_id: i64,
    /// Moved on by a trigger in every transaction that writes a part of the profile.
    pub revision: i64,
    /// The revision `body` was built at; current when it is `revision`.
    pub built_revision: Option<i64>,
    #[sea_orm(column_type = "Text", nullable)]
    pub body: Option<String>,
}

#[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
pub enum Relation {}

impl ActiveModelBehavior for ActiveModel {}
