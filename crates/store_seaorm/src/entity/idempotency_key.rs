//! Table `idempotency_keys`: requests remembered by their `Idempotency-Key`.

use sea_orm::entity::prelude::*;

#[derive(Clone, Debug, PartialEq, Eq, DeriveEntityModel)]
#[sea_orm(table_name = "idempotency_keys")]
pub struct Model {
    #[sea_orm(primary_key)]
    pub id: i64,
    pub principal: String,
    pub operation: String,
    pub key: String,
    /// SHA-256 of method, path and canonical JSON body.
    pub fingerprint: String,
    /// `in_flight` or `done`.
    pub state: String,
    pub response_status: Option<i32>,
    pub response_body: Option<Json>,
    pub created_at: TimeDateTimeWithTimeZone,
}

#[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
pub enum Relation {}

impl ActiveModelBehavior for ActiveModel {}
