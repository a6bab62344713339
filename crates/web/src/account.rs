//! The account page (`/account`): the address and whether it is confirmed, what the person owns
//! (listings, drafts, orders: `mine`), API keys (create with chosen scopes, the key shown once;
//! list with prefix and last use; revoke), connected apps (OAuth clients holding live tokens:
//! name, scopes, last use; disconnect), changing the password, signing out everywhere and
//! closing the account. Every change is a POST with the session's CSRF token from this site.
//! The two forms that ask for the password again wait as sign-in does after wrong guesses (the
//! same throttle, per client address and per client and account): 429 with `Retry-After`, the
//! wait shown beside the field, nothing changed.

use crate::site::plural;
use crate::{CsrfForm, PageError, SignedInPost, WebState, message};
use accounts::{AccountsError, ApiKey, OwnAccountError, Scope, Scopes};
use actix_web::http::StatusCode;
use actix_web::{HttpRequest, HttpResponse, web};
use askama::Template;
use kernel::ApiKeyId;
use serde::Deserialize;

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

impl KeyRow {
    fn of(key: &ApiKey) -> Self {
        Self {
            id: key.id.get(),
            name: key.name.clone(),
            prefix: key.prefix.clone(),
            scopes: key.scopes.iter().map(Scope::as_str).collect::<Vec<_>>().join(", "),
            created: crate::dates::long_date(key.created_at),
            last_used: key.last_used_at.map_or_else(|| "never".to_owned(), crate::dates::long_date),
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
            since: crate::dates::long_date(app.since),
            last_used: app.last_used_at.map_or_else(|| "never".to_owned(), crate::dates::long_date),
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
    owned: crate::mine::Owned,
    /// What was wrong with the password change or the closing, by field.
    problems: Vec<(&'static str, String)>,
}

impl AccountPage<'_> {
    fn problem(&self, field: &str) -> Option<&str> {
        self.problems.iter().find(|(name, _)| *name == field).map(|(_, message)| message.as_str())
    }
}

/// The account page; `problems` are the password and closing forms' errors, by field.
async fn render(
    state: &WebState,
    request: &HttpRequest,
    status: StatusCode,
    new_key: Option<String>,
    name: &str,
    error: Option<String>,
    problems: Vec<(&'static str, String)>,
) -> Result<HttpResponse, PageError> {
    let session = crate::guard::signed_in(state, request).await?;
    let person = crate::guard::as_person(&session, request);
    let (keys, apps, owned) = tokio::join!(
        state.app.accounts.users.list_api_keys(&session.user.email),
        state.app.accounts.oauth.connected_apps(session.user.id),
        crate::mine::owned(state, &person),
    );
    let failed = |err: &dyn std::fmt::Display| PageError::failed("the account page could not be read", err);
    let (keys, apps, owned) = (keys.map_err(|err| failed(&err))?, apps.map_err(|err| failed(&err))?, owned?);
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
        owned,
        problems,
    };
    Ok(crate::html(status, &page))
}

pub async fn show(state: web::Data<WebState>, request: HttpRequest) -> Result<HttpResponse, PageError> {
    render(&state, &request, StatusCode::OK, None, "", None, Vec::new()).await
}

/// Creates a key; an account whose address is not confirmed is refused (403) and the page shows
/// the way to confirm, with a link back here.
pub async fn create_key(
    state: web::Data<WebState>,
    request: HttpRequest,
    SignedInPost { session, form, .. }: SignedInPost<Vec<(String, String)>>,
) -> Result<HttpResponse, PageError> {
    let value = |name: &str| form.iter().find(|(key, _)| key == name).map(|(_, value)| value.as_str()).unwrap_or("");
    let chosen: Option<Scopes> = form.iter().filter(|(key, _)| key == "scope").map(|(_, value)| Scope::parse(value)).collect();
    let Some(scopes) = chosen.filter(|scopes| !scopes.is_empty()) else {
        return render(
            &state,
            &request,
            StatusCode::BAD_REQUEST,
            None,
            value("name"),
            Some("Choose at least one scope.".into()),
            Vec::new(),
        )
        .await;
    };
    match state.app.accounts.users.create_api_key(&session.user.email, Some(value("name")), scopes).await {
        Ok(created) => render(&state, &request, StatusCode::CREATED, Some(created.secret.expose().to_owned()), "", None, Vec::new()).await,
        Err(AccountsError::Invalid { message, .. }) => {
            render(&state, &request, StatusCode::BAD_REQUEST, None, value("name"), Some(format!("The name {message}.")), Vec::new()).await
        }
        // The page shows the way to confirm in place of the form.
        Err(AccountsError::Unconfirmed) => {
            let refused = Some("Confirm your e-mail address first.".to_owned());
            render(&state, &request, StatusCode::FORBIDDEN, None, value("name"), refused, Vec::new()).await
        }
        Err(err) => Err(PageError::failed("an API key could not be created", &err)),
    }
}

pub async fn revoke_key(
    state: web::Data<WebState>,
    path: web::Path<i64>,
    SignedInPost { session, .. }: SignedInPost<CsrfForm>,
) -> Result<HttpResponse, PageError> {
    match state.app.accounts.users.revoke_own_api_key(session.user.id, ApiKeyId::new(path.into_inner())).await {
        Ok(_) => Ok(HttpResponse::SeeOther().insert_header(("Location", "/account")).finish()),
        Err(AccountsError::UnknownKey) => {
            Err(PageError::new(StatusCode::NOT_FOUND, "No such key", "You have no API key with this number."))
        }
        Err(err) => Err(PageError::failed("an API key could not be revoked", &err)),
    }
}

pub async fn sign_out_everywhere(
    state: web::Data<WebState>,
    SignedInPost { session, .. }: SignedInPost<CsrfForm>,
) -> Result<HttpResponse, PageError> {
    let ended = state
        .app
        .accounts
        .signin
        .sign_out_everywhere(session.user.id)
        .await
        .map_err(|err| PageError::failed("sessions could not be ended", &err))?;
    let text = format!("{ended} signed-in {} ended, this one included.", if ended == 1 { "session" } else { "sessions" });
    let mut response = message(&state, StatusCode::OK, "Signed out everywhere", &text);
    signed_out(&state, &mut response);
    Ok(response)
}

#[derive(Debug, Deserialize)]
pub struct DisconnectForm {
    #[serde(default)]
    csrf: String,
    #[serde(default)]
    client_id: String,
}

crate::guard::token_in_csrf_field!(DisconnectForm);

pub async fn disconnect_app(
    state: web::Data<WebState>,
    SignedInPost { session, form, .. }: SignedInPost<DisconnectForm>,
) -> Result<HttpResponse, PageError> {
    match state.app.accounts.oauth.disconnect(session.user.id, &form.client_id).await {
        Ok(true) => Ok(HttpResponse::SeeOther().insert_header(("Location", "/account")).finish()),
        Ok(false) => Err(PageError::new(StatusCode::NOT_FOUND, "No such app", "No app you connected has this name.")),
        Err(err) => Err(PageError::failed("an app could not be disconnected", &err)),
    }
}

#[derive(Debug, Deserialize)]
pub struct PasswordForm {
    #[serde(default)]
    csrf: String,
    #[serde(default)]
    current_password: String,
    #[serde(default)]
    new_password: String,
}

crate::guard::token_in_csrf_field!(PasswordForm);

/// Sets a new password: every session ends, this one too, every API key and connected app too
/// (`accounts::AccessRevocation`, which e-mails the address), and the person signs in again.
pub async fn change_password(
    state: web::Data<WebState>,
    request: HttpRequest,
    SignedInPost { session, form, .. }: SignedInPost<PasswordForm>,
) -> Result<HttpResponse, PageError> {
    let client = crate::client_of(&request);
    match state.app.accounts.own_account.change_password(client, &session.user, &form.current_password, &form.new_password).await {
        Ok(_) => {
            let mut response = message(
                &state,
                StatusCode::OK,
                "Your password is changed",
                "Every session of your account has ended, this one too, every API key is revoked and every connected app is \
                 disconnected. Sign in with your new password, then create new keys and connect your apps again where you need them.",
            );
            signed_out(&state, &mut response);
            Ok(response)
        }
        Err(error @ OwnAccountError::Internal) => Err(PageError::failed("a password could not be changed", &error)),
        Err(OwnAccountError::Throttled { seconds }) => {
            let text = format!("Too many wrong passwords; wait {seconds} seconds and try again. Your password is unchanged.");
            let page = render(&state, &request, StatusCode::TOO_MANY_REQUESTS, None, "", None, vec![("current_password", text)]).await?;
            Ok(crate::with_retry_after(page, seconds))
        }
        Err(problem) => {
            let problems = vec![(problem.field(), sentence(&problem.to_string()))];
            render(&state, &request, StatusCode::BAD_REQUEST, None, "", None, problems).await
        }
    }
}

#[derive(Debug, Deserialize)]
pub struct CloseForm {
    #[serde(default)]
    csrf: String,
    #[serde(default)]
    password: String,
}

crate::guard::token_in_csrf_field!(CloseForm);

/// Closes the account after its password is given again.
pub async fn close(
    state: web::Data<WebState>,
    request: HttpRequest,
    SignedInPost { session, form, .. }: SignedInPost<CloseForm>,
) -> Result<HttpResponse, PageError> {
    let client = crate::client_of(&request);
    match state.app.accounts.own_account.close(client, &session.user, &form.password).await {
        Ok(closed) => {
            tracing::info!(user = session.user.id.get(), votes = closed.votes_withdrawn, "an account was closed by its owner");
            let text = format!(
                "Your account is closed. {} withdrawn, {} deleted; {} the site without an owner. Orders stay in our books, as the law asks.",
                plural(closed.votes_withdrawn, "vote", "votes"),
                plural(closed.reviews_deleted, "review", "reviews"),
                match closed.listings_kept {
                    0 => "no listing stays on".to_owned(),
                    1 => "your listing stays on".to_owned(),
                    n => format!("your {n} listings stay on"),
                },
            );
            let mut response = message(&state, StatusCode::OK, "Account closed", &text);
            signed_out(&state, &mut response);
            Ok(response)
        }
        Err(error @ OwnAccountError::Internal) => Err(PageError::failed("an account could not be closed", &error)),
        Err(OwnAccountError::Throttled { seconds }) => {
            let text = format!("Too many wrong passwords; wait {seconds} seconds and try again. Nothing was closed.");
            let page = render(&state, &request, StatusCode::TOO_MANY_REQUESTS, None, "", None, vec![("close_password", text)]).await?;
            Ok(crate::with_retry_after(page, seconds))
        }
        Err(_) => {
            let problems = vec![("close_password", "This is not your password: nothing was closed.".to_owned())];
            render(&state, &request, StatusCode::BAD_REQUEST, None, "", None, problems).await
        }
    }
}

/// `this is wrong` as a sentence: `This is wrong.`
fn sentence(text: &str) -> String {
    let mut chars = text.chars();
    let first: String = chars.next().map(|c| c.to_uppercase().collect()).unwrap_or_default();
    format!("{first}{}.", chars.as_str().trim_end_matches('.'))
}

/// Removes the session cookie from the browser.
fn signed_out(state: &WebState, response: &mut HttpResponse) {
    for name in [crate::SESSION_COOKIE, crate::ADMIN_HINT_COOKIE] {
        let mut gone = crate::cookie(state, name, String::new());
        gone.make_removal();
        let _ = response.add_cookie(&gone);
    }
}
