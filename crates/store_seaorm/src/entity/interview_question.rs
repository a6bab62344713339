//! Table `interview_questions`.

use sea_orm::entity::prelude::*;

#[derive(Clone, Debug, PartialEq, Eq, DeriveEntityModel)]
#[sea_orm(table_name = "interview_questions")]
pub struct Model {
    #[sea_orm(primary_key)]
    pub id: i64,
    pub position: i32,
    pub question: String,
    pub hint: Option<String>,
    pub active: bool,
}

#[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
pub enum Relation {}

impl ActiveModelBehavior for ActiveModel {}
