//! The OpenAPI 3.1 document, generated from the operation registry.

use crate::API_PREFIX;
use ops::{PartSchemas, RateClass, RateQuotas, registry};
use schemars::generate::SchemaSettings;
use serde_json::{Map, Value, json};

/// The base URL written into the checked-in `docs/openapi.json` (the default `BASE_URL`).
pub const DEFAULT_BASE_URL: &str = "http://127.0.0.1:8080/api/v1";

/// Builds the document. `base_url` becomes the server address; `quotas` are the deployment's rate
/// limits, shown on each operation as `x-rate-limit`.
pub fn document(base_url: &str, quotas: &RateQuotas) -> Value {
    // The site (the OAuth issuer) is the API base without its `/api/v1` prefix.
    let site = base_url.trim_end_matches('/').trim_end_matches("/api/v1");
    let definitions_path = "#/components/schemas/";
    let mut inputs = SchemaSettings::draft2020_12().with(|s| s.definitions_path = definitions_path.into()).into_generator();
    let mut outputs =
        SchemaSettings::draft2020_12().with(|s| s.definitions_path = definitions_path.into()).for_serialize().into_generator();
    let mut components = Map::new();
    let mut paths = Map::new();
    for op in registry() {
        let spec = op.spec();
        let PartSchemas { path, query, body, output } = op.schemas(&mut inputs, &mut outputs);
        let mut parameters = Vec::new();
        for (location, schema) in [("path", path), ("query", query)] {
            let Some(schema) = schema else { continue };
            let schema = embed(text_only(schema.to_value()), &mut components);
            let required: Vec<&str> =
                schema.get("required").and_then(Value::as_array).map(|r| r.iter().filter_map(Value::as_str).collect()).unwrap_or_default();
            if let Some(properties) = schema.get("properties").and_then(Value::as_object) {
                // A stable order whatever order the schema's map keeps: path parameters as the
                // path names them, query parameters by name.
                let mut properties: Vec<(&String, &Value)> = properties.iter().collect();
                properties.sort_by_key(|(name, _)| (spec.path.find(&format!("{{{name}}}")).unwrap_or(usize::MAX), (*name).clone()));
                for (name, property) in properties {
                    let mut property = property.clone();
                    let description = property.as_object_mut().and_then(|p| p.remove("description"));
                    let mut parameter = json!({
                        "name": name,
                        "in": location,
                        "required": location == "path" || required.contains(&name.as_str()),
                        "schema": property,
                    });
                    if let Some(description) = description {
                        parameter["description"] = description;
                    }
                    parameters.push(parameter);
                }
            }
        }
        if spec.idempotent {
            parameters.push(json!({"$ref": "#/components/parameters/IdempotencyKey"}));
        }
        let mut responses = Map::new();
        responses.insert(
            spec.success_status.to_string(),
            json!({
                "description": spec.summary,
                "content": {"application/json": {"schema": embed(output.to_value(), &mut components)}},
            }),
        );
        responses.insert("400".into(), json!({"$ref": "#/components/responses/BadRequest"}));
        if spec.scope.is_some() {
            responses.insert("401".into(), json!({"$ref": "#/components/responses/Unauthorized"}));
            responses.insert("403".into(), json!({"$ref": "#/components/responses/Forbidden"}));
        }
        if spec.not_found {
            responses.insert("404".into(), json!({"$ref": "#/components/responses/NotFound"}));
        }
        if spec.idempotent {
            responses.insert("409".into(), json!({"$ref": "#/components/responses/Conflict"}));
        }
        responses.insert("429".into(), json!({"$ref": "#/components/responses/TooManyRequests"}));
        let mut operation = json!({
            "operationId": spec.id,
            "summary": spec.summary,
            "description": spec.description,
            "tags": [spec.tag],
            "parameters": parameters,
            "responses": responses,
        });
        match spec.scope {
            Some(scope) => {
                operation["security"] = json!([{"bearerAuth": []}, {"oauth2": [scope.as_str()]}]);
                operation["x-scope"] = json!(scope.as_str());
            }
            None => operation["security"] = json!([{}, {"bearerAuth": []}, {"oauth2": []}]),
        }
        operation["x-rate-limit"] = rate_limit(spec.rate, quotas);
        if let Some(body) = body {
            let body = embed(text_only(body.to_value()), &mut components);
            let required = body.get("required").and_then(Value::as_array).is_some_and(|r| !r.is_empty());
            operation["requestBody"] = json!({"required": required, "content": {"application/json": {"schema": body}}});
        }
        let method = spec.method.as_str().to_ascii_lowercase();
        let entry = paths.entry(spec.path.to_owned()).or_insert_with(|| json!({}));
        entry[method] = operation;
    }
    components.insert("Problem".into(), problem_schema());
    json!({
        "openapi": "3.1.0",
        "jsonSchemaDialect": "https://json-schema.org/draft/2020-12/schema",
        "info": {
            "title": "Launchdir API",
            "version": "1.0.0",
            "description": "A public directory of product launches. Every operation is also a tool of the same name on the MCP server at {site_url}/mcp.",
            "license": {"name": "AGPL-3.0-or-later", "identifier": "AGPL-3.0-or-later"},
        },
        "servers": [{"url": base_url}],
        "paths": paths,
        "components": {
            "schemas": components,
            "securitySchemes": {
                "bearerAuth": {
                    "type": "http",
                    "scheme": "bearer",
                    "description": "An API key created in your account (or with `launchdir api-key create`), sent as `Authorization: Bearer <key>`.",
                },
                "oauth2": {
                    "type": "oauth2",
                    "description": "OAuth 2.1 with PKCE (S256), for public clients (dynamic registration or client ID metadata documents). Ask for `resource` = this API's base URL (or the tool server's `{site_url}/mcp`).",
                    "flows": {
                        "authorizationCode": {
                            "authorizationUrl": format!("{site}/oauth/authorize"),
                            "tokenUrl": format!("{site}/oauth/token"),
                            "refreshUrl": format!("{site}/oauth/token"),
                            "scopes": {
                                "account:read": "See your account, drafts, listings, claims and orders",
                                "listings:write": "Submit and edit your drafts and listings, and claim listings",
                                "orders:write": "Get quotes and start checkouts",
                            },
                        },
                    },
                },
            },
            "parameters": {
                "IdempotencyKey": {
                    "name": "Idempotency-Key",
                    "in": "header",
                    "required": false,
                    "description": "1 to 255 visible ASCII characters. A retry with the same key and request replays the first answer for 24 hours.",
                    "schema": {"type": "string", "minLength": 1, "maxLength": 255, "pattern": "^[\\x21-\\x7E]+$"},
                },
            },
            "responses": {
                "BadRequest": problem_response("Invalid input: `errors` names each bad field"),
                "Unauthorized": problem_response("No credential, or one that is malformed, unknown, expired or revoked"),
                "Forbidden": problem_response("The credential lacks the scope, or the account is blocked"),
                "NotFound": problem_response("The resource named in the path does not exist"),
                "Conflict": problem_response("A request with the same Idempotency-Key is still running"),
                "TooManyRequests": too_many_requests(),
            },
        },
        "x-api-prefix": API_PREFIX,
    })
}

/// What an operation counts against: each policy its requests may be counted under, with its quota.
fn rate_limit(class: RateClass, quotas: &RateQuotas) -> Value {
    let policies: Vec<Value> = class
        .policies()
        .into_iter()
        .map(|policy| {
            let quota = quotas.get(policy);
            let per = if policy.per_client_only() { "client address" } else { "principal (client address when not signed in)" };
            json!({"policy": policy.name(), "quota": quota.requests(), "window_seconds": quota.window().as_secs(), "per": per})
        })
        .collect();
    json!({"policies": policies})
}

/// The 429, with the headers every answer carries and `Retry-After`.
fn too_many_requests() -> Value {
    let mut response = problem_response(
        "Rate limited: the quota named in RateLimit-Policy is spent. Wait Retry-After seconds. Every answer carries RateLimit-Policy and RateLimit (draft-ietf-httpapi-ratelimit-headers).",
    );
    let header = |description: &str| json!({"description": description, "schema": {"type": "string"}});
    response["headers"] = json!({
        "Retry-After": {"description": "Seconds to wait before trying again.", "schema": {"type": "integer", "minimum": 1}},
        "RateLimit-Policy": header("The quota this request counts against: `\"read\";q=600;w=60` (name, requests, window in seconds)."),
        "RateLimit": header("What is left of it: `\"read\";r=0;t=12` (requests left, seconds until the whole quota is back)."),
    });
    response
}

fn problem_response(description: &str) -> Value {
    json!({"description": description, "content": {"application/problem+json": {"schema": {"$ref": "#/components/schemas/Problem"}}}})
}

fn problem_schema() -> Value {
    json!({
        "type": "object",
        "description": "RFC 9457 problem details.",
        "required": ["type", "title", "status", "detail", "code"],
        "properties": {
            "type": {"type": "string"},
            "title": {"type": "string"},
            "status": {"type": "integer"},
            "detail": {"type": "string"},
            "code": {"type": "string", "description": "Stable snake_case error code, e.g. validation_failed, unauthorized, insufficient_scope, not_found."},
            "errors": {
                "type": "array",
                "items": {
                    "type": "object",
                    "required": ["field", "message"],
                    "properties": {"field": {"type": "string"}, "message": {"type": "string"}},
                },
            },
        },
    })
}

/// What `ops::input` refuses in every string of an input, as a schema says it: a character XML
/// 1.0 forbids (`kernel::markup::xml_allows`): the control characters but tab and line breaks,
/// U+FFFE and U+FFFF.
pub const TEXT_PATTERN: &str = "^[^\\u0000-\\u0008\\u000B\\u000C\\u000E-\\u001F\\uFFFE\\uFFFF]*$";

/// Gives every string of an input schema that has no format, enum or constant of its own the
/// rule of `TEXT_PATTERN`: as its `pattern`, or, where it has one already (a slug's, a link's,
/// "not only spaces"), beside it in `allOf`, since a schema has one `pattern`.
fn text_only(mut schema: Value) -> Value {
    fn walk(value: &mut Value) {
        match value {
            Value::Object(object) => {
                let is_string = match object.get("type") {
                    Some(Value::String(kind)) => kind == "string",
                    Some(Value::Array(kinds)) => kinds.iter().any(|kind| kind == "string"),
                    _ => false,
                };
                if is_string && !["format", "enum", "const"].iter().any(|key| object.contains_key(*key)) {
                    let rule = Value::String(TEXT_PATTERN.into());
                    if !object.contains_key("pattern") {
                        object.insert("pattern".into(), rule);
                    } else if let Value::Array(all) = object.entry("allOf").or_insert_with(|| Value::Array(Vec::new())) {
                        all.push(json!({"pattern": rule}));
                    }
                }
                object.values_mut().for_each(walk);
            }
            Value::Array(items) => items.iter_mut().for_each(walk),
            _ => {}
        }
    }
    walk(&mut schema);
    schema
}

/// Moves definitions a root schema carries (at `components.schemas`, where the generator was
/// told to put them) into the document's components, and drops `$schema`.
fn embed(mut schema: Value, components: &mut Map<String, Value>) -> Value {
    if let Some(object) = schema.as_object_mut() {
        object.remove("$schema");
        if let Some(Value::Object(mut nested)) = object.remove("components")
            && let Some(Value::Object(definitions)) = nested.remove("schemas")
        {
            components.extend(definitions);
        }
    }
    schema
}
