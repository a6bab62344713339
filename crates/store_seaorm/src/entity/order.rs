//! Table `orders`: an order with its totals, VAT, billing details, checkout token hash and payment.

use sea_orm::entity::prelude::*;

#[derive(Clone, Debug, PartialEq, Eq, DeriveEntityModel)]
#[sea_orm(table_name = "orders")]
pub struct Model {
    #[sea_orm(primary_key)]
    pub id: i64,
    #[sea_orm(unique)]
    pub number: String,
    pub user_id: i64,
    pub status: String,
    pub status_reason: Option<String>,
    pub currency: String,
    pub subtotal_cents: i64,
    pub vat_cents: i64,
    pub total_cents: i64,
    pub vat_rate_basis_points: i32,
    pub vat_treatment: String,
    pub reverse_charge: bool,
    pub vat_number_check: String,
    pub billing_name: Option<String>,
    pub billing_address: Option<String>,
    pub billing_country: Option<String>,
    pub vat_number: Option<String>,
    pub token_hash: String,
    pub provider: Option<String>,
    pub provider_session: Option<String>,
    pub payment_id: Option<String>,
    pub paid_cents: Option<i64>,
    pub paid_currency: Option<String>,
    pub created_at: TimeDateTimeWithTimeZone,
    pub updated_at: TimeDateTimeWithTimeZone,
    pub expires_at: TimeDateTimeWithTimeZone,
    pub paid_at: Option<TimeDateTimeWithTimeZone>,
    pub refunded_at: Option<TimeDateTimeWithTimeZone>,
}

#[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
pub enum Relation {}

impl ActiveModelBehavior for ActiveModel {}
