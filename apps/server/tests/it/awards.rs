//! The week-end awards job and `list_awards`: exact winners, fixed once, even with two
//! processes at the same time, and catching up when time moves on.

use crate::helpers::settings_for;
use kernel::{FixedClock, Week};
use launchdir_server::{Application, Services};
use std::sync::Arc;
use store_seaorm::testing::{TestDatabase, fixtures};
use time::macros::datetime;
use time::{Duration, OffsetDateTime, UtcOffset};

const NOW: OffsetDateTime = datetime!(2026-11-18 12:00 UTC);

fn week(ago: i64) -> Week {
    Week::containing(NOW.date()).plus_weeks(-ago)
}

async fn services(test: &TestDatabase, clock: Arc<FixedClock>) -> Services {
    let settings = settings_for(&test.config);
    let db = launchdir_server::open_database(&settings).await.unwrap();
    Services::build(&settings, db, clock).unwrap()
}

/// Three weeks ago: alpha 5 votes, bravo 3, charlie 3 (launched later), delta 1, echo 9 but
/// only scheduled. Two weeks ago: foxtrot, no votes. This week: golf, 2 votes.
async fn fixture(test: &TestDatabase) {
    let db = &test.db;
    let w3 = week(3).starts_at(UtcOffset::UTC);
    let ids = [
        fixtures::listing(db, "alpha", "live", week(3), w3 + Duration::hours(1)).await,
        fixtures::listing(db, "bravo", "live", week(3), w3 + Duration::hours(2)).await,
        fixtures::listing(db, "charlie", "live", week(3), w3 + Duration::hours(3)).await,
        fixtures::listing(db, "delta", "live", week(3), w3 + Duration::hours(4)).await,
        fixtures::listing(db, "echo", "scheduled", week(3), w3).await,
    ];
    fixtures::listing(db, "foxtrot", "live", week(2), week(2).starts_at(UtcOffset::UTC)).await;
    let golf = fixtures::listing(db, "golf", "live", week(0), week(0).starts_at(UtcOffset::UTC)).await;
    let mut voters = Vec::new();
    for n in 0..9 {
        voters.push(fixtures::user(db, &format!("v{n}@example.com")).await);
    }
    for (listing, votes) in ids.iter().zip([5usize, 3, 3, 1, 9]) {
        for voter in &voters[..votes] {
            fixtures::vote(db, *listing, *voter, w3 + Duration::days(2)).await;
        }
    }
    for voter in &voters[..2] {
        fixtures::vote(db, golf, *voter, NOW - Duration::hours(1)).await;
    }
}

#[tokio::test]
async fn finished_weeks_get_their_top_three_once() {
    let test = TestDatabase::new().await;
    fixture(&test).await;
    let clock = Arc::new(FixedClock::new(NOW));
    let one = services(&test, clock.clone()).await;
    let two = services(&test, clock.clone()).await;

    // Two processes at once: every week is fixed by exactly one of them.
    let (a, b) = tokio::join!(one.app.listings.awards.fix_finished_weeks(), two.app.listings.awards.fix_finished_weeks());
    let (a, b) = (a.unwrap(), b.unwrap());
    let mut fixed: Vec<Week> = a.iter().chain(b.iter()).map(|(week, _)| *week).collect();
    fixed.sort();
    assert_eq!(fixed, [week(3), week(2), week(1)], "each finished week once, none twice, not the current one");
    let winners: usize = a.iter().chain(b.iter()).map(|(_, n)| n).sum();
    assert_eq!(winners, 3, "week 3 has three winners; weeks without votes have none");
    assert!(one.app.listings.awards.fix_finished_weeks().await.unwrap().is_empty(), "running again does nothing");

    let awards = one.app.listings.awards.list(None, kernel::PageRequest::default()).await.unwrap();
    let placed: Vec<(String, u32, u64)> = awards.items.iter().map(|a| (a.listing.slug.to_string(), a.rank, a.votes)).collect();
    assert_eq!(placed, [("alpha".into(), 1, 5), ("bravo".into(), 2, 3), ("charlie".into(), 3, 3)]);

    // A week later the current week has ended too, and is fixed on the next run.
    clock.advance(Duration::weeks(1));
    let caught_up = two.app.listings.awards.fix_finished_weeks().await.unwrap();
    assert_eq!(caught_up, [(week(0), 1)]);
}

#[tokio::test]
async fn list_awards_newest_first_and_by_listing() {
    let test = TestDatabase::new().await;
    fixture(&test).await;
    let clock = Arc::new(FixedClock::new(NOW + Duration::weeks(1)));
    let mut settings = launchdir_server::settings::Settings { scheduler_seconds: 3600, job_workers: 1, ..settings_for(&test.config) };
    // The test asks again and again below; the anonymous read budget is not what it checks.
    settings.rate_limits.enabled = false;
    let app = Application::build_with_clock(settings, clock.clone()).await.unwrap();
    let base = format!("http://127.0.0.1:{}", app.port());
    tokio::spawn(app.run_until_stopped());
    // At start-up the server enqueues the week-end job, which fixes every finished week. Its
    // one worker may run the other start-up jobs first (the daily purge among them), which on a
    // loaded machine take seconds: wait for the awards up to 30 s.
    let client = crate::helpers::client();
    let mut body = serde_json::Value::Null;
    for _ in 0..150 {
        body = client.get(format!("{base}/api/v1/awards")).send().await.unwrap().json().await.unwrap();
        if body["total"] == 4 {
            break;
        }
        tokio::time::sleep(std::time::Duration::from_millis(200)).await;
    }
    assert_eq!(body["total"], 4, "{body:#}");
    let items = body["items"].as_array().unwrap();
    assert_eq!(items[0]["listing"]["slug"], "golf", "newest week first");
    assert_eq!(items[0]["week"], week(0).to_string().as_str());
    assert_eq!(items[0]["title"], "Launch of the Week #1");
    assert_eq!(items[1]["rank"], 1);
    assert_eq!(items[3]["rank"], 3);
    assert_eq!(items[3]["votes_in_week"], 3);
    let second: serde_json::Value =
        client.get(format!("{base}/api/v1/awards?per_page=3&page=2")).send().await.unwrap().json().await.unwrap();
    assert_eq!((second["items"].as_array().unwrap().len(), &second["total"]), (1, &serde_json::json!(4)), "{second:#}");
    let past: serde_json::Value = client.get(format!("{base}/api/v1/awards?per_page=2&page=3")).send().await.unwrap().json().await.unwrap();
    assert_eq!((past["items"].as_array().unwrap().len(), &past["total"]), (0, &serde_json::json!(4)), "a page past the end still counts");

    let alpha: serde_json::Value = client.get(format!("{base}/api/v1/awards?listing=alpha")).send().await.unwrap().json().await.unwrap();
    assert_eq!(alpha["total"], 1, "{alpha:#}");
    assert_eq!(alpha["items"][0]["rank"], 1);
    let delta: serde_json::Value = client.get(format!("{base}/api/v1/awards?listing=delta")).send().await.unwrap().json().await.unwrap();
    assert_eq!(delta["total"], 0);

    let unknown = client.get(format!("{base}/api/v1/awards?listing=nope")).send().await.unwrap();
    assert_eq!(unknown.status(), 400);
    let problem: serde_json::Value = unknown.json().await.unwrap();
    assert_eq!(problem["errors"][0]["field"], "listing");
    let bad = client.get(format!("{base}/api/v1/awards?listing=Not%20a%20slug&page=0")).send().await.unwrap();
    assert_eq!(bad.status(), 400);
}

/// The first start on the demo data answers `list_awards` with the demo's awards from its very
/// first request: they are fixed before the server answers, not by a job a moment later (no
/// job worker runs here at all).
#[tokio::test]
async fn the_demo_has_its_awards_before_the_first_answer() {
    let app = crate::helpers::spawn_empty_app_with(|settings| settings.demo_data = Some(true)).await;
    let awards = app.get("/api/v1/awards").await;
    assert_eq!(awards.status, 200);
    assert!(awards.body["total"].as_u64().unwrap() > 0, "{:#}", awards.body);
}
