//! Table `claim_emails`: one row per link an e-mail claim sent, counted by the daily quotas per
//! account and per recipient.

use sea_orm::entity::prelude::*;

#[derive(Clone, Debug, PartialEq, Eq, DeriveEntityModel)]
#[sea_orm(table_name = "claim_emails")]
pub struct Model {
    #[sea_orm(primary_key)]
    pub id: i64,
    pub claim_id: i64,
    pub claimant_user_id: i64,
    /// The address the link went to.
    pub email: String,
    pub created_at: TimeDateTimeWithTimeZone,
}

#[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
pub enum Relation {}

impl ActiveModelBehavior for ActiveModel {}
