//! Reading a provider's event: Stripe's event JSON (`checkout.session.completed`,
//! `checkout.session.async_payment_succeeded`, `checkout.session.async_payment_failed`,
//! `checkout.session.expired`), which the test provider sends too.

use kernel::Cents;
use orders::{CompletedPayment, PaymentEvent, PaymentEventKind, WebhookError};
use serde_json::Value;

/// A Checkout Session object as a completed payment, when it is paid.
pub fn completed_session(session: &Value) -> Option<CompletedPayment> {
    if session["payment_status"].as_str() != Some("paid") {
        return None;
    }
    Some(CompletedPayment {
        session_id: session["id"].as_str()?.to_owned(),
        order_number: session["client_reference_id"].as_str()?.to_owned(),
        // A Checkout Session names its payment intent; refunds go to it.
        payment_id: session["payment_intent"].as_str().or_else(|| session["payment_intent"]["id"].as_str())?.to_owned(),
        amount: Cents::new(session["amount_total"].as_i64()?),
        currency: session["currency"].as_str()?.to_owned(),
    })
}

/// Reads a verified event body.
pub fn parse(body: &[u8]) -> Result<PaymentEvent, WebhookError> {
    let event: Value = serde_json::from_slice(body).map_err(|err| WebhookError::Malformed(err.to_string()))?;
    let id =
        event["id"].as_str().filter(|id| !id.is_empty() && id.len() <= 255).ok_or_else(|| WebhookError::Malformed("no event id".into()))?;
    let kind = event["type"].as_str().ok_or_else(|| WebhookError::Malformed("no event type".into()))?;
    let object = &event["data"]["object"];
    let kind = match kind {
        "checkout.session.completed" | "checkout.session.async_payment_succeeded" => match completed_session(object) {
            Some(payment) => PaymentEventKind::Completed(payment),
            // Completed but not paid yet (a delayed method): the async event settles it.
            None => PaymentEventKind::Other(format!("{kind} ({})", object["payment_status"].as_str().unwrap_or("unknown"))),
        },
        "checkout.session.async_payment_failed" | "checkout.session.expired" => match object["client_reference_id"].as_str() {
            Some(number) => PaymentEventKind::Failed { order_number: number.to_owned(), reason: kind.to_owned() },
            None => PaymentEventKind::Other(kind.to_owned()),
        },
        other => PaymentEventKind::Other(other.to_owned()),
    };
    Ok(PaymentEvent { id: id.to_owned(), kind })
}
