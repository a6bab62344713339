//! `JobQueue` over SeaORM. A claim is a compare-and-set `UPDATE ... WHERE id = ? AND <still
//! claimable>`: of two workers racing for one job exactly one updates the row, on PostgreSQL and
//! on SQLite alike, without holding locks across the job's run.

use crate::entity::job;
use crate::shared::rows::job_row;
use crate::{SeaStore, repo_err};
use async_trait::async_trait;
use kernel::{ClaimedJob, JobQueue, JobState, NewJob, RepoError};
use sea_orm::sea_query::{Condition, Expr, ExprTrait};
use sea_orm::{ActiveModelTrait, ColumnTrait, EntityTrait, QueryFilter, QueryOrder, QuerySelect};
use time::{Duration, OffsetDateTime, UtcOffset};

/// Jobs that may be claimed at `now`: queued and due, or running with an expired lease.
fn claimable(now: OffsetDateTime) -> Condition {
    Condition::any()
        .add(Condition::all().add(job::Column::State.eq("queued")).add(job::Column::RunAt.lte(now)))
        .add(Condition::all().add(job::Column::State.eq("running")).add(job::Column::LockedUntil.lt(now)))
}

#[async_trait]
impl JobQueue for SeaStore {
    async fn enqueue(&self, new: NewJob) -> Result<bool, RepoError> {
        match job_row(&new, new.run_at).insert(&self.db).await.map_err(repo_err) {
            Ok(_) => Ok(true),
            Err(RepoError::Duplicate(_)) if new.unique_key.is_some() => Ok(false),
            Err(err) => Err(err),
        }
    }

    async fn claim(&self, now: OffsetDateTime, lease: Duration, worker: &str) -> Result<Option<ClaimedJob>, RepoError> {
        let now = now.to_offset(UtcOffset::UTC);
        for _ in 0..5 {
            let candidates = job::Entity::find()
                .filter(claimable(now))
                .order_by_asc(job::Column::RunAt)
                .order_by_asc(job::Column::Id)
                .limit(4)
                .all(&self.db)
                .await
                .map_err(repo_err)?;
            if candidates.is_empty() {
                return Ok(None);
            }
            for candidate in candidates {
                let claimed = job::Entity::update_many()
                    .col_expr(job::Column::State, Expr::value("running"))
                    .col_expr(job::Column::Attempts, Expr::col(job::Column::Attempts).add(1))
                    .col_expr(job::Column::LockedUntil, Expr::value(now + lease))
                    .col_expr(job::Column::LockedBy, Expr::value(worker))
                    .filter(job::Column::Id.eq(candidate.id))
                    .filter(job::Column::Attempts.eq(candidate.attempts))
                    .filter(claimable(now))
                    .exec(&self.db)
                    .await
                    .map_err(repo_err)?;
                if claimed.rows_affected == 1 {
                    return Ok(Some(ClaimedJob {
                        id: candidate.id,
                        kind: candidate.kind,
                        payload: candidate.payload,
                        attempt: u32::try_from(candidate.attempts + 1).unwrap_or(1),
                        max_attempts: u32::try_from(candidate.max_attempts).unwrap_or(1),
                    }));
                }
            }
        }
        Ok(None)
    }

    async fn complete(&self, id: i64, attempt: u32, now: OffsetDateTime) -> Result<bool, RepoError> {
        let done = job::Entity::update_many()
            .col_expr(job::Column::State, Expr::value("done"))
            .col_expr(job::Column::LockedUntil, Expr::value(Option::<OffsetDateTime>::None))
            .col_expr(job::Column::FinishedAt, Expr::value(now.to_offset(UtcOffset::UTC)))
            .filter(job::Column::Id.eq(id))
            .filter(job::Column::State.eq("running"))
            .filter(job::Column::Attempts.eq(i64::from(attempt)))
            .exec(&self.db)
            .await
            .map_err(repo_err)?;
        Ok(done.rows_affected == 1)
    }

    async fn fail(
        &self,
        id: i64,
        attempt: u32,
        error: &str,
        retry_at: Option<OffsetDateTime>,
        now: OffsetDateTime,
    ) -> Result<bool, RepoError> {
        let error: String = error.chars().take(2000).collect();
        let mut update = job::Entity::update_many()
            .col_expr(job::Column::LastError, Expr::value(error))
            .col_expr(job::Column::LockedUntil, Expr::value(Option::<OffsetDateTime>::None))
            .filter(job::Column::Id.eq(id))
            .filter(job::Column::State.eq("running"))
            .filter(job::Column::Attempts.eq(i64::from(attempt)));
        update = match retry_at {
            Some(at) => update
                .col_expr(job::Column::State, Expr::value("queued"))
                .col_expr(job::Column::RunAt, Expr::value(at.to_offset(UtcOffset::UTC))),
            None => update
                .col_expr(job::Column::State, Expr::value("failed"))
                .col_expr(job::Column::FinishedAt, Expr::value(now.to_offset(UtcOffset::UTC))),
        };
        Ok(update.exec(&self.db).await.map_err(repo_err)?.rows_affected == 1)
    }

    async fn release(&self, workers: &[String], now: OffsetDateTime) -> Result<u64, RepoError> {
        if workers.is_empty() {
            return Ok(0);
        }
        let released = job::Entity::update_many()
            .col_expr(job::Column::State, Expr::value("queued"))
            .col_expr(job::Column::Attempts, Expr::col(job::Column::Attempts).sub(1))
            .col_expr(job::Column::LockedUntil, Expr::value(Option::<OffsetDateTime>::None))
            .col_expr(job::Column::LockedBy, Expr::value(Option::<String>::None))
            .col_expr(job::Column::RunAt, Expr::value(now.to_offset(UtcOffset::UTC)))
            .filter(job::Column::State.eq("running"))
            .filter(job::Column::LockedBy.is_in(workers.iter().cloned()))
            .filter(job::Column::Attempts.gt(0))
            .exec(&self.db)
            .await
            .map_err(repo_err)?;
        Ok(released.rows_affected)
    }

    async fn state(&self, id: i64) -> Result<Option<(JobState, u32, Option<String>)>, RepoError> {
        let row = job::Entity::find_by_id(id).one(&self.db).await.map_err(repo_err)?;
        Ok(row.and_then(|row| JobState::parse(&row.state).map(|state| (state, u32::try_from(row.attempts).unwrap_or(0), row.last_error))))
    }
}

impl SeaStore {
    /// The ids of jobs of a kind, oldest first (for operators and tests).
    pub async fn job_ids(&self, kind: &str) -> Result<Vec<i64>, RepoError> {
        let rows =
            job::Entity::find().filter(job::Column::Kind.eq(kind)).order_by_asc(job::Column::Id).all(&self.db).await.map_err(repo_err)?;
        Ok(rows.into_iter().map(|row| row.id).collect())
    }
}
