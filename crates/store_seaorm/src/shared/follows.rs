//! The one owner of `listing_follows` writes: each keeps `listings.follows_count` in step in the
//! same statement group, so "most followed" is ranked from an index like votes are.

use crate::entity::{listing, listing_follow};
use crate::{repo_err, utc};
use kernel::RepoError;
use sea_orm::sea_query::{Expr, ExprTrait, OnConflict};
use sea_orm::{ColumnTrait, ConnectionTrait, EntityTrait, QueryFilter, Set};
use time::OffsetDateTime;

async fn add_to_count(db: &impl ConnectionTrait, listing_id: i64, by: i64) -> Result<(), RepoError> {
    listing::Entity::update_many()
        .col_expr(listing::Column::FollowsCount, Expr::col(listing::Column::FollowsCount).add(by))
        .filter(listing::Column::Id.eq(listing_id))
        .exec(db)
        .await
        .map_err(repo_err)?;
    Ok(())
}

/// `user` follows the listing (again: nothing changes). Run it in a transaction.
pub(crate) async fn follow(db: &impl ConnectionTrait, listing_id: i64, user_id: i64, at: OffsetDateTime) -> Result<(), RepoError> {
    let row = listing_follow::ActiveModel { listing_id: Set(listing_id), user_id: Set(user_id), created_at: Set(utc(at)) };
    let added = listing_follow::Entity::insert(row)
        .on_conflict(OnConflict::columns([listing_follow::Column::ListingId, listing_follow::Column::UserId]).do_nothing().to_owned())
        .exec_without_returning(db)
        .await
        .map_err(repo_err)?;
    if added == 1 {
        add_to_count(db, listing_id, 1).await?;
    }
    Ok(())
}

/// `user` no longer follows the listing. Run it in a transaction.
pub(crate) async fn unfollow(db: &impl ConnectionTrait, listing_id: i64, user_id: i64) -> Result<(), RepoError> {
    let removed = listing_follow::Entity::delete_by_id((listing_id, user_id)).exec(db).await.map_err(repo_err)?.rows_affected;
    if removed == 1 {
        add_to_count(db, listing_id, -1).await?;
    }
    Ok(())
}

/// Ends every follow of `user` (closing an account), taking each off its listing's count.
pub(crate) async fn unfollow_all_of(txn: &impl ConnectionTrait, user_id: i64) -> Result<(), RepoError> {
    let gone = listing_follow::Entity::delete_many()
        .filter(listing_follow::Column::UserId.eq(user_id))
        .exec_with_returning(txn)
        .await
        .map_err(repo_err)?;
    for follow in gone {
        add_to_count(txn, follow.listing_id, -1).await?;
    }
    Ok(())
}

/// Counts the followers of these listings again (after a seed inserts follows in bulk).
pub(crate) async fn recount(db: &impl ConnectionTrait, listing_ids: &[i64]) -> Result<(), sea_orm::DbErr> {
    for chunk in listing_ids.chunks(500) {
        // Ids are integers, so the list is written into the statement as it is.
        let ids = chunk.iter().map(i64::to_string).collect::<Vec<_>>().join(", ");
        db.execute_unprepared(&format!(
            "UPDATE listings SET follows_count = (SELECT COUNT(*) FROM listing_follows f WHERE f.listing_id = listings.id) WHERE id IN ({ids})"
        ))
        .await?;
    }
    Ok(())
}
