//! Owners by proof: a verified claim makes its claimant an owner of the listing beside the owners
//! it has (several may coexist) and earns the listing its Verified badge, which it keeps while a
//! verified owner remains (`has_verified_owner`). The claims domain decides *when*; this module
//! owns *how*, since the ownership rows and the listing's marks belong to the listings domain.
//! Granting is idempotent, so a verification that runs again after a crash adds nobody twice and
//! tells nobody twice.

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

/// The one rule of the Verified badge: a listing carries it while at least one of its `owners`
/// (the submitter and the owners by claim) is among the `verified_claimants` of its verified
/// claims. A verified claim's grant makes it true (`add_verified_owner`); whatever ends an
/// ownership (closing an account) settles every listing it touched by this rule, in the same
/// transaction, so the badge never outlives its last verified owner.
pub fn has_verified_owner(owners: &[UserId], verified_claimants: &[UserId]) -> bool {
    owners.iter().any(|owner| verified_claimants.contains(owner))
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_badge_stays_while_an_owner_holds_a_verified_claim_and_only_then() {
        let (submitter, claimant, other) = (UserId::new(1), UserId::new(2), UserId::new(3));
        let check = |owners: &[UserId], verified: &[UserId], expect: bool| {
            assert_eq!(has_verified_owner(owners, verified), expect, "owners {owners:?}, verified claimants {verified:?}");
        };
        check(&[submitter, claimant], &[claimant], true);
        check(&[submitter], &[submitter], true);
        // The only verifying owner closed the account: owners without a verified claim remain.
        check(&[submitter], &[claimant], false);
        // A verified claim of someone no longer an owner earns nothing; nor does nobody.
        check(&[other], &[claimant], false);
        check(&[], &[claimant], false);
        check(&[submitter, claimant], &[], false);
    }
}
