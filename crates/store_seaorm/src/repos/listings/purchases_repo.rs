//! `PurchaseRepository` over SeaORM: what paid products write on listings. Each write is
//! idempotent (a status set, a flag, an insert that ignores what exists) or keyed by the order
//! line under a unique index, so a fulfilment job run twice writes once.

use crate::entity::{billboard_contribution, category, listing, listing_category, listing_relaunch};
use crate::shared::launches::publish_story;
use crate::shared::launches::relaunch_due;
use crate::{SeaStore, repo_err, utc};
use async_trait::async_trait;
use kernel::{Cents, ListingId, RepoError, UserId, Week};
use listings::{ListingStatus, PAID_SECTIONS, PurchaseFacts, PurchaseRepository};
use sea_orm::sea_query::Expr;
use sea_orm::{ColumnTrait, EntityTrait, QueryFilter, QuerySelect, Set, TransactionTrait};
use time::OffsetDateTime;

#[async_trait]
impl PurchaseRepository for SeaStore {
    async fn facts(&self, owner: UserId, id: ListingId) -> Result<Option<PurchaseFacts>, RepoError> {
        let Some(row) = listing::Entity::find_by_id(id.get())
            .filter(crate::shared::ownership::owned_by(owner))
            .one(&self.db)
            .await
            .map_err(repo_err)?
        else {
            return Ok(None);
        };
        let memberships = listing_category::Entity::find()
            .filter(listing_category::Column::ListingId.eq(row.id))
            .all(&self.db)
            .await
            .map_err(repo_err)?;
        let ids: Vec<i64> = memberships.iter().map(|membership| membership.category_id).collect();
        let slugs = category::Entity::find().filter(category::Column::Id.is_in(ids)).all(&self.db).await.map_err(repo_err)?;
        let slug_of = |id: i64| slugs.iter().find(|category| category.id == id).map(|category| category.slug.clone());
        let primary = memberships
            .iter()
            .find(|membership| membership.is_primary)
            .map(|membership| membership.category_id)
            .or(row.primary_category_id);
        Ok(Some(PurchaseFacts {
            id,
            name: row.name.clone(),
            status: crate::listing_status(&row.status)?,
            plan: row.plan,
            launch_week: row.launch_week.map(Week::containing),
            primary_category: primary.and_then(slug_of),
            categories: memberships.iter().filter_map(|membership| slug_of(membership.category_id)).collect(),
        }))
    }

    async fn existing_categories(&self, slugs: &[String]) -> Result<Vec<String>, RepoError> {
        Ok(category::Entity::find()
            .filter(category::Column::Slug.is_in(slugs.iter().cloned()))
            .all(&self.db)
            .await
            .map_err(repo_err)?
            .into_iter()
            .map(|row| row.slug)
            .collect())
    }

    async fn paid_launches_booked(&self, weeks: &[Week]) -> Result<Vec<(Week, u32)>, RepoError> {
        let mondays: Vec<time::Date> = weeks.iter().map(|week| week.monday()).collect();
        let counts: Vec<(Option<time::Date>, i64)> = listing::Entity::find()
            .select_only()
            .column(listing::Column::LaunchWeek)
            .column_as(listing::Column::Id.count(), "booked")
            .filter(listing::Column::Plan.eq("paid"))
            .filter(listing::Column::Status.is_in(["scheduled", "live"]))
            .filter(listing::Column::LaunchWeek.is_in(mondays))
            .group_by(listing::Column::LaunchWeek)
            .into_tuple()
            .all(&self.db)
            .await
            .map_err(repo_err)?;
        Ok(counts
            .into_iter()
            .filter_map(|(monday, booked)| Some((Week::containing(monday?), u32::try_from(booked).unwrap_or(u32::MAX))))
            .collect())
    }

    async fn launch_paid(
        &self,
        id: ListingId,
        week: Week,
        live_now: bool,
        order_line: i64,
        now: OffsetDateTime,
    ) -> Result<Option<ListingStatus>, RepoError> {
        let txn = self.db.begin().await.map_err(repo_err)?;
        let row = listing::Entity::find_by_id(id.get())
            .one(&txn)
            .await
            .map_err(repo_err)?
            .ok_or_else(|| RepoError::Backend(format!("listing {id} is gone").into()))?;
        let was = crate::listing_status(&row.status)?;
        match row.paid_launch_line_id {
            // This line's launch was applied before (the job runs again): nothing to do.
            Some(line) if line == order_line => return Ok(Some(was)),
            Some(_) => return Ok(None),
            None => {}
        }
        let mut update = listing::Entity::update_many()
            .col_expr(listing::Column::Plan, Expr::value("paid"))
            .col_expr(listing::Column::PaidLaunchLineId, Expr::value(order_line))
            .col_expr(listing::Column::UnlockedSections, Expr::value(serde_json::json!(PAID_SECTIONS)))
            .col_expr(listing::Column::UpdatedAt, Expr::value(utc(now)));
        if was != ListingStatus::Live {
            let status = if live_now { ListingStatus::Live } else { ListingStatus::Scheduled };
            update = update
                .col_expr(listing::Column::Status, Expr::value(status.as_str()))
                .col_expr(listing::Column::LaunchWeek, Expr::value(week.monday()));
            if live_now {
                update = update.col_expr(listing::Column::LaunchedAt, Expr::value(utc(now)));
            }
        }
        let moved = update
            .filter(listing::Column::Id.eq(id.get()))
            .filter(listing::Column::Status.eq(row.status.clone()))
            .filter(listing::Column::PaidLaunchLineId.is_null())
            .exec(&txn)
            .await
            .map_err(repo_err)?;
        if moved.rows_affected != 1 {
            // Another job moved the listing in between: the fulfilment job runs again.
            return Err(RepoError::Backend(format!("listing {id} changed status while it was being launched").into()));
        }
        if live_now && was != ListingStatus::Live {
            publish_story(&txn, id.get(), now).await?;
        }
        txn.commit().await.map_err(repo_err)?;
        Ok(Some(was))
    }

    async fn move_free_week(&self, id: ListingId, week: Week, now: OffsetDateTime) -> Result<bool, RepoError> {
        let moved = listing::Entity::update_many()
            .col_expr(listing::Column::LaunchWeek, Expr::value(week.monday()))
            .col_expr(listing::Column::UpdatedAt, Expr::value(utc(now)))
            .filter(listing::Column::Id.eq(id.get()))
            .filter(listing::Column::Plan.eq("free"))
            .filter(listing::Column::Status.is_in([ListingStatus::AwaitingBadge.as_str(), ListingStatus::Scheduled.as_str()]))
            .exec(&self.db)
            .await
            .map_err(repo_err)?;
        Ok(moved.rows_affected == 1)
    }

    async fn feature(&self, id: ListingId, now: OffsetDateTime) -> Result<(), RepoError> {
        listing::Entity::update_many()
            .col_expr(listing::Column::FeaturedAt, Expr::value(utc(now)))
            .col_expr(listing::Column::UpdatedAt, Expr::value(utc(now)))
            .filter(listing::Column::Id.eq(id.get()))
            .filter(listing::Column::FeaturedAt.is_null())
            .exec(&self.db)
            .await
            .map_err(repo_err)?;
        Ok(())
    }

    async fn add_categories(&self, id: ListingId, slugs: &[String], now: OffsetDateTime) -> Result<(), RepoError> {
        let categories =
            category::Entity::find().filter(category::Column::Slug.is_in(slugs.iter().cloned())).all(&self.db).await.map_err(repo_err)?;
        let txn = self.db.begin().await.map_err(repo_err)?;
        for category in categories {
            let row = listing_category::ActiveModel { listing_id: Set(id.get()), category_id: Set(category.id), is_primary: Set(false) };
            listing_category::Entity::insert(row)
                .on_conflict_do_nothing_on([listing_category::Column::ListingId, listing_category::Column::CategoryId])
                .exec(&txn)
                .await
                .map_err(repo_err)?;
        }
        listing::Entity::update_many()
            .col_expr(listing::Column::UpdatedAt, Expr::value(utc(now)))
            .filter(listing::Column::Id.eq(id.get()))
            .exec(&txn)
            .await
            .map_err(repo_err)?;
        txn.commit().await.map_err(repo_err)
    }

    async fn add_billboard(&self, id: ListingId, amount: Cents, order_line: i64, now: OffsetDateTime) -> Result<(), RepoError> {
        let row = billboard_contribution::ActiveModel {
            listing_id: Set(id.get()),
            amount_cents: Set(amount.get()),
            order_line_id: Set(Some(order_line)),
            created_at: Set(utc(now)),
            ..Default::default()
        };
        billboard_contribution::Entity::insert(row)
            .on_conflict_do_nothing_on([billboard_contribution::Column::OrderLineId])
            .exec(&self.db)
            .await
            .map_err(repo_err)?;
        Ok(())
    }

    async fn relaunch(&self, id: ListingId, week: Week, order_line: i64, at_once: bool, now: OffsetDateTime) -> Result<(), RepoError> {
        let txn = self.db.begin().await.map_err(repo_err)?;
        let row = listing_relaunch::ActiveModel {
            listing_id: Set(id.get()),
            week: Set(week.monday()),
            order_line_id: Set(order_line),
            relaunched_at: Set(None),
            ..Default::default()
        };
        listing_relaunch::Entity::insert(row)
            .on_conflict_do_nothing_on([listing_relaunch::Column::OrderLineId])
            .exec(&txn)
            .await
            .map_err(repo_err)?;
        if at_once {
            relaunch_due(&txn, week, now).await?;
        }
        txn.commit().await.map_err(repo_err)
    }
}
