//! The payment provider port: start a payment for an order, read a signed webhook, refund a
//! payment, and list recent completed payments for reconciliation. The site never sees card
//! details; the provider's page takes them.

use crate::order::Order;
use async_trait::async_trait;
use kernel::Cents;
use time::OffsetDateTime;

/// Where the provider sends the person back.
#[derive(Debug, Clone)]
pub struct ReturnUrls {
    /// The order's checkout page after a payment.
    pub success: String,
    /// The order's checkout page when the person gives up.
    pub cancel: String,
    /// The order's checkout token. A provider whose payment page is on this site (the test
    /// provider) carries it to that page, which pays an order only with it, as the checkout
    /// page does; a provider elsewhere ignores it.
    pub checkout_token: String,
}

/// A payment session the provider opened.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PaymentSession {
    /// The provider's id for it (Stripe: `cs_...`).
    pub id: String,
    /// Where the person pays.
    pub url: String,
}

/// A completed payment, from a webhook or from reconciliation.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CompletedPayment {
    /// The provider's session id (how an order finds its payment again).
    pub session_id: String,
    /// The order number the session was opened for (`client_reference_id`).
    pub order_number: String,
    /// What a refund names (Stripe: the payment intent).
    pub payment_id: String,
    pub amount: Cents,
    /// Lower case ISO 4217, as providers send it (`usd`).
    pub currency: String,
}

/// What a verified webhook says.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PaymentEvent {
    /// The provider's event id, unique per provider: the key that makes a delivery count once.
    pub id: String,
    pub kind: PaymentEventKind,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum PaymentEventKind {
    Completed(CompletedPayment),
    /// A payment attempt failed (declined); the order stays pending.
    Failed {
        order_number: String,
        reason: String,
    },
    /// Anything else the provider sends; recorded, changes nothing.
    Other(String),
}

/// Why a webhook was refused. Nothing changes for a refused webhook.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum WebhookError {
    #[error("the signature header is missing or malformed")]
    MissingSignature,
    #[error("the signature does not match")]
    BadSignature,
    #[error("the signature's timestamp is outside the tolerance")]
    Stale,
    #[error("the event is not JSON of the expected shape: {0}")]
    Malformed(String),
}

/// A provider call that did not work.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{0}")]
pub struct PaymentError(pub String);

/// A payment provider.
#[async_trait]
pub trait PaymentProvider: Send + Sync {
    /// `test` or `stripe`: the last part of the webhook path.
    fn name(&self) -> &'static str;
    /// The origin of the provider's payment page, where the checkout page's **Pay** sends the
    /// person (its form policy allows it); `None` when the page is on this site.
    fn page_origin(&self) -> Option<&str> {
        None
    }
    /// Opens a payment for `order`'s total.
    async fn begin(&self, order: &Order, urls: &ReturnUrls) -> Result<PaymentSession, PaymentError>;
    /// Verifies a webhook's signature over the raw body and reads its event.
    fn verify_webhook(&self, signature: Option<&str>, body: &[u8], now: OffsetDateTime) -> Result<PaymentEvent, WebhookError>;
    /// Closes a payment session that has not been paid, so it takes no payment (the order's
    /// price changed). A session paid or closed already is not an error.
    async fn close_session(&self, session: &str) -> Result<(), PaymentError>;
    /// Gives `amount` of `payment_id` back. Idempotent under `key`: asking twice refunds once.
    async fn refund(&self, payment_id: &str, amount: Cents, key: &str) -> Result<(), PaymentError>;
    /// Payments completed since `since`, for orders whose webhook never arrived.
    async fn completed_since(&self, since: OffsetDateTime) -> Result<Vec<CompletedPayment>, PaymentError>;
    /// A provider whose payment page is on this site (the test provider) makes the signed
    /// webhook its page's button sends: the order paid in full (`pay`) or declined. Real
    /// providers make none.
    fn simulate(
        &self,
        _order: &Order,
        _session: &str,
        _pay: bool,
        _now: OffsetDateTime,
    ) -> Option<Result<(Vec<u8>, String), PaymentError>> {
        None
    }
}
