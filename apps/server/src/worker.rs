//! Background job workers: each claims due jobs from the durable `jobs` table under a lease,
//! runs them, and records the outcome (done, retry with backoff, or failed for good). A job
//! whose worker died is taken over by another once its lease expires.

use futures_util::FutureExt;
use kernel::{Clock, JobQueue, retry_delay};
use std::panic::AssertUnwindSafe;
use std::sync::Arc;
use std::time::Duration;
use tracing::Instrument;

/// How long an idle worker waits before looking again.
const IDLE: Duration = Duration::from_millis(200);

/// Runs jobs until the task is aborted.
/// `lease`: how long a claim holds before another worker may take the job over.
pub async fn run(name: String, queue: Arc<dyn JobQueue>, app: ops::App, clock: Arc<dyn Clock>, lease: time::Duration) {
    loop {
        match queue.claim(clock.now(), lease, &name).await {
            Ok(Some(job)) => {
                let span = tracing::info_span!("job", id = job.id, kind = %job.kind, attempt = job.attempt);
                let now = clock.now();
                if job.attempt > job.max_attempts {
                    // Its last run died (the lease expired): give it up without running it again.
                    let _enter = span.enter();
                    tracing::error!("job abandoned: its last attempt never finished");
                    give_up(&app, &job.kind, &job.payload).await;
                    record(queue.fail(job.id, job.attempt, "the last attempt never finished", None, now).await);
                    continue;
                }
                let last_attempt = job.attempt >= job.max_attempts;
                let started = std::time::Instant::now();
                // A panic in a job is its failure, not the worker's end.
                let outcome = AssertUnwindSafe(async {
                    match job.kind.split('.').next() {
                        Some("draft") => app.drafts.run_job(&job.kind, &job.payload, last_attempt).await.map_err(|err| error_chain(&err)),
                        Some("listing") if job.kind == listings::owner::NOTIFY_FOLLOWERS_JOB => {
                            app.owners.notify_followers(&job.payload).await.map(|_| ()).map_err(|err| error_chain(&err))
                        }
                        _ => match app.lifecycle.run_job(&job.kind, &job.payload).await {
                            Some(Ok(summary)) => {
                                tracing::info!(%summary, "lifecycle job");
                                Ok(())
                            }
                            Some(Err(err)) => Err(error_chain(&err)),
                            None => Err(format!("no worker runs jobs of kind {}", job.kind)),
                        },
                    }
                })
                .catch_unwind()
                .instrument(span.clone())
                .await
                .unwrap_or_else(|_| Err("the job panicked".to_owned()));
                let _enter = span.enter();
                let now = clock.now();
                let recorded = match outcome {
                    Ok(()) => {
                        tracing::info!(elapsed_ms = started.elapsed().as_millis() as u64, "job done");
                        queue.complete(job.id, job.attempt, now).await
                    }
                    Err(error) if !last_attempt => {
                        tracing::warn!(%error, "job failed; it will be retried");
                        queue.fail(job.id, job.attempt, &error, Some(now + retry_delay(job.attempt)), now).await
                    }
                    Err(error) => {
                        tracing::error!(%error, "job failed for good");
                        give_up(&app, &job.kind, &job.payload).await;
                        queue.fail(job.id, job.attempt, &error, None, now).await
                    }
                };
                record(recorded);
            }
            Ok(None) => tokio::time::sleep(IDLE).await,
            Err(err) => {
                tracing::warn!(error = %err, "could not claim a job; will try again");
                tokio::time::sleep(Duration::from_secs(1)).await;
            }
        }
    }
}

/// Lets the job's domain show that the work will not happen (a draft `failed`, ...).
async fn give_up(app: &ops::App, kind: &str, payload: &serde_json::Value) {
    if kind.starts_with("draft.")
        && let Err(err) = app.drafts.abandon(kind, payload).await
    {
        tracing::warn!(error = %err, "could not mark the draft of an abandoned job");
    }
}

fn record(recorded: Result<bool, kernel::RepoError>) {
    match recorded {
        Ok(true) => {}
        Ok(false) => tracing::warn!("the job was taken over by another worker after its lease expired; this run's outcome is dropped"),
        Err(err) => tracing::warn!(error = %err, "could not record a job's outcome; its lease will expire and it runs again"),
    }
}

fn error_chain(error: &dyn std::error::Error) -> String {
    let mut chain = error.to_string();
    let mut source = error.source();
    while let Some(next) = source {
        chain.push_str(": ");
        chain.push_str(&next.to_string());
        source = next.source();
    }
    chain
}
