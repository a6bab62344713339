//! Table `drafts`: the draft as one JSON document, with the columns queries need beside it.
//! `version` is bumped on every write (optimistic locking between callers and jobs).

use sea_orm::entity::prelude::*;

#[derive(Clone, Debug, PartialEq, Eq, DeriveEntityModel)]
#[sea_orm(table_name = "drafts")]
pub struct Model {
    #[sea_orm(primary_key, auto_increment = false)]
    pub id: String,
    pub owner_user_id: i64,
    pub status: String,
    pub document: Json,
    /// What the site reader found, for redrafts.
    pub snapshot: Option<Json>,
    pub version: i64,
    pub created_at: TimeDateTimeWithTimeZone,
    pub updated_at: TimeDateTimeWithTimeZone,
}

#[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
pub enum Relation {}

impl ActiveModelBehavior for ActiveModel {}
