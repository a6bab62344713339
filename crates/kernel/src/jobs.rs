//! The `JobQueue` port: durable background work. Domains enqueue jobs; workers in the server
//! claim them under a lease, run them, and finish, retry or give up.

use crate::RepoError;
use async_trait::async_trait;
use time::{Duration, OffsetDateTime};

/// A job to enqueue.
#[derive(Debug, Clone, PartialEq)]
pub struct NewJob {
    /// What to run (`draft.crawl`, `draft.regenerate`, ...): the worker dispatches on it.
    pub kind: String,
    /// The job's input, as JSON.
    pub payload: serde_json::Value,
    /// When it may run first.
    pub run_at: OffsetDateTime,
    /// How many times it may run before it is given up.
    pub max_attempts: u32,
    /// Enqueueing a second job with the same key does nothing: periodic work uses one key per
    /// period, so several servers never do it twice.
    pub unique_key: Option<String>,
}

impl NewJob {
    /// A job that may run now, up to three times.
    pub fn now(kind: &str, payload: serde_json::Value, at: OffsetDateTime) -> Self {
        Self { kind: kind.to_owned(), payload, run_at: at, max_attempts: 3, unique_key: None }
    }
}

/// A job claimed by a worker.
#[derive(Debug, Clone, PartialEq)]
pub struct ClaimedJob {
    pub id: i64,
    pub kind: String,
    pub payload: serde_json::Value,
    /// This run's number, from 1.
    pub attempt: u32,
    pub max_attempts: u32,
}

/// Where a job stands.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum JobState {
    Queued,
    Running,
    Done,
    Failed,
}

impl JobState {
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Queued => "queued",
            Self::Running => "running",
            Self::Done => "done",
            Self::Failed => "failed",
        }
    }

    pub fn parse(value: &str) -> Option<Self> {
        Some(match value {
            "queued" => Self::Queued,
            "running" => Self::Running,
            "done" => Self::Done,
            "failed" => Self::Failed,
            _ => return None,
        })
    }
}

/// The backoff before retry `attempt + 1`: 2 s, 8 s, 32 s, ... capped at 10 minutes.
pub fn retry_delay(attempt: u32) -> Duration {
    let seconds = 2i64.saturating_mul(4i64.saturating_pow(attempt.saturating_sub(1)));
    Duration::seconds(seconds.min(600))
}

/// The durable job table.
#[async_trait]
pub trait JobQueue: Send + Sync {
    /// Adds a job. Returns `false` when a job with the same `unique_key` exists already.
    async fn enqueue(&self, job: NewJob) -> Result<bool, RepoError>;

    /// Claims the oldest job that is due: queued with `run_at <= now`, or running with a lease
    /// that expired before `now` (its worker died). The claim holds until `now + lease`.
    /// Two workers never claim the same job. A job retaken after its last attempt comes back
    /// with `attempt > max_attempts`: the worker gives it up without running it.
    async fn claim(&self, now: OffsetDateTime, lease: Duration, worker: &str) -> Result<Option<ClaimedJob>, RepoError>;

    /// Marks a claimed job done. Only the run that holds the claim (`attempt`) may: a worker
    /// whose lease expired and whose job another worker took over changes nothing. Returns
    /// whether the outcome was recorded.
    async fn complete(&self, id: i64, attempt: u32, now: OffsetDateTime) -> Result<bool, RepoError>;

    /// Records a failed run (of `attempt`, as `complete`): queued again at `retry_at`, or
    /// failed for good when `retry_at` is `None`.
    async fn fail(
        &self,
        id: i64,
        attempt: u32,
        error: &str,
        retry_at: Option<OffsetDateTime>,
        now: OffsetDateTime,
    ) -> Result<bool, RepoError>;

    /// The state, attempts and last error of a job (for tests and operators).
    async fn state(&self, id: i64) -> Result<Option<(JobState, u32, Option<String>)>, RepoError>;
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn backoff_grows_and_is_capped() {
        assert_eq!(retry_delay(1), Duration::seconds(2));
        assert_eq!(retry_delay(2), Duration::seconds(8));
        assert_eq!(retry_delay(3), Duration::seconds(32));
        assert_eq!(retry_delay(30), Duration::seconds(600));
    }
}
