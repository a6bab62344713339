//! The mounted routes are exactly the registry: every operation answers at its method and path,
//! and its OpenAPI entry exists.

use crate::helpers::spawn_app;

static FOUNDER: std::sync::OnceLock<String> = std::sync::OnceLock::new();
static LISTING: std::sync::OnceLock<String> = std::sync::OnceLock::new();

#[tokio::test]
async fn every_registry_operation_is_routed() {
    let app = spawn_app().await;
    let openapi = app.get("/api/v1/openapi.json").await.body;
    let founder = app.get("/api/v1/founders").await.body["items"][0]["slug"].as_str().unwrap().to_owned();
    FOUNDER.set(founder).ok();
    let design = app.get("/api/v1/categories/design").await.body;
    let listing = design["items"][0]["slug"].as_str().unwrap().to_owned();
    let other = design["items"][1]["slug"].as_str().unwrap().to_owned();
    LISTING.set(listing.clone()).ok();
    // Operations whose query has required parameters get values that exist.
    let query = |id: &str| match id {
        "compare_listings" => format!("?a={listing}&b={other}"),
        _ => String::new(),
    };
    for op in ops::registry() {
        let spec = op.spec();
        // Fill path parameters with a value of the right shape (an existing one where the
        // demo directory has it, so public reads answer their success status).
        let path: String = spec
            .path
            .split('/')
            .map(|segment| match (spec.path, segment) {
                (p, "{slug}") if p.starts_with("/blog/") => "how-launch-weeks-work",
                (p, "{slug}") if p.starts_with("/founders/") => FOUNDER.get().map(String::as_str).unwrap_or_default(),
                (p, "{slug}") if p.starts_with("/listings/") => LISTING.get().map(String::as_str).unwrap_or_default(),
                (_, "{slug}") => "design",
                (_, "{week}") => "this",
                (_, "{board}") => "community-all-time",
                (_, s) if s.starts_with('{') => "1",
                (_, s) => s,
            })
            .collect::<Vec<_>>()
            .join("/");
        let method = reqwest::Method::from_bytes(spec.method.as_str().as_bytes()).unwrap();
        let reply = app.send(app.client.request(method, app.url(&format!("/api/v1{path}{}", query(spec.id))))).await;
        let code = reply.body["code"].as_str().unwrap_or_default();
        assert!(
            code != "method_not_allowed" && !(reply.status == 404 && reply.body["detail"] == "no resource lives at this address"),
            "{} is not routed",
            spec.id
        );
        if spec.scope.is_some() {
            assert_eq!(reply.status, 401, "{} needs a credential", spec.id);
        } else {
            assert_eq!(reply.status.as_u16(), spec.success_status, "{}: {:#}", spec.id, reply.body);
        }
        assert_eq!(openapi["paths"][spec.path][spec.method.as_str().to_lowercase()]["operationId"], spec.id);
    }
}
