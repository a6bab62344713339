//! Table `oauth_tokens`: access and refresh tokens, by the SHA-256 of the token.

use sea_orm::entity::prelude::*;

#[derive(Clone, Debug, PartialEq, Eq, DeriveEntityModel)]
#[sea_orm(table_name = "oauth_tokens")]
pub struct Model {
    #[sea_orm(primary_key)]
    pub id: i64,
    #[sea_orm(unique)]
    pub token_hash: String,
    /// `access` or `refresh`.
    pub kind: String,
    pub client_id: String,
    pub user_id: i64,
    pub scopes: String,
    /// The audience.
    pub resource: String,
    /// Tokens of one authorization share a family (revoked together on refresh reuse).
    pub family: String,
    pub created_at: TimeDateTimeWithTimeZone,
    pub expires_at: TimeDateTimeWithTimeZone,
    pub used_at: Option<TimeDateTimeWithTimeZone>,
    pub revoked_at: Option<TimeDateTimeWithTimeZone>,
}

#[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
pub enum Relation {}

impl ActiveModelBehavior for ActiveModel {}
