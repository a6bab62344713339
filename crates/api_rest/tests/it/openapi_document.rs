//! The OpenAPI document agrees with the registry, and the checked-in copy is current.

use api_rest::openapi::{DEFAULT_BASE_URL, document};
use ops::RateQuotas;
use ops::registry;
use serde_json::Value;
use std::collections::BTreeSet;

#[test]
fn checked_in_copy_is_current() {
    let checked_in: Value = serde_json::from_str(include_str!("../../../../docs/openapi.json")).expect("docs/openapi.json is JSON");
    let generated = document(DEFAULT_BASE_URL, &RateQuotas::default());
    if checked_in != generated {
        // Left beside the build for a diff.
        let path = std::env::temp_dir().join("launchdir-openapi-generated.json");
        std::fs::write(&path, serde_json::to_string_pretty(&generated).unwrap()).ok();
        panic!("docs/openapi.json is out of date: run `cargo xtask openapi` (this build's document: {})", path.display());
    }
}

#[test]
fn version_and_dialect() {
    let doc = document("https://launch.example/api/v1", &RateQuotas::default());
    assert_eq!(doc["openapi"], "3.1.0");
    assert_eq!(doc["info"]["version"], "1.0.0");
    assert_eq!(doc["jsonSchemaDialect"], "https://json-schema.org/draft/2020-12/schema");
    assert_eq!(doc["servers"][0]["url"], "https://launch.example/api/v1");
}

#[test]
fn operations_are_exactly_the_registry() {
    let doc = document(DEFAULT_BASE_URL, &RateQuotas::default());
    let mut in_doc = BTreeSet::new();
    for (path, item) in doc["paths"].as_object().unwrap() {
        for (method, operation) in item.as_object().unwrap() {
            in_doc.insert((operation["operationId"].as_str().unwrap().to_owned(), method.to_uppercase(), path.clone()));
        }
    }
    let in_registry: BTreeSet<_> =
        registry().iter().map(|op| (op.spec().id.to_owned(), op.spec().method.as_str().to_owned(), op.spec().path.to_owned())).collect();
    assert_eq!(in_doc, in_registry);
}

#[test]
fn responses_follow_the_error_rules() {
    let doc = document(DEFAULT_BASE_URL, &RateQuotas::default());
    for op in registry() {
        let spec = op.spec();
        let operation = &doc["paths"][spec.path][spec.method.as_str().to_lowercase()];
        let responses = operation["responses"].as_object().unwrap();
        assert!(responses.contains_key(&spec.success_status.to_string()), "{}", spec.id);
        assert!(responses.contains_key("400") && responses.contains_key("429"), "{}: every operation may answer 400 and 429", spec.id);
        assert_eq!(responses.contains_key("401"), spec.scope.is_some(), "{}: 401 exactly on authenticated operations", spec.id);
        assert_eq!(responses.contains_key("403"), spec.scope.is_some(), "{}: 403 exactly on authenticated operations", spec.id);
        assert_eq!(responses.contains_key("404"), spec.not_found, "{}: 404", spec.id);
        assert_eq!(responses.contains_key("409"), spec.idempotent, "{}: 409 on idempotent operations", spec.id);
        if let Some(scope) = spec.scope {
            // An API key, or an OAuth token carrying the operation's scope.
            assert_eq!(operation["security"], serde_json::json!([{"bearerAuth": []}, {"oauth2": [scope.as_str()]}]), "{}", spec.id);
        }
    }
}

#[test]
fn the_oauth_scheme_points_at_the_site() {
    let doc = document(DEFAULT_BASE_URL, &RateQuotas::default());
    let flow = &doc["components"]["securitySchemes"]["oauth2"]["flows"]["authorizationCode"];
    let site = DEFAULT_BASE_URL.trim_end_matches("/api/v1");
    assert_eq!(flow["authorizationUrl"], format!("{site}/oauth/authorize"));
    assert_eq!(flow["tokenUrl"], format!("{site}/oauth/token"));
    assert_eq!(flow["scopes"].as_object().unwrap().len(), 3);
}

#[test]
fn every_reference_resolves() {
    let doc = document(DEFAULT_BASE_URL, &RateQuotas::default());
    let mut refs = Vec::new();
    collect_refs(&doc, &mut refs);
    assert!(!refs.is_empty());
    for reference in refs {
        let pointer = reference.strip_prefix('#').expect("local reference");
        assert!(doc.pointer(pointer).is_some(), "{reference} does not resolve");
    }
}

fn collect_refs(value: &Value, out: &mut Vec<String>) {
    match value {
        Value::Object(map) => {
            if let Some(Value::String(reference)) = map.get("$ref") {
                out.push(reference.clone());
            }
            map.values().for_each(|v| collect_refs(v, out));
        }
        Value::Array(items) => items.iter().for_each(|v| collect_refs(v, out)),
        _ => {}
    }
}

#[test]
fn every_operation_names_its_rate_limit_and_the_429_names_the_headers() {
    let doc = document(DEFAULT_BASE_URL, &RateQuotas::default());
    let operation = |path: &str, method: &str| doc["paths"][path][method].clone();
    assert_eq!(
        operation("/listings/{slug}", "get")["x-rate-limit"]["policies"],
        serde_json::json!([
            {"policy": "read", "quota": 600, "window_seconds": 60, "per": "principal (client address when not signed in)"},
            {"policy": "read_anonymous", "quota": 120, "window_seconds": 60, "per": "client address"},
        ])
    );
    assert_eq!(operation("/drafts", "post")["x-rate-limit"]["policies"][0]["policy"], "submit_listing");
    assert_eq!(operation("/drafts", "post")["x-rate-limit"]["policies"][0]["window_seconds"], 3600);
    for methods in doc["paths"].as_object().unwrap().values() {
        for operation in methods.as_object().unwrap().values() {
            assert!(operation["x-rate-limit"]["policies"].as_array().is_some_and(|p| !p.is_empty()), "{}", operation["operationId"]);
            assert_eq!(operation["responses"]["429"]["$ref"], "#/components/responses/TooManyRequests");
        }
    }
    let headers = &doc["components"]["responses"]["TooManyRequests"]["headers"];
    for name in ["Retry-After", "RateLimit-Policy", "RateLimit"] {
        assert!(headers[name].is_object(), "{name}");
    }
    // A deployment's own quotas are what its document shows.
    let mut quotas = RateQuotas::default();
    quotas.set(ops::RateClass::SubmitListing, kernel::RateQuota::per_hour(5));
    let custom = document(DEFAULT_BASE_URL, &quotas);
    assert_eq!(custom["paths"]["/drafts"]["post"]["x-rate-limit"]["policies"][0]["quota"], 5);
}
