//! `VatRateRepository` over SeaORM: each country's standard rate from a date on.

use super::orders_repo::corrupt;
use crate::entity::vat_rate;
use crate::{SeaStore, repo_err};
use async_trait::async_trait;
use kernel::{CountryCode, RepoError};
use orders::{VatRate, VatRateEntry, VatRateRepository};
use sea_orm::sea_query::OnConflict;
use sea_orm::{ColumnTrait, EntityTrait, QueryFilter, QueryOrder, Set};
use time::Date;

#[async_trait]
impl VatRateRepository for SeaStore {
    async fn rate_on(&self, country: &CountryCode, day: Date) -> Result<Option<VatRate>, RepoError> {
        let row = vat_rate::Entity::find()
            .filter(vat_rate::Column::Country.eq(country.as_str()))
            .filter(vat_rate::Column::ValidFrom.lte(day))
            .order_by_desc(vat_rate::Column::ValidFrom)
            .one(&self.db)
            .await
            .map_err(repo_err)?;
        row.map(|row| {
            VatRate::from_basis_points(u32::try_from(row.rate_basis_points).unwrap_or(u32::MAX))
                .ok_or_else(|| corrupt("vat_rates.rate_basis_points", &row.rate_basis_points.to_string()))
        })
        .transpose()
    }

    async fn list(&self) -> Result<Vec<VatRateEntry>, RepoError> {
        vat_rate::Entity::find()
            .order_by_asc(vat_rate::Column::Country)
            .order_by_asc(vat_rate::Column::ValidFrom)
            .all(&self.db)
            .await
            .map_err(repo_err)?
            .into_iter()
            .map(|row| {
                Ok(VatRateEntry {
                    country: CountryCode::parse(&row.country).map_err(|_| corrupt("vat_rates.country", &row.country))?,
                    rate: VatRate::from_basis_points(u32::try_from(row.rate_basis_points).unwrap_or(u32::MAX))
                        .ok_or_else(|| corrupt("vat_rates.rate_basis_points", &row.rate_basis_points.to_string()))?,
                    valid_from: row.valid_from,
                })
            })
            .collect()
    }

    async fn set(&self, entry: &VatRateEntry) -> Result<(), RepoError> {
        let row = vat_rate::ActiveModel {
            country: Set(entry.country.as_str().to_owned()),
            rate_basis_points: Set(i32::try_from(entry.rate.basis_points()).unwrap_or(i32::MAX)),
            valid_from: Set(entry.valid_from),
            ..Default::default()
        };
        vat_rate::Entity::insert(row)
            .on_conflict(
                OnConflict::columns([vat_rate::Column::Country, vat_rate::Column::ValidFrom])
                    .update_column(vat_rate::Column::RateBasisPoints)
                    .to_owned(),
            )
            .exec(&self.db)
            .await
            .map_err(repo_err)?;
        Ok(())
    }
}
