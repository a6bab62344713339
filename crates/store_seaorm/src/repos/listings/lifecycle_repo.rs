//! `LifecycleRepository` over SeaORM: badge check state and status moves, each one guarded
//! UPDATE (a compare-and-set on the status), so concurrent processes never move a listing twice.

use crate::entity::listing;
use crate::shared::launches::publish_story;
use crate::{SeaStore, repo_err, utc};
use async_trait::async_trait;
use kernel::{ListingId, RepoError, Week};
use listings::{BadgeCheckRecord, LifecycleRepository, ListingStatus, QueuedListing};
use sea_orm::sea_query::Expr;
use sea_orm::{ColumnTrait, Condition, EntityTrait, QueryFilter, QueryOrder, QuerySelect};
use time::OffsetDateTime;

fn queued(row: listing::Model) -> Option<QueuedListing> {
    Some(QueuedListing {
        id: ListingId::new(row.id),
        launch_week: Week::containing(row.launch_week?),
        slug: row.slug,
        // A listing whose stored address is not a web address has no homepage to look at.
        url: kernel::WebUrl::parse(&row.url).ok()?,
        failures: u32::try_from(row.badge_failures).unwrap_or_default(),
    })
}

#[async_trait]
impl LifecycleRepository for SeaStore {
    async fn badge_checks_due(&self, now: OffsetDateTime, limit: u64) -> Result<Vec<QueuedListing>, RepoError> {
        let rows = listing::Entity::find()
            .filter(listing::Column::Status.eq(ListingStatus::AwaitingBadge.as_str()))
            .filter(listing::Column::LaunchWeek.is_not_null())
            .filter(Condition::any().add(listing::Column::BadgeNextCheckAt.is_null()).add(listing::Column::BadgeNextCheckAt.lte(utc(now))))
            .order_by_asc(listing::Column::Id)
            .limit(limit)
            .all(&self.db)
            .await
            .map_err(repo_err)?;
        Ok(rows.into_iter().filter_map(queued).collect())
    }

    async fn queued_listing(&self, id: ListingId) -> Result<Option<QueuedListing>, RepoError> {
        let row = listing::Entity::find_by_id(id.get())
            .filter(listing::Column::Status.eq(ListingStatus::AwaitingBadge.as_str()))
            .one(&self.db)
            .await
            .map_err(repo_err)?;
        Ok(row.and_then(queued))
    }

    async fn record_badge_check(&self, id: ListingId, record: &BadgeCheckRecord) -> Result<bool, RepoError> {
        let checked_at = utc(record.checked_at);
        let mut update = listing::Entity::update_many()
            .col_expr(listing::Column::BadgeCheckedAt, Expr::value(checked_at))
            .col_expr(listing::Column::BadgeCheckResult, Expr::value(record.result.clone()))
            .col_expr(listing::Column::BadgeCheckDetail, Expr::value(record.detail.chars().take(500).collect::<String>()))
            .col_expr(listing::Column::BadgeNextCheckAt, Expr::value(record.next_check_at.map(utc)))
            .col_expr(listing::Column::BadgeFailures, Expr::value(i32::try_from(record.failures).unwrap_or(i32::MAX)));
        if let Some(status) = record.publish {
            update = update
                .col_expr(listing::Column::Status, Expr::value(status.as_str()))
                .col_expr(listing::Column::BadgeSeenAt, Expr::value(checked_at))
                .col_expr(listing::Column::UpdatedAt, Expr::value(checked_at));
            if status == ListingStatus::Live {
                update = update.col_expr(listing::Column::LaunchedAt, Expr::value(checked_at));
            }
        }
        let done = update
            .filter(listing::Column::Id.eq(id.get()))
            .filter(listing::Column::Status.eq(ListingStatus::AwaitingBadge.as_str()))
            .exec(&self.db)
            .await
            .map_err(repo_err)?;
        if done.rows_affected == 1 && record.publish == Some(ListingStatus::Live) {
            publish_story(&self.db, id.get(), record.checked_at).await?;
        }
        Ok(done.rows_affected == 1)
    }

    async fn publish_scheduled(&self, week: Week, now: OffsetDateTime) -> Result<Vec<ListingId>, RepoError> {
        let due = listing::Entity::find()
            .filter(listing::Column::Status.eq(ListingStatus::Scheduled.as_str()))
            .filter(listing::Column::LaunchWeek.lte(week.monday()))
            // A free launch needs the badge seen; a paid (or unplanned) one does not.
            .filter(
                Condition::any()
                    .add(listing::Column::Plan.is_null())
                    .add(listing::Column::Plan.ne("free"))
                    .add(listing::Column::BadgeSeenAt.is_not_null()),
            )
            .order_by_asc(listing::Column::Id)
            .all(&self.db)
            .await
            .map_err(repo_err)?;
        let mut published = Vec::new();
        for row in due {
            let mut update = listing::Entity::update_many();
            // A listing whose week ended while no server ran launches in this week instead, so
            // a finished week's ranking and awards never change after the fact.
            if row.launch_week.is_some_and(|monday| monday < week.monday()) {
                update = update.col_expr(listing::Column::LaunchWeek, Expr::value(week.monday()));
            }
            let moved = update
                .col_expr(listing::Column::Status, Expr::value(ListingStatus::Live.as_str()))
                .col_expr(listing::Column::LaunchedAt, Expr::value(utc(now)))
                .col_expr(listing::Column::UpdatedAt, Expr::value(utc(now)))
                .filter(listing::Column::Id.eq(row.id))
                .filter(listing::Column::Status.eq(ListingStatus::Scheduled.as_str()))
                .exec(&self.db)
                .await
                .map_err(repo_err)?;
            if moved.rows_affected == 1 {
                publish_story(&self.db, row.id, now).await?;
                published.push(ListingId::new(row.id));
            }
        }
        // Paid relaunches whose week has come join this week's board.
        published.extend(crate::shared::launches::relaunch_due(&self.db, week, now).await?);
        Ok(published)
    }
}
