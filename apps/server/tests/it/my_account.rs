//! The account page's own parts over HTTP: what the person owns, editing a listing within
//! `update_my_listing`'s bounds and posting an update (someone else's listing is 404), changing
//! the password (every session ends) and closing the account (votes withdrawn, reviews gone,
//! listings kept with the site, keys dead, the address free again).

use crate::helpers::{TestApp, spawn_empty_app_with};
use crate::orders::no_redirects;
use crate::reviews::{count, page_of, send};
use crate::votes::{Person, live_listing, person};
use store_seaorm::testing::fixtures;

const MONTH: time::Duration = time::Duration::days(30);
const PASSWORD: &str = "a long enough password";

async fn app() -> TestApp {
    spawn_empty_app_with(|settings| settings.vote_min_account_age_hours = 0).await
}

async fn get(app: &TestApp, who: &Person, path: &str) -> reqwest::Response {
    no_redirects().get(app.url(path)).header("Cookie", format!("ld_session={}", who.session)).send().await.unwrap()
}

#[tokio::test]
async fn the_account_page_lists_my_listings_and_edits_one_within_the_apis_bounds() {
    let app = app().await;
    let (alice, bob) = (person(&app, 0, true, MONTH).await, person(&app, 1, true, MONTH).await);
    let listing = live_listing(&app, "alices-tool").await;
    let db = app.services.store.connection();
    fixtures::set_owner(db, listing, alice.user.get()).await;

    let account = page_of_path(&app, &alice, "/account").await;
    assert!(account.contains(&format!(r#"<a href="/account/listings/{listing}">ALICES-TOOL</a>"#)), "{account}");
    assert!(account.contains("<td>live</td>") && account.contains("No drafts.") && account.contains("No orders."));
    assert_eq!(get(&app, &bob, &format!("/account/listings/{listing}")).await.status(), 404, "someone else's listing");

    let path = format!("/account/listings/{listing}");
    let saved = send(&app, &alice, &path, &[("tagline", "Ship notes that write themselves"), ("features", "Drafts\n\n Search \n")]).await;
    assert_eq!(saved.status(), 303);
    assert_eq!(saved.headers()["location"], format!("{path}?saved=1"));
    let view = app.get("/api/v1/listings/alices-tool").await.body;
    assert_eq!(view["tagline"], "Ship notes that write themselves");
    assert_eq!(view["features"], serde_json::json!(["Drafts", "Search"]), "one per line, blank lines dropped");
    assert!(get(&app, &alice, &format!("{path}?saved=1")).await.text().await.unwrap().contains("Your changes are saved"));

    // The API's bounds, shown beside each field; nothing saved.
    let long = "x".repeat(201);
    let refused = send(&app, &alice, &path, &[("tagline", &long), ("founded_year", "soon"), ("city", "Lisbon")]).await;
    assert_eq!(refused.status(), 400);
    let page = refused.text().await.unwrap();
    for field in ["tagline", "founded_year"] {
        assert!(page.contains(&format!(r#"aria-describedby="field-{field}-error""#)), "{field}: {page}");
    }
    assert!(page.contains(r#"value="Lisbon""#), "what was sent is kept");
    let view = app.get("/api/v1/listings/alices-tool").await.body;
    assert_eq!((view["tagline"].as_str(), &view["city"]), (Some("Ship notes that write themselves"), &serde_json::Value::Null));
    assert_eq!(send(&app, &bob, &path, &[("tagline", "Mine now")]).await.status(), 404);

    // An update: a title is needed; then it is on the public profile.
    let updates = format!("{path}/updates");
    let refused = send(&app, &alice, &updates, &[("title", " "), ("body", "We shipped search.")]).await;
    assert_eq!(refused.status(), 400);
    let page = refused.text().await.unwrap();
    assert!(page.contains(r#"aria-describedby="update-title-error""#) && page.contains("We shipped search."), "{page}");
    assert_eq!(send(&app, &alice, &updates, &[("title", "Search is here"), ("body", "We shipped search.")]).await.status(), 303);
    assert_eq!(app.get("/api/v1/listings/alices-tool").await.body["latest_updates"][0]["title"], "Search is here");
}

pub(crate) async fn page_of_path(app: &TestApp, who: &Person, path: &str) -> String {
    get(app, who, path).await.text().await.unwrap()
}

#[tokio::test]
async fn a_new_password_needs_the_current_one_and_ends_every_session() {
    let app = app().await;
    let alice = person(&app, 0, true, MONTH).await;
    let wrong =
        send(&app, &alice, "/account/password", &[("current_password", "not it at all"), ("new_password", "brand new secret")]).await;
    assert_eq!(wrong.status(), 400);
    assert!(wrong.text().await.unwrap().contains(r#"aria-describedby="current-password-error""#));
    let short = send(&app, &alice, "/account/password", &[("current_password", PASSWORD), ("new_password", "short")]).await;
    assert_eq!(short.status(), 400);
    assert!(short.text().await.unwrap().contains(r#"aria-describedby="new-password-error""#));
    assert_eq!(get(&app, &alice, "/account").await.status(), 200, "refused changes end nothing");

    let changed = send(&app, &alice, "/account/password", &[("current_password", PASSWORD), ("new_password", "brand new secret")]).await;
    assert_eq!(changed.status(), 200);
    assert_eq!(get(&app, &alice, "/account").await.status(), 303, "this session ended too");
    let email = app.services.store.users().find_by_id(alice.user).await.unwrap().unwrap().email;
    let client = "192.0.2.1".parse().unwrap();
    assert!(app.services.app.signin.sign_in(client, email.as_str(), PASSWORD).await.is_err());
    assert!(app.services.app.signin.sign_in(client, email.as_str(), "brand new secret").await.is_ok());
}

#[tokio::test]
async fn closing_the_account_withdraws_votes_keeps_listings_and_frees_the_address() {
    let app = app().await;
    let (alice, bob) = (person(&app, 0, true, MONTH).await, person(&app, 1, true, MONTH).await);
    let voted = live_listing(&app, "voted-for").await;
    let owned = live_listing(&app, "owned-by-alice").await;
    fixtures::set_owner(app.services.store.connection(), owned, alice.user.get()).await;
    for who in [&alice, &bob] {
        let pressed = send(&app, who, "/listings/voted-for/vote", &[("back", "/"), ("action", "vote")]).await;
        assert_eq!(pressed.status(), 303);
    }
    send(&app, &alice, "/listings/voted-for/review", &[("rating", "5"), ("body", "Great."), ("action", "save")]).await;
    send(&app, &alice, "/listings/voted-for/follow", &[("action", "follow")]).await;
    let email = app.services.store.users().find_by_id(alice.user).await.unwrap().unwrap().email;
    let (_, key) = app.api_key("").await;
    let alice_key =
        app.services.app.accounts.create_api_key(&email, Some("agent"), accounts::Scopes::all()).await.unwrap().secret.expose().to_owned();
    assert_eq!(app.get_with_token("/api/v1/me", &alice_key).await.status, 200);

    let wrong = send(&app, &alice, "/account/close", &[("password", "not my password")]).await;
    assert_eq!(wrong.status(), 400);
    assert!(wrong.text().await.unwrap().contains(r#"aria-describedby="close-password-error""#));
    assert_eq!(app.get("/api/v1/listings/voted-for").await.body["votes"], 2, "nothing closed");

    let closed = send(&app, &alice, "/account/close", &[("password", PASSWORD)]).await;
    assert_eq!(closed.status(), 200);
    assert!(closed.text().await.unwrap().contains("1 vote withdrawn, 1 review deleted; your listing stays on the site"));
    let view = app.get("/api/v1/listings/voted-for").await.body;
    assert_eq!(
        (view["votes"].as_u64(), view["followers"].as_u64(), view["community_rating"]["count"].as_u64()),
        (Some(1), Some(0), Some(0))
    );
    assert_eq!(count(&app, &format!("SELECT COUNT(*) FROM votes WHERE listing_id = {voted}")).await, 1, "bob's vote stays");
    assert_eq!(count(&app, &format!("SELECT votes_count FROM listings WHERE id = {voted}")).await, 1);
    assert_eq!(app.get("/api/v1/listings/owned-by-alice").await.status, 200, "the listing stays public");
    assert_eq!(count(&app, &format!("SELECT COUNT(*) FROM listings WHERE id = {owned} AND owner_user_id IS NULL")).await, 1);
    assert_eq!(get(&app, &alice, "/account").await.status(), 303, "signed out");
    assert_eq!(app.get_with_token("/api/v1/me", &alice_key).await.status, 401, "her keys are revoked");
    assert_eq!(app.get_with_token("/api/v1/me", &key).await.status, 200, "others' keys work");
    assert!(!page_of(&app, &bob, "voted-for").await.contains("Great."), "her review is gone");
    // The address can sign up afresh.
    assert!(app.services.app.signin.sign_up(email.as_str(), "Alice again", PASSWORD).await.is_ok());
}

#[tokio::test]
async fn the_page_header_offers_sign_in_to_strangers_and_the_account_to_people_signed_in() {
    let app = app().await;
    live_listing(&app, "headed").await;
    let stranger = no_redirects().get(app.url("/listings/headed?x=1")).send().await.unwrap().text().await.unwrap();
    assert!(stranger.contains(r#"<a class="account-link" href="/signin?next=%2Flistings%2Fheaded%3Fx%3D1">Sign in</a>"#), "{stranger}");
    let alice = person(&app, 0, true, MONTH).await;
    let signed_in = page_of(&app, &alice, "headed").await;
    assert!(signed_in.contains(r#"<a class="account-link" href="/account">Your account</a>"#));
    assert!(!signed_in.contains(">Sign in</a>"));
}
