//! Publishing a listing's story and the paid relaunches due in a week, shared by the week's
//! lifecycle and by purchases.

use crate::entity::{listing, listing_relaunch, listing_story};
use crate::{repo_err, utc};
use kernel::{ListingId, RepoError, Week};
use listings::ListingStatus;
use sea_orm::sea_query::Expr;
use sea_orm::{ColumnTrait, EntityTrait, QueryFilter};
use time::OffsetDateTime;

/// A founder story kept for publication is published with its listing.
pub(crate) async fn publish_story(db: &impl sea_orm::ConnectionTrait, id: i64, now: OffsetDateTime) -> Result<(), RepoError> {
    listing_story::Entity::update_many()
        .col_expr(listing_story::Column::PublishedAt, Expr::value(utc(now)))
        .filter(listing_story::Column::ListingId.eq(id))
        .filter(listing_story::Column::PublishedAt.is_null())
        .exec(db)
        .await
        .map_err(repo_err)?;
    Ok(())
}

/// Relaunches every listing whose paid relaunch week has come and that was not relaunched for
/// it yet: it joins `week`'s board (`launch_week`, `launched_at`). The week-start job calls
/// this too.
pub(crate) async fn relaunch_due(db: &impl sea_orm::ConnectionTrait, week: Week, now: OffsetDateTime) -> Result<Vec<ListingId>, RepoError> {
    let due = listing_relaunch::Entity::find()
        .filter(listing_relaunch::Column::Week.lte(week.monday()))
        .filter(listing_relaunch::Column::RelaunchedAt.is_null())
        .all(db)
        .await
        .map_err(repo_err)?;
    let mut relaunched = Vec::new();
    for relaunch in due {
        let claimed = listing_relaunch::Entity::update_many()
            .col_expr(listing_relaunch::Column::RelaunchedAt, Expr::value(utc(now)))
            .filter(listing_relaunch::Column::Id.eq(relaunch.id))
            .filter(listing_relaunch::Column::RelaunchedAt.is_null())
            .exec(db)
            .await
            .map_err(repo_err)?;
        if claimed.rows_affected != 1 {
            continue;
        }
        listing::Entity::update_many()
            .col_expr(listing::Column::LaunchWeek, Expr::value(week.monday()))
            .col_expr(listing::Column::LaunchedAt, Expr::value(utc(now)))
            .col_expr(listing::Column::UpdatedAt, Expr::value(utc(now)))
            .filter(listing::Column::Id.eq(relaunch.listing_id))
            .filter(listing::Column::Status.eq(ListingStatus::Live.as_str()))
            .exec(db)
            .await
            .map_err(repo_err)?;
        relaunched.push(ListingId::new(relaunch.listing_id));
    }
    Ok(relaunched)
}
