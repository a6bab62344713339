//! The account page (`/account`): the address and whether it is confirmed, API keys (create
//! with chosen scopes, the key shown once; list with prefix and last use; revoke), connected
//! apps (OAuth clients holding live tokens: name, scopes, last use; disconnect) and signing
//! out everywhere. Every change is a POST with the session's CSRF token from this site.

use crate::{WebState, message, session};
use accounts::{AccountsError, ApiKey, Scope, Scopes};
use actix_web::http::StatusCode;
use actix_web::{HttpRequest, HttpResponse, web};
use askama::Template;
use kernel::ApiKeyId;
use serde::Deserialize;
use time::format_description::well_known::Rfc3339;

/// A key as the page lists it.
struct KeyRow {
    id: i64,
    name: String,
    prefix: String,
    scopes: String,
    created: String,
    last_used: String,
    revoked: bool,
}

fn day(at: time::OffsetDateTime) -> String {
    at.format(&Rfc3339).map(|text| text.chars().take(10).collect()).unwrap_or_default()
}

impl KeyRow {
    fn of(key: &ApiKey) -> Self {
        Self {
            id: key.id.get(),
            name: key.name.clone(),
            prefix: key.prefix.clone(),
            scopes: key.scopes.iter().map(Scope::as_str).collect::<Vec<_>>().join(", "),
            created: day(key.created_at),
            last_used: key.last_used_at.map_or_else(|| "never".to_owned(), day),
            revoked: key.revoked_at.is_some(),
        }
    }
}

/// A connected app as the page lists it.
struct AppRow {
    client_id: String,
    name: String,
    scopes: String,
    since: String,
    last_used: String,
}

impl AppRow {
    fn of(app: &accounts::oauth::ConnectedApp) -> Self {
        Self {
            client_id: app.client_id.clone(),
            name: app.client_name.clone(),
            scopes: app.scopes.iter().map(Scope::as_str).collect::<Vec<_>>().join(", "),
            since: day(app.since),
            last_used: app.last_used_at.map_or_else(|| "never".to_owned(), day),
        }
    }
}

#[derive(Template)]
#[template(path = "account.html")]
struct AccountPage<'a> {
    site_name: &'a str,
    email: String,
    confirmed: bool,
    csrf: String,
    keys: Vec<KeyRow>,
    apps: Vec<AppRow>,
    scopes: [&'static str; 3],
    /// A key just created: shown once.
    new_key: Option<String>,
    /// The key name the form was sent with, and what was wrong with it.
    name: String,
    error: Option<String>,
}

async fn render(
    state: &WebState,
    request: &HttpRequest,
    status: StatusCode,
    new_key: Option<String>,
    name: &str,
    error: Option<String>,
) -> HttpResponse {
    let Some(session) = session(state, request).await else {
        return HttpResponse::SeeOther().insert_header(("Location", "/signin?next=%2Faccount")).finish();
    };
    let (keys, apps) = tokio::join!(state.app.accounts.list_api_keys(&session.user.email), state.app.oauth.connected_apps(session.user.id));
    let (keys, apps) = match (keys, apps) {
        (Ok(keys), Ok(apps)) => (keys, apps),
        (Err(err), _) => return failed(state, &err),
        (_, Err(err)) => return failed(state, &err),
    };
    let page = AccountPage {
        site_name: &state.app.site.name,
        email: session.user.email.to_string(),
        confirmed: session.user.email_confirmed_at.is_some(),
        csrf: session.csrf_token,
        keys: keys.iter().map(KeyRow::of).collect(),
        apps: apps.iter().map(AppRow::of).collect(),
        scopes: Scope::ALL.map(Scope::as_str),
        new_key,
        name: name.to_owned(),
        error,
    };
    crate::html(status, &page)
}

fn failed(state: &WebState, err: &dyn std::fmt::Display) -> HttpResponse {
    tracing::error!(error = %err, "the account page could not be read");
    message(state, StatusCode::INTERNAL_SERVER_ERROR, "Something went wrong", "Please try again in a moment.")
}

pub async fn show(state: web::Data<WebState>, request: HttpRequest) -> HttpResponse {
    render(&state, &request, StatusCode::OK, None, "", None).await
}

/// The signed-in session of a form post from this site with its CSRF token, else the answer.
async fn checked(state: &WebState, request: &HttpRequest, csrf: &str) -> Result<accounts::signin::Session, HttpResponse> {
    let Some(session) = session(state, request).await else {
        return Err(HttpResponse::SeeOther().insert_header(("Location", "/signin?next=%2Faccount")).finish());
    };
    if !crate::signed_form_ok(state, request, &session, csrf) {
        return Err(message(state, StatusCode::FORBIDDEN, "Nothing changed", "The form expired; go back, reload the page and try again."));
    }
    Ok(session)
}

pub async fn create_key(state: web::Data<WebState>, request: HttpRequest, form: web::Form<Vec<(String, String)>>) -> HttpResponse {
    let value = |name: &str| form.iter().find(|(key, _)| key == name).map(|(_, value)| value.as_str()).unwrap_or("");
    let session = match checked(&state, &request, value("csrf")).await {
        Ok(session) => session,
        Err(answer) => return answer,
    };
    let chosen: Option<Scopes> = form.iter().filter(|(key, _)| key == "scope").map(|(_, value)| Scope::parse(value)).collect();
    let Some(scopes) = chosen.filter(|scopes| !scopes.is_empty()) else {
        return render(&state, &request, StatusCode::BAD_REQUEST, None, value("name"), Some("Choose at least one scope.".into())).await;
    };
    match state.app.accounts.create_api_key(&session.user.email, Some(value("name")), scopes).await {
        Ok(created) => render(&state, &request, StatusCode::CREATED, Some(created.secret.expose().to_owned()), "", None).await,
        Err(AccountsError::Invalid { message, .. }) => {
            render(&state, &request, StatusCode::BAD_REQUEST, None, value("name"), Some(format!("The name {message}."))).await
        }
        Err(err) => {
            tracing::error!(error = %err, "an API key could not be created");
            message(&state, StatusCode::INTERNAL_SERVER_ERROR, "Something went wrong", "Please try again in a moment.")
        }
    }
}

#[derive(Debug, Deserialize)]
pub struct CsrfForm {
    #[serde(default)]
    csrf: String,
}

pub async fn revoke_key(state: web::Data<WebState>, request: HttpRequest, path: web::Path<i64>, form: web::Form<CsrfForm>) -> HttpResponse {
    let session = match checked(&state, &request, &form.csrf).await {
        Ok(session) => session,
        Err(answer) => return answer,
    };
    match state.app.accounts.revoke_own_api_key(session.user.id, ApiKeyId::new(path.into_inner())).await {
        Ok(_) => HttpResponse::SeeOther().insert_header(("Location", "/account")).finish(),
        Err(AccountsError::UnknownKey) => message(&state, StatusCode::NOT_FOUND, "No such key", "You have no API key with this number."),
        Err(err) => {
            tracing::error!(error = %err, "an API key could not be revoked");
            message(&state, StatusCode::INTERNAL_SERVER_ERROR, "Something went wrong", "Please try again in a moment.")
        }
    }
}

pub async fn sign_out_everywhere(state: web::Data<WebState>, request: HttpRequest, form: web::Form<CsrfForm>) -> HttpResponse {
    let session = match checked(&state, &request, &form.csrf).await {
        Ok(session) => session,
        Err(answer) => return answer,
    };
    match state.app.signin.sign_out_everywhere(session.user.id).await {
        Ok(ended) => {
            let mut response = message(
                &state,
                StatusCode::OK,
                "Signed out everywhere",
                &format!("{ended} signed-in {} ended, this one included.", if ended == 1 { "session" } else { "sessions" }),
            );
            let mut gone = crate::cookie(&state, crate::SESSION_COOKIE, String::new());
            gone.make_removal();
            let _ = response.add_cookie(&gone);
            response
        }
        Err(err) => {
            tracing::error!(error = %err, "sessions could not be ended");
            message(&state, StatusCode::INTERNAL_SERVER_ERROR, "Something went wrong", "Please try again in a moment.")
        }
    }
}

#[derive(Debug, Deserialize)]
pub struct DisconnectForm {
    #[serde(default)]
    csrf: String,
    #[serde(default)]
    client_id: String,
}

pub async fn disconnect_app(state: web::Data<WebState>, request: HttpRequest, form: web::Form<DisconnectForm>) -> HttpResponse {
    let session = match checked(&state, &request, &form.csrf).await {
        Ok(session) => session,
        Err(answer) => return answer,
    };
    match state.app.oauth.disconnect(session.user.id, &form.client_id).await {
        Ok(true) => HttpResponse::SeeOther().insert_header(("Location", "/account")).finish(),
        Ok(false) => message(&state, StatusCode::NOT_FOUND, "No such app", "No app you connected has this name."),
        Err(err) => failed(&state, &err),
    }
}
