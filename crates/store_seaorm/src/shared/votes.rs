//! What more than one repository reads or writes of votes: a vote's UTC week, the listing a
//! vote, review or follow is for (`listings::ListingStatus::OPEN_TO_PEOPLE` says which take
//! them), and withdrawing an account's votes.

use crate::entity::{listing, vote};
use crate::repo_err;
use kernel::{RepoError, Slug, UserId, Week};
use sea_orm::sea_query::{Expr, ExprTrait};
use sea_orm::{ColumnTrait, ConnectionTrait, EntityTrait, QueryFilter};
use time::{Date, OffsetDateTime, UtcOffset};

/// The launch week of a vote the seeds write (they use the default launch time zone, UTC).
pub(crate) fn utc_week(at: OffsetDateTime) -> Date {
    Week::at(at, UtcOffset::UTC).monday()
}

/// The listing at `slug` when people may vote on, review and follow it.
pub(crate) async fn open_listing(db: &impl ConnectionTrait, slug: &Slug) -> Result<Option<listing::Model>, RepoError> {
    listing::Entity::find()
        .filter(listing::Column::Slug.eq(slug.as_str()))
        .filter(listing::Column::Status.is_in(listings::ListingStatus::OPEN_TO_PEOPLE.map(listings::ListingStatus::as_str)))
        .one(db)
        .await
        .map_err(repo_err)
}

/// Withdraws every vote of `user` inside `txn` (closing an account), taking each counted one
/// off its listing's `votes_count`; returns how many votes there were. As in `withdraw`, the
/// counted votes are deleted by a statement that matches counted votes only and the count drops
/// for exactly the rows it deleted, so a discount or a vote from another tab at the same moment
/// cannot put the count out of step.
pub(crate) async fn withdraw_all_of(txn: &impl ConnectionTrait, user: UserId) -> Result<u64, RepoError> {
    let counted = vote::Entity::delete_many()
        .filter(vote::Column::UserId.eq(user.get()))
        .filter(vote::Column::Counted.eq(true))
        .exec_with_returning(txn)
        .await
        .map_err(repo_err)?;
    for gone in &counted {
        add_to_count(txn, gone.listing_id, -1).await?;
    }
    let rest = vote::Entity::delete_many().filter(vote::Column::UserId.eq(user.get())).exec(txn).await.map_err(repo_err)?.rows_affected;
    Ok(counted.len() as u64 + rest)
}

/// Moves `listings.votes_count` by `by`, in the statement group of the vote it counts.
pub(crate) async fn add_to_count(db: &impl ConnectionTrait, listing_id: i64, by: i64) -> Result<(), RepoError> {
    listing::Entity::update_many()
        .col_expr(listing::Column::VotesCount, Expr::col(listing::Column::VotesCount).add(by))
        .filter(listing::Column::Id.eq(listing_id))
        .exec(db)
        .await
        .map_err(repo_err)?;
    Ok(())
}
