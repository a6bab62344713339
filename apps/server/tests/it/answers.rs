//! The answer cache (`answer_cache_ms`): a public read's answer is kept for every caller, and a
//! write this server takes, through the API or on the site's pages, forgets every kept answer
//! at once. A write it did not take (another server, the command line) shows once the kept
//! answer expires; here answers are kept a minute, so only forgetting can show it. Pages for
//! visitors without a session are kept the same way; kept answers go gzip-compressed to
//! clients that take it.

use crate::helpers::{TestApp, spawn_empty_app_with};
use crate::reviews::{page_of, send};
use crate::votes::{live_listing, person};
use serde_json::{Value, json};
use store_seaorm::testing::fixtures;

async fn kept_a_minute() -> TestApp {
    spawn_empty_app_with(|settings| {
        settings.answer_cache_ms = 60_000;
        settings.vote_min_account_age_hours = 0;
        settings.rate_limits.enabled = false;
    })
    .await
}

async fn profile(app: &TestApp, slug: &str) -> Value {
    let reply = app.get(&format!("/api/v1/listings/{slug}")).await;
    assert_eq!(reply.status, 200, "{:#}", reply.body);
    reply.body
}

#[tokio::test]
async fn a_vote_on_the_site_forgets_the_kept_answers_of_its_server() {
    let app = kept_a_minute().await;
    let id = live_listing(&app, "kept-vote").await;
    let before = profile(&app, "kept-vote").await;
    assert_eq!(before["votes"], 0);
    // Another writer (straight to the database): the kept answer stands.
    fixtures::edit_tagline(app.services.store.connection(), id, "Otter calendars").await;
    assert_eq!(profile(&app, "kept-vote").await, before, "kept for every caller");
    let (_, token) = app.api_key("").await;
    assert_eq!(
        app.get_with_token("/api/v1/listings/kept-vote", &token).await.body,
        before,
        "signed in too: a public read answers everyone alike"
    );

    let voter = person(&app, 0, true, time::Duration::days(30)).await;
    assert_eq!(send(&app, &voter, "/listings/kept-vote/vote", &[("back", "/"), ("action", "vote")]).await.status(), 303);
    let after = profile(&app, "kept-vote").await;
    assert_eq!((after["votes"].clone(), after["tagline"].clone()), (json!(1), json!("Otter calendars")));
}

#[tokio::test]
async fn a_write_through_the_api_forgets_the_kept_answers_of_its_server() {
    let app = kept_a_minute().await;
    let id = live_listing(&app, "kept-claim").await;
    fixtures::set_url(app.services.store.connection(), id, "https://www.kept-claim.test/").await;
    let site = app.get("/api/v1/site").await.body;
    let before = profile(&app, "kept-claim").await;
    fixtures::edit_tagline(app.services.store.connection(), id, "Badger budgets").await;
    assert_eq!(profile(&app, "kept-claim").await, before, "read before the edit, so kept");
    assert_eq!(app.get("/api/v1/site").await.body, site);

    let (_, token) = app.api_key("").await;
    let claimed = app.post_json("/api/v1/claims", &token, json!({"slug": "kept-claim", "method": "dns"})).await;
    assert_eq!(claimed.status, 201, "{:#}", claimed.body);
    assert_eq!(profile(&app, "kept-claim").await["tagline"], "Badger budgets");
}

#[tokio::test]
async fn each_input_is_its_own_answer_and_failures_are_not_kept() {
    let app = kept_a_minute().await;
    let kept_a = live_listing(&app, "kept-a").await;
    assert_eq!(app.get("/api/v1/listings/kept-b").await.status, 404);
    live_listing(&app, "kept-b").await;
    assert_eq!(profile(&app, "kept-a").await["slug"], "kept-a");
    assert_eq!(profile(&app, "kept-b").await["slug"], "kept-b", "a 404 was not kept");
    // Both without votes: the older listing first.
    let first = app.get("/api/v1/listings?sort=votes&per_page=1").await.body;
    assert_eq!(first["items"][0]["slug"], "kept-a");
    fixtures::edit_tagline(app.services.store.connection(), kept_a, "Heron handbooks").await;
    assert_eq!(app.get("/api/v1/listings?per_page=1&sort=votes").await.body, first, "the same query in another order is the kept answer");
    let other = app.get("/api/v1/listings?sort=votes&per_page=2").await.body;
    assert_eq!(other["items"][0]["tagline"], "Heron handbooks", "another query is an answer of its own, read now");
    let bad = app.get("/api/v1/listings?sort=sideways").await;
    assert_eq!((bad.status.as_u16(), bad.body["errors"][0]["field"].as_str()), (400, Some("sort")), "{:#}", bad.body);
    // A read sent with a body is refused however often its answer was kept.
    let with_body = app.send(app.client.get(app.url("/api/v1/listings/kept-a")).json(&json!({"x": 1}))).await;
    assert_eq!((with_body.status.as_u16(), with_body.body["errors"][0]["field"].as_str()), (400, Some("body")), "{:#}", with_body.body);
}

#[tokio::test]
async fn refused_writes_and_head_requests_keep_the_answers() {
    let app = kept_a_minute().await;
    let id = live_listing(&app, "kept-refused").await;
    let before = profile(&app, "kept-refused").await;
    fixtures::edit_tagline(app.services.store.connection(), id, "Lynx ledgers").await;
    let voter = person(&app, 0, true, time::Duration::days(30)).await;
    // A vote without its form's CSRF token, a write the API refuses, a HEAD, forms refused to
    // strangers: nothing changed.
    let forger = crate::votes::Person { session: voter.session.clone(), csrf: "forged".into(), user: voter.user };
    let forged = send(&app, &forger, "/listings/kept-refused/vote", &[("back", "/"), ("action", "vote")]).await;
    assert!(forged.status().is_client_error(), "{}", forged.status());
    let refused = app.post_json("/api/v1/claims", "not-a-key", json!({"slug": "kept-refused", "method": "dns"})).await;
    assert_eq!(refused.status, 401);
    app.send(app.client.head(app.url("/api/v1/listings/kept-refused"))).await;
    // Form posts from someone not signed in (no cookie, or one of no session), which the site
    // refuses by sending them to sign in: a redirect, but nothing written.
    let stranger = crate::votes::Person { session: "no-such-session".into(), csrf: "x".into(), user: voter.user };
    for path in ["/signout", "/listings/kept-refused/vote"] {
        let refused = send(&app, &stranger, path, &[("back", "/"), ("action", "vote")]).await;
        assert!(refused.status().is_redirection(), "{path}: {}", refused.status());
        assert!(refused.headers()["location"].to_str().unwrap().starts_with("/signin"), "{path}");
    }
    assert_eq!(profile(&app, "kept-refused").await, before, "still kept");
    assert_eq!(send(&app, &voter, "/listings/kept-refused/vote", &[("back", "/"), ("action", "vote")]).await.status(), 303);
    assert_eq!(profile(&app, "kept-refused").await["tagline"], "Lynx ledgers");
}

/// A body sent gzip-compressed, read back.
fn gunzip(packed: &[u8]) -> Vec<u8> {
    use std::io::Read;
    let mut plain = Vec::new();
    flate2::read::GzDecoder::new(packed).read_to_end(&mut plain).unwrap();
    plain
}

#[tokio::test]
async fn a_kept_answer_goes_gzip_compressed_to_a_client_that_takes_it() {
    let app = kept_a_minute().await;
    for n in 0..8 {
        live_listing(&app, &format!("kept-packed-{n}")).await;
    }
    let url = app.url("/api/v1/listings?sort=newest&per_page=50");
    let plain = app.client.get(&url).send().await.unwrap();
    assert_eq!(plain.headers().get("content-encoding"), None);
    assert_eq!(plain.headers()["vary"], "Accept-Encoding");
    let plain = plain.bytes().await.unwrap();
    assert!(plain.len() >= 1024, "long enough to compress: {} bytes", plain.len());
    for accepted in ["gzip", "br, gzip;q=0.5"] {
        let packed = app.client.get(&url).header("Accept-Encoding", accepted).send().await.unwrap();
        assert_eq!(packed.headers()["content-encoding"], "gzip", "{accepted}");
        assert_eq!(packed.headers()["content-type"], "application/json");
        let packed = packed.bytes().await.unwrap();
        assert!(packed.len() < plain.len(), "{} of {} bytes", packed.len(), plain.len());
        assert_eq!(gunzip(&packed), plain, "the same answer");
    }
    let refused = app.client.get(&url).header("Accept-Encoding", "gzip;q=0, br").send().await.unwrap();
    assert_eq!(refused.headers().get("content-encoding"), None);
    assert_eq!(refused.bytes().await.unwrap(), plain);
}

#[tokio::test]
async fn a_public_page_is_kept_for_visitors_without_a_session_until_a_write_on_its_server() {
    let app = kept_a_minute().await;
    let id = live_listing(&app, "kept-page").await;
    let anonymous = || async { app.client.get(app.url("/listings/kept-page")).send().await.unwrap().text().await.unwrap() };
    let before = anonymous().await;
    assert!(before.contains(r#"class="account-link" href="/signin?next=%2Flistings%2Fkept-page""#), "a visitor's page: {before}");
    fixtures::edit_tagline(app.services.store.connection(), id, "Walrus wallets").await;
    assert_eq!(anonymous().await, before, "kept for every visitor without a session");
    let tailed = app.client.get(app.url("/listings/kept-page?ref=newsletter")).send().await.unwrap().text().await.unwrap();
    assert!(tailed.contains("Walrus wallets"), "an address with a tail the page does not know is served, never kept");
    let voter = person(&app, 0, true, time::Duration::days(30)).await;
    assert!(page_of(&app, &voter, "kept-page").await.contains("Walrus wallets"), "a signed-in person's page is built afresh");

    // Kept with its gzip twin and its tag: compressed, and revalidated without a body.
    let packed = app.client.get(app.url("/listings/kept-page")).header("Accept-Encoding", "gzip").send().await.unwrap();
    assert_eq!(packed.headers()["content-encoding"], "gzip");
    let etag = packed.headers()["etag"].to_str().unwrap().to_owned();
    assert_eq!(String::from_utf8(gunzip(&packed.bytes().await.unwrap())).unwrap(), before);
    let again = app.client.get(app.url("/listings/kept-page")).header("If-None-Match", &etag).send().await.unwrap();
    assert_eq!(again.status(), 304);

    // Another page's address is its own; a refusal is not kept.
    assert_eq!(app.client.get(app.url("/listings/kept-later")).send().await.unwrap().status(), 404);
    live_listing(&app, "kept-later").await;
    assert_eq!(app.client.get(app.url("/listings/kept-later")).send().await.unwrap().status(), 200, "the 404 was not kept");

    assert_eq!(send(&app, &voter, "/listings/kept-page/vote", &[("back", "/"), ("action", "vote")]).await.status(), 303);
    let after = anonymous().await;
    assert!(after.contains("Walrus wallets"), "a vote on this server forgets the kept pages");
    let revalidated = app.client.get(app.url("/listings/kept-page")).header("If-None-Match", &etag).send().await.unwrap();
    assert_eq!(revalidated.status(), 200, "a changed page has a new tag");
}
