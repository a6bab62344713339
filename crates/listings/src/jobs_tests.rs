//! Unit tests of the listings domain's job handlers (the follower e-mails, the week start, the
//! week end, the badge sweep and the badge check), each over in-memory ports.

use crate::LifecycleService;
use crate::fakes::{self, Awards, Launches, Lifecycle, Owned, Probe, Queue, T0};
use crate::lifecycle::{BadgeSighting, CheckBadge, EndWeek, LifecyclePolicy, QueuedListing, StartWeek, SweepBadges};
use crate::model::{ListingStatus, ListingSummary};
use crate::owner::{FreeQueuePolicy, NotifyFollowers, OwnerService};
use kernel::{Email, Job, JobHandler, JobOutcome, JobRun, ListingId, MemoryMailer, Slug, UserId, Week};
use serde_json::json;
use std::sync::{Arc, Mutex};
use time::{Duration, UtcOffset};

const RUN: JobRun = JobRun { attempt: 1, max_attempts: 3 };

fn owners(repo: Arc<Owned>, outbox: Arc<MemoryMailer>) -> OwnerService {
    let policy = FreeQueuePolicy { launch_offset: UtcOffset::UTC, min_weeks: 6, max_weeks: 8, slots_per_week: 20 };
    OwnerService::new(repo, fakes::clock(), policy, outbox, "https://launchdir.example".into())
}

#[tokio::test]
async fn notify_followers_mails_each_follower_the_update_the_job_names() {
    let repo = Arc::new(Owned::default());
    repo.listings.lock().unwrap().push(fakes::owned(5, "Acme", ListingStatus::Live));
    *repo.followers.lock().unwrap() = vec![Email::parse("a@x.example").unwrap(), Email::parse("b@x.example").unwrap()];
    let outbox = Arc::new(MemoryMailer::default());
    let service = owners(repo.clone(), outbox.clone());

    service.post_update(UserId::new(1), ListingId::new(5), "v2 is out", "Faster sync.").await.unwrap();
    let job = repo.jobs.lock().unwrap()[0].clone();
    assert_eq!(job.kind, NotifyFollowers::KIND);
    let job: NotifyFollowers = serde_json::from_value(job.payload).unwrap();
    assert_eq!(job, NotifyFollowers { listing_id: ListingId::new(5), update_id: 1 }, "the job names the update the insert made");

    let outcome = service.run(job, RUN).await;
    assert_eq!(outcome, JobOutcome::Done(json!({"listing_id": 5, "update_id": 1, "emails": 2})));
    let sent = outbox.sent();
    assert_eq!(sent.len(), 2);
    assert_eq!(sent[0].subject, "Acme: v2 is out");
    assert!(sent[0].body.contains("https://launchdir.example/listings/acme"));

    let gone = service.run(NotifyFollowers { listing_id: ListingId::new(5), update_id: 9 }, RUN).await;
    assert_eq!(gone, JobOutcome::Done(json!({"listing_id": 5, "update_id": 9, "emails": 0})), "an unknown update sends nothing");
}

struct World {
    service: LifecycleService,
    repo: Arc<Lifecycle>,
    queue: Arc<Queue>,
    launches: Arc<Launches>,
    awards: Arc<Awards>,
    probe: Arc<Probe>,
}

fn lifecycle() -> World {
    let clock = fakes::clock();
    let repo = Arc::new(Lifecycle::default());
    let queue = Arc::new(Queue::default());
    let launches = Arc::new(Launches::default());
    let awards = Arc::new(Awards::default());
    let probe = Arc::new(Probe(Mutex::new(BadgeSighting::NotFound)));
    let policy = LifecyclePolicy {
        launch_offset: UtcOffset::UTC,
        site_url: "https://launchdir.example".into(),
        badge_check_interval: Duration::hours(1),
        badge_max_backoff: Duration::hours(24),
        badge_checks_per_sweep: 100,
    };
    let service = LifecycleService::new(
        repo.clone(),
        probe.clone(),
        queue.clone(),
        fakes::awards(launches.clone(), awards.clone(), clock.clone()),
        clock,
        policy,
    );
    World { service, repo, queue, launches, awards, probe }
}

fn this_week() -> Week {
    Week::at(T0, UtcOffset::UTC)
}

fn queued(id: i64, week: Week) -> QueuedListing {
    QueuedListing {
        id: ListingId::new(id),
        slug: format!("l{id}"),
        url: kernel::WebUrl::parse(&format!("https://l{id}.example/")).unwrap(),
        launch_week: week,
        failures: 0,
    }
}

#[tokio::test]
async fn start_week_publishes_what_is_due_and_says_which() {
    let world = lifecycle();
    *world.repo.scheduled.lock().unwrap() = vec![(ListingId::new(1), this_week()), (ListingId::new(2), this_week().plus_weeks(1))];
    assert_eq!(world.service.run(StartWeek {}, RUN).await, JobOutcome::Done(json!({"published": [1]})));
    assert_eq!(*world.repo.live.lock().unwrap(), [ListingId::new(1)]);
    assert_eq!(world.service.run(StartWeek {}, RUN).await, JobOutcome::Done(json!({"published": []})), "a second run moves nothing");
}

#[tokio::test]
async fn end_week_fixes_the_awards_of_finished_weeks_from_votes() {
    let world = lifecycle();
    let last = this_week().plus_weeks(-1);
    let summary = |id: i64| ListingSummary {
        id: ListingId::new(id),
        slug: Slug::parse(&format!("l{id}")).unwrap(),
        name: format!("L{id}"),
        url: format!("https://l{id}.example/"),
        tagline: None,
        logo: None,
        votes: 0,
        primary_category: None,
        launch_week: Some(last),
        status: ListingStatus::Live,
    };
    *world.launches.launches.lock().unwrap() = vec![(summary(1), 3), (summary(2), 9), (summary(3), 0)];
    let outcome = world.service.run(EndWeek {}, RUN).await;
    assert_eq!(outcome, JobOutcome::Done(json!({"fixed": [{"week": last.to_string(), "winners": 2}]})));
    let fixed = world.awards.fixed.lock().unwrap();
    let winners: Vec<(i64, u64)> = fixed[0].1.iter().map(|w| (w.listing.get(), w.votes)).collect();
    assert_eq!(winners, [(2, 9), (1, 3)], "ranked by votes; a listing without votes wins nothing");
}

#[tokio::test]
async fn sweep_badges_enqueues_one_check_per_due_listing_once_per_period() {
    let world = lifecycle();
    *world.repo.queued.lock().unwrap() = vec![queued(1, this_week().plus_weeks(6)), queued(2, this_week().plus_weeks(7))];
    assert_eq!(world.service.run(SweepBadges {}, RUN).await, JobOutcome::Done(json!({"checks_enqueued": 2})));
    assert_eq!(world.service.run(SweepBadges {}, RUN).await, JobOutcome::Done(json!({"checks_enqueued": 0})));
    let jobs = world.queue.jobs.lock().unwrap();
    assert!(jobs.iter().all(|job| job.kind == CheckBadge::KIND && job.max_attempts == 1));
    let job: CheckBadge = serde_json::from_value(jobs[0].payload.clone()).unwrap();
    assert_eq!(job, CheckBadge { listing_id: ListingId::new(1) });
}

#[tokio::test]
async fn check_badge_records_what_the_homepage_shows() {
    let world = lifecycle();
    *world.repo.queued.lock().unwrap() = vec![queued(1, this_week().plus_weeks(6))];
    let check = CheckBadge { listing_id: ListingId::new(1) };
    let outcome = world.service.run(check.clone(), RUN).await;
    assert!(matches!(&outcome, JobOutcome::Done(summary) if summary["result"] == "not_found"), "{outcome:?}");

    *world.probe.0.lock().unwrap() = BadgeSighting::Failed { reason: "unreachable", detail: "down".into() };
    world.service.run(check.clone(), RUN).await;
    assert_eq!(world.repo.checks.lock().unwrap()[1].1.failures, 1);

    *world.probe.0.lock().unwrap() = BadgeSighting::Found("a link to the listing".into());
    let outcome = world.service.run(check.clone(), RUN).await;
    assert!(matches!(&outcome, JobOutcome::Done(summary) if summary["result"] == "found"), "{outcome:?}");
    assert_eq!(world.repo.checks.lock().unwrap()[2].1.publish, Some(ListingStatus::Scheduled), "its week is still ahead");
    let again = world.service.run(check, RUN).await;
    assert_eq!(again, JobOutcome::Done(json!({"listing_id": 1, "result": "skipped"})), "no longer awaiting the badge");
}

#[tokio::test]
async fn periodic_jobs_are_keyed_by_their_period() {
    let world = lifecycle();
    assert_eq!(world.service.enqueue_periodic().await.unwrap(), 3);
    assert_eq!(world.service.enqueue_periodic().await.unwrap(), 0, "the same period enqueues nothing twice");
    let keys: Vec<String> = world.queue.jobs.lock().unwrap().iter().filter_map(|job| job.unique_key.clone()).collect();
    assert_eq!(keys[0], format!("calendar.week_start:{}", this_week()));
    assert_eq!(keys[1], format!("calendar.week_end:{}", this_week().plus_weeks(-1)));
    assert!(keys[2].starts_with("badge.sweep:"));
}
