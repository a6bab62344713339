//! A question and its answer, as categories, listings and blog posts carry them.

use serde::{Deserialize, Serialize};

/// A question and its answer.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Faq {
    pub question: String,
    pub answer: String,
}
