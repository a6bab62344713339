#![doc = include_str!("../README.md")]

pub mod assets;
mod handler;
pub mod openapi;
pub mod problem;

use actix_web::{HttpMessage, HttpRequest, HttpResponse, web};
use http_edge::Edge;
use ops::{App, registry};
use std::sync::Arc;

/// The path prefix of the REST API.
pub const API_PREFIX: &str = "/api/v1";

/// Shared state of the REST routes.
pub struct RestState {
    pub app: App,
    pub edge: Edge,
    /// The OpenAPI document, built once at start-up.
    pub openapi: serde_json::Value,
}

impl RestState {
    pub fn new(app: App, edge: Edge) -> Self {
        let openapi = openapi::document(&app.site.base_url, edge.limits.quotas());
        Self { app, edge, openapi }
    }
}

/// Mounts every registry operation under `/api/v1`, and `/api/v1/openapi.json`.
pub fn configure(state: Arc<RestState>) -> impl FnOnce(&mut web::ServiceConfig) {
    move |cfg| {
        let data = web::Data::from(state);
        let mut scope = web::scope(API_PREFIX).app_data(data.clone()).route("/openapi.json", web::get().to(openapi_json));
        // Group operations by path so one resource answers every method of a path, and a wrong
        // method gets 405 with `Allow` instead of falling through to 404.
        let mut paths: Vec<&'static str> = Vec::new();
        for op in registry() {
            if !paths.contains(&op.spec().path) {
                paths.push(op.spec().path);
            }
        }
        for path in paths {
            let ops: Vec<_> = registry().iter().filter(|op| op.spec().path == path).cloned().collect();
            let allow = ops.iter().map(|op| op.spec().method.as_str()).collect::<Vec<_>>().join(", ");
            let mut resource = web::resource(path).name(ops[0].spec().id);
            for op in ops {
                resource = resource.route(web::method(handler::method(op.spec().method)).to(handler::endpoint(op)));
            }
            resource = resource.default_service(web::to(move || {
                let allow = allow.clone();
                async move { problem::method_not_allowed(&allow) }
            }));
            scope = scope.service(resource);
        }
        cfg.service(scope);
        cfg.app_data(data);
        cfg.configure(assets::configure);
    }
}

/// `/api/v1/openapi.json`, counted as an anonymous read of the client address.
async fn openapi_json(request: HttpRequest, state: web::Data<RestState>) -> HttpResponse {
    let client = http_edge::ClientIp::or_peer(request.extensions().get().copied(), request.peer_addr());
    let (mut response, rate) = match state.edge.limits.check(ops::RateClass::Read, None, client).await {
        Ok(rate) => (HttpResponse::Ok().json(&state.openapi), rate),
        Err(limited) => (problem::from_op_error(limited.into()), Some(limited.0)),
    };
    if let Some(rate) = rate {
        response.extensions_mut().insert(rate);
    }
    response
}

/// The answer for any path nothing else matched.
pub async fn not_found() -> HttpResponse {
    problem::route_not_found()
}
