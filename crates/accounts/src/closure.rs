//! A signed-in person's own account settings that need their password: changing it (every
//! session ends, so a stolen session does not outlive the change), and closing the account.
//! Closing withdraws the person's votes (the counts drop at once), deletes their reviews and
//! follows, ends every session, key and token, leaves their listings with the site (without an
//! owner) and their orders with the bookkeeping, and replaces the address and name with
//! placeholders, so the address can sign up afresh.

use crate::model::User;
use crate::passwords::PasswordHashing;
use crate::signin::{PasswordRepository, SessionRepository, SignInError, check_password};
use async_trait::async_trait;
use kernel::{Clock, RepoError, UserId};
use std::sync::Arc;
use time::OffsetDateTime;

/// What closing an account took away.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Closed {
    pub votes_withdrawn: u64,
    pub reviews_deleted: u64,
    /// Listings that stay on the site without an owner.
    pub listings_kept: u64,
}

/// Closes an account in one transaction (see the module's rules).
#[async_trait]
pub trait AccountCloser: Send + Sync {
    async fn close_account(&self, user: UserId, at: OffsetDateTime) -> Result<Closed, RepoError>;
}

/// Why a change to one's own account was refused; each names the form field it concerns.
#[derive(Debug, thiserror::Error)]
pub enum OwnAccountError {
    #[error("this is not your current password")]
    WrongPassword,
    #[error("{0}")]
    NewPassword(String),
    #[error("something went wrong on our side")]
    Internal,
}

impl OwnAccountError {
    /// The form field the error belongs beside.
    pub fn field(&self) -> &'static str {
        match self {
            Self::WrongPassword => "current_password",
            Self::NewPassword(_) => "new_password",
            Self::Internal => "",
        }
    }
}

impl From<RepoError> for OwnAccountError {
    fn from(_: RepoError) -> Self {
        Self::Internal
    }
}

#[derive(Clone)]
pub struct OwnAccount {
    passwords: Arc<dyn PasswordRepository>,
    sessions: Arc<dyn SessionRepository>,
    hasher: Arc<dyn PasswordHashing>,
    closer: Arc<dyn AccountCloser>,
    clock: Arc<dyn Clock>,
}

impl OwnAccount {
    pub fn new(
        passwords: Arc<dyn PasswordRepository>,
        sessions: Arc<dyn SessionRepository>,
        hasher: Arc<dyn PasswordHashing>,
        closer: Arc<dyn AccountCloser>,
        clock: Arc<dyn Clock>,
    ) -> Self {
        Self { passwords, sessions, hasher, closer, clock }
    }

    /// Whether `password` is the account's password (an account without one never matches).
    async fn verify(&self, user: &User, password: &str) -> Result<(), OwnAccountError> {
        let Some(stored) = self.passwords.password_hash(user.id).await? else { return Err(OwnAccountError::WrongPassword) };
        match self.hasher.verify(password.to_owned(), stored).await {
            true => Ok(()),
            false => Err(OwnAccountError::WrongPassword),
        }
    }

    /// Sets a new password after checking the current one, and ends every session (this one
    /// too: the person signs in again with the new password). Returns how many ended.
    pub async fn change_password(&self, user: &User, current: &str, new: &str) -> Result<u64, OwnAccountError> {
        check_password(new).map_err(|err| match err {
            SignInError::Invalid(message) => OwnAccountError::NewPassword(message),
            _ => OwnAccountError::Internal,
        })?;
        self.verify(user, current).await?;
        let hash = self.hasher.hash(new.to_owned()).await.ok_or(OwnAccountError::Internal)?;
        self.passwords.set_password_hash(user.id, &hash).await?;
        Ok(self.sessions.delete_sessions_of(user.id).await?)
    }

    /// Closes the account after checking its password.
    pub async fn close(&self, user: &User, password: &str) -> Result<Closed, OwnAccountError> {
        self.verify(user, password).await?;
        Ok(self.closer.close_account(user.id, self.clock.now()).await?)
    }
}
