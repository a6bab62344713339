//! Ports the accounts domain needs from storage.

use crate::model::{ApiKey, NewUser, Scopes, User};
use async_trait::async_trait;
use kernel::{ApiKeyId, Email, RepoError, UserId};
use time::OffsetDateTime;

/// Where users are kept.
#[async_trait]
pub trait UserRepository: Send + Sync {
    /// # Errors
    /// `RepoError::Duplicate("users.email")` when the e-mail is taken.
    async fn create(&self, user: NewUser) -> Result<User, RepoError>;

    async fn find_by_email(&self, email: &Email) -> Result<Option<User>, RepoError>;

    async fn find_by_id(&self, id: UserId) -> Result<Option<User>, RepoError>;
}

/// A key to store: the hash of its secret, never the secret.
#[derive(Debug, Clone)]
pub struct NewApiKey {
    pub user_id: UserId,
    pub name: String,
    pub prefix: String,
    pub token_hash: String,
    pub scopes: Scopes,
    pub created_at: OffsetDateTime,
}

/// Where API keys are kept.
#[async_trait]
pub trait ApiKeyRepository: Send + Sync {
    /// # Errors
    /// `RepoError::Duplicate("api_keys.token_hash")` in the (astronomically unlikely) event of a
    /// hash collision.
    async fn insert(&self, key: NewApiKey) -> Result<ApiKey, RepoError>;

    /// Looks a key up by the hash of its secret, revoked or not.
    async fn find_by_hash(&self, token_hash: &str) -> Result<Option<ApiKey>, RepoError>;

    async fn find_by_id(&self, id: ApiKeyId) -> Result<Option<ApiKey>, RepoError>;

    /// Every key of a user, newest first.
    async fn list_for_user(&self, user_id: UserId) -> Result<Vec<ApiKey>, RepoError>;

    /// Marks a key revoked; returns `false` when there is no such key or it was revoked already.
    async fn revoke(&self, id: ApiKeyId, at: OffsetDateTime) -> Result<bool, RepoError>;

    /// Records that a key was used.
    async fn touch(&self, id: ApiKeyId, at: OffsetDateTime) -> Result<(), RepoError>;
}
