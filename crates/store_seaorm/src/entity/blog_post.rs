//! Table `blog_posts`: a post is public once `published_at` has passed.

use sea_orm::entity::prelude::*;

#[derive(Clone, Debug, PartialEq, Eq, DeriveEntityModel)]
#[sea_orm(table_name = "blog_posts")]
pub struct Model {
    #[sea_orm(primary_key)]
    pub id: i64,
    #[sea_orm(unique)]
    pub slug: String,
    pub title: String,
    pub summary: String,
    pub body_markdown: String,
    /// `[{"question", "answer"}]`
    pub faqs: Json,
    pub author_name: String,
    /// `["launching", ...]`
    pub tags: Json,
    pub published_at: Option<TimeDateTimeWithTimeZone>,
    pub updated_at: TimeDateTimeWithTimeZone,
}

#[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
pub enum Relation {}

impl ActiveModelBehavior for ActiveModel {}
