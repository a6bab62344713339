//! The resource-server checks in front of the MCP layer. A `tools/call` of a tool that needs
//! the account is refused here with a real HTTP status: 401 and
//! `WWW-Authenticate: Bearer resource_metadata="..."` without a valid token, 403 without the
//! scope. Discovery, `tools/list` and public tools pass without a token. Every tool call is
//! authenticated here once; the caller travels to the tool server in the request.

use actix_web::body::{BoxBody, MessageBody};
use actix_web::dev::{ServiceRequest, ServiceResponse};
use actix_web::http::StatusCode;
use actix_web::http::header::WWW_AUTHENTICATE;
use actix_web::middleware::Next;
use actix_web::{HttpMessage, HttpResponse, web};
use futures_util::StreamExt;
use ops::OpError;
use serde_json::Value;

/// What the guard needs: the application and where our resource metadata lives.
#[derive(Clone)]
pub struct GuardState {
    pub app: ops::App,
    /// `{site_url}/.well-known/oauth-protected-resource/mcp`.
    pub resource_metadata: String,
    /// `{site_url}/mcp`: the audience OAuth tokens must carry here.
    pub resource: String,
}

/// Authenticates for `/mcp`: an OAuth access token must have been issued for this resource
/// (RFC 8707 audience).
pub async fn authenticate(app: &ops::App, authorization: Option<&str>, resource: &str) -> Result<ops::Caller, OpError> {
    ops::authenticate_for(app, authorization, resource).await
}

/// Bodies larger than this are left for rmcp to refuse.
const MAX_INSPECTED: usize = 4 * 1024 * 1024;

/// The tool names a JSON-RPC message (or batch) calls.
fn called_tools(body: &Value) -> Vec<String> {
    let messages = match body {
        Value::Array(items) => items.iter().collect(),
        one => vec![one],
    };
    messages
        .into_iter()
        .filter(|message| message["method"] == "tools/call")
        .filter_map(|message| message["params"]["name"].as_str().map(str::to_owned))
        .collect()
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
    if let Ok(value) = challenge.parse() {
        response.headers_mut().insert(WWW_AUTHENTICATE, value);
    }
    response
}

fn bytes_to_payload(bytes: web::Bytes) -> actix_web::dev::Payload {
    let (_, mut payload) = actix_http::h1::Payload::create(true);
    payload.unread_data(bytes);
    actix_web::dev::Payload::from(payload)
}

/// The middleware.
pub async fn guard(
    mut request: ServiceRequest,
    next: Next<impl MessageBody + 'static>,
) -> Result<ServiceResponse<BoxBody>, actix_web::Error> {
    let Some(state) = request.app_data::<web::Data<GuardState>>().cloned() else {
        return next.call(request).await.map(ServiceResponse::map_into_boxed_body);
    };
    if request.method() != actix_web::http::Method::POST {
        return next.call(request).await.map(ServiceResponse::map_into_boxed_body);
    }
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
    let tools = serde_json::from_slice::<Value>(&bytes).map(|body| called_tools(&body)).unwrap_or_default();
    request.set_payload(bytes_to_payload(bytes));
    if !tools.is_empty() {
        // Every tool call is authenticated here, once: the tool server takes the caller from
        // the request instead of reading the credential again.
        let authorization = request.headers().get(actix_web::http::header::AUTHORIZATION).and_then(|v| v.to_str().ok()).map(str::to_owned);
        let caller = match authenticate(&state.app, authorization.as_deref(), &state.resource).await {
            Ok(caller) => caller,
            Err(error) => return Ok(request.into_response(refuse(&state, &error))),
        };
        let needs: Vec<accounts::Scope> = tools.iter().filter_map(|name| ops::find(name)).filter_map(|op| op.spec().scope).collect();
        if !needs.is_empty() {
            let Some(principal) = &caller.principal else {
                let error = OpError::Unauthorized { credential_sent: false, detail: "this tool needs a signed-in caller".into() };
                return Ok(request.into_response(refuse(&state, &error)));
            };
            if let Some(scope) = needs.into_iter().find(|scope| !principal.has_scope(*scope)) {
                return Ok(request.into_response(refuse(&state, &OpError::InsufficientScope { scope })));
            }
        }
        request.extensions_mut().insert(caller);
    }
    next.call(request).await.map(ServiceResponse::map_into_boxed_body)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn finds_tool_calls_in_messages_and_batches() {
        let one = serde_json::json!({"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": {"name": "get_draft"}});
        assert_eq!(called_tools(&one), ["get_draft"]);
        let batch = serde_json::json!([{"method": "tools/list"}, {"method": "tools/call", "params": {"name": "get_account"}}]);
        assert_eq!(called_tools(&batch), ["get_account"]);
        assert!(called_tools(&serde_json::json!({"method": "server/discover"})).is_empty());
    }
}
