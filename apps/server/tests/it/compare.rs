//! `get_alternatives` and `compare_listings`.

use crate::helpers::{TestApp, spawn_app};
use sea_orm::{ConnectionTrait, Statement};
use serde_json::Value;

async fn strings(app: &TestApp, sql: &str) -> Vec<String> {
    let db = app.services.store.connection();
    db.query_all_raw(Statement::from_string(db.get_database_backend(), sql))
        .await
        .unwrap()
        .into_iter()
        .map(|row| row.try_get_by_index::<String>(0).unwrap())
        .collect()
}

#[tokio::test]
async fn approved_alternatives_first_then_the_same_category() {
    let app = spawn_app().await;
    let slug = strings(
        &app,
        "SELECT DISTINCT l.slug FROM listings l JOIN listing_alternatives a ON a.listing_id = l.id WHERE l.status = 'live' ORDER BY l.slug",
    )
    .await[0]
        .clone();
    let approved = strings(
        &app,
        &format!(
            "SELECT o.slug FROM listing_alternatives a JOIN listings l ON l.id = a.listing_id JOIN listings o ON o.id = a.alternative_id \
             WHERE l.slug = '{slug}' AND a.approved = true AND o.status = 'live' ORDER BY a.position"
        ),
    )
    .await;
    let reply = app.get(&format!("/api/v1/listings/{slug}/alternatives")).await;
    assert_eq!(reply.status, 200, "{:#}", reply.body);
    let items = reply.body["items"].as_array().unwrap();
    assert!(items.len() <= 20);
    let head: Vec<&str> = items.iter().take(approved.len()).map(|i| i["listing"]["slug"].as_str().unwrap()).collect();
    assert_eq!(head, approved, "owner-approved alternatives first, in the owner's order");
    assert!(items[..approved.len()].iter().all(|i| i["approved"] == true));
    let rest = &items[approved.len()..];
    assert!(!rest.is_empty());
    let primary = &reply.body["listing"]["primary_category"];
    for item in rest {
        assert_eq!(item["approved"], false);
        assert_eq!(&item["listing"]["primary_category"], primary);
        assert_eq!(item["listing"]["status"], "live");
        assert_ne!(item["listing"]["slug"], slug.as_str());
    }
    let votes: Vec<u64> = rest.iter().map(|i| i["listing"]["votes"].as_u64().unwrap()).collect();
    assert!(votes.windows(2).all(|w| w[0] >= w[1]));
    let mut all: Vec<&str> = items.iter().map(|i| i["listing"]["slug"].as_str().unwrap()).collect();
    all.sort();
    all.dedup();
    assert_eq!(all.len(), items.len(), "no listing twice");
}

#[tokio::test]
async fn alternatives_errors() {
    let app = spawn_app().await;
    let draft = strings(&app, "SELECT slug FROM listings WHERE status = 'draft' ORDER BY id").await[0].clone();
    app.get(&format!("/api/v1/listings/{draft}/alternatives")).await.assert_problem(404, "not_found");
    app.get("/api/v1/listings/nothing-here/alternatives").await.assert_problem(404, "not_found");
    app.get("/api/v1/listings/Nothing/alternatives").await.assert_invalid(&["slug"]);
}

#[tokio::test]
async fn two_listings_side_by_side() {
    let app = spawn_app().await;
    let missing_year =
        strings(&app, "SELECT slug FROM listings WHERE status = 'live' AND founded_year IS NULL ORDER BY id").await[0].clone();
    let with_year =
        strings(&app, "SELECT slug FROM listings WHERE status = 'live' AND founded_year IS NOT NULL ORDER BY id").await[0].clone();
    let reply = app.get(&format!("/api/v1/compare?a={missing_year}&b={with_year}")).await;
    assert_eq!(reply.status, 200, "{:#}", reply.body);
    assert_eq!(reply.body["a"]["slug"], missing_year.as_str());
    assert_eq!(reply.body["b"]["slug"], with_year.as_str());
    let rows = reply.body["rows"].as_array().unwrap();
    let keys: Vec<&str> = rows.iter().map(|r| r["key"].as_str().unwrap()).collect();
    assert_eq!(keys[..4], ["tagline", "primary_category", "pricing_model", "pricing_summary"]);
    let row = |key: &str| rows.iter().find(|r| r["key"] == key).unwrap();
    assert_eq!(row("founded_year")["a"], Value::Null, "a fact the site did not state is an empty cell");
    assert!(row("founded_year")["b"].is_number());
    assert_eq!(row("city")["a"], Value::Null);
    assert_eq!(row("city")["b"], Value::Null, "neither states a city: both cells empty");
    assert!(row("features")["a"].is_array());
    assert_eq!(row("votes")["a"], reply.body["a"]["votes"].as_u64().map(|v| v as f64).unwrap());
}

#[tokio::test]
async fn compare_errors_name_the_field() {
    let app = spawn_app().await;
    let live = strings(&app, "SELECT slug FROM listings WHERE status = 'live' ORDER BY id LIMIT 2").await;
    let draft = strings(&app, "SELECT slug FROM listings WHERE status = 'draft' ORDER BY id").await[0].clone();
    app.get(&format!("/api/v1/compare?a={}", live[0])).await.assert_invalid(&["b"]);
    app.get("/api/v1/compare").await.assert_invalid(&["a"]);
    app.get(&format!("/api/v1/compare?a={}&b=no-such-listing", live[0])).await.assert_invalid(&["b"]);
    app.get(&format!("/api/v1/compare?a={draft}&b={}", live[1])).await.assert_invalid(&["a"]);
    app.get(&format!("/api/v1/compare?a={0}&b={0}", live[0])).await.assert_invalid(&["b"]);
    app.get(&format!("/api/v1/compare?a=Bad&b={}", live[1])).await.assert_invalid(&["a"]);
    app.get(&format!("/api/v1/compare?a={}&b={}&c=x", live[0], live[1])).await.assert_invalid(&["c"]);
}
