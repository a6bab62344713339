//! The durable job queue: claims under a lease, retries with backoff, recovery of a job whose
//! worker died, unique keys per period, and no job claimed twice.

use kernel::{JobQueue, JobState, NewJob, retry_delay};
use store_seaorm::SeaStore;
use store_seaorm::testing::TestDatabase;
use time::{Duration, OffsetDateTime, macros::datetime};

const T0: OffsetDateTime = datetime!(2026-11-16 09:00 UTC);
const LEASE: Duration = Duration::minutes(2);

fn job(kind: &str, at: OffsetDateTime) -> NewJob {
    NewJob { kind: kind.to_owned(), payload: serde_json::json!({"n": 1}), run_at: at, max_attempts: 3, unique_key: None }
}

#[tokio::test]
async fn a_job_is_claimed_once_then_retried_with_backoff_then_done() {
    let test = TestDatabase::new().await;
    let store = SeaStore::new(test.db.clone());
    assert!(store.enqueue(job("test.work", T0)).await.unwrap());
    assert_eq!(store.claim(T0 - Duration::seconds(1), LEASE, "a").await.unwrap(), None, "not due yet");
    let claimed = store.claim(T0, LEASE, "a").await.unwrap().unwrap();
    assert_eq!((claimed.kind.as_str(), claimed.attempt, claimed.max_attempts), ("test.work", 1, 3));
    assert_eq!(store.claim(T0, LEASE, "b").await.unwrap(), None, "a claimed job is not claimed again");

    let retry_at = T0 + retry_delay(1);
    assert!(store.fail(claimed.id, 1, "the site did not answer", Some(retry_at), T0).await.unwrap());
    assert_eq!(store.state(claimed.id).await.unwrap().unwrap(), (JobState::Queued, 1, Some("the site did not answer".into())));
    assert_eq!(store.claim(retry_at - Duration::seconds(1), LEASE, "b").await.unwrap(), None, "backing off");
    let again = store.claim(retry_at, LEASE, "b").await.unwrap().unwrap();
    assert_eq!((again.id, again.attempt), (claimed.id, 2));
    assert!(!store.complete(again.id, 1, retry_at).await.unwrap(), "an older run records nothing");
    assert!(store.complete(again.id, 2, retry_at).await.unwrap());
    assert_eq!(store.state(again.id).await.unwrap().unwrap().0, JobState::Done);
    assert_eq!(store.claim(retry_at + Duration::hours(1), LEASE, "c").await.unwrap(), None);

    assert!(store.enqueue(job("test.last", T0)).await.unwrap());
    let last = store.claim(T0, LEASE, "a").await.unwrap().unwrap();
    assert!(store.fail(last.id, 1, "gave up", None, T0).await.unwrap());
    assert_eq!(store.state(last.id).await.unwrap().unwrap().0, JobState::Failed);
    assert_eq!(store.claim(T0 + Duration::days(1), LEASE, "a").await.unwrap(), None, "failed jobs stay failed");
}

#[tokio::test]
async fn a_stuck_job_is_recovered_after_its_lease() {
    let test = TestDatabase::new().await;
    let store = SeaStore::new(test.db.clone());
    store.enqueue(job("test.stuck", T0)).await.unwrap();
    let first = store.claim(T0, LEASE, "dies").await.unwrap().unwrap();
    // The worker died without recording anything: the job is running until its lease ends.
    assert_eq!(store.claim(T0 + LEASE - Duration::seconds(1), LEASE, "b").await.unwrap(), None);
    let recovered = store.claim(T0 + LEASE + Duration::seconds(1), LEASE, "b").await.unwrap().unwrap();
    assert_eq!((recovered.id, recovered.attempt), (first.id, 2));
    assert_eq!(store.state(first.id).await.unwrap().unwrap(), (JobState::Running, 2, None));
    // The first worker wakes up late: its outcome is ignored, the new run's counts.
    assert!(!store.fail(first.id, 1, "late", None, T0).await.unwrap());
    assert!(store.complete(recovered.id, 2, T0 + LEASE * 2).await.unwrap());
    assert_eq!(store.state(first.id).await.unwrap().unwrap().0, JobState::Done);

    // A job whose last attempt died comes back once more, beyond its attempts, to be given up.
    store.enqueue(NewJob { max_attempts: 1, ..job("test.dies", T0) }).await.unwrap();
    let only = store.claim(T0, LEASE, "a").await.unwrap().unwrap();
    assert_eq!((only.attempt, only.max_attempts), (1, 1));
    let beyond = store.claim(T0 + LEASE * 2, LEASE, "b").await.unwrap().unwrap();
    assert_eq!((beyond.id, beyond.attempt), (only.id, 2));
}

#[tokio::test]
async fn unique_keys_make_periodic_work_happen_once() {
    let test = TestDatabase::new().await;
    let store = SeaStore::new(test.db.clone());
    let weekly = NewJob { unique_key: Some("week-start:2026-11-16".into()), ..job("test.week", T0) };
    assert!(store.enqueue(weekly.clone()).await.unwrap());
    assert!(!store.enqueue(weekly).await.unwrap(), "the same period is enqueued once");
    assert_eq!(store.job_ids("test.week").await.unwrap().len(), 1);
}

#[tokio::test]
async fn racing_workers_never_claim_the_same_job() {
    let test = TestDatabase::new().await;
    let store = SeaStore::new(test.db.clone());
    for _ in 0..20 {
        store.enqueue(job("test.race", T0)).await.unwrap();
    }
    let mut tasks = Vec::new();
    for worker in 0..4 {
        let store = store.clone();
        tasks.push(tokio::spawn(async move {
            let mut mine = Vec::new();
            while let Some(job) = store.claim(T0, LEASE, &format!("w{worker}")).await.unwrap() {
                mine.push(job.id);
            }
            mine
        }));
    }
    let mut claimed = Vec::new();
    for task in tasks {
        claimed.extend(task.await.unwrap());
    }
    claimed.sort_unstable();
    let before = claimed.len();
    claimed.dedup();
    assert_eq!(before, 20, "every job was claimed");
    assert_eq!(claimed.len(), 20, "and none twice");
}
