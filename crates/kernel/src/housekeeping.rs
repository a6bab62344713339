//! Housekeeping: the daily job that deletes rows whose use has ended (idempotency records past
//! their 24 hours, long-finished jobs, expired sessions, OAuth codes and tokens), so no table
//! grows for ever. The store owns the tables; the cut-offs come from the rules' owners.

use crate::Job;
use crate::error::RepoError;
use async_trait::async_trait;
use serde::{Deserialize, Serialize};
use time::{Date, OffsetDateTime};

/// The daily purge; one per day (its unique key names the day).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Purge {
    pub day: Date,
}

impl Job for Purge {
    const KIND: &'static str = "maintenance.purge";
}

impl Purge {
    /// The job of `now`'s day, keyed so that however many servers enqueue it, it runs once.
    pub fn of_day(now: OffsetDateTime) -> crate::NewJob {
        let day = now.date();
        Self { day }.new_job(now).unique(format!("{}:{day}", Self::KIND))
    }
}

/// What may go.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct PurgeCutoffs {
    /// Idempotency records created before this (they are no longer replayed).
    pub idempotency_before: OffsetDateTime,
    /// Jobs done or failed before this. Kept long enough that a periodic job's unique key
    /// outlives every period it could be enqueued for again.
    pub jobs_finished_before: OffsetDateTime,
    /// Sessions, codes and tokens that expired before this.
    pub expired_before: OffsetDateTime,
    /// Records of claim e-mails sent before this (no daily quota counts them any more).
    pub claim_emails_before: OffsetDateTime,
}

/// Rows deleted, per table.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Purged {
    pub idempotency_keys: u64,
    pub jobs: u64,
    pub sessions: u64,
    pub oauth_codes: u64,
    pub oauth_tokens: u64,
    /// E-mailed links past their expiry, used or not.
    pub email_tokens: u64,
    /// Search-feed positions older than the ones kept.
    pub listing_changes: u64,
    /// Records of claim e-mails past their quota window.
    pub claim_emails: u64,
}

impl std::fmt::Display for Purged {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "purged {} idempotency keys, {} jobs, {} sessions, {} OAuth codes, {} OAuth tokens, {} e-mailed links, {} search-feed positions, {} claim e-mail records",
            self.idempotency_keys,
            self.jobs,
            self.sessions,
            self.oauth_codes,
            self.oauth_tokens,
            self.email_tokens,
            self.listing_changes,
            self.claim_emails
        )
    }
}

/// The store's side of the purge.
#[async_trait]
pub trait Housekeeping: Send + Sync {
    async fn purge(&self, cutoffs: &PurgeCutoffs) -> Result<Purged, RepoError>;
}
