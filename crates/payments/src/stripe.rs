//! Stripe Checkout Sessions over Stripe's REST API with our own reqwest: form-encoded requests,
//! an `Idempotency-Key` on every write, `client_reference_id` = the order number, amounts in
//! cents. Card, Apple Pay and Google Pay come with Stripe Checkout; other methods (PayPal,
//! crypto) are listed in `payment_method_types` where the Stripe account offers them.

use crate::{event, signature};
use async_trait::async_trait;
use kernel::Cents;
use orders::{CompletedPayment, Order, PaymentError, PaymentEvent, PaymentProvider, PaymentSession, ReturnUrls, WebhookError};
use serde_json::Value;
use std::time::Duration;
use time::OffsetDateTime;

/// How Stripe is reached. `Debug` shows no secret.
#[derive(Clone)]
pub struct StripeConfig {
    /// `https://api.stripe.com` (a loopback fake in tests).
    pub api_base: String,
    pub secret_key: String,
    pub webhook_secret: String,
    /// Payment method types to offer (`card`, `paypal`, `crypto`, ...); empty lets Stripe
    /// choose from the account's settings (dynamic payment methods).
    pub payment_method_types: Vec<String>,
}

impl std::fmt::Debug for StripeConfig {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("StripeConfig")
            .field("api_base", &self.api_base)
            .field("payment_method_types", &self.payment_method_types)
            .finish_non_exhaustive()
    }
}

/// The Stripe provider.
#[derive(Clone, Debug)]
pub struct StripeProvider {
    config: StripeConfig,
    client: reqwest::Client,
}

/// Stripe's longest and shortest Checkout Session lifetimes.
const SESSION_MIN: time::Duration = time::Duration::minutes(31);
const SESSION_MAX: time::Duration = time::Duration::hours(23);

impl StripeProvider {
    /// # Errors
    /// When the HTTP client cannot be built (no TLS roots).
    pub fn new(config: StripeConfig) -> Result<Self, PaymentError> {
        outbound_http::install_crypto_provider();
        let client = reqwest::Client::builder()
            .timeout(Duration::from_secs(20))
            .connect_timeout(Duration::from_secs(5))
            .redirect(reqwest::redirect::Policy::none())
            .build()
            .map_err(|err| PaymentError(format!("could not build the Stripe client: {err}")))?;
        Ok(Self { config: StripeConfig { api_base: config.api_base.trim_end_matches('/').to_owned(), ..config }, client })
    }

    async fn call(
        &self,
        method: reqwest::Method,
        path: &str,
        form: &[(String, String)],
        idempotency_key: Option<&str>,
    ) -> Result<Value, PaymentError> {
        let encoded = serde_urlencoded::to_string(form).map_err(|err| PaymentError(err.to_string()))?;
        let (url, body) = if method == reqwest::Method::GET {
            (format!("{}{path}?{encoded}", self.config.api_base), None)
        } else {
            (format!("{}{path}", self.config.api_base), Some(encoded))
        };
        let mut request = self.client.request(method, &url).bearer_auth(&self.config.secret_key);
        if let Some(body) = body {
            request = request.header(reqwest::header::CONTENT_TYPE, "application/x-www-form-urlencoded").body(body);
        }
        if let Some(key) = idempotency_key {
            request = request.header("Idempotency-Key", key);
        }
        let response =
            request.send().await.map_err(|err| PaymentError(format!("Stripe did not answer {path}: {}", kernel::error_chain(&err))))?;
        let status = response.status();
        let bytes = response.bytes().await.map_err(|err| PaymentError(format!("Stripe's answer to {path} broke off: {err}")))?;
        let body: Value =
            serde_json::from_slice(&bytes).map_err(|err| PaymentError(format!("Stripe's answer to {path} is not JSON: {err}")))?;
        if !status.is_success() {
            let message = body["error"]["message"].as_str().unwrap_or("no message");
            return Err(PaymentError(format!("Stripe refused {path} ({status}): {message}")));
        }
        Ok(body)
    }

    /// The form of a Checkout Session for `order`: a line per order line at its net price and
    /// one for the VAT, so the receipt shows both.
    fn session_form(&self, order: &Order, urls: &ReturnUrls, now: OffsetDateTime) -> Vec<(String, String)> {
        let mut form: Vec<(String, String)> = vec![
            ("mode".into(), "payment".into()),
            ("client_reference_id".into(), order.number.to_string()),
            ("metadata[order_number]".into(), order.number.to_string()),
            ("success_url".into(), urls.success.clone()),
            ("cancel_url".into(), urls.cancel.clone()),
            ("expires_at".into(), order.expires_at.clamp(now + SESSION_MIN, now + SESSION_MAX).unix_timestamp().to_string()),
        ];
        let mut items: Vec<(String, i64)> =
            order.lines.iter().map(|line| (line.line.product_name.clone(), line.line.amounts.subtotal.get())).collect();
        if order.totals.vat.get() > 0 {
            items.push((format!("VAT {}", order.vat.rate), order.totals.vat.get()));
        }
        for (index, (name, cents)) in items.into_iter().enumerate() {
            let key = |field: &str| format!("line_items[{index}][{field}]");
            form.push((key("quantity"), "1".into()));
            form.push((key("price_data][currency"), "usd".into()));
            form.push((key("price_data][unit_amount"), cents.to_string()));
            form.push((key("price_data][product_data][name"), name));
        }
        for (index, method) in self.config.payment_method_types.iter().enumerate() {
            form.push((format!("payment_method_types[{index}]"), method.clone()));
        }
        form
    }
}

#[async_trait]
impl PaymentProvider for StripeProvider {
    fn name(&self) -> &'static str {
        "stripe"
    }

    fn page_origin(&self) -> Option<&str> {
        Some("https://checkout.stripe.com")
    }

    async fn begin(&self, order: &Order, urls: &ReturnUrls) -> Result<PaymentSession, PaymentError> {
        let form = self.session_form(order, urls, OffsetDateTime::now_utc());
        // Keyed by what the session is made of: a retried request opens no second session, and a
        // new attempt (another expiry, another price) is a new request, never a reused key.
        let expires = form.iter().find(|(key, _)| key == "expires_at").map_or("", |(_, value)| value.as_str());
        let country = order.billing.country.as_ref().map_or("", |c| c.as_str());
        let key = format!("checkout-{}-{}-{country}-{expires}", order.number, order.totals.total.get());
        let session = self.call(reqwest::Method::POST, "/v1/checkout/sessions", &form, Some(&key)).await?;
        match (session["id"].as_str(), session["url"].as_str()) {
            (Some(id), Some(url)) => Ok(PaymentSession { id: id.to_owned(), url: url.to_owned() }),
            _ => Err(PaymentError("Stripe's session has no id or url".into())),
        }
    }

    async fn close_session(&self, session: &str) -> Result<(), PaymentError> {
        let path = format!("/v1/checkout/sessions/{session}/expire");
        match self.call(reqwest::Method::POST, &path, &[], Some(&format!("expire-{session}"))).await {
            Ok(_) => Ok(()),
            // Expired or completed already: either way it takes no new payment.
            Err(err) if err.0.contains("(400") => {
                tracing::info!(%session, error = %err, "the Stripe session was not open");
                Ok(())
            }
            Err(err) => Err(err),
        }
    }

    fn verify_webhook(&self, signature_header: Option<&str>, body: &[u8], now: OffsetDateTime) -> Result<PaymentEvent, WebhookError> {
        signature::verify(&self.config.webhook_secret, signature_header, body, now)?;
        event::parse(body)
    }

    async fn refund(&self, payment_id: &str, amount: Cents, key: &str) -> Result<(), PaymentError> {
        let form = vec![("payment_intent".to_owned(), payment_id.to_owned()), ("amount".to_owned(), amount.get().to_string())];
        self.call(reqwest::Method::POST, "/v1/refunds", &form, Some(key)).await.map(|_| ())
    }

    async fn completed_since(&self, since: OffsetDateTime) -> Result<Vec<CompletedPayment>, PaymentError> {
        let mut payments = Vec::new();
        let mut after: Option<String> = None;
        // At most 20 pages of 100: a few hours of sessions for any site this size.
        for _ in 0..20 {
            let mut query = vec![
                ("status".to_owned(), "complete".to_owned()),
                ("limit".to_owned(), "100".to_owned()),
                ("created[gte]".to_owned(), since.unix_timestamp().to_string()),
            ];
            if let Some(last) = &after {
                query.push(("starting_after".to_owned(), last.clone()));
            }
            let page = self.call(reqwest::Method::GET, "/v1/checkout/sessions", &query, None).await?;
            let sessions = page["data"].as_array().cloned().unwrap_or_default();
            payments.extend(sessions.iter().filter_map(event::completed_session));
            after = sessions.last().and_then(|session| session["id"].as_str()).map(str::to_owned);
            if !page["has_more"].as_bool().unwrap_or(false) || after.is_none() {
                break;
            }
        }
        Ok(payments)
    }
}
