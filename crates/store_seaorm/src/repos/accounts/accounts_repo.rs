//! `UserRepository` and `ApiKeyRepository` over SeaORM.

use crate::entity::{api_key, user};
use crate::shared::rows::to_user;
use crate::{SeaStore, repo_err};
use accounts::ports::NewApiKey;
use accounts::{ApiKey, ApiKeyRepository, NewUser, Scopes, User, UserRepository};
use async_trait::async_trait;
use kernel::{ApiKeyId, Email, RepoError, UserId};
use sea_orm::{ActiveModelTrait, ColumnTrait, EntityTrait, QueryFilter, QueryOrder, Set};
use time::OffsetDateTime;

fn to_key(row: api_key::Model) -> Result<ApiKey, RepoError> {
    // Stored scopes were written by us; an unknown name means the row was edited by hand.
    let scopes = Scopes::parse_list(&row.scopes)
        .map_err(|name| RepoError::Backend(format!("api_keys.scopes holds unknown scope {name:?}").into()))?;
    Ok(ApiKey {
        id: ApiKeyId::new(row.id),
        user_id: UserId::new(row.user_id),
        name: row.name,
        prefix: row.prefix,
        scopes,
        created_at: row.created_at,
        last_used_at: row.last_used_at,
        revoked_at: row.revoked_at,
    })
}

#[async_trait]
impl UserRepository for SeaStore {
    async fn create(&self, new: NewUser) -> Result<User, RepoError> {
        let row = user::ActiveModel {
            email: Set(new.email.as_str().to_owned()),
            display_name: Set(new.display_name),
            blocked: Set(false),
            password_hash: Set(None),
            created_at: Set(new.created_at),
            ..Default::default()
        }
        .insert(&self.db)
        .await
        .map_err(repo_err)?;
        to_user(row)
    }

    async fn find_by_email(&self, email: &Email) -> Result<Option<User>, RepoError> {
        let row = user::Entity::find().filter(user::Column::Email.eq(email.as_str())).one(&self.db).await.map_err(repo_err)?;
        row.map(to_user).transpose()
    }

    async fn find_by_id(&self, id: UserId) -> Result<Option<User>, RepoError> {
        let row = user::Entity::find_by_id(id.get()).one(&self.db).await.map_err(repo_err)?;
        row.map(to_user).transpose()
    }
}

#[async_trait]
impl ApiKeyRepository for SeaStore {
    async fn insert(&self, key: NewApiKey) -> Result<ApiKey, RepoError> {
        let row = api_key::ActiveModel {
            user_id: Set(key.user_id.get()),
            name: Set(key.name),
            prefix: Set(key.prefix),
            token_hash: Set(key.token_hash),
            scopes: Set(key.scopes.to_text()),
            created_at: Set(key.created_at),
            last_used_at: Set(None),
            revoked_at: Set(None),
            ..Default::default()
        }
        .insert(&self.db)
        .await
        .map_err(repo_err)?;
        to_key(row)
    }

    async fn find_by_hash(&self, token_hash: &str) -> Result<Option<ApiKey>, RepoError> {
        let row = api_key::Entity::find().filter(api_key::Column::TokenHash.eq(token_hash)).one(&self.db).await.map_err(repo_err)?;
        row.map(to_key).transpose()
    }

    async fn find_by_id(&self, id: ApiKeyId) -> Result<Option<ApiKey>, RepoError> {
        let row = api_key::Entity::find_by_id(id.get()).one(&self.db).await.map_err(repo_err)?;
        row.map(to_key).transpose()
    }

    async fn list_for_user(&self, user_id: UserId) -> Result<Vec<ApiKey>, RepoError> {
        api_key::Entity::find()
            .filter(api_key::Column::UserId.eq(user_id.get()))
            .order_by_desc(api_key::Column::CreatedAt)
            .order_by_desc(api_key::Column::Id)
            .all(&self.db)
            .await
            .map_err(repo_err)?
            .into_iter()
            .map(to_key)
            .collect()
    }

    async fn revoke(&self, id: ApiKeyId, at: OffsetDateTime) -> Result<bool, RepoError> {
        let result = api_key::Entity::update_many()
            .col_expr(api_key::Column::RevokedAt, sea_orm::sea_query::Expr::value(at))
            .filter(api_key::Column::Id.eq(id.get()))
            .filter(api_key::Column::RevokedAt.is_null())
            .exec(&self.db)
            .await
            .map_err(repo_err)?;
        Ok(result.rows_affected == 1)
    }

    async fn touch(&self, id: ApiKeyId, at: OffsetDateTime) -> Result<(), RepoError> {
        api_key::Entity::update_many()
            .col_expr(api_key::Column::LastUsedAt, sea_orm::sea_query::Expr::value(at))
            .filter(api_key::Column::Id.eq(id.get()))
            .exec(&self.db)
            .await
            .map_err(repo_err)?;
        Ok(())
    }
}
