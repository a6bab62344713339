//! The `IdempotencyStore` port: what an `Idempotency-Key` remembers (24 hours per principal,
//! operation and key), so a retried request replays its first answer instead of running again.

use crate::RepoError;
use async_trait::async_trait;
use time::{Duration, OffsetDateTime};

/// How long an `Idempotency-Key` is remembered (`decisions.md`): replays within it, and the
/// daily purge after it.
pub const IDEMPOTENCY_KEPT_FOR: Duration = Duration::hours(24);

/// Who sent a key to which operation.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct IdempotencyScope {
    /// `user:<id>`: the principal the key belongs to.
    pub principal: String,
    pub operation: String,
    pub key: String,
}

/// The finished answer that a replay returns.
#[derive(Debug, Clone, PartialEq)]
pub struct StoredResponse {
    pub status: u16,
    pub body: serde_json::Value,
}

/// What the store found when a request with a key began.
#[derive(Debug, Clone, PartialEq)]
pub enum Reservation {
    /// The key is new (or its record expired): the request runs and must `finish` or `release`.
    Reserved,
    /// A request with this key is still running.
    InFlight { fingerprint: String },
    /// A request with this key finished.
    Finished { fingerprint: String, response: StoredResponse },
}

#[async_trait]
pub trait IdempotencyStore: Send + Sync {
    /// Reserves the key for a request with `fingerprint`, unless a live record exists, which is
    /// returned instead. Records older than `expired_before` count as absent; in-flight records
    /// older than `abandoned_before` too (their request died).
    async fn reserve(
        &self,
        scope: &IdempotencyScope,
        fingerprint: &str,
        now: OffsetDateTime,
        expired_before: OffsetDateTime,
        abandoned_before: OffsetDateTime,
    ) -> Result<Reservation, RepoError>;

    /// Stores the answer of a reserved request.
    async fn finish(&self, scope: &IdempotencyScope, response: &StoredResponse) -> Result<(), RepoError>;

    /// Forgets a reserved request that failed, so the key can be used again.
    async fn release(&self, scope: &IdempotencyScope) -> Result<(), RepoError>;
}
