//! A founder's interview answer, as `get_founder` shows it and `answer_interview` returns it.

use super::dates::rfc3339;
use schemars::JsonSchema;
use serde::Serialize;

/// An interview question and the founder's answer.
#[derive(Debug, Serialize, JsonSchema)]
pub struct InterviewAnswerView {
    pub question_id: i64,
    pub question: String,
    pub answer: String,
    /// RFC 3339.
    pub updated_at: String,
}

impl From<listings::InterviewAnswer> for InterviewAnswerView {
    fn from(answer: listings::InterviewAnswer) -> Self {
        Self { question_id: answer.question_id, question: answer.question, answer: answer.answer, updated_at: rfc3339(answer.updated_at) }
    }
}
