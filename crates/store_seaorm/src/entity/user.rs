//! Table `users`.

use sea_orm::entity::prelude::*;

#[derive(Clone, Debug, PartialEq, Eq, DeriveEntityModel)]
#[sea_orm(table_name = "users")]
pub struct Model {
    #[sea_orm(primary_key)]
    pub id: i64,
    #[sea_orm(unique)]
    pub email: String,
    pub display_name: String,
    pub blocked: bool,
    /// argon2id PHC string; null for accounts made without a password (CLI).
    pub password_hash: Option<String>,
    pub created_at: TimeDateTimeWithTimeZone,
    /// When the account proved its e-mail address.
    pub email_confirmed_at: Option<TimeDateTimeWithTimeZone>,
    /// Opens the admin pages.
    pub is_admin: bool,
}

#[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
pub enum Relation {}

impl ActiveModelBehavior for ActiveModel {}
