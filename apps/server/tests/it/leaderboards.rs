//! `get_leaderboard`.

use crate::helpers::spawn_app;
use serde_json::Value;

fn items(body: &Value) -> &Vec<Value> {
    body["items"].as_array().unwrap()
}

fn values(body: &Value) -> Vec<i64> {
    items(body).iter().map(|i| i["metric"]["value"].as_i64().unwrap()).collect()
}

#[tokio::test]
async fn community_all_time_by_votes() {
    let app = spawn_app().await;
    let reply = app.get("/api/v1/leaderboards/community-all-time?per_page=10").await;
    assert_eq!(reply.status, 200, "{:#}", reply.body);
    assert_eq!(reply.body["board"], "community-all-time");
    assert_eq!(reply.body["paid"], false);
    assert!(reply.body.get("disclosure").is_none());
    let list = items(&reply.body);
    assert_eq!(list.len(), 10);
    for (position, item) in list.iter().enumerate() {
        assert_eq!(item["rank"], position + 1);
        assert_eq!(item["metric"]["kind"], "votes");
        assert_eq!(item["metric"]["value"], item["listing"]["votes"]);
        assert_eq!(item["listing"]["status"], "live");
        assert_eq!(item["paid"], false);
    }
    assert!(values(&reply.body).windows(2).all(|w| w[0] >= w[1]));
    let page2 = app.get("/api/v1/leaderboards/community-all-time?per_page=10&page=2").await;
    assert_eq!(items(&page2.body)[0]["rank"], 11, "ranks continue across pages");
    let site = app.get("/api/v1/site").await;
    assert_eq!(reply.body["total"], site.body["counts"]["live_listings"]);
}

#[tokio::test]
async fn the_billboard_is_always_marked_paid() {
    let app = spawn_app().await;
    let reply = app.get("/api/v1/leaderboards/billboard?per_page=100").await;
    assert_eq!(reply.status, 200);
    assert_eq!(reply.body["paid"], true);
    assert!(reply.body["disclosure"].as_str().unwrap().starts_with("Paid placement"));
    let list = items(&reply.body);
    assert!(!list.is_empty());
    assert_eq!(reply.body["total"].as_u64().unwrap(), list.len() as u64);
    for item in list {
        assert_eq!(item["paid"], true);
        assert!(item["disclosure"].as_str().unwrap().contains("not by votes"));
        assert_eq!(item["metric"]["kind"], "contributed_cents");
        assert!(item["metric"]["value"].as_i64().unwrap() > 0);
    }
    assert!(values(&reply.body).windows(2).all(|w| w[0] >= w[1]));
}

#[tokio::test]
async fn domain_rating_with_trend_and_revenue() {
    let app = spawn_app().await;
    let reply = app.get("/api/v1/leaderboards/domain-rating?per_page=100").await;
    assert_eq!(reply.status, 200);
    assert!(values(&reply.body).windows(2).all(|w| w[0] >= w[1]));
    let mut trends = std::collections::HashSet::new();
    for item in items(&reply.body) {
        let metric = &item["metric"];
        assert_eq!(metric["kind"], "domain_rating");
        let value = metric["value"].as_i64().unwrap();
        assert!((0..=100).contains(&value));
        let expected = match metric["previous"].as_i64() {
            None => "new",
            Some(previous) if value > previous => "up",
            Some(previous) if value < previous => "down",
            Some(_) => "flat",
        };
        assert_eq!(metric["trend"], expected);
        trends.insert(expected);
    }
    assert!(trends.len() >= 3, "the demo shows several trends: {trends:?}");

    let revenue = app.get("/api/v1/leaderboards/revenue?per_page=100").await;
    assert_eq!(revenue.status, 200);
    assert!(values(&revenue.body).windows(2).all(|w| w[0] >= w[1]));
    assert!(items(&revenue.body).iter().all(|i| i["metric"]["kind"] == "monthly_revenue_cents" && i["metric"]["verified"].is_boolean()));
    assert!(revenue.body["total"].as_u64().unwrap() < reply.body["total"].as_u64().unwrap(), "not every listing reports revenue");
}

#[tokio::test]
async fn community_weekly_is_the_launch_week_ranking() {
    let app = spawn_app().await;
    let board = app.get("/api/v1/leaderboards/community-weekly?week=last&per_page=100").await;
    assert_eq!(board.status, 200, "{:#}", board.body);
    let week = app.get("/api/v1/launches/weeks/last").await;
    assert_eq!(board.body["week"], week.body["week"]);
    let from_board: Vec<(&Value, &Value)> = items(&board.body).iter().map(|i| (&i["listing"]["slug"], &i["metric"]["value"])).collect();
    let from_week: Vec<(&Value, &Value)> = items(&week.body).iter().map(|i| (&i["listing"]["slug"], &i["votes_in_week"])).collect();
    assert_eq!(from_board, from_week);
    assert!(items(&board.body).iter().all(|i| i["metric"]["kind"] == "votes_in_week"));
    let default = app.get("/api/v1/leaderboards/community-weekly").await;
    let this = app.get("/api/v1/launches/weeks/this").await;
    assert_eq!(default.body["week"], this.body["week"], "the default week is this week");
    let page = app.get("/api/v1/leaderboards/community-weekly?week=last&per_page=2&page=2").await;
    if items(&board.body).len() > 2 {
        assert_eq!(items(&page.body)[0]["rank"], 3);
    }
}

#[tokio::test]
async fn leaderboard_errors() {
    let app = spawn_app().await;
    app.get("/api/v1/leaderboards/popularity").await.assert_problem(404, "not_found");
    app.get("/api/v1/leaderboards/Billboard").await.assert_invalid(&["board"]);
    app.get("/api/v1/leaderboards/billboard?week=this").await.assert_invalid(&["week"]);
    app.get("/api/v1/leaderboards/community-all-time?week=last").await.assert_invalid(&["week"]);
    app.get("/api/v1/leaderboards/community-weekly?week=next").await.assert_invalid(&["week"]);
    app.get("/api/v1/leaderboards/community-weekly?week=someday").await.assert_invalid(&["week"]);
    app.get("/api/v1/leaderboards/community-weekly?week=2026-11-160").await.assert_invalid(&["week"]);
    app.get("/api/v1/leaderboards/community-weekly?week=2000-01-03").await.assert_problem(404, "not_found");
    let future = kernel::Week::containing(time::OffsetDateTime::now_utc().date()).plus_weeks(2);
    app.get(&format!("/api/v1/leaderboards/community-weekly?week={future}")).await.assert_problem(404, "not_found");
    app.get("/api/v1/leaderboards/revenue?per_page=0").await.assert_invalid(&["per_page"]);
    app.get("/api/v1/leaderboards/revenue?sort=asc").await.assert_invalid(&["sort"]);
}
