//! Table `claims`: ownership claims, their token (dns, meta, file) or the hash of their e-mailed
//! link, and their latest check.

use sea_orm::entity::prelude::*;

#[derive(Clone, Debug, PartialEq, Eq, DeriveEntityModel)]
#[sea_orm(table_name = "claims")]
pub struct Model {
    #[sea_orm(primary_key)]
    pub id: i64,
    pub listing_id: i64,
    pub claimant_user_id: i64,
    pub method: String,
    pub status: String,
    pub token: Option<String>,
    pub email: Option<String>,
    /// SHA-256 of the e-mailed link's token; the token itself is never stored.
    pub link_hash: Option<String>,
    pub link_sent_at: Option<TimeDateTimeWithTimeZone>,
    pub created_at: TimeDateTimeWithTimeZone,
    pub verified_at: Option<TimeDateTimeWithTimeZone>,
    pub last_checked_at: Option<TimeDateTimeWithTimeZone>,
    pub last_outcome: Option<String>,
    pub last_looked_at: Option<String>,
    pub last_found: Option<String>,
    pub proof_missing_since: Option<TimeDateTimeWithTimeZone>,
}

#[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
pub enum Relation {}

impl ActiveModelBehavior for ActiveModel {}
