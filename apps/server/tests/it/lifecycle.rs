//! The publication lifecycle with a moving clock: the free queue, badge checks that fail, back
//! off and succeed, and the week start that publishes; and the week-start job run by two server
//! processes at once.

use crate::helpers::settings_for;
use kernel::{FixedClock, Week};
use launchdir_server::Application;
use outbound_http::testing::{FixtureServer, Route};
use serde_json::Value;
use std::collections::HashMap;
use std::sync::Arc;
use store_seaorm::testing::{TestDatabase, fixtures};
use time::macros::datetime;
use time::{Duration, OffsetDateTime, UtcOffset};

/// A Wednesday noon.
const NOW: OffsetDateTime = datetime!(2026-11-18 12:00 UTC);

struct Walk {
    base: String,
    client: reqwest::Client,
    key: String,
}

impl Walk {
    async fn get(&self, path: &str) -> (u16, Value) {
        let reply = self.client.get(format!("{}{path}", self.base)).bearer_auth(&self.key).send().await.unwrap();
        (reply.status().as_u16(), reply.json().await.unwrap_or(Value::Null))
    }

    /// Waits (up to 20 s of real time) until the owner's view of the listing satisfies `done`.
    async fn until(&self, listing: i64, what: &str, done: impl Fn(&Value) -> bool) -> Value {
        let mut body = Value::Null;
        for _ in 0..200 {
            body = self.get(&format!("/api/v1/me/listings/{listing}")).await.1;
            if done(&body) {
                return body;
            }
            tokio::time::sleep(std::time::Duration::from_millis(100)).await;
        }
        panic!("{what}: {body:#}");
    }
}

/// A user and an API key with every scope.
async fn owner_key(settings: &launchdir_server::settings::Settings, clock: Arc<FixedClock>, email: &str) -> (i64, String) {
    let db = launchdir_server::open_database(settings).await.unwrap();
    let services = launchdir_server::Services::build(settings, db, clock).unwrap();
    let email = kernel::Email::parse(email).unwrap();
    let user = services.app.accounts.users.create_user(&email, None).await.unwrap();
    let key = services.app.accounts.users.create_api_key(&email, None, accounts::Scopes::all()).await.unwrap();
    (user.id.get(), key.secret.expose().to_owned())
}

fn homepage(body: &str) -> Route {
    Route::new(200, "text/html; charset=utf-8", format!("<!doctype html><html><head><title>Acme</title></head><body>{body}</body></html>"))
}

#[tokio::test]
async fn a_free_listing_walks_from_the_queue_through_badge_checks_to_live() {
    let test = TestDatabase::new().await;
    let site = FixtureServer::start(HashMap::from([
        ("/robots.txt".to_owned(), Route::new(200, "text/plain", "User-agent: *\nAllow: /\n")),
        ("/".to_owned(), Route::new(503, "text/plain", "down for maintenance")),
    ]))
    .await;
    let clock = Arc::new(FixedClock::new(NOW));
    let mut settings = settings_for(&test.config);
    settings.job_workers = 1;
    settings.scheduler_seconds = 1;
    settings.crawler.allow_private_networks = true;
    let app = Application::build_with_clock(settings.clone(), clock.clone()).await.unwrap();
    let base = format!("http://127.0.0.1:{}", app.port());
    tokio::spawn(app.run_until_stopped());

    let (owner, key) = owner_key(&settings, clock.clone(), "owner@acme.example").await;
    let listing = fixtures::listing(&test.db, "acme", "draft", Week::at(NOW, UtcOffset::UTC), NOW).await;
    fixtures::set_owner(&test.db, listing, owner).await;
    fixtures::set_url(&test.db, listing, &site.url("/")).await;
    let walk = Walk { base, client: crate::helpers::client(), key };

    // The submitted draft joins the free queue: six weeks ahead, awaiting the badge.
    let queued: Value = walk
        .client
        .post(format!("{}/api/v1/me/listings/{listing}/free", walk.base))
        .bearer_auth(&walk.key)
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    let week = Week::at(NOW, UtcOffset::UTC).plus_weeks(6);
    assert_eq!(queued["launch_week"], week.to_string());
    assert_eq!(queued["listing"]["status"], "awaiting_badge");
    assert_eq!(walk.get("/api/v1/listings/acme").await.1["status"], "awaiting_badge", "shown as upcoming, not live");

    // The site is down: the check fails, and the next one waits an hour.
    let failed = walk.until(listing, "a failed check", |b| b["badge_check"]["result"] == "unreachable").await;
    assert_eq!(failed["badge_check"]["failures_in_a_row"], 1);
    // The owner reads a sentence of ours, never the fetch error with its addresses.
    assert_eq!(failed["badge_check"]["detail"], "the homepage did not answer, answered with an error, or took too long");
    assert!(!failed["badge_check"].to_string().contains("127.0.0.1"), "{failed:#}");
    assert_eq!(failed["badge_check"]["checked_at"], "2026-11-18T12:00:00Z");
    assert_eq!(failed["badge_check"]["next_check_at"], "2026-11-18T13:00:00Z");
    assert_eq!(failed["status"], "awaiting_badge");
    // Still down an hour later: the wait doubles.
    clock.set(datetime!(2026-11-18 13:00 UTC));
    let again = walk.until(listing, "a second failure", |b| b["badge_check"]["failures_in_a_row"] == 2).await;
    assert_eq!(again["badge_check"]["next_check_at"], "2026-11-18T15:00:00Z");

    // Back up, without the badge (a mention in a comment or a script does not count).
    site.set_route(
        "/",
        homepage(
            "<!-- <a href=\"https://launch.example/listings/acme\">Listed</a> --><script>var badge = '<a href=\"https://launch.example/listings/acme\">';</script><p>Acme</p>",
        ),
    );
    clock.set(datetime!(2026-11-18 15:00 UTC));
    let missing = walk.until(listing, "the badge not found", |b| b["badge_check"]["result"] == "not_found").await;
    assert_eq!(missing["badge_check"]["failures_in_a_row"], 0);
    assert_eq!(missing["badge_check"]["next_check_at"], "2026-11-18T16:00:00Z");

    // The badge goes up: found, scheduled for its week (not live before it).
    site.set_route("/", homepage("<a href=\"https://launch.example/listings/acme?ref=badge\"><img src=\"https://launch.example/badges/acme/listed.svg\" alt=\"Listed on Launchdir\"></a>"));
    clock.set(datetime!(2026-11-18 16:00 UTC));
    let found = walk.until(listing, "the badge found", |b| b["badge_check"]["result"] == "found").await;
    assert_eq!(found["status"], "scheduled");
    assert_eq!(found["badge_check"]["seen_at"], "2026-11-18T16:00:00Z");
    assert_eq!(found["badge_check"]["next_check_at"], Value::Null);
    assert_eq!(walk.get("/api/v1/listings/acme").await.1["status"], "scheduled");

    // The week before its launch week: nothing moves.
    clock.set(week.plus_weeks(-1).starts_at(UtcOffset::UTC) + Duration::hours(1));
    tokio::time::sleep(std::time::Duration::from_millis(1500)).await;
    assert_eq!(walk.get(&format!("/api/v1/me/listings/{listing}")).await.1["status"], "scheduled");

    // Its week starts: the week-start job publishes it.
    let monday = week.starts_at(UtcOffset::UTC) + Duration::minutes(1);
    clock.set(monday);
    let live = walk.until(listing, "live in its week", |b| b["status"] == "live").await;
    assert_eq!(live["launched_at"], "2026-12-28T00:01:00Z");
    let (status, public) = walk.get("/api/v1/listings/acme").await;
    assert_eq!(status, 200, "{public:#}");
    assert_eq!(public["status"], "live");
    // The week's ranking is kept a second (docs/api.md, Freshness).
    let week_ttl = listings::calendar::CURRENT_WEEK_TTL.unsigned_abs();
    crate::helpers::eventually(week_ttl, "the launch in its week", || async {
        walk.get(&format!("/api/v1/launches/weeks/{week}")).await.1.to_string().contains("\"acme\"")
    })
    .await;
}

/// Starts `launchdir serve` on the test database with two job workers and a one-second
/// scheduler; JSON logs go to a pipe the caller reads after stopping it.
fn serve(test: &TestDatabase) -> std::process::Child {
    let settings = settings_for(&test.config);
    let mut command = std::process::Command::new(env!("CARGO_BIN_EXE_launchdir"));
    command
        .env("LAUNCHDIR_DATABASE_URL", settings.database_url.unwrap())
        .env("LAUNCHDIR_BIND", "127.0.0.1:0")
        .env("LAUNCHDIR_LOG_FORMAT", "json")
        .env("LAUNCHDIR_LOG_LEVEL", "info")
        .env("LAUNCHDIR_DEMO_DATA", "false")
        .env("LAUNCHDIR_JOB_WORKERS", "2")
        .env("LAUNCHDIR_SCHEDULER_SECONDS", "1")
        .env("LAUNCHDIR_DATA_DIR", crate::helpers::own_data_dir())
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::piped());
    if let Some(schema) = settings.database_schema {
        command.env("LAUNCHDIR_DATABASE_SCHEMA", schema);
    }
    command.spawn().expect("start launchdir serve")
}

#[tokio::test]
async fn two_server_processes_publish_each_listing_of_the_week_exactly_once() {
    let test = TestDatabase::new().await;
    if test.backend_name() != "postgres" {
        // Two processes sharing one database is the PostgreSQL deployment; this runs in the
        // PostgreSQL pass of `cargo xtask test`.
        return;
    }
    let db = &test.db;
    let now = OffsetDateTime::now_utc();
    let this_week = Week::at(now, UtcOffset::UTC);
    let mut due = Vec::new();
    for n in 0..20 {
        due.push(fixtures::listing(db, &format!("paid-{n}"), "scheduled", this_week, now).await);
    }
    let unseen = fixtures::listing(db, "free-no-badge", "scheduled", this_week, now).await;
    fixtures::set_plan(db, unseen, "free").await;
    let later = fixtures::listing(db, "next-week", "scheduled", this_week.plus_weeks(1), now).await;

    let servers = [serve(&test), serve(&test)];
    let mut live = 0;
    for _ in 0..300 {
        live = 0;
        for id in &due {
            if store_seaorm::testing::fixtures::status(db, *id).await == "live" {
                live += 1;
            }
        }
        if live == due.len() {
            break;
        }
        tokio::time::sleep(std::time::Duration::from_millis(100)).await;
    }
    // Let both schedulers tick a few more times: nothing may run the week start again.
    tokio::time::sleep(std::time::Duration::from_secs(3)).await;
    let mut published: Vec<i64> = Vec::new();
    let mut runs = 0;
    for mut server in servers {
        std::process::Command::new("kill").args(["-TERM", &server.id().to_string()]).status().unwrap();
        let mut logs = String::new();
        std::io::Read::read_to_string(server.stderr.as_mut().unwrap(), &mut logs).unwrap();
        server.wait().unwrap();
        for entry in logs.lines().filter_map(|line| serde_json::from_str::<Value>(line).ok()) {
            if entry["message"] == "job done" && entry["span"]["kind"] == "calendar.week_start" {
                runs += 1;
                let summary: Value = serde_json::from_str(entry["summary"].as_str().unwrap()).unwrap();
                published.extend(summary["published"].as_array().unwrap().iter().map(|id| id.as_i64().unwrap()));
            }
        }
    }
    assert_eq!(live, due.len(), "every paid listing of the started week is live");
    assert_eq!(runs, 1, "the week-start job ran once across both processes");
    published.sort();
    assert_eq!(published, due, "each listing was published exactly once");
    assert_eq!(fixtures::status(db, unseen).await, "scheduled", "a free launch waits for its badge");
    assert_eq!(fixtures::status(db, later).await, "scheduled", "next week's launch waits for its week");
}
