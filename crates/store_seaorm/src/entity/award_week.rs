//! Table `award_weeks`: one row per week whose awards are fixed; its key makes the fixing
//! happen once however many processes try.

use sea_orm::entity::prelude::*;

#[derive(Clone, Debug, PartialEq, Eq, DeriveEntityModel)]
#[sea_orm(table_name = "award_weeks")]
pub struct Model {
    #[sea_orm(primary_key, auto_increment = false)]
    pub week: TimeDate,
    pub fixed_at: TimeDateTimeWithTimeZone,
    pub winners: i32,
}

#[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
pub enum Relation {}

impl ActiveModelBehavior for ActiveModel {}
