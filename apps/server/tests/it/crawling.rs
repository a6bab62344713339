//! What the crawler may read, as a submission meets it: addresses it never reaches, robots.txt
//! asked before every redirect hop, and an unreachable robots.txt told apart from a refusal.

use crate::drafts::{field, site, spawn};
use crate::helpers::spawn_empty_app_with;
use outbound_http::testing::FixtureServer;
use serde_json::json;

#[tokio::test]
async fn the_production_default_refuses_private_addresses() {
    // No allow_private_networks: loopback fixtures are refused, the draft says why. A database
    // of its own, so no other test's workers (which may reach loopback) run these jobs.
    let app = spawn_empty_app_with(|settings| settings.job_workers = 1).await;
    let fixture = FixtureServer::site(&site("saas")).await;
    let (_, token) = app.api_key("").await;
    for url in [fixture.url("/"), format!("http://localhost:{}/", fixture.addr().port()), "http://10.0.0.1/".into(), "http://[::1]/".into()]
    {
        let draft = app.draft_of(&url, &token).await;
        assert_eq!(draft["status"], "failed", "{url}");
        assert_eq!(draft["failure_reason"], "blocked_address", "{url}");
        // Such a draft never becomes a listing.
        let submit = app.post_json(&format!("/api/v1/drafts/{}/submit", draft["id"].as_str().unwrap()), &token, json!({})).await;
        submit.assert_invalid(&["id"]);
        assert_eq!(app.get_with_token(&format!("/api/v1/drafts/{}", draft["id"].as_str().unwrap()), &token).await.body["status"], "failed");
    }
    assert!(fixture.received().is_empty());
    assert_eq!(app.get_with_token("/api/v1/me/listings", &token).await.body["items"], json!([]));
}

#[tokio::test]
async fn robots_txt_is_checked_on_every_redirect_hop_and_an_unreachable_one_is_not_a_refusal() {
    use outbound_http::testing::Route;
    use std::collections::HashMap;
    let app = spawn().await;
    let (_, token) = app.api_key("").await;
    let page = |text: &str| {
        Route::new(200, "text/html; charset=utf-8", format!("<html><head><title>{text}</title></head><body><h1>{text}</h1></body></html>"))
    };
    let robots = Route::new(200, "text/plain", "User-agent: *\nDisallow: /private\n");

    // The homepage redirects (same origin) into a disallowed path: never fetched, refused.
    let home_into_private = FixtureServer::start(HashMap::from([
        ("/robots.txt".to_owned(), robots.clone()),
        ("/".to_owned(), Route::redirect("/private/home")),
        ("/private/home".to_owned(), page("PLANTED private home")),
    ]))
    .await;
    let draft = app.draft_of(&home_into_private.url("/"), &token).await;
    assert_eq!(draft["status"], "failed", "{draft:#}");
    assert_eq!(draft["failure_reason"], "robots_disallowed");
    assert_eq!(home_into_private.requested_paths(), ["/robots.txt", "/"]);

    // A linked page redirects into a disallowed path, another one off the site: neither is read.
    let elsewhere = FixtureServer::start(HashMap::from([("/pricing".to_owned(), page("PLANTED elsewhere: $1/month"))])).await;
    let home = r#"<html><head><title>Hopwise</title></head><body><h1>Hopwise</h1>
        <a href="/pricing">Pricing</a> <a href="/about">About</a></body></html>"#;
    let site = FixtureServer::start(HashMap::from([
        ("/robots.txt".to_owned(), robots),
        ("/".to_owned(), Route::new(200, "text/html", home)),
        ("/pricing".to_owned(), Route::redirect("/private/prices")),
        ("/private/prices".to_owned(), page("PLANTED private: $9/month")),
        ("/about".to_owned(), Route::redirect(&elsewhere.url("/pricing"))),
    ]))
    .await;
    let draft = app.draft_of(&site.url("/"), &token).await;
    assert_eq!(draft["status"], "ready", "{draft:#}");
    assert_eq!(field(&draft, "name")["value"], "Hopwise");
    assert!(!draft.to_string().contains("PLANTED"), "{draft:#}");
    assert!(site.requested_paths().iter().all(|path| !path.starts_with("/private")), "{:?}", site.requested_paths());

    // robots.txt does not answer: the draft fails as unreachable, not as disallowed.
    let silent =
        FixtureServer::start(HashMap::from([("/robots.txt".to_owned(), Route::hang_up()), ("/".to_owned(), page("Silentco"))])).await;
    let draft = app.draft_of(&silent.url("/"), &token).await;
    assert_eq!(draft["status"], "failed", "{draft:#}");
    assert_eq!(draft["failure_reason"], "unreachable");
    // Only robots.txt was ever asked for (the job's retries may ask again, on any server).
    let asked = silent.requested_paths();
    assert!(!asked.is_empty() && asked.iter().all(|path| path == "/robots.txt"), "{asked:?}");
}
