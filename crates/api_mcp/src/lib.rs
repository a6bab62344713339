#![doc = include_str!("../README.md")]

pub mod guard;
pub mod sessions;
pub mod tools;

use actix_web::middleware::from_fn;
use actix_web::{HttpResponse, web};
use rmcp_actix_web::transport::StreamableHttpService;
use sessions::CappedSessions;
use std::sync::Arc;

pub use tools::{ToolServer, tool_entry, tools};

/// Where the tool server lives and who may reach it.
#[derive(Debug, Clone)]
pub struct McpConfig {
    /// The site address, without a trailing slash.
    pub site_url: String,
    /// Hosts the `Host` header may name (a name without a port matches any port).
    pub allowed_hosts: Vec<String>,
    /// Origins a browser-based client may call from; requests without `Origin` always pass.
    pub allowed_origins: Vec<String>,
    /// The most legacy (`initialize`) sessions kept at once.
    pub max_sessions: usize,
    /// A legacy session without a message for this long ends.
    pub session_idle: std::time::Duration,
}

impl McpConfig {
    /// `{site_url}/mcp`: the resource tokens must be issued for.
    pub fn resource(&self) -> String {
        format!("{}/mcp", self.site_url)
    }

    pub fn resource_metadata_url(&self) -> String {
        format!("{}/.well-known/oauth-protected-resource/mcp", self.site_url)
    }
}

/// Protected Resource Metadata (RFC 9728) of `/mcp`.
pub fn resource_metadata(config: &McpConfig) -> serde_json::Value {
    serde_json::json!({
        "resource": config.resource(),
        "authorization_servers": [config.site_url],
        "resource_name": "Launchdir tool server",
        "scopes_supported": accounts::Scope::ALL.iter().map(|scope| scope.as_str()).collect::<Vec<_>>(),
        "bearer_methods_supported": ["header"],
        "resource_documentation": format!("{}/docs/api", config.site_url),
    })
}

/// Mounts `/mcp` and its resource metadata.
pub fn configure(app: ops::App, edge: http_edge::Edge, config: McpConfig) -> impl Fn(&mut web::ServiceConfig) + Clone {
    let tools = tools();
    let (server_app, server_edge) = (app.clone(), edge.clone());
    let sessions = Arc::new(CappedSessions::new(config.max_sessions, config.session_idle));
    let service = StreamableHttpService::builder()
        .service_factory(Arc::new(move || Ok(ToolServer::new(server_app.clone(), server_edge.clone(), tools.clone()))))
        .session_manager(sessions.clone())
        .json_response(true)
        .allowed_hosts(config.allowed_hosts.clone())
        .allowed_origins(config.allowed_origins.clone())
        .on_request_fn(|request: &actix_web::HttpRequest, extensions: &mut rmcp::model::Extensions| {
            use actix_web::HttpMessage;
            // The caller the guard authenticated.
            if let Some(caller) = request.extensions().get::<ops::Caller>() {
                extensions.insert(caller.clone());
            }
        })
        .build();
    let guard_state = web::Data::new(guard::GuardState {
        app,
        edge,
        resource_metadata: config.resource_metadata_url(),
        resource: config.resource(),
        sessions,
    });
    let metadata = Arc::new(resource_metadata(&config));
    move |cfg: &mut web::ServiceConfig| {
        let metadata = metadata.clone();
        cfg.route(
            "/.well-known/oauth-protected-resource/mcp",
            web::get().to(move || {
                let metadata = metadata.clone();
                async move { HttpResponse::Ok().json(&*metadata) }
            }),
        )
        .service(web::scope("/mcp").app_data(guard_state.clone()).wrap(from_fn(guard::guard)).service(service.clone().scope()));
    }
}
