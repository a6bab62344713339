//! Forgotten passwords: `/account/reset` asks for a link by e-mail (the answer is the same
//! whether or not an account uses the address), `/account/reset/password?token=` sets the new
//! password. A password that breaks the rule is shown beside its field and the link still
//! works.

use crate::{CSRF_COOKIE, PageError, WebState, cookie, html, message, random_token};
use accounts::{ResetError, SignInError};
use actix_web::http::StatusCode;
use actix_web::{HttpRequest, HttpResponse, web};
use askama::Template;
use serde::Deserialize;

#[derive(Template)]
#[template(path = "reset_request.html")]
struct RequestPage<'a> {
    site_name: &'a str,
    csrf: &'a str,
    email: &'a str,
    error: Option<String>,
}

#[derive(Template)]
#[template(path = "reset_password.html")]
struct PasswordPage<'a> {
    site_name: &'a str,
    token: &'a str,
    error: Option<String>,
}

#[derive(Debug, Deserialize)]
pub struct RequestForm {
    #[serde(default)]
    csrf: String,
    #[serde(default)]
    email: String,
}

fn request_form(state: &WebState, status: StatusCode, email: &str, error: Option<String>) -> HttpResponse {
    let csrf = random_token();
    let mut response = html(status, &RequestPage { site_name: &state.app.site.name, csrf: &csrf, email, error });
    let _ = response.add_cookie(&cookie(state, CSRF_COOKIE, csrf));
    response
}

pub async fn request_page(state: web::Data<WebState>) -> HttpResponse {
    request_form(&state, StatusCode::OK, "", None)
}

pub async fn request(state: web::Data<WebState>, request: HttpRequest, form: web::Form<RequestForm>) -> HttpResponse {
    let csrf_ok = request.cookie(CSRF_COOKIE).is_some_and(|cookie| !form.csrf.is_empty() && cookie.value() == form.csrf);
    if !csrf_ok {
        return request_form(&state, StatusCode::FORBIDDEN, &form.email, Some("The form expired; please try again.".into()));
    }
    match state.app.accounts.reset.request(&form.email).await {
        Ok(sent) => {
            if let accounts::Sent::Failed(reason) = sent {
                tracing::warn!(reason, "a reset link could not be sent");
            }
            message(
                &state,
                StatusCode::OK,
                "Check your e-mail",
                &format!(
                    "If an account uses {}, we sent it a link to set a new password. The link works once, for one hour.",
                    form.email.trim()
                ),
            )
        }
        Err(SignInError::Invalid(text)) => request_form(&state, StatusCode::BAD_REQUEST, &form.email, Some(text)),
        Err(err) => {
            tracing::error!(error = %err, "a reset link could not be sent");
            request_form(
                &state,
                StatusCode::SERVICE_UNAVAILABLE,
                &form.email,
                Some("Something went wrong; please try again in a moment.".into()),
            )
        }
    }
}

#[derive(Debug, Deserialize)]
pub struct PasswordForm {
    #[serde(default)]
    token: String,
    #[serde(default)]
    password: String,
}

pub async fn password_page(state: web::Data<WebState>, query: web::Query<PasswordForm>) -> HttpResponse {
    html(StatusCode::OK, &PasswordPage { site_name: &state.app.site.name, token: &query.token, error: None })
}

pub async fn password(state: web::Data<WebState>, form: web::Form<PasswordForm>) -> Result<HttpResponse, PageError> {
    match state.app.accounts.reset.reset(&form.token, &form.password).await {
        Ok(user) => Ok(message(
            &state,
            StatusCode::OK,
            "Your password is set",
            &format!(
                "You can sign in as {} with your new password now. Every session, API key and connected app of the account has \
                 ended; create new keys and connect your apps again where you need them.",
                user.email
            ),
        )),
        Err(ResetError::InvalidLink) => Err(PageError::new(
            StatusCode::BAD_REQUEST,
            "This link does not work",
            "It was used already, it expired (links work for one hour), or it was copied incompletely. Ask for a new one.",
        )),
        Err(ResetError::Password(SignInError::Invalid(text))) => {
            Ok(html(StatusCode::BAD_REQUEST, &PasswordPage { site_name: &state.app.site.name, token: &form.token, error: Some(text) }))
        }
        Err(ResetError::Password(err)) => Err(PageError::failed("a password could not be set", &err)),
    }
}
