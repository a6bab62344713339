//! `get_site_info`.

use crate::helpers::{spawn_app, spawn_empty_app};

#[tokio::test]
async fn site_info_names_the_site_its_counts_and_where_things_are() {
    let app = spawn_app().await;
    let reply = app.get("/api/v1/site").await;
    assert_eq!(reply.status, 200);
    assert_eq!(reply.header("content-type"), Some("application/json"));
    let body = &reply.body;
    assert_eq!(body["name"], "Launchdir");
    assert!(body["purpose"].as_str().unwrap().len() > 40);
    assert_eq!(body["site_url"], "https://launch.example");
    assert_eq!(body["api_base_url"], "https://launch.example/api/v1");
    assert_eq!(body["docs"]["openapi"], "https://launch.example/api/v1/openapi.json");
    assert_eq!(body["docs"]["mcp"], "https://launch.example/mcp");
    assert!(body["docs"]["api_docs"].as_str().unwrap().starts_with("https://launch.example/"));
    for page in ["home", "launches", "categories", "leaderboards", "founders", "blog", "submit"] {
        assert!(body["urls"][page].as_str().unwrap().starts_with("https://launch.example/"), "{page}");
    }
    let live = body["counts"]["live_listings"].as_u64().unwrap();
    let categories = body["counts"]["categories"].as_u64().unwrap();
    assert!(live >= 200, "the demo directory has hundreds of live listings, got {live}");
    assert!(categories >= 25);
    // Counts agree with the category tree.
    let tree = app.get("/api/v1/categories").await;
    let in_tree: u64 = tree.body["items"].as_array().unwrap().iter().map(|c| 1 + c["subcategories"].as_array().unwrap().len() as u64).sum();
    assert_eq!(in_tree, categories);
}

#[tokio::test]
async fn site_info_on_an_empty_directory() {
    let app = spawn_empty_app().await;
    let reply = app.get("/api/v1/site").await;
    assert_eq!(reply.status, 200);
    assert_eq!(reply.body["counts"]["live_listings"], 0);
    assert_eq!(reply.body["counts"]["categories"], 0);
    let tree = app.get("/api/v1/categories").await;
    assert_eq!(tree.body["items"], serde_json::json!([]));
}

#[tokio::test]
async fn site_info_takes_no_parameters() {
    let app = spawn_app().await;
    app.get("/api/v1/site?verbose=true").await.assert_invalid(&["verbose"]);
}

#[tokio::test]
async fn without_a_site_url_the_bound_port_is_used() {
    let test = store_seaorm::testing::TestDatabase::new().await;
    let settings = launchdir_server::settings::Settings { site_url: None, ..crate::helpers::settings_for(&test.config) };
    let server = launchdir_server::Application::build(settings).await.unwrap();
    let port = server.port();
    assert_eq!(server.site_url(), format!("http://127.0.0.1:{port}"));
    assert_eq!(server.base_url(), format!("http://127.0.0.1:{port}/api/v1"));
    tokio::spawn(server.run_until_stopped());
    let body: serde_json::Value = reqwest::get(format!("http://127.0.0.1:{port}/api/v1/site")).await.unwrap().json().await.unwrap();
    assert_eq!(body["site_url"], format!("http://127.0.0.1:{port}"));
}
