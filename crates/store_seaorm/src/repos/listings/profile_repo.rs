//! `ProfileRepository` over SeaORM: one listing's whole profile, read with its kept document in
//! one statement (or part by part in one snapshot while the document is not ready), the kept
//! documents made ready, and batched view counts.

use crate::entity::{listing, listing_document};
use crate::shared::documents;
use crate::{SeaStore, repo_err};
use async_trait::async_trait;
use kernel::{ListingId, RepoError, Slug};
use listings::{GenuineReviews, ListingProfile, ProfileRepository};
use sea_orm::sea_query::{Expr, ExprTrait};
use sea_orm::{ColumnTrait, EntityTrait, JoinType, QueryFilter, QuerySelect, TransactionTrait};
use time::OffsetDateTime;

#[async_trait]
impl ProfileRepository for SeaStore {
    async fn profile(
        &self,
        slug: &Slug,
        now: OffsetDateTime,
        genuine: GenuineReviews,
        latest_updates: usize,
    ) -> Result<Option<ListingProfile>, RepoError> {
        // The row and its document in one statement: both of one moment.
        let found = listing::Entity::find()
            .filter(listing::Column::Slug.eq(slug.as_str()))
            .join_rev(JoinType::LeftJoin, document_of_listing())
            .select_also(listing_document::Entity)
            .one(&self.db)
            .await
            .map_err(repo_err)?;
        let Some((row, kept)) = found else {
            return Ok(None);
        };
        if let Some(document) = documents::current(kept) {
            return documents::profile(row, document, now, genuine, latest_updates).map(Some);
        }
        // Not ready (changed moments ago, or never built yet): every part in one snapshot.
        let snapshot = crate::shared::snapshot(&self.db).await?;
        let Some(row) = listing::Entity::find_by_id(row.id).one(&snapshot).await.map_err(repo_err)? else {
            return Ok(None);
        };
        let document = documents::build(&snapshot, std::slice::from_ref(&row)).await?.remove(&row.id).unwrap_or_default();
        snapshot.commit().await.map_err(repo_err)?;
        documents::profile(row, document, now, genuine, latest_updates).map(Some)
    }

    async fn add_views(&self, views: &[(ListingId, u64)]) -> Result<(), RepoError> {
        let txn = self.db.begin().await.map_err(repo_err)?;
        for (listing_id, count) in views {
            listing::Entity::update_many()
                .col_expr(
                    listing::Column::ViewsCount,
                    Expr::col(listing::Column::ViewsCount).add(i64::try_from(*count).unwrap_or(i64::MAX)),
                )
                .filter(listing::Column::Id.eq(listing_id.get()))
                .exec(&txn)
                .await
                .map_err(repo_err)?;
        }
        txn.commit().await.map_err(repo_err)
    }

    async fn prepare_profiles(&self) -> Result<usize, RepoError> {
        documents::build_due(&self.db).await
    }
}

/// `listings LEFT JOIN listing_documents ON listing_id = listings.id`.
fn document_of_listing() -> sea_orm::RelationDef {
    listing_document::Entity::belongs_to(listing::Entity).from(listing_document::Column::ListingId).to(listing::Column::Id).into()
}
