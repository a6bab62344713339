//! The one error type of the pages: why a page could not do what was asked, as a person reads
//! it. Handlers return `Result<HttpResponse, PageError>` and `?` a domain error into it, so each
//! domain error is worded here, once. An error knows neither the site nor the request, so the
//! middleware every page runs behind (`limits::limit`) renders it (`rendered`) as the page that
//! says why, with `Retry-After` where waiting helps.

use crate::WebState;
use crate::site::{Meta, page};
use actix_web::body::BoxBody;
use actix_web::dev::ServiceResponse;
use actix_web::http::StatusCode;
use actix_web::{HttpRequest, HttpResponse, ResponseError};
use askama::Template;
use kernel::FieldError;
use ops::{OpError, RateClass};
use std::borrow::Cow;
use std::cell::RefCell;
use std::fmt;

/// What a page answers instead of what was asked.
pub(crate) enum PageError {
    /// Refused or failed: a page that says why.
    Refused(Box<Refusal>),
    /// An answer made already: the way to sign in, or a form again with its problems beside
    /// the fields. Taken once, when actix asks for the response.
    Answer(Box<RefCell<Option<HttpResponse>>>),
}

/// Why, in words, and what the person can do next.
#[derive(Debug)]
pub(crate) struct Refusal {
    pub status: StatusCode,
    pub heading: Cow<'static, str>,
    pub detail: String,
    /// Problems with named fields (a bad page number in the address).
    pub errors: Vec<FieldError>,
    pub retry_after: Option<u32>,
    /// The session's CSRF token, to offer a new confirmation link.
    pub resend_csrf: Option<String>,
    /// Where "back" leads; without it, the home page and search.
    pub back: Option<String>,
}

impl PageError {
    pub(crate) fn new(status: StatusCode, heading: impl Into<Cow<'static, str>>, detail: impl Into<String>) -> Self {
        Self::Refused(Box::new(Refusal {
            status,
            heading: heading.into(),
            detail: detail.into(),
            errors: Vec::new(),
            retry_after: None,
            resend_csrf: None,
            back: None,
        }))
    }

    /// Something broke on our side: logged with `what` failed, never shown.
    pub(crate) fn failed(what: &str, error: &dyn fmt::Display) -> Self {
        tracing::error!(error = %error, "{what}");
        Self::new(StatusCode::INTERNAL_SERVER_ERROR, "Something went wrong", "Please try again in a moment.")
    }

    /// A form posted with another session's token, a stale one, or from another site.
    pub(crate) fn stale_form() -> Self {
        Self::new(
            StatusCode::FORBIDDEN,
            "Nothing changed",
            "The form expired or came from another site. Go back, reload the page and try again.",
        )
    }

    /// No page at this address.
    pub(crate) fn not_found(detail: impl Into<String>) -> Self {
        Self::new(StatusCode::NOT_FOUND, "Page not found", detail)
    }

    /// Over a rate class's budget: how long to wait, in the words of what was counted.
    pub(crate) fn too_many(class: Option<RateClass>, retry_after: u32) -> Self {
        let what = match class {
            Some(RateClass::Vote) => "You have voted a lot in a short time.",
            Some(RateClass::VoteNetwork) => "Many votes came from your network in a short time.",
            Some(RateClass::ReviewNetwork) => "Many reviews came from your network in a short time.",
            Some(RateClass::Review | RateClass::Write) => "You have changed a lot in a short time.",
            Some(RateClass::Read | RateClass::ReadAnonymous) => "Too many requests from your network.",
            // An operation a page ran, counted against its own class.
            None => "Too many requests in a short time.",
            _ => "Too many attempts from your network.",
        };
        let detail = format!("{what} Please wait {retry_after} seconds, then try again.");
        Self::new(StatusCode::TOO_MANY_REQUESTS, "Please wait a moment", detail).waiting(retry_after)
    }

    /// A signed-in person whose address is not confirmed yet: `why` it is needed, and a button
    /// for a new link.
    pub(crate) fn confirm_first(session: &accounts::signin::Session, why: &str) -> Self {
        let detail = format!("{why} Open the link we e-mailed to {} when you signed up, or ask for a new one below.", session.user.email);
        Self::new(StatusCode::FORBIDDEN, "Confirm your e-mail address first", detail)
            .map(|refusal| refusal.resend_csrf = Some(session.csrf_token.clone()))
    }

    pub(crate) fn waiting(self, retry_after: u32) -> Self {
        self.map(|refusal| refusal.retry_after = Some(retry_after))
    }

    /// The "back" link of the page leads to `back` (a local path).
    pub(crate) fn back_to(self, back: &str) -> Self {
        self.map(|refusal| refusal.back = Some(back.to_owned()))
    }

    fn map(self, change: impl FnOnce(&mut Refusal)) -> Self {
        match self {
            Self::Refused(mut refusal) => {
                change(&mut refusal);
                Self::Refused(refusal)
            }
            answer => answer,
        }
    }
}

impl From<HttpResponse> for PageError {
    fn from(answer: HttpResponse) -> Self {
        Self::Answer(Box::new(RefCell::new(Some(answer))))
    }
}

impl From<OpError> for PageError {
    fn from(error: OpError) -> Self {
        match error {
            OpError::NotFound(detail) => Self::not_found(detail),
            OpError::Validation(errors) => {
                Self::new(StatusCode::BAD_REQUEST, "Please check the address", "").map(|refusal| refusal.errors = errors)
            }
            OpError::RateLimited { retry_after } => Self::too_many(None, retry_after),
            OpError::Conflict { detail, retry_after } => {
                let refused = Self::new(StatusCode::CONFLICT, "Not now", detail);
                match retry_after {
                    Some(seconds) => refused.waiting(seconds),
                    None => refused,
                }
            }
            other => Self::failed("a page's operation failed", &other),
        }
    }
}

impl From<orders::OrderError> for PageError {
    fn from(error: orders::OrderError) -> Self {
        match error {
            orders::OrderError::NotFound => Self::new(
                StatusCode::NOT_FOUND,
                "No such order",
                "This checkout link is not valid. Use the link you were given when the order was made.",
            ),
            other => {
                tracing::error!(error = %other, "the checkout page failed");
                Self::new(
                    StatusCode::SERVICE_UNAVAILABLE,
                    "Try again",
                    "The order could not be handled just now. Please try again in a moment.",
                )
            }
        }
    }
}

impl From<claims::LinkError> for PageError {
    fn from(error: claims::LinkError) -> Self {
        use claims::LinkError;
        match error {
            LinkError::Unknown => Self::new(
                StatusCode::NOT_FOUND,
                "This link does not work",
                "It names no claim: it may have been copied incompletely, or a newer link replaced it.",
            ),
            LinkError::Expired => Self::new(
                StatusCode::GONE,
                "This link has expired",
                "A claim's link works for 48 hours, and a claim waits 14 days. Ask for the claim again to get a new link.",
            ),
            LinkError::Used(_) => {
                Self::new(StatusCode::GONE, "This claim is verified already", "Its link has been used; nothing more to do.")
            }
            LinkError::Repo(err) => Self::failed("a claim's link could not be read", &err),
        }
    }
}

impl From<listings::VoteError> for PageError {
    fn from(error: listings::VoteError) -> Self {
        match error {
            listings::VoteError::NotLive => Self::new(StatusCode::NOT_FOUND, "Not open for votes", "Only live listings take votes."),
            // The handler knows the person and says how to confirm (`confirm_first`).
            listings::VoteError::NotConfirmed => Self::new(StatusCode::FORBIDDEN, "Confirm your e-mail address first", ""),
            listings::VoteError::Repo(err) => Self::failed("a vote could not be recorded", &err),
        }
    }
}

impl From<listings::ReviewError> for PageError {
    fn from(error: listings::ReviewError) -> Self {
        match error {
            listings::ReviewError::NotLive | listings::ReviewError::Invalid(_) => {
                Self::new(StatusCode::NOT_FOUND, "Not open", "Only live listings take reviews and followers.")
            }
            listings::ReviewError::NotConfirmed => Self::new(StatusCode::FORBIDDEN, "Confirm your e-mail address first", ""),
            listings::ReviewError::Repo(err) => Self::failed("a review or follow could not be saved", &err),
        }
    }
}

impl fmt::Debug for PageError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Refused(refusal) => refusal.fmt(f),
            Self::Answer(_) => f.write_str("PageError::Answer"),
        }
    }
}

impl fmt::Display for PageError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Refused(refusal) => write!(f, "{}: {}", refusal.heading, refusal.detail),
            Self::Answer(_) => f.write_str("answered with a page"),
        }
    }
}

impl ResponseError for PageError {
    fn status_code(&self) -> StatusCode {
        match self {
            Self::Refused(refusal) => refusal.status,
            Self::Answer(answer) => answer.borrow().as_ref().map_or(StatusCode::INTERNAL_SERVER_ERROR, HttpResponse::status),
        }
    }

    /// Outside the pages' middleware (which renders the page, `rendered`): the words as text.
    fn error_response(&self) -> HttpResponse {
        match self {
            Self::Refused(refusal) => with_wait(HttpResponse::build(refusal.status).body(self.to_string()), refusal.retry_after),
            Self::Answer(answer) => answer.borrow_mut().take().unwrap_or_else(|| HttpResponse::InternalServerError().finish()),
        }
    }
}

#[derive(Template)]
#[template(path = "site/refused.html")]
struct RefusedPage<'a> {
    site_name: &'a str,
    meta: Meta,
    refusal: &'a Refusal,
}

/// The answer of an error to `request`: a refusal's page in the site's layout, or the answer
/// made already.
pub(crate) fn answer(state: &WebState, request: &HttpRequest, error: &PageError) -> HttpResponse {
    match error {
        PageError::Refused(refusal) => {
            let meta = Meta::new(state, request.path(), refusal.heading.clone(), refusal.detail.clone());
            let refused = RefusedPage { site_name: &state.app.site.name, meta, refusal };
            with_wait(page(request, refusal.status, &refused), refusal.retry_after)
        }
        PageError::Answer(_) => error.error_response(),
    }
}

/// A handler's answer, with a refusal rendered as its page.
pub(crate) fn rendered(state: &WebState, response: ServiceResponse<BoxBody>) -> ServiceResponse<BoxBody> {
    let page = match response.response().error().and_then(|error| error.as_error::<PageError>()) {
        Some(error @ PageError::Refused(_)) => answer(state, response.request(), error),
        _ => return response,
    };
    response.into_response(page)
}

fn with_wait(response: HttpResponse, retry_after: Option<u32>) -> HttpResponse {
    match retry_after {
        Some(seconds) => crate::with_retry_after(response, seconds.into()),
        None => response,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_domain_error_has_its_status_and_words() {
        let status = |error: PageError| error.status_code();
        assert_eq!(status(OpError::NotFound("no such listing".into()).into()), StatusCode::NOT_FOUND);
        assert_eq!(status(OpError::RateLimited { retry_after: 7 }.into()), StatusCode::TOO_MANY_REQUESTS);
        assert_eq!(status(orders::OrderError::NotFound.into()), StatusCode::NOT_FOUND);
        assert_eq!(status(claims::LinkError::Expired.into()), StatusCode::GONE);
        assert_eq!(status(listings::VoteError::NotLive.into()), StatusCode::NOT_FOUND);
        assert_eq!(status(listings::ReviewError::NotConfirmed.into()), StatusCode::FORBIDDEN);
        let limited = PageError::too_many(Some(RateClass::ReviewNetwork), 30);
        assert_eq!(
            limited.to_string(),
            "Please wait a moment: Many reviews came from your network in a short time. Please wait 30 seconds, then try again."
        );
        assert_eq!(
            PageError::too_many(Some(RateClass::Read), 5).to_string(),
            "Please wait a moment: Too many requests from your network. Please wait 5 seconds, then try again."
        );
        assert!(PageError::too_many(Some(RateClass::SignIn), 5).to_string().contains("Too many attempts"));
        assert_eq!(limited.error_response().headers().get(actix_web::http::header::RETRY_AFTER).unwrap(), "30");
    }

    #[test]
    fn an_answer_made_already_is_sent_as_it_is() {
        let answer = PageError::from(HttpResponse::SeeOther().insert_header(("Location", "/signin")).finish());
        assert_eq!(answer.status_code(), StatusCode::SEE_OTHER);
        assert_eq!(answer.error_response().headers().get("location").unwrap(), "/signin");
    }
}
