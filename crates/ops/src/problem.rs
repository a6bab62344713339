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
}

impl Problem {
    pub fn new(status: u16, code: &'static str, title: &'static str, detail: impl Into<String>) -> Self {
        Self { kind: format!("urn:launchdir:problem:{code}"), title, status, detail: detail.into(), code, errors: Vec::new() }
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
