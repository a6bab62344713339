//! Founder interviews (`answer_interview`): an account answers the site's interview questions,
//! and the answers appear on the founder profile of the primary founder of each listing the
//! account owns.

use async_trait::async_trait;
use kernel::{Clock, FieldError, RepoError, Slug, UserId};
use std::sync::Arc;
use time::OffsetDateTime;

/// The most answers one call takes.
pub const MAX_ANSWERS_PER_CALL: usize = 30;
/// The longest answer, in characters.
pub const MAX_ANSWER_CHARS: usize = 4000;

/// An answer to an interview question.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct InterviewAnswer {
    pub question_id: i64,
    pub question: String,
    pub answer: String,
    pub updated_at: OffsetDateTime,
}

/// A founder profile the account's answers appear on.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AnsweringFounder {
    pub slug: Slug,
    /// Whether the public sees the profile now (one of its listings is live).
    pub public: bool,
}

/// Where answers are kept.
#[async_trait]
pub trait InterviewRepository: Send + Sync {
    /// The ids among `ids` of questions that exist and are asked (active).
    async fn asked_questions(&self, ids: &[i64]) -> Result<Vec<i64>, RepoError>;

    /// Stores the answers (replacing earlier answers to the same questions) in one transaction.
    async fn save_answers(&self, user: UserId, answers: &[(i64, String)], now: OffsetDateTime) -> Result<(), RepoError>;

    /// Every answer of the account, in the questions' order.
    async fn answers(&self, user: UserId) -> Result<Vec<InterviewAnswer>, RepoError>;

    /// The founders the account answers as: the primary founder of each listing it owns.
    async fn answering_founders(&self, user: UserId) -> Result<Vec<AnsweringFounder>, RepoError>;
}

#[derive(Debug, thiserror::Error)]
pub enum InterviewError {
    #[error("invalid answers")]
    Invalid(Vec<FieldError>),
    #[error(transparent)]
    Repo(#[from] RepoError),
}

#[derive(Clone)]
pub struct InterviewService {
    repo: Arc<dyn InterviewRepository>,
    clock: Arc<dyn Clock>,
}

impl InterviewService {
    pub fn new(repo: Arc<dyn InterviewRepository>, clock: Arc<dyn Clock>) -> Self {
        Self { repo, clock }
    }

    /// `answer_interview`: every `question_id` must name an asked question, once per call;
    /// nothing is stored while one is wrong. Returns all of the account's answers and the
    /// founder profiles they appear on.
    pub async fn answer(
        &self,
        user: UserId,
        answers: Vec<(i64, String)>,
    ) -> Result<(Vec<InterviewAnswer>, Vec<AnsweringFounder>), InterviewError> {
        let ids: Vec<i64> = answers.iter().map(|(id, _)| *id).collect();
        let asked = self.repo.asked_questions(&ids).await?;
        let mut errors = Vec::new();
        for (i, (id, answer)) in answers.iter().enumerate() {
            if !asked.contains(id) {
                errors.push(FieldError::new(
                    format!("answers[{i}].question_id"),
                    format!("there is no interview question {id}; list_interview_questions has them"),
                ));
            } else if ids[..i].contains(id) {
                errors.push(FieldError::new(format!("answers[{i}].question_id"), format!("question {id} is answered twice")));
            }
            if answer.trim().is_empty() {
                errors.push(FieldError::new(format!("answers[{i}].answer"), "must not be empty"));
            }
        }
        if !errors.is_empty() {
            return Err(InterviewError::Invalid(errors));
        }
        let answers: Vec<(i64, String)> = answers.into_iter().map(|(id, answer)| (id, answer.trim().to_owned())).collect();
        self.repo.save_answers(user, &answers, self.clock.now()).await?;
        Ok((self.repo.answers(user).await?, self.repo.answering_founders(user).await?))
    }
}
