//! The site team's account tools: the `admin` role (granted from the command line), finding and
//! blocking accounts (a blocked account's sessions, keys and tokens are all refused), and the
//! audit log every admin action is written to, with who did it, to what and when.

use crate::model::User;
use async_trait::async_trait;
use kernel::{Clock, Email, PageRequest, Paged, RepoError, UserId};
use std::sync::Arc;
use time::OffsetDateTime;

/// One admin action as the log keeps it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AuditEntry {
    pub id: i64,
    pub actor: UserId,
    /// The actor's address at the time of reading (a closed account shows its placeholder).
    pub actor_email: String,
    /// What was done, `price.set`, `vote.discount`, ...
    pub action: String,
    /// What it was done to, `product launch`, `vote 12`, ...
    pub target: String,
    /// What changed, in words (`4900 -> 5900`).
    pub detail: String,
    pub at: OffsetDateTime,
}

/// An action to log.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NewAuditEntry {
    pub actor: UserId,
    pub action: String,
    pub target: String,
    pub detail: String,
    pub at: OffsetDateTime,
}

#[async_trait]
pub trait AdminRepository: Send + Sync {
    /// Grants or takes the admin role; `false` when no account has this address.
    async fn set_admin(&self, email: &Email, admin: bool) -> Result<bool, RepoError>;
    /// Blocks or unblocks an account; `false` when there is none or it was so already.
    async fn set_blocked(&self, user: UserId, blocked: bool) -> Result<bool, RepoError>;
    /// Accounts whose address or name contains `search`, newest first.
    async fn users(&self, search: Option<&str>, page: PageRequest) -> Result<Paged<User>, RepoError>;
    async fn record(&self, entry: NewAuditEntry) -> Result<(), RepoError>;
    /// Logged actions whose action, target or detail contains `search`, newest first.
    async fn audit(&self, search: Option<&str>, page: PageRequest) -> Result<Paged<AuditEntry>, RepoError>;
}

#[derive(Clone)]
pub struct AdminService {
    repo: Arc<dyn AdminRepository>,
    clock: Arc<dyn Clock>,
}

impl AdminService {
    pub fn new(repo: Arc<dyn AdminRepository>, clock: Arc<dyn Clock>) -> Self {
        Self { repo, clock }
    }

    pub async fn set_admin(&self, email: &Email, admin: bool) -> Result<bool, RepoError> {
        self.repo.set_admin(email, admin).await
    }

    /// Writes an admin action to the log.
    pub async fn record(&self, actor: &User, action: &str, target: &str, detail: &str) -> Result<(), RepoError> {
        let entry = NewAuditEntry {
            actor: actor.id,
            action: action.to_owned(),
            target: target.to_owned(),
            detail: detail.to_owned(),
            at: self.clock.now(),
        };
        self.repo.record(entry).await
    }

    /// Blocks (or unblocks) `user` and logs it; an admin cannot block themselves. `false` when
    /// nothing changed (no such account, or it was so already): nothing is logged then.
    pub async fn set_blocked(&self, actor: &User, user: UserId, blocked: bool) -> Result<bool, RepoError> {
        if actor.id == user || !self.repo.set_blocked(user, blocked).await? {
            return Ok(false);
        }
        let action = if blocked { "user.block" } else { "user.unblock" };
        self.record(
            actor,
            action,
            &format!("user {user}"),
            if blocked { "blocked: sessions, keys and tokens refused" } else { "unblocked" },
        )
        .await?;
        Ok(true)
    }

    pub async fn users(&self, search: Option<&str>, page: PageRequest) -> Result<Paged<User>, RepoError> {
        self.repo.users(search.filter(|text| !text.trim().is_empty()), page).await
    }

    pub async fn audit(&self, search: Option<&str>, page: PageRequest) -> Result<Paged<AuditEntry>, RepoError> {
        self.repo.audit(search.filter(|text| !text.trim().is_empty()), page).await
    }
}
