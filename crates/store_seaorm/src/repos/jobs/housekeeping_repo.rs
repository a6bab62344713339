//! `kernel::Housekeeping` on SeaORM: the daily purge, one `DELETE` per table, each bounded by
//! an indexed time column (the search feed by its position).

use crate::entity::{claim_email, email_token, idempotency_key, job, listing_change, oauth_code, oauth_token, web_session};
use crate::{SeaStore, repo_err};
use async_trait::async_trait;
use kernel::{Housekeeping, PurgeCutoffs, Purged, RepoError};
use sea_orm::{ColumnTrait, EntityTrait, QueryFilter};
use time::UtcOffset;

#[async_trait]
impl Housekeeping for SeaStore {
    async fn purge(&self, cutoffs: &PurgeCutoffs) -> Result<Purged, RepoError> {
        let utc = |at: time::OffsetDateTime| at.to_offset(UtcOffset::UTC);
        let expired = utc(cutoffs.expired_before);
        let idempotency_keys = idempotency_key::Entity::delete_many()
            .filter(idempotency_key::Column::CreatedAt.lt(utc(cutoffs.idempotency_before)))
            .exec(&self.db)
            .await
            .map_err(repo_err)?
            .rows_affected;
        let jobs = job::Entity::delete_many()
            .filter(job::Column::State.is_in(["done", "failed"]))
            .filter(job::Column::FinishedAt.lt(utc(cutoffs.jobs_finished_before)))
            .exec(&self.db)
            .await
            .map_err(repo_err)?
            .rows_affected;
        let sessions = web_session::Entity::delete_many()
            .filter(web_session::Column::ExpiresAt.lt(expired))
            .exec(&self.db)
            .await
            .map_err(repo_err)?
            .rows_affected;
        let oauth_codes = oauth_code::Entity::delete_many()
            .filter(oauth_code::Column::ExpiresAt.lt(expired))
            .exec(&self.db)
            .await
            .map_err(repo_err)?
            .rows_affected;
        let oauth_tokens = oauth_token::Entity::delete_many()
            .filter(oauth_token::Column::ExpiresAt.lt(expired))
            .exec(&self.db)
            .await
            .map_err(repo_err)?
            .rows_affected;
        let email_tokens = email_token::Entity::delete_many()
            .filter(email_token::Column::ExpiresAt.lt(expired))
            .exec(&self.db)
            .await
            .map_err(repo_err)?
            .rows_affected;
        // The search indexes' change feed keeps its newest positions (by count, not age: a
        // quiet directory keeps the same history as a busy one).
        let listing_changes = match crate::shared::queries::feed_head(&self.db).await? {
            Some(head) if head > crate::shared::queries::CHANGES_KEPT => {
                listing_change::Entity::delete_many()
                    .filter(listing_change::Column::Seq.lte(head - crate::shared::queries::CHANGES_KEPT))
                    .exec(&self.db)
                    .await
                    .map_err(repo_err)?
                    .rows_affected
            }
            _ => 0,
        };
        let claim_emails = claim_email::Entity::delete_many()
            .filter(claim_email::Column::CreatedAt.lt(utc(cutoffs.claim_emails_before)))
            .exec(&self.db)
            .await
            .map_err(repo_err)?
            .rows_affected;
        crate::db::optimize(&self.db).await.map_err(repo_err)?;
        Ok(Purged { idempotency_keys, jobs, sessions, oauth_codes, oauth_tokens, email_tokens, listing_changes, claim_emails })
    }
}
