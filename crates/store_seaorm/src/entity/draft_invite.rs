//! Table `draft_invites`: co-founder invitations; only the token's SHA-256 is kept.

use sea_orm::entity::prelude::*;

#[derive(Clone, Debug, PartialEq, Eq, DeriveEntityModel)]
#[sea_orm(table_name = "draft_invites")]
pub struct Model {
    #[sea_orm(primary_key)]
    pub id: i64,
    pub draft_id: String,
    pub email: String,
    pub token_hash: String,
    pub created_at: TimeDateTimeWithTimeZone,
    /// When the invited person added their profile (the link works once).
    pub accepted_at: Option<TimeDateTimeWithTimeZone>,
    pub accepted_by: Option<i64>,
}

#[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
pub enum Relation {}

impl ActiveModelBehavior for ActiveModel {}
