//! Sign up, sign in and sign out. Forms carry a CSRF token: before a session exists it is a
//! double-submit cookie; a signed-in form uses the session's own token. Signing up answers
//! "check your inbox" whether or not the address has an account (sign-in says "wrong address or
//! password" alike), and signs nobody in: a new account signs in afterwards, with its password.

use crate::{CSRF_COOKIE, SESSION_COOKIE, SignedInPost, WebState, cookie, html, percent_encode, random_token, safe_next};
use accounts::{Registered, SignInError};
use actix_web::http::StatusCode;
use actix_web::{HttpRequest, HttpResponse, web};
use askama::Template;
use serde::Deserialize;

#[derive(Template)]
#[template(path = "signin.html")]
struct SignInPage<'a> {
    site_name: &'a str,
    csrf: &'a str,
    next: &'a str,
    next_encoded: String,
    email: &'a str,
    error: Option<String>,
}

#[derive(Template)]
#[template(path = "signup.html")]
struct SignUpPage<'a> {
    site_name: &'a str,
    csrf: &'a str,
    next: &'a str,
    next_encoded: String,
    email: &'a str,
    name: &'a str,
    error: Option<String>,
}

/// What signing up answers, the same for a new address and a taken one.
#[derive(Template)]
#[template(path = "signup_sent.html")]
struct SignUpSentPage<'a> {
    site_name: &'a str,
    email: &'a str,
    next_encoded: String,
}

#[derive(Debug, Deserialize)]
pub struct NextQuery {
    #[serde(default)]
    next: String,
}

#[derive(Debug, Deserialize)]
pub struct SignInForm {
    #[serde(default)]
    csrf: String,
    #[serde(default)]
    next: String,
    #[serde(default)]
    email: String,
    #[serde(default)]
    password: String,
    #[serde(default)]
    name: String,
}

/// The form's CSRF cookie, or a new one.
fn form_csrf(request: &HttpRequest) -> String {
    request.cookie(CSRF_COOKIE).map(|c| c.value().to_owned()).filter(|v| !v.is_empty()).unwrap_or_else(random_token)
}

fn csrf_ok(request: &HttpRequest, sent: &str) -> bool {
    request.cookie(CSRF_COOKIE).is_some_and(|cookie| !sent.is_empty() && cookie.value() == sent)
}

fn signin_form(state: &WebState, status: StatusCode, csrf: String, next: &str, email: &str, error: Option<String>) -> HttpResponse {
    let page = SignInPage { site_name: &state.app.site.name, csrf: &csrf, next, next_encoded: percent_encode(next), email, error };
    let mut response = html(status, &page);
    let _ = response.add_cookie(&cookie(state, CSRF_COOKIE, csrf.clone()));
    response
}

fn signup_form(state: &WebState, status: StatusCode, csrf: String, form: &SignInForm, next: &str, error: Option<String>) -> HttpResponse {
    let page = SignUpPage {
        site_name: &state.app.site.name,
        csrf: &csrf,
        next,
        next_encoded: percent_encode(next),
        email: &form.email,
        name: &form.name,
        error,
    };
    let mut response = html(status, &page);
    let _ = response.add_cookie(&cookie(state, CSRF_COOKIE, csrf.clone()));
    response
}

pub async fn signin_page(state: web::Data<WebState>, request: HttpRequest, query: web::Query<NextQuery>) -> HttpResponse {
    signin_form(&state, StatusCode::OK, form_csrf(&request), safe_next(&query.next), "", None)
}

pub async fn signup_page(state: web::Data<WebState>, request: HttpRequest, query: web::Query<NextQuery>) -> HttpResponse {
    let empty = SignInForm { csrf: String::new(), next: String::new(), email: String::new(), password: String::new(), name: String::new() };
    signup_form(&state, StatusCode::OK, form_csrf(&request), &empty, safe_next(&query.next), None)
}

/// The answer to a sign-in that worked: the session cookie, and on to `next`.
fn session_started(state: &WebState, session: accounts::signin::Session, next: &str) -> HttpResponse {
    let mut response = HttpResponse::SeeOther().insert_header(("Location", next.to_owned())).finish();
    let _ = response.add_cookie(&cookie(state, SESSION_COOKIE, session.token));
    // The site team's header gets an Admin link; the cookie only shows the link (every admin
    // address checks the session's role itself).
    if session.user.is_admin {
        let _ = response.add_cookie(&cookie(state, crate::ADMIN_HINT_COOKIE, "1".to_owned()));
    }
    response
}

fn status_of(error: &SignInError) -> StatusCode {
    match error {
        SignInError::Throttled { .. } => StatusCode::TOO_MANY_REQUESTS,
        SignInError::Internal => StatusCode::INTERNAL_SERVER_ERROR,
        SignInError::Blocked => StatusCode::FORBIDDEN,
        SignInError::WrongCredentials => StatusCode::UNAUTHORIZED,
        _ => StatusCode::BAD_REQUEST,
    }
}

pub async fn signin(state: web::Data<WebState>, request: HttpRequest, form: web::Form<SignInForm>) -> HttpResponse {
    let next = safe_next(&form.next).to_owned();
    if !csrf_ok(&request, &form.csrf) {
        return signin_form(
            &state,
            StatusCode::FORBIDDEN,
            random_token(),
            &next,
            &form.email,
            Some("The form expired; please try again.".into()),
        );
    }
    let client = crate::client_of(&request);
    match state.app.accounts.signin.sign_in(client, &form.email, &form.password).await {
        Ok(session) => session_started(&state, session, &next),
        Err(error) => {
            let page = signin_form(&state, status_of(&error), form_csrf(&request), &next, &form.email, Some(error.to_string()));
            match error {
                SignInError::Throttled { seconds } => crate::with_retry_after(page, seconds),
                _ => page,
            }
        }
    }
}

pub async fn signup(state: web::Data<WebState>, request: HttpRequest, form: web::Form<SignInForm>) -> HttpResponse {
    let next = safe_next(&form.next).to_owned();
    if !csrf_ok(&request, &form.csrf) {
        return signup_form(
            &state,
            StatusCode::FORBIDDEN,
            random_token(),
            &form,
            &next,
            Some("The form expired; please try again.".into()),
        );
    }
    match state.app.accounts.signin.register(&form.email, &form.name, &form.password).await {
        Ok(registered) => {
            // A new address gets its confirmation link, a taken one a notice to its owner; the
            // page is the same either way and signs nobody in, so it never tells whether an
            // address has an account. A mail that could not be sent is logged, never shown.
            let sent = match &registered {
                Registered::New(user) => state.app.accounts.confirmation.send(user).await,
                Registered::Taken(owner) => state.app.accounts.confirmation.tell_owner_of_sign_up(owner).await,
            };
            if let Err(err) = sent {
                tracing::warn!(error = %err, "the e-mail that follows a sign-up could not be sent");
            }
            let page = SignUpSentPage { site_name: &state.app.site.name, email: form.email.trim(), next_encoded: percent_encode(&next) };
            let mut answer = html(StatusCode::OK, &page);
            // Opened in this browser, the link leads back where the person was going (an app's
            // consent page, say); the mail itself carries nothing they typed.
            crate::confirm::remember_next(&state, &mut answer, &next);
            answer
        }
        Err(error) => signup_form(&state, status_of(&error), form_csrf(&request), &form, &next, Some(error.to_string())),
    }
}

#[derive(Debug, Deserialize)]
pub struct SignOutForm {
    #[serde(default)]
    csrf: String,
}

crate::guard::token_in_csrf_field!(SignOutForm);

pub async fn signout(state: web::Data<WebState>, SignedInPost { session, .. }: SignedInPost<SignOutForm>) -> HttpResponse {
    let _ = state.app.accounts.signin.sign_out(&session.token).await;
    let mut response = HttpResponse::SeeOther().insert_header(("Location", "/signin")).finish();
    for name in [SESSION_COOKIE, crate::ADMIN_HINT_COOKIE] {
        let mut gone = cookie(&state, name, String::new());
        gone.make_removal();
        let _ = response.add_cookie(&gone);
    }
    response
}
