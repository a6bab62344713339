//! The OAuth 2.1 authorization server: metadata (RFC 8414), registration (RFC 7591),
//! authorization with the consent page, tokens and revocation. An account whose address is not
//! confirmed is asked to confirm instead of deciding (`accounts::oauth::may_authorize`), with a
//! link that leads back to the same consent page.

use crate::{PageError, WebState, html, percent_encode};
use accounts::Scope;
use accounts::oauth::{AuthorizationRequest, ClientRegistration, OAuthError, granted_scopes};
use actix_web::http::StatusCode;
use actix_web::{HttpRequest, HttpResponse, web};
use askama::Template;
use serde::Deserialize;
use serde_json::json;
use std::collections::HashMap;

pub async fn metadata(state: web::Data<WebState>) -> HttpResponse {
    let site = &state.site_url;
    HttpResponse::Ok().json(json!({
        "issuer": site,
        "authorization_endpoint": format!("{site}/oauth/authorize"),
        "token_endpoint": format!("{site}/oauth/token"),
        "registration_endpoint": format!("{site}/oauth/register"),
        "revocation_endpoint": format!("{site}/oauth/revoke"),
        "response_types_supported": ["code"],
        "response_modes_supported": ["query"],
        "grant_types_supported": ["authorization_code", "refresh_token"],
        "code_challenge_methods_supported": ["S256"],
        "token_endpoint_auth_methods_supported": ["none"],
        "revocation_endpoint_auth_methods_supported": ["none"],
        "scopes_supported": Scope::ALL.iter().map(|s| s.as_str()).collect::<Vec<_>>(),
        "client_id_metadata_document_supported": true,
        "authorization_response_iss_parameter_supported": true,
        "service_documentation": format!("{site}/docs/api"),
    }))
}

fn oauth_error(status: StatusCode, error: &OAuthError) -> HttpResponse {
    HttpResponse::build(status)
        .insert_header(("Cache-Control", "no-store"))
        .json(json!({"error": error.error, "error_description": error.description}))
}

#[derive(Debug, Deserialize)]
pub struct RegistrationBody {
    #[serde(default)]
    redirect_uris: Vec<String>,
    client_name: Option<String>,
    token_endpoint_auth_method: Option<String>,
    #[serde(default)]
    grant_types: Vec<String>,
}

pub async fn register(state: web::Data<WebState>, body: web::Bytes) -> HttpResponse {
    let Ok(body) = serde_json::from_slice::<RegistrationBody>(&body) else {
        return oauth_error(
            StatusCode::BAD_REQUEST,
            &OAuthError::new("invalid_client_metadata", "the body must be a JSON client metadata object"),
        );
    };
    let registration = ClientRegistration {
        client_name: body.client_name,
        redirect_uris: body.redirect_uris,
        token_endpoint_auth_method: body.token_endpoint_auth_method,
        grant_types: body.grant_types,
    };
    match state.app.accounts.oauth.register(registration).await {
        Ok(client) => HttpResponse::Created().insert_header(("Cache-Control", "no-store")).json(json!({
            "client_id": client.client_id,
            "client_id_issued_at": client.created_at.unix_timestamp(),
            "client_name": client.client_name,
            "redirect_uris": client.redirect_uris,
            "token_endpoint_auth_method": "none",
            "grant_types": ["authorization_code", "refresh_token"],
            "response_types": ["code"],
        })),
        Err(error) => oauth_error(StatusCode::BAD_REQUEST, &error),
    }
}

/// The client's redirect URI with `pairs` added to its query.
fn location(uri: &str, pairs: &[(&str, &str)]) -> String {
    let query = serde_urlencoded::to_string(pairs).unwrap_or_default();
    let separator = if uri.contains('?') { '&' } else { '?' };
    format!("{uri}{separator}{query}")
}

fn redirect_to(uri: &str, pairs: &[(&str, &str)]) -> HttpResponse {
    HttpResponse::Found().insert_header(("Location", location(uri, pairs))).insert_header(("Cache-Control", "no-store")).finish()
}

fn error_location(state: &WebState, uri: &str, error: &OAuthError, params: &HashMap<String, String>) -> String {
    let mut pairs = vec![("error", error.error), ("error_description", error.description.as_str()), ("iss", state.site_url.as_str())];
    if let Some(state_value) = params.get("state") {
        pairs.push(("state", state_value));
    }
    location(uri, &pairs)
}

/// Sends an error back to the client: only after the person acted on the consent page.
fn error_redirect(state: &WebState, uri: &str, error: &OAuthError, params: &HashMap<String, String>) -> HttpResponse {
    HttpResponse::Found()
        .insert_header(("Location", error_location(state, uri, error, params)))
        .insert_header(("Cache-Control", "no-store"))
        .finish()
}

/// The parameters of the authorization request that the consent form carries on.
const CARRIED: [&str; 8] =
    ["client_id", "redirect_uri", "response_type", "code_challenge", "code_challenge_method", "resource", "scope", "state"];

#[derive(Template)]
#[template(path = "consent.html")]
struct ConsentPage<'a> {
    site_name: &'a str,
    client_name: &'a str,
    redirect_host: &'a str,
    user_email: &'a str,
    csrf: &'a str,
    params: Vec<(&'a str, &'a str)>,
    scopes: Vec<(&'static str, &'static str)>,
}

fn describe(scope: Scope) -> &'static str {
    match scope {
        Scope::AccountRead => "see your account, drafts, listings, claims and orders",
        Scope::ListingsWrite => "submit and edit your drafts and listings, and claim listings",
        Scope::OrdersWrite => "get price quotes and start checkouts (you always pay yourself, on the site)",
    }
}

fn redirect_host(uri: &str) -> &str {
    accounts::oauth::uri_host(uri).unwrap_or(uri)
}

/// Checks an authorization request. Errors are shown as a page, never redirected on their
/// own: anyone can register a client, so an automatic redirect would make the site an open
/// redirector (RFC 9700, 4.11.2). When the redirect URI is the client's, the page offers a
/// link that takes the error back to it.
async fn checked(state: &WebState, params: &HashMap<String, String>) -> Result<AuthorizationRequest, HttpResponse> {
    state.app.accounts.oauth.check_authorization(params).await.map_err(|(error, redirect)| {
        let text = format!("{}: {}", error.error, error.description);
        let site_name = &state.app.site.name;
        match redirect {
            Some(uri) => {
                let back = error_location(state, &uri, &error, params);
                html(StatusCode::BAD_REQUEST, &ErrorPage { site_name, message: &text, back: Some(&back), back_host: redirect_host(&uri) })
            }
            None => html(StatusCode::BAD_REQUEST, &ErrorPage { site_name, message: &text, back: None, back_host: "" }),
        }
    })
}

#[derive(Template)]
#[template(path = "authorize_error.html")]
struct ErrorPage<'a> {
    site_name: &'a str,
    message: &'a str,
    back: Option<&'a str>,
    back_host: &'a str,
}

#[derive(Template)]
#[template(path = "consent_confirm.html")]
struct ConfirmFirstPage<'a> {
    site_name: &'a str,
    client_name: &'a str,
    user_email: &'a str,
    csrf: &'a str,
    /// This authorization request, for the confirmation link to lead back to.
    next: &'a str,
}

/// What the consent page is for an account whose address is not confirmed: a request to
/// confirm first, and a new link that leads back to `next` (this authorization request).
fn confirm_first(state: &WebState, session: &accounts::signin::Session, authorization: &AuthorizationRequest, next: &str) -> HttpResponse {
    let page = ConfirmFirstPage {
        site_name: &state.app.site.name,
        client_name: &authorization.client.client_name,
        user_email: session.user.email.as_str(),
        csrf: &session.csrf_token,
        next,
    };
    let mut answer = html(StatusCode::FORBIDDEN, &page);
    // Any confirmation link of the account, opened in this browser, leads back here.
    crate::confirm::remember_next(state, &mut answer, next);
    answer
}

pub async fn authorize_page(state: web::Data<WebState>, request: HttpRequest) -> HttpResponse {
    let params: HashMap<String, String> = serde_urlencoded::from_str(request.query_string()).unwrap_or_default();
    let authorization = match checked(&state, &params).await {
        Ok(authorization) => authorization,
        Err(response) => return response,
    };
    let Some(session) = crate::session(&state, &request).await else {
        let next = format!("/oauth/authorize?{}", request.query_string());
        return HttpResponse::Found().insert_header(("Location", format!("/signin?next={}", percent_encode(&next)))).finish();
    };
    if accounts::oauth::may_authorize(&session.user).is_err() {
        return confirm_first(&state, &session, &authorization, &format!("/oauth/authorize?{}", request.query_string()));
    }
    let carried: Vec<(&str, &str)> = CARRIED.iter().filter_map(|key| params.get(*key).map(|value| (*key, value.as_str()))).collect();
    let page = ConsentPage {
        site_name: &state.app.site.name,
        client_name: &authorization.client.client_name,
        redirect_host: redirect_host(&authorization.redirect_uri),
        user_email: session.user.email.as_str(),
        csrf: &session.csrf_token,
        params: carried,
        scopes: authorization.scopes.iter().map(|scope| (scope.as_str(), describe(scope))).collect(),
    };
    // Allowing or denying sends the person on to the app's redirect address.
    crate::html_posting_to(StatusCode::OK, &page, Some(&authorization.redirect_uri))
}

pub async fn authorize_decision(state: web::Data<WebState>, request: HttpRequest, body: web::Bytes) -> Result<HttpResponse, PageError> {
    let pairs: Vec<(String, String)> = serde_urlencoded::from_bytes(&body).unwrap_or_default();
    let mut params = HashMap::new();
    let mut allowed = Vec::new();
    let (mut csrf, mut decision) = (String::new(), String::new());
    for (key, value) in pairs {
        match key.as_str() {
            "csrf" => csrf = value,
            "decision" => decision = value,
            "allow" => allowed.push(value),
            key if CARRIED.contains(&key) => {
                params.insert(key.to_owned(), value);
            }
            _ => {}
        }
    }
    let Some(session) = crate::session(&state, &request).await else {
        let detail = "Your session ended; open the application's sign-in link again.";
        return Err(PageError::new(StatusCode::UNAUTHORIZED, "Please sign in again", detail));
    };
    // The consent's own form, from this site: signing in again starts at the app's link.
    crate::guard::own_form(&state, &request, &session, &csrf, "/account")?;
    let authorization = checked(&state, &params).await?;
    if decision != "allow" {
        let denied = OAuthError::new("access_denied", "the person denied access");
        return Ok(error_redirect(&state, &authorization.redirect_uri, &denied, &params));
    }
    // `approve` refuses such an account too; the page says what to do instead.
    if accounts::oauth::may_authorize(&session.user).is_err() {
        let carried: Vec<(&str, &str)> = CARRIED.iter().filter_map(|key| params.get(*key).map(|value| (*key, value.as_str()))).collect();
        let query = serde_urlencoded::to_string(&carried).unwrap_or_default();
        return Ok(confirm_first(&state, &session, &authorization, &format!("/oauth/authorize?{query}")));
    }
    match state.app.accounts.oauth.approve(&session.user, &authorization, granted_scopes(&allowed)).await {
        Ok(code) => {
            let mut pairs = vec![("code", code.as_str()), ("iss", state.site_url.as_str())];
            if let Some(value) = &authorization.state {
                pairs.push(("state", value));
            }
            Ok(redirect_to(&authorization.redirect_uri, &pairs))
        }
        Err(error) if error.error == "invalid_scope" => {
            Err(PageError::new(StatusCode::BAD_REQUEST, "Choose what to allow", "Tick at least one permission, or choose Deny."))
        }
        Err(error) => Ok(error_redirect(&state, &authorization.redirect_uri, &error, &params)),
    }
}

pub async fn token(state: web::Data<WebState>, body: web::Bytes) -> HttpResponse {
    let form: HashMap<String, String> = match serde_urlencoded::from_bytes(&body) {
        Ok(form) => form,
        Err(_) => {
            return oauth_error(
                StatusCode::BAD_REQUEST,
                &OAuthError::new("invalid_request", "the body must be application/x-www-form-urlencoded"),
            );
        }
    };
    let get = |key: &str| form.get(key).map(String::as_str).filter(|v| !v.is_empty());
    let Some(client_id) = get("client_id") else {
        return oauth_error(StatusCode::UNAUTHORIZED, &OAuthError::new("invalid_client", "client_id is missing"));
    };
    if let Err(error) = state.app.accounts.oauth.client(client_id).await {
        return oauth_error(StatusCode::UNAUTHORIZED, &error);
    }
    let issued = match get("grant_type") {
        Some("authorization_code") => {
            let (Some(code), Some(redirect_uri)) = (get("code"), get("redirect_uri")) else {
                return oauth_error(StatusCode::BAD_REQUEST, &OAuthError::new("invalid_request", "code and redirect_uri are required"));
            };
            state.app.accounts.oauth.exchange_code(code, client_id, redirect_uri, get("code_verifier"), get("resource")).await
        }
        Some("refresh_token") => {
            let Some(refresh) = get("refresh_token") else {
                return oauth_error(StatusCode::BAD_REQUEST, &OAuthError::new("invalid_request", "refresh_token is required"));
            };
            state.app.accounts.oauth.refresh(refresh, client_id, get("scope"), get("resource")).await
        }
        _ => Err(OAuthError::new("unsupported_grant_type", "grant_type must be authorization_code or refresh_token")),
    };
    match issued {
        Ok(tokens) => HttpResponse::Ok().insert_header(("Cache-Control", "no-store")).insert_header(("Pragma", "no-cache")).json(json!({
            "access_token": tokens.access_token,
            "token_type": "Bearer",
            "expires_in": tokens.expires_in,
            "refresh_token": tokens.refresh_token,
            "scope": tokens.scopes.to_text(),
        })),
        Err(error) if error.error == "server_error" => oauth_error(StatusCode::INTERNAL_SERVER_ERROR, &error),
        Err(error) => oauth_error(StatusCode::BAD_REQUEST, &error),
    }
}

pub async fn revoke(state: web::Data<WebState>, body: web::Bytes) -> HttpResponse {
    let form: HashMap<String, String> = serde_urlencoded::from_bytes(&body).unwrap_or_default();
    match (form.get("token"), form.get("client_id")) {
        (Some(token), Some(client_id)) => match state.app.accounts.oauth.revoke(token, client_id).await {
            Ok(()) => HttpResponse::Ok().finish(),
            Err(error) if error.error == "server_error" => oauth_error(StatusCode::SERVICE_UNAVAILABLE, &error),
            Err(error) => oauth_error(StatusCode::BAD_REQUEST, &error),
        },
        _ => oauth_error(StatusCode::BAD_REQUEST, &OAuthError::new("invalid_request", "token and client_id are required")),
    }
}
