//! `EmailTokenRepository` over SeaORM: e-mailed links' tokens, used by one conditional update.

use crate::entity::{email_token, user};
use crate::{SeaStore, repo_err, utc};
use accounts::{EmailTokenPurpose, EmailTokenRepository, NewEmailToken};
use async_trait::async_trait;
use kernel::{RepoError, UserId};
use sea_orm::sea_query::Expr;
use sea_orm::{ActiveModelTrait, ColumnTrait, EntityTrait, PaginatorTrait, QueryFilter, Set};
use time::OffsetDateTime;

#[async_trait]
impl EmailTokenRepository for SeaStore {
    async fn insert_email_token(&self, token: NewEmailToken) -> Result<(), RepoError> {
        email_token::ActiveModel {
            user_id: Set(token.user_id.get()),
            purpose: Set(token.purpose.as_str().to_owned()),
            token_hash: Set(token.token_hash),
            created_at: Set(utc(token.created_at)),
            expires_at: Set(utc(token.expires_at)),
            used_at: Set(None),
            ..Default::default()
        }
        .insert(&self.db)
        .await
        .map_err(repo_err)?;
        Ok(())
    }

    async fn count_email_tokens_since(&self, user_id: UserId, purpose: EmailTokenPurpose, since: OffsetDateTime) -> Result<u64, RepoError> {
        email_token::Entity::find()
            .filter(email_token::Column::UserId.eq(user_id.get()))
            .filter(email_token::Column::Purpose.eq(purpose.as_str()))
            .filter(email_token::Column::CreatedAt.gte(utc(since)))
            .count(&self.db)
            .await
            .map_err(repo_err)
    }

    async fn use_email_token(
        &self,
        purpose: EmailTokenPurpose,
        token_hash: &str,
        now: OffsetDateTime,
    ) -> Result<Option<UserId>, RepoError> {
        let Some(row) = email_token::Entity::find()
            .filter(email_token::Column::TokenHash.eq(token_hash))
            .filter(email_token::Column::Purpose.eq(purpose.as_str()))
            .one(&self.db)
            .await
            .map_err(repo_err)?
        else {
            return Ok(None);
        };
        // The use is the update's condition, so of two uses at once only one changes the row.
        let used = email_token::Entity::update_many()
            .col_expr(email_token::Column::UsedAt, Expr::value(utc(now)))
            .filter(email_token::Column::Id.eq(row.id))
            .filter(email_token::Column::UsedAt.is_null())
            .filter(email_token::Column::ExpiresAt.gt(utc(now)))
            .exec(&self.db)
            .await
            .map_err(repo_err)?
            .rows_affected;
        Ok((used == 1).then(|| UserId::new(row.user_id)))
    }

    async fn set_email_confirmed(&self, user_id: UserId, at: OffsetDateTime) -> Result<(), RepoError> {
        user::Entity::update_many()
            .col_expr(user::Column::EmailConfirmedAt, Expr::value(utc(at)))
            .filter(user::Column::Id.eq(user_id.get()))
            .filter(user::Column::EmailConfirmedAt.is_null())
            .exec(&self.db)
            .await
            .map_err(repo_err)?;
        Ok(())
    }
}
