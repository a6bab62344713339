//! Table `jobs`: the durable background job queue.

use sea_orm::entity::prelude::*;

#[derive(Clone, Debug, PartialEq, Eq, DeriveEntityModel)]
#[sea_orm(table_name = "jobs")]
pub struct Model {
    #[sea_orm(primary_key)]
    pub id: i64,
    pub kind: String,
    pub payload: Json,
    #[sea_orm(unique)]
    pub unique_key: Option<String>,
    /// `queued`, `running`, `done` or `failed`.
    pub state: String,
    pub run_at: TimeDateTimeWithTimeZone,
    pub attempts: i32,
    pub max_attempts: i32,
    /// While running: the lease; past it, another worker may take the job over.
    pub locked_until: Option<TimeDateTimeWithTimeZone>,
    pub locked_by: Option<String>,
    pub last_error: Option<String>,
    pub created_at: TimeDateTimeWithTimeZone,
    pub finished_at: Option<TimeDateTimeWithTimeZone>,
}

#[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
pub enum Relation {}

impl ActiveModelBehavior for ActiveModel {}
