//! `FeedRepository` over SeaORM.

use crate::entity::{listing, vote};
use crate::shared::positions::{RankKind, Ranked, counted_page};
use crate::shared::rows::SummaryRow;
use crate::{SeaStore, repo_err, utc};
use async_trait::async_trait;
use kernel::{ListingId, PageRequest, Paged, RepoError, Slug, Week};
use listings::{FeedRepository, ListingSummary};
use sea_orm::{ColumnTrait, EntityTrait, FromQueryResult, QueryFilter, QueryOrder, QuerySelect, Select};
use std::collections::HashMap;
use time::OffsetDateTime;

/// How a feed finds the listings of a page.
enum Walk {
    /// A ranked list: from the page's remembered position when there is one.
    Ranked(Ranked<listing::Entity>),
    /// Any other order (already applied) of a short list (the queue of upcoming launches):
    /// the page by offset, its rows and the count of the whole list in one statement.
    Ordered(Select<listing::Entity>),
}

/// A ranked feed: the live listings `base` finds, `by` highest first, then by id.
fn ranked(base: Select<listing::Entity>, by: listing::Column, kind: RankKind) -> Walk {
    Walk::Ranked(Ranked::highest_first(base.filter(listing::Column::Status.eq("live")), by, kind, listing::Column::Id))
}

/// A feed's row: a summary's columns and the values the feeds show beside it.
#[derive(Debug, sea_orm::FromQueryResult)]
struct FeedRow {
    #[sea_orm(nested)]
    summary: SummaryRow,
    launched_at: Option<OffsetDateTime>,
    created_at: OffsetDateTime,
    views_count: i64,
    follows_count: i64,
}

impl SeaStore {
    /// Runs a listing query for one page, reading just what a summary and `extra` need.
    /// `total`: how many the query finds when the directory's counts know it (else counted).
    async fn listing_page<T>(
        &self,
        walk: Walk,
        page: PageRequest,
        total: Option<u64>,
        extra: impl Fn(&FeedRow) -> T,
    ) -> Result<Paged<(ListingSummary, T)>, RepoError> {
        let feed_columns = |query: Select<listing::Entity>| {
            query.columns([
                listing::Column::LaunchedAt,
                listing::Column::CreatedAt,
                listing::Column::ViewsCount,
                listing::Column::FollowsCount,
            ])
        };
        let mut listed_total = None;
        let (rows, query) = match walk {
            // The page and its listings in one statement.
            Walk::Ranked(ranked) => {
                let query = ranked.base.clone();
                (ranked.page_of::<FeedRow, _>(&self.db, &self.positions, page, feed_columns(SummaryRow::select())).await?, query)
            }
            Walk::Ordered(query) => {
                let (rows, listed) = counted_page(&self.db, feed_columns(SummaryRow::of(query.clone())), page).await?;
                listed_total = Some(listed);
                let rows = rows.iter().map(|row| FeedRow::from_query_result(row, "").map_err(repo_err)).collect::<Result<_, _>>()?;
                (rows, query)
            }
        };
        let total = match total.or(listed_total) {
            Some(total) => total,
            None => crate::shared::total_after(&self.db, query, page, rows.len()).await?,
        };
        let items = rows
            .into_iter()
            .map(|row| {
                let extra = extra(&row);
                Ok((row.summary.into_summary()?, extra))
            })
            .collect::<Result<_, RepoError>>()?;
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
        let between =
            listing::Entity::find().filter(listing::Column::LaunchedAt.gte(utc(from))).filter(listing::Column::LaunchedAt.lt(utc(to)));
        self.listing_page(ranked(between, listing::Column::VotesCount, RankKind::Count), page, None, |row| {
            row.launched_at.unwrap_or(row.created_at)
        })
        .await
    }

    async fn recent(&self, page: PageRequest, total: u64) -> Result<Paged<(ListingSummary, OffsetDateTime)>, RepoError> {
        let launched = listing::Entity::find().filter(listing::Column::LaunchedAt.is_not_null());
        self.listing_page(ranked(launched, listing::Column::LaunchedAt, RankKind::Time), page, Some(total), |row| {
            row.launched_at.unwrap_or(row.created_at)
        })
        .await
    }

    async fn by_views(&self, page: PageRequest, total: u64) -> Result<Paged<(ListingSummary, u64)>, RepoError> {
        self.listing_page(ranked(listing::Entity::find(), listing::Column::ViewsCount, RankKind::Count), page, Some(total), |row| {
            u64::try_from(row.views_count).unwrap_or(0)
        })
        .await
    }

    async fn by_follows(&self, page: PageRequest, total: u64) -> Result<Paged<(ListingSummary, u64)>, RepoError> {
        let followed = listing::Entity::find().filter(listing::Column::FollowsCount.gt(0));
        self.listing_page(ranked(followed, listing::Column::FollowsCount, RankKind::Count), page, Some(total), |row| {
            u64::try_from(row.follows_count).unwrap_or(0)
        })
        .await
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
        Ok(self.listing_page(Walk::Ordered(query), page, None, |_| ()).await?.map(|(summary, ())| summary))
    }

    async fn live_votes_since(&self, since: OffsetDateTime) -> Result<Vec<(ListingId, OffsetDateTime)>, RepoError> {
        let rows: Vec<(i64, OffsetDateTime)> = vote::Entity::find()
            .select_only()
            .column(vote::Column::ListingId)
            .column(vote::Column::CreatedAt)
            .filter(vote::Column::CreatedAt.gte(utc(since)))
            // Trending follows counted votes only.
            .filter(vote::Column::Counted.eq(true))
            .filter(crate::listing_is_live(vote::Entity, vote::Column::ListingId))
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

    async fn summaries_by_slug(&self, slugs: &[Slug]) -> Result<HashMap<Slug, ListingSummary>, RepoError> {
        if slugs.is_empty() {
            return Ok(HashMap::new());
        }
        let rows = SummaryRow::select()
            .filter(listing::Column::Slug.is_in(slugs.iter().map(|slug| slug.as_str().to_owned())))
            .into_model::<SummaryRow>()
            .all(&self.db)
            .await
            .map_err(repo_err)?;
        rows.into_iter()
            .map(|row| {
                let summary = row.into_summary()?;
                Ok((summary.slug.clone(), summary))
            })
            .collect()
    }
}
