//! The claims' periodic jobs: pending claims expire after 14 days (hourly), and verified dns,
//! meta and file claims are checked again once the re-check interval has passed (daily).

use crate::service::ClaimsService;
use async_trait::async_trait;
use kernel::{Job, JobHandler, JobOutcome, JobRun, NewJob};
use serde::{Deserialize, Serialize};
use serde_json::json;
use time::OffsetDateTime;

/// Marks pending claims past their lifetime expired.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct ExpireClaims {}

impl Job for ExpireClaims {
    const KIND: &'static str = "claim.expire";
}

#[async_trait]
impl JobHandler<ExpireClaims> for ClaimsService {
    async fn run(&self, _: ExpireClaims, _: JobRun) -> JobOutcome {
        JobOutcome::from_result(self.expire_due().await, |expired| json!({ "expired": expired }))
    }
}

/// Checks verified claims' proofs again.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct RecheckClaims {}

impl Job for RecheckClaims {
    const KIND: &'static str = "claim.recheck";
}

#[async_trait]
impl JobHandler<RecheckClaims> for ClaimsService {
    async fn run(&self, _: RecheckClaims, _: JobRun) -> JobOutcome {
        JobOutcome::from_result(self.recheck_due().await, |summary| json!(summary))
    }
}

/// The claims' periodic jobs due at `now`, each keyed by its period so it runs once.
pub fn periodic_jobs(now: OffsetDateTime) -> Vec<NewJob> {
    let (hour, day) = (now.unix_timestamp().div_euclid(3600), now.unix_timestamp().div_euclid(86_400));
    vec![
        ExpireClaims {}.new_job(now).unique(format!("{}:{hour}", ExpireClaims::KIND)),
        RecheckClaims {}.new_job(now).unique(format!("{}:{day}", RecheckClaims::KIND)),
    ]
}
