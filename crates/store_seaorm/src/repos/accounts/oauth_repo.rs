//! `OAuthRepository`, `PasswordRepository` and `SessionRepository` over SeaORM.

use crate::entity::{oauth_client, oauth_code, oauth_token, user, web_session};
use crate::{SeaStore, repo_err, utc};
use accounts::Scopes;
use accounts::oauth::{CodeTake, ConnectedApp, NewToken, OAuthClient, OAuthRepository, StoredCode, StoredToken, TokenKind};
use accounts::signin::{PasswordRepository, SessionRepository, StoredSession};
use async_trait::async_trait;
use kernel::{RepoError, UserId};
use sea_orm::sea_query::Expr;
use sea_orm::{ActiveModelTrait, ColumnTrait, EntityTrait, QueryFilter, Set};
use time::OffsetDateTime;

fn scopes(text: &str) -> Result<Scopes, RepoError> {
    Scopes::parse_list(text).map_err(|bad| RepoError::Backend(format!("unknown scope {bad:?} stored").into()))
}

#[async_trait]
impl OAuthRepository for SeaStore {
    async fn insert_client(&self, client: &OAuthClient) -> Result<(), RepoError> {
        oauth_client::ActiveModel {
            client_id: Set(client.client_id.clone()),
            client_name: Set(client.client_name.clone()),
            redirect_uris: Set(serde_json::json!(client.redirect_uris)),
            kind: Set(client.kind.clone()),
            created_at: Set(utc(client.created_at)),
        }
        .insert(&self.db)
        .await
        .map_err(repo_err)?;
        Ok(())
    }

    async fn find_client(&self, client_id: &str) -> Result<Option<OAuthClient>, RepoError> {
        let row = oauth_client::Entity::find_by_id(client_id.to_owned()).one(&self.db).await.map_err(repo_err)?;
        Ok(row.map(|row| OAuthClient {
            client_id: row.client_id,
            client_name: row.client_name,
            redirect_uris: serde_json::from_value(row.redirect_uris).unwrap_or_default(),
            kind: row.kind,
            created_at: row.created_at,
        }))
    }

    async fn insert_code(&self, code: &StoredCode, now: OffsetDateTime) -> Result<(), RepoError> {
        oauth_code::ActiveModel {
            code_hash: Set(code.code_hash.clone()),
            client_id: Set(code.client_id.clone()),
            user_id: Set(code.user_id.get()),
            redirect_uri: Set(code.redirect_uri.clone()),
            scopes: Set(code.scopes.to_text()),
            resource: Set(code.resource.clone()),
            code_challenge: Set(code.code_challenge.clone()),
            expires_at: Set(utc(code.expires_at)),
            used_at: Set(None),
            family: Set(None),
            created_at: Set(utc(now)),
        }
        .insert(&self.db)
        .await
        .map_err(repo_err)?;
        Ok(())
    }

    async fn take_code(&self, code_hash: &str, family: &str, now: OffsetDateTime) -> Result<CodeTake, RepoError> {
        // Compare-and-set: of two exchanges of one code, one marks it used.
        let taken = oauth_code::Entity::update_many()
            .col_expr(oauth_code::Column::UsedAt, Expr::value(utc(now)))
            .col_expr(oauth_code::Column::Family, Expr::value(family))
            .filter(oauth_code::Column::CodeHash.eq(code_hash))
            .filter(oauth_code::Column::UsedAt.is_null())
            .exec(&self.db)
            .await
            .map_err(repo_err)?;
        let Some(row) = oauth_code::Entity::find_by_id(code_hash.to_owned()).one(&self.db).await.map_err(repo_err)? else {
            return Ok(CodeTake::Unknown);
        };
        if taken.rows_affected != 1 {
            return Ok(CodeTake::Replayed { family: row.family });
        }
        Ok(CodeTake::Taken(StoredCode {
            code_hash: row.code_hash,
            client_id: row.client_id,
            user_id: UserId::new(row.user_id),
            redirect_uri: row.redirect_uri,
            scopes: scopes(&row.scopes)?,
            resource: row.resource,
            code_challenge: row.code_challenge,
            expires_at: row.expires_at,
        }))
    }

    async fn insert_token(&self, token: &NewToken) -> Result<(), RepoError> {
        oauth_token::ActiveModel {
            token_hash: Set(token.token_hash.clone()),
            kind: Set(token.kind.as_str().into()),
            client_id: Set(token.client_id.clone()),
            user_id: Set(token.user_id.get()),
            scopes: Set(token.scopes.to_text()),
            resource: Set(token.resource.clone()),
            family: Set(token.family.clone()),
            created_at: Set(utc(token.created_at)),
            expires_at: Set(utc(token.expires_at)),
            used_at: Set(None),
            revoked_at: Set(None),
            ..Default::default()
        }
        .insert(&self.db)
        .await
        .map_err(repo_err)?;
        Ok(())
    }

    async fn find_token(&self, token_hash: &str) -> Result<Option<StoredToken>, RepoError> {
        let row =
            oauth_token::Entity::find().filter(oauth_token::Column::TokenHash.eq(token_hash)).one(&self.db).await.map_err(repo_err)?;
        let Some(row) = row else { return Ok(None) };
        Ok(Some(StoredToken {
            id: row.id,
            token_hash: row.token_hash,
            kind: if row.kind == "refresh" { TokenKind::Refresh } else { TokenKind::Access },
            client_id: row.client_id,
            user_id: UserId::new(row.user_id),
            scopes: scopes(&row.scopes)?,
            resource: row.resource,
            family: row.family,
            expires_at: row.expires_at,
            used_at: row.used_at,
            revoked_at: row.revoked_at,
        }))
    }

    async fn use_refresh_token(&self, id: i64, now: OffsetDateTime) -> Result<bool, RepoError> {
        let used = oauth_token::Entity::update_many()
            .col_expr(oauth_token::Column::UsedAt, Expr::value(utc(now)))
            .filter(oauth_token::Column::Id.eq(id))
            .filter(oauth_token::Column::UsedAt.is_null())
            .exec(&self.db)
            .await
            .map_err(repo_err)?;
        Ok(used.rows_affected == 1)
    }

    async fn revoke_family(&self, family: &str, now: OffsetDateTime) -> Result<(), RepoError> {
        oauth_token::Entity::update_many()
            .col_expr(oauth_token::Column::RevokedAt, Expr::value(utc(now)))
            .filter(oauth_token::Column::Family.eq(family))
            .filter(oauth_token::Column::RevokedAt.is_null())
            .exec(&self.db)
            .await
            .map_err(repo_err)?;
        Ok(())
    }

    async fn revoke_token(&self, id: i64, now: OffsetDateTime) -> Result<(), RepoError> {
        oauth_token::Entity::update_many()
            .col_expr(oauth_token::Column::RevokedAt, Expr::value(utc(now)))
            .filter(oauth_token::Column::Id.eq(id))
            .filter(oauth_token::Column::RevokedAt.is_null())
            .exec(&self.db)
            .await
            .map_err(repo_err)?;
        Ok(())
    }

    async fn connected_apps(&self, user_id: UserId, now: OffsetDateTime) -> Result<Vec<ConnectedApp>, RepoError> {
        let live = oauth_token::Entity::find()
            .filter(oauth_token::Column::UserId.eq(user_id.get()))
            .filter(oauth_token::Column::RevokedAt.is_null())
            .filter(oauth_token::Column::ExpiresAt.gt(utc(now)))
            .all(&self.db)
            .await
            .map_err(repo_err)?;
        let mut apps: Vec<ConnectedApp> = Vec::new();
        for token in live {
            let scopes = scopes(&token.scopes)?;
            match apps.iter_mut().find(|app| app.client_id == token.client_id) {
                Some(app) => {
                    app.scopes = app.scopes.iter().chain(scopes.iter()).collect();
                    app.since = app.since.min(token.created_at);
                    app.last_used_at = app.last_used_at.max(token.used_at);
                }
                None => apps.push(ConnectedApp {
                    client_name: token.client_id.clone(),
                    client_id: token.client_id,
                    scopes,
                    since: token.created_at,
                    last_used_at: token.used_at,
                }),
            }
        }
        let ids: Vec<String> = apps.iter().map(|app| app.client_id.clone()).collect();
        let clients =
            oauth_client::Entity::find().filter(oauth_client::Column::ClientId.is_in(ids)).all(&self.db).await.map_err(repo_err)?;
        for app in &mut apps {
            if let Some(client) = clients.iter().find(|client| client.client_id == app.client_id) {
                app.client_name = client.client_name.clone();
            }
        }
        apps.sort_by_key(|app| app.client_name.to_lowercase());
        Ok(apps)
    }

    async fn revoke_client_tokens(&self, user_id: UserId, client_id: &str, now: OffsetDateTime) -> Result<u64, RepoError> {
        let revoked = oauth_token::Entity::update_many()
            .col_expr(oauth_token::Column::RevokedAt, Expr::value(utc(now)))
            .filter(oauth_token::Column::UserId.eq(user_id.get()))
            .filter(oauth_token::Column::ClientId.eq(client_id))
            .filter(oauth_token::Column::RevokedAt.is_null())
            .filter(oauth_token::Column::ExpiresAt.gt(utc(now)))
            .exec(&self.db)
            .await
            .map_err(repo_err)?;
        Ok(revoked.rows_affected)
    }
}

#[async_trait]
impl PasswordRepository for SeaStore {
    async fn set_password_hash(&self, user_id: UserId, hash: &str) -> Result<(), RepoError> {
        user::Entity::update_many()
            .col_expr(user::Column::PasswordHash, Expr::value(hash))
            .filter(user::Column::Id.eq(user_id.get()))
            .exec(&self.db)
            .await
            .map_err(repo_err)?;
        Ok(())
    }

    async fn password_hash(&self, user_id: UserId) -> Result<Option<String>, RepoError> {
        let row = user::Entity::find_by_id(user_id.get()).one(&self.db).await.map_err(repo_err)?;
        Ok(row.and_then(|row| row.password_hash))
    }
}

#[async_trait]
impl SessionRepository for SeaStore {
    async fn create_session(&self, token_hash: &str, session: &StoredSession) -> Result<(), RepoError> {
        web_session::ActiveModel {
            token_hash: Set(token_hash.to_owned()),
            user_id: Set(session.user_id.get()),
            csrf_token: Set(session.csrf_token.clone()),
            expires_at: Set(utc(session.expires_at)),
        }
        .insert(&self.db)
        .await
        .map_err(repo_err)?;
        Ok(())
    }

    async fn find_session(&self, token_hash: &str) -> Result<Option<StoredSession>, RepoError> {
        let row = web_session::Entity::find_by_id(token_hash.to_owned()).one(&self.db).await.map_err(repo_err)?;
        Ok(row.map(|row| StoredSession { user_id: UserId::new(row.user_id), csrf_token: row.csrf_token, expires_at: row.expires_at }))
    }

    async fn delete_session(&self, token_hash: &str) -> Result<(), RepoError> {
        web_session::Entity::delete_by_id(token_hash.to_owned()).exec(&self.db).await.map_err(repo_err)?;
        Ok(())
    }

    async fn delete_sessions_of(&self, user_id: UserId) -> Result<u64, RepoError> {
        let deleted = web_session::Entity::delete_many()
            .filter(web_session::Column::UserId.eq(user_id.get()))
            .exec(&self.db)
            .await
            .map_err(repo_err)?;
        Ok(deleted.rows_affected)
    }
}
