//! `get_launch_week`.

use crate::helpers::{spawn_app, spawn_empty_app, spawn_second_node};
use kernel::Week;
use serde_json::Value;
use store_seaorm::testing::fixtures;
use time::Duration;

fn this_week() -> Week {
    Week::containing(time::OffsetDateTime::now_utc().date())
}

fn items(body: &Value) -> &Vec<Value> {
    body["items"].as_array().unwrap()
}

#[tokio::test]
async fn this_week_ranks_live_launches_by_votes_received_this_week() {
    let app = spawn_app().await;
    let reply = app.get("/api/v1/launches/weeks/this").await;
    assert_eq!(reply.status, 200, "{:#}", reply.body);
    let week = this_week().to_string();
    assert_eq!(reply.body["week"], week.as_str());
    assert_eq!(reply.body["phase"], "current");
    assert_eq!(reply.body["starts_at"], format!("{week}T00:00:00Z"));
    assert_eq!(reply.body["launch_timezone"], "UTC");
    let launches = items(&reply.body);
    assert!(!launches.is_empty(), "the demo has launches this week");
    for (position, launch) in launches.iter().enumerate() {
        assert_eq!(launch["rank"], position + 1);
        assert_eq!(launch["listing"]["status"], "live");
        assert_eq!(launch["listing"]["launch_week"], week.as_str());
        assert!(launch["votes_in_week"].as_u64().unwrap() <= launch["listing"]["votes"].as_u64().unwrap());
    }
    let votes: Vec<u64> = launches.iter().map(|l| l["votes_in_week"].as_u64().unwrap()).collect();
    assert!(votes.windows(2).all(|w| w[0] >= w[1]), "{votes:?}");
    assert_eq!(reply.body["next_week"], this_week().plus_weeks(1).to_string().as_str());
}

#[tokio::test]
async fn a_past_week_counts_only_votes_cast_in_that_week_with_a_stable_tie_break() {
    let first = spawn_empty_app().await;
    let db = first.services.store.connection();
    let week = this_week().plus_weeks(-1);
    let monday = week.starts_at(time::UtcOffset::UTC);
    // A launched first with 2 votes in the week and 5 after it; B launched at 09:00 and C at
    // 10:00, both with 3 votes in the week.
    let a = fixtures::listing(db, "alpha", "live", week, monday + Duration::hours(8)).await;
    let b = fixtures::listing(db, "bravo", "live", week, monday + Duration::hours(9)).await;
    let c = fixtures::listing(db, "charlie", "live", week, monday + Duration::hours(10)).await;
    fixtures::listing(db, "delta", "scheduled", week, monday).await;
    let mut voters = Vec::new();
    for n in 0..8 {
        voters.push(fixtures::user(db, &format!("voter{n}@example.com")).await);
    }
    for voter in &voters[..2] {
        fixtures::vote(db, a, *voter, monday + Duration::days(1)).await;
    }
    for voter in &voters[2..7] {
        fixtures::vote(db, a, *voter, monday + Duration::days(7) + Duration::minutes(1)).await;
    }
    for voter in &voters[..3] {
        fixtures::vote(db, b, *voter, monday + Duration::days(6) + Duration::hours(23)).await;
        fixtures::vote(db, c, *voter, monday + Duration::hours(11)).await;
    }
    // A vote just before the week starts does not count either.
    fixtures::vote(db, c, voters[7], monday - Duration::seconds(1)).await;

    // Votes in a past week cannot be cast through a server, so they were written behind the
    // first one's back, which keeps last week ranked for up to 30 s (docs/api.md, Freshness);
    // a server started now ranks them.
    let app = spawn_second_node(&first).await;
    let reply = app.get("/api/v1/launches/weeks/last").await;
    assert_eq!(reply.status, 200, "{:#}", reply.body);
    assert_eq!(reply.body["phase"], "past");
    let ranked: Vec<(String, u64, u64, u64)> = items(&reply.body)
        .iter()
        .map(|l| {
            (
                l["listing"]["slug"].as_str().unwrap().to_owned(),
                l["rank"].as_u64().unwrap(),
                l["votes_in_week"].as_u64().unwrap(),
                l["listing"]["votes"].as_u64().unwrap(),
            )
        })
        .collect();
    assert_eq!(
        ranked,
        [("bravo".into(), 1, 3, 3), ("charlie".into(), 2, 3, 4), ("alpha".into(), 3, 2, 7)],
        "votes in the week decide; equal votes go to the earlier launch; only live listings count"
    );
    assert_eq!(reply.body["previous_week"], Value::Null, "nothing launched before this week");
}

#[tokio::test]
async fn upcoming_weeks_list_what_is_scheduled() {
    let app = spawn_app().await;
    let mut saw_scheduled = false;
    let mut saw_awaiting = false;
    for ahead in 1..=8 {
        let week = this_week().plus_weeks(ahead).to_string();
        let reply = app.get(&format!("/api/v1/launches/weeks/{week}")).await;
        assert_eq!(reply.status, 200);
        assert_eq!(reply.body["phase"], "upcoming");
        let launches = items(&reply.body);
        let statuses: Vec<&str> = launches.iter().map(|l| l["listing"]["status"].as_str().unwrap()).collect();
        assert!(statuses.iter().all(|s| *s == "scheduled" || *s == "awaiting_badge"), "{statuses:?}");
        let first_awaiting = statuses.iter().position(|s| *s == "awaiting_badge").unwrap_or(statuses.len());
        assert!(statuses[first_awaiting..].iter().all(|s| *s == "awaiting_badge"), "scheduled first");
        assert!(launches.iter().all(|l| l["rank"].is_null() && l["votes_in_week"].is_null()));
        saw_scheduled |= statuses.contains(&"scheduled");
        saw_awaiting |= statuses.contains(&"awaiting_badge");
    }
    assert!(saw_scheduled && saw_awaiting, "the demo has paid and free launches ahead");
    let next = app.get("/api/v1/launches/weeks/next").await;
    assert_eq!(next.body["week"], this_week().plus_weeks(1).to_string().as_str());
}

#[tokio::test]
async fn dates_snap_to_their_monday() {
    let app = spawn_app().await;
    let sunday = this_week().sunday();
    let reply = app.get(&format!("/api/v1/launches/weeks/{}", Week::containing(sunday).sunday())).await;
    assert_eq!(reply.body["week"], this_week().to_string().as_str());
    let this = app.get("/api/v1/launches/weeks/this").await;
    assert_eq!(items(&reply.body).len(), items(&this.body).len());
}

#[tokio::test]
async fn weeks_outside_the_calendar_are_404() {
    let app = spawn_app().await;
    app.get("/api/v1/launches/weeks/2000-01-03").await.assert_problem(404, "not_found");
    let last_bookable = this_week().plus_weeks(12).to_string();
    assert_eq!(app.get(&format!("/api/v1/launches/weeks/{last_bookable}")).await.status, 200);
    let reply = app.get(&format!("/api/v1/launches/weeks/{}", this_week().plus_weeks(13))).await;
    reply.assert_problem(404, "not_found");
    assert!(reply.body["detail"].as_str().unwrap().contains(&last_bookable), "the detail names the range");
    let edge = app.get(&format!("/api/v1/launches/weeks/{last_bookable}")).await;
    assert_eq!(edge.body["next_week"], Value::Null);
}

#[tokio::test]
async fn malformed_weeks_are_400() {
    let app = spawn_app().await;
    for bad in ["yesterday", "THIS", "2026-13-01", "2026-02-30", "2026-1-1", "2026-11-160"] {
        app.get(&format!("/api/v1/launches/weeks/{bad}")).await.assert_invalid(&["week"]);
    }
    app.get("/api/v1/launches/weeks/this?sort=votes").await.assert_invalid(&["sort"]);
}
