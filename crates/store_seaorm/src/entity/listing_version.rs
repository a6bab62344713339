//! Table `listing_versions`: one row per owner edit of a listing, with the editable copy
//! before and after it (for the version history and the site team's review).

use sea_orm::entity::prelude::*;

#[derive(Clone, Debug, PartialEq, Eq, DeriveEntityModel)]
#[sea_orm(table_name = "listing_versions")]
pub struct Model {
    #[sea_orm(primary_key)]
    pub id: i64,
    pub listing_id: i64,
    /// Who made the edit; null once the account is deleted.
    pub editor_user_id: Option<i64>,
    /// `["tagline", "socials", ...]`: the keys the edit changed.
    pub changed: Json,
    pub before: Json,
    pub after: Json,
    pub created_at: TimeDateTimeWithTimeZone,
}

#[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
pub enum Relation {}

impl ActiveModelBehavior for ActiveModel {}
