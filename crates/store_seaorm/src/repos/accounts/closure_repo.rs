//! `AccountCloser` over SeaORM: one transaction closes an account. Votes go through
//! `votes_repo` (which keeps `votes_count` in step) and follows through `follows` (which keeps
//! `follows_count`); the user row stays, with placeholders for
//! the address and name, so orders keep their customer for the bookkeeping.
//! `AccessRevoker`: what closing does to sessions, keys and tokens (`end_access_of`), alone,
//! for a new password.

use crate::entity::{api_key, claim, email_token, listing, listing_owner, oauth_code, oauth_token, review, user, web_session};
use crate::{SeaStore, repo_err, utc};
use accounts::{AccessRevoker, AccountCloser, Closed, Ended};
use async_trait::async_trait;
use kernel::{RepoError, UserId};
use sea_orm::sea_query::Expr;
use sea_orm::{ColumnTrait, ConnectionTrait, EntityTrait, QueryFilter, TransactionTrait};
use time::OffsetDateTime;

/// Ends every way into account `id`, inside the caller's transaction: its sessions and
/// authorization codes deleted, its API keys and OAuth tokens (access and refresh alike)
/// revoked at `at`. Closing an account and a new password both come here: one copy of what
/// "every way in" means.
async fn end_access_of(txn: &impl ConnectionTrait, id: i64, at: OffsetDateTime) -> Result<Ended, RepoError> {
    let sessions =
        web_session::Entity::delete_many().filter(web_session::Column::UserId.eq(id)).exec(txn).await.map_err(repo_err)?.rows_affected;
    oauth_code::Entity::delete_many().filter(oauth_code::Column::UserId.eq(id)).exec(txn).await.map_err(repo_err)?;
    let oauth_tokens = oauth_token::Entity::update_many()
        .col_expr(oauth_token::Column::RevokedAt, Expr::value(utc(at)))
        .filter(oauth_token::Column::UserId.eq(id))
        .filter(oauth_token::Column::RevokedAt.is_null())
        .exec(txn)
        .await
        .map_err(repo_err)?
        .rows_affected;
    let api_keys = api_key::Entity::update_many()
        .col_expr(api_key::Column::RevokedAt, Expr::value(utc(at)))
        .filter(api_key::Column::UserId.eq(id))
        .filter(api_key::Column::RevokedAt.is_null())
        .exec(txn)
        .await
        .map_err(repo_err)?
        .rows_affected;
    Ok(Ended { sessions, api_keys, oauth_tokens })
}

#[async_trait]
impl AccessRevoker for SeaStore {
    async fn end_every_access(&self, user: UserId, at: OffsetDateTime) -> Result<Ended, RepoError> {
        let txn = self.db.begin().await.map_err(repo_err)?;
        let ended = end_access_of(&txn, user.get(), at).await?;
        txn.commit().await.map_err(repo_err)?;
        Ok(ended)
    }
}

#[async_trait]
impl AccountCloser for SeaStore {
    async fn close_account(&self, user: UserId, at: OffsetDateTime) -> Result<Closed, RepoError> {
        let id = user.get();
        let txn = self.db.begin().await.map_err(repo_err)?;
        let votes_withdrawn = crate::shared::votes::withdraw_all_of(&txn, user).await?;
        let reviews_deleted =
            review::Entity::delete_many().filter(review::Column::UserId.eq(id)).exec(&txn).await.map_err(repo_err)?.rows_affected;
        crate::shared::follows::unfollow_all_of(&txn, id).await?;
        // The listings whose ownership ends here (read after the first writes, so SQLite holds
        // the write lock already), to settle their Verified mark once it has.
        let owned: Vec<i64> = listing::Entity::find()
            .filter(crate::shared::ownership::owned_by(user))
            .all(&txn)
            .await
            .map_err(repo_err)?
            .into_iter()
            .map(|row| row.id)
            .collect();
        let listings_kept = listing::Entity::update_many()
            .col_expr(listing::Column::OwnerUserId, Expr::value(Option::<i64>::None))
            .filter(listing::Column::OwnerUserId.eq(id))
            .exec(&txn)
            .await
            .map_err(repo_err)?
            .rows_affected;
        // Ownership by claim ends with the account; its pending claims can no longer verify.
        listing_owner::Entity::delete_many().filter(listing_owner::Column::UserId.eq(id)).exec(&txn).await.map_err(repo_err)?;
        // A listing whose last verified owner this was loses its Verified badge with them.
        crate::shared::ownership::settle_verified(&txn, &owned).await?;
        claim::Entity::update_many()
            .col_expr(claim::Column::Status, Expr::value("expired"))
            .filter(claim::Column::ClaimantUserId.eq(id))
            .filter(claim::Column::Status.eq("pending"))
            .exec(&txn)
            .await
            .map_err(repo_err)?;
        end_access_of(&txn, id, at).await?;
        email_token::Entity::delete_many().filter(email_token::Column::UserId.eq(id)).exec(&txn).await.map_err(repo_err)?;
        user::Entity::update_many()
            .col_expr(user::Column::Email, Expr::value(format!("closed-{id}@closed.invalid")))
            .col_expr(user::Column::DisplayName, Expr::value("Closed account"))
            .col_expr(user::Column::PasswordHash, Expr::value(Option::<String>::None))
            .col_expr(user::Column::EmailConfirmedAt, Expr::value(Option::<OffsetDateTime>::None))
            .col_expr(user::Column::Blocked, Expr::value(true))
            .filter(user::Column::Id.eq(id))
            .exec(&txn)
            .await
            .map_err(repo_err)?;
        txn.commit().await.map_err(repo_err)?;
        Ok(Closed { votes_withdrawn, reviews_deleted, listings_kept })
    }
}
