//! Confirming an account's e-mail address: the link in the e-mail opens a page with one button
//! (a link alone changes nothing, so a mail scanner that follows it does not use it up), and a
//! signed-in person can ask for a new link. Where the person was on the way to when asked to
//! confirm (an app's consent page, the account page) is kept in a cookie of the browser that
//! asked (`CONFIRM_NEXT_COOKIE`), never in the link: the mail goes to an address the asker may
//! not own, so it carries nothing they typed. Opened in that browser, the link's page leads back
//! there once confirmed. The path is checked as sign-in's `next` is (`safe_next`) on the way
//! into the cookie and again on the way out.

use crate::{PageError, SignedInPost, WebState, message, safe_next};
use accounts::ConfirmationError;
use actix_web::cookie::{Cookie, SameSite};
use actix_web::http::StatusCode;
use actix_web::{HttpRequest, HttpResponse, web};
use askama::Template;
use serde::Deserialize;

#[derive(Template)]
#[template(path = "confirm.html")]
struct ConfirmPage<'a> {
    site_name: &'a str,
    token: &'a str,
    /// Where to go on once confirmed (a local path), or empty.
    next: &'a str,
}

#[derive(Template)]
#[template(path = "confirmed.html")]
struct ConfirmedPage<'a> {
    site_name: &'a str,
    email: &'a str,
    /// The way back to where the person was asked to confirm.
    next: Option<&'a str>,
}

#[derive(Debug, Deserialize)]
pub struct TokenForm {
    #[serde(default)]
    token: String,
    #[serde(default)]
    next: String,
}

/// `next` when it is a local path (`safe_next`) other than the home page.
pub(crate) fn onward(next: &str) -> Option<&str> {
    Some(safe_next(next)).filter(|next| *next != "/")
}

/// The cookie that keeps, in the browser that asked for a confirmation link, where to go on
/// once the address is confirmed.
pub(crate) const CONFIRM_NEXT_COOKIE: &str = "ld_confirm_next";

/// Remembers `next` (if it leads anywhere but home) in the browser `response` goes to, for the
/// links' lifetime, readable only by the confirmation pages.
pub(crate) fn remember_next(state: &WebState, response: &mut HttpResponse, next: &str) {
    let Some(next) = onward(next) else { return };
    let cookie = Cookie::build(CONFIRM_NEXT_COOKIE, crate::percent_encode(next))
        .path("/account/confirm")
        .http_only(true)
        .same_site(SameSite::Lax)
        .secure(state.secure_cookies())
        .max_age(actix_web::cookie::time::Duration::hours(48))
        .finish();
    let _ = response.add_cookie(&cookie);
}

/// Where this browser was going when it asked for a confirmation link, if anywhere.
fn remembered_next(request: &HttpRequest) -> String {
    // Written percent-encoded (`remember_next`); actix-web decodes a request's cookies.
    let next = request.cookie(CONFIRM_NEXT_COOKIE).map(|cookie| cookie.value().to_owned()).unwrap_or_default();
    onward(&next).unwrap_or_default().to_owned()
}

pub async fn confirm_page(state: web::Data<WebState>, request: HttpRequest, query: web::Query<TokenForm>) -> HttpResponse {
    let next = remembered_next(&request);
    crate::html(StatusCode::OK, &ConfirmPage { site_name: &state.app.site.name, token: &query.token, next: &next })
}

pub async fn confirm(state: web::Data<WebState>, form: web::Form<TokenForm>) -> Result<HttpResponse, PageError> {
    match state.app.accounts.confirmation.confirm(&form.token).await {
        Ok(user) => Ok(crate::html(
            StatusCode::OK,
            &ConfirmedPage { site_name: &state.app.site.name, email: user.email.as_str(), next: onward(&form.next) },
        )),
        Err(ConfirmationError::InvalidLink) => Err(PageError::new(
            StatusCode::BAD_REQUEST,
            "This link does not work",
            "It was used already, it expired (links work for 48 hours), or it was copied incompletely. Sign in and ask for a new one.",
        )),
        Err(err) => Err(PageError::failed("an e-mail address could not be confirmed", &err)),
    }
}

#[derive(Debug, Deserialize)]
pub struct ResendForm {
    #[serde(default)]
    csrf: String,
    /// The page that asked for the confirmation, for the new link to lead back to.
    #[serde(default)]
    next: String,
}

crate::guard::token_in_csrf_field!(ResendForm);

pub async fn resend(
    state: web::Data<WebState>,
    SignedInPost { session, form, .. }: SignedInPost<ResendForm>,
) -> Result<HttpResponse, PageError> {
    let back = onward(&form.next);
    if session.user.email_confirmed() {
        return Ok(match back {
            Some(next) => HttpResponse::SeeOther().insert_header(("Location", next.to_owned())).finish(),
            None => message(&state, StatusCode::OK, "Already confirmed", "Your e-mail address is confirmed already."),
        });
    }
    match state.app.accounts.confirmation.send(&session.user).await {
        Ok(()) => {
            let mut answer = message(
                &state,
                StatusCode::OK,
                "Check your e-mail",
                &format!("We sent a new link to {}. It works once, for 48 hours.", session.user.email),
            );
            remember_next(&state, &mut answer, back.unwrap_or_default());
            Ok(answer)
        }
        Err(ConfirmationError::TooMany) => Err(PageError::new(
            StatusCode::TOO_MANY_REQUESTS,
            "Links sent already",
            "We sent you three links in the last hour. Use the newest one, or ask again in an hour.",
        )),
        Err(err) => {
            tracing::warn!(error = %err, "a confirmation link could not be sent");
            let detail = "The e-mail could not be sent; please try again in a moment.";
            Err(PageError::new(StatusCode::SERVICE_UNAVAILABLE, "Not sent", detail))
        }
    }
}
