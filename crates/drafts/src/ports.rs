//! The ports the drafts domain needs; adapters implement them.

use crate::grounding::{CategoryRef, Proposal};
use crate::model::{Draft, DraftId};
use crate::site::{ReadFailure, SiteSnapshot};
use async_trait::async_trait;
use kernel::{NewJob, PageRequest, Paged, RepoError, UserId};
use time::OffsetDateTime;

/// Reads a website: the homepage and up to `max_pages - 1` more same-origin pages that
/// robots.txt allows.
#[async_trait]
pub trait SiteReader: Send + Sync {
    async fn read(&self, url: &kernel::WebUrl, max_pages: usize) -> Result<SiteSnapshot, ReadFailure>;

    /// A picture a page of the site shows (at most `max_bytes`), as robots.txt of its origin
    /// allows: its bytes as served, for the media domain to check and keep.
    async fn picture(&self, url: &kernel::WebUrl, max_bytes: usize) -> Result<Vec<u8>, ReadFailure>;
}

/// Why a drafter could not propose anything.
#[derive(Debug, thiserror::Error)]
#[error("the drafter failed: {0}")]
pub struct DrafterError(pub String);

/// Writes a profile proposal from what was read. Its proposal passes the grounding check
/// before anything reaches a draft.
#[async_trait]
pub trait Drafter: Send + Sync {
    async fn draft(&self, site: &SiteSnapshot, categories: &[CategoryRef]) -> Result<Proposal, DrafterError>;
}

/// Drafts and what was read for them.
#[async_trait]
pub trait DraftRepository: Send + Sync {
    /// Stores a new draft and enqueues its first job, in one transaction.
    async fn insert(&self, draft: &Draft, job: &NewJob) -> Result<(), RepoError>;

    async fn get(&self, id: DraftId) -> Result<Option<(Draft, u64)>, RepoError>;

    /// The owner's drafts, newest first.
    async fn list(&self, owner: UserId, page: PageRequest) -> Result<Paged<Draft>, RepoError>;

    /// Writes the draft if it is still at `version` (optimistic locking), enqueueing `job` in
    /// the same transaction. Returns `false` when someone else wrote it first.
    async fn save(&self, draft: &Draft, version: u64, job: Option<&NewJob>) -> Result<bool, RepoError>;

    async fn save_snapshot(&self, id: DraftId, snapshot: &SiteSnapshot) -> Result<(), RepoError>;

    async fn snapshot(&self, id: DraftId) -> Result<Option<SiteSnapshot>, RepoError>;

    /// Records an invitation unless the address was invited to this draft already, or a quota
    /// of `quota` is spent (counted and inserted in one transaction, which holds the owner's
    /// drafts, so the quotas hold under races).
    async fn add_invite(
        &self,
        id: DraftId,
        owner: UserId,
        email: &str,
        token_hash: &str,
        quota: InviteQuota,
        now: OffsetDateTime,
    ) -> Result<InviteOutcome, RepoError>;

    /// The invitation whose token has this SHA-256.
    async fn invite_by_token(&self, token_hash: &str) -> Result<Option<StoredInvite>, RepoError>;

    /// Marks an invitation accepted by `user`, once: `false` when it was accepted before.
    async fn accept_invite(&self, invite: i64, user: UserId, at: OffsetDateTime) -> Result<bool, RepoError>;

    /// Makes an accepted invitation usable again (its founder could not be saved).
    async fn reopen_invite(&self, invite: i64) -> Result<(), RepoError>;
}

/// A co-founder invitation as stored (its token only as a hash).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StoredInvite {
    pub id: i64,
    pub draft: DraftId,
    pub email: String,
    pub created_at: OffsetDateTime,
    pub accepted_at: Option<OffsetDateTime>,
}

/// How many co-founder invitations may go out. Drafts cost nothing, so the per-draft cap alone
/// would not bound the e-mails an account can send.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct InviteQuota {
    pub per_draft: u32,
    /// Over all of an account's drafts, in any 24 hours.
    pub per_account_per_day: u32,
    /// To one address, from anyone, in any 24 hours.
    pub per_recipient_per_day: u32,
}

/// What recording an invitation did.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum InviteOutcome {
    /// Recorded; `sent` invitations of the draft now, this one included.
    Added {
        sent: u32,
    },
    Duplicate,
    /// The draft's cap.
    LimitReached,
    /// The account's daily quota; `oldest` is the earliest invitation counted against it.
    AccountDaily {
        oldest: OffsetDateTime,
    },
    /// The recipient's daily quota; `oldest` as above.
    RecipientDaily {
        oldest: OffsetDateTime,
    },
}

/// The categories a draft may name.
#[async_trait]
pub trait DraftCategories: Send + Sync {
    async fn all(&self) -> Result<Vec<CategoryRef>, RepoError>;
}
