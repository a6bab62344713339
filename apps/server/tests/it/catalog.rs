//! `list_products` and `list_interview_questions`.

use crate::helpers::spawn_app;
use kernel::Week;
use sea_orm::ConnectionTrait;
use serde_json::Value;

#[tokio::test]
async fn products_with_prices_from_the_database() {
    let app = spawn_app().await;
    let reply = app.get("/api/v1/products").await;
    assert_eq!(reply.status, 200);
    assert_eq!(reply.body["currency"], "USD");
    assert_eq!(reply.body["prices_include_vat"], false);
    let items = reply.body["items"].as_array().unwrap();
    let codes: Vec<&str> = items.iter().map(|p| p["code"].as_str().unwrap()).collect();
    for code in
        ["launch", "skip_queue", "featured", "done_for_you", "launch_bundle", "extra_categories", "relaunch", "ai_review", "billboard_min"]
    {
        assert!(codes.contains(&code), "{code} is missing");
    }
    let db = app.services.store.connection();
    for item in items {
        let code = item["code"].as_str().unwrap();
        let row = db
            .query_one_raw(sea_orm::Statement::from_string(
                db.get_database_backend(),
                format!("SELECT price_cents FROM products WHERE code = '{code}'"),
            ))
            .await
            .unwrap()
            .unwrap();
        assert_eq!(item["price_cents"].as_i64().unwrap(), row.try_get_by_index::<i64>(0).unwrap(), "{code}: price comes from the database");
        assert!(item["needs_listing"].is_boolean());
        assert!(item["name"].is_string() && item["description"].is_string());
    }
}

fn product<'a>(body: &'a Value, code: &str) -> &'a Value {
    body["items"].as_array().unwrap().iter().find(|p| p["code"] == code).unwrap()
}

#[tokio::test]
async fn products_list_the_weeks_that_may_be_chosen() {
    let app = spawn_app().await;
    let reply = app.get("/api/v1/products").await;
    let this_week = Week::containing(time::OffsetDateTime::now_utc().date());
    let weeks = |code: &str| -> Vec<String> {
        product(&reply.body, code)["weeks"].as_array().unwrap().iter().map(|w| w.as_str().unwrap().to_owned()).collect()
    };
    let launch = weeks("launch");
    assert_eq!(product(&reply.body, "launch")["week_rule"], "optional");
    assert_eq!(launch.len(), 12, "paid launches up to 12 weeks ahead");
    assert_eq!(launch[0], this_week.plus_weeks(1).to_string(), "starting next Monday");
    for week in &launch {
        assert!(Week::is_monday(Week::parse_date(week).unwrap().monday()) && Week::parse_date(week).unwrap().to_string() == *week);
    }
    let skip = weeks("skip_queue");
    assert_eq!(product(&reply.body, "skip_queue")["week_rule"], "required_before_free_queue");
    assert_eq!(skip.len(), 5, "before the free queue, which starts 6 weeks ahead");
    assert_eq!(product(&reply.body, "relaunch")["week_rule"], "required");
    assert_eq!(weeks("relaunch").len(), 12);
    assert!(weeks("ai_review").is_empty());
    assert_eq!(product(&reply.body, "ai_review")["week_rule"], "none");
    let featured = product(&reply.body, "featured");
    assert_eq!(featured["options"]["placement"]["type"], "string", "options describe allowed keys and values");
    assert_eq!(product(&reply.body, "launch")["options"], Value::Null);
}

#[tokio::test]
async fn products_take_no_parameters() {
    let app = spawn_app().await;
    app.get("/api/v1/products?currency=EUR").await.assert_invalid(&["currency"]);
}

#[tokio::test]
async fn interview_questions() {
    let app = spawn_app().await;
    let reply = app.get("/api/v1/interview-questions").await;
    assert_eq!(reply.status, 200);
    let items = reply.body["items"].as_array().unwrap();
    assert_eq!(items.len(), 10);
    for item in items {
        assert!(item["id"].as_i64().unwrap() >= 1);
        assert!(item["question"].as_str().unwrap().ends_with('?'));
    }
    app.get("/api/v1/interview-questions?page=2").await.assert_invalid(&["page"]);
}
