//! `list_interview_questions`.

use crate::registry::{Input, Operation, OperationSpec};
use crate::wire::SchemaOf;
use crate::{Caller, ContentServices, Context, NoInput, OpError};
use async_trait::async_trait;
use content::InterviewQuestion;
use schemars::JsonSchema;
use serde::Serialize;

pub struct ListInterviewQuestions;

/// The questions founders can answer with `answer_interview`.
#[derive(Debug, Serialize, JsonSchema)]
pub struct InterviewQuestions {
    #[schemars(with = "Vec<SchemaOf<InterviewQuestion>>")]
    pub items: Vec<InterviewQuestion>,
}

#[async_trait]
impl Operation for ListInterviewQuestions {
    type Path = NoInput;
    type Query = NoInput;
    type Body = NoInput;
    type Output = InterviewQuestions;
    type Area = ContentServices;

    const SPEC: OperationSpec = OperationSpec {
        id: "list_interview_questions",
        path: "/interview-questions",
        summary: "Founder interview questions",
        description: "The questions founders can answer on their profile, in display order; an answer names a question by its id.",
        tag: "content",
        ..OperationSpec::READ
    };

    async fn run(
        &self,
        content: Context<'_, Self::Area>,
        _: &Caller,
        _: Input<NoInput, NoInput, NoInput>,
    ) -> Result<InterviewQuestions, OpError> {
        Ok(InterviewQuestions { items: content.interview_questions.list_active().await? })
    }
}
