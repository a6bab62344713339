//! What every domain shares: the job queue, idempotency, the mail outbox and housekeeping.

mod housekeeping_repo;
mod idempotency_repo;
mod jobs_repo;
pub(crate) mod outbox_repo;
