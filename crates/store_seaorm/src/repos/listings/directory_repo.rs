//! `CategoryRepository` and `ListingRepository` over SeaORM.

use crate::entity::{category, listing, listing_category};
use crate::shared::rows::{primary_category, summary_with_primary, to_summary};
use crate::{SeaStore, repo_err};
use async_trait::async_trait;
use kernel::{CategoryId, PageRequest, Paged, RepoError, Slug};
use listings::{Category, CategoryRepository, Faq, ListingRepository, ListingSummary, LiveCounts};
use sea_orm::sea_query::Query;
use sea_orm::{ColumnTrait, ConnectionTrait, EntityTrait, JoinType, QueryFilter, QueryOrder, QuerySelect, Statement};
use std::collections::HashMap;

const LIVE: &str = "live";

fn to_category(row: category::Model) -> Result<Category, RepoError> {
    let slug = Slug::parse(&row.slug).map_err(RepoError::backend)?;
    let faqs: Vec<Faq> = serde_json::from_value(row.faqs).map_err(RepoError::backend)?;
    Ok(Category {
        id: CategoryId::new(row.id),
        slug,
        name: row.name,
        description: row.description,
        parent_id: row.parent_id.map(CategoryId::new),
        position: row.position,
        faqs,
    })
}

/// A count read back from the database (never negative; a negative one would be a bug in the
/// triggers that keep it, shown as zero rather than wrapped).
fn count(row: &sea_orm::QueryResult, column: &str) -> Result<u64, RepoError> {
    let value: i64 = row.try_get("", column).map_err(repo_err)?;
    Ok(u64::try_from(value).unwrap_or(0))
}

impl SeaStore {
    /// Listing rows as summaries, in their order (one query for their categories' slugs).
    pub(crate) async fn summaries_of(&self, rows: Vec<listing::Model>) -> Result<Vec<ListingSummary>, RepoError> {
        let slugs = self.category_slugs(rows.iter().filter_map(|row| row.primary_category_id)).await?;
        rows.into_iter().map(|row| to_summary(row, &slugs)).collect()
    }

    pub(crate) async fn category_slugs(&self, ids: impl IntoIterator<Item = i64>) -> Result<HashMap<i64, Slug>, RepoError> {
        let ids: Vec<i64> = ids.into_iter().collect();
        if ids.is_empty() {
            return Ok(HashMap::new());
        }
        let rows = category::Entity::find()
            .select_only()
            .column(category::Column::Id)
            .column(category::Column::Slug)
            .filter(category::Column::Id.is_in(ids))
            .into_tuple::<(i64, String)>()
            .all(&self.db)
            .await
            .map_err(repo_err)?;
        rows.into_iter().map(|(id, slug)| Ok((id, Slug::parse(&slug).map_err(RepoError::backend)?))).collect()
    }
}

#[async_trait]
impl CategoryRepository for SeaStore {
    async fn all(&self) -> Result<Vec<Category>, RepoError> {
        category::Entity::find()
            .order_by_asc(category::Column::Position)
            .order_by_asc(category::Column::Name)
            .all(&self.db)
            .await
            .map_err(repo_err)?
            .into_iter()
            .map(to_category)
            .collect()
    }

    async fn find_by_slug(&self, slug: &Slug) -> Result<Option<Category>, RepoError> {
        let row = category::Entity::find().filter(category::Column::Slug.eq(slug.as_str())).one(&self.db).await.map_err(repo_err)?;
        row.map(to_category).transpose()
    }

    async fn live_counts(&self) -> Result<LiveCounts, RepoError> {
        // Kept by triggers in every writing transaction (migrations 18 and 19), so reading them
        // costs the number of categories, not the size of the directory.
        let backend = self.db.get_database_backend();
        let categories = self
            .db
            .query_all_raw(Statement::from_string(
                backend,
                "SELECT c.id, c.parent_id, COALESCE(n.live_listings, 0) AS live_listings, COALESCE(n.live_in_tree, 0) AS live_in_tree \
                 FROM categories c LEFT JOIN category_counts n ON n.category_id = c.id",
            ))
            .await
            .map_err(repo_err)?;
        let mut counts = LiveCounts::default();
        for row in categories {
            let id = CategoryId::new(row.try_get("", "id").map_err(repo_err)?);
            let parent: Option<i64> = row.try_get("", "parent_id").map_err(repo_err)?;
            let direct = count(&row, "live_listings")?;
            if direct > 0 {
                counts.direct.insert(id, direct);
            }
            let in_tree = count(&row, "live_in_tree")?;
            if parent.is_none() && in_tree > 0 {
                counts.by_top_level.insert(id, in_tree);
            }
        }
        let totals =
            self.db.query_all_raw(Statement::from_string(backend, "SELECT name, value FROM directory_counts")).await.map_err(repo_err)?;
        for row in totals {
            let name: String = row.try_get("", "name").map_err(repo_err)?;
            let value = count(&row, "value")?;
            match name.as_str() {
                "live" => counts.live = value,
                "followed" => counts.followed = value,
                "founders" => counts.founders = value,
                _ => {}
            }
        }
        Ok(counts)
    }
}

#[async_trait]
impl ListingRepository for SeaStore {
    async fn find_by_slug(&self, slug: &Slug) -> Result<Option<ListingSummary>, RepoError> {
        // The row and its primary category's slug in one statement.
        let found = listing::Entity::find()
            .filter(listing::Column::Slug.eq(slug.as_str()))
            .join(JoinType::LeftJoin, primary_category())
            .select_also(category::Entity)
            .one(&self.db)
            .await
            .map_err(repo_err)?;
        found.map(|(row, primary)| summary_with_primary(row, primary)).transpose()
    }

    async fn marks(&self, id: kernel::ListingId) -> Result<listings::ListingMarks, RepoError> {
        let marks: Option<(Option<time::OffsetDateTime>, Option<time::OffsetDateTime>)> = listing::Entity::find_by_id(id.get())
            .select_only()
            .column(listing::Column::FeaturedAt)
            .column(listing::Column::VerifiedAt)
            .into_tuple()
            .one(&self.db)
            .await
            .map_err(repo_err)?;
        Ok(marks.map(|(featured_at, verified_at)| listings::ListingMarks { featured_at, verified_at }).unwrap_or_default())
    }

    async fn live_in_categories(
        &self,
        categories: &[CategoryId],
        page: PageRequest,
        total: u64,
        live: u64,
    ) -> Result<Paged<ListingSummary>, RepoError> {
        // Walking the votes index and probing each listing's links costs about
        // (page end) x (live / total) rows; reading the category's links and sorting them costs
        // `total`. Either way the cost follows the page or the category, never the directory.
        let walk = (page.offset() + u64::from(page.per_page())).saturating_mul(live) < total.saturating_mul(total);
        // Either way only ids are walked or sorted (the rows before the page, and a sort's whole
        // input, are never read whole); the page's rows are read by id after.
        let ids: Vec<i64> = if walk {
            // Without OFFSET: SQLite 3.51 miscounts it when a listing carries two of the
            // categories. The walk reads the ids before the page either way.
            let end = page.offset() + u64::from(page.per_page());
            let mut ids: Vec<i64> = listing::Entity::find()
                .select_only()
                .column(listing::Column::Id)
                .filter(listing::Column::Status.eq(LIVE))
                .filter(crate::listing_in_categories(categories))
                .order_by_desc(listing::Column::VotesCount)
                .order_by_asc(listing::Column::Id)
                .limit(end)
                .into_tuple()
                .all(&self.db)
                .await
                .map_err(repo_err)?;
            ids.drain(..ids.len().min(page.offset() as usize));
            ids
        } else {
            let in_categories = Query::select()
                .column(listing_category::Column::ListingId)
                .from(listing_category::Entity)
                .and_where(listing_category::Column::CategoryId.is_in(categories.iter().map(|id| id.get())))
                .to_owned();
            listing::Entity::find()
                .select_only()
                .column(listing::Column::Id)
                .filter(listing::Column::Status.eq(LIVE))
                .filter(listing::Column::Id.in_subquery(in_categories))
                .order_by_desc(listing::Column::VotesCount)
                .order_by_asc(listing::Column::Id)
                .offset(page.offset())
                .limit(u64::from(page.per_page()))
                .into_tuple()
                .all(&self.db)
                .await
                .map_err(repo_err)?
        };
        let mut summaries = self.summaries_by_id(&ids).await?;
        let items = ids.iter().filter_map(|id| summaries.remove(id)).collect();
        Ok(Paged::new(items, page, total))
    }
}
