//! Background job workers: a loop that claims a due job from the durable `jobs` table under a
//! lease, has the job registry run it, and records the outcome (done, retry with backoff, or
//! failed for good). A job whose worker died is taken over by another once its lease expires.

use futures_util::FutureExt;
use kernel::{ClaimedJob, Clock, JobOutcome, JobQueue, retry_delay};
use ops::JobRegistry;
use std::panic::AssertUnwindSafe;
use std::sync::Arc;
use std::time::Duration;
use tracing::Instrument;

/// How long an idle worker waits before looking again.
const IDLE: Duration = Duration::from_millis(200);

/// Runs jobs until the task is aborted.
/// `lease`: how long a claim holds before another worker may take the job over.
pub async fn run(name: String, queue: Arc<dyn JobQueue>, jobs: Arc<JobRegistry>, clock: Arc<dyn Clock>, lease: time::Duration) {
    loop {
        match queue.claim(clock.now(), lease, &name).await {
            Ok(Some(job)) => {
                let span = tracing::info_span!("job", id = job.id, kind = %job.kind, attempt = job.attempt);
                work(&job, queue.as_ref(), &jobs, clock.as_ref()).instrument(span).await;
            }
            Ok(None) => tokio::time::sleep(IDLE).await,
            Err(err) => {
                tracing::warn!(error = %err, "could not claim a job; will try again");
                tokio::time::sleep(Duration::from_secs(1)).await;
            }
        }
    }
}

/// Runs one claimed job and records its outcome.
async fn work(job: &ClaimedJob, queue: &dyn JobQueue, jobs: &JobRegistry, clock: &dyn Clock) {
    if job.attempt > job.max_attempts {
        // Its last run died (the lease expired): give it up without running it again.
        tracing::error!("job abandoned: its last attempt never finished");
        give_up(job, jobs).await;
        record(queue.fail(job.id, job.attempt, "the last attempt never finished", None, clock.now()).await);
        return;
    }
    let started = std::time::Instant::now();
    // A panic in a job is a failed attempt, not the worker's end.
    let outcome = AssertUnwindSafe(jobs.run(job)).catch_unwind().await.unwrap_or_else(|_| JobOutcome::Retry("the job panicked".into()));
    let now = clock.now();
    let recorded = match outcome {
        JobOutcome::Done(summary) => {
            tracing::info!(elapsed_ms = started.elapsed().as_millis() as u64, %summary, "job done");
            queue.complete(job.id, job.attempt, now).await
        }
        JobOutcome::Retry(error) if !job.run().is_last() => {
            tracing::warn!(%error, "job failed; it will be retried");
            queue.fail(job.id, job.attempt, &error, Some(now + retry_delay(job.attempt)), now).await
        }
        JobOutcome::Retry(error) | JobOutcome::Failed(error) => {
            tracing::error!(%error, "job failed for good");
            give_up(job, jobs).await;
            queue.fail(job.id, job.attempt, &error, None, now).await
        }
    };
    record(recorded);
}

/// Lets the job's domain show that the work will not happen (a draft `failed`, ...).
async fn give_up(job: &ClaimedJob, jobs: &JobRegistry) {
    if let Err(error) = jobs.give_up(job).await {
        tracing::warn!(%error, "could not record that a job was given up");
    }
}

fn record(recorded: Result<bool, kernel::RepoError>) {
    match recorded {
        Ok(true) => {}
        Ok(false) => tracing::warn!("the job was taken over by another worker after its lease expired; this run's outcome is dropped"),
        Err(err) => tracing::warn!(error = %err, "could not record a job's outcome; its lease will expire and it runs again"),
    }
}
