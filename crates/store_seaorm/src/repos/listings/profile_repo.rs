//! `ProfileRepository` over SeaORM: one listing's whole profile, read with its kept document in
//! one statement (or part by part, checked by its revision, while the document is not ready), the kept
//! documents made ready, and batched view counts.

use crate::entity::{listing, listing_document};
use crate::shared::documents;
use crate::{SeaStore, repo_err};
use async_trait::async_trait;
use kernel::{ListingId, RepoError, Slug};
use listings::{GenuineReviews, ListingProfile, ProfileRepository};
use sea_orm::sea_query::{Expr, ExprTrait};
use sea_orm::{ColumnTrait, EntityTrait, JoinType, QueryFilter, QuerySelect, TransactionTrait};
use std::collections::BTreeMap;
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
        // The document and the row's counters in one statement: both of one moment.
        let found = listing_document::Entity::find()
            .join(JoinType::InnerJoin, listing_of_document())
            .filter(listing::Column::Slug.eq(slug.as_str()))
            .column_as(listing::Column::VotesCount, "votes_count")
            .column_as(listing::Column::ViewsCount, "views_count")
            .column_as(listing::Column::FollowsCount, "follows_count")
            .into_model::<Kept>()
            .one(&self.db)
            .await
            .map_err(repo_err)?;
        if let Some(found) = found
            && let Some(document) = documents::current(found.listing_id, found.revision, found.built_revision, found.body.as_deref())
        {
            let counters =
                documents::Counters { votes_count: found.votes_count, views_count: found.views_count, follows_count: found.follows_count };
            return documents::profile(document, counters, now, genuine, latest_updates).map(Some);
        }
        // Not ready (changed moments ago, or never built yet): the row and every part, then the
        // revision again. Every write moves the revision in its own transaction, so an unmoved
        // revision means no write landed between the parts; a moved one, read again.
        for _ in 0..READS_BEFORE_A_SNAPSHOT {
            let Some(row) =
                listing::Entity::find().filter(listing::Column::Slug.eq(slug.as_str())).one(&self.db).await.map_err(repo_err)?
            else {
                return Ok(None);
            };
            let ids = [row.id];
            let before = documents::revisions_of(&self.db, &ids).await?;
            let row = listing::Entity::find_by_id(row.id).one(&self.db).await.map_err(repo_err)?;
            let Some(row) = row else { return Ok(None) };
            let counters = documents::Counters::of(&row);
            let document = documents::build(&self.db, std::slice::from_ref(&row)).await?.remove(&row.id);
            if documents::revisions_of(&self.db, &ids).await? == before {
                let document = document.ok_or_else(|| RepoError::Backend("a listing's document was not built".into()))?;
                return documents::profile(document, counters, now, genuine, latest_updates).map(Some);
            }
        }
        // Written to without pause: every part in one snapshot.
        let snapshot = crate::shared::snapshot(&self.db).await?;
        let Some(row) = listing::Entity::find().filter(listing::Column::Slug.eq(slug.as_str())).one(&snapshot).await.map_err(repo_err)?
        else {
            return Ok(None);
        };
        let counters = documents::Counters::of(&row);
        let document = documents::build(&snapshot, std::slice::from_ref(&row)).await?.remove(&row.id);
        snapshot.commit().await.map_err(repo_err)?;
        let document = document.ok_or_else(|| RepoError::Backend("a listing's document was not built".into()))?;
        documents::profile(document, counters, now, genuine, latest_updates).map(Some)
    }

    async fn add_views(&self, views: &[(ListingId, u64)]) -> Result<(), RepoError> {
        // The listings that gained the same number of views share one statement per
        // `VIEWS_PER_STATEMENT` (most gained one): a long tail of visitors brings tens of thousands
        // of listings to a flush, and a statement each made the flush a burst that held up the
        // requests beside it (p99 of `get_listing` 45 ms against 4 ms without flushes).
        let mut by_count: BTreeMap<u64, Vec<i64>> = BTreeMap::new();
        for (listing_id, count) in views {
            by_count.entry(*count).or_default().push(listing_id.get());
        }
        let txn = self.db.begin().await.map_err(repo_err)?;
        for (count, listings) in by_count {
            for chunk in listings.chunks(VIEWS_PER_STATEMENT) {
                listing::Entity::update_many()
                    .col_expr(
                        listing::Column::ViewsCount,
                        Expr::col(listing::Column::ViewsCount).add(i64::try_from(count).unwrap_or(i64::MAX)),
                    )
                    .filter(listing::Column::Id.is_in(chunk.iter().copied()))
                    .exec(&txn)
                    .await
                    .map_err(repo_err)?;
            }
        }
        txn.commit().await.map_err(repo_err)
    }

    async fn prepare_profiles(&self) -> Result<usize, RepoError> {
        documents::build_due(&self.db).await
    }
}

/// Listings whose view counts one statement adds to.
const VIEWS_PER_STATEMENT: usize = 500;

/// How many times a profile read part by part is tried before it takes a snapshot.
const READS_BEFORE_A_SNAPSHOT: usize = 3;

/// `listing_documents JOIN listings ON listings.id = listing_id`.
fn listing_of_document() -> sea_orm::RelationDef {
    listing_document::Entity::belongs_to(listing::Entity).from(listing_document::Column::ListingId).to(listing::Column::Id).into()
}

/// A kept document with its listing's counters.
#[derive(Debug, sea_orm::FromQueryResult)]
struct Kept {
    listing_id: i64,
    revision: i64,
    built_revision: Option<i64>,
    body: Option<String>,
    votes_count: i64,
    views_count: i64,
    follows_count: i64,
}
