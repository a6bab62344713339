//! `AlternativeRepository` over SeaORM.

use crate::entity::{category, listing, listing_alternative};
use crate::shared::rows::{CountedRow, SummaryRow};
use crate::{SeaStore, repo_err};
use async_trait::async_trait;
use kernel::{ListingId, RepoError, Slug};
use listings::{AlternativeRepository, ListingSummary};
use sea_orm::sea_query::{Expr, ExprTrait};
use sea_orm::{ColumnTrait, EntityTrait, QueryFilter, QueryOrder, QuerySelect};

#[async_trait]
impl AlternativeRepository for SeaStore {
    async fn approved(&self, listing_id: ListingId) -> Result<Vec<ListingSummary>, RepoError> {
        let links = listing_alternative::Entity::find()
            .filter(listing_alternative::Column::ListingId.eq(listing_id.get()))
            .filter(listing_alternative::Column::Approved.eq(true))
            .order_by_asc(listing_alternative::Column::Position)
            .order_by_asc(listing_alternative::Column::AlternativeId)
            .all(&self.db)
            .await
            .map_err(repo_err)?;
        let ids: Vec<i64> = links.iter().map(|l| l.alternative_id).collect();
        let summaries = self.summaries_in_order(&ids).await?;
        Ok(summaries.into_iter().filter(|s| s.status == listings::ListingStatus::Live).collect())
    }

    async fn in_primary_category(&self, category: &Slug, exclude: &[ListingId], limit: usize) -> Result<Vec<ListingSummary>, RepoError> {
        // The category's id first, as a value, then its listings by
        // `(primary_category_id, status, votes_count)`, in that order, stopping at `limit`.
        // With the category joined by its slug in one statement, PostgreSQL answered this read
        // at 0.9 % of `/healthz` at 100,000 listings (SQLite 2.6 %): the order of a join's inner
        // index is not one a planner can rely on to stop early.
        let id: Option<i64> = category::Entity::find()
            .select_only()
            .column(category::Column::Id)
            .filter(category::Column::Slug.eq(category.as_str()))
            .into_tuple()
            .one(&self.db)
            .await
            .map_err(repo_err)?;
        let Some(id) = id else { return Ok(Vec::new()) };
        let rows = SummaryRow::select()
            .filter(listing::Column::PrimaryCategoryId.eq(id))
            .filter(listing::Column::Status.eq("live"))
            .filter(listing::Column::Id.is_not_in(exclude.iter().map(|id| id.get())))
            .order_by_desc(listing::Column::VotesCount)
            .order_by_asc(listing::Column::Id)
            .limit(limit as u64)
            .into_model::<SummaryRow>()
            .all(&self.db)
            .await
            .map_err(repo_err)?;
        rows.into_iter().map(SummaryRow::into_summary).collect()
    }

    async fn find(&self, slug: &Slug) -> Result<Option<(ListingSummary, bool)>, RepoError> {
        // The card and its approved alternatives counted, in one statement.
        let approved = Expr::col((listing_alternative::Entity, listing_alternative::Column::Approved)).eq(true);
        let found =
            CountedRow::find(&self.db, slug, listing_alternative::Entity, listing_alternative::Column::ListingId, Some(approved)).await?;
        let Some(row) = found else { return Ok(None) };
        let any_approved = row.counted() > 0;
        Ok(Some((row.summary.into_summary()?, any_approved)))
    }
}
