//! Table `vat_rates`: each country's standard VAT rate from a date on, in basis points.

use sea_orm::entity::prelude::*;

#[derive(Clone, Debug, PartialEq, Eq, DeriveEntityModel)]
#[sea_orm(table_name = "vat_rates")]
pub struct Model {
    #[sea_orm(primary_key)]
    pub id: i64,
    pub country: String,
    pub rate_basis_points: i32,
    pub valid_from: TimeDate,
}

#[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
pub enum Relation {}

impl ActiveModelBehavior for ActiveModel {}
