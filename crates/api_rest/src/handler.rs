//! The one handler every operation route uses: credentials, path, query and body in; the
//! operation's JSON or a problem out.

use crate::RestState;
use crate::problem::from_op_error;
use actix_web::http::{Method, StatusCode, header};
use actix_web::{HttpMessage, HttpRequest, HttpResponse, web};
use futures_util::StreamExt;
use kernel::FieldError;
use ops::params::{ParamTypes, to_json};
use ops::{DynOperation, HttpMethod, OpError, RawInput};
use serde_json::Value;
use std::future::Future;
use std::sync::Arc;

pub fn method(method: HttpMethod) -> Method {
    match method {
        HttpMethod::Get => Method::GET,
        HttpMethod::Post => Method::POST,
        HttpMethod::Put => Method::PUT,
        HttpMethod::Patch => Method::PATCH,
        HttpMethod::Delete => Method::DELETE,
    }
}

/// Builds the route handler of one operation.
pub fn endpoint(
    op: Arc<dyn DynOperation>,
) -> impl Fn(HttpRequest, web::Payload, web::Data<RestState>) -> std::pin::Pin<Box<dyn Future<Output = HttpResponse>>> + Clone + 'static {
    let types = Arc::new(ops::params::of_operation(&*op));
    move |request, payload, state| {
        let op = op.clone();
        let types = types.clone();
        Box::pin(async move {
            let (rate, result) = run(&op, &types, &request, payload, &state).await;
            let mut response = match result {
                Ok(executed) => {
                    let status = StatusCode::from_u16(executed.status).unwrap_or(StatusCode::OK);
                    let mut response = HttpResponse::build(status);
                    if executed.replayed {
                        response.insert_header(("Idempotent-Replayed", "true"));
                    }
                    match executed.body {
                        http_edge::Answer::Text(body) => response.content_type(header::ContentType::json()).body(body),
                        http_edge::Answer::Value(body) => response.json(body),
                        http_edge::Answer::Json(body) => {
                            // A kept answer comes with its gzip twin: a client that takes gzip
                            // gets it at no cost, and a large answer (a whole week) is a tenth
                            // of its size on the wire.
                            response.content_type(header::ContentType::json()).insert_header((header::VARY, "Accept-Encoding"));
                            match body.gzip.filter(|_| takes_gzip(&request)) {
                                Some(packed) => response.insert_header((header::CONTENT_ENCODING, "gzip")).body(packed),
                                None => response.body(body.plain),
                            }
                        }
                    }
                }
                Err(error) => from_op_error(error),
            };
            // The server's request middleware turns it into the `RateLimit` headers.
            if let Some(rate) = rate {
                response.extensions_mut().insert(rate);
            }
            response
        })
    }
}

/// Whether the client sent `Accept-Encoding` naming gzip (`http_edge::encoding::accepts_gzip`).
fn takes_gzip(request: &HttpRequest) -> bool {
    http_edge::encoding::accepts_gzip(request.headers().get_all(header::ACCEPT_ENCODING).filter_map(|value| value.to_str().ok()))
}

/// The steps of every operation, in order: authenticate, count against the rate limit, read the
/// input, then idempotency and the use case (`http_edge::Edge::execute`). Where the request was counted comes
/// back whatever the answer, for the headers.
async fn run(
    op: &Arc<dyn DynOperation>,
    types: &(ParamTypes, ParamTypes),
    request: &HttpRequest,
    payload: web::Payload,
    state: &RestState,
) -> (Option<http_edge::RateStatus>, Result<http_edge::Executed, OpError>) {
    let client = http_edge::ClientIp::or_peer(request.extensions().get().copied(), request.peer_addr());
    let authenticated = match request.headers().get(header::AUTHORIZATION).map(|value| value.to_str()) {
        Some(Err(_)) => {
            Err(OpError::Unauthorized { credential_sent: true, detail: "the Authorization header is not readable text".into() })
        }
        authorization => ops::authenticate(&state.app, authorization.and_then(Result::ok)).await,
    };
    let admission = state.edge.admit(&[op.spec().rate], authenticated, client).await;
    let caller = match admission.caller {
        Ok(caller) => caller,
        Err(error) => return (admission.rate, Err(error)),
    };
    (admission.rate, execute(op, types, request, payload, state, &caller).await)
}

async fn execute(
    op: &Arc<dyn DynOperation>,
    types: &(ParamTypes, ParamTypes),
    request: &HttpRequest,
    payload: web::Payload,
    state: &RestState,
    caller: &ops::Caller,
) -> Result<http_edge::Executed, OpError> {
    let mut errors = Vec::new();
    let path_pairs = request.match_info().iter().map(|(name, value)| (name.to_owned(), value.to_owned())).collect();
    let path = to_json(path_pairs, &types.0, &mut errors);
    let query_pairs: Vec<(String, String)> = match serde_urlencoded::from_str(request.query_string()) {
        Ok(pairs) => pairs,
        Err(_) => {
            errors.push(FieldError::new("query", "is not a valid query string"));
            Vec::new()
        }
    };
    let query = to_json(query_pairs, &types.1, &mut errors);
    let body = read_body(request, payload, op.spec().max_body_bytes, &mut errors).await;
    if !errors.is_empty() {
        return Err(OpError::Validation(errors));
    }
    let key = match request.headers().get("idempotency-key").map(|value| value.to_str()) {
        None => None,
        Some(Ok(value)) => Some(value),
        Some(Err(_)) => return Err(OpError::field("Idempotency-Key", "must be 1 to 255 visible ASCII characters")),
    };
    state.edge.execute(op, &state.app, caller, RawInput { path, query, body }, key).await
}

/// Reads a JSON body of at most `limit` bytes (the operation's). An empty body is `None`.
async fn read_body(request: &HttpRequest, mut payload: web::Payload, limit: usize, errors: &mut Vec<FieldError>) -> Option<Value> {
    let too_big = || FieldError::new("body", format!("must be at most {} MiB", limit.div_ceil(1024 * 1024)));
    let declared = request.headers().get(header::CONTENT_LENGTH).and_then(|v| v.to_str().ok()).and_then(|v| v.parse::<u64>().ok());
    if declared.is_some_and(|length| length > limit as u64) {
        errors.push(too_big());
        return None;
    }
    let mut bytes = web::BytesMut::new();
    while let Some(chunk) = payload.next().await {
        match chunk {
            Ok(chunk) if bytes.len() + chunk.len() > limit => {
                errors.push(too_big());
                return None;
            }
            Ok(chunk) => bytes.extend_from_slice(&chunk),
            Err(_) => {
                errors.push(FieldError::new("body", "could not be read"));
                return None;
            }
        }
    }
    if bytes.is_empty() {
        return None;
    }
    let content_type = request.headers().get(header::CONTENT_TYPE).and_then(|v| v.to_str().ok()).unwrap_or("");
    let media = content_type.split(';').next().unwrap_or("").trim().to_ascii_lowercase();
    if media != "application/json" && !media.ends_with("+json") {
        errors.push(FieldError::new("body", "must be JSON sent with Content-Type: application/json"));
        return None;
    }
    match serde_json::from_slice::<Value>(&bytes) {
        Ok(value @ Value::Object(_)) => Some(value),
        Ok(_) => {
            errors.push(FieldError::new("body", "must be a JSON object"));
            None
        }
        Err(error) => {
            errors.push(FieldError::new("body", format!("is not valid JSON: {error}")));
            None
        }
    }
}
