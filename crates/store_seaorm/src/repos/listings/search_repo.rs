//! `SearchSource` over SeaORM: what changed for the index (read from the `listing_changes`
//! feed), with what searches filter and sort by, and pages of live listings in the orders the
//! database keeps an index for.

use crate::entity::{category, listing, listing_category, listing_change};
use crate::shared::positions::{RankKind, Ranked};
use crate::shared::queries::feed_head;
use crate::{SeaStore, repo_err};
use async_trait::async_trait;
use kernel::{CategoryId, ListingId, PageRequest, Paged, RepoError};
use listings::{DbOrder, ListingSummary, SearchChanges, SearchDoc, SearchSource, domain_key, pricing_key};
use sea_orm::sea_query::{Expr, ExprTrait, Query};
use sea_orm::{ColumnTrait, EntityTrait, QueryFilter, QueryOrder, QuerySelect};
use std::collections::HashMap;
use time::OffsetDateTime;

const PUBLIC: [&str; 3] = ["live", "scheduled", "awaiting_badge"];

/// What the index needs of a listing (never the whole row).
#[derive(Debug, sea_orm::FromQueryResult)]
struct IndexedRow {
    id: i64,
    status: String,
    name: String,
    tagline: Option<String>,
    short_description: Option<String>,
    description: Option<String>,
    keywords: Option<serde_json::Value>,
    stage: Option<String>,
    country: Option<String>,
    pricing_model: Option<String>,
    domain: String,
    votes_count: i64,
    views_count: i64,
    follows_count: i64,
    launched_at: Option<OffsetDateTime>,
    created_at: OffsetDateTime,
}

fn indexed_columns(query: sea_orm::Select<listing::Entity>) -> sea_orm::Selector<sea_orm::SelectModel<IndexedRow>> {
    use listing::Column as C;
    query
        .select_only()
        .columns([C::Id, C::Status, C::Name, C::Tagline, C::ShortDescription, C::Description, C::Keywords])
        .columns([C::Stage, C::Country, C::PricingModel, C::Domain, C::VotesCount, C::ViewsCount, C::FollowsCount])
        .columns([C::LaunchedAt, C::CreatedAt])
        .into_model::<IndexedRow>()
}

/// Each category's parent (to file a listing under the top-level category too) and name (which
/// searches match).
struct Tree {
    parents: HashMap<i64, Option<i64>>,
    names: HashMap<i64, String>,
}

async fn tree(db: &impl sea_orm::ConnectionTrait) -> Result<Tree, RepoError> {
    let rows: Vec<(i64, Option<i64>, String)> = category::Entity::find()
        .select_only()
        .column(category::Column::Id)
        .column(category::Column::ParentId)
        .column(category::Column::Name)
        .into_tuple()
        .all(db)
        .await
        .map_err(repo_err)?;
    let mut tree = Tree { parents: HashMap::with_capacity(rows.len()), names: HashMap::with_capacity(rows.len()) };
    for (id, parent, name) in rows {
        tree.parents.insert(id, parent);
        tree.names.insert(id, name);
    }
    Ok(tree)
}

/// The categories of these listings (of every listing when `None`) and their parents.
async fn categories_of(
    db: &impl sea_orm::ConnectionTrait,
    parents: &HashMap<i64, Option<i64>>,
    ids: Option<&[i64]>,
) -> Result<HashMap<i64, Vec<CategoryId>>, RepoError> {
    let mut query = listing_category::Entity::find()
        .select_only()
        .column(listing_category::Column::ListingId)
        .column(listing_category::Column::CategoryId);
    if let Some(ids) = ids {
        query = query.filter(listing_category::Column::ListingId.is_in(ids.iter().copied()));
    }
    let links: Vec<(i64, i64)> = query.into_tuple().all(db).await.map_err(repo_err)?;
    let mut of: HashMap<i64, Vec<CategoryId>> = HashMap::new();
    for (listing_id, category_id) in links {
        let categories = of.entry(listing_id).or_default();
        for id in std::iter::once(category_id).chain(parents.get(&category_id).copied().flatten()) {
            if !categories.contains(&CategoryId::new(id)) {
                categories.push(CategoryId::new(id));
            }
        }
    }
    Ok(of)
}

/// Sorts rows into what the index keeps and what it drops.
fn into_changes(
    rows: Vec<IndexedRow>,
    mut categories: HashMap<i64, Vec<CategoryId>>,
    names: &HashMap<i64, String>,
    changes: &mut SearchChanges,
) {
    let count = |value: i64| u64::try_from(value).unwrap_or(0);
    for row in rows {
        let id = ListingId::new(row.id);
        if !PUBLIC.contains(&row.status.as_str()) {
            changes.removed.push(id);
            continue;
        }
        let categories = categories.remove(&row.id).unwrap_or_default();
        let topics = categories.iter().filter_map(|category| names.get(&category.get()).cloned()).collect();
        changes.upserts.push(SearchDoc {
            id,
            name: row.name,
            tagline: row.tagline.unwrap_or_default(),
            description: [row.short_description.unwrap_or_default(), row.description.unwrap_or_default()].join("\n"),
            keywords: row.keywords.and_then(|k| serde_json::from_value(k).ok()).unwrap_or_default(),
            upcoming: row.status != "live",
            categories,
            topics,
            stage: row.stage,
            country: row.country,
            pricing_model: row.pricing_model.as_deref().map(pricing_key),
            domain: Some(domain_key(&row.domain)).filter(|domain| !domain.is_empty()),
            votes: count(row.votes_count),
            views: count(row.views_count),
            follows: count(row.follows_count),
            published_at: row.launched_at.unwrap_or(row.created_at),
        });
    }
}

/// After a full read the index goes on from this many positions before the head: a write that
/// took its position before the head but committed after the read is read again, not missed.
const FULL_READ_OVERLAP: u64 = 1_000;

#[async_trait]
impl SearchSource for SeaStore {
    async fn everything(&self) -> Result<SearchChanges, RepoError> {
        let head = u64::try_from(feed_head(&self.db).await?.unwrap_or(0)).unwrap_or(0);
        let mut changes = SearchChanges { head: head.saturating_sub(FULL_READ_OVERLAP), ..SearchChanges::default() };
        let rows = indexed_columns(listing::Entity::find().order_by_asc(listing::Column::Id)).all(&self.db).await.map_err(repo_err)?;
        let tree = tree(&self.db).await?;
        let categories = categories_of(&self.db, &tree.parents, None).await?;
        into_changes(rows, categories, &tree.names, &mut changes);
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
        let (mut rows, mut categories, tree) = (Vec::new(), HashMap::new(), tree(&self.db).await?);
        for chunk in ids.chunks(500) {
            rows.extend(
                indexed_columns(listing::Entity::find().filter(listing::Column::Id.is_in(chunk.iter().copied())))
                    .all(&self.db)
                    .await
                    .map_err(repo_err)?,
            );
            categories.extend(categories_of(&self.db, &tree.parents, Some(chunk)).await?);
        }
        // A listing deleted since its change was written is removed from the index.
        let found: std::collections::HashSet<i64> = rows.iter().map(|row| row.id).collect();
        changes.removed.extend(ids.iter().filter(|id| !found.contains(id)).map(|id| ListingId::new(*id)));
        into_changes(rows, categories, &tree.names, &mut changes);
        Ok(changes)
    }

    async fn page(
        &self,
        categories: Option<&[CategoryId]>,
        order: DbOrder,
        page: PageRequest,
        total: u64,
    ) -> Result<Paged<ListingSummary>, RepoError> {
        let mut query = listing::Entity::find().filter(listing::Column::Status.eq("live"));
        if let Some(categories) = categories {
            let in_categories = Query::select()
                .column(listing_category::Column::ListingId)
                .from(listing_category::Entity)
                .and_where(Expr::col(listing_category::Column::CategoryId).is_in(categories.iter().map(|id| id.get())))
                .to_owned();
            query = query.filter(listing::Column::Id.in_subquery(in_categories));
        }
        // Each order has an index in exactly this order (status, value descending, id), so a
        // page is a walk of the index (from the page's remembered position, or past the pages
        // before it), not a sort of the directory. A live listing always has its launch time.
        let (by, kind) = match order {
            DbOrder::Votes => (listing::Column::VotesCount, RankKind::Count),
            DbOrder::Newest => (listing::Column::LaunchedAt, RankKind::Time),
            DbOrder::Views => (listing::Column::ViewsCount, RankKind::Count),
            DbOrder::Follows => {
                query = query.filter(listing::Column::FollowsCount.gt(0));
                (listing::Column::FollowsCount, RankKind::Count)
            }
        };
        // The page and its listings in one statement.
        let ranked = Ranked::highest_first(query, by, kind, listing::Column::Id);
        Ok(Paged::new(ranked.cards(&self.db, &self.positions, page).await?, page, total))
    }
}
