//! `FeedRepository` over SeaORM.

use crate::entity::{listing, listing_follow, vote};
use crate::{SeaStore, repo_err, utc};
use async_trait::async_trait;
use kernel::{ListingId, PageRequest, Paged, RepoError, Week};
use listings::{FeedRepository, ListingSummary};
use sea_orm::sea_query::{Expr, ExprTrait, Query, SelectStatement};
use sea_orm::{ColumnTrait, EntityTrait, Order, QueryFilter, QueryOrder, QuerySelect, Select};
use std::collections::HashMap;
use time::OffsetDateTime;

fn live_ids() -> SelectStatement {
    Query::select().column(listing::Column::Id).from(listing::Entity).and_where(Expr::col(listing::Column::Status).eq("live")).to_owned()
}

impl SeaStore {
    /// Runs a listing query for one page and turns the rows into summaries with `extra`.
    async fn listing_page<T>(
        &self,
        query: Select<listing::Entity>,
        page: PageRequest,
        extra: impl Fn(&listing::Model) -> T,
    ) -> Result<Paged<(ListingSummary, T)>, RepoError> {
        let (rows, total) = crate::fetch_page(&self.db, query, page).await?;
        let ids: Vec<i64> = rows.iter().map(|row| row.id).collect();
        let mut summaries = self.summaries_by_id(&ids).await?;
        let items = rows.iter().filter_map(|row| Some((summaries.remove(&row.id)?, extra(row)))).collect();
        Ok(Paged::new(items, page, total))
    }
}

#[async_trait]
impl FeedRepository for SeaStore {
    async fn launched_between(
        &self,
        from: OffsetDateTime,
        to: OffsetDateTime,
        page: PageRequest,
    ) -> Result<Paged<(ListingSummary, OffsetDateTime)>, RepoError> {
        let query = listing::Entity::find()
            .filter(listing::Column::Status.eq("live"))
            .filter(listing::Column::LaunchedAt.gte(utc(from)))
            .filter(listing::Column::LaunchedAt.lt(utc(to)))
            .order_by_desc(listing::Column::VotesCount)
            .order_by_asc(listing::Column::Id);
        self.listing_page(query, page, |row| row.launched_at.unwrap_or(row.created_at)).await
    }

    async fn recent(&self, page: PageRequest) -> Result<Paged<(ListingSummary, OffsetDateTime)>, RepoError> {
        let query = listing::Entity::find()
            .filter(listing::Column::Status.eq("live"))
            .filter(listing::Column::LaunchedAt.is_not_null())
            .order_by_desc(listing::Column::LaunchedAt)
            .order_by_asc(listing::Column::Id);
        self.listing_page(query, page, |row| row.launched_at.unwrap_or(row.created_at)).await
    }

    async fn by_views(&self, page: PageRequest) -> Result<Paged<(ListingSummary, u64)>, RepoError> {
        let query = listing::Entity::find()
            .filter(listing::Column::Status.eq("live"))
            .order_by_desc(listing::Column::ViewsCount)
            .order_by_asc(listing::Column::Id);
        self.listing_page(query, page, |row| u64::try_from(row.views_count).unwrap_or(0)).await
    }

    async fn by_follows(&self, page: PageRequest) -> Result<Paged<(ListingSummary, u64)>, RepoError> {
        let base = listing_follow::Entity::find().filter(listing_follow::Column::ListingId.in_subquery(live_ids()));
        let total = base
            .clone()
            .select_only()
            .column_as(Expr::col(listing_follow::Column::ListingId).count_distinct(), "listings")
            .into_tuple::<i64>()
            .one(&self.db)
            .await
            .map_err(repo_err)?
            .unwrap_or(0);
        let ranked: Vec<(i64, i64)> = base
            .select_only()
            .column(listing_follow::Column::ListingId)
            .column_as(Expr::col(listing_follow::Column::UserId).count(), "follows")
            .group_by(listing_follow::Column::ListingId)
            .order_by(Expr::col(listing_follow::Column::UserId).count(), Order::Desc)
            .order_by_asc(listing_follow::Column::ListingId)
            .offset(page.offset())
            .limit(u64::from(page.per_page()))
            .into_tuple()
            .all(&self.db)
            .await
            .map_err(repo_err)?;
        let ids: Vec<i64> = ranked.iter().map(|(id, _)| *id).collect();
        let mut summaries = self.summaries_by_id(&ids).await?;
        let items =
            ranked.into_iter().filter_map(|(id, follows)| Some((summaries.remove(&id)?, u64::try_from(follows).unwrap_or(0)))).collect();
        Ok(Paged::new(items, page, u64::try_from(total).unwrap_or(0)))
    }

    async fn upcoming(&self, from: Week, page: PageRequest) -> Result<Paged<ListingSummary>, RepoError> {
        // 'scheduled' sorts after 'awaiting_badge', so descending puts scheduled first.
        let query = listing::Entity::find()
            .filter(listing::Column::Status.is_in(["scheduled", "awaiting_badge"]))
            .filter(listing::Column::LaunchWeek.gte(from.monday()))
            .order_by_asc(listing::Column::LaunchWeek)
            .order_by_desc(listing::Column::Status)
            .order_by_asc(listing::Column::Name)
            .order_by_asc(listing::Column::Id);
        Ok(self.listing_page(query, page, |_| ()).await?.map(|(summary, ())| summary))
    }

    async fn live_votes_since(&self, since: OffsetDateTime) -> Result<Vec<(ListingId, OffsetDateTime)>, RepoError> {
        let rows: Vec<(i64, OffsetDateTime)> = vote::Entity::find()
            .select_only()
            .column(vote::Column::ListingId)
            .column(vote::Column::CreatedAt)
            .filter(vote::Column::CreatedAt.gte(utc(since)))
            // Trending follows counted votes only.
            .filter(vote::Column::Counted.eq(true))
            .filter(vote::Column::ListingId.in_subquery(live_ids()))
            .into_tuple()
            .all(&self.db)
            .await
            .map_err(repo_err)?;
        Ok(rows.into_iter().map(|(id, at)| (ListingId::new(id), at)).collect())
    }

    async fn summaries(&self, ids: &[ListingId]) -> Result<HashMap<ListingId, ListingSummary>, RepoError> {
        let raw: Vec<i64> = ids.iter().map(|id| id.get()).collect();
        Ok(self.summaries_by_id(&raw).await?.into_iter().map(|(id, summary)| (ListingId::new(id), summary)).collect())
    }
}
