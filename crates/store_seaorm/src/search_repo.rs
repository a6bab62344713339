//! `SearchSource` over SeaORM: what changed for the index, and the listings passing filters.

use crate::entity::{listing, listing_category, listing_follow};
use crate::{SeaStore, repo_err};
use async_trait::async_trait;
use kernel::{ListingId, PageRequest, Paged, RepoError};
use listings::{Candidate, DbOrder, SearchChanges, SearchDoc, SearchFilter, SearchSource};
use sea_orm::sea_query::{Expr, ExprTrait, Func, Query};
use sea_orm::{ColumnTrait, EntityTrait, Order, PaginatorTrait, QueryFilter, QueryOrder, QuerySelect};
use std::collections::HashMap;
use time::{OffsetDateTime, UtcOffset};

const PUBLIC: [&str; 3] = ["live", "scheduled", "awaiting_badge"];

/// The listings passing `filter`; `None` when nothing can pass (an empty match list).
fn filtered(filter: &SearchFilter) -> Option<sea_orm::Select<listing::Entity>> {
    let statuses: &[&str] = if filter.upcoming { &["scheduled", "awaiting_badge"] } else { &["live"] };
    let mut query = listing::Entity::find().filter(listing::Column::Status.is_in(statuses.iter().copied()));
    if let Some(ids) = &filter.ids {
        if ids.is_empty() {
            return None;
        }
        query = query.filter(listing::Column::Id.is_in(ids.iter().map(|id| id.get())));
    }
    if let Some(categories) = &filter.categories {
        let in_categories = Query::select()
            .column(listing_category::Column::ListingId)
            .from(listing_category::Entity)
            .and_where(Expr::col(listing_category::Column::CategoryId).is_in(categories.iter().map(|id| id.get())))
            .to_owned();
        query = query.filter(listing::Column::Id.in_subquery(in_categories));
    }
    if let Some(stage) = &filter.stage {
        query = query.filter(listing::Column::Stage.eq(stage.as_str()));
    }
    if let Some(country) = &filter.country {
        query = query.filter(listing::Column::Country.eq(country.as_str()));
    }
    if let Some(model) = &filter.pricing_model {
        query = query.filter(Expr::expr(Func::lower(Expr::col(listing::Column::PricingModel))).eq(model.to_lowercase()));
    }
    if let Some(domain) = &filter.domain {
        let domain = domain.trim().trim_end_matches('.').to_lowercase();
        let bare = domain.strip_prefix("www.").unwrap_or(&domain).to_owned();
        query = query.filter(
            sea_orm::Condition::any()
                .add(Expr::expr(Func::lower(Expr::col(listing::Column::Domain))).eq(bare.clone()))
                .add(Expr::expr(Func::lower(Expr::col(listing::Column::Domain))).eq(format!("www.{bare}"))),
        );
    }
    Some(query)
}

#[async_trait]
impl SearchSource for SeaStore {
    async fn changes_since(&self, since: Option<OffsetDateTime>) -> Result<SearchChanges, RepoError> {
        let mut query = listing::Entity::find().order_by_asc(listing::Column::UpdatedAt).order_by_asc(listing::Column::Id);
        if let Some(since) = since {
            // `>=`: rows written in the same instant as the last one seen are read again, so
            // none is missed; re-indexing one is harmless.
            query = query.filter(listing::Column::UpdatedAt.gte(since.to_offset(UtcOffset::UTC)));
        }
        let rows = query.all(&self.db).await.map_err(repo_err)?;
        let mut changes = SearchChanges { watermark: rows.iter().map(|row| row.updated_at).max().or(since), ..SearchChanges::default() };
        for row in rows {
            let id = ListingId::new(row.id);
            if !PUBLIC.contains(&row.status.as_str()) {
                changes.removed.push(id);
                continue;
            }
            let keywords: Vec<String> = row.keywords.clone().and_then(|k| serde_json::from_value(k).ok()).unwrap_or_default();
            let upcoming = row.status != "live";
            changes.upserts.push(SearchDoc {
                id,
                name: row.name,
                tagline: row.tagline.unwrap_or_default(),
                description: [row.short_description.unwrap_or_default(), row.description.unwrap_or_default()].join("\n"),
                keywords,
                upcoming,
            });
        }
        Ok(changes)
    }

    async fn candidates(&self, filter: &SearchFilter) -> Result<Vec<Candidate>, RepoError> {
        let Some(query) = filtered(filter) else { return Ok(Vec::new()) };
        let query = query
            .select_only()
            .column(listing::Column::Id)
            .column(listing::Column::VotesCount)
            .column(listing::Column::ViewsCount)
            .column(listing::Column::LaunchedAt)
            .column(listing::Column::CreatedAt);
        let rows: Vec<(i64, i64, i64, Option<OffsetDateTime>, OffsetDateTime)> =
            query.into_tuple().all(&self.db).await.map_err(repo_err)?;
        Ok(rows
            .into_iter()
            .map(|(id, votes, views, launched_at, created_at)| Candidate {
                id: ListingId::new(id),
                votes: u64::try_from(votes).unwrap_or(0),
                views: u64::try_from(views).unwrap_or(0),
                published_at: launched_at.unwrap_or(created_at),
            })
            .collect())
    }

    async fn page(&self, filter: &SearchFilter, order: DbOrder, page: PageRequest) -> Result<Paged<ListingId>, RepoError> {
        let Some(query) = filtered(filter) else { return Ok(Paged::new(Vec::new(), page, 0)) };
        let total = query.clone().count(&self.db).await.map_err(repo_err)?;
        let query = match order {
            DbOrder::Votes => query.order_by_desc(listing::Column::VotesCount),
            DbOrder::Newest => query.order_by(
                Expr::expr(Func::coalesce([Expr::col(listing::Column::LaunchedAt), Expr::col(listing::Column::CreatedAt)])),
                Order::Desc,
            ),
            DbOrder::Views => query.order_by_desc(listing::Column::ViewsCount),
        };
        let ids: Vec<i64> = query
            .order_by_asc(listing::Column::Id)
            .select_only()
            .column(listing::Column::Id)
            .offset(page.offset())
            .limit(u64::from(page.per_page()))
            .into_tuple()
            .all(&self.db)
            .await
            .map_err(repo_err)?;
        Ok(Paged::new(ids.into_iter().map(ListingId::new).collect(), page, total))
    }

    async fn followers(&self, ids: &[ListingId]) -> Result<HashMap<ListingId, u64>, RepoError> {
        if ids.is_empty() {
            return Ok(HashMap::new());
        }
        let counts: Vec<(i64, i64)> = listing_follow::Entity::find()
            .select_only()
            .column(listing_follow::Column::ListingId)
            .column_as(Expr::col(listing_follow::Column::UserId).count(), "followers")
            .filter(listing_follow::Column::ListingId.is_in(ids.iter().map(|id| id.get())))
            .group_by(listing_follow::Column::ListingId)
            .into_tuple()
            .all(&self.db)
            .await
            .map_err(repo_err)?;
        Ok(counts.into_iter().map(|(id, n)| (ListingId::new(id), u64::try_from(n).unwrap_or(0))).collect())
    }
}
