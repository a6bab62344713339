//! The background jobs of the drafts domain: each payload type names its kind once, and
//! `DraftsService` is the handler of each (reading the site, redrafting fields, comparing a
//! competitor), so every handler runs against ports.

use crate::model::{DraftId, FieldName};
use crate::service::{DraftError, DraftsService};
use async_trait::async_trait;
use kernel::{Job, JobHandler, JobOutcome, JobRun};
use serde::{Deserialize, Serialize};
use serde_json::json;

/// Reads the site and drafts the profile.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct CrawlDraft {
    pub draft_id: DraftId,
}

impl Job for CrawlDraft {
    const KIND: &'static str = "draft.crawl";
}

/// Redrafts some fields from what was read, and compares a competitor when one was named in
/// the same edit.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct RegenerateDraft {
    pub draft_id: DraftId,
    pub fields: Vec<FieldName>,
    #[serde(default)]
    pub competitor_url: Option<kernel::WebUrl>,
}

impl Job for RegenerateDraft {
    const KIND: &'static str = "draft.regenerate";
}

/// Fetches and keeps the pictures the site shows (its logo and screenshots), once the draft is
/// ready.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct CollectPictures {
    pub draft_id: DraftId,
}

impl Job for CollectPictures {
    const KIND: &'static str = "draft.pictures";
}

/// Reads a competitor's site and compares it with the draft.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct CompareCompetitor {
    pub draft_id: DraftId,
    pub url: kernel::WebUrl,
}

impl Job for CompareCompetitor {
    const KIND: &'static str = "draft.competitor";
}

/// What a job's error means for the job: faults that may pass are retried, the rest give up.
fn outcome(result: Result<(), DraftError>, id: DraftId) -> JobOutcome {
    match result {
        Ok(()) => JobOutcome::Done(json!({"draft_id": id})),
        Err(error @ (DraftError::NotFound | DraftError::Invalid(_))) => JobOutcome::Failed(kernel::error_chain(&error)),
        Err(error) => JobOutcome::Retry(kernel::error_chain(&error)),
    }
}

#[async_trait]
impl JobHandler<CrawlDraft> for DraftsService {
    async fn run(&self, job: CrawlDraft, run: JobRun) -> JobOutcome {
        outcome(self.crawl(job.draft_id, run.is_last()).await, job.draft_id)
    }

    async fn give_up(&self, job: CrawlDraft) -> Result<(), String> {
        self.abandon(job.draft_id, true, Vec::new(), None).await.map_err(|err| kernel::error_chain(&err))
    }
}

#[async_trait]
impl JobHandler<RegenerateDraft> for DraftsService {
    async fn run(&self, job: RegenerateDraft, _: JobRun) -> JobOutcome {
        let result = match self.regenerate(job.draft_id, &job.fields).await {
            Ok(()) => match &job.competitor_url {
                Some(url) => self.compare(job.draft_id, url).await,
                None => Ok(()),
            },
            Err(error) => Err(error),
        };
        outcome(result, job.draft_id)
    }

    async fn give_up(&self, job: RegenerateDraft) -> Result<(), String> {
        self.abandon(job.draft_id, false, job.fields, job.competitor_url).await.map_err(|err| kernel::error_chain(&err))
    }
}

#[async_trait]
impl JobHandler<CollectPictures> for DraftsService {
    async fn run(&self, job: CollectPictures, _: JobRun) -> JobOutcome {
        outcome(self.collect_pictures(job.draft_id).await, job.draft_id)
    }

    async fn give_up(&self, job: CollectPictures) -> Result<(), String> {
        self.modify(job.draft_id, |draft| draft.looking_for_pictures = false).await.map_err(|err| kernel::error_chain(&err))
    }
}

#[async_trait]
impl JobHandler<CompareCompetitor> for DraftsService {
    async fn run(&self, job: CompareCompetitor, _: JobRun) -> JobOutcome {
        outcome(self.compare(job.draft_id, &job.url).await, job.draft_id)
    }

    async fn give_up(&self, job: CompareCompetitor) -> Result<(), String> {
        self.abandon(job.draft_id, false, Vec::new(), Some(job.url)).await.map_err(|err| kernel::error_chain(&err))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::edit::DraftEdit;
    use crate::fakes::World;
    use crate::model::{DraftStatus, FailureReason, FieldState};
    use kernel::UserId;

    const SITE: &str = "https://acme.example/";
    const RIVAL: &str = "https://rival.example/";
    const FIRST: JobRun = JobRun { attempt: 1, max_attempts: 3 };
    const LAST: JobRun = JobRun { attempt: 3, max_attempts: 3 };
    const OWNER: UserId = UserId::new(7);

    /// The newest job the drafts enqueued, as its payload type.
    fn enqueued<J: Job>(world: &World) -> J {
        let jobs = world.drafts.jobs.lock().unwrap();
        let job = jobs.last().expect("a job was enqueued");
        assert_eq!(job.kind, J::KIND);
        serde_json::from_value(job.payload.clone()).expect("the payload decodes as its type")
    }

    #[tokio::test]
    async fn crawl_reads_the_site_and_makes_the_draft_ready() {
        let world = World::new();
        world.sites.serve(SITE, "Acme Notes");
        let draft = world.service.submit(OWNER, SITE).await.unwrap();
        let job: CrawlDraft = enqueued(&world);
        assert_eq!(job, CrawlDraft { draft_id: draft.id });
        assert_eq!(world.service.run(job, FIRST).await, JobOutcome::Done(json!({"draft_id": draft.id})));
        let draft = world.draft(draft.id);
        assert_eq!(draft.status, DraftStatus::Ready);
        assert_eq!(draft.text(crate::FieldName::Name), Some("Acme Notes"));
    }

    #[tokio::test]
    async fn an_unreachable_site_is_retried_then_shown_and_a_given_up_crawl_fails_the_draft() {
        let world = World::new();
        world.sites.down(SITE);
        let draft = world.service.submit(OWNER, SITE).await.unwrap();
        let job: CrawlDraft = enqueued(&world);
        assert!(matches!(world.service.run(job.clone(), FIRST).await, JobOutcome::Retry(why) if why.contains("connection refused")));
        assert_eq!(world.draft(draft.id).status, DraftStatus::Crawling, "a retry leaves the draft as it was");
        assert!(matches!(world.service.run(job.clone(), LAST).await, JobOutcome::Done(_)));
        let failed = world.draft(draft.id);
        assert_eq!((failed.status, failed.failure_reason), (DraftStatus::Failed, Some(FailureReason::Unreachable)));

        let other = world.service.submit(OWNER, SITE).await.unwrap();
        JobHandler::<CrawlDraft>::give_up(&world.service, CrawlDraft { draft_id: other.id }).await.unwrap();
        let abandoned = world.draft(other.id);
        assert_eq!((abandoned.status, abandoned.failure_reason), (DraftStatus::Failed, Some(FailureReason::Internal)));
    }

    #[tokio::test]
    async fn regenerate_redrafts_the_fields_asked_for_and_compares_a_competitor_in_the_same_job() {
        let world = World::new();
        world.sites.serve(SITE, "Acme Notes");
        world.sites.serve(RIVAL, "Rival Notes");
        let draft = world.service.submit(OWNER, SITE).await.unwrap();
        world.service.run(enqueued::<CrawlDraft>(&world), FIRST).await;
        let edit =
            DraftEdit { fields: vec![(crate::FieldName::Name, Some(crate::FieldValue::Text("My own name".into())))], ..Default::default() };
        world.service.update(OWNER, draft.id, edit).await.unwrap();
        let edit = DraftEdit { regenerate: vec![crate::FieldName::Name], competitor_url: Some(RIVAL.into()), ..Default::default() };
        world.service.update(OWNER, draft.id, edit).await.unwrap();
        let job: RegenerateDraft = enqueued(&world);
        assert_eq!(job.competitor_url.as_ref().map(kernel::WebUrl::as_str), Some(RIVAL), "one job carries the redraft and the comparison");
        assert_eq!(world.draft(draft.id).regenerating, [crate::FieldName::Name]);
        assert!(matches!(world.service.run(job, FIRST).await, JobOutcome::Done(_)));
        let done = world.draft(draft.id);
        assert!(done.regenerating.is_empty());
        assert_eq!(done.text(crate::FieldName::Name), Some("Acme Notes"));
        assert_eq!(done.field(crate::FieldName::Name).state, FieldState::Ai);
        assert_eq!(done.competitor.as_ref().map(|c| c.status.as_str()), Some("ready"));
    }

    #[tokio::test]
    async fn compare_reads_the_competitor_and_a_given_up_comparison_is_shown_failed() {
        let world = World::new();
        world.sites.serve(SITE, "Acme Notes");
        world.sites.serve(RIVAL, "Rival Notes");
        let draft = world.service.submit(OWNER, SITE).await.unwrap();
        world.service.run(enqueued::<CrawlDraft>(&world), FIRST).await;
        world.service.update(OWNER, draft.id, DraftEdit { competitor_url: Some(RIVAL.into()), ..Default::default() }).await.unwrap();
        let job: CompareCompetitor = enqueued(&world);
        assert_eq!(job, CompareCompetitor { draft_id: draft.id, url: kernel::WebUrl::parse(RIVAL).unwrap() });
        assert!(matches!(world.service.run(job.clone(), FIRST).await, JobOutcome::Done(_)));
        let competitor = world.draft(draft.id).competitor.unwrap();
        assert_eq!(competitor.status, "ready");
        let name = competitor.comparison.iter().find(|row| row.field == "name").unwrap();
        assert_eq!((name.ours.as_deref(), name.theirs.as_deref()), (Some("Acme Notes"), Some("Rival Notes")));

        world.service.update(OWNER, draft.id, DraftEdit { competitor_url: Some(RIVAL.into()), ..Default::default() }).await.unwrap();
        JobHandler::<CompareCompetitor>::give_up(&world.service, job).await.unwrap();
        let competitor = world.draft(draft.id).competitor.unwrap();
        assert_eq!((competitor.status.as_str(), competitor.failure_reason), ("failed", Some(FailureReason::Internal)));
    }

    #[tokio::test]
    async fn a_job_for_a_draft_that_is_gone_does_nothing() {
        let world = World::new();
        let gone = CrawlDraft { draft_id: crate::DraftId::random() };
        assert!(matches!(world.service.run(gone, FIRST).await, JobOutcome::Done(_)));
        assert!(world.drafts.drafts.lock().unwrap().is_empty());
    }
}
