//! OAuth 2.1 sign-in for the tool server, driven like a client would: registration, the 401
//! that points to the metadata, sign-up and consent through the pages, tokens, refresh
//! rotation, and every refusal the issue lists.

use crate::helpers::{TestApp, spawn_app};
use reqwest::header::{HeaderMap, LOCATION, SET_COOKIE};
use serde_json::{Value, json};
use std::collections::HashMap;

const REDIRECT: &str = "http://localhost:9999/callback";
const MCP_RESOURCE: &str = "https://launch.example/mcp";

/// A browser: no automatic redirects, cookies kept by hand.
struct Browser {
    client: reqwest::Client,
    cookies: HashMap<String, String>,
}

impl Browser {
    fn new() -> Self {
        Self {
            client: crate::helpers::client_builder().redirect(reqwest::redirect::Policy::none()).build().unwrap(),
            cookies: HashMap::new(),
        }
    }

    fn keep(&mut self, headers: &HeaderMap) {
        for value in headers.get_all(SET_COOKIE) {
            let pair = value.to_str().unwrap().split(';').next().unwrap();
            let (name, value) = pair.split_once('=').unwrap();
            self.cookies.insert(name.to_owned(), value.to_owned());
        }
    }

    fn cookie_header(&self) -> String {
        self.cookies.iter().map(|(k, v)| format!("{k}={v}")).collect::<Vec<_>>().join("; ")
    }

    async fn get(&mut self, url: &str) -> (u16, HeaderMap, String) {
        let response = self.client.get(url).header("Cookie", self.cookie_header()).send().await.unwrap();
        let (status, headers) = (response.status().as_u16(), response.headers().clone());
        self.keep(&headers);
        (status, headers, response.text().await.unwrap())
    }

    async fn post_form(&mut self, url: &str, form: &[(&str, &str)]) -> (u16, HeaderMap, String) {
        let body = serde_urlencoded::to_string(form).unwrap();
        let response = self
            .client
            .post(url)
            .header("Cookie", self.cookie_header())
            .header("Content-Type", "application/x-www-form-urlencoded")
            .body(body)
            .send()
            .await
            .unwrap();
        let (status, headers) = (response.status().as_u16(), response.headers().clone());
        self.keep(&headers);
        (status, headers, response.text().await.unwrap())
    }
}

fn hidden(html: &str, name: &str) -> String {
    let marker = format!("name=\"{name}\" value=\"");
    let start = html.find(&marker).unwrap_or_else(|| panic!("no {name} in {html}")) + marker.len();
    html[start..].split('"').next().unwrap().replace("&#43;", "+").replace("&#47;", "/").replace("&#61;", "=")
}

fn location(headers: &HeaderMap) -> String {
    headers.get(LOCATION).unwrap().to_str().unwrap().to_owned()
}

fn query_of(url: &str) -> HashMap<String, String> {
    serde_urlencoded::from_str(url.split_once('?').map_or("", |(_, q)| q)).unwrap()
}

struct Pkce {
    verifier: String,
    challenge: String,
}

fn pkce() -> Pkce {
    let verifier = format!("v{}{}", uuid::Uuid::new_v4().simple(), uuid::Uuid::new_v4().simple());
    Pkce { challenge: accounts::oauth::s256(&verifier), verifier }
}

async fn register(app: &TestApp) -> String {
    let reply = app
        .send(app.client.post(app.url("/oauth/register")).json(&json!({"client_name": "Test Agent", "redirect_uris": [REDIRECT]})))
        .await;
    assert_eq!(reply.status, 201, "{:#}", reply.body);
    assert_eq!(reply.body["token_endpoint_auth_method"], "none");
    reply.body["client_id"].as_str().unwrap().to_owned()
}

fn authorize_url(app: &TestApp, client_id: &str, pkce: &Pkce, scope: &str, resource: &str) -> String {
    let query = serde_urlencoded::to_string([
        ("response_type", "code"),
        ("client_id", client_id),
        ("redirect_uri", REDIRECT),
        ("code_challenge", pkce.challenge.as_str()),
        ("code_challenge_method", "S256"),
        ("resource", resource),
        ("scope", scope),
        ("state", "s-123"),
    ])
    .unwrap();
    app.url(&format!("/oauth/authorize?{query}"))
}

/// Signs a new person up through the pages, starting from an authorization URL; returns the
/// consent page.
async fn sign_up_to_consent(app: &TestApp, browser: &mut Browser, authorize: &str) -> String {
    let (status, headers, _) = browser.get(authorize).await;
    assert_eq!(status, 302, "not signed in: to the sign-in page");
    let signin = app.url(&location(&headers));
    assert!(signin.contains("/signin?next="), "{signin}");
    let next = query_of(&signin)["next"].clone();
    let (status, _, page) = browser
        .get(&app.url(&format!("/signup?next={}", serde_urlencoded::to_string([("", &next)]).unwrap().trim_start_matches('='))))
        .await;
    assert_eq!(status, 200);
    let csrf = hidden(&page, "csrf");
    let email = format!("person-{}@example.com", uuid::Uuid::new_v4().simple());
    let (status, headers, body) = browser
        .post_form(
            &app.url("/signup"),
            &[("csrf", &csrf), ("next", &next), ("name", "Ada"), ("email", &email), ("password", "correct horse battery")],
        )
        .await;
    // Signing up answers "check your inbox" (as it would for a taken address) and signs nobody
    // in: the person confirms the address through the e-mailed link, signs in, and comes back.
    assert_eq!(status, 200, "{body}");
    assert!(body.contains("Check your inbox") && headers.get(LOCATION).is_none(), "{body}");
    assert!(!browser.cookies.contains_key("ld_session"));
    let outbox = app.services.store.outbox(500).await.unwrap();
    let mail = outbox.iter().find(|mail| mail.to == email && mail.kind == "confirm_email").expect("the confirmation link is e-mailed");
    let token = mail.body.split("token=").nth(1).unwrap().split(|c: char| c == '&' || c.is_whitespace()).next().unwrap().to_owned();
    let (status, _, confirmed) = browser.post_form(&app.url("/account/confirm"), &[("token", &token)]).await;
    assert_eq!(status, 200, "{confirmed}");
    let encoded = serde_urlencoded::to_string([("", &next)]).unwrap().trim_start_matches('=').to_owned();
    let (status, _, page) = browser.get(&app.url(&format!("/signin?next={encoded}"))).await;
    assert_eq!(status, 200);
    let csrf = hidden(&page, "csrf");
    let (status, headers, body) = browser
        .post_form(&app.url("/signin"), &[("csrf", &csrf), ("next", &next), ("email", &email), ("password", "correct horse battery")])
        .await;
    assert_eq!(status, 303, "{body}");
    assert!(browser.cookies.contains_key("ld_session"));
    let (status, _, consent) = browser.get(&app.url(&location(&headers))).await;
    assert_eq!(status, 200, "{consent}");
    consent
}

/// The consent form's fields, with the person's choice.
fn consent_form(consent: &str, decision: &str, allow: &[&str]) -> Vec<(String, String)> {
    let mut form: Vec<(String, String)> =
        ["csrf", "client_id", "redirect_uri", "response_type", "code_challenge", "code_challenge_method", "resource", "scope", "state"]
            .iter()
            .map(|name| ((*name).to_owned(), hidden(consent, name)))
            .collect();
    form.push(("decision".into(), decision.into()));
    for scope in allow {
        form.push(("allow".into(), (*scope).into()));
    }
    form
}

async fn consent(app: &TestApp, browser: &mut Browser, consent_page: &str, decision: &str, allow: &[&str]) -> HashMap<String, String> {
    let form = consent_form(consent_page, decision, allow);
    let pairs: Vec<(&str, &str)> = form.iter().map(|(k, v)| (k.as_str(), v.as_str())).collect();
    let (status, headers, body) = browser.post_form(&app.url("/oauth/authorize"), &pairs).await;
    assert_eq!(status, 302, "{body}");
    let back = location(&headers);
    assert!(back.starts_with(REDIRECT), "{back}");
    query_of(&back)
}

async fn token(app: &TestApp, form: &[(&str, &str)]) -> (u16, Value) {
    let reply = app
        .send(
            app.client
                .post(app.url("/oauth/token"))
                .header("Content-Type", "application/x-www-form-urlencoded")
                .body(serde_urlencoded::to_string(form).unwrap()),
        )
        .await;
    (reply.status.as_u16(), reply.body)
}

async fn mcp_status(app: &TestApp, tool: &str, arguments: Value, token: &str) -> (u16, Value) {
    let response = app
        .client
        .post(app.url("/mcp"))
        .bearer_auth(token)
        .header("Accept", "application/json, text/event-stream")
        .header("MCP-Protocol-Version", "2026-07-28")
        .header("Mcp-Method", "tools/call")
        .header("Mcp-Name", tool)
        .json(&json!({"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": {"name": tool, "arguments": arguments, "_meta": {
            "io.modelcontextprotocol/protocolVersion": "2026-07-28", "io.modelcontextprotocol/clientCapabilities": {}}}}))
        .send()
        .await
        .unwrap();
    let status = response.status().as_u16();
    (status, response.json().await.unwrap_or(Value::Null))
}

#[tokio::test]
async fn discovery_registration_sign_in_consent_token_and_a_tool_call() {
    let app = spawn_app().await;
    // Discovery from the 401.
    let (status, _) = mcp_status(&app, "get_account", json!({}), "").await;
    assert_eq!(status, 401);
    let prm = app.get("/.well-known/oauth-protected-resource/mcp").await.body;
    assert_eq!(prm["authorization_servers"], json!(["https://launch.example"]));
    let metadata = app.get("/.well-known/oauth-authorization-server").await.body;
    assert_eq!(metadata["issuer"], "https://launch.example");
    assert_eq!(metadata["code_challenge_methods_supported"], json!(["S256"]));
    assert_eq!(metadata["client_id_metadata_document_supported"], true);
    assert_eq!(metadata["authorization_response_iss_parameter_supported"], true);
    assert!(metadata["token_endpoint_auth_methods_supported"].as_array().unwrap().contains(&json!("none")));

    let client_id = register(&app).await;
    let pkce = pkce();
    let mut browser = Browser::new();
    let page =
        sign_up_to_consent(&app, &mut browser, &authorize_url(&app, &client_id, &pkce, "account:read listings:write", MCP_RESOURCE)).await;
    assert!(page.contains("Test Agent") && page.contains("localhost:9999"), "the consent page names the client and the redirect host");
    // The person narrows the scopes: account:read only.
    let back = consent(&app, &mut browser, &page, "allow", &["account:read"]).await;
    assert_eq!(back["state"], "s-123");
    assert_eq!(back["iss"], "https://launch.example");
    let code = back["code"].clone();

    let (status, tokens) = token(
        &app,
        &[
            ("grant_type", "authorization_code"),
            ("code", &code),
            ("redirect_uri", REDIRECT),
            ("client_id", &client_id),
            ("code_verifier", &pkce.verifier),
            ("resource", MCP_RESOURCE),
        ],
    )
    .await;
    assert_eq!(status, 200, "{tokens:#}");
    assert_eq!(tokens["token_type"], "Bearer");
    assert_eq!(tokens["scope"], "account:read");
    let access = tokens["access_token"].as_str().unwrap().to_owned();
    let refresh = tokens["refresh_token"].as_str().unwrap().to_owned();

    let (status, result) = mcp_status(&app, "get_account", json!({}), &access).await;
    assert_eq!(status, 200, "{result:#}");
    assert_eq!(result["result"]["structuredContent"]["credential"]["type"], "oauth_access_token");
    assert_eq!(result["result"]["structuredContent"]["credential"]["resource"], MCP_RESOURCE);
    // The dropped scope: 403 on a tool that needs it.
    let (status, body) = mcp_status(&app, "submit_listing", json!({"url": "https://x.example/"}), &access).await;
    assert_eq!(status, 403, "{body:#}");
    // A token for the tool server is not a token for the REST API (its own audience is).
    assert_eq!(app.get_with_token("/api/v1/me", &access).await.status, 401);
    // A code is used once; presenting it again revokes what it issued.
    let (status, again) = token(
        &app,
        &[
            ("grant_type", "authorization_code"),
            ("code", &code),
            ("redirect_uri", REDIRECT),
            ("client_id", &client_id),
            ("code_verifier", &pkce.verifier),
        ],
    )
    .await;
    assert_eq!((status, again["error"].as_str()), (400, Some("invalid_grant")));
    assert_eq!(mcp_status(&app, "get_account", json!({}), &access).await.0, 401, "the replayed code's tokens are revoked");
    let (status, _) = token(&app, &[("grant_type", "refresh_token"), ("refresh_token", &refresh), ("client_id", &client_id)]).await;
    assert_eq!(status, 400);

    // A fresh grant for the rest of the test.
    let pkce = self::pkce();
    let (_, _, page) = browser.get(&authorize_url(&app, &client_id, &pkce, "account:read", MCP_RESOURCE)).await;
    let back = consent(&app, &mut browser, &page, "allow", &["account:read"]).await;
    let (status, tokens) = token(
        &app,
        &[
            ("grant_type", "authorization_code"),
            ("code", &back["code"]),
            ("redirect_uri", REDIRECT),
            ("client_id", &client_id),
            ("code_verifier", &pkce.verifier),
        ],
    )
    .await;
    assert_eq!(status, 200, "{tokens:#}");
    let refresh = tokens["refresh_token"].as_str().unwrap().to_owned();
    // A refresh that asks for more than the grant is refused without using the token up.
    let (status, wider) = token(
        &app,
        &[("grant_type", "refresh_token"), ("refresh_token", &refresh), ("client_id", &client_id), ("scope", "account:read orders:write")],
    )
    .await;
    assert_eq!((status, wider["error"].as_str()), (400, Some("invalid_scope")));

    // Refresh tokens rotate; reusing an old one revokes the whole family.
    let (status, rotated) = token(&app, &[("grant_type", "refresh_token"), ("refresh_token", &refresh), ("client_id", &client_id)]).await;
    assert_eq!(status, 200, "{rotated:#}");
    let new_access = rotated["access_token"].as_str().unwrap().to_owned();
    assert_ne!(rotated["refresh_token"], tokens["refresh_token"]);
    assert_eq!(mcp_status(&app, "get_account", json!({}), &new_access).await.0, 200);
    let (status, reused) = token(&app, &[("grant_type", "refresh_token"), ("refresh_token", &refresh), ("client_id", &client_id)]).await;
    assert_eq!((status, reused["error"].as_str()), (400, Some("invalid_grant")));
    assert_eq!(mcp_status(&app, "get_account", json!({}), &new_access).await.0, 401, "the family is revoked");
    let (status, _) = token(
        &app,
        &[("grant_type", "refresh_token"), ("refresh_token", rotated["refresh_token"].as_str().unwrap()), ("client_id", &client_id)],
    )
    .await;
    assert_eq!(status, 400, "the rotated refresh token is revoked too");
}

/// A signed-in browser with a registered client, ready to authorize.
async fn signed_in(app: &TestApp) -> (Browser, String) {
    let client_id = register(app).await;
    let mut browser = Browser::new();
    let _ = sign_up_to_consent(app, &mut browser, &authorize_url(app, &client_id, &pkce(), "account:read", MCP_RESOURCE)).await;
    (browser, client_id)
}

async fn tokens_for(app: &TestApp, browser: &mut Browser, client_id: &str, resource: &str) -> Value {
    let pkce = pkce();
    let (_, _, page) = browser.get(&authorize_url(app, client_id, &pkce, "account:read", resource)).await;
    let back = consent(app, browser, &page, "allow", &["account:read"]).await;
    let (status, tokens) = token(
        app,
        &[
            ("grant_type", "authorization_code"),
            ("code", &back["code"]),
            ("redirect_uri", REDIRECT),
            ("client_id", client_id),
            ("code_verifier", &pkce.verifier),
        ],
    )
    .await;
    assert_eq!(status, 200, "{tokens:#}");
    tokens
}

#[tokio::test]
async fn tokens_are_checked_for_audience_expiry_and_revocation() {
    let app = spawn_app().await;
    let (mut browser, client_id) = signed_in(&app).await;
    // A token for the REST API is not a token for /mcp.
    let rest = tokens_for(&app, &mut browser, &client_id, "https://launch.example/api/v1").await;
    let rest_access = rest["access_token"].as_str().unwrap();
    let (status, _) = mcp_status(&app, "get_account", json!({}), rest_access).await;
    assert_eq!(status, 401, "wrong audience");
    assert_eq!(app.get_with_token("/api/v1/me", rest_access).await.status, 200);
    // A resource we do not serve is refused at authorization: a page with a link back to the
    // client carrying the error (never an automatic redirect before consent).
    let (status, headers, page) =
        browser.get(&authorize_url(&app, &client_id, &pkce(), "account:read", "https://elsewhere.example/mcp")).await;
    assert_eq!(status, 400);
    assert!(headers.get(LOCATION).is_none());
    assert!(page.contains("invalid_target") && page.contains("error=invalid_target"), "{page}");

    // Revoked.
    let mcp = tokens_for(&app, &mut browser, &client_id, MCP_RESOURCE).await;
    let access = mcp["access_token"].as_str().unwrap();
    assert_eq!(mcp_status(&app, "get_account", json!({}), access).await.0, 200);
    let revoke = |client: &str| {
        app.client
            .post(app.url("/oauth/revoke"))
            .header("Content-Type", "application/x-www-form-urlencoded")
            .body(serde_urlencoded::to_string([("token", access), ("client_id", client)]).unwrap())
            .send()
    };
    assert_eq!(revoke("ldcl_someone-else").await.unwrap().status(), 400, "only the client the token was issued to");
    assert_eq!(mcp_status(&app, "get_account", json!({}), access).await.0, 200);
    assert_eq!(revoke(&client_id).await.unwrap().status(), 200);
    assert_eq!(mcp_status(&app, "get_account", json!({}), access).await.0, 401);

    // Expired: a token whose lifetime ended.
    let user = app.services.app.accounts.signin.session(browser.cookies.get("ld_session").unwrap()).await.unwrap().unwrap().user;
    let expired = "lda_expired-token-for-the-test-0000000000000000000";
    let past = time::OffsetDateTime::now_utc() - time::Duration::hours(2);
    accounts::oauth::OAuthRepository::insert_token(
        &app.services.store,
        &accounts::oauth::NewToken {
            token_hash: accounts::hash_token(expired),
            kind: accounts::oauth::TokenKind::Access,
            client_id: client_id.clone(),
            user_id: user.id,
            scopes: accounts::Scopes::all(),
            resource: MCP_RESOURCE.into(),
            family: "fam_expired".into(),
            created_at: past,
            expires_at: past + time::Duration::hours(1),
        },
    )
    .await
    .unwrap();
    let (status, _) = mcp_status(&app, "get_account", json!({}), expired).await;
    assert_eq!(status, 401, "expired");
}

#[tokio::test]
async fn pkce_redirect_uris_and_consent_are_enforced() {
    let app = spawn_app().await;
    let (mut browser, client_id) = signed_in(&app).await;
    // PKCE missing: the error goes back to the client.
    let no_pkce = authorize_url(&app, &client_id, &pkce(), "account:read", MCP_RESOURCE)
        .replace("&code_challenge_method=S256", "")
        .split("&code_challenge=")
        .next()
        .unwrap()
        .to_owned()
        + "&resource=https%3A%2F%2Flaunch.example%2Fmcp&state=s-123";
    let (status, headers, page) = browser.get(&no_pkce).await;
    assert_eq!(status, 400);
    assert!(headers.get(LOCATION).is_none(), "no automatic redirect before consent");
    assert!(page.contains("PKCE is required") && page.contains("state=s-123"), "{page}");
    // PKCE wrong: the code does not turn into tokens.
    let pkce = pkce();
    let (_, _, page) = browser.get(&authorize_url(&app, &client_id, &pkce, "account:read", MCP_RESOURCE)).await;
    let back = consent(&app, &mut browser, &page, "allow", &["account:read"]).await;
    let (status, body) = token(
        &app,
        &[
            ("grant_type", "authorization_code"),
            ("code", &back["code"]),
            ("redirect_uri", REDIRECT),
            ("client_id", &client_id),
            ("code_verifier", "wrong-verifier-wrong-verifier-wrong-verifier"),
        ],
    )
    .await;
    assert_eq!((status, body["error"].as_str()), (400, Some("invalid_grant")));
    let (_, _, page) = browser.get(&authorize_url(&app, &client_id, &pkce, "account:read", MCP_RESOURCE)).await;
    let back = consent(&app, &mut browser, &page, "allow", &["account:read"]).await;
    let (status, body) = token(
        &app,
        &[("grant_type", "authorization_code"), ("code", &back["code"]), ("redirect_uri", REDIRECT), ("client_id", &client_id)],
    )
    .await;
    assert_eq!((status, body["error"].as_str()), (400, Some("invalid_request")), "no verifier");

    // A redirect URI that is not registered (exactly): an error page, never a redirect.
    let mismatch = authorize_url(&app, &client_id, &pkce, "account:read", MCP_RESOURCE).replace("callback", "callback2");
    let (status, headers, page) = browser.get(&mismatch).await;
    assert_eq!(status, 400, "{page}");
    assert!(headers.get(LOCATION).is_none());
    // Registration refuses redirect URIs that are neither https nor loopback.
    let refused = app.send(app.client.post(app.url("/oauth/register")).json(&json!({"redirect_uris": ["http://evil.example/cb"]}))).await;
    assert_eq!(refused.status, 400);
    assert_eq!(refused.body["error"], "invalid_redirect_uri");

    // Consent denied.
    let (_, _, page) = browser.get(&authorize_url(&app, &client_id, &pkce, "account:read", MCP_RESOURCE)).await;
    let back = consent(&app, &mut browser, &page, "deny", &[]).await;
    assert_eq!(back["error"], "access_denied");
    assert_eq!(back["state"], "s-123");
    assert!(!back.contains_key("code"));
    // A consent form without the session's CSRF token is refused.
    let (_, _, page) = browser.get(&authorize_url(&app, &client_id, &pkce, "account:read", MCP_RESOURCE)).await;
    let mut form = consent_form(&page, "allow", &["account:read"]);
    form[0].1 = "forged".into();
    let pairs: Vec<(&str, &str)> = form.iter().map(|(k, v)| (k.as_str(), v.as_str())).collect();
    assert_eq!(browser.post_form(&app.url("/oauth/authorize"), &pairs).await.0, 403);
    // So is the right token sent from another site's page: no code, no redirect.
    let (_, _, page) = browser.get(&authorize_url(&app, &client_id, &pkce, "account:read", MCP_RESOURCE)).await;
    let form = consent_form(&page, "allow", &["account:read"]);
    let cross_site = browser
        .client
        .post(app.url("/oauth/authorize"))
        .header("Cookie", browser.cookie_header())
        .header("Content-Type", "application/x-www-form-urlencoded")
        .header("Sec-Fetch-Site", "cross-site")
        .body(serde_urlencoded::to_string(&form).unwrap())
        .send()
        .await
        .unwrap();
    assert_eq!(cross_site.status(), 403);
    assert!(cross_site.headers().get(LOCATION).is_none());
    assert!(cross_site.text().await.unwrap().contains("The form expired or came from another site"));
}

#[tokio::test]
async fn client_metadata_documents_on_private_addresses_are_refused() {
    let app = spawn_app().await;
    let (mut browser, _) = signed_in(&app).await;
    // Refused, and without a word of what the address resolves to (no DNS oracle).
    for client_id in ["https://127.0.0.1:9/client.json", "https://localhost/client.json", "https://10.1.2.3/client.json"] {
        let url = authorize_url(&app, client_id, &pkce(), "account:read", MCP_RESOURCE);
        let (status, headers, page) = browser.get(&url).await;
        assert_eq!(status, 400, "{page}");
        assert!(headers.get(LOCATION).is_none());
        assert!(page.contains("invalid_client") && page.contains("could not be read"), "{page}");
        for internal in ["resolves", "loopback", "blocked", "private network", "127.0.0.1 is"] {
            assert!(!page.contains(internal), "{internal} in {page}");
        }
    }
}

#[tokio::test]
async fn sign_in_is_throttled_and_forms_need_their_csrf_token() {
    let app = spawn_app().await;
    let mut browser = Browser::new();
    let (_, _, page) = browser.get(&app.url("/signup")).await;
    let csrf = hidden(&page, "csrf");
    let email = format!("throttle-{}@example.com", uuid::Uuid::new_v4().simple());
    let (status, _, _) = browser
        .post_form(
            &app.url("/signup"),
            &[("csrf", &csrf), ("next", "/"), ("name", ""), ("email", &email), ("password", "a good long password")],
        )
        .await;
    assert_eq!(status, 200, "check your inbox; the account exists, not signed in");
    // The session cookie is HttpOnly and SameSite=Lax; Secure because the site is https.
    let mut fresh = Browser::new();
    let (_, _, page) = fresh.get(&app.url("/signin")).await;
    let csrf = hidden(&page, "csrf");
    let (status, headers, _) = fresh
        .post_form(&app.url("/signin"), &[("csrf", &csrf), ("next", "/"), ("email", &email), ("password", "a good long password")])
        .await;
    assert_eq!(status, 303);
    let set_cookie =
        headers.get_all(SET_COOKIE).iter().map(|v| v.to_str().unwrap().to_owned()).find(|c| c.starts_with("ld_session=")).unwrap();
    assert!(set_cookie.contains("HttpOnly") && set_cookie.contains("SameSite=Lax") && set_cookie.contains("Secure"), "{set_cookie}");
    // Without the CSRF token: refused.
    let (status, _, page) =
        fresh.post_form(&app.url("/signin"), &[("csrf", "forged"), ("email", &email), ("password", "a good long password")]).await;
    assert_eq!(status, 403);
    // The refused form comes back with a new token.
    let csrf = hidden(&page, "csrf");
    // Five wrong passwords, then even the right one waits.
    for _ in 0..5 {
        let (status, _, page) =
            fresh.post_form(&app.url("/signin"), &[("csrf", &csrf), ("email", &email), ("password", "wrong password!")]).await;
        assert_eq!(status, 401, "{page}");
    }
    let (status, _, page) =
        fresh.post_form(&app.url("/signin"), &[("csrf", &csrf), ("email", &email), ("password", "a good long password")]).await;
    assert_eq!(status, 429);
    assert!(page.contains("too many failed attempts"));
}

#[tokio::test]
async fn a_person_disconnects_an_app_on_the_account_page_and_its_tokens_stop_working() {
    let app = spawn_app().await;
    let (mut browser, client_id) = signed_in(&app).await;
    let tokens = tokens_for(&app, &mut browser, &client_id, MCP_RESOURCE).await;
    let access = tokens["access_token"].as_str().unwrap();
    assert_eq!(mcp_status(&app, "get_account", json!({}), access).await.0, 200);
    let (status, _, page) = browser.get(&app.url("/account")).await;
    assert_eq!(status, 200);
    assert!(page.contains("Connected apps") && page.contains(&format!("value=\"{client_id}\"")), "the app is listed");
    assert!(page.contains("account:read"), "with the scopes it holds");
    let csrf = hidden(&page, "csrf");
    // Someone else's app, or a made-up one: not found, nothing revoked.
    let (status, _, _) = browser.post_form(&app.url("/account/apps/disconnect"), &[("csrf", &csrf), ("client_id", "ldcl_not-mine")]).await;
    assert_eq!(status, 404);
    let (status, _, _) = browser.post_form(&app.url("/account/apps/disconnect"), &[("csrf", "forged"), ("client_id", &client_id)]).await;
    assert_eq!(status, 403);
    assert_eq!(mcp_status(&app, "get_account", json!({}), access).await.0, 200, "still connected");
    let (status, headers, _) = browser.post_form(&app.url("/account/apps/disconnect"), &[("csrf", &csrf), ("client_id", &client_id)]).await;
    assert_eq!((status, location(&headers).as_str()), (303, "/account"));
    assert_eq!(mcp_status(&app, "get_account", json!({}), access).await.0, 401, "its access token stops working at once");
    let refresh = tokens["refresh_token"].as_str().unwrap();
    let (status, _) = token(&app, &[("grant_type", "refresh_token"), ("refresh_token", refresh), ("client_id", &client_id)]).await;
    assert_eq!(status, 400, "and so does its refresh token");
    let (_, _, page) = browser.get(&app.url("/account")).await;
    assert!(page.contains("No app is connected."));
}

/// A hidden field's value as a form would send it (the page escapes `&`).
fn field(html: &str, name: &str) -> String {
    hidden(html, name).replace("&#38;", "&")
}

/// Follows the confirmation link last e-mailed to `email` in the browser that asked for it and
/// confirms: the link carries nothing the person typed, the browser remembers `next`, and the
/// page that says the address is confirmed leads back there. Returns where it leads.
async fn confirm_by_link(app: &TestApp, browser: &mut Browser, email: &str, next: &str) -> String {
    let outbox = app.services.store.outbox(500).await.unwrap();
    let mail = outbox.iter().find(|mail| mail.to == email && mail.kind == "confirm_email").expect("a confirmation link was e-mailed");
    let link = mail.body.split_whitespace().find(|word| word.contains("/account/confirm?token=")).unwrap();
    assert!(!link.contains("next"), "the mail carries nothing the person typed: {link}");
    let (status, _, page) = browser.get(&app.url(&link.replace("https://launch.example", ""))).await;
    assert_eq!(status, 200, "{page}");
    assert_eq!(field(&page, "next"), next, "the link's page keeps the way back");
    let form = [("token", field(&page, "token")), ("next", field(&page, "next"))];
    let pairs: Vec<(&str, &str)> = form.iter().map(|(k, v)| (*k, v.as_str())).collect();
    let (status, _, confirmed) = browser.post_form(&app.url("/account/confirm"), &pairs).await;
    assert_eq!(status, 200, "{confirmed}");
    assert!(confirmed.contains("is confirmed"), "{confirmed}");
    let back = confirmed.split(r#"<a id="continue" href=""#).nth(1).expect("a way back").split('"').next().unwrap().replace("&#38;", "&");
    assert_eq!(back, next, "it leads back where the person was asked to confirm");
    back
}

/// Opens `path` as the person with `email`: when the page sends them to sign in first, signs in
/// (which comes back to `path`) and opens it again.
async fn open_signed_in(app: &TestApp, browser: &mut Browser, path: &str, email: &str) -> (u16, String) {
    let (status, headers, page) = browser.get(&app.url(path)).await;
    if status != 302 {
        return (status, page);
    }
    let signin = location(&headers);
    assert!(signin.starts_with("/signin?next="), "{signin}");
    let (_, _, form) = browser.get(&app.url(&signin)).await;
    let csrf = hidden(&form, "csrf");
    let (status, headers, body) = browser
        .post_form(&app.url("/signin"), &[("csrf", &csrf), ("next", path), ("email", email), ("password", "correct horse battery")])
        .await;
    assert_eq!(status, 303, "{body}");
    assert_eq!(location(&headers), path);
    let (status, _, page) = browser.get(&app.url(path)).await;
    (status, page)
}

#[tokio::test]
async fn signing_up_during_an_apps_sign_in_asks_to_confirm_first_and_the_link_leads_back_to_the_consent_page() {
    let app = spawn_app().await;
    let client_id = register(&app).await;
    let mut browser = Browser::new();
    let (status, headers, _) = browser.get(&authorize_url(&app, &client_id, &pkce(), "account:read", MCP_RESOURCE)).await;
    assert_eq!(status, 302);
    let next = query_of(&location(&headers))["next"].clone();
    assert!(next.starts_with("/oauth/authorize?"), "{next}");
    let encoded = serde_urlencoded::to_string([("", &next)]).unwrap().trim_start_matches('=').to_owned();
    let (_, _, page) = browser.get(&app.url(&format!("/signup?next={encoded}"))).await;
    let csrf = hidden(&page, "csrf");
    let email = format!("person-{}@example.com", uuid::Uuid::new_v4().simple());
    let (status, _, body) = browser
        .post_form(
            &app.url("/signup"),
            &[("csrf", &csrf), ("next", &next), ("name", "Ada"), ("email", &email), ("password", "correct horse battery")],
        )
        .await;
    assert!(matches!(status, 200 | 303), "{status}: {body}");

    let back = confirm_by_link(&app, &mut browser, &email, &next).await;
    let (status, consent_page) = open_signed_in(&app, &mut browser, &back, &email).await;
    assert_eq!(status, 200, "{consent_page}");
    assert!(consent_page.contains("Allow Test Agent to use your account?"), "back on the consent page: {consent_page}");
    let answer = consent(&app, &mut browser, &consent_page, "allow", &["account:read"]).await;
    assert!(answer.contains_key("code"), "{answer:?}");
}

#[tokio::test]
async fn an_unconfirmed_account_is_asked_to_confirm_instead_of_consenting_and_no_code_goes_to_the_app() {
    let app = spawn_app().await;
    let client_id = register(&app).await;
    let pkce = pkce();
    let authorize = authorize_url(&app, &client_id, &pkce, "account:read", MCP_RESOURCE);
    let next = authorize.replace(&app.address, "");
    // Signed in with an address nobody proved: anyone can sign up with anyone's address.
    let email = format!("unproven-{}@example.com", uuid::Uuid::new_v4().simple());
    let session = app.services.app.accounts.signin.sign_up(&email, "Not the owner", "correct horse battery").await.unwrap();
    let mut browser = Browser::new();
    browser.cookies.insert("ld_session".into(), session.token.clone());

    let (status, headers, page) = browser.get(&authorize).await;
    assert_eq!(status, 403, "{page}");
    assert!(headers.get(LOCATION).is_none());
    assert!(page.contains("Confirm your e-mail address first") && page.contains("Test Agent asks to use your account"), "{page}");
    assert!(!page.contains(r#"name="decision""#), "nothing to allow: {page}");
    assert_eq!(field(&page, "next"), next, "the button's link leads back to this consent page");

    // The consent form sent anyway is refused: no code goes to the app.
    let form = [
        ("csrf", session.csrf_token.as_str()),
        ("client_id", client_id.as_str()),
        ("redirect_uri", REDIRECT),
        ("response_type", "code"),
        ("code_challenge", pkce.challenge.as_str()),
        ("code_challenge_method", "S256"),
        ("resource", MCP_RESOURCE),
        ("scope", "account:read"),
        ("state", "s-123"),
        ("decision", "allow"),
        ("allow", "account:read"),
    ];
    let (status, headers, page) = browser.post_form(&app.url("/oauth/authorize"), &form).await;
    assert_eq!(status, 403, "{page}");
    assert!(headers.get(LOCATION).is_none(), "no redirect, no code: {page}");
    assert!(page.contains("Confirm your e-mail address first"), "{page}");
    assert!(app.services.app.accounts.oauth.connected_apps(session.user.id).await.unwrap().is_empty());

    // The page's button sends a link; confirming leads back to the consent page, which now asks.
    let (status, _, sent) = browser.post_form(&app.url("/account/confirm/resend"), &[("csrf", &session.csrf_token), ("next", &next)]).await;
    assert_eq!(status, 200, "{sent}");
    let back = confirm_by_link(&app, &mut browser, &email, &next).await;
    let (status, consent_page) = open_signed_in(&app, &mut browser, &back, &email).await;
    assert_eq!(status, 200, "{consent_page}");
    let answer = consent(&app, &mut browser, &consent_page, "allow", &["account:read"]).await;
    assert!(answer.contains_key("code"), "{answer:?}");
}
