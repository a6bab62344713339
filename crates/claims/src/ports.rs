//! What the claim use cases need from outside: storage, a DNS TXT reader and a site probe (the
//! e-mail goes through `kernel::Mailer`, the ownership through `listings::OwnershipService`).

use crate::checks::{Probe, TxtLookup};
use crate::model::{CheckRecord, Claim, ClaimMethod};
use async_trait::async_trait;
use kernel::{ClaimId, Email, ListingId, PageRequest, Paged, RepoError, UserId, WebUrl};
use time::OffsetDateTime;

/// A claim to store.
#[derive(Debug, Clone)]
pub struct NewClaim {
    pub listing: ListingId,
    pub claimant: UserId,
    pub method: ClaimMethod,
    /// What the claimant publishes (dns, meta, file).
    pub token: Option<String>,
    /// E-mail claims: the address and the SHA-256 of the link's token.
    pub email: Option<Email>,
    pub link_hash: Option<String>,
    pub created_at: OffsetDateTime,
}

/// What storing a claim did.
#[derive(Debug, Clone)]
pub enum Stored {
    New(Claim),
    /// The claimant had a pending or verified claim on this listing by this method: that one.
    Existing(Claim),
    /// Nothing stored: the new e-mail claim's link would go beyond a daily quota.
    OverQuota(QuotaSpent),
}

/// The window a `MailQuota` counts over: an e-mail older than this counts against nothing, and
/// the daily purge deletes its record.
pub const MAIL_QUOTA_WINDOW: time::Duration = time::Duration::DAY;

/// How many claim e-mails may go out. Each carries a link to an address the claimant names, so
/// without a bound one account could make the site mail anyone, as often as it likes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct MailQuota {
    /// Claim e-mails one account may have had sent in any 24 hours.
    pub per_account_per_day: u32,
    /// Claim e-mails one address may receive in any 24 hours, whoever asked.
    pub per_recipient_per_day: u32,
}

/// Which daily quota refused a claim e-mail; `oldest` is the earliest e-mail counted against it
/// (the quota has room again a day after it).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum QuotaSpent {
    Account { oldest: OffsetDateTime },
    Recipient { oldest: OffsetDateTime },
}

/// The claim behind an e-mailed link.
#[derive(Debug, Clone)]
pub struct LinkedClaim {
    pub claim: Claim,
    /// When the link was sent (it works [`crate::EMAIL_LINK_LIFETIME`] from then).
    pub sent_at: OffsetDateTime,
    /// The claimant's display name, for the page that confirms.
    pub claimant_name: String,
}

/// A claim as the site team's list shows it.
#[derive(Debug, Clone)]
pub struct TeamClaim {
    pub claim: Claim,
    pub claimant_email: String,
}

/// Storage of claims. Writes that change a status are compare-and-set on the stored status, so a
/// repeated or concurrent call changes nothing twice.
#[async_trait]
pub trait ClaimRepository: Send + Sync {
    /// Stores a pending claim, or answers the claimant's verified or pending claim on the listing
    /// by the same method (a pending one past its lifetime is marked expired first, so a new one
    /// is made). A new e-mail claim's link (`link_hash` set) is recorded as an e-mail sent at
    /// `new.created_at`, counted against `quota` in the same transaction as the insert, so the
    /// quota holds under concurrent calls; beyond it nothing is stored (`Stored::OverQuota`).
    async fn create(&self, new: NewClaim, quota: MailQuota) -> Result<Stored, RepoError>;
    async fn get(&self, id: ClaimId) -> Result<Option<Claim>, RepoError>;
    /// The claimant's claims, newest first.
    async fn of_claimant(&self, claimant: UserId, page: PageRequest) -> Result<Paged<Claim>, RepoError>;
    /// The claim whose e-mailed link's token hashes to `link_hash`.
    async fn by_link(&self, link_hash: &str) -> Result<Option<LinkedClaim>, RepoError>;
    /// When the latest link of an e-mail claim was handed to the mailer; none before that.
    async fn link_sent_at(&self, id: ClaimId) -> Result<Option<OffsetDateTime>, RepoError>;
    /// A new link (to `email`) for the pending e-mail claim `id` of `claimant`, not sent yet; the
    /// earlier link stops working. Like `create`, it records the e-mail at `at`, counted against
    /// `quota` in the same transaction; `Some` when a quota refused it, and then nothing changed.
    async fn set_link(
        &self,
        id: ClaimId,
        claimant: UserId,
        email: &Email,
        link_hash: &str,
        quota: MailQuota,
        at: OffsetDateTime,
    ) -> Result<Option<QuotaSpent>, RepoError>;
    /// The latest link was handed to the mailer at `at` (it works 48 hours from then).
    async fn link_sent(&self, id: ClaimId, at: OffsetDateTime) -> Result<(), RepoError>;
    /// Records a check that did not verify a pending claim.
    async fn record_check(&self, id: ClaimId, check: &CheckRecord) -> Result<(), RepoError>;
    /// pending -> verified with the check that proved it; false when it was not pending.
    async fn mark_verified(&self, id: ClaimId, check: &CheckRecord) -> Result<bool, RepoError>;
    /// Marks pending claims created before `created_before` expired; how many.
    async fn expire_pending(&self, created_before: OffsetDateTime) -> Result<u64, RepoError>;
    /// Verified dns, meta and file claims last checked before `checked_before`, oldest first.
    async fn due_for_recheck(&self, checked_before: OffsetDateTime, limit: u64) -> Result<Vec<Claim>, RepoError>;
    /// Records a re-check of a verified claim and since when its proof is missing (none: found).
    async fn record_recheck(&self, id: ClaimId, check: &CheckRecord, proof_missing_since: Option<OffsetDateTime>) -> Result<(), RepoError>;
    /// The site team's list, newest first; `search` matches the listing's slug or name, or the
    /// claimant's or the e-mailed address.
    async fn for_team(&self, search: Option<&str>, page: PageRequest) -> Result<Paged<TeamClaim>, RepoError>;
    /// The site team's addresses (accounts with the admin role), to tell them about lost proofs.
    async fn site_team(&self) -> Result<Vec<Email>, RepoError>;
}

/// Reads the TXT records at a name, following CNAMEs.
#[async_trait]
pub trait TxtResolver: Send + Sync {
    async fn txt(&self, name: &str) -> TxtLookup;
}

/// Looks at the company's own website for the claimant's proof. Robots.txt does not apply (the
/// owner asked for the check); the address rules of every outbound request do.
#[async_trait]
pub trait SiteProbe: Send + Sync {
    /// The `content` of every `<meta name="{name}">` in the head of `homepage`.
    async fn meta_contents(&self, homepage: &WebUrl, name: &str) -> Probe<Vec<String>>;
    /// The body of the file at `url` (at most 4 KiB; redirects within the same host only).
    async fn file_body(&self, url: &WebUrl) -> Probe<String>;
}
