//! RFC 9457 problem details of an `OpError`, the same for every transport: REST sends them as
//! `application/problem+json`, MCP as a tool error's structured content.

use crate::OpError;
use kernel::FieldError;
use serde::Serialize;

/// A problem details body.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Problem {
    #[serde(rename = "type")]
    pub kind: String,
    pub title: &'static str,
    pub status: u16,
    pub detail: String,
    pub code: &'static str,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub errors: Vec<FieldError>,
    /// Seconds to wait before retrying (409 `conflict`, 429 `rate_limited`). REST also sends it
    /// as `Retry-After`; an MCP tool error has no headers, so the body carries it too.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub retry_after: Option<u32>,
}

impl Problem {
    pub fn new(status: u16, code: &'static str, title: &'static str, detail: impl Into<String>) -> Self {
        Self {
            kind: format!("urn:launchdir:problem:{code}"),
            title,
            status,
            detail: detail.into(),
            code,
            errors: Vec::new(),
            retry_after: None,
        }
    }

    /// A 400 naming each bad field.
    pub fn invalid(errors: Vec<FieldError>) -> Self {
        let detail = match errors.as_slice() {
            [one] => format!("{}: {}", one.field, one.message),
            many => format!("{} fields are invalid", many.len()),
        };
        Self { errors, ..Self::new(400, "validation_failed", "Invalid request", detail) }
    }

    /// The problem an operation error is. An internal error is logged here with its cause
    /// chain and shown only as "internal error".
    pub fn of(error: &OpError) -> Self {
        let code = error.code();
        match error {
            OpError::Validation(errors) => Self::invalid(errors.clone()),
            OpError::Unauthorized { detail, .. } => Self::new(401, code, "Unauthorized", detail.clone()),
            OpError::InsufficientScope { scope } => {
                Self::new(403, code, "Forbidden", format!("this operation needs the scope {scope}, which the credential does not carry"))
            }
            OpError::Blocked => Self::new(403, code, "Forbidden", "this account is blocked"),
            OpError::NotFound(detail) => Self::new(404, code, "Not found", detail.clone()),
            OpError::IdempotencyMismatch(detail) => Self::new(400, code, "Idempotency key reused", detail.clone()),
            OpError::IdempotencyInUse => Self::new(
                409,
                code,
                "Request in progress",
                "a request with this Idempotency-Key is still running; retry when it has finished",
            ),
            OpError::Conflict { detail, retry_after } => {
                Self { retry_after: *retry_after, ..Self::new(409, code, "Conflict", detail.clone()) }
            }
            OpError::RateLimited { retry_after } => Self {
                retry_after: Some(*retry_after),
                ..Self::new(429, code, "Too many requests", format!("too many requests; retry in {retry_after} seconds"))
            },
            OpError::Internal(cause) => {
                let mut chain = cause.to_string();
                let mut source = cause.source();
                while let Some(next) = source {
                    chain.push_str(": ");
                    chain.push_str(&next.to_string());
                    source = next.source();
                }
                tracing::error!(error = %chain, "operation failed");
                Self::new(500, code, "Internal error", "something went wrong on our side; try again later")
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Status, code and `retry_after` of an error's problem.
    fn check(error: OpError, expect: (u16, &str, Option<u32>)) {
        let problem = Problem::of(&error);
        assert_eq!((problem.status, problem.code, problem.retry_after), expect, "{error:?}");
        assert_eq!(problem.retry_after, error.retry_after());
    }

    #[test]
    fn conflicts_and_rate_limits_say_when_to_retry() {
        check(OpError::Conflict { detail: "the draft is being written".into(), retry_after: Some(1) }, (409, "conflict", Some(1)));
        check(OpError::Conflict { detail: "the listing is archived".into(), retry_after: None }, (409, "conflict", None));
        check(OpError::RateLimited { retry_after: 30 }, (429, "rate_limited", Some(30)));
        check(OpError::IdempotencyInUse, (409, "idempotency_key_in_use", None));
        check(OpError::NotFound("gone".into()), (404, "not_found", None));
    }

    #[test]
    fn retry_after_is_in_the_body_only_when_set() {
        let body = |error: OpError| serde_json::to_value(Problem::of(&error)).unwrap();
        let limited = body(OpError::RateLimited { retry_after: 30 });
        assert_eq!(limited["retry_after"], 30);
        assert_eq!(limited["detail"], "too many requests; retry in 30 seconds");
        assert_eq!(limited["type"], "urn:launchdir:problem:rate_limited");
        let conflict = body(OpError::Conflict { detail: "the draft is being written".into(), retry_after: None });
        assert_eq!(conflict["detail"], "the draft is being written");
        assert!(conflict.get("retry_after").is_none());
        assert!(body(OpError::NotFound("gone".into())).get("retry_after").is_none());
    }
}
