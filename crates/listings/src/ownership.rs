//! Owners by proof: a verified claim makes its claimant an owner of the listing beside the owners
//! it has (several may coexist) and earns the listing its Verified badge. The claims domain
//! decides *when*; this module owns *how*, since the ownership rows and the listing's marks belong
//! to the listings domain. Granting is idempotent, so a verification that runs again after a crash
//! adds nobody twice and tells nobody twice.

use crate::ListingStatus;
use async_trait::async_trait;
use kernel::{ClaimId, Clock, Email, ListingId, RepoError, Slug, UserId};
use std::sync::Arc;
use time::OffsetDateTime;

/// A listing as a claim sees it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ClaimableListing {
    pub id: ListingId,
    pub slug: Slug,
    pub name: String,
    /// The product's website, as listed.
    pub url: String,
    pub status: ListingStatus,
}

impl ClaimableListing {
    /// Public listings may be claimed: live, scheduled, or waiting for their badge.
    pub fn is_public(&self) -> bool {
        matches!(self.status, ListingStatus::Live | ListingStatus::Scheduled | ListingStatus::AwaitingBadge)
    }
}

/// What granting ownership did.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Granted {
    /// The claimant is an owner now; `earlier_owners` are the addresses of those who owned the
    /// listing before (to be told).
    NewOwner { earlier_owners: Vec<Email> },
    /// The claimant owned the listing already; only the Verified mark may be new.
    AlreadyOwner,
}

/// The listing side of claims.
#[async_trait]
pub trait OwnershipRepository: Send + Sync {
    /// The listing with this slug, whatever its status.
    async fn by_slug(&self, slug: &Slug) -> Result<Option<ClaimableListing>, RepoError>;
    /// Makes `user` an owner of `id` by `claim` and marks the listing verified (the first time),
    /// in one transaction.
    async fn add_verified_owner(&self, id: ListingId, user: UserId, claim: ClaimId, now: OffsetDateTime) -> Result<Granted, RepoError>;
}

/// The ownership use cases the claims domain calls.
#[derive(Clone)]
pub struct OwnershipService {
    repo: Arc<dyn OwnershipRepository>,
    clock: Arc<dyn Clock>,
}

impl OwnershipService {
    pub fn new(repo: Arc<dyn OwnershipRepository>, clock: Arc<dyn Clock>) -> Self {
        Self { repo, clock }
    }

    /// The public listing with this slug; none for an unknown or non-public one.
    pub async fn claimable(&self, slug: &Slug) -> Result<Option<ClaimableListing>, RepoError> {
        Ok(self.repo.by_slug(slug).await?.filter(ClaimableListing::is_public))
    }

    pub async fn grant(&self, id: ListingId, user: UserId, claim: ClaimId) -> Result<Granted, RepoError> {
        self.repo.add_verified_owner(id, user, claim, self.clock.now()).await
    }
}
