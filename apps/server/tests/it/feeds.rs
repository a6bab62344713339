//! `list_launches`: every section, with exact orders on a small fixture.

use crate::helpers::{TestApp, eventually, spawn_app, spawn_empty_app};
use kernel::Week;
use serde_json::Value;
use store_seaorm::testing::fixtures;
use time::{Duration, OffsetDateTime, UtcOffset};

fn slugs(body: &Value) -> Vec<&str> {
    body["items"].as_array().unwrap().iter().map(|i| i["listing"]["slug"].as_str().unwrap()).collect()
}

/// today1 and today2 launched today (today2 with more votes), week1 earlier this week (or last
/// week early on Monday), old launched 20 days ago with many old votes, soon is scheduled next
/// week and later waits for its badge in 6 weeks.
async fn fixture() -> TestApp {
    let app = spawn_empty_app().await;
    let db = app.services.store.connection();
    let now = OffsetDateTime::now_utc();
    let today = now.date().midnight().assume_offset(UtcOffset::UTC);
    let this_week = Week::containing(now.date());
    let week_of = |at: OffsetDateTime| Week::containing(at.date());
    // On a Monday the week began at today's midnight, so "earlier this week" is not possible:
    // week1 then launched last week (clamping to the week's start would make it launch today).
    let week_start = this_week.starts_at(UtcOffset::UTC);
    let earlier = if today == week_start { today - Duration::hours(30) } else { (today - Duration::hours(30)).max(week_start) };
    let today1 = fixtures::listing(db, "today1", "live", this_week, today + Duration::seconds(1)).await;
    let today2 = fixtures::listing(db, "today2", "live", this_week, today + Duration::seconds(2)).await;
    let week1 = fixtures::listing(db, "week1", "live", week_of(earlier), earlier).await;
    let old = fixtures::listing(db, "old", "live", week_of(now - Duration::days(20)), now - Duration::days(20)).await;
    fixtures::listing(db, "soon", "scheduled", this_week.plus_weeks(1), now).await;
    fixtures::listing(db, "later", "awaiting_badge", this_week.plus_weeks(6), now).await;
    let mut people = Vec::new();
    for n in 0..8 {
        people.push(fixtures::user(db, &format!("p{n}@example.com")).await);
    }
    let fresh = now;
    for person in &people[..1] {
        fixtures::vote(db, today1, *person, fresh).await;
    }
    for person in &people[..2] {
        fixtures::vote(db, today2, *person, fresh).await;
    }
    for person in &people[..3] {
        fixtures::vote(db, week1, *person, fresh).await;
    }
    for person in &people[..8] {
        fixtures::vote(db, old, *person, now - Duration::days(19)).await;
    }
    fixtures::views(db, today1, 900).await;
    fixtures::views(db, old, 50).await;
    for person in &people[..3] {
        fixtures::follow(db, today1, *person, now).await;
    }
    fixtures::follow(db, old, people[0], now).await;
    app
}

#[tokio::test]
async fn every_section_orders_by_its_own_metric() {
    let app = fixture().await;
    let get = |section: &'static str| {
        let app = &app;
        async move { app.get(&format!("/api/v1/launches?section={section}")).await.body }
    };
    assert_eq!(slugs(&get("today").await), ["today2", "today1"], "launched today, most voted first");
    assert_eq!(slugs(&get("most-voted").await), ["old", "week1", "today2", "today1"]);
    // Trending: three fresh votes beat eight that are 19 days old (scored again every few
    // seconds, so the votes written after the start show within that time).
    eventually(listings::TRENDING_REFRESH, "the votes in trending", || async { slugs(&get("trending").await).len() >= 3 }).await;
    let trending = get("trending").await;
    assert_eq!(slugs(&trending)[..3], ["week1", "today2", "today1"]);
    assert_eq!(trending["items"][0]["metric"]["kind"], "trending_score");
    assert!(trending["items"][0]["metric"]["value"].as_f64().unwrap() > 2.9);
    assert_eq!(slugs(&get("recent").await), ["today2", "today1", "week1", "old"]);
    let viewed = get("most-viewed").await;
    assert_eq!(slugs(&viewed)[..2], ["today1", "old"]);
    assert_eq!(viewed["items"][0]["metric"], serde_json::json!({"kind": "views", "value": 900}));
    let followed = get("most-followed").await;
    assert_eq!(slugs(&followed), ["today1", "old"], "listings without followers are left out");
    assert_eq!(followed["items"][0]["metric"]["value"], 3);
    let upcoming = get("upcoming").await;
    assert_eq!(slugs(&upcoming), ["soon", "later"]);
    assert_eq!(upcoming["items"][1]["metric"]["kind"], "launch_week");
    assert_eq!(upcoming["total"], 2, "the queue's count, read with its page");
    let second = app.get("/api/v1/launches?section=upcoming&per_page=1&page=2").await.body;
    assert_eq!((slugs(&second), second["total"].as_u64()), (vec!["later"], Some(2)));
    let past = app.get("/api/v1/launches?section=upcoming&per_page=1&page=3").await.body;
    assert_eq!((slugs(&past).len(), past["total"].as_u64()), (0, Some(2)), "a page past the end still counts the queue");
    let default = app.get("/api/v1/launches").await.body;
    assert_eq!(default["section"], "this-week");
    let this_week = app.get("/api/v1/launches/weeks/this").await.body;
    let expected: Vec<&str> = this_week["items"].as_array().unwrap().iter().map(|i| i["listing"]["slug"].as_str().unwrap()).collect();
    assert_eq!(slugs(&default), expected);
    for (position, item) in get("most-voted").await["items"].as_array().unwrap().iter().enumerate() {
        assert_eq!(item["rank"], position + 1);
    }
}

#[tokio::test]
async fn sections_on_the_demo_directory() {
    let app = spawn_app().await;
    for section in ["this-week", "trending", "most-voted", "recent", "most-viewed", "most-followed", "upcoming", "today"] {
        let reply = app.get(&format!("/api/v1/launches?section={section}&per_page=5&page=2")).await;
        assert_eq!(reply.status, 200, "{section}: {:#}", reply.body);
        assert_eq!(reply.body["section"], section);
        if let Some(first) = reply.body["items"].as_array().unwrap().first() {
            assert_eq!(first["rank"], 6, "{section}: ranks continue across pages");
        }
        if section != "today" && section != "this-week" {
            assert!(reply.body["total"].as_u64().unwrap() > 5, "{section} has data");
        }
    }
}

#[tokio::test]
async fn list_launches_validation() {
    let app = spawn_app().await;
    app.get("/api/v1/launches?section=hot").await.assert_invalid(&["section"]);
    app.get("/api/v1/launches?section=this_week").await.assert_invalid(&["section"]);
    app.get("/api/v1/launches?page=1001").await.assert_invalid(&["page"]);
    app.get("/api/v1/launches?when=today").await.assert_invalid(&["when"]);
}
