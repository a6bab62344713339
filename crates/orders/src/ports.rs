//! Where orders are kept: the repository port, with the one transaction that settles a
//! payment event (the event's unique key and the order's state change together).

use crate::order::{Amounts, Billing, Line, Order, OrderLine, OrderNumber, OrderStatus, VatSummary};
use crate::payments::CompletedPayment;
use async_trait::async_trait;
use kernel::{NewJob, PageRequest, Paged, RepoError, UserId};
use time::OffsetDateTime;

/// An order as checkout creates it.
#[derive(Debug, Clone)]
pub struct NewOrder {
    pub number: OrderNumber,
    pub owner: UserId,
    pub lines: Vec<Line>,
    pub totals: Amounts,
    pub vat: VatSummary,
    pub billing: Billing,
    /// SHA-256 of the checkout page's token.
    pub token_hash: String,
    pub created_at: OffsetDateTime,
    pub expires_at: OffsetDateTime,
}

/// What settling a payment event does to its order, decided by the domain from the order as it
/// is inside the settling transaction.
#[derive(Debug, Clone)]
pub enum Settlement {
    /// Nothing changes (the reason is logged).
    Nothing(String),
    /// The order is paid: record the payment, `pending` → `paid`, enqueue the fulfilment jobs.
    Paid { payment: CompletedPayment, jobs: Vec<NewJob> },
    /// The payment does not match: record it, `pending` → `needs_review`.
    NeedsReview { payment: CompletedPayment, reason: String },
    /// The payment cannot be taken (the order expired, was canceled or is paid already):
    /// enqueue its refund; the order is untouched until the refund is done.
    Refund { job: NewJob, reason: String },
}

/// What became of an event.
#[derive(Debug, Clone)]
pub enum Settled {
    /// This provider's event id was handled before: nothing changed.
    Duplicate,
    /// No order has that number (recorded, nothing else changed).
    UnknownOrder,
    Applied(Settlement),
}

/// A task the site team does for a paid line.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct OrderTask {
    pub id: i64,
    pub order_line_id: i64,
    pub order_number: OrderNumber,
    pub kind: String,
    pub listing_id: Option<i64>,
    pub done: bool,
    pub created_at: OffsetDateTime,
    pub done_at: Option<OffsetDateTime>,
}

/// Where orders are kept.
#[async_trait]
pub trait OrderRepository: Send + Sync {
    /// Stores a new order with its lines. `Duplicate("orders.number")` if the number is taken.
    async fn insert(&self, order: &NewOrder) -> Result<Order, RepoError>;
    /// `owner`'s orders, newest first.
    async fn owned(&self, owner: UserId, page: PageRequest) -> Result<Paged<Order>, RepoError>;
    /// Every order, newest first, optionally of one status (administration).
    async fn all(&self, status: Option<OrderStatus>, limit: u64) -> Result<Vec<Order>, RepoError>;
    /// The order with id `id`.
    async fn by_id(&self, id: i64) -> Result<Option<Order>, RepoError>;
    /// The e-mail address of the account `owner` (receipts go there); none for an account
    /// that is gone.
    async fn buyer_email(&self, owner: UserId) -> Result<Option<kernel::Email>, RepoError>;
    /// The order and the hash of its checkout token.
    async fn by_number(&self, number: &OrderNumber) -> Result<Option<(Order, String)>, RepoError>;
    /// Replaces a pending order's billing details, VAT and amounts (`lines` in line order);
    /// false when it is no longer pending.
    async fn reprice(
        &self,
        id: i64,
        billing: &Billing,
        vat: &VatSummary,
        lines: &[Amounts],
        totals: Amounts,
        now: OffsetDateTime,
    ) -> Result<bool, RepoError>;
    /// Replaces the hash of an order's checkout token.
    async fn set_token_hash(&self, id: i64, token_hash: &str) -> Result<(), RepoError>;
    /// Remembers the provider's payment session of a pending order.
    async fn set_session(&self, id: i64, provider: &str, session: &str, now: OffsetDateTime) -> Result<bool, RepoError>;
    /// In one transaction: records `(provider, event_id)` under its unique key (a duplicate
    /// changes nothing), reads the order named `order_number`, asks `decide`, and applies the
    /// settlement. PostgreSQL locks the order row; SQLite serialises writers.
    async fn settle(
        &self,
        provider: &str,
        event_id: &str,
        event_kind: &str,
        order_number: Option<&str>,
        decide: &(dyn for<'o> Fn(&'o Order) -> Settlement + Send + Sync),
        now: OffsetDateTime,
    ) -> Result<Settled, RepoError>;
    /// Moves an order from one of `from` to `to` (compare-and-set); false when it was elsewhere.
    async fn transition(
        &self,
        id: i64,
        from: &[OrderStatus],
        to: OrderStatus,
        reason: Option<&str>,
        now: OffsetDateTime,
    ) -> Result<bool, RepoError>;
    /// The line `line_id` with its order.
    async fn line(&self, line_id: i64) -> Result<Option<(Order, OrderLine)>, RepoError>;
    /// Records a line as fulfilled with what was done (once: a fulfilled line stays so).
    async fn fulfil_line(&self, line_id: i64, outcome: &str, now: OffsetDateTime) -> Result<(), RepoError>;
    /// Records what fulfilment did so far on a line still waiting (for a task).
    async fn note_line(&self, line_id: i64, outcome: &str) -> Result<(), RepoError>;
    /// `paid` → `fulfilled` when every line is fulfilled.
    async fn complete_if_fulfilled(&self, order_id: i64, now: OffsetDateTime) -> Result<bool, RepoError>;
    /// Opens a task for a line, once per (line, kind).
    async fn open_task(&self, line_id: i64, kind: &str, now: OffsetDateTime) -> Result<(), RepoError>;
    /// Tasks, open ones first, newest first.
    async fn tasks(&self, open_only: bool) -> Result<Vec<OrderTask>, RepoError>;
    /// Marks a task done; the task as it is now and whether this call finished it (`false`: it
    /// was done before), none if unknown.
    async fn finish_task(&self, id: i64, now: OffsetDateTime) -> Result<Option<(OrderTask, bool)>, RepoError>;
    /// Whether the line has tasks still open.
    async fn open_tasks_of_line(&self, line_id: i64) -> Result<u64, RepoError>;
    /// Pending orders whose time is up become `expired`; how many.
    async fn expire_due(&self, now: OffsetDateTime) -> Result<u64, RepoError>;
    /// Records that the payment was refunded: the order becomes `refunded` with `reason`.
    async fn mark_refunded(&self, id: i64, reason: &str, now: OffsetDateTime) -> Result<bool, RepoError>;
}
