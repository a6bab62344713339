//! `LaunchRepository` over SeaORM.

use crate::entity::{listing, vote};
use crate::shared::rows::SummaryRow;
use crate::{SeaStore, repo_err};
use async_trait::async_trait;
use kernel::{ListingId, RepoError, Week};
use listings::{LaunchRepository, ListingStatus, ListingSummary};
use sea_orm::{ColumnTrait, EntityTrait, QueryFilter, QueryOrder, QuerySelect};
use std::collections::HashMap;
use time::{OffsetDateTime, UtcOffset};

#[async_trait]
impl LaunchRepository for SeaStore {
    async fn launching_in(&self, week: Week, statuses: &[ListingStatus]) -> Result<Vec<ListingSummary>, RepoError> {
        let rows = SummaryRow::select()
            .filter(listing::Column::LaunchWeek.eq(week.monday()))
            .filter(listing::Column::Status.is_in(statuses.iter().map(|status| status.as_str())))
            .order_by_asc(listing::Column::LaunchedAt)
            .order_by_asc(listing::Column::Id)
            .into_model::<SummaryRow>()
            .all(&self.db)
            .await
            .map_err(repo_err)?;
        rows.into_iter().map(SummaryRow::into_summary).collect()
    }

    async fn votes_between(
        &self,
        listings: &[ListingId],
        from: OffsetDateTime,
        to: OffsetDateTime,
    ) -> Result<HashMap<ListingId, u64>, RepoError> {
        if listings.is_empty() {
            return Ok(HashMap::new());
        }
        // Timestamps are stored in UTC; SQLite compares them as text, so bounds must be UTC too.
        let (from, to) = (from.to_offset(UtcOffset::UTC), to.to_offset(UtcOffset::UTC));
        let counts = vote::Entity::find()
            .select_only()
            .column(vote::Column::ListingId)
            .column_as(vote::Column::Id.count(), "received")
            .filter(vote::Column::ListingId.is_in(listings.iter().map(|id| id.get())))
            .filter(vote::Column::CreatedAt.gte(from))
            .filter(vote::Column::CreatedAt.lt(to))
            // The weekly board and the awards rank by counted votes only.
            .filter(vote::Column::Counted.eq(true))
            .group_by(vote::Column::ListingId)
            .into_tuple::<(i64, i64)>()
            .all(&self.db)
            .await
            .map_err(repo_err)?;
        Ok(counts.into_iter().map(|(id, n)| (ListingId::new(id), u64::try_from(n).unwrap_or(0))).collect())
    }

    async fn earliest_live_week(&self) -> Result<Option<Week>, RepoError> {
        let earliest = listing::Entity::find()
            .select_only()
            .column_as(listing::Column::LaunchWeek.min(), "earliest")
            .filter(listing::Column::Status.eq("live"))
            .into_tuple::<Option<time::Date>>()
            .one(&self.db)
            .await
            .map_err(repo_err)?
            .flatten();
        Ok(earliest.map(Week::containing))
    }
}
