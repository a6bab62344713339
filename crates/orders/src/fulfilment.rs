//! Fulfilment: one job per paid line, keyed by the line, so it is enqueued once however many
//! times the payment event arrives. Each effect on a listing is idempotent or keyed by the
//! line, so a job that runs again after a crash repeats nothing; the line is `fulfilled` when
//! its effects are done (and its task, for work the site team does), and the order when every
//! line is.

use crate::order::{OrderLine, OrderStatus, ProductKind};
use crate::ports::OrderTask;
use crate::service::{OrderError, OrdersService};
use async_trait::async_trait;
use kernel::{Job, JobHandler, JobOutcome, JobRun, ListingId, RepoError};
use serde::{Deserialize, Serialize};
use serde_json::json;

/// What a launch line says when another order's launch of the listing came first.
const PAID_BY_ANOTHER_ORDER: &str = "not applied: another order paid for this listing's launch first";

/// Fulfils one paid order line.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct FulfilLine {
    pub line_id: i64,
}

impl Job for FulfilLine {
    const KIND: &'static str = "order.fulfil";
    const MAX_ATTEMPTS: u32 = 6;
}

/// What a line's fulfilment came to.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum LineResult {
    Fulfilled(String),
    /// Waiting for the site team's task.
    WaitingForTask(String),
    Skipped(String),
}

impl OrdersService {
    /// Runs the effects of one line (once: a fulfilled line is left alone).
    pub async fn fulfil_line(&self, line_id: i64) -> Result<LineResult, RepoError> {
        let Some((order, line)) = self.orders.line(line_id).await? else {
            return Ok(LineResult::Skipped("the line no longer exists".into()));
        };
        if line.fulfilled {
            return Ok(LineResult::Skipped("fulfilled already".into()));
        }
        if !matches!(order.status, OrderStatus::Paid | OrderStatus::Fulfilled) {
            return Ok(LineResult::Skipped(format!("the order is {}", order.status.as_str())));
        }
        let now = self.clock.now();
        // The effects ran on an earlier pass (the line waits for a task): not again.
        let outcome = match &line.outcome {
            Some(done) => done.clone(),
            None => {
                let (outcome, tasks) = self.apply(&line).await?;
                for kind in &tasks {
                    self.orders.open_task(line.id, kind, now).await?;
                }
                if !tasks.is_empty() {
                    self.orders.note_line(line.id, &outcome).await?;
                }
                outcome
            }
        };
        if self.orders.open_tasks_of_line(line.id).await? > 0 {
            return Ok(LineResult::WaitingForTask(outcome));
        }
        self.orders.fulfil_line(line.id, &outcome, now).await?;
        self.orders.complete_if_fulfilled(order.id, now).await?;
        Ok(LineResult::Fulfilled(outcome))
    }

    /// The line's effects on its listing, and the tasks it needs.
    async fn apply(&self, line: &OrderLine) -> Result<(String, Vec<&'static str>), RepoError> {
        let listing = line.line.listing_id;
        let need =
            |listing: Option<ListingId>| listing.ok_or_else(|| RepoError::Backend("a listing product's line names no listing".into()));
        Ok(match ProductKind::of(&line.line.product_code) {
            // A launch another order paid for first is not applied again: the site team refunds it.
            ProductKind::Launch => match self.listings.launch(need(listing)?, line.line.week, line.id).await? {
                Some(launched) => (launched.to_string(), vec![]),
                None => (PAID_BY_ANOTHER_ORDER.to_owned(), vec!["launch_review"]),
            },
            ProductKind::LaunchBundle => {
                let id = need(listing)?;
                let launched = match self.listings.launch(id, line.line.week, line.id).await? {
                    Some(launched) => launched.to_string(),
                    None => PAID_BY_ANOTHER_ORDER.to_owned(),
                };
                self.listings.feature(id).await?;
                let tasks = if launched == PAID_BY_ANOTHER_ORDER { vec!["ai_review", "launch_review"] } else { vec!["ai_review"] };
                (format!("{launched}; featured"), tasks)
            }
            ProductKind::SkipQueue => {
                let week = line.line.week.ok_or_else(|| RepoError::Backend("a skip_queue line has no week".into()))?;
                match self.listings.skip_queue(need(listing)?, week).await? {
                    Some(moved) => (moved, vec![]),
                    // It left the free queue after the order (a paid launch, or live): the week
                    // bought no longer applies, so the site team decides (a refund, usually).
                    None => (String::new(), vec!["skip_queue_review"]),
                }
            }
            ProductKind::Featured => {
                self.listings.feature(need(listing)?).await?;
                ("featured".into(), vec![])
            }
            ProductKind::ExtraCategories => {
                self.listings.add_categories(need(listing)?, &line.line.categories).await?;
                (format!("added to {}", line.line.categories.join(", ")), vec![])
            }
            ProductKind::BillboardMin => {
                let amount = line.line.amount.unwrap_or(line.line.amounts.subtotal);
                self.listings.billboard(need(listing)?, amount, line.id).await?;
                (format!("{amount} on the billboard"), vec![])
            }
            ProductKind::Relaunch => {
                let week = line.line.week.ok_or_else(|| RepoError::Backend("a relaunch line has no week".into()))?;
                (self.listings.relaunch(need(listing)?, week, line.id).await?, vec![])
            }
            ProductKind::AiReview => (String::new(), vec!["ai_review"]),
            ProductKind::DoneForYou => (String::new(), vec!["done_for_you"]),
            ProductKind::Other => (String::new(), vec!["other"]),
        })
    }

    /// Open tasks (or all), for the site team.
    pub async fn tasks(&self, open_only: bool) -> Result<Vec<OrderTask>, OrderError> {
        Ok(self.orders.tasks(open_only).await?)
    }

    /// The site team marks a task done; its line is fulfilled when no task of it is open.
    /// Marks a task done and fulfils its line; `true` when this call finished it (`false`: it
    /// was done before, nothing changed).
    pub async fn finish_task(&self, id: i64) -> Result<(OrderTask, bool), OrderError> {
        let (task, finished) = self.orders.finish_task(id, self.clock.now()).await?.ok_or(OrderError::NotFound)?;
        self.fulfil_line(task.order_line_id).await?;
        Ok((task, finished))
    }
}

#[async_trait]
impl JobHandler<FulfilLine> for OrdersService {
    async fn run(&self, job: FulfilLine, _: JobRun) -> JobOutcome {
        JobOutcome::from_result(self.fulfil_line(job.line_id).await, |result| match result {
            LineResult::Fulfilled(outcome) => json!({ "line": job.line_id, "fulfilled": outcome }),
            LineResult::WaitingForTask(note) => json!({ "line": job.line_id, "waiting": note }),
            LineResult::Skipped(why) => json!({ "line": job.line_id, "skipped": why }),
        })
    }
}
