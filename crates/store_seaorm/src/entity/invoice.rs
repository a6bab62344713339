//! Table `invoices`: each VAT invoice and credit note as issued, numbered in its series.

use sea_orm::entity::prelude::*;

#[derive(Clone, Debug, PartialEq, Eq, DeriveEntityModel)]
#[sea_orm(table_name = "invoices")]
pub struct Model {
    #[sea_orm(primary_key)]
    pub id: i64,
    pub kind: String,
    pub series: String,
    pub sequence: i64,
    #[sea_orm(unique)]
    pub number: String,
    pub order_id: i64,
    pub user_id: i64,
    pub issued_at: TimeDateTimeWithTimeZone,
    pub total_cents: i64,
    pub document: Json,
}

#[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
pub enum Relation {}

impl ActiveModelBehavior for ActiveModel {}
