//! Queries more than one repository runs: founders of live listings, a founder's interview
//! answers, and the head of the listing change feed with how much of it is kept.

use crate::entity::{interview_answer, interview_question, listing, listing_change, listing_founder};
use crate::repo_err;
use kernel::RepoError;
use listings::InterviewAnswer;
use sea_orm::sea_query::{Expr, ExprTrait, Query, SelectStatement};
use sea_orm::{ColumnTrait, ConnectionTrait, EntityTrait, QueryFilter, QueryOrder, QuerySelect};
use std::collections::HashMap;

/// Ids of founders with at least one live listing (the founders list and the sitemaps):
/// `SELECT lf.founder_id FROM listing_founders lf JOIN listings l ... WHERE l.status = 'live'`
pub(crate) fn founders_of_live_listings() -> SelectStatement {
    Query::select()
        .column((listing_founder::Entity, listing_founder::Column::FounderId))
        .from(listing_founder::Entity)
        .inner_join(
            listing::Entity,
            Expr::col((listing::Entity, listing::Column::Id)).equals((listing_founder::Entity, listing_founder::Column::ListingId)),
        )
        .and_where(Expr::col((listing::Entity, listing::Column::Status)).eq("live"))
        .to_owned()
}

/// An account's answers, in the questions' order (asked questions only).
pub(crate) async fn answers_of<C: ConnectionTrait>(db: &C, user: i64) -> Result<Vec<InterviewAnswer>, RepoError> {
    let answers = interview_answer::Entity::find().filter(interview_answer::Column::UserId.eq(user)).all(db).await.map_err(repo_err)?;
    if answers.is_empty() {
        return Ok(Vec::new());
    }
    let questions = interview_question::Entity::find()
        .filter(interview_question::Column::Id.is_in(answers.iter().map(|a| a.question_id)))
        .filter(interview_question::Column::Active.eq(true))
        .order_by_asc(interview_question::Column::Position)
        .order_by_asc(interview_question::Column::Id)
        .all(db)
        .await
        .map_err(repo_err)?;
    let mut by_question: HashMap<i64, interview_answer::Model> = answers.into_iter().map(|a| (a.question_id, a)).collect();
    Ok(questions
        .into_iter()
        .filter_map(|question| {
            let answer = by_question.remove(&question.id)?;
            Some(InterviewAnswer {
                question_id: question.id,
                question: question.question,
                answer: answer.answer,
                updated_at: answer.updated_at,
            })
        })
        .collect())
}

/// The feed positions kept by the daily purge: far more than any node falls behind while it
/// runs; a node further behind reads its index in full again.
pub(crate) const CHANGES_KEPT: i64 = 100_000;

/// The feed's newest position (`None` while it is empty).
pub(crate) async fn feed_head(db: &impl sea_orm::ConnectionTrait) -> Result<Option<i64>, RepoError> {
    Ok(listing_change::Entity::find()
        .select_only()
        .column_as(listing_change::Column::Seq.max(), "head")
        .into_tuple::<Option<i64>>()
        .one(db)
        .await
        .map_err(repo_err)?
        .flatten())
}
