//! Table `oauth_codes`: authorization codes, by the SHA-256 of the code; used once.

use sea_orm::entity::prelude::*;

#[derive(Clone, Debug, PartialEq, Eq, DeriveEntityModel)]
#[sea_orm(table_name = "oauth_codes")]
pub struct Model {
    #[sea_orm(primary_key, auto_increment = false)]
    pub code_hash: String,
    pub client_id: String,
    pub user_id: i64,
    pub redirect_uri: String,
    pub scopes: String,
    pub resource: String,
    pub code_challenge: String,
    pub expires_at: TimeDateTimeWithTimeZone,
    pub used_at: Option<TimeDateTimeWithTimeZone>,
    /// The token family its exchange issued (revoked if the code is presented again).
    pub family: Option<String>,
    pub created_at: TimeDateTimeWithTimeZone,
}

#[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
pub enum Relation {}

impl ActiveModelBehavior for ActiveModel {}
