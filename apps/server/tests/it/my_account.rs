//! The account page's own parts over HTTP: what the person owns, editing a listing within
//! `update_my_listing`'s bounds and posting an update (someone else's listing is 404), changing
//! the password (every session ends) and closing the account (votes withdrawn, reviews gone,
//! listings kept with the site, keys dead, the address free again). API keys need a confirmed
//! address; a new password ends every key, connected app and session, and the e-mail says so.

use crate::helpers::{TestApp, spawn_empty_app_with};
use crate::orders::{no_redirects, post_form};
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
    assert!(app.services.app.accounts.signin.sign_in(client, email.as_str(), PASSWORD).await.is_err());
    assert!(app.services.app.accounts.signin.sign_in(client, email.as_str(), "brand new secret").await.is_ok());
}

#[tokio::test]
async fn guessing_the_password_on_the_account_forms_waits_as_signing_in_does() {
    let app = app().await;
    let alice = person(&app, 0, true, MONTH).await;
    let email = app.services.store.users().find_by_id(alice.user).await.unwrap().unwrap().email;
    // Someone holding her session guesses through the closing form: each guess counts.
    for _ in 0..accounts::throttle::FREE_PER_ACCOUNT {
        let wrong = send(&app, &alice, "/account/close", &[("password", "a wrong guess")]).await;
        assert_eq!(wrong.status(), 400);
    }
    // Then even the right password waits, on both forms, with the wait on the page: nothing changes.
    let change = send(&app, &alice, "/account/password", &[("current_password", PASSWORD), ("new_password", "brand new secret")]).await;
    assert_eq!(change.status(), 429);
    let wait: u64 = change.headers()["retry-after"].to_str().unwrap().parse().unwrap();
    assert!((1..=30).contains(&wait), "{wait}");
    let page = change.text().await.unwrap();
    assert!(page.contains(r#"aria-describedby="current-password-error""#) && page.contains(&format!("wait {wait} seconds")), "{page}");
    let close = send(&app, &alice, "/account/close", &[("password", PASSWORD)]).await;
    assert_eq!(close.status(), 429);
    assert!(close.headers().contains_key("retry-after"));
    let page = close.text().await.unwrap();
    assert!(page.contains(r#"aria-describedby="close-password-error""#) && page.contains("Nothing was closed."), "{page}");
    assert_eq!(get(&app, &alice, "/account").await.status(), 200, "not closed, and no new password ended the session");
    assert!(
        app.services.app.accounts.signin.sign_in("192.0.2.1".parse().unwrap(), email.as_str(), PASSWORD).await.is_ok(),
        "password unchanged"
    );

    // The sign-in page keeps the same count: from this client, it waits too.
    let form = no_redirects().get(app.url("/signin")).send().await.unwrap();
    let cookie = form.headers()["set-cookie"].to_str().unwrap().split(';').next().unwrap().to_owned();
    let html = form.text().await.unwrap();
    let csrf = html.split("name=\"csrf\" value=\"").nth(1).unwrap().split('"').next().unwrap().to_owned();
    let fields = [("csrf", csrf.as_str()), ("next", "/"), ("email", email.as_str()), ("password", PASSWORD)];
    let signing_in = no_redirects()
        .post(app.url("/signin"))
        .header("Cookie", cookie)
        .header("Content-Type", "application/x-www-form-urlencoded")
        .body(serde_urlencoded::to_string(fields).unwrap())
        .send()
        .await
        .unwrap();
    assert_eq!(signing_in.status(), 429, "one throttle for every form that checks the password");
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
    let alice_key = app
        .services
        .app
        .accounts
        .users
        .create_api_key(&email, Some("agent"), accounts::Scopes::all())
        .await
        .unwrap()
        .secret
        .expose()
        .to_owned();
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
    assert!(app.services.app.accounts.signin.sign_up(email.as_str(), "Alice again", PASSWORD).await.is_ok());
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

/// The ways into an account besides its sessions: an API key, and an app's OAuth access and
/// refresh tokens (issued for the REST API).
pub(crate) struct WaysIn {
    pub(crate) user: kernel::UserId,
    pub(crate) email: kernel::Email,
    key: String,
    client_id: String,
    access: String,
    refresh: String,
}

/// Gives `user` (whose address is confirmed) an API key and a connected app, both working.
pub(crate) async fn ways_in(app: &TestApp, user: kernel::UserId) -> WaysIn {
    use accounts::oauth::{ClientRegistration, NewToken, OAuthRepository, TokenKind};
    let email = app.services.store.users().find_by_id(user).await.unwrap().unwrap().email;
    let created = app.services.app.accounts.users.create_api_key(&email, Some("agent"), accounts::Scopes::all()).await.unwrap();
    let registration = ClientRegistration {
        client_name: Some("Agent".into()),
        redirect_uris: vec!["http://localhost:9999/callback".into()],
        ..ClientRegistration::default()
    };
    let client_id = app.services.app.accounts.oauth.register(registration).await.unwrap().client_id;
    let unique = uuid::Uuid::new_v4().simple().to_string();
    let (access, refresh) = (format!("lda_{unique}"), format!("ldr_{unique}"));
    let now = time::OffsetDateTime::now_utc();
    for (token, kind) in [(&access, TokenKind::Access), (&refresh, TokenKind::Refresh)] {
        let stored = NewToken {
            token_hash: accounts::hash_token(token),
            kind,
            client_id: client_id.clone(),
            user_id: user,
            scopes: accounts::Scopes::all(),
            resource: "https://launch.example/api/v1".into(),
            family: format!("fam_{unique}"),
            created_at: now,
            expires_at: now + time::Duration::hours(1),
        };
        OAuthRepository::insert_token(&app.services.store, &stored).await.unwrap();
    }
    let ways = WaysIn { user, email, key: created.secret.expose().to_owned(), client_id, access, refresh };
    assert_eq!(app.get_with_token("/api/v1/me", &ways.key).await.status, 200, "the key works");
    assert_eq!(app.get_with_token("/api/v1/me", &ways.access).await.status, 200, "the app's token works");
    ways
}

/// Asserts that the key, both of the app's tokens and each of `sessions` stopped working.
pub(crate) async fn assert_every_way_in_ended(app: &TestApp, ways: &WaysIn, sessions: &[&str]) {
    assert_eq!(app.get_with_token("/api/v1/me", &ways.key).await.status, 401, "the API key is revoked");
    assert_eq!(app.get_with_token("/api/v1/me", &ways.access).await.status, 401, "the app's access token is revoked");
    let refreshed = app.services.app.accounts.oauth.refresh(&ways.refresh, &ways.client_id, None, None).await;
    assert_eq!(refreshed.map(|_| ()).unwrap_err().error, "invalid_grant", "and its refresh token");
    assert!(app.services.app.accounts.oauth.connected_apps(ways.user).await.unwrap().is_empty(), "no app is connected");
    for session in sessions {
        assert!(app.services.app.accounts.signin.session(session).await.unwrap().is_none(), "every session ended");
    }
}

/// Asserts that the account's address was told, after a new password, that everything ended.
pub(crate) async fn assert_told_what_ended(app: &TestApp, email: &kernel::Email, how: &str) {
    let outbox = app.services.store.outbox(50).await.unwrap();
    let mail = outbox.iter().find(|mail| mail.to == email.as_str() && mail.kind == "password_changed").expect("the address is told");
    let mut said = vec![how, "every API key is revoked", "every connected app is disconnected"];
    said.extend(["access and refresh tokens", "every session is signed out"]);
    for said in said {
        assert!(mail.body.contains(said), "{said} in {}", mail.body);
    }
}

#[tokio::test]
async fn a_new_password_ends_every_key_app_and_session_and_the_email_says_so() {
    let app = app().await;
    let alice = person(&app, 0, true, MONTH).await;
    let ways = ways_in(&app, alice.user).await;
    let elsewhere = app.services.app.accounts.signin.sign_in("192.0.2.7".parse().unwrap(), ways.email.as_str(), PASSWORD).await.unwrap();
    let changed = send(&app, &alice, "/account/password", &[("current_password", PASSWORD), ("new_password", "brand new secret")]).await;
    assert_eq!(changed.status(), 200);
    let page = changed.text().await.unwrap();
    assert!(page.contains("every API key is revoked and every connected app is disconnected"), "{page}");
    assert_every_way_in_ended(&app, &ways, &[&alice.session, &elsewhere.token]).await;
    assert_told_what_ended(&app, &ways.email, "was changed").await;
    // The new password opens the account again; nothing from before does.
    assert!(app.services.app.accounts.signin.sign_in("192.0.2.7".parse().unwrap(), ways.email.as_str(), "brand new secret").await.is_ok());
}

#[tokio::test]
async fn an_unconfirmed_account_gets_no_api_key_and_the_page_leads_to_confirming_and_back() {
    let app = app().await;
    let alice = person(&app, 0, false, MONTH).await;
    let email = app.services.store.users().find_by_id(alice.user).await.unwrap().unwrap().email;
    let account = page_of_path(&app, &alice, "/account").await;
    assert!(account.contains("Confirm your e-mail address first: API keys are made only"), "{account}");
    assert!(!account.contains(r#"action="/account/keys""#), "no form to make a key: {account}");
    assert!(account.contains(r#"<input type="hidden" name="next" value="/account">"#), "{account}");

    // The form sent anyway: refused, nothing made; nor does any other way make one.
    let refused = send(&app, &alice, "/account/keys", &[("name", "agent"), ("scope", "account:read")]).await;
    assert_eq!(refused.status(), 403);
    assert!(refused.text().await.unwrap().contains("Confirm your e-mail address first"));
    assert_eq!(count(&app, &format!("SELECT COUNT(*) FROM api_keys WHERE user_id = {}", alice.user.get())).await, 0);
    let direct = app.services.app.accounts.users.create_api_key(&email, Some("agent"), accounts::Scopes::all()).await;
    assert!(matches!(direct, Err(accounts::AccountsError::Unconfirmed)), "{direct:?}");

    // The page's button sends a link that, opened in this browser, leads back to the account
    // page once confirmed: the browser keeps the way back, the mail carries none of it.
    let resent = send(&app, &alice, "/account/confirm/resend", &[("next", "/account")]).await;
    assert_eq!(resent.status(), 200);
    let kept = resent
        .headers()
        .get_all("set-cookie")
        .iter()
        .map(|value| value.to_str().unwrap().split(';').next().unwrap().to_owned())
        .find(|pair| pair.starts_with("ld_confirm_next="))
        .expect("the browser keeps the way back");
    let outbox = app.services.store.outbox(10).await.unwrap();
    let mail = outbox.iter().find(|mail| mail.to == email.as_str() && mail.kind == "confirm_email").expect("a confirmation link");
    let link = mail.body.split_whitespace().find(|word| word.contains("/account/confirm?token=")).unwrap().to_owned();
    assert!(!link.contains("next"), "{link}");
    let link_path = link.replace("https://launch.example", "");
    let shown = no_redirects().get(app.url(&link_path)).header("Cookie", &kept).send().await.unwrap().text().await.unwrap();
    assert!(shown.contains(r#"<input type="hidden" name="next" value="/account">"#), "{shown}");
    let elsewhere_browser = no_redirects().get(app.url(&link_path)).send().await.unwrap().text().await.unwrap();
    assert!(!elsewhere_browser.contains(r#"name="next""#), "another browser has no way back: {elsewhere_browser}");
    // A way back that is not a local path is dropped, on the link's page and after confirming.
    for elsewhere in ["https://evil.example/", "//evil.example/", "/\\evil.example"] {
        let cookie = format!("ld_confirm_next={}", serde_urlencoded::to_string([("v", elsewhere)]).unwrap().trim_start_matches("v="));
        let page = no_redirects()
            .get(app.url("/account/confirm?token=whatever"))
            .header("Cookie", cookie)
            .send()
            .await
            .unwrap()
            .text()
            .await
            .unwrap();
        assert!(!page.contains(r#"name="next""#) && !page.contains("evil.example"), "{elsewhere}: {page}");
    }
    let token = link.split("token=").nth(1).unwrap().split('&').next().unwrap().to_owned();
    let confirmed = post_form(&no_redirects(), app.url("/account/confirm"), &[("token", &token), ("next", "/account")]).await;
    assert_eq!(confirmed.status(), 200);
    let page = confirmed.text().await.unwrap();
    assert!(page.contains("is confirmed") && page.contains(r#"<a id="continue" href="/account" class="button">"#), "{page}");

    let made = send(&app, &alice, "/account/keys", &[("name", "agent"), ("scope", "account:read")]).await;
    assert_eq!(made.status(), 201);
    assert!(made.text().await.unwrap().contains("ldk_"), "the key is shown once");
}
