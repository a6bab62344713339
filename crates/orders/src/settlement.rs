//! Payments arriving: a verified webhook or a reconciled payment settles its order once
//! (`pending` → `paid`, or `needs_review` when the amount or currency differ, or a refund when
//! the order can no longer take it), and the periodic jobs that expire pending orders, refund
//! late payments and reconcile with the provider.

use crate::fulfilment::FulfilLine;
use crate::invoices::IssueInvoice;
use crate::order::{Order, OrderStatus};
use crate::payments::{CompletedPayment, PaymentEvent, PaymentEventKind, WebhookError};
use crate::ports::{Settled, Settlement};
use crate::service::{OrderError, OrdersService};
use async_trait::async_trait;
use kernel::{Cents, Job, JobHandler, JobOutcome, JobRun, NewJob};
use serde::{Deserialize, Serialize};
use serde_json::json;
use time::{Duration, OffsetDateTime};

/// What a webhook delivery did, for the provider's log and ours.
#[derive(Debug, Clone)]
pub enum WebhookOutcome {
    Duplicate,
    UnknownOrder,
    Applied(&'static str),
}

/// The payment settles its order: the rules of `decisions.md` (Statuses: Order).
pub fn decide(order: &Order, payment: &CompletedPayment, now: OffsetDateTime) -> Settlement {
    let refund = |reason: String, order_refunded: bool| Settlement::Refund {
        job: RefundPayment {
            order_id: order.id,
            payment_id: payment.payment_id.clone(),
            amount_cents: payment.amount.get(),
            reason: reason.clone(),
            order_refunded,
        }
        .new_job(now)
        .unique(format!("{}:{}", RefundPayment::KIND, payment.payment_id)),
        reason,
    };
    if order.payment_id.as_deref() == Some(payment.payment_id.as_str()) {
        return Settlement::Nothing(format!("payment {} is settled already", payment.payment_id));
    }
    match order.status {
        OrderStatus::Pending if payment.amount != order.totals.total || !payment.currency.eq_ignore_ascii_case(Order::CURRENCY) => {
            Settlement::NeedsReview {
                payment: payment.clone(),
                reason: format!(
                    "paid {} {} for an order of {} {}",
                    payment.amount,
                    payment.currency.to_uppercase(),
                    order.totals.total,
                    Order::CURRENCY
                ),
            }
        }
        OrderStatus::Pending => Settlement::Paid {
            payment: payment.clone(),
            // Each line fulfilled, and the invoice issued with its receipt e-mailed.
            jobs: order
                .lines
                .iter()
                .map(|line| FulfilLine { line_id: line.id }.new_job(now).unique(format!("{}:{}", FulfilLine::KIND, line.id)))
                .chain([IssueInvoice { order_id: order.id }.new_job(now).unique(format!("{}:{}", IssueInvoice::KIND, order.id))])
                .collect(),
        },
        OrderStatus::Expired | OrderStatus::Canceled => refund(format!("paid after the order was {}", order.status.as_str()), true),
        OrderStatus::Paid | OrderStatus::Fulfilled => {
            refund(format!("a second payment for order {}, which was paid already", order.number), false)
        }
        // The order's own payment stays for the site team (or went back); another one goes back.
        OrderStatus::NeedsReview | OrderStatus::Refunded => {
            refund(format!("another payment for order {}, which is {}", order.number, order.status.as_str()), false)
        }
    }
}

impl OrdersService {
    /// A webhook at `/webhooks/payments/<provider>`: verified over the raw body, then settled.
    /// A refused webhook changes nothing.
    pub async fn receive_webhook(
        &self,
        provider: &str,
        signature: Option<&str>,
        body: &[u8],
    ) -> Result<WebhookOutcome, WebhookReceiveError> {
        if provider != self.provider.name() {
            return Err(WebhookReceiveError::UnknownProvider);
        }
        let event = self.provider.verify_webhook(signature, body, self.clock.now()).map_err(WebhookReceiveError::Refused)?;
        self.settle_event(&event).await.map_err(WebhookReceiveError::Failed)
    }

    /// Settles one event (webhook or reconciliation) in the repository's settling transaction.
    pub async fn settle_event(&self, event: &PaymentEvent) -> Result<WebhookOutcome, OrderError> {
        let now = self.clock.now();
        let (kind, number) = match &event.kind {
            PaymentEventKind::Completed(payment) => ("payment.completed", Some(payment.order_number.as_str())),
            PaymentEventKind::Failed { order_number, .. } => ("payment.failed", Some(order_number.as_str())),
            PaymentEventKind::Other(kind) => (kind.as_str(), None),
        };
        let settle = |order: &Order| match &event.kind {
            PaymentEventKind::Completed(payment) => decide(order, payment, now),
            PaymentEventKind::Failed { reason, .. } => Settlement::Nothing(format!("a payment attempt failed: {reason}")),
            PaymentEventKind::Other(kind) => Settlement::Nothing(format!("{kind} changes nothing")),
        };
        let number = number.filter(|_| matches!(event.kind, PaymentEventKind::Completed(_) | PaymentEventKind::Failed { .. }));
        Ok(match self.orders.settle(self.provider.name(), &event.id, kind, number, &settle, now).await? {
            Settled::Duplicate => WebhookOutcome::Duplicate,
            Settled::UnknownOrder => {
                tracing::warn!(event = %event.id, "a payment event names no order of ours");
                WebhookOutcome::UnknownOrder
            }
            Settled::Applied(settlement) => WebhookOutcome::Applied(match settlement {
                Settlement::Nothing(why) => {
                    tracing::info!(event = %event.id, %why, "payment event recorded");
                    "recorded"
                }
                Settlement::Paid { .. } => "paid",
                Settlement::NeedsReview { reason, .. } => {
                    tracing::warn!(event = %event.id, %reason, "a payment needs review");
                    "needs_review"
                }
                Settlement::Refund { reason, .. } => {
                    tracing::warn!(event = %event.id, %reason, "a payment will be refunded");
                    "refund"
                }
            }),
        })
    }

    /// The payment page of a provider that lives on this site (the test provider): its button
    /// makes the signed event, which then takes the webhook's own path. `session` must be the
    /// order's current payment session (unguessable; the page's URL carries it).
    pub async fn simulate_payment(&self, number: &str, token: &str, session: &str, pay: bool) -> Result<WebhookOutcome, OrderError> {
        // The checkout token, as on the checkout page: the order number and session are not
        // secrets enough to pay with (a wrong token is `NotFound`, like an unknown number).
        let order = self.open_checkout(number, token).await?;
        if order.provider_session.as_deref() != Some(session) {
            return Err(OrderError::NotFound);
        }
        let (body, signature) = match self.provider.simulate(&order, session, pay, self.clock.now()) {
            Some(event) => event?,
            None => return Err(OrderError::NotFound),
        };
        match self.receive_webhook(self.provider.name(), Some(&signature), &body).await {
            Ok(outcome) => Ok(outcome),
            Err(WebhookReceiveError::Failed(err)) => Err(err),
            Err(err) => Err(OrderError::Provider(crate::PaymentError(err.to_string()))),
        }
    }

    /// Refunds an order by hand (the site team): its payment goes back and it becomes `refunded`.
    pub async fn refund(&self, number: &str, reason: &str) -> Result<Order, OrderError> {
        let order = self.find(number).await?;
        let Some(payment_id) = order.payment_id.clone() else {
            return Err(OrderError::NotPending("not paid: there is nothing to refund"));
        };
        if order.status != OrderStatus::Refunded {
            self.provider.refund(&payment_id, order.paid_amount.unwrap_or(order.totals.total), &refund_key(&payment_id)).await?;
            self.orders.mark_refunded(order.id, reason, self.clock.now()).await?;
        }
        // The invoice's credit note (once; also when an earlier refund stopped before it).
        self.issue_credit_note(order.id).await?;
        self.find(number).await
    }

    /// Pending orders past their 24 hours become `expired`.
    pub async fn expire_due(&self) -> Result<u64, OrderError> {
        Ok(self.orders.expire_due(self.clock.now()).await?)
    }

    /// Asks the provider for payments completed in the last `window` and settles each whose
    /// order is not settled yet (a webhook that never arrived).
    pub async fn reconcile(&self, window: Duration) -> Result<usize, OrderError> {
        let payments = self.provider.completed_since(self.clock.now() - window).await?;
        let mut settled = 0;
        for payment in payments {
            let event = PaymentEvent { id: format!("reconcile:{}", payment.session_id), kind: PaymentEventKind::Completed(payment) };
            if matches!(self.settle_event(&event).await?, WebhookOutcome::Applied("paid" | "needs_review" | "refund")) {
                settled += 1;
            }
        }
        Ok(settled)
    }
}

fn refund_key(payment_id: &str) -> String {
    format!("refund-{payment_id}")
}

/// Why a webhook was not taken.
#[derive(Debug, thiserror::Error)]
pub enum WebhookReceiveError {
    #[error("no such payment provider here")]
    UnknownProvider,
    #[error("refused: {0}")]
    Refused(WebhookError),
    #[error("could not settle: {0}")]
    Failed(OrderError),
}

/// Gives a payment back through the provider (idempotent under a key naming the payment).
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct RefundPayment {
    pub order_id: i64,
    pub payment_id: String,
    pub amount_cents: i64,
    pub reason: String,
    /// The order itself becomes `refunded` (a late payment); false for a second payment of an
    /// order that stays paid.
    pub order_refunded: bool,
}

impl Job for RefundPayment {
    const KIND: &'static str = "order.refund";
    const MAX_ATTEMPTS: u32 = 8;
}

#[async_trait]
impl JobHandler<RefundPayment> for OrdersService {
    async fn run(&self, job: RefundPayment, _: JobRun) -> JobOutcome {
        if let Err(err) = self.provider.refund(&job.payment_id, Cents::new(job.amount_cents), &refund_key(&job.payment_id)).await {
            return JobOutcome::Retry(err.to_string());
        }
        if job.order_refunded
            && let Err(err) = self.orders.mark_refunded(job.order_id, &job.reason, self.clock.now()).await
        {
            return JobOutcome::Retry(kernel::error_chain(&err));
        }
        // An order refunded as a whole has its invoice cancelled by a credit note (a late
        // payment of an expired order was never invoiced: nothing to cancel).
        if job.order_refunded
            && let Err(err) = self.issue_credit_note(job.order_id).await
        {
            return JobOutcome::Retry(kernel::error_chain(&err));
        }
        JobOutcome::Done(json!({ "refunded": job.payment_id, "reason": job.reason }))
    }
}

/// The periodic expiry of pending orders, one per hour.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct ExpireOrders {}

impl Job for ExpireOrders {
    const KIND: &'static str = "order.expire";
}

#[async_trait]
impl JobHandler<ExpireOrders> for OrdersService {
    async fn run(&self, _: ExpireOrders, _: JobRun) -> JobOutcome {
        JobOutcome::from_result(self.expire_due().await, |expired| json!({ "expired": expired }))
    }
}

/// The periodic reconciliation with the provider.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct ReconcilePayments {
    /// How far back to look, in seconds.
    pub window_seconds: i64,
}

impl Job for ReconcilePayments {
    const KIND: &'static str = "order.reconcile";
}

#[async_trait]
impl JobHandler<ReconcilePayments> for OrdersService {
    async fn run(&self, job: ReconcilePayments, _: JobRun) -> JobOutcome {
        JobOutcome::from_result(self.reconcile(Duration::seconds(job.window_seconds)).await, |settled| json!({ "settled": settled }))
    }
}

/// The periodic order jobs of `now`: the hourly expiry and the reconciliation of the current
/// `reconcile_every` period. Providers list payments by when their session was created, and a
/// session may be paid up to a day later, so it looks back a day plus two periods.
pub fn periodic_jobs(now: OffsetDateTime, reconcile_every: Duration) -> Vec<NewJob> {
    let hour = now.unix_timestamp().div_euclid(3600);
    let every = reconcile_every.whole_seconds().max(60);
    let period = now.unix_timestamp().div_euclid(every);
    vec![
        ExpireOrders {}.new_job(now).unique(format!("{}:{hour}", ExpireOrders::KIND)),
        ReconcilePayments { window_seconds: 86_400 + every * 2 }
            .new_job(now)
            .unique(format!("{}:{every}:{period}", ReconcilePayments::KIND)),
    ]
}
