//! `get_listing`: the full profile, paid-only sections, genuine ratings, batched view counts.

use crate::helpers::{TestApp, settings_for, spawn_app};
use launchdir_server::Application;
use sea_orm::{ConnectionTrait, Statement};
use serde_json::Value;
use store_seaorm::testing::{TestDatabase, fixtures};
use time::OffsetDateTime;

async fn slug_with(app: &TestApp, sql: &str) -> String {
    let db = app.services.store.connection();
    let row = db.query_one_raw(Statement::from_string(db.get_database_backend(), sql)).await.unwrap().expect("a matching listing");
    row.try_get_by_index::<String>(0).unwrap()
}

#[tokio::test]
async fn a_paid_listing_shows_every_section() {
    let app = spawn_app().await;
    let slug = slug_with(
        &app,
        "SELECT l.slug FROM listings l JOIN listing_stories s ON s.listing_id = l.id WHERE l.status = 'live' AND l.plan = 'paid' \
         AND s.published_at IS NOT NULL ORDER BY l.id LIMIT 1",
    )
    .await;
    let reply = app.get(&format!("/api/v1/listings/{slug}")).await;
    assert_eq!(reply.status, 200, "{:#}", reply.body);
    let body = &reply.body;
    assert_eq!(body["slug"], slug.as_str());
    assert_eq!(body["status"], "live");
    for key in ["description", "short_description", "tagline", "stage", "country"] {
        assert!(body[key].is_string(), "{key}");
    }
    assert!(body["pricing"]["model"].is_string() && body["pricing"]["summary"].is_string());
    assert!(body["features"].as_array().unwrap().len() >= 3);
    assert_eq!(body["faqs"].as_array().unwrap().len(), 2);
    assert!(body["socials"]["x"].as_str().unwrap().starts_with("https://x.com/"));
    assert_eq!(body["links"][0]["label"], "Pricing");
    let categories = body["categories"].as_array().unwrap();
    assert_eq!(categories.iter().filter(|c| c["primary"] == true).count(), 1);
    assert_eq!(categories[0]["primary"], true, "primary first");
    assert!(categories.len() <= 4);
    assert!(!body["founders"].as_array().unwrap().is_empty());
    assert!(body["founders"][0]["url"].as_str().unwrap().contains("/founders/"));
    assert!(body["not_found_on_website"].is_array());
    assert_eq!(body["unlocked"], serde_json::json!({"story": true, "milestones": true, "media": true}));
    assert!(body["story"]["title"].as_str().unwrap().starts_with("Why we built"));
    assert!(body["story"]["lessons"].is_string());
    assert_eq!(body["milestones"][0]["title"], "Launched on Launchdir");
    let launched_on = body["launched_at"].as_str().unwrap()[..10].to_owned();
    assert_eq!(body["milestones"][0]["date"], launched_on.as_str(), "milestones keep their own date");
    assert_eq!(body["media"][0]["kind"], "image");
    assert!(body["media"][0]["url"].as_str().unwrap().starts_with("https://launch.example/media/"), "pictures we keep");
    assert!(body["media"][0]["caption"].as_str().unwrap().ends_with(": the main screen"));
    assert!(body["logo_url"].as_str().unwrap().ends_with("-full.webp"), "every demo listing has a logo");
    let dr = &body["domain_rating"];
    assert!(dr["value"].is_i64() && ["up", "down", "flat", "new"].contains(&dr["trend"].as_str().unwrap()));
    assert!(body["votes"].as_u64().unwrap() > 0);
    assert_eq!(body["page_url"], format!("https://launch.example/listings/{slug}").as_str());
}

#[tokio::test]
async fn a_free_listing_shows_no_paid_sections() {
    let app = spawn_app().await;
    let slug = slug_with(&app, "SELECT slug FROM listings WHERE status = 'live' AND plan = 'free' ORDER BY id LIMIT 1").await;
    let body = app.get(&format!("/api/v1/listings/{slug}")).await.body;
    assert_eq!(body["unlocked"], serde_json::json!({"story": false, "milestones": false, "media": false}));
    for section in ["story", "milestones", "media"] {
        assert!(body.get(section).is_none(), "{section} must not appear on a free listing");
    }
    assert_eq!(body["categories"].as_array().unwrap().len(), 1, "free listings have one category");
}

#[tokio::test]
async fn founder_profiles_show_only_unlocked_stories() {
    let app = spawn_app().await;
    let founder = slug_with(
        &app,
        "SELECT f.slug FROM founders f JOIN listing_founders lf ON lf.founder_id = f.id JOIN listings l ON l.id = lf.listing_id \
         JOIN listing_stories s ON s.listing_id = l.id WHERE l.status = 'live' AND l.plan = 'free' AND s.published_at IS NOT NULL \
         ORDER BY f.id LIMIT 1",
    )
    .await;
    let body = app.get(&format!("/api/v1/founders/{founder}")).await.body;
    assert_eq!(body["stories"], serde_json::json!([]), "a free listing's story is not public");
}

#[tokio::test]
async fn unpublished_and_unknown_listings() {
    let app = spawn_app().await;
    let scheduled = slug_with(&app, "SELECT slug FROM listings WHERE status = 'scheduled' ORDER BY id LIMIT 1").await;
    let reply = app.get(&format!("/api/v1/listings/{scheduled}")).await;
    assert_eq!(reply.status, 200);
    assert_eq!(reply.body["status"], "scheduled");
    let draft = slug_with(&app, "SELECT slug FROM listings WHERE status = 'draft' ORDER BY id LIMIT 1").await;
    app.get(&format!("/api/v1/listings/{draft}")).await.assert_problem(404, "not_found");
    app.get("/api/v1/listings/no-such-listing").await.assert_problem(404, "not_found");
    app.get("/api/v1/listings/NoSuch").await.assert_invalid(&["slug"]);
    app.get("/api/v1/listings/x?expand=all").await.assert_invalid(&["expand"]);
}

#[tokio::test]
async fn the_rating_counts_genuine_reviews_only() {
    let test = TestDatabase::new().await;
    let db = &test.db;
    let now = OffsetDateTime::now_utc();
    let week = kernel::Week::containing(now.date());
    let listing = fixtures::listing(db, "rated", "live", week, now).await;
    let mut people = Vec::new();
    for n in 0..6 {
        let person = fixtures::user(db, &format!("r{n}@example.com")).await;
        // Old enough for their reviews to count (`vote_min_account_age_hours`, 24 by default)...
        fixtures::account_made(db, person, now - time::Duration::days(30)).await;
        people.push(person);
    }
    // ...but one, made an hour ago.
    fixtures::account_made(db, people[5], now - time::Duration::hours(1)).await;
    fixtures::set_owner(db, listing, people[2]).await;
    fixtures::block(db, people[3]).await;
    fixtures::review(db, listing, people[0], 5, false).await;
    fixtures::review(db, listing, people[1], 4, false).await;
    fixtures::review(db, listing, people[2], 1, false).await; // the owner
    fixtures::review(db, listing, people[3], 1, false).await; // a blocked account
    fixtures::review(db, listing, people[4], 1, true).await; // hidden by moderation
    fixtures::review(db, listing, people[5], 1, false).await; // an account too young to count yet
    let app = Application::build(settings_for(&test.config)).await.unwrap();
    let base = format!("http://127.0.0.1:{}", app.port());
    tokio::spawn(app.run_until_stopped());
    let body: Value = reqwest::get(format!("{base}/api/v1/listings/rated")).await.unwrap().json().await.unwrap();
    assert_eq!(body["community_rating"], serde_json::json!({"average": 4.5, "count": 2, "distribution": [0, 0, 0, 1, 1]}));
    assert_eq!(body["not_found_on_website"], serde_json::json!([]));
    assert_eq!(body["domain_rating"], Value::Null);
}

#[tokio::test]
async fn views_are_counted_in_memory_and_written_in_a_batch() {
    views_are_counted_once_per_client(0).await;
}

#[tokio::test]
async fn a_profile_answered_from_the_answer_cache_still_counts_its_view() {
    // Every read after the first is answered from the cache: the views are the same.
    views_are_counted_once_per_client(60_000).await;
}

async fn views_are_counted_once_per_client(answer_cache_ms: u64) {
    let test = TestDatabase::new().await;
    let now = OffsetDateTime::now_utc();
    fixtures::listing(&test.db, "viewed", "live", kernel::Week::containing(now.date()), now).await;
    fixtures::listing(&test.db, "upcoming", "scheduled", kernel::Week::containing(now.date()).plus_weeks(1), now).await;
    let (base, handle, running) = start_counting_views(&test, 3600, answer_cache_ms).await;
    let views = || views_of_viewed(&test);
    // Three clients, each reloading the profile five times: three views (one per client an hour),
    // so reloads cannot move the most-viewed sort.
    let client = crate::helpers::client();
    for reader in ["203.0.113.1", "203.0.113.2", "2001:db8:7:7::1"] {
        for _ in 0..5 {
            let reply = client.get(format!("{base}/api/v1/listings/viewed")).header("X-Forwarded-For", reader).send().await.unwrap();
            assert_eq!(reply.status(), 200);
        }
    }
    // Another address in the same IPv6 /64 is the same client.
    client.get(format!("{base}/api/v1/listings/viewed")).header("X-Forwarded-For", "2001:db8:7:7::2").send().await.unwrap();
    // The listing's page counts as `get_listing` does, also when it is kept for visitors
    // without a session: two more clients, two more views.
    for reader in ["198.51.100.7", "198.51.100.7", "198.51.100.8", "203.0.113.1"] {
        let reply = client.get(format!("{base}/listings/viewed")).header("X-Forwarded-For", reader).send().await.unwrap();
        assert_eq!(reply.status(), 200);
    }
    reqwest::get(format!("{base}/api/v1/listings/upcoming")).await.unwrap();
    assert_eq!(views().await, 0, "no database write per view");
    handle.stop(true).await;
    running.await.unwrap().unwrap();
    assert_eq!(views().await, 5, "counted views are written when the server stops");
}

#[tokio::test]
async fn views_are_written_while_the_server_runs_and_not_again_as_it_stops() {
    let test = TestDatabase::new().await;
    let now = OffsetDateTime::now_utc();
    fixtures::listing(&test.db, "viewed", "live", kernel::Week::containing(now.date()), now).await;
    let (base, handle, running) = start_counting_views(&test, 1, 0).await;
    let views = || views_of_viewed(&test);
    let client = crate::helpers::client();
    let view_as = |reader: &'static str| {
        let request = client.get(format!("{base}/api/v1/listings/viewed")).header("X-Forwarded-For", reader);
        async move { assert_eq!(request.send().await.unwrap().status(), 200) }
    };
    view_as("203.0.113.1").await;
    view_as("203.0.113.2").await;
    // The flush every second writes them without a stop (waiting at most 30 s on a busy machine).
    let mut written = 0;
    for _ in 0..300 {
        written = views().await;
        if written == 2 {
            break;
        }
        tokio::time::sleep(std::time::Duration::from_millis(100)).await;
    }
    assert_eq!(written, 2, "the periodic flush writes counted views");
    view_as("203.0.113.3").await;
    handle.stop(true).await;
    running.await.unwrap().unwrap();
    assert_eq!(views().await, 3, "the stop writes what the periodic flush had not, and nothing twice");
}

/// A server on `test`'s database that flushes views every `view_flush_seconds`, trusting
/// `X-Forwarded-For` from 127.0.0.1 (the tests speak as several clients, as a proxy would).
async fn start_counting_views(
    test: &TestDatabase,
    view_flush_seconds: u64,
    answer_cache_ms: u64,
) -> (String, actix_web::dev::ServerHandle, tokio::task::JoinHandle<std::io::Result<()>>) {
    let settings = launchdir_server::settings::Settings {
        view_flush_seconds,
        answer_cache_ms,
        trusted_proxies: vec!["127.0.0.1".into()],
        ..settings_for(&test.config)
    };
    let app = Application::build(settings).await.unwrap();
    let base = format!("http://127.0.0.1:{}", app.port());
    let handle = app.handle();
    (base, handle, tokio::spawn(app.run_until_stopped()))
}

/// The views written for the listing `viewed`.
async fn views_of_viewed(test: &TestDatabase) -> i64 {
    let sql = "SELECT views_count FROM listings WHERE slug = 'viewed'";
    let row = test.db.query_one_raw(Statement::from_string(test.db.get_database_backend(), sql)).await.unwrap().unwrap();
    row.try_get_by_index::<i64>(0).unwrap()
}
