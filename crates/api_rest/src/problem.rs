//! RFC 9457 problem details: `{type, title, status, detail, code, errors?}` as
//! `application/problem+json`, and how each `OpError` becomes one.

use actix_web::HttpResponse;
use actix_web::http::StatusCode;
use actix_web::http::header::{ALLOW, WWW_AUTHENTICATE};
use kernel::FieldError;
use ops::OpError;
use serde::Serialize;

/// The `realm` of our `WWW-Authenticate` challenges.
pub const REALM: &str = "launchdir";

/// A problem details body.
#[derive(Debug, Serialize)]
pub struct Problem {
    #[serde(rename = "type")]
    pub kind: String,
    pub title: &'static str,
    pub status: u16,
    pub detail: String,
    pub code: &'static str,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub errors: Vec<FieldError>,
}

impl Problem {
    pub fn new(status: StatusCode, code: &'static str, title: &'static str, detail: impl Into<String>) -> Self {
        Self {
            kind: format!("urn:launchdir:problem:{code}"),
            title,
            status: status.as_u16(),
            detail: detail.into(),
            code,
            errors: Vec::new(),
        }
    }

    pub fn response(&self) -> HttpResponse {
        let status = StatusCode::from_u16(self.status).unwrap_or(StatusCode::INTERNAL_SERVER_ERROR);
        HttpResponse::build(status).content_type("application/problem+json").json(self)
    }
}

/// A 400 naming each bad field.
pub fn invalid(errors: Vec<FieldError>) -> HttpResponse {
    let detail = match errors.as_slice() {
        [one] => format!("{}: {}", one.field, one.message),
        many => format!("{} fields are invalid", many.len()),
    };
    Problem { errors, ..Problem::new(StatusCode::BAD_REQUEST, "validation_failed", "Invalid request", detail) }.response()
}

pub fn route_not_found() -> HttpResponse {
    Problem::new(StatusCode::NOT_FOUND, "not_found", "Not found", "no resource lives at this address").response()
}

pub fn method_not_allowed(allow: &str) -> HttpResponse {
    let mut response =
        Problem::new(StatusCode::METHOD_NOT_ALLOWED, "method_not_allowed", "Method not allowed", format!("this address accepts {allow}"))
            .response();
    if let Ok(value) = allow.parse() {
        response.headers_mut().insert(ALLOW, value);
    }
    response
}

/// Quotes a value for an auth-param (`"..."`), dropping characters that would break the header.
fn quoted(value: &str) -> String {
    value.chars().filter(|c| *c != '"' && *c != '\\' && !c.is_control()).collect()
}

/// Maps an operation error to its HTTP answer. Unexpected errors are logged with their cause
/// chain and shown only as "internal error".
pub fn from_op_error(error: OpError) -> HttpResponse {
    match error {
        OpError::Validation(errors) => invalid(errors),
        OpError::Unauthorized { credential_sent, detail } => {
            let challenge = if credential_sent {
                format!("Bearer realm=\"{REALM}\", error=\"invalid_token\", error_description=\"{}\"", quoted(&detail))
            } else {
                format!("Bearer realm=\"{REALM}\"")
            };
            let mut response = Problem::new(StatusCode::UNAUTHORIZED, "unauthorized", "Unauthorized", detail).response();
            if let Ok(value) = challenge.parse() {
                response.headers_mut().insert(WWW_AUTHENTICATE, value);
            }
            response
        }
        OpError::InsufficientScope { scope } => {
            let challenge = format!("Bearer realm=\"{REALM}\", error=\"insufficient_scope\", scope=\"{scope}\"");
            let mut response = Problem::new(
                StatusCode::FORBIDDEN,
                "insufficient_scope",
                "Forbidden",
                format!("this operation needs the scope {scope}, which the credential does not carry"),
            )
            .response();
            if let Ok(value) = challenge.parse() {
                response.headers_mut().insert(WWW_AUTHENTICATE, value);
            }
            response
        }
        OpError::Blocked => Problem::new(StatusCode::FORBIDDEN, "account_blocked", "Forbidden", "this account is blocked").response(),
        OpError::NotFound(detail) => Problem::new(StatusCode::NOT_FOUND, "not_found", "Not found", detail).response(),
        OpError::IdempotencyMismatch(detail) => {
            Problem::new(StatusCode::BAD_REQUEST, "idempotency_key_mismatch", "Idempotency key reused", detail).response()
        }
        OpError::IdempotencyInUse => Problem::new(
            StatusCode::CONFLICT,
            "idempotency_key_in_use",
            "Request in progress",
            "a request with this Idempotency-Key is still running; retry when it has finished",
        )
        .response(),
        OpError::Internal(cause) => {
            let mut chain = cause.to_string();
            let mut source = cause.source();
            while let Some(next) = source {
                chain.push_str(": ");
                chain.push_str(&next.to_string());
                source = next.source();
            }
            tracing::error!(error = %chain, "operation failed");
            Problem::new(
                StatusCode::INTERNAL_SERVER_ERROR,
                "internal_error",
                "Internal error",
                "something went wrong on our side; try again later",
            )
            .response()
        }
    }
}
