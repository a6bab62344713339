//! Durable background work: the `Job` trait (one typed payload per kind, the kind named once),
//! `JobHandler` (the use case that runs a kind, returning one `JobOutcome`), and the `JobQueue`
//! port. Domains enqueue jobs; workers in the server claim them under a lease, look up the
//! handler in the application's job registry, run it, and record the outcome.

use crate::RepoError;
use async_trait::async_trait;
use serde::Serialize;
use serde::de::DeserializeOwned;
use time::{Duration, OffsetDateTime};

/// A kind of background job: its payload type. The kind's name is declared here and nowhere
/// else; the job registry maps it to the handler.
pub trait Job: Serialize + DeserializeOwned + Send + Sync + 'static {
    /// The name stored in the `jobs` table (`draft.crawl`, `badge.check`, ...).
    const KIND: &'static str;
    /// How many times a job of this kind may run before it is given up.
    const MAX_ATTEMPTS: u32 = 3;

    /// A job of this kind, due at `at`.
    fn new_job(&self, at: OffsetDateTime) -> NewJob {
        // A payload type that cannot be written as JSON is a programming error, caught by the
        // unit test of each kind; `Null` keeps enqueueing infallible.
        let payload = serde_json::to_value(self).unwrap_or(serde_json::Value::Null);
        NewJob { kind: Self::KIND.to_owned(), payload, run_at: at, max_attempts: Self::MAX_ATTEMPTS, unique_key: None }
    }
}

/// Which run of a job this is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct JobRun {
    /// This run's number, from 1.
    pub attempt: u32,
    pub max_attempts: u32,
}

impl JobRun {
    /// No retry follows this run: a handler writes a lasting outcome (a draft `failed`)
    /// instead of asking to retry.
    pub fn is_last(self) -> bool {
        self.attempt >= self.max_attempts
    }
}

/// What running a job came to. Every handler returns this one type.
#[derive(Debug, Clone, PartialEq)]
pub enum JobOutcome {
    /// Finished; the summary is logged with the job.
    Done(serde_json::Value),
    /// A passing fault: run again after the backoff (given up after the last attempt).
    Retry(String),
    /// Will never succeed: given up now.
    Failed(String),
}

impl JobOutcome {
    /// `Done` with a summary, or `Retry` with the error's whole cause chain: what a handler
    /// returns when its use case's only failure is a storage or network fault.
    pub fn from_result<T, E: std::error::Error>(result: Result<T, E>, summary: impl FnOnce(T) -> serde_json::Value) -> Self {
        match result {
            Ok(value) => Self::Done(summary(value)),
            Err(error) => Self::Retry(error_chain(&error)),
        }
    }
}

/// An error and its sources, `: `-separated (for the job's `last_error`).
pub fn error_chain(error: &dyn std::error::Error) -> String {
    let mut chain = error.to_string();
    let mut source = error.source();
    while let Some(next) = source {
        chain.push_str(": ");
        chain.push_str(&next.to_string());
        source = next.source();
    }
    chain
}

/// The use case that runs jobs of kind `J`; a domain service implements it once per kind it
/// handles, so handlers take ports and run without a database in unit tests.
#[async_trait]
pub trait JobHandler<J: Job>: Send + Sync {
    async fn run(&self, job: J, run: JobRun) -> JobOutcome;

    /// The job was given up (its last attempt failed or died): let its domain show that the
    /// work will not happen (a draft `failed`, ...). Errors are logged by the caller.
    async fn give_up(&self, job: J) -> Result<(), String> {
        let _ = job;
        Ok(())
    }
}

/// A job to enqueue.
#[derive(Debug, Clone, PartialEq)]
pub struct NewJob {
    /// What to run: a [`Job::KIND`]. Made by [`Job::new_job`], never by hand.
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
    /// The same job under a unique key: enqueueing it again while one with the key exists does
    /// nothing (periodic work uses one key per period).
    pub fn unique(mut self, key: String) -> Self {
        self.unique_key = Some(key);
        self
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

impl ClaimedJob {
    pub fn run(&self) -> JobRun {
        JobRun { attempt: self.attempt, max_attempts: self.max_attempts }
    }
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

    /// Hands back the jobs `workers` hold (at shutdown): queued again, due `now`, the
    /// interrupted attempt not counted, so the next start resumes them at once instead of
    /// waiting for their leases to expire. Returns how many were handed back.
    async fn release(&self, workers: &[String], now: OffsetDateTime) -> Result<u64, RepoError>;

    /// The state, attempts and last error of a job (for tests and operators).
    async fn state(&self, id: i64) -> Result<Option<(JobState, u32, Option<String>)>, RepoError>;
}

/// A job queue that records what it is given and hands out nothing: for the unit tests of the
/// domains that enqueue (`testing` feature).
#[cfg(feature = "testing")]
#[derive(Debug, Default)]
pub struct MemoryJobQueue {
    pub jobs: std::sync::Mutex<Vec<NewJob>>,
}

#[cfg(feature = "testing")]
#[async_trait]
impl JobQueue for MemoryJobQueue {
    async fn enqueue(&self, job: NewJob) -> Result<bool, RepoError> {
        let mut jobs = self.jobs.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
        if job.unique_key.is_some() && jobs.iter().any(|queued| queued.unique_key == job.unique_key) {
            return Ok(false);
        }
        jobs.push(job);
        Ok(true)
    }

    async fn claim(&self, _: OffsetDateTime, _: Duration, _: &str) -> Result<Option<ClaimedJob>, RepoError> {
        Ok(None)
    }

    async fn complete(&self, _: i64, _: u32, _: OffsetDateTime) -> Result<bool, RepoError> {
        Ok(false)
    }

    async fn fail(&self, _: i64, _: u32, _: &str, _: Option<OffsetDateTime>, _: OffsetDateTime) -> Result<bool, RepoError> {
        Ok(false)
    }

    async fn release(&self, _: &[String], _: OffsetDateTime) -> Result<u64, RepoError> {
        // This queue never hands out a claim, so nothing is held.
        Ok(0)
    }

    async fn state(&self, _: i64) -> Result<Option<(JobState, u32, Option<String>)>, RepoError> {
        Ok(None)
    }
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
