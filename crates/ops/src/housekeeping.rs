//! `Housekeeper`: runs the daily `kernel::Purge` job with the cut-offs of the rules' owners:
//! idempotency records after `kernel::IDEMPOTENCY_KEPT_FOR`, finished jobs after 30 days (longer
//! than any period a periodic job's unique key names), sessions, codes and tokens once expired.

use async_trait::async_trait;
use kernel::IDEMPOTENCY_KEPT_FOR;
use kernel::{Clock, Housekeeping, JobHandler, JobOutcome, JobRun, Purge, PurgeCutoffs};
use std::sync::Arc;
use time::{Duration, OffsetDateTime};

/// How long a finished job stays visible to operators.
pub const FINISHED_JOBS_KEPT: Duration = Duration::days(30);

#[derive(Clone)]
pub struct Housekeeper {
    store: Arc<dyn Housekeeping>,
    clock: Arc<dyn Clock>,
}

impl Housekeeper {
    pub fn new(store: Arc<dyn Housekeeping>, clock: Arc<dyn Clock>) -> Self {
        Self { store, clock }
    }

    /// The cut-offs at `now`.
    pub fn cutoffs(now: OffsetDateTime) -> PurgeCutoffs {
        PurgeCutoffs {
            idempotency_before: now - IDEMPOTENCY_KEPT_FOR,
            jobs_finished_before: now - FINISHED_JOBS_KEPT,
            expired_before: now,
            claim_emails_before: now - claims::MAIL_QUOTA_WINDOW,
        }
    }
}

#[async_trait]
impl JobHandler<Purge> for Housekeeper {
    async fn run(&self, _: Purge, _: JobRun) -> JobOutcome {
        match self.store.purge(&Self::cutoffs(self.clock.now())).await {
            Ok(purged) => JobOutcome::Done(serde_json::Value::String(purged.to_string())),
            Err(err) => JobOutcome::Retry(format!("the purge could not finish: {err}")),
        }
    }
}
