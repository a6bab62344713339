//! The `test` payment provider of the embedded demo: its payment page is on the site
//! (`/payments/test/<session>`, clearly marked as a test), and its **Pay** and **Decline** buttons
//! produce signed events of Stripe's shape that go through the same webhook path as a real
//! provider's. The page carries the order's checkout token and pays nothing without it. No
//! money moves; refunds are recorded only in the order. A public (https) site runs it only
//! when its operator says so (`payments.allow_test_provider`).

use crate::{event, signature};
use async_trait::async_trait;
use kernel::Cents;
use orders::{CompletedPayment, Order, PaymentError, PaymentEvent, PaymentProvider, PaymentSession, ReturnUrls, WebhookError};
use serde_json::json;
use time::OffsetDateTime;

/// The test provider; `secret` signs its events.
#[derive(Clone)]
pub struct TestProvider {
    site_url: String,
    secret: String,
}

impl std::fmt::Debug for TestProvider {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("TestProvider").field("site_url", &self.site_url).finish_non_exhaustive()
    }
}

fn random_id(prefix: &str) -> Result<String, PaymentError> {
    kernel::secrets::random_token().map(|token| format!("{prefix}_test_{token}")).map_err(|err| PaymentError(err.to_string()))
}

impl TestProvider {
    pub fn new(site_url: &str, secret: String) -> Self {
        Self { site_url: site_url.trim_end_matches('/').to_owned(), secret }
    }

    /// The event the **Pay** button sends: the order's total paid in full, with its signature
    /// header.
    pub fn paid_event(&self, order: &Order, session: &str, now: OffsetDateTime) -> Result<(Vec<u8>, String), PaymentError> {
        self.paid_event_of(order.number.as_str(), session, order.totals.total, now)
    }

    /// A paid event for any amount (a test of what a mismatch does).
    pub fn paid_event_of(
        &self,
        number: &str,
        session: &str,
        amount: Cents,
        now: OffsetDateTime,
    ) -> Result<(Vec<u8>, String), PaymentError> {
        let body = json!({
            "id": random_id("evt")?,
            "type": "checkout.session.completed",
            "data": {"object": {
                "id": session,
                "object": "checkout.session",
                "client_reference_id": number,
                "payment_status": "paid",
                "payment_intent": random_id("pi")?,
                "amount_total": amount.get(),
                "currency": "usd",
            }},
        });
        Ok(self.signed(&body, now))
    }

    /// The event the **Decline** button sends.
    pub fn declined_event(&self, order: &Order, session: &str, now: OffsetDateTime) -> Result<(Vec<u8>, String), PaymentError> {
        let body = json!({
            "id": random_id("evt")?,
            "type": "checkout.session.async_payment_failed",
            "data": {"object": {"id": session, "client_reference_id": order.number.as_str(), "payment_status": "unpaid"}},
        });
        Ok(self.signed(&body, now))
    }

    fn signed(&self, body: &serde_json::Value, now: OffsetDateTime) -> (Vec<u8>, String) {
        let body = body.to_string().into_bytes();
        let header = signature::sign(&self.secret, &body, now);
        (body, header)
    }
}

#[async_trait]
impl PaymentProvider for TestProvider {
    fn name(&self) -> &'static str {
        "test"
    }

    async fn begin(&self, order: &Order, urls: &ReturnUrls) -> Result<PaymentSession, PaymentError> {
        let id = random_id("cs")?;
        let query = serde_urlencoded::to_string([
            ("order", order.number.as_str()),
            ("t", urls.checkout_token.as_str()),
            ("return", urls.success.as_str()),
        ])
        .map_err(|err| PaymentError(err.to_string()))?;
        Ok(PaymentSession { url: format!("{}/payments/test/{id}?{query}", self.site_url), id })
    }

    /// The test page pays only the order's current session, which repricing clears.
    async fn close_session(&self, _: &str) -> Result<(), PaymentError> {
        Ok(())
    }

    fn verify_webhook(&self, signature_header: Option<&str>, body: &[u8], now: OffsetDateTime) -> Result<PaymentEvent, WebhookError> {
        signature::verify(&self.secret, signature_header, body, now)?;
        event::parse(body)
    }

    async fn refund(&self, payment_id: &str, amount: Cents, _key: &str) -> Result<(), PaymentError> {
        tracing::info!(payment = payment_id, %amount, "test provider: refunded (no money moves)");
        Ok(())
    }

    /// The test provider keeps no record of its own: every payment it makes is delivered at
    /// once through the webhook path, so there is nothing to reconcile.
    async fn completed_since(&self, _: OffsetDateTime) -> Result<Vec<CompletedPayment>, PaymentError> {
        Ok(Vec::new())
    }

    fn simulate(&self, order: &Order, session: &str, pay: bool, now: OffsetDateTime) -> Option<Result<(Vec<u8>, String), PaymentError>> {
        Some(if pay { self.paid_event(order, session, now) } else { self.declined_event(order, session, now) })
    }
}
