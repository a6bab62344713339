#![doc = include_str!("../README.md")]

pub mod blog;

pub use blog::{BlogError, BlogPost, BlogPostSummary, BlogRepository, BlogService, search_words};

use async_trait::async_trait;
use kernel::RepoError;
use serde::Serialize;

/// A question founders can answer on their profile.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct InterviewQuestion {
    /// The id an answer refers to (`question_id`).
    pub id: i64,
    pub position: i32,
    pub question: String,
    /// A hint shown under the question.
    pub hint: Option<String>,
}

/// Where interview questions are kept.
#[async_trait]
pub trait InterviewQuestionRepository: Send + Sync {
    /// The questions in use, in display order.
    async fn list_active(&self) -> Result<Vec<InterviewQuestion>, RepoError>;
}
