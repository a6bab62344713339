//! `InterviewRepository` over SeaORM: answers keyed by account and question.

use crate::entity::{founder, interview_answer, interview_question, listing, listing_founder};
use crate::shared::queries::answers_of;
use crate::{SeaStore, repo_err};
use async_trait::async_trait;
use kernel::{RepoError, Slug, UserId};
use listings::{AnsweringFounder, InterviewAnswer, InterviewRepository};
use sea_orm::{ColumnTrait, EntityTrait, QueryFilter, QueryOrder, Set, TransactionTrait};
use std::collections::HashMap;
use time::{OffsetDateTime, UtcOffset};

#[async_trait]
impl InterviewRepository for SeaStore {
    async fn asked_questions(&self, ids: &[i64]) -> Result<Vec<i64>, RepoError> {
        Ok(interview_question::Entity::find()
            .filter(interview_question::Column::Id.is_in(ids.iter().copied()))
            .filter(interview_question::Column::Active.eq(true))
            .all(&self.db)
            .await
            .map_err(repo_err)?
            .into_iter()
            .map(|question| question.id)
            .collect())
    }

    async fn save_answers(&self, user: UserId, answers: &[(i64, String)], now: OffsetDateTime) -> Result<(), RepoError> {
        let txn = self.db.begin().await.map_err(repo_err)?;
        // Delete then insert: the same statements on SQLite and PostgreSQL, atomic in the
        // transaction.
        interview_answer::Entity::delete_many()
            .filter(interview_answer::Column::UserId.eq(user.get()))
            .filter(interview_answer::Column::QuestionId.is_in(answers.iter().map(|(id, _)| *id)))
            .exec(&txn)
            .await
            .map_err(repo_err)?;
        if !answers.is_empty() {
            interview_answer::Entity::insert_many(answers.iter().map(|(question, answer)| interview_answer::ActiveModel {
                user_id: Set(user.get()),
                question_id: Set(*question),
                answer: Set(answer.clone()),
                updated_at: Set(now.to_offset(UtcOffset::UTC)),
            }))
            .exec(&txn)
            .await
            .map_err(repo_err)?;
        }
        txn.commit().await.map_err(repo_err)
    }

    async fn answers(&self, user: UserId) -> Result<Vec<InterviewAnswer>, RepoError> {
        answers_of(&self.db, user.get()).await
    }

    async fn answering_founders(&self, user: UserId) -> Result<Vec<AnsweringFounder>, RepoError> {
        let owned = listing::Entity::find()
            .filter(crate::shared::ownership::owned_by(user))
            .order_by_asc(listing::Column::Id)
            .all(&self.db)
            .await
            .map_err(repo_err)?;
        let primaries = listing_founder::Entity::find()
            .filter(listing_founder::Column::ListingId.is_in(owned.iter().map(|l| l.id)))
            .filter(listing_founder::Column::Position.eq(0))
            .all(&self.db)
            .await
            .map_err(repo_err)?;
        let founders: HashMap<i64, founder::Model> = founder::Entity::find()
            .filter(founder::Column::Id.is_in(primaries.iter().map(|link| link.founder_id)))
            .all(&self.db)
            .await
            .map_err(repo_err)?
            .into_iter()
            .map(|f| (f.id, f))
            .collect();
        let mut found: Vec<AnsweringFounder> = Vec::new();
        for listing in &owned {
            let Some(link) = primaries.iter().find(|link| link.listing_id == listing.id) else { continue };
            let Some(founder) = founders.get(&link.founder_id) else { continue };
            let Ok(slug) = Slug::parse(&founder.slug) else { continue };
            let live = listing.status == "live";
            match found.iter_mut().find(|f| f.slug == slug) {
                Some(existing) => existing.public |= live,
                None => found.push(AnsweringFounder { slug, public: live }),
            }
        }
        Ok(found)
    }
}
