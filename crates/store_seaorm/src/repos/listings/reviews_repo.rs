//! `ReviewRepository` over SeaORM: one review per person per listing (`uq_reviews_listing_user`),
//! written or edited in one statement each, and follows (`listing_follows`' key makes a second
//! follow change nothing). Which reviews are genuine is the domain's rule
//! (`listings::GenuineReviews`), applied here to each review read with its author's facts, as
//! `profile_repo`'s rating applies it in its query. Each review keeps the client network it was
//! first written from, for the site team's list of bursts.

use crate::entity::{listing, listing_follow, review, user};
use crate::shared::votes::open_listing;
use crate::{SeaStore, repo_err, utc};
use async_trait::async_trait;
use kernel::{RepoError, Slug, UserId};
use listings::{GenuineReviews, ListingReviews, Review, ReviewFacts, ReviewRecord, ReviewRepository, ReviewText, ReviewerFacts, Saved};
use sea_orm::sea_query::{Expr, Query};
use sea_orm::{
    ColumnTrait, ConnectionTrait, EntityTrait, PaginatorTrait, QueryFilter, QueryOrder, QuerySelect, Set, TransactionTrait, TryInsertResult,
};
use std::collections::{HashMap, HashSet};
use time::OffsetDateTime;

/// The most reviews `written_since` reads: a list for the site team, not an export.
const BURST_SCAN: u64 = 10_000;

fn to_review(row: review::Model, author: Option<&user::Model>, owners: &[i64], rule: GenuineReviews) -> Review {
    let genuine = rule.holds(&ReviewFacts {
        hidden: row.hidden,
        by_an_owner: owners.contains(&row.user_id),
        author: author.map(|author| ReviewerFacts {
            email_confirmed: author.email_confirmed_at.is_some(),
            blocked: author.blocked,
            created_at: author.created_at,
        }),
    });
    Review {
        id: row.id,
        author: author.map_or_else(|| "A former member".to_owned(), |author| author.display_name.clone()),
        rating: u8::try_from(row.rating).unwrap_or(0),
        body: row.body.unwrap_or_default(),
        written_at: row.created_at,
        edited_at: row.updated_at,
        genuine,
        hidden: row.hidden,
    }
}

/// The reviewers among `ids`, by id.
async fn authors_of(db: &impl ConnectionTrait, ids: impl Iterator<Item = i64>) -> Result<HashMap<i64, user::Model>, RepoError> {
    let ids: Vec<i64> = ids.collect::<HashSet<i64>>().into_iter().collect();
    let mut authors = HashMap::new();
    // In chunks: SQLite binds at most 32,766 values in one statement.
    for chunk in ids.chunks(1000) {
        let found = user::Entity::find().filter(user::Column::Id.is_in(chunk.iter().copied())).all(db).await.map_err(repo_err)?;
        authors.extend(found.into_iter().map(|author| (author.id, author)));
    }
    Ok(authors)
}

/// Reviews read with their listing, as the site team sees them, in the order read (a review
/// whose listing is gone is skipped).
async fn records_of(
    db: &impl ConnectionTrait,
    rows: Vec<(review::Model, Option<listing::Model>)>,
    rule: GenuineReviews,
) -> Result<Vec<ReviewRecord>, RepoError> {
    let authors = authors_of(db, rows.iter().map(|(row, _)| row.user_id)).await?;
    let mut listings: HashMap<i64, listing::Model> = HashMap::new();
    for listing in rows.iter().filter_map(|(_, listing)| listing.as_ref()) {
        listings.entry(listing.id).or_insert_with(|| listing.clone());
    }
    let listings: Vec<listing::Model> = listings.into_values().collect();
    let mut owners: HashMap<i64, Vec<i64>> = HashMap::new();
    for chunk in listings.chunks(1000) {
        owners.extend(crate::shared::ownership::owners_of(db, chunk).await?);
    }
    let mut records = Vec::with_capacity(rows.len());
    for (row, listing) in rows {
        let Some(listing) = listing else { continue };
        let author = authors.get(&row.user_id);
        let owners = owners.get(&listing.id).map_or(&[][..], Vec::as_slice);
        let (user, network) = (UserId::new(row.user_id), row.client_network.clone());
        records.push(ReviewRecord {
            listing: Slug::parse(&listing.slug).map_err(RepoError::backend)?,
            user,
            network,
            review: to_review(row, author, owners, rule),
        });
    }
    Ok(records)
}

#[async_trait]
impl ReviewRepository for SeaStore {
    async fn save(
        &self,
        slug: &Slug,
        user: UserId,
        text: &ReviewText,
        at: OffsetDateTime,
        network: &str,
    ) -> Result<Option<Saved>, RepoError> {
        let Some(listing) = open_listing(&self.db, slug).await? else { return Ok(None) };
        let row = review::ActiveModel {
            listing_id: Set(listing.id),
            user_id: Set(user.get()),
            rating: Set(i16::from(text.rating)),
            body: Set(Some(text.body.clone())),
            hidden: Set(false),
            created_at: Set(utc(at)),
            updated_at: Set(None),
            client_network: Set(Some(network.to_owned())),
            ..Default::default()
        };
        let inserted = review::Entity::insert(row)
            .on_conflict_do_nothing_on([review::Column::ListingId, review::Column::UserId])
            .exec(&self.db)
            .await
            .map_err(repo_err)?;
        if let TryInsertResult::Inserted(_) = inserted {
            return Ok(Some(Saved::Written));
        }
        // Written before: an edit keeps the first writing's time, network and moderation.
        review::Entity::update_many()
            .col_expr(review::Column::Rating, Expr::value(i16::from(text.rating)))
            .col_expr(review::Column::Body, Expr::value(text.body.clone()))
            .col_expr(review::Column::UpdatedAt, Expr::value(utc(at)))
            .filter(review::Column::ListingId.eq(listing.id))
            .filter(review::Column::UserId.eq(user.get()))
            .exec(&self.db)
            .await
            .map_err(repo_err)?;
        Ok(Some(Saved::Edited))
    }

    async fn delete(&self, slug: &Slug, user: UserId) -> Result<bool, RepoError> {
        let Some(listing) = open_listing(&self.db, slug).await? else { return Ok(false) };
        let gone = review::Entity::delete_many()
            .filter(review::Column::ListingId.eq(listing.id))
            .filter(review::Column::UserId.eq(user.get()))
            .exec(&self.db)
            .await
            .map_err(repo_err)?;
        Ok(gone.rows_affected > 0)
    }

    async fn of_listing(&self, slug: &Slug, viewer: Option<UserId>, shown: u64, rule: GenuineReviews) -> Result<ListingReviews, RepoError> {
        let newest = |reviews: sea_orm::Select<review::Entity>| {
            reviews
                .filter(review::Column::Hidden.eq(false))
                .order_by_desc(review::Column::CreatedAt)
                .order_by_desc(review::Column::Id)
                .limit(shown)
        };
        // Just the id and the submitting owner: the rest of the row is not needed here.
        let listing_row = |by: sea_orm::sea_query::SimpleExpr| {
            listing::Entity::find().select_only().column(listing::Column::Id).column(listing::Column::OwnerUserId).filter(by).into_tuple()
        };
        let (listing_id, submitter, mut rows): (i64, Option<i64>, _) = if viewer.is_none() {
            // Someone signed out sees the reviews, read by the listing's slug in one statement:
            // most listings have none, and then that is all.
            let of_slug = Query::select()
                .column(listing::Column::Id)
                .from(listing::Entity)
                .and_where(listing::Column::Slug.eq(slug.as_str()))
                .to_owned();
            let rows = newest(review::Entity::find().filter(review::Column::ListingId.in_subquery(of_slug)))
                .all(&self.db)
                .await
                .map_err(repo_err)?;
            let Some(listing_id) = rows.first().map(|row| row.listing_id) else { return Ok(ListingReviews::default()) };
            let found: Option<(i64, Option<i64>)> =
                listing_row(listing::Column::Id.eq(listing_id)).one(&self.db).await.map_err(repo_err)?;
            (listing_id, found.and_then(|(_, submitter)| submitter), rows)
        } else {
            let found: Option<(i64, Option<i64>)> =
                listing_row(listing::Column::Slug.eq(slug.as_str())).one(&self.db).await.map_err(repo_err)?;
            let Some((listing_id, submitter)) = found else { return Ok(ListingReviews::default()) };
            let rows =
                newest(review::Entity::find().filter(review::Column::ListingId.eq(listing_id))).all(&self.db).await.map_err(repo_err)?;
            (listing_id, submitter, rows)
        };
        let visible = || review::Entity::find().filter(review::Column::ListingId.eq(listing_id)).filter(review::Column::Hidden.eq(false));
        // Most listings have fewer reviews than are shown: then the rows are the count.
        let total = if (rows.len() as u64) < shown { rows.len() as u64 } else { visible().count(&self.db).await.map_err(repo_err)? };
        let mut following = false;
        let mut mine_id = None;
        // The owners mark which reviews are genuine, and whether the viewer sees owners' material
        // (someone signed out with no reviews to read has returned above).
        let owners =
            crate::shared::ownership::owners_by_id(&self.db, &[(listing_id, submitter)]).await?.remove(&listing_id).unwrap_or_default();
        if let Some(viewer) = viewer {
            let own = review::Entity::find()
                .filter(review::Column::ListingId.eq(listing_id))
                .filter(review::Column::UserId.eq(viewer.get()))
                .one(&self.db)
                .await
                .map_err(repo_err)?;
            if let Some(own) = own {
                mine_id = Some(own.id);
                if !rows.iter().any(|row| row.id == own.id) {
                    rows.push(own);
                }
            }
            following = listing_follow::Entity::find_by_id((listing_id, viewer.get())).one(&self.db).await.map_err(repo_err)?.is_some();
        }
        let viewer_owns = viewer.is_some_and(|viewer| owners.contains(&viewer.get()));
        let mut reviews = ListingReviews { total, following, viewer_owns, ..Default::default() };
        if rows.is_empty() {
            return Ok(reviews);
        }
        let authors = authors_of(&self.db, rows.iter().map(|row| row.user_id)).await?;
        for row in rows {
            let author = authors.get(&row.user_id);
            let review = to_review(row, author, &owners, rule);
            if Some(review.id) == mine_id {
                reviews.mine = Some(review.clone());
            }
            if !review.hidden {
                reviews.shown.push(review);
            }
        }
        Ok(reviews)
    }

    async fn recent(&self, limit: u64, rule: GenuineReviews) -> Result<Vec<(Slug, Review)>, RepoError> {
        let rows: Vec<(review::Model, Option<listing::Model>)> = review::Entity::find()
            .find_also_related(listing::Entity)
            .order_by_desc(review::Column::CreatedAt)
            .order_by_desc(review::Column::Id)
            .limit(limit)
            .all(&self.db)
            .await
            .map_err(repo_err)?;
        let records = records_of(&self.db, rows, rule).await?;
        Ok(records.into_iter().map(|record| (record.listing, record.review)).collect())
    }

    async fn written_since(&self, since: OffsetDateTime, rule: GenuineReviews) -> Result<Vec<ReviewRecord>, RepoError> {
        let rows: Vec<(review::Model, Option<listing::Model>)> = review::Entity::find()
            .find_also_related(listing::Entity)
            .filter(review::Column::CreatedAt.gte(utc(since)))
            .order_by_desc(review::Column::CreatedAt)
            .order_by_desc(review::Column::Id)
            .limit(BURST_SCAN)
            .all(&self.db)
            .await
            .map_err(repo_err)?;
        records_of(&self.db, rows, rule).await
    }

    async fn set_hidden(&self, review_id: i64, hidden: bool) -> Result<Option<bool>, RepoError> {
        let changed = review::Entity::update_many()
            .col_expr(review::Column::Hidden, Expr::value(hidden))
            .filter(review::Column::Id.eq(review_id))
            .filter(review::Column::Hidden.ne(hidden))
            .exec(&self.db)
            .await
            .map_err(repo_err)?;
        if changed.rows_affected == 1 {
            return Ok(Some(true));
        }
        let exists = review::Entity::find_by_id(review_id).one(&self.db).await.map_err(repo_err)?.is_some();
        Ok(exists.then_some(false))
    }

    async fn set_following(&self, slug: &Slug, user: UserId, follow: bool, at: OffsetDateTime) -> Result<Option<()>, RepoError> {
        let Some(listing) = open_listing(&self.db, slug).await? else { return Ok(None) };
        let txn = self.db.begin().await.map_err(repo_err)?;
        if follow {
            crate::shared::follows::follow(&txn, listing.id, user.get(), at).await?;
        } else {
            crate::shared::follows::unfollow(&txn, listing.id, user.get()).await?;
        }
        txn.commit().await.map_err(repo_err)?;
        Ok(Some(()))
    }
}
