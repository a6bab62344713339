//! `list_founders` and `get_founder`.

use crate::helpers::{TestApp, spawn_app};
use sea_orm::{ConnectionTrait, Statement};

async fn strings(app: &TestApp, sql: &str) -> Vec<String> {
    let db = app.services.store.connection();
    db.query_all_raw(Statement::from_string(db.get_database_backend(), sql))
        .await
        .unwrap()
        .into_iter()
        .map(|row| row.try_get_by_index::<String>(0).unwrap())
        .collect()
}

const LIVE_FOUNDERS: &str = "SELECT DISTINCT f.slug FROM founders f JOIN listing_founders lf ON lf.founder_id = f.id \
                             JOIN listings l ON l.id = lf.listing_id WHERE l.status = 'live'";

#[tokio::test]
async fn founders_behind_live_listings_by_name() {
    let app = spawn_app().await;
    let reply = app.get("/api/v1/founders?per_page=100").await;
    assert_eq!(reply.status, 200);
    let live = strings(&app, LIVE_FOUNDERS).await;
    assert_eq!(reply.body["total"].as_u64().unwrap(), live.len() as u64);
    let items = reply.body["items"].as_array().unwrap();
    assert_eq!(items.len(), 100);
    let names: Vec<&str> = items.iter().map(|f| f["name"].as_str().unwrap()).collect();
    assert!(names.windows(2).all(|w| w[0] <= w[1]), "by name: {names:?}");
    for founder in items {
        assert!(live.contains(&founder["slug"].as_str().unwrap().to_owned()));
        assert!(!founder["companies"].as_array().unwrap().is_empty());
        assert!(founder["url"].as_str().unwrap().starts_with("https://launch.example/founders/"));
    }
    let not_live = strings(&app, "SELECT f.slug FROM founders f WHERE NOT EXISTS (SELECT 1 FROM listing_founders lf JOIN listings l ON l.id = lf.listing_id WHERE lf.founder_id = f.id AND l.status = 'live')").await;
    assert!(!not_live.is_empty(), "the demo has founders of listings that are not live yet");
}

#[tokio::test]
async fn founders_by_name_and_country() {
    let app = spawn_app().await;
    let reply = app.get("/api/v1/founders?q=ADA").await;
    let items = reply.body["items"].as_array().unwrap();
    assert!(!items.is_empty());
    assert!(items.iter().all(|f| f["name"].as_str().unwrap().to_lowercase().contains("ada")));

    let first = app.get("/api/v1/founders").await.body["items"][0].clone();
    let full_name = first["name"].as_str().unwrap();
    let reply = app.get(&format!("/api/v1/founders?q={}", full_name.replace(' ', "%20"))).await;
    assert!(reply.body["items"].as_array().unwrap().iter().any(|f| f["slug"] == first["slug"]));
    assert!(
        reply.body["items"]
            .as_array()
            .unwrap()
            .iter()
            .all(|f| f["name"].as_str().unwrap().contains(full_name.split(' ').next_back().unwrap()))
    );

    let germany = app.get("/api/v1/founders?country=de&per_page=100").await;
    assert_eq!(germany.status, 200);
    let items = germany.body["items"].as_array().unwrap();
    assert!(!items.is_empty());
    assert!(items.iter().all(|f| f["country"] == "DE"), "country codes are read in any case");
    let all = app.get("/api/v1/founders").await.body["total"].as_u64().unwrap();
    assert!(germany.body["total"].as_u64().unwrap() < all);

    assert_eq!(app.get("/api/v1/founders?q=zzzz-nobody").await.body["total"], 0);
}

#[tokio::test]
async fn list_founders_validation() {
    let app = spawn_app().await;
    app.get(&format!("/api/v1/founders?q={}", "a".repeat(121))).await.assert_invalid(&["q"]);
    app.get("/api/v1/founders?country=DEU").await.assert_invalid(&["country"]);
    app.get("/api/v1/founders?country=1A").await.assert_invalid(&["country"]);
    // A value of the wrong type stops the parse of its part; bounds are all reported together.
    app.get("/api/v1/founders?page=0&country=X").await.assert_invalid(&["country"]);
    app.get(&format!("/api/v1/founders?page=0&per_page=0&q={}", "a".repeat(121))).await.assert_invalid(&["page", "per_page", "q"]);
    app.get("/api/v1/founders?city=Berlin").await.assert_invalid(&["city"]);
}

#[tokio::test]
async fn a_founder_profile_with_companies_and_published_stories() {
    let app = spawn_app().await;
    let with_story = strings(
        &app,
        "SELECT f.slug FROM founders f JOIN listing_founders lf ON lf.founder_id = f.id JOIN listings l ON l.id = lf.listing_id \
         JOIN listing_stories s ON s.listing_id = l.id WHERE l.status = 'live' AND l.plan = 'paid' AND s.published_at IS NOT NULL \
         ORDER BY f.slug",
    )
    .await;
    let reply = app.get(&format!("/api/v1/founders/{}", with_story[0])).await;
    assert_eq!(reply.status, 200, "{:#}", reply.body);
    let body = &reply.body;
    assert!(body["bio"].as_str().unwrap().contains("fictional"));
    assert!(body["socials"]["x"].as_str().unwrap().starts_with("https://"));
    let companies = body["companies"].as_array().unwrap();
    assert!(!companies.is_empty() && companies.iter().all(|c| c["status"] == "live"));
    let stories = body["stories"].as_array().unwrap();
    assert_eq!(stories.len(), 1);
    assert!(stories[0]["title"].as_str().unwrap().starts_with("Why we built"));
    assert!(stories[0]["why_started"].is_string() && stories[0]["lessons"].is_string());
    assert_eq!(stories[0]["listing"]["slug"], companies[0]["slug"]);
}

#[tokio::test]
async fn unpublished_stories_stay_private() {
    let app = spawn_app().await;
    let with_draft = strings(
        &app,
        "SELECT f.slug FROM founders f JOIN listing_founders lf ON lf.founder_id = f.id JOIN listing_stories s ON s.listing_id = lf.listing_id \
         WHERE s.published_at IS NULL",
    )
    .await;
    assert!(!with_draft.is_empty());
    let reply = app.get(&format!("/api/v1/founders/{}", with_draft[0])).await;
    assert_eq!(reply.status, 200);
    assert_eq!(reply.body["stories"], serde_json::json!([]));
}

#[tokio::test]
async fn unknown_and_not_yet_live_founders_are_404() {
    let app = spawn_app().await;
    app.get("/api/v1/founders/no-such-founder").await.assert_problem(404, "not_found");
    let not_live = strings(&app, "SELECT f.slug FROM founders f WHERE NOT EXISTS (SELECT 1 FROM listing_founders lf JOIN listings l ON l.id = lf.listing_id WHERE lf.founder_id = f.id AND l.status = 'live')").await;
    app.get(&format!("/api/v1/founders/{}", not_live[0])).await.assert_problem(404, "not_found");
    app.get("/api/v1/founders/Ada").await.assert_invalid(&["slug"]);
}
