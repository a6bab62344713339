//! `OwnedListingRepository` over SeaORM.

use crate::entity::{
    founder, listing, listing_follow, listing_founder, listing_milestone, listing_story, listing_update, listing_version, user,
};
use crate::shared::rows::{copy_of, write_copy};
use crate::{SeaStore, fetch_page, repo_err};
use async_trait::async_trait;
use kernel::{ListingId, PageRequest, Paged, RepoError, UserId, Week};
use listings::{ListingEdit, ListingVersion, OwnedListing, OwnedListingRepository};
use sea_orm::sea_query::Expr;
use sea_orm::{ActiveModelTrait, ColumnTrait, EntityTrait, QueryFilter, QueryOrder, Set, TransactionTrait};
use time::{OffsetDateTime, UtcOffset};

/// Moves a listing's `updated_at` (search freshness depends on it) as the first write of a
/// transaction, which also takes SQLite's write lock before any read.
async fn touch<C: sea_orm::ConnectionTrait>(db: &C, id: ListingId, now: OffsetDateTime) -> Result<(), RepoError> {
    listing::Entity::update_many()
        .col_expr(listing::Column::UpdatedAt, Expr::value(now.to_offset(UtcOffset::UTC)))
        .filter(listing::Column::Id.eq(id.get()))
        .exec(db)
        .await
        .map_err(repo_err)?;
    Ok(())
}

fn to_version(row: listing_version::Model, editor_email: Option<String>) -> Result<ListingVersion, RepoError> {
    fn json<T: serde::de::DeserializeOwned>(value: serde_json::Value) -> Result<T, RepoError> {
        serde_json::from_value(value).map_err(RepoError::backend)
    }
    Ok(ListingVersion {
        id: row.id,
        listing_id: ListingId::new(row.listing_id),
        editor: row.editor_user_id.map(UserId::new),
        editor_email,
        changed: json(row.changed)?,
        before: json(row.before)?,
        after: json(row.after)?,
        created_at: row.created_at,
    })
}

fn to_owned_listing(row: listing::Model) -> Result<OwnedListing, RepoError> {
    let status = crate::listing_status(&row.status)?;
    Ok(OwnedListing {
        id: ListingId::new(row.id),
        slug: row.slug,
        name: row.name,
        url: row.url,
        tagline: row.tagline,
        status,
        plan: row.plan,
        launch_week: row.launch_week.map(Week::containing),
        launched_at: row.launched_at,
        unlocked_sections: row.unlocked_sections.and_then(|v| serde_json::from_value(v).ok()).unwrap_or_default(),
        badge_check: match (row.badge_check_result, row.badge_checked_at) {
            (Some(result), Some(checked_at)) => Some(listings::BadgeCheckState {
                result,
                detail: row.badge_check_detail,
                checked_at,
                seen_at: row.badge_seen_at,
                next_check_at: row.badge_next_check_at,
                failures: u32::try_from(row.badge_failures).unwrap_or_default(),
            }),
            _ => None,
        },
        created_at: row.created_at,
        updated_at: row.updated_at,
    })
}

#[async_trait]
impl OwnedListingRepository for SeaStore {
    async fn owned(&self, owner: UserId, page: PageRequest) -> Result<Paged<OwnedListing>, RepoError> {
        let query = listing::Entity::find()
            .filter(crate::shared::ownership::owned_by(owner))
            .order_by_desc(listing::Column::CreatedAt)
            .order_by_desc(listing::Column::Id);
        let (rows, total) = fetch_page(&self.db, query, page).await?;
        let items = rows.into_iter().map(to_owned_listing).collect::<Result<Vec<_>, _>>()?;
        Ok(Paged::new(items, page, total))
    }

    async fn owned_one(&self, owner: UserId, id: ListingId) -> Result<Option<OwnedListing>, RepoError> {
        let row = listing::Entity::find_by_id(id.get())
            .filter(crate::shared::ownership::owned_by(owner))
            .one(&self.db)
            .await
            .map_err(repo_err)?;
        row.map(to_owned_listing).transpose()
    }

    async fn free_slots_taken(&self, weeks: &[Week]) -> Result<Vec<(Week, u32)>, RepoError> {
        let mondays: Vec<time::Date> = weeks.iter().map(|week| week.monday()).collect();
        let rows = listing::Entity::find()
            .filter(listing::Column::Plan.eq("free"))
            .filter(listing::Column::Status.is_in(["awaiting_badge", "scheduled", "live"]))
            .filter(listing::Column::LaunchWeek.is_in(mondays))
            .all(&self.db)
            .await
            .map_err(repo_err)?;
        let mut taken: Vec<(Week, u32)> = Vec::new();
        for week in rows.into_iter().filter_map(|row| row.launch_week.map(Week::containing)) {
            match taken.iter_mut().find(|(w, _)| *w == week) {
                Some((_, n)) => *n += 1,
                None => taken.push((week, 1)),
            }
        }
        Ok(taken)
    }

    async fn owned_listing_by_id(&self, id: ListingId) -> Result<Option<OwnedListing>, RepoError> {
        let row = listing::Entity::find_by_id(id.get()).one(&self.db).await.map_err(repo_err)?;
        row.map(to_owned_listing).transpose()
    }

    async fn post_update(
        &self,
        id: ListingId,
        title: &str,
        body: &str,
        job_for: &(dyn Fn(i64) -> kernel::NewJob + Send + Sync),
        now: OffsetDateTime,
    ) -> Result<i64, RepoError> {
        let txn = self.db.begin().await.map_err(repo_err)?;
        touch(&txn, id, now).await?;
        let row = listing_update::ActiveModel {
            listing_id: Set(id.get()),
            title: Set(title.to_owned()),
            body: Set(body.to_owned()),
            created_at: Set(now.to_offset(UtcOffset::UTC)),
            ..Default::default()
        }
        .insert(&txn)
        .await
        .map_err(repo_err)?;
        crate::shared::rows::job_row(&job_for(row.id), now).insert(&txn).await.map_err(repo_err)?;
        txn.commit().await.map_err(repo_err)?;
        Ok(row.id)
    }

    async fn follower_emails(&self, id: ListingId) -> Result<Vec<kernel::Email>, RepoError> {
        let follower_ids: Vec<i64> = listing_follow::Entity::find()
            .filter(listing_follow::Column::ListingId.eq(id.get()))
            .all(&self.db)
            .await
            .map_err(repo_err)?
            .into_iter()
            .map(|row| row.user_id)
            .collect();
        let users = user::Entity::find()
            .filter(user::Column::Id.is_in(follower_ids))
            .filter(user::Column::Blocked.eq(false))
            .order_by_asc(user::Column::Id)
            .all(&self.db)
            .await
            .map_err(repo_err)?;
        Ok(users.into_iter().filter_map(|row| kernel::Email::parse(&row.email).ok()).collect())
    }

    async fn update_text(&self, id: ListingId, update_id: i64) -> Result<Option<(String, String)>, RepoError> {
        let row = listing_update::Entity::find_by_id(update_id)
            .filter(listing_update::Column::ListingId.eq(id.get()))
            .one(&self.db)
            .await
            .map_err(repo_err)?;
        Ok(row.map(|row| (row.title, row.body)))
    }

    async fn add_milestone(&self, id: ListingId, milestone: &listings::Milestone, now: OffsetDateTime) -> Result<i64, RepoError> {
        let txn = self.db.begin().await.map_err(repo_err)?;
        touch(&txn, id, now).await?;
        let row = listing_milestone::ActiveModel {
            listing_id: Set(id.get()),
            date: Set(milestone.date),
            title: Set(milestone.title.clone()),
            description: Set(milestone.description.clone()),
            url: Set(milestone.url.clone()),
            created_at: Set(now.to_offset(UtcOffset::UTC)),
            ..Default::default()
        }
        .insert(&txn)
        .await
        .map_err(repo_err)?;
        txn.commit().await.map_err(repo_err)?;
        Ok(row.id)
    }

    async fn set_founder_avatar(&self, id: ListingId, founder: &kernel::Slug, avatar: Option<kernel::ImageRef>) -> Result<bool, RepoError> {
        let of_listing = sea_orm::sea_query::Query::select()
            .column(listing_founder::Column::FounderId)
            .from(listing_founder::Entity)
            .and_where(listing_founder::Column::ListingId.eq(id.get()))
            .to_owned();
        let updated = founder::Entity::update_many()
            .col_expr(founder::Column::Avatar, Expr::value(avatar.map(|avatar| avatar.to_string())))
            .filter(founder::Column::Slug.eq(founder.as_str()))
            .filter(founder::Column::Id.in_subquery(of_listing))
            .exec(&self.db)
            .await
            .map_err(repo_err)?;
        Ok(updated.rows_affected == 1)
    }

    async fn delete_milestone(&self, id: ListingId, milestone_id: i64, now: OffsetDateTime) -> Result<bool, RepoError> {
        let txn = self.db.begin().await.map_err(repo_err)?;
        touch(&txn, id, now).await?;
        let deleted = listing_milestone::Entity::delete_many()
            .filter(listing_milestone::Column::Id.eq(milestone_id))
            .filter(listing_milestone::Column::ListingId.eq(id.get()))
            .exec(&txn)
            .await
            .map_err(repo_err)?;
        txn.commit().await.map_err(repo_err)?;
        Ok(deleted.rows_affected == 1)
    }

    async fn set_story(
        &self,
        id: ListingId,
        story: &kernel::Story,
        published_at: Option<OffsetDateTime>,
        now: OffsetDateTime,
    ) -> Result<(), RepoError> {
        let txn = self.db.begin().await.map_err(repo_err)?;
        touch(&txn, id, now).await?;
        listing_story::Entity::delete_many().filter(listing_story::Column::ListingId.eq(id.get())).exec(&txn).await.map_err(repo_err)?;
        listing_story::row(id.get(), story, published_at, now).insert(&txn).await.map_err(repo_err)?;
        txn.commit().await.map_err(repo_err)
    }

    async fn edit(
        &self,
        id: ListingId,
        editor: UserId,
        edit: &ListingEdit,
        now: OffsetDateTime,
    ) -> Result<Option<ListingVersion>, RepoError> {
        let txn = self.db.begin().await.map_err(repo_err)?;
        // The first write takes the row (PostgreSQL) or database (SQLite) lock, so concurrent
        // edits are applied one after the other and each version's `before` is what it changed.
        touch(&txn, id, now).await?;
        let row = listing::Entity::find_by_id(id.get())
            .one(&txn)
            .await
            .map_err(repo_err)?
            .ok_or_else(|| RepoError::Backend(format!("listing {} vanished during an edit", id.get()).into()))?;
        let before = copy_of(&row);
        let (after, changed) = edit.apply(&before);
        if changed.is_empty() {
            txn.rollback().await.map_err(repo_err)?;
            return Ok(None);
        }
        let mut active: listing::ActiveModel = row.into();
        write_copy(&mut active, &after);
        active.update(&txn).await.map_err(repo_err)?;
        let version = listing_version::ActiveModel {
            listing_id: Set(id.get()),
            editor_user_id: Set(Some(editor.get())),
            changed: Set(serde_json::json!(changed)),
            before: Set(serde_json::to_value(&before).map_err(RepoError::backend)?),
            after: Set(serde_json::to_value(&after).map_err(RepoError::backend)?),
            created_at: Set(now.to_offset(UtcOffset::UTC)),
            ..Default::default()
        }
        .insert(&txn)
        .await
        .map_err(repo_err)?;
        txn.commit().await.map_err(repo_err)?;
        to_version(version, None).map(Some)
    }

    async fn versions(&self, listing: Option<ListingId>, limit: u64) -> Result<Vec<ListingVersion>, RepoError> {
        let mut query = listing_version::Entity::find().order_by_desc(listing_version::Column::Id);
        if let Some(id) = listing {
            query = query.filter(listing_version::Column::ListingId.eq(id.get()));
        }
        let rows = sea_orm::QuerySelect::limit(query, limit).all(&self.db).await.map_err(repo_err)?;
        let editors: Vec<i64> = rows.iter().filter_map(|row| row.editor_user_id).collect();
        let emails = crate::emails_of(&self.db, editors).await?;
        rows.into_iter()
            .map(|row| {
                let email = row.editor_user_id.and_then(|id| emails.get(&id).cloned());
                to_version(row, email)
            })
            .collect()
    }

    async fn version(&self, id: i64) -> Result<Option<ListingVersion>, RepoError> {
        let Some(row) = listing_version::Entity::find_by_id(id).one(&self.db).await.map_err(repo_err)? else {
            return Ok(None);
        };
        let email = match row.editor_user_id {
            Some(user) => user::Entity::find_by_id(user).one(&self.db).await.map_err(repo_err)?.map(|user| user.email),
            None => None,
        };
        to_version(row, email).map(Some)
    }

    async fn queue_free(&self, id: ListingId, week: Week, now: OffsetDateTime) -> Result<bool, RepoError> {
        // Compare-and-set on the status: of two concurrent calls, one queues.
        let updated = listing::Entity::update_many()
            .col_expr(listing::Column::Status, Expr::value("awaiting_badge"))
            .col_expr(listing::Column::Plan, Expr::value("free"))
            .col_expr(listing::Column::LaunchWeek, Expr::value(week.monday()))
            .col_expr(listing::Column::UpdatedAt, Expr::value(now.to_offset(UtcOffset::UTC)))
            .filter(listing::Column::Id.eq(id.get()))
            .filter(listing::Column::Status.eq("draft"))
            .exec(&self.db)
            .await
            .map_err(repo_err)?;
        Ok(updated.rows_affected == 1)
    }
}
