//! In-memory stores for the accounts domain's unit tests: users, API keys, passwords and
//! sessions in one place.

use crate::access::{AccessRevoker, Ended};
use crate::confirmation::{EmailTokenPurpose, EmailTokenRepository, NewEmailToken};
use crate::model::{ApiKey, NewUser, User};
use crate::ports::{ApiKeyRepository, NewApiKey, UserRepository};
use crate::signin::{PasswordRepository, SessionRepository, StoredSession};
use kernel::{ApiKeyId, Email, RepoError, UserId};
use std::sync::Mutex;

#[derive(Default)]
pub struct Memory {
    pub users: Mutex<Vec<User>>,
    pub keys: Mutex<Vec<ApiKey>>,
    pub hashes: Mutex<Vec<(ApiKeyId, String)>>,
    pub touches: Mutex<usize>,
    pub passwords: Mutex<Vec<(UserId, String)>>,
    pub sessions: Mutex<Vec<(String, StoredSession)>>,
    /// Each e-mailed link's token and when it was used.
    pub email_tokens: Mutex<Vec<(NewEmailToken, Option<time::OffsetDateTime>)>>,
    /// Each account every way into which was ended (`AccessRevoker`), and when.
    pub access_ended: Mutex<Vec<(UserId, time::OffsetDateTime)>>,
}

#[async_trait::async_trait]
impl UserRepository for Memory {
    async fn create(&self, new: NewUser) -> Result<User, RepoError> {
        let mut users = self.users.lock().unwrap();
        if users.iter().any(|u| u.email == new.email) {
            return Err(RepoError::Duplicate("users.email".into()));
        }
        let user = User {
            id: UserId::new(users.len() as i64 + 1),
            email: new.email,
            display_name: new.display_name,
            created_at: new.created_at,
            blocked: false,
            email_confirmed_at: None,
            is_admin: false,
        };
        users.push(user.clone());
        Ok(user)
    }
    async fn find_by_email(&self, email: &Email) -> Result<Option<User>, RepoError> {
        Ok(self.users.lock().unwrap().iter().find(|u| &u.email == email).cloned())
    }
    async fn find_by_id(&self, id: UserId) -> Result<Option<User>, RepoError> {
        Ok(self.users.lock().unwrap().iter().find(|u| u.id == id).cloned())
    }
}

#[async_trait::async_trait]
impl ApiKeyRepository for Memory {
    async fn insert(&self, key: NewApiKey) -> Result<ApiKey, RepoError> {
        let mut keys = self.keys.lock().unwrap();
        let stored = ApiKey {
            id: ApiKeyId::new(keys.len() as i64 + 1),
            user_id: key.user_id,
            name: key.name,
            prefix: key.prefix,
            scopes: key.scopes,
            created_at: key.created_at,
            last_used_at: None,
            revoked_at: None,
        };
        self.hashes.lock().unwrap().push((stored.id, key.token_hash));
        keys.push(stored.clone());
        Ok(stored)
    }
    async fn find_by_hash(&self, token_hash: &str) -> Result<Option<ApiKey>, RepoError> {
        let id = self.hashes.lock().unwrap().iter().find(|(_, h)| h == token_hash).map(|(id, _)| *id);
        Ok(id.and_then(|id| self.keys.lock().unwrap().iter().find(|k| k.id == id).cloned()))
    }
    async fn find_by_id(&self, id: ApiKeyId) -> Result<Option<ApiKey>, RepoError> {
        Ok(self.keys.lock().unwrap().iter().find(|k| k.id == id).cloned())
    }
    async fn list_for_user(&self, user_id: UserId) -> Result<Vec<ApiKey>, RepoError> {
        Ok(self.keys.lock().unwrap().iter().filter(|k| k.user_id == user_id).rev().cloned().collect())
    }
    async fn revoke(&self, id: ApiKeyId, at: time::OffsetDateTime) -> Result<bool, RepoError> {
        let mut keys = self.keys.lock().unwrap();
        let Some(key) = keys.iter_mut().find(|k| k.id == id && k.revoked_at.is_none()) else { return Ok(false) };
        key.revoked_at = Some(at);
        Ok(true)
    }
    async fn touch(&self, id: ApiKeyId, at: time::OffsetDateTime) -> Result<(), RepoError> {
        *self.touches.lock().unwrap() += 1;
        if let Some(key) = self.keys.lock().unwrap().iter_mut().find(|k| k.id == id) {
            key.last_used_at = Some(at);
        }
        Ok(())
    }
}

#[async_trait::async_trait]
impl PasswordRepository for Memory {
    async fn set_password_hash(&self, user: UserId, hash: &str) -> Result<(), RepoError> {
        self.passwords.lock().unwrap().push((user, hash.to_owned()));
        Ok(())
    }
    async fn password_hash(&self, user: UserId) -> Result<Option<String>, RepoError> {
        Ok(self.passwords.lock().unwrap().iter().find(|(id, _)| *id == user).map(|(_, hash)| hash.clone()))
    }
}

#[async_trait::async_trait]
impl SessionRepository for Memory {
    async fn create_session(&self, token_hash: &str, session: &StoredSession) -> Result<(), RepoError> {
        self.sessions.lock().unwrap().push((token_hash.to_owned(), session.clone()));
        Ok(())
    }
    async fn find_session(&self, token_hash: &str) -> Result<Option<StoredSession>, RepoError> {
        Ok(self.sessions.lock().unwrap().iter().find(|(hash, _)| hash == token_hash).map(|(_, s)| s.clone()))
    }
    async fn delete_session(&self, token_hash: &str) -> Result<(), RepoError> {
        self.sessions.lock().unwrap().retain(|(hash, _)| hash != token_hash);
        Ok(())
    }
    async fn delete_sessions_of(&self, user: UserId) -> Result<u64, RepoError> {
        let mut sessions = self.sessions.lock().unwrap();
        let before = sessions.len();
        sessions.retain(|(_, session)| session.user_id != user);
        Ok((before - sessions.len()) as u64)
    }
}

#[async_trait::async_trait]
impl EmailTokenRepository for Memory {
    async fn insert_email_token(&self, token: NewEmailToken) -> Result<(), RepoError> {
        self.email_tokens.lock().unwrap().push((token, None));
        Ok(())
    }
    async fn count_email_tokens_since(
        &self,
        user: UserId,
        purpose: EmailTokenPurpose,
        since: time::OffsetDateTime,
    ) -> Result<u64, RepoError> {
        let tokens = self.email_tokens.lock().unwrap();
        Ok(tokens.iter().filter(|(t, _)| t.user_id == user && t.purpose == purpose && t.created_at >= since).count() as u64)
    }
    async fn use_email_token(
        &self,
        purpose: EmailTokenPurpose,
        token_hash: &str,
        now: time::OffsetDateTime,
    ) -> Result<Option<UserId>, RepoError> {
        let mut tokens = self.email_tokens.lock().unwrap();
        let found =
            tokens.iter_mut().find(|(t, used)| t.purpose == purpose && t.token_hash == token_hash && used.is_none() && t.expires_at > now);
        Ok(found.map(|(token, used)| {
            *used = Some(now);
            token.user_id
        }))
    }
    async fn set_email_confirmed(&self, user: UserId, at: time::OffsetDateTime) -> Result<(), RepoError> {
        for stored in self.users.lock().unwrap().iter_mut().filter(|u| u.id == user) {
            stored.email_confirmed_at.get_or_insert(at);
        }
        Ok(())
    }
}

/// Ends what this fake holds (sessions and keys; it keeps no OAuth tokens) and records the call.
#[async_trait::async_trait]
impl AccessRevoker for Memory {
    async fn end_every_access(&self, user: UserId, at: time::OffsetDateTime) -> Result<Ended, RepoError> {
        let sessions = self.delete_sessions_of(user).await?;
        let mut api_keys = 0;
        for key in self.keys.lock().unwrap().iter_mut().filter(|k| k.user_id == user && k.revoked_at.is_none()) {
            key.revoked_at = Some(at);
            api_keys += 1;
        }
        self.access_ended.lock().unwrap().push((user, at));
        Ok(Ended { sessions, api_keys, oauth_tokens: 0 })
    }
}
