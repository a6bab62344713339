//! Table `order_lines`: one product of an order, its price snapshot and whether it is fulfilled.

use sea_orm::entity::prelude::*;

#[derive(Clone, Debug, PartialEq, Eq, DeriveEntityModel)]
#[sea_orm(table_name = "order_lines")]
pub struct Model {
    #[sea_orm(primary_key)]
    pub id: i64,
    pub order_id: i64,
    pub position: i32,
    pub product_code: String,
    pub product_name: String,
    pub listing_id: Option<i64>,
    pub week: Option<TimeDate>,
    pub amount_cents: Option<i64>,
    pub categories: Json,
    pub options: Option<Json>,
    pub subtotal_cents: i64,
    pub vat_cents: i64,
    pub total_cents: i64,
    pub fulfilled: bool,
    pub fulfilled_at: Option<TimeDateTimeWithTimeZone>,
    pub outcome: Option<String>,
}

#[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
pub enum Relation {}

impl ActiveModelBehavior for ActiveModel {}
