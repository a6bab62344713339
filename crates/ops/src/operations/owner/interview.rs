//! `answer_interview`: the founder interview of the caller, shown on the founder profiles of
//! the listings they own.

use crate::registry::{Input, Operation, OperationSpec};
use crate::spec_presets::OWNER_WRITE;
use crate::wire::InterviewAnswerView;
use crate::{Caller, Context, HttpMethod, InputPart, ListingServices, NoInput, OpError};
use async_trait::async_trait;
use garde::Validate;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

/// An answer to one interview question.
#[derive(Debug, Deserialize, JsonSchema, Validate)]
#[serde(deny_unknown_fields)]
pub struct InterviewAnswerInput {
    /// A question of `list_interview_questions`.
    #[garde(range(min = 1))]
    #[serde(deserialize_with = "crate::input::whole_number")]
    pub question_id: i64,
    #[garde(length(chars, min = 1, max = 4000))]
    pub answer: String,
}

/// The `answer_interview` body.
#[derive(Debug, Deserialize, JsonSchema, Validate)]
#[serde(deny_unknown_fields)]
pub struct AnswerInterviewBody {
    /// At most 30 per call; answering a question again replaces its answer.
    #[garde(length(min = 1, max = 30), dive)]
    pub answers: Vec<InterviewAnswerInput>,
}

impl InputPart for AnswerInterviewBody {}

/// The account's interview after `answer_interview`.
#[derive(Debug, Serialize, JsonSchema)]
pub struct InterviewView {
    /// Every answer of the account, in the questions' order.
    pub answers: Vec<InterviewAnswerView>,
    /// The founder profiles the answers appear on: the primary founder of each listing you own.
    /// A profile is public once one of its listings is live.
    pub shown_on: Vec<ShownOnView>,
}

#[derive(Debug, Serialize, JsonSchema)]
pub struct ShownOnView {
    pub founder_slug: String,
    pub url: String,
    /// Whether the public sees it now.
    pub public: bool,
}

pub struct AnswerInterview;

#[async_trait]
impl Operation for AnswerInterview {
    type Path = NoInput;
    type Query = NoInput;
    type Body = AnswerInterviewBody;
    type Output = InterviewView;
    type Area = ListingServices;

    const SPEC: OperationSpec = OperationSpec {
        id: "answer_interview",
        method: HttpMethod::Put,
        path: "/me/interview",
        summary: "Answer interview questions",
        description: "Answers up to 30 founder interview questions (list_interview_questions) per call, each answer up to 4000 characters; answering a question again replaces its answer. The answers appear on the founder profile of the primary founder of each listing you own.",
        // The interview is the account's, not a listing's: no id in the path to miss.
        not_found: false,
        ..OWNER_WRITE
    };

    async fn run(
        &self,
        listings: Context<'_, Self::Area>,
        caller: &Caller,
        input: Input<NoInput, NoInput, AnswerInterviewBody>,
    ) -> Result<InterviewView, OpError> {
        let answers = input.body.answers.into_iter().map(|a| (a.question_id, a.answer)).collect();
        let (answers, founders) = listings.interviews.answer(caller.user_id()?, answers).await?;
        Ok(InterviewView {
            answers: answers.into_iter().map(InterviewAnswerView::from).collect(),
            shown_on: founders
                .into_iter()
                .map(|f| ShownOnView {
                    url: format!("{}/founders/{}", listings.site.site_url, f.slug),
                    founder_slug: f.slug.to_string(),
                    public: f.public,
                })
                .collect(),
        })
    }
}
