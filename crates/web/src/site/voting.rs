//! Votes on the site: the upvote button on every card and listing page posts here. Only a
//! signed-in person with a confirmed e-mail address votes; the form carries the session's CSRF
//! token and must come from this site (`Origin`, `Sec-Fetch-Site`); each vote and withdrawal
//! counts against the per-account and per-address vote limits. The answer returns to the page
//! the button was on.

use super::{Meta, page};
use crate::{WebState, safe_next, session};
use actix_web::http::StatusCode;
use actix_web::http::header::LOCATION;
use actix_web::{HttpRequest, HttpResponse, web};
use askama::Template;
use kernel::Slug;
use listings::{VoteError, Voter};
use ops::RateClass;
use serde::Deserialize;

/// The form of a toggle button on a page (upvote, follow).
#[derive(Debug, Deserialize)]
pub struct ButtonForm {
    #[serde(default)]
    pub(super) csrf: String,
    /// The page to return to.
    #[serde(default)]
    pub(super) back: String,
    /// What the button showed when it was pressed (`vote` or `withdraw`, `follow` or
    /// `unfollow`), so a stale second tab never undoes what the person meant to do.
    #[serde(default)]
    pub(super) action: String,
}

#[derive(Template)]
#[template(path = "site/vote_refused.html")]
struct VoteRefused<'a> {
    site_name: &'a str,
    meta: Meta,
    heading: &'a str,
    detail: String,
    /// The session's CSRF token, to ask for the confirmation link again.
    resend_csrf: Option<String>,
    back: String,
}

pub(super) fn refused(
    state: &WebState,
    request: &HttpRequest,
    status: StatusCode,
    heading: &str,
    detail: String,
    resend_csrf: Option<String>,
    back: &str,
) -> HttpResponse {
    let meta = Meta::new(state, request.path(), heading, detail.clone());
    page(request, status, &VoteRefused { site_name: &state.app.site.name, meta, heading, detail, resend_csrf, back: back.to_owned() })
}

/// Whether the request comes from one of this site's own pages: a browser says so in
/// `Sec-Fetch-Site`, or at least in `Origin`; a request with neither (an old browser) relies on
/// the CSRF token alone.
pub(crate) fn same_site(state: &WebState, request: &HttpRequest) -> bool {
    let header = |name: &str| request.headers().get(name).and_then(|value| value.to_str().ok());
    if let Some(site) = header("sec-fetch-site") {
        return site == "same-origin";
    }
    match header("origin") {
        Some(origin) => origin.trim_end_matches('/') == site_origin(&state.site_url),
        None => true,
    }
}

/// Whether the vote came from the page's script, which takes the new state as JSON.
fn wants_json(request: &HttpRequest) -> bool {
    request
        .headers()
        .get(actix_web::http::header::ACCEPT)
        .and_then(|value| value.to_str().ok())
        .is_some_and(|accept| accept.starts_with("application/json"))
}

/// `https://launch.example` of `https://launch.example/anything`.
fn site_origin(site_url: &str) -> &str {
    let after_scheme = site_url.find("://").map_or(0, |i| i + 3);
    match site_url[after_scheme..].find('/') {
        Some(slash) => &site_url[..after_scheme + slash],
        None => site_url,
    }
}

pub async fn vote(state: web::Data<WebState>, request: HttpRequest, path: web::Path<String>, form: web::Form<ButtonForm>) -> HttpResponse {
    let back = safe_next(&form.back).to_owned();
    let Some(session) = session(&state, &request).await else {
        let next = crate::percent_encode(&back);
        return HttpResponse::SeeOther().insert_header((LOCATION, format!("/signin?next={next}"))).finish();
    };
    if !crate::signed_form_ok(&state, &request, &session, &form.csrf) {
        let detail = "The form expired or came from another site. Go back, reload the page and press the button again.".to_owned();
        return refused(&state, &request, StatusCode::FORBIDDEN, "Not counted", detail, None, &back);
    }
    let Ok(slug) = Slug::parse(path.as_str()) else {
        return refused(
            &state,
            &request,
            StatusCode::NOT_FOUND,
            "No such listing",
            "There is no listing at this address.".into(),
            None,
            &back,
        );
    };
    let client = crate::client_of(&request);
    for (class, principal) in [(RateClass::Vote, Some(session.user.id)), (RateClass::VoteNetwork, None)] {
        if let Err(limited) = state.edge.limits.check(class, principal, client).await {
            let wait = limited.0.retry_after.unwrap_or(60);
            let detail = format!("You have voted a lot in a short time. Please wait {wait} seconds, then try again.");
            let mut response = refused(&state, &request, StatusCode::TOO_MANY_REQUESTS, "Please wait a moment", detail, None, &back);
            response.headers_mut().insert(actix_web::http::header::RETRY_AFTER, wait.into());
            return response;
        }
    }
    let voter = Voter {
        user: session.user.id,
        account_created_at: session.user.created_at,
        email_confirmed: session.user.email_confirmed_at.is_some(),
        network: kernel::client_network(client).to_string(),
    };
    let outcome = match form.action.as_str() {
        "withdraw" => state.app.listings.votes.withdraw(&voter, &slug).await,
        _ => state.app.listings.votes.vote(&voter, &slug).await,
    };
    match outcome {
        // The page's script asks for the new state, to update the button in place.
        Ok(state) if wants_json(&request) => {
            HttpResponse::Ok().json(serde_json::json!({"voted": state.voted, "votes": state.votes, "counted": state.counted}))
        }
        Ok(_) => HttpResponse::SeeOther().insert_header((LOCATION, back)).finish(),
        Err(VoteError::NotConfirmed) => {
            let detail = format!(
                "Votes come from people with a confirmed e-mail address. Open the link we e-mailed to {} when you signed up, or ask for a new one below; then vote again.",
                session.user.email
            );
            refused(&state, &request, StatusCode::FORBIDDEN, "Confirm your e-mail address first", detail, Some(session.csrf_token), &back)
        }
        Err(VoteError::NotLive) => {
            refused(&state, &request, StatusCode::NOT_FOUND, "Not open for votes", "Only live listings take votes.".into(), None, &back)
        }
        Err(VoteError::Repo(err)) => {
            tracing::error!(error = %err, "a vote could not be recorded");
            refused(
                &state,
                &request,
                StatusCode::INTERNAL_SERVER_ERROR,
                "Something went wrong",
                "Please try again in a moment.".into(),
                None,
                &back,
            )
        }
    }
}

#[cfg(test)]
mod tests {
    use super::site_origin;

    #[test]
    fn the_origin_of_the_site_address() {
        assert_eq!(site_origin("https://launch.example"), "https://launch.example");
        assert_eq!(site_origin("https://launch.example/dir"), "https://launch.example");
        assert_eq!(site_origin("http://127.0.0.1:8080"), "http://127.0.0.1:8080");
    }
}
