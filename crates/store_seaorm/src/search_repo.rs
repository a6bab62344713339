//! `SearchSource` over SeaORM: what changed for the index (read from the `listing_changes`
//! feed), and the listings passing filters.

use crate::entity::{listing, listing_category, listing_change};
use crate::{SeaStore, repo_err};
use async_trait::async_trait;
use kernel::{ListingId, PageRequest, Paged, RepoError};
use listings::{Candidate, DbOrder, SearchChanges, SearchDoc, SearchFilter, SearchSource};
use sea_orm::sea_query::{Expr, ExprTrait, Func, Query};
use sea_orm::{ColumnTrait, EntityTrait, Order, PaginatorTrait, QueryFilter, QueryOrder, QuerySelect};
use time::OffsetDateTime;

const PUBLIC: [&str; 3] = ["live", "scheduled", "awaiting_badge"];

/// The listings passing `filter`; `None` when nothing can pass (an empty match list).
fn filtered(filter: &SearchFilter) -> Option<sea_orm::Select<listing::Entity>> {
    let mut query = if filter.upcoming {
        listing::Entity::find().filter(listing::Column::Status.is_in(["scheduled", "awaiting_badge"]))
    } else {
        listing::Entity::find().filter(listing::Column::Status.eq("live"))
    };
    if let Some(ids) = &filter.ids {
        if ids.is_empty() {
            return None;
        }
        query = query.filter(listing::Column::Id.is_in(ids.iter().map(|id| id.get())));
    }
    if let Some(categories) = &filter.categories {
        let mut in_categories = Query::select()
            .column(listing_category::Column::ListingId)
            .from(listing_category::Entity)
            .and_where(Expr::col(listing_category::Column::CategoryId).is_in(categories.iter().map(|id| id.get())))
            .to_owned();
        // With text matches, only their links are read (by key), not the whole category's.
        if let Some(ids) = &filter.ids {
            in_categories.and_where(Expr::col(listing_category::Column::ListingId).is_in(ids.iter().map(|id| id.get())));
        }
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

/// What the index needs of a listing (never the whole row).
type IndexedRow = (i64, String, String, Option<String>, Option<String>, Option<String>, Option<serde_json::Value>);

fn indexed_columns(query: sea_orm::Select<listing::Entity>) -> sea_orm::Selector<sea_orm::SelectGetableTuple<IndexedRow>> {
    query
        .select_only()
        .column(listing::Column::Id)
        .column(listing::Column::Status)
        .column(listing::Column::Name)
        .column(listing::Column::Tagline)
        .column(listing::Column::ShortDescription)
        .column(listing::Column::Description)
        .column(listing::Column::Keywords)
        .into_tuple()
}

/// Sorts rows into what the index keeps and what it drops.
fn into_changes(rows: Vec<IndexedRow>, changes: &mut SearchChanges) {
    for (id, status, name, tagline, short_description, description, keywords) in rows {
        let id = ListingId::new(id);
        if !PUBLIC.contains(&status.as_str()) {
            changes.removed.push(id);
            continue;
        }
        changes.upserts.push(SearchDoc {
            id,
            name,
            tagline: tagline.unwrap_or_default(),
            description: [short_description.unwrap_or_default(), description.unwrap_or_default()].join("\n"),
            keywords: keywords.and_then(|k| serde_json::from_value(k).ok()).unwrap_or_default(),
            upcoming: status != "live",
        });
    }
}

/// The feed positions kept by the daily purge: far more than any node falls behind while it
/// runs; a node further behind reads its index in full again.
pub(crate) const CHANGES_KEPT: i64 = 100_000;

/// After a full read the index goes on from this many positions before the head: a write that
/// took its position before the head but committed after the read is read again, not missed.
const FULL_READ_OVERLAP: u64 = 1_000;

/// The feed's newest position (`None` while it is empty).
pub(crate) async fn feed_head(db: &impl sea_orm::ConnectionTrait) -> Result<Option<i64>, RepoError> {
    Ok(listing_change::Entity::find()
        .select_only()
        .column_as(listing_change::Column::Seq.max(), "head")
        .into_tuple::<Option<i64>>()
        .one(db)
        .await
        .map_err(repo_err)?
        .flatten())
}

#[async_trait]
impl SearchSource for SeaStore {
    async fn everything(&self) -> Result<SearchChanges, RepoError> {
        let head = u64::try_from(feed_head(&self.db).await?.unwrap_or(0)).unwrap_or(0);
        let mut changes = SearchChanges { head: head.saturating_sub(FULL_READ_OVERLAP), ..SearchChanges::default() };
        let rows = indexed_columns(listing::Entity::find().order_by_asc(listing::Column::Id)).all(&self.db).await.map_err(repo_err)?;
        into_changes(rows, &mut changes);
        Ok(changes)
    }

    async fn changes_after(&self, after: u64, limit: u64) -> Result<SearchChanges, RepoError> {
        let after = i64::try_from(after).unwrap_or(i64::MAX);
        let positions: Vec<(i64, i64)> = listing_change::Entity::find()
            .select_only()
            .column(listing_change::Column::Seq)
            .column(listing_change::Column::ListingId)
            .filter(listing_change::Column::Seq.gt(after))
            .order_by_asc(listing_change::Column::Seq)
            .limit(limit)
            .into_tuple()
            .all(&self.db)
            .await
            .map_err(repo_err)?;
        let mut changes = SearchChanges::default();
        if positions.first().is_some_and(|(first, _)| *first > after + 1) {
            // Either positions still committing (PostgreSQL) or pruned ones: only the oldest
            // kept position tells.
            let oldest: Option<i64> = listing_change::Entity::find()
                .select_only()
                .column_as(listing_change::Column::Seq.min(), "oldest")
                .into_tuple::<Option<i64>>()
                .one(&self.db)
                .await
                .map_err(repo_err)?
                .flatten();
            if oldest.is_some_and(|oldest| oldest > after + 1) {
                changes.lost = true;
                return Ok(changes);
            }
        }
        let ids: Vec<i64> = positions.iter().map(|(_, id)| *id).collect::<std::collections::BTreeSet<_>>().into_iter().collect();
        changes.positions = positions.iter().filter_map(|(seq, _)| u64::try_from(*seq).ok()).collect();
        let mut rows = Vec::new();
        for chunk in ids.chunks(500) {
            rows.extend(
                indexed_columns(listing::Entity::find().filter(listing::Column::Id.is_in(chunk.iter().copied())))
                    .all(&self.db)
                    .await
                    .map_err(repo_err)?,
            );
        }
        // A listing deleted since its change was written is removed from the index.
        let found: std::collections::HashSet<i64> = rows.iter().map(|row| row.0).collect();
        changes.removed.extend(ids.iter().filter(|id| !found.contains(id)).map(|id| ListingId::new(*id)));
        into_changes(rows, &mut changes);
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

    async fn count(&self, filter: &SearchFilter, followed: bool) -> Result<u64, RepoError> {
        let Some(mut query) = filtered(filter) else { return Ok(0) };
        if followed {
            query = query.filter(listing::Column::FollowsCount.gt(0));
        }
        query.count(&self.db).await.map_err(repo_err)
    }

    async fn page(&self, filter: &SearchFilter, order: DbOrder, page: PageRequest, total: u64) -> Result<Paged<ListingId>, RepoError> {
        let Some(query) = filtered(filter) else { return Ok(Paged::new(Vec::new(), page, 0)) };
        // Each order has an index in exactly this order (status, value descending, id), so a
        // page of live listings is a walk of the index, not a sort of the directory.
        let query = match order {
            DbOrder::Votes => query.order_by_desc(listing::Column::VotesCount),
            // A live listing always has its launch time; upcoming ones are ordered by when they
            // were submitted.
            DbOrder::Newest if !filter.upcoming => query.order_by_desc(listing::Column::LaunchedAt),
            DbOrder::Newest => query.order_by(
                Expr::expr(Func::coalesce([Expr::col(listing::Column::LaunchedAt), Expr::col(listing::Column::CreatedAt)])),
                Order::Desc,
            ),
            DbOrder::Views => query.order_by_desc(listing::Column::ViewsCount),
            DbOrder::Follows => query.filter(listing::Column::FollowsCount.gt(0)).order_by_desc(listing::Column::FollowsCount),
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
}
