//! Table `order_tasks`: work the site team does for a paid line (an AI review, a done-for-you launch).

use sea_orm::entity::prelude::*;

#[derive(Clone, Debug, PartialEq, Eq, DeriveEntityModel)]
#[sea_orm(table_name = "order_tasks")]
pub struct Model {
    #[sea_orm(primary_key)]
    pub id: i64,
    pub order_line_id: i64,
    pub kind: String,
    pub status: String,
    pub created_at: TimeDateTimeWithTimeZone,
    pub done_at: Option<TimeDateTimeWithTimeZone>,
}

#[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
pub enum Relation {}

impl ActiveModelBehavior for ActiveModel {}
