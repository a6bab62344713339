//! `CategoryRepository` and `ListingRepository` over SeaORM.

use crate::entity::{award, category, category_ranking};
use crate::shared::positions::{RankKind, Ranked};
use crate::shared::rows::CountedRow;
use crate::{SeaStore, repo_err};
use async_trait::async_trait;
use kernel::{CategoryId, PageRequest, Paged, RepoError, Slug};
use listings::{Category, CategoryRepository, Faq, ListingRepository, ListingSummary, LiveCounts};
use sea_orm::{ColumnTrait, ConnectionTrait, EntityTrait, QueryFilter, QueryOrder, Statement};

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
        Ok(self.find_marked(slug).await?.map(|(summary, _)| summary))
    }

    async fn find_marked(&self, slug: &Slug) -> Result<Option<(ListingSummary, listings::ListingMarks)>, RepoError> {
        // A summary's columns, its primary category, its marks and its awards counted, in one
        // statement.
        let Some(row) = CountedRow::find(&self.db, slug, award::Entity, award::Column::ListingId, None).await? else { return Ok(None) };
        let marks = row.summary.marks(row.counted());
        Ok(Some((row.summary.into_summary()?, marks)))
    }

    async fn live_in_category(&self, category: CategoryId, page: PageRequest, total: u64) -> Result<Paged<ListingSummary>, RepoError> {
        // `category_rankings` is kept in this order by triggers (migration 26): a page is a
        // walk of its index, from the page's remembered position or past the pages before it,
        // so a page costs its position there, never the category's or the directory's rows.
        // The page's listings are read in the same statement. Read even past `total`: the kept counts are
        // read every two seconds, the rankings are current.
        use category_ranking::Column as R;
        let ranked = Ranked::highest_first(
            category_ranking::Entity::find().filter(R::CategoryId.eq(category.get())),
            R::VotesCount,
            RankKind::Count,
            R::ListingId,
        );
        Ok(Paged::new(ranked.cards(&self.db, &self.positions, page).await?, page, total))
    }
}
