//! The payment providers' webhooks (`POST /webhooks/payments/<provider>`): machines, not people,
//! post here, so the answers are problem+json. The provider's signature is checked over the raw
//! body before anything is read or written.

use crate::WebState;
use actix_web::http::StatusCode;
use actix_web::{HttpRequest, HttpResponse, web};
use orders::WebhookReceiveError;

/// `POST /webhooks/payments/{provider}`: the signature is checked over the raw body; a bad one
/// is 400 and changes nothing.
pub async fn webhook(state: web::Data<WebState>, provider: web::Path<String>, request: HttpRequest, body: web::Bytes) -> HttpResponse {
    let signature = request.headers().get("Stripe-Signature").and_then(|value| value.to_str().ok());
    let problem = |status: StatusCode, detail: String| {
        HttpResponse::build(status).content_type("application/problem+json").json(serde_json::json!({
            "type": "about:blank", "title": status.canonical_reason().unwrap_or("Error"), "status": status.as_u16(), "detail": detail,
        }))
    };
    match state.app.commerce.orders.receive_webhook(&provider, signature, &body).await {
        Ok(outcome) => {
            crate::known_writer(&request);
            HttpResponse::Ok().json(serde_json::json!({ "received": true, "outcome": format!("{outcome:?}") }))
        }
        Err(WebhookReceiveError::UnknownProvider) => problem(StatusCode::NOT_FOUND, "no such payment provider here".into()),
        Err(WebhookReceiveError::Refused(err)) => {
            tracing::warn!(provider = %provider, error = %err, "a payment webhook was refused");
            problem(StatusCode::BAD_REQUEST, err.to_string())
        }
        Err(WebhookReceiveError::Failed(err)) => {
            tracing::error!(provider = %provider, error = %err, "a payment webhook could not be settled; the provider will send it again");
            problem(StatusCode::INTERNAL_SERVER_ERROR, "the event could not be recorded; send it again".into())
        }
    }
}
