//! The resource-server checks in front of the MCP layer, as real HTTP statuses:
//! - every request that carries a credential is authenticated: an invalid, expired or revoked
//!   token is 401 with `error="invalid_token"` and `resource_metadata`, whatever the method
//!   (`initialize` and `tools/list` included);
//! - every request is counted against the rate limits (a tool call against its operation's
//!   class, `initialize` against `mcp_initialize`, anything else as a read); a spent budget is 429
//!   with `Retry-After`, and every answer carries the `RateLimit` headers;
//! - a tool that needs the account is 401 without a token and 403 without the scope;
//! - a legacy `initialize` is 503 when the session cap is reached.
//!
//! Discovery, `tools/list` and public tools pass without a token. The caller authenticated here
//! travels to the tool server in the request.

use crate::sessions::CappedSessions;
use actix_web::body::{BoxBody, MessageBody};
use actix_web::dev::{ServiceRequest, ServiceResponse};
use actix_web::http::StatusCode;
use actix_web::http::header::{AUTHORIZATION, RETRY_AFTER, WWW_AUTHENTICATE};
use actix_web::middleware::Next;
use actix_web::{HttpMessage, HttpResponse, web};
use futures_util::StreamExt;
use ops::{OpError, RateClass};
use serde_json::Value;
use std::sync::Arc;

/// What the guard needs: the application and where our resource metadata lives.
#[derive(Clone)]
pub struct GuardState {
    pub app: ops::App,
    pub edge: http_edge::Edge,
    /// `{site_url}/.well-known/oauth-protected-resource/mcp`.
    pub resource_metadata: String,
    /// `{site_url}/mcp`: the audience OAuth tokens must carry here.
    pub resource: String,
    /// The legacy sessions, to refuse an `initialize` when they are full.
    pub sessions: Arc<CappedSessions>,
}

/// Authenticates for `/mcp`: an OAuth access token must have been issued for this resource
/// (RFC 8707 audience).
pub async fn authenticate(app: &ops::App, authorization: Option<&str>, resource: &str) -> Result<ops::Caller, OpError> {
    ops::authenticate_for(app, authorization, resource).await
}

/// Bodies larger than this are left for rmcp to refuse.
const MAX_INSPECTED: usize = 4 * 1024 * 1024;

/// What a JSON-RPC message (or batch) asks for: the tools it calls, and whether it opens a
/// legacy session.
#[derive(Debug, Default, PartialEq)]
struct Asked {
    tools: Vec<String>,
    initialize: bool,
}

fn asked(body: &Value) -> Asked {
    let messages = match body {
        Value::Array(items) => items.iter().collect(),
        one => vec![one],
    };
    let mut asked = Asked::default();
    for message in messages {
        match message["method"].as_str() {
            Some("tools/call") => asked.tools.extend(message["params"]["name"].as_str().map(str::to_owned)),
            Some("initialize") => asked.initialize = true,
            _ => {}
        }
    }
    asked
}

impl Asked {
    /// The rate-limit classes the request counts against: each tool's operation, `initialize`,
    /// or a read for anything else (discovery, lists, notifications, streams).
    fn classes(&self) -> Vec<RateClass> {
        let mut classes: Vec<RateClass> =
            self.tools.iter().map(|name| ops::find(name).map_or(RateClass::Read, |op| op.spec().rate)).collect();
        if self.initialize {
            classes.push(RateClass::McpInitialize);
        }
        if classes.is_empty() {
            classes.push(RateClass::Read);
        }
        classes
    }
}

fn refuse(state: &GuardState, error: &OpError) -> HttpResponse {
    let problem = crate::tools::problem(error);
    let status = StatusCode::from_u16(problem["status"].as_u64().unwrap_or(401) as u16).unwrap_or(StatusCode::UNAUTHORIZED);
    let challenge = match error {
        OpError::Unauthorized { credential_sent: false, .. } => {
            format!("Bearer resource_metadata=\"{}\"", state.resource_metadata)
        }
        OpError::Unauthorized { .. } => format!(
            "Bearer error=\"invalid_token\", error_description=\"the access token is missing, expired, revoked or not for this resource\", resource_metadata=\"{}\"",
            state.resource_metadata
        ),
        OpError::InsufficientScope { scope } => {
            format!("Bearer error=\"insufficient_scope\", scope=\"{scope}\", resource_metadata=\"{}\"", state.resource_metadata)
        }
        _ => format!("Bearer resource_metadata=\"{}\"", state.resource_metadata),
    };
    let mut response = HttpResponse::build(status).content_type("application/problem+json").json(problem);
    if !matches!(error, OpError::RateLimited { .. })
        && let Ok(value) = challenge.parse()
    {
        response.headers_mut().insert(WWW_AUTHENTICATE, value);
    }
    if let Some(seconds) = error.retry_after() {
        response.headers_mut().insert(RETRY_AFTER, seconds.into());
    }
    response
}

/// The 503 of an `initialize` while every session is taken.
fn sessions_full(state: &GuardState) -> HttpResponse {
    let problem = ops::Problem::new(
        503,
        "too_many_sessions",
        "Too many sessions",
        format!(
            "{} MCP sessions are open, the most this server keeps; idle ones end after a few minutes, so try again shortly (or use protocol 2026-07-28, which needs no session)",
            state.sessions.open()
        ),
    );
    HttpResponse::ServiceUnavailable().insert_header((RETRY_AFTER, 30)).content_type("application/problem+json").json(problem)
}

/// The 429 of an `initialize` from a client network that holds its share of the sessions.
fn network_full(state: &GuardState) -> HttpResponse {
    let problem = ops::Problem::new(
        429,
        "too_many_sessions",
        "Too many sessions from your network",
        format!(
            "your network holds {} MCP sessions, the most one client may; end one (DELETE /mcp with its Mcp-Session-Id) or let it go idle, or use protocol 2026-07-28, which needs no session",
            state.sessions.share()
        ),
    );
    HttpResponse::TooManyRequests().insert_header((RETRY_AFTER, 30)).content_type("application/problem+json").json(problem)
}

fn bytes_to_payload(bytes: web::Bytes) -> actix_web::dev::Payload {
    let (_, mut payload) = actix_http::h1::Payload::create(true);
    payload.unread_data(bytes);
    actix_web::dev::Payload::from(payload)
}

/// Answers with `response`, carrying where the request was counted (the server's request
/// middleware writes the `RateLimit` headers from it).
fn answer(request: ServiceRequest, mut response: HttpResponse, rate: Option<http_edge::RateStatus>) -> ServiceResponse<BoxBody> {
    if let Some(rate) = rate {
        response.extensions_mut().insert(rate);
    }
    request.into_response(response)
}

/// The middleware.
pub async fn guard(
    mut request: ServiceRequest,
    next: Next<impl MessageBody + 'static>,
) -> Result<ServiceResponse<BoxBody>, actix_web::Error> {
    let Some(state) = request.app_data::<web::Data<GuardState>>().cloned() else {
        return next.call(request).await.map(ServiceResponse::map_into_boxed_body);
    };
    let asked = if request.method() == actix_web::http::Method::POST {
        // Read the body, look at it, and hand it on unchanged.
        let mut payload = request.take_payload();
        let mut bytes = web::BytesMut::new();
        while let Some(chunk) = payload.next().await {
            let chunk = chunk?;
            bytes.extend_from_slice(&chunk);
            if bytes.len() > MAX_INSPECTED {
                break;
            }
        }
        let bytes = bytes.freeze();
        let asked = serde_json::from_slice::<Value>(&bytes).map(|body| asked(&body)).unwrap_or_default();
        request.set_payload(bytes_to_payload(bytes));
        asked
    } else {
        Asked::default()
    };

    // Authenticate whatever is asked, then count the request.
    let authenticated = match request.headers().get(AUTHORIZATION).map(|value| value.to_str()) {
        Some(Err(_)) => {
            Err(OpError::Unauthorized { credential_sent: true, detail: "the Authorization header is not readable text".into() })
        }
        authorization => authenticate(&state.app, authorization.and_then(Result::ok), &state.resource).await,
    };
    let client = http_edge::ClientIp::or_peer(request.extensions().get().copied(), request.peer_addr());
    let admission = state.edge.admit(&asked.classes(), authenticated, client).await;
    let caller = match admission.caller {
        Ok(caller) => caller,
        Err(error) => return Ok(answer(request, refuse(&state, &error), admission.rate)),
    };

    let needs: Vec<accounts::Scope> = asked.tools.iter().filter_map(|name| ops::find(name)).filter_map(|op| op.spec().scope).collect();
    if !needs.is_empty() {
        let Some(principal) = &caller.principal else {
            let error = OpError::Unauthorized { credential_sent: false, detail: "this tool needs a signed-in caller".into() };
            return Ok(answer(request, refuse(&state, &error), admission.rate));
        };
        if let Some(scope) = needs.into_iter().find(|scope| !principal.has_scope(*scope)) {
            return Ok(answer(request, refuse(&state, &OpError::InsufficientScope { scope }), admission.rate));
        }
    }
    let opens_session = asked.initialize && !request.headers().contains_key("mcp-session-id");
    if opens_session && state.sessions.is_full() {
        return Ok(answer(request, sessions_full(&state), admission.rate));
    }
    // One client network holds at most its share of the places.
    let reservation = match opens_session.then(|| state.sessions.reserve(client)) {
        Some(None) => return Ok(answer(request, network_full(&state), admission.rate)),
        Some(Some(reservation)) => Some(reservation),
        None => None,
    };
    // The tool server takes the caller from the request instead of reading the credential again.
    request.extensions_mut().insert(caller);
    let mut response = next.call(request).await?.map_into_boxed_body();
    if let Some(reservation) = reservation
        && let Some(session) = response.headers().get("mcp-session-id").and_then(|value| value.to_str().ok())
    {
        reservation.bind(session);
    }
    // Two handshakes may race for the last place; the loser's refusal comes back from rmcp as a
    // 500, and is the same 503 as above.
    if opens_session && response.status() == StatusCode::INTERNAL_SERVER_ERROR && state.sessions.is_full() {
        let (request, _) = response.into_parts();
        response = ServiceResponse::new(request, sessions_full(&state));
    }
    if let Some(rate) = admission.rate {
        response.response_mut().extensions_mut().insert(rate);
    }
    in_one_piece(response).await
}

/// A legacy session answers a POST with an event stream of a few small events (a priming event,
/// the answer) that ends once the answer is out; our tools send nothing before their answer. Sent
/// as the pieces come, each is a write of its own; kept until the stream ends, the answer goes in
/// one write with its length, as a JSON answer does, and no client waits for a piece.
async fn in_one_piece(response: ServiceResponse<BoxBody>) -> Result<ServiceResponse<BoxBody>, actix_web::Error> {
    let streamed = response
        .headers()
        .get(actix_web::http::header::CONTENT_TYPE)
        .and_then(|value| value.to_str().ok())
        .is_some_and(|value| value.starts_with("text/event-stream"));
    if !streamed || response.request().method() != actix_web::http::Method::POST {
        return Ok(response);
    }
    let (request, response) = response.into_parts();
    let (head, body) = response.into_parts();
    let whole = actix_web::body::to_bytes(body).await.map_err(|error| actix_web::error::ErrorInternalServerError(error.to_string()))?;
    Ok(ServiceResponse::new(request, head.set_body(whole).map_into_boxed_body()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn finds_tool_calls_in_messages_and_batches() {
        let one = serde_json::json!({"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": {"name": "get_draft"}});
        assert_eq!(asked(&one).tools, ["get_draft"]);
        let batch = serde_json::json!([{"method": "tools/list"}, {"method": "tools/call", "params": {"name": "get_account"}}]);
        assert_eq!(asked(&batch).tools, ["get_account"]);
        assert!(asked(&serde_json::json!({"method": "server/discover"})).tools.is_empty());
    }

    #[test]
    fn each_request_counts_against_what_it_asks_for() {
        let classes = |body: Value| asked(&body).classes();
        assert_eq!(classes(serde_json::json!({"method": "tools/call", "params": {"name": "submit_listing"}})), [RateClass::SubmitListing]);
        assert_eq!(classes(serde_json::json!({"method": "tools/call", "params": {"name": "update_draft"}})), [RateClass::Write]);
        assert_eq!(classes(serde_json::json!({"method": "tools/call", "params": {"name": "get_listing"}})), [RateClass::Read]);
        assert_eq!(classes(serde_json::json!({"method": "initialize"})), [RateClass::McpInitialize]);
        assert_eq!(classes(serde_json::json!({"method": "tools/list"})), [RateClass::Read]);
        assert_eq!(classes(serde_json::json!("not a message")), [RateClass::Read]);
        let batch = serde_json::json!([{"method": "tools/call", "params": {"name": "get_site_info"}}, {"method": "tools/call", "params": {"name": "submit_listing"}}]);
        assert_eq!(classes(batch), [RateClass::Read, RateClass::SubmitListing]);
    }
}
