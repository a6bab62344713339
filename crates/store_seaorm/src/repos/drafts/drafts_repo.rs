//! `DraftRepository` and `DraftCategories` over SeaORM.

use crate::entity::{category, draft, draft_invite};
use crate::shared::rows::job_row;
use crate::{SeaStore, repo_err};
use async_trait::async_trait;
use drafts::{CategoryRef, Draft, DraftCategories, DraftId, DraftRepository, InviteOutcome, InviteQuota, SiteSnapshot, StoredInvite};
use kernel::{NewJob, PageRequest, Paged, RepoError, UserId};
use sea_orm::sea_query::{Expr, ExprTrait};
use sea_orm::{ActiveModelTrait, ColumnTrait, EntityTrait, PaginatorTrait, QueryFilter, QueryOrder, QuerySelect, Set, TransactionTrait};
use time::OffsetDateTime;

fn to_draft(row: draft::Model) -> Result<(Draft, u64), RepoError> {
    let draft: Draft = serde_json::from_value(row.document).map_err(RepoError::backend)?;
    Ok((draft, u64::try_from(row.version).unwrap_or(0)))
}

fn document(draft: &Draft) -> Result<serde_json::Value, RepoError> {
    serde_json::to_value(draft).map_err(RepoError::backend)
}

#[async_trait]
impl DraftRepository for SeaStore {
    async fn insert(&self, draft: &Draft, job: &NewJob) -> Result<(), RepoError> {
        let txn = self.db.begin().await.map_err(repo_err)?;
        draft::ActiveModel {
            id: Set(draft.id.to_string()),
            owner_user_id: Set(draft.owner.get()),
            status: Set(draft.status.as_str().into()),
            document: Set(document(draft)?),
            snapshot: Set(None),
            version: Set(0),
            created_at: Set(draft.created_at.to_offset(time::UtcOffset::UTC)),
            updated_at: Set(draft.updated_at.to_offset(time::UtcOffset::UTC)),
        }
        .insert(&txn)
        .await
        .map_err(repo_err)?;
        job_row(job, draft.created_at).insert(&txn).await.map_err(repo_err)?;
        txn.commit().await.map_err(repo_err)
    }

    async fn get(&self, id: DraftId) -> Result<Option<(Draft, u64)>, RepoError> {
        let row = draft::Entity::find_by_id(id.to_string()).one(&self.db).await.map_err(repo_err)?;
        row.map(to_draft).transpose()
    }

    async fn list(&self, owner: UserId, page: PageRequest) -> Result<Paged<Draft>, RepoError> {
        let query = draft::Entity::find().filter(draft::Column::OwnerUserId.eq(owner.get()));
        let total = query.clone().count(&self.db).await.map_err(repo_err)?;
        let rows = query
            .order_by_desc(draft::Column::CreatedAt)
            .order_by_desc(draft::Column::Id)
            .offset(page.offset())
            .limit(u64::from(page.per_page()))
            .all(&self.db)
            .await
            .map_err(repo_err)?;
        let items = rows.into_iter().map(|row| to_draft(row).map(|(draft, _)| draft)).collect::<Result<Vec<_>, _>>()?;
        Ok(Paged::new(items, page, total))
    }

    async fn save(&self, draft: &Draft, version: u64, job: Option<&NewJob>) -> Result<bool, RepoError> {
        let txn = self.db.begin().await.map_err(repo_err)?;
        let version = i64::try_from(version).map_err(RepoError::backend)?;
        let updated = draft::Entity::update_many()
            .col_expr(draft::Column::Status, Expr::value(draft.status.as_str()))
            .col_expr(draft::Column::Document, Expr::value(document(draft)?))
            .col_expr(draft::Column::Version, Expr::col(draft::Column::Version).add(1))
            .col_expr(draft::Column::UpdatedAt, Expr::value(draft.updated_at.to_offset(time::UtcOffset::UTC)))
            .filter(draft::Column::Id.eq(draft.id.to_string()))
            .filter(draft::Column::Version.eq(version))
            .exec(&txn)
            .await
            .map_err(repo_err)?;
        if updated.rows_affected != 1 {
            txn.rollback().await.map_err(repo_err)?;
            return Ok(false);
        }
        if let Some(job) = job {
            job_row(job, draft.updated_at).insert(&txn).await.map_err(repo_err)?;
        }
        txn.commit().await.map_err(repo_err)?;
        Ok(true)
    }

    async fn save_snapshot(&self, id: DraftId, snapshot: &SiteSnapshot) -> Result<(), RepoError> {
        let value = serde_json::to_value(snapshot).map_err(RepoError::backend)?;
        draft::Entity::update_many()
            .col_expr(draft::Column::Snapshot, Expr::value(value))
            .filter(draft::Column::Id.eq(id.to_string()))
            .exec(&self.db)
            .await
            .map_err(repo_err)?;
        Ok(())
    }

    async fn snapshot(&self, id: DraftId) -> Result<Option<SiteSnapshot>, RepoError> {
        let row = draft::Entity::find_by_id(id.to_string()).one(&self.db).await.map_err(repo_err)?;
        match row.and_then(|row| row.snapshot) {
            Some(value) => serde_json::from_value(value).map(Some).map_err(RepoError::backend),
            None => Ok(None),
        }
    }

    async fn add_invite(
        &self,
        id: DraftId,
        owner: UserId,
        email: &str,
        token_hash: &str,
        quota: InviteQuota,
        now: OffsetDateTime,
    ) -> Result<InviteOutcome, RepoError> {
        let txn = self.db.begin().await.map_err(repo_err)?;
        // Takes the write lock first (SQLite) or the owner's draft rows (PostgreSQL), so the
        // counts below cannot go stale for this draft or this account.
        draft::Entity::update_many()
            .col_expr(draft::Column::Version, Expr::col(draft::Column::Version))
            .filter(draft::Column::OwnerUserId.eq(owner.get()))
            .exec(&txn)
            .await
            .map_err(repo_err)?;
        let invites = draft_invite::Entity::find().filter(draft_invite::Column::DraftId.eq(id.to_string()));
        let sent = invites.clone().count(&txn).await.map_err(repo_err)?;
        let taken = invites.filter(draft_invite::Column::Email.eq(email)).count(&txn).await.map_err(repo_err)?;
        if taken > 0 {
            return Ok(InviteOutcome::Duplicate);
        }
        if sent >= u64::from(quota.per_draft) {
            return Ok(InviteOutcome::LimitReached);
        }
        let day_ago = (now - time::Duration::DAY).to_offset(time::UtcOffset::UTC);
        let owners_drafts = sea_orm::sea_query::Query::select()
            .column(draft::Column::Id)
            .from(draft::Entity)
            .and_where(draft::Column::OwnerUserId.eq(owner.get()))
            .to_owned();
        let by_account = draft_invite::Entity::find()
            .filter(draft_invite::Column::DraftId.in_subquery(owners_drafts))
            .filter(draft_invite::Column::CreatedAt.gt(day_ago));
        if let Some(oldest) = over_quota(&txn, by_account, quota.per_account_per_day).await? {
            return Ok(InviteOutcome::AccountDaily { oldest });
        }
        let to_recipient =
            draft_invite::Entity::find().filter(draft_invite::Column::Email.eq(email)).filter(draft_invite::Column::CreatedAt.gt(day_ago));
        if let Some(oldest) = over_quota(&txn, to_recipient, quota.per_recipient_per_day).await? {
            return Ok(InviteOutcome::RecipientDaily { oldest });
        }
        let inserted = draft_invite::ActiveModel {
            draft_id: Set(id.to_string()),
            email: Set(email.to_owned()),
            token_hash: Set(token_hash.to_owned()),
            created_at: Set(now.to_offset(time::UtcOffset::UTC)),
            ..Default::default()
        }
        .insert(&txn)
        .await
        .map_err(repo_err);
        match inserted {
            Ok(_) => {
                txn.commit().await.map_err(repo_err)?;
                Ok(InviteOutcome::Added { sent: u32::try_from(sent + 1).unwrap_or(u32::MAX) })
            }
            // A concurrent request invited the same address first.
            Err(RepoError::Duplicate(_)) => Ok(InviteOutcome::Duplicate),
            Err(err) => Err(err),
        }
    }

    async fn invite_by_token(&self, token_hash: &str) -> Result<Option<StoredInvite>, RepoError> {
        let Some(row) =
            draft_invite::Entity::find().filter(draft_invite::Column::TokenHash.eq(token_hash)).one(&self.db).await.map_err(repo_err)?
        else {
            return Ok(None);
        };
        let draft = row.draft_id.parse::<DraftId>().map_err(RepoError::backend)?;
        Ok(Some(StoredInvite { id: row.id, draft, email: row.email, created_at: row.created_at, accepted_at: row.accepted_at }))
    }

    async fn accept_invite(&self, invite: i64, user: UserId, at: OffsetDateTime) -> Result<bool, RepoError> {
        let changed = draft_invite::Entity::update_many()
            .col_expr(draft_invite::Column::AcceptedAt, Expr::value(at.to_offset(time::UtcOffset::UTC)))
            .col_expr(draft_invite::Column::AcceptedBy, Expr::value(user.get()))
            .filter(draft_invite::Column::Id.eq(invite))
            .filter(draft_invite::Column::AcceptedAt.is_null())
            .exec(&self.db)
            .await
            .map_err(repo_err)?;
        Ok(changed.rows_affected == 1)
    }

    async fn reopen_invite(&self, invite: i64) -> Result<(), RepoError> {
        draft_invite::Entity::update_many()
            .col_expr(draft_invite::Column::AcceptedAt, Expr::value(Option::<OffsetDateTime>::None))
            .col_expr(draft_invite::Column::AcceptedBy, Expr::value(Option::<i64>::None))
            .filter(draft_invite::Column::Id.eq(invite))
            .exec(&self.db)
            .await
            .map_err(repo_err)?;
        Ok(())
    }
}

#[async_trait]
impl DraftCategories for SeaStore {
    async fn all(&self) -> Result<Vec<CategoryRef>, RepoError> {
        let rows = category::Entity::find().order_by_asc(category::Column::Position).all(&self.db).await.map_err(repo_err)?;
        Ok(rows.into_iter().map(|row| CategoryRef { slug: row.slug, name: row.name, description: row.description }).collect())
    }
}

/// When `invitations` already number `quota` or more: the oldest of them.
async fn over_quota(
    txn: &sea_orm::DatabaseTransaction,
    invitations: sea_orm::Select<draft_invite::Entity>,
    quota: u32,
) -> Result<Option<OffsetDateTime>, RepoError> {
    if invitations.clone().count(txn).await.map_err(repo_err)? < u64::from(quota) {
        return Ok(None);
    }
    let oldest = invitations.order_by_asc(draft_invite::Column::CreatedAt).one(txn).await.map_err(repo_err)?;
    Ok(oldest.map(|invite| invite.created_at))
}
