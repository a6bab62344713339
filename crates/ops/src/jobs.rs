//! The job registry, beside the operation registry: every background job kind and the use case
//! that runs it. A kind is named once, on its payload type (`kernel::Job::KIND`) next to its
//! handler in its domain; the registry decodes the payload into that type and hands it over,
//! so the worker loop knows no kind by name.

use crate::App;
use async_trait::async_trait;
use drafts::{CollectPictures, CompareCompetitor, CrawlDraft, RegenerateDraft};
use kernel::{ClaimedJob, Job, JobHandler, JobOutcome, JobRun};
use listings::{CheckBadge, EndWeek, NotifyFollowers, StartWeek, SweepBadges};
use serde_json::Value;
use std::collections::BTreeMap;
use std::marker::PhantomData;

/// A handler with its payload type erased, so handlers of every kind sit in one map.
#[async_trait]
trait ErasedHandler: Send + Sync {
    async fn run(&self, payload: &Value, run: JobRun) -> JobOutcome;
    async fn give_up(&self, payload: &Value) -> Result<(), String>;
}

struct Typed<J, H> {
    handler: H,
    job: PhantomData<fn() -> J>,
}

#[async_trait]
impl<J: Job, H: JobHandler<J> + 'static> ErasedHandler for Typed<J, H> {
    async fn run(&self, payload: &Value, run: JobRun) -> JobOutcome {
        match serde_json::from_value::<J>(payload.clone()) {
            Ok(job) => self.handler.run(job, run).await,
            // It will never decode, however often it is tried.
            Err(error) => JobOutcome::Failed(format!("the payload of a {} job is malformed: {error}", J::KIND)),
        }
    }

    async fn give_up(&self, payload: &Value) -> Result<(), String> {
        match serde_json::from_value::<J>(payload.clone()) {
            Ok(job) => self.handler.give_up(job).await,
            // A payload that never decoded never started any work to undo.
            Err(_) => Ok(()),
        }
    }
}

/// Every job kind with its handler.
#[derive(Default)]
pub struct JobRegistry {
    handlers: BTreeMap<&'static str, Box<dyn ErasedHandler>>,
}

impl std::fmt::Debug for JobRegistry {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("JobRegistry").field("kinds", &self.kinds()).finish()
    }
}

impl JobRegistry {
    /// The registry of every job this application runs: adding a job kind is one line here.
    pub fn of(app: &App) -> Self {
        let mut jobs = Self::default();
        jobs.register::<CrawlDraft>(app.drafts.clone())
            .register::<RegenerateDraft>(app.drafts.clone())
            .register::<CompareCompetitor>(app.drafts.clone())
            .register::<CollectPictures>(app.drafts.clone())
            .register::<NotifyFollowers>(app.listings.owners.clone())
            .register::<StartWeek>(app.listings.lifecycle.clone())
            .register::<EndWeek>(app.listings.lifecycle.clone())
            .register::<SweepBadges>(app.listings.lifecycle.clone())
            .register::<CheckBadge>(app.listings.lifecycle.clone())
            .register::<kernel::Purge>(app.housekeeper.clone())
            .register::<orders::FulfilLine>(app.commerce.orders.clone())
            .register::<orders::RefundPayment>(app.commerce.orders.clone())
            .register::<orders::ExpireOrders>(app.commerce.orders.clone())
            .register::<orders::ReconcilePayments>(app.commerce.orders.clone())
            .register::<orders::IssueInvoice>(app.commerce.orders.clone())
            .register::<orders::IssueCreditNote>(app.commerce.orders.clone())
            .register::<claims::ExpireClaims>(app.claims.clone())
            .register::<claims::RecheckClaims>(app.claims.clone())
            .register::<media::ScaleImage>(app.media.clone());
        jobs
    }

    /// Adds the handler of kind `J`.
    ///
    /// # Panics
    /// When `J::KIND` has a handler already: two handlers for one kind is a wiring mistake.
    pub fn register<J: Job>(&mut self, handler: impl JobHandler<J> + 'static) -> &mut Self {
        let previous = self.handlers.insert(J::KIND, Box::new(Typed { handler, job: PhantomData::<fn() -> J> }));
        assert!(previous.is_none(), "two handlers for job kind {}", J::KIND);
        self
    }

    /// The kinds, sorted.
    pub fn kinds(&self) -> Vec<&'static str> {
        self.handlers.keys().copied().collect()
    }

    /// Runs a claimed job with its kind's handler. A kind without a handler, or a payload that
    /// does not decode, fails for good.
    pub async fn run(&self, job: &ClaimedJob) -> JobOutcome {
        match self.handlers.get(job.kind.as_str()) {
            Some(handler) => handler.run(&job.payload, job.run()).await,
            None => JobOutcome::Failed(format!("no handler runs jobs of kind {}", job.kind)),
        }
    }

    /// Tells the job's domain that the job was given up.
    pub async fn give_up(&self, job: &ClaimedJob) -> Result<(), String> {
        match self.handlers.get(job.kind.as_str()) {
            Some(handler) => handler.give_up(&job.payload).await,
            None => Ok(()),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde::{Deserialize, Serialize};
    use std::sync::Mutex;

    #[derive(Debug, Serialize, Deserialize)]
    struct Greet {
        name: String,
    }

    impl Job for Greet {
        const KIND: &'static str = "test.greet";
    }

    #[derive(Default)]
    struct Greeter {
        given_up: Mutex<Vec<String>>,
    }

    #[async_trait]
    impl JobHandler<Greet> for std::sync::Arc<Greeter> {
        async fn run(&self, job: Greet, run: JobRun) -> JobOutcome {
            if run.is_last() { JobOutcome::Done(serde_json::json!({"hello": job.name})) } else { JobOutcome::Retry("not yet".into()) }
        }

        async fn give_up(&self, job: Greet) -> Result<(), String> {
            self.given_up.lock().map_err(|err| err.to_string())?.push(job.name);
            Ok(())
        }
    }

    fn claimed(kind: &str, payload: Value, attempt: u32) -> ClaimedJob {
        ClaimedJob { id: 1, kind: kind.into(), payload, attempt, max_attempts: 3 }
    }

    #[tokio::test]
    async fn a_job_reaches_its_handler_typed_and_bad_ones_fail_for_good() {
        let greeter = std::sync::Arc::new(Greeter::default());
        let mut jobs = JobRegistry::default();
        jobs.register::<Greet>(greeter.clone());
        assert_eq!(jobs.kinds(), ["test.greet"]);
        let payload = Greet { name: "Ada".into() }.new_job(time::OffsetDateTime::UNIX_EPOCH).payload;
        assert_eq!(jobs.run(&claimed("test.greet", payload.clone(), 1)).await, JobOutcome::Retry("not yet".into()));
        assert_eq!(jobs.run(&claimed("test.greet", payload.clone(), 3)).await, JobOutcome::Done(serde_json::json!({"hello": "Ada"})));
        let malformed = jobs.run(&claimed("test.greet", serde_json::json!({"nom": 1}), 1)).await;
        assert!(matches!(&malformed, JobOutcome::Failed(why) if why.contains("malformed")), "{malformed:?}");
        let unknown = jobs.run(&claimed("test.nobody", serde_json::json!({}), 1)).await;
        assert!(matches!(&unknown, JobOutcome::Failed(why) if why.contains("test.nobody")), "{unknown:?}");
        jobs.give_up(&claimed("test.greet", payload, 3)).await.unwrap();
        assert_eq!(*greeter.given_up.lock().unwrap(), ["Ada"]);
    }

    #[test]
    #[should_panic(expected = "two handlers")]
    fn a_kind_has_one_handler() {
        let mut jobs = JobRegistry::default();
        jobs.register::<Greet>(std::sync::Arc::new(Greeter::default())).register::<Greet>(std::sync::Arc::new(Greeter::default()));
    }
}
