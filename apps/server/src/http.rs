//! The HTTP server: the routes of the API, the tool server and the site, health and readiness,
//! and the middleware every request passes (request id, client address, security headers,
//! forgetting kept answers after a write, the `RateLimit` headers).

use crate::settings::Settings;
use crate::wiring::Services;
use actix_web::body::MessageBody;
use actix_web::dev::{ServiceRequest, ServiceResponse};
use actix_web::http::header::{HeaderName, HeaderValue};
use actix_web::middleware::{Next, from_fn};
use actix_web::{HttpMessage, HttpResponse, HttpServer, web};
use std::net::TcpListener;
use std::sync::Arc;
use std::time::Instant;
use store_seaorm::DatabaseConnection;
use tracing::Instrument;

/// The server on `listener`, every route mounted, not yet running.
pub fn serve(
    listener: TcpListener,
    settings: &Settings,
    services: &Services,
    db: DatabaseConnection,
) -> anyhow::Result<actix_web::dev::Server> {
    let rest = Arc::new(api_rest::RestState::new(services.app.clone(), services.edge.clone()));
    let pages = ::web::configure(::web::WebState {
        app: services.app.clone(),
        edge: services.edge.clone(),
        site_url: settings.site_url(),
        api_not_found: api_rest::problem::route_not_found,
    });
    let mcp = api_mcp::configure(
        services.app.clone(),
        services.edge.clone(),
        api_mcp::McpConfig {
            site_url: settings.site_url(),
            allowed_hosts: settings.mcp_allowed_hosts(),
            allowed_origins: settings.mcp_allowed_origins(),
            max_sessions: settings.mcp.max_sessions,
            session_idle: std::time::Duration::from_secs(settings.mcp.session_idle_seconds),
        },
    );
    let db_data = web::Data::new(db);
    let trusted_proxies = web::Data::new(settings.trusted_proxies()?);
    let security_headers = web::Data::new(SecurityHeaders { hsts: settings.site_url().starts_with("https://") });
    let answers = web::Data::from(services.edge.answers.clone());
    let mut server = HttpServer::new(move || {
        actix_web::App::new()
            .wrap(from_fn(request_context))
            .app_data(db_data.clone())
            .app_data(trusted_proxies.clone())
            .app_data(security_headers.clone())
            .app_data(answers.clone())
            .route("/healthz", web::get().to(|| async { HttpResponse::Ok().json(serde_json::json!({"status": "ok"})) }))
            .route("/readyz", web::get().to(readyz))
            .route("/bot", web::get().to(about_the_bot))
            .configure(api_rest::configure(rest.clone()))
            .configure(mcp.clone())
            .configure(pages.clone())
            .default_service(web::to(not_found))
    })
    // Answers written in pieces (an MCP answer's event stream: priming event, result, end) go
    // out at once instead of waiting on Nagle for the client's delayed ACK (40 ms a call on a
    // kept-alive connection).
    .tcp_nodelay(true)
    .listen(listener)?
    .shutdown_timeout(10);
    if let Some(workers) = settings.http_workers {
        server = server.workers(workers);
    }
    Ok(server.run())
}

/// An address nothing answers: the page for people to a browser, problem+json to an API client.
async fn not_found(request: actix_web::HttpRequest, pages: Option<web::Data<::web::WebState>>) -> HttpResponse {
    match pages {
        Some(pages) => ::web::unknown_address(pages, request).await,
        None => api_rest::not_found().await,
    }
}

/// The page our crawler's user agent links to.
async fn about_the_bot() -> HttpResponse {
    HttpResponse::Ok().content_type("text/html; charset=utf-8").body(concat!(
        "<!doctype html><html lang=\"en\"><head><meta charset=\"utf-8\"><title>LaunchdirBot</title></head><body>",
        "<h1>LaunchdirBot</h1>",
        "<p>LaunchdirBot reads a product's website when someone submits it to this launch directory, to draft the listing from what the site says. ",
        "It also checks homepages for our badge and verifies ownership claims.</p>",
        "<ul><li>It obeys robots.txt (user agent <code>LaunchdirBot</code>, else the <code>*</code> group) and never reads a page robots.txt disallows.</li>",
        "<li>It reads at most 10 pages of a site per submission, each at most 2 MiB, within 30 seconds.</li>",
        "<li>It never connects to private or reserved network addresses.</li></ul>",
        "<p>To keep it out, add <code>User-agent: LaunchdirBot</code> and <code>Disallow: /</code> to your robots.txt.</p>",
        "</body></html>"
    ))
}

async fn readyz(db: web::Data<DatabaseConnection>) -> HttpResponse {
    match store_seaorm::ping(&db).await {
        Ok(()) => HttpResponse::Ok().json(serde_json::json!({"status": "ready", "database": "ok"})),
        Err(err) => {
            tracing::warn!(error = %err, "readiness check failed");
            api_rest::problem::ProblemResponse::response(&api_rest::problem::Problem::new(
                503,
                "not_ready",
                "Not ready",
                "the database does not answer",
            ))
        }
    }
}

const REQUEST_ID: HeaderName = HeaderName::from_static("x-request-id");

/// Headers every answer carries. HSTS only when the site is served over https: sent over plain
/// http it would be ignored at best, and would pin a misconfigured development site at worst.
struct SecurityHeaders {
    hsts: bool,
}

impl SecurityHeaders {
    fn apply(&self, headers: &mut actix_web::http::header::HeaderMap) {
        let mut set = |name: &'static str, value: &'static str| {
            let name = HeaderName::from_static(name);
            // A route that chose its own value (an SVG badge, a page's frame rules) keeps it.
            if !headers.contains_key(&name) {
                headers.insert(name, HeaderValue::from_static(value));
            }
        };
        set("x-content-type-options", "nosniff");
        set("referrer-policy", "strict-origin-when-cross-origin");
        if self.hsts {
            set("strict-transport-security", "max-age=31536000; includeSubDomains");
        }
    }
}

/// Gives every request an id (the caller's `X-Request-Id` when it is sane, else a new UUID),
/// runs it inside a span carrying that id, logs its outcome, and echoes the id back.
async fn request_context(
    mut request: ServiceRequest,
    next: Next<impl MessageBody>,
) -> Result<ServiceResponse<impl MessageBody>, actix_web::Error> {
    let id = request
        .headers()
        .get(&REQUEST_ID)
        .and_then(|value| value.to_str().ok())
        .filter(|value| {
            !value.is_empty() && value.len() <= 64 && value.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_')
        })
        .map(str::to_owned)
        .unwrap_or_else(|| uuid::Uuid::new_v4().to_string());
    // HEAD is GET without the body (RFC 9110 9.3.2): routed as GET, and the HTTP layer, which
    // saw the HEAD, sends the headers only. The tool server's stream keeps its own rules.
    if request.method() == actix_web::http::Method::HEAD && !request.path().starts_with("/mcp") {
        request.head_mut().method = actix_web::http::Method::GET;
    }
    // The client, once for every part of the site (rate limits count per client address).
    if let (Some(peer), Some(trusted)) = (request.peer_addr(), request.app_data::<web::Data<http_edge::limits::TrustedProxies>>()) {
        let forwarded = request.headers().get_all("x-forwarded-for").filter_map(|value| value.to_str().ok());
        let client = http_edge::limits::client_ip(peer.ip(), forwarded, trusted);
        request.extensions_mut().insert(http_edge::ClientIp(client));
    }
    let security = request.app_data::<web::Data<SecurityHeaders>>().cloned();
    // A page's write that succeeds (a vote, a form) forgets the kept answers, as an operation's
    // does in `http_edge::Edge::execute`, which the tool server's POSTs (its reads too) go through; only a
    // known writer's (`http_edge::KnownWriter`), so a form refused to someone unknown forgets nothing.
    let reads = matches!(request.method().as_str(), "GET" | "HEAD" | "OPTIONS") || request.path().starts_with("/mcp");
    let answers = (!reads).then(|| request.app_data::<web::Data<http_edge::AnswerCache>>().cloned()).flatten();
    let span = tracing::info_span!("request", request_id = %id, method = %request.method(), path = %request.path());
    let started = Instant::now();
    let mut response = next.call(request).instrument(span.clone()).await?;
    if let Some(answers) = answers
        && (response.status().is_success() || response.status().is_redirection())
        && response.request().extensions().contains::<http_edge::KnownWriter>()
    {
        answers.forget_all();
    }
    let status = response.status().as_u16();
    span.in_scope(|| {
        let elapsed_ms = started.elapsed().as_secs_f64() * 1000.0;
        if status >= 500 {
            tracing::error!(status, elapsed_ms, "request failed");
        } else {
            tracing::info!(status, elapsed_ms, "request");
        }
    });
    if let Ok(value) = HeaderValue::from_str(&id) {
        response.headers_mut().insert(REQUEST_ID, value);
    }
    if let Some(security) = security {
        security.apply(response.headers_mut());
    }
    // Where the API, the tool server or a page counted the request: the `RateLimit` headers.
    let rate = response.response().extensions().get::<http_edge::RateStatus>().copied();
    if let Some(rate) = rate {
        for (name, value) in rate.headers() {
            if let Ok(value) = HeaderValue::from_str(&value) {
                response.headers_mut().insert(HeaderName::from_static(name), value);
            }
        }
    }
    Ok(response)
}
