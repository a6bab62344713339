//! Wire rules shared by every operation: unknown routes and methods, bodies, request ids,
//! health and readiness, the served OpenAPI document.

use crate::helpers::{spawn_app, spawn_app_with};

#[tokio::test]
async fn unknown_route_is_a_404_problem() {
    let app = spawn_app().await;
    app.get("/api/v1/nothing-here").await.assert_problem(404, "not_found");
    app.get("/api/v2/site").await.assert_problem(404, "not_found");
    app.get("/no/such/page").await.assert_problem(404, "not_found");
}

#[tokio::test]
async fn wrong_method_is_a_405_problem_with_allow() {
    let app = spawn_app().await;
    let reply = app.send(app.client.delete(app.url("/api/v1/site"))).await;
    reply.assert_problem(405, "method_not_allowed");
    assert_eq!(reply.header("allow"), Some("GET"));
}

#[tokio::test]
async fn a_body_on_an_operation_without_one_is_400() {
    let app = spawn_app().await;
    let reply = app.send(app.client.get(app.url("/api/v1/site")).json(&serde_json::json!({"x": 1}))).await;
    reply.assert_invalid(&["body"]);
}

#[tokio::test]
async fn a_body_that_is_not_json_is_400() {
    let app = spawn_app().await;
    let reply = app.send(app.client.get(app.url("/api/v1/site")).header("content-type", "text/plain").body("hello")).await;
    reply.assert_invalid(&["body"]);
    let reply = app.send(app.client.get(app.url("/api/v1/site")).header("content-type", "application/json").body("{not json")).await;
    reply.assert_invalid(&["body"]);
    assert!(reply.body["errors"][0]["message"].as_str().unwrap().contains("not valid JSON"));
}

#[tokio::test]
async fn a_body_over_one_mebibyte_is_400() {
    let app = spawn_app().await;
    let big = format!("{{\"x\": \"{}\"}}", "a".repeat(1024 * 1024 + 10));
    let reply = app.send(app.client.get(app.url("/api/v1/site")).header("content-type", "application/json").body(big)).await;
    reply.assert_invalid(&["body"]);
    assert!(reply.body["errors"][0]["message"].as_str().unwrap().contains("1 MiB"));
}

#[tokio::test]
async fn every_response_carries_a_request_id() {
    let app = spawn_app().await;
    let reply = app.get("/api/v1/site").await;
    let generated = reply.header("x-request-id").unwrap();
    assert_eq!(generated.len(), 36, "a UUID: {generated}");
    let reply = app.send(app.client.get(app.url("/api/v1/nothing")).header("x-request-id", "trace-abc-123")).await;
    assert_eq!(reply.header("x-request-id"), Some("trace-abc-123"), "a caller's id is kept");
    let reply = app.send(app.client.get(app.url("/api/v1/site")).header("x-request-id", "bad id with spaces")).await;
    assert_ne!(reply.header("x-request-id"), Some("bad id with spaces"));
}

#[tokio::test]
async fn health_and_readiness() {
    // Keeping its connections open, as a production server does (on PostgreSQL all of them are
    // opened before it answers; SQLite keeps one).
    let app = spawn_app_with(|settings| settings.database_min_connections = Some(4)).await;
    let health = app.get("/healthz").await;
    assert_eq!(health.status, 200);
    assert_eq!(health.body["status"], "ok");
    let ready = app.get("/readyz").await;
    assert_eq!(ready.status, 200);
    assert_eq!(ready.body["database"], "ok");
}

#[tokio::test]
async fn the_served_openapi_document_is_generated_for_this_site() {
    let app = spawn_app().await;
    let reply = app.get("/api/v1/openapi.json").await;
    assert_eq!(reply.status, 200);
    assert_eq!(reply.body["openapi"], "3.1.0");
    assert_eq!(reply.body["info"]["version"], "1.0.0");
    assert_eq!(reply.body, api_rest::openapi::document("https://launch.example/api/v1", &ops::RateQuotas::default()));
}

#[tokio::test]
async fn the_api_docs_page_named_by_site_info_is_served() {
    let app = spawn_app().await;
    let site = app.get("/api/v1/site").await;
    let docs_url = site.body["docs"]["api_docs"].as_str().unwrap();
    assert!(docs_url.ends_with("/docs/api"));
    let reply = app.client.get(app.url("/docs/api")).send().await.unwrap();
    assert_eq!(reply.status(), 200);
    assert!(reply.headers()["content-type"].to_str().unwrap().starts_with("text/html"));
    let page = reply.text().await.unwrap();
    assert!(page.contains("<h1>API conventions and choices</h1>"), "docs/api.md rendered as the page");
    assert!(page.contains("/api/v1/openapi.json") && page.contains("/mcp"), "it links the OpenAPI document and the tool server");
}
