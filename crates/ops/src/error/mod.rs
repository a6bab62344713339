//! The error every operation returns; transports map it to HTTP problem details or MCP errors.

mod convert;

use accounts::Scope;
use kernel::FieldError;

/// Why an operation did not succeed.
#[derive(Debug, thiserror::Error)]
pub enum OpError {
    /// Bad input: one entry per rejected field. Nothing was written.
    #[error("the request has invalid fields")]
    Validation(Vec<FieldError>),
    /// No credential, or one that is malformed, unknown, expired or revoked.
    #[error("authentication required")]
    Unauthorized {
        /// Whether a credential was sent (then it was invalid).
        credential_sent: bool,
        detail: String,
    },
    /// A valid credential that lacks `scope`.
    #[error("the credential lacks the scope {scope}")]
    InsufficientScope { scope: Scope },
    /// The account is blocked.
    #[error("the account is blocked")]
    Blocked,
    /// The resource named in the path does not exist (or is not the caller's).
    #[error("{0}")]
    NotFound(String),
    /// An `Idempotency-Key` reused with a different request.
    #[error("{0}")]
    IdempotencyMismatch(String),
    /// A request with this `Idempotency-Key` is still running.
    #[error("a request with this Idempotency-Key is still running")]
    IdempotencyInUse,
    /// The request collides with the resource's current state or with another writer; it may
    /// succeed when retried, after `retry_after` seconds where that is known.
    #[error("{detail}")]
    Conflict { detail: String, retry_after: Option<u32> },
    /// Too many requests from this caller; retry after `retry_after` seconds.
    #[error("too many requests; retry in {retry_after} seconds")]
    RateLimited { retry_after: u32 },
    /// Something broke on our side; the cause is logged, never shown.
    #[error("internal error")]
    Internal(#[source] Box<dyn std::error::Error + Send + Sync>),
}

impl OpError {
    pub fn field(field: impl Into<String>, message: impl Into<String>) -> Self {
        Self::Validation(vec![FieldError::new(field, message)])
    }

    pub fn internal(error: impl std::error::Error + Send + Sync + 'static) -> Self {
        Self::Internal(Box::new(error))
    }

    /// Seconds the caller should wait before retrying, where the error says (`Retry-After`).
    pub fn retry_after(&self) -> Option<u32> {
        match self {
            Self::Conflict { retry_after, .. } => *retry_after,
            Self::RateLimited { retry_after } => Some(*retry_after),
            _ => None,
        }
    }

    /// The stable snake_case code callers can match on.
    pub fn code(&self) -> &'static str {
        match self {
            Self::Validation(_) => "validation_failed",
            Self::Unauthorized { .. } => "unauthorized",
            Self::InsufficientScope { .. } => "insufficient_scope",
            Self::Blocked => "account_blocked",
            Self::NotFound(_) => "not_found",
            Self::IdempotencyMismatch(_) => "idempotency_key_mismatch",
            Self::IdempotencyInUse => "idempotency_key_in_use",
            Self::Conflict { .. } => "conflict",
            Self::RateLimited { .. } => "rate_limited",
            Self::Internal(_) => "internal_error",
        }
    }
}
