//! Errors shared by every domain: a field-level validation message and the error
//! repository ports return.

use serde::Serialize;

/// One rejected input field: `field` is a dotted path (`fields.tagline`, `items[0].product`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct FieldError {
    pub field: String,
    pub message: String,
}

impl FieldError {
    pub fn new(field: impl Into<String>, message: impl Into<String>) -> Self {
        Self { field: field.into(), message: message.into() }
    }
}

/// What a repository adapter may report. Adapters map their driver errors into it.
#[derive(Debug, thiserror::Error)]
pub enum RepoError {
    /// A unique key was violated; the string names the key (for example `users.email`).
    #[error("duplicate {0}")]
    Duplicate(String),
    /// The storage failed; the source carries the driver's error.
    #[error("storage failed")]
    Backend(#[source] Box<dyn std::error::Error + Send + Sync>),
}

impl RepoError {
    pub fn backend(error: impl std::error::Error + Send + Sync + 'static) -> Self {
        Self::Backend(Box::new(error))
    }
}
