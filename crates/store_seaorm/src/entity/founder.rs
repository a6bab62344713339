//! Table `founders`.

use sea_orm::entity::prelude::*;

#[derive(Clone, Debug, PartialEq, Eq, DeriveEntityModel)]
#[sea_orm(table_name = "founders")]
pub struct Model {
    #[sea_orm(primary_key)]
    pub id: i64,
    #[sea_orm(unique)]
    pub slug: String,
    pub name: String,
    pub title: Option<String>,
    pub bio: Option<String>,
    pub country: Option<String>,
    /// A `kernel::ImageRef` we keep.
    pub avatar: Option<String>,
    /// `{"x": "https://...", ...}`
    pub socials: Json,
    pub created_at: TimeDateTimeWithTimeZone,
}

#[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
pub enum Relation {}

impl ActiveModelBehavior for ActiveModel {}
