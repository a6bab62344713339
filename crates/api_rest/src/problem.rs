//! Problem details over HTTP: `ops::Problem` (the body every transport shares) sent as
//! `application/problem+json`, with the `WWW-Authenticate`, `Allow` and `Retry-After` headers
//! REST adds.

use actix_web::HttpResponse;
use actix_web::http::StatusCode;
use actix_web::http::header::{ALLOW, RETRY_AFTER, WWW_AUTHENTICATE};
use kernel::FieldError;
use ops::OpError;
pub use ops::Problem;

/// The `realm` of our `WWW-Authenticate` challenges.
pub const REALM: &str = "launchdir";

/// Sends a problem as an HTTP response.
pub trait ProblemResponse {
    fn response(&self) -> HttpResponse;
}

impl ProblemResponse for Problem {
    /// The body, plus `Retry-After` (in seconds) when the problem says when to retry.
    fn response(&self) -> HttpResponse {
        let status = StatusCode::from_u16(self.status).unwrap_or(StatusCode::INTERNAL_SERVER_ERROR);
        let mut response = HttpResponse::build(status);
        if let Some(seconds) = self.retry_after {
            response.insert_header((RETRY_AFTER, seconds.to_string()));
        }
        response.content_type("application/problem+json").json(self)
    }
}

/// A 400 naming each bad field.
pub fn invalid(errors: Vec<FieldError>) -> HttpResponse {
    Problem::invalid(errors).response()
}

pub fn route_not_found() -> HttpResponse {
    Problem::new(404, "not_found", "Not found", "no resource lives at this address").response()
}

pub fn method_not_allowed(allow: &str) -> HttpResponse {
    let mut response = Problem::new(405, "method_not_allowed", "Method not allowed", format!("this address accepts {allow}")).response();
    if let Ok(value) = allow.parse() {
        response.headers_mut().insert(ALLOW, value);
    }
    response
}

/// Quotes a value for an auth-param (`"..."`), dropping characters that would break the header.
fn quoted(value: &str) -> String {
    value.chars().filter(|c| *c != '"' && *c != '\\' && !c.is_control()).collect()
}

/// Maps an operation error to its HTTP answer: the shared problem body plus the challenge
/// headers of 401 and 403 (and `Retry-After`, which the problem itself carries).
pub fn from_op_error(error: OpError) -> HttpResponse {
    let challenge = match &error {
        OpError::Unauthorized { credential_sent: true, detail } => {
            Some(format!("Bearer realm=\"{REALM}\", error=\"invalid_token\", error_description=\"{}\"", quoted(detail)))
        }
        OpError::Unauthorized { credential_sent: false, .. } => Some(format!("Bearer realm=\"{REALM}\"")),
        OpError::InsufficientScope { scope } => Some(format!("Bearer realm=\"{REALM}\", error=\"insufficient_scope\", scope=\"{scope}\"")),
        _ => None,
    };
    let mut response = Problem::of(&error).response();
    if let Some(value) = challenge.and_then(|challenge| challenge.parse().ok()) {
        response.headers_mut().insert(WWW_AUTHENTICATE, value);
    }
    response
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Status and `Retry-After` of an error's HTTP answer.
    fn check(error: OpError, expect: (u16, Option<&str>)) {
        let response = from_op_error(error);
        let retry_after = response.headers().get(RETRY_AFTER).map(|value| value.to_str().unwrap());
        assert_eq!((response.status().as_u16(), retry_after), expect);
    }

    #[test]
    fn retry_after_is_sent_when_the_error_says_when() {
        check(OpError::RateLimited { retry_after: 30 }, (429, Some("30")));
        check(OpError::Conflict { detail: "the draft is being written".into(), retry_after: Some(1) }, (409, Some("1")));
        check(OpError::Conflict { detail: "the listing is archived".into(), retry_after: None }, (409, None));
        check(OpError::IdempotencyInUse, (409, None));
        check(OpError::NotFound("gone".into()), (404, None));
    }
}
