//! The tool server at `/mcp`: tools generated from the registry, calls through the same use
//! cases as REST, both protocol eras, and the resource-server checks.

use crate::helpers::{TestApp, spawn_app};
use serde_json::{Value, json};

const MODERN: &str = "2026-07-28";

fn meta() -> Value {
    json!({"io.modelcontextprotocol/protocolVersion": MODERN, "io.modelcontextprotocol/clientCapabilities": {}})
}

/// A JSON-RPC answer: the JSON body, or the `data:` line of an SSE stream.
fn rpc_body(text: &str) -> Value {
    if let Ok(value) = serde_json::from_str(text) {
        return value;
    }
    let data = text.lines().filter_map(|line| line.strip_prefix("data: ")).find(|line| line.starts_with('{')).unwrap_or("null");
    serde_json::from_str(data).unwrap()
}

impl TestApp {
    /// A 2026-07-28 request; returns the HTTP status, the `WWW-Authenticate` header and the body.
    async fn mcp(&self, method: &str, mut params: Value, token: Option<&str>) -> (u16, Option<String>, Value) {
        params["_meta"] = meta();
        let mut request = self
            .client
            .post(self.url("/mcp"))
            .header("Content-Type", "application/json")
            .header("Accept", "application/json, text/event-stream")
            .header("MCP-Protocol-Version", MODERN)
            .header("Mcp-Method", method);
        if method == "tools/call" {
            request = request.header("Mcp-Name", params["name"].as_str().unwrap());
        }
        if let Some(token) = token {
            request = request.bearer_auth(token);
        }
        let response = request.json(&json!({"jsonrpc": "2.0", "id": 1, "method": method, "params": params})).send().await.unwrap();
        let status = response.status().as_u16();
        let challenge = response.headers().get("www-authenticate").map(|v| v.to_str().unwrap().to_owned());
        let text = response.text().await.unwrap();
        (status, challenge, rpc_body(&text))
    }

    pub(crate) async fn call_tool(&self, name: &str, arguments: Value, token: Option<&str>) -> Value {
        let (status, _, body) = self.mcp("tools/call", json!({"name": name, "arguments": arguments}), token).await;
        assert_eq!(status, 200, "{body:#}");
        body["result"].clone()
    }
}

#[tokio::test]
async fn rest_openapi_and_mcp_list_the_same_operations() {
    let app = spawn_app().await;
    let (status, _, listed) = app.mcp("tools/list", json!({}), None).await;
    assert_eq!(status, 200);
    let tools = listed["result"]["tools"].as_array().unwrap();
    let names: Vec<&str> = tools.iter().map(|t| t["name"].as_str().unwrap()).collect();
    let registry: Vec<&str> = ops::registry().iter().map(|op| op.spec().id).collect();
    assert_eq!(names, registry, "same operations, same order");
    let openapi = app.get("/api/v1/openapi.json").await.body;
    let mut documented: Vec<&str> = openapi["paths"]
        .as_object()
        .unwrap()
        .values()
        .flat_map(|item| item.as_object().unwrap().values().filter_map(|op| op["operationId"].as_str()))
        .collect();
    documented.sort_unstable();
    let mut sorted = names.clone();
    sorted.sort_unstable();
    assert_eq!(sorted, documented);
    // Every tool: description, one object input schema (path, query and body merged), an
    // output schema, and annotations.
    for tool in tools {
        assert!(!tool["description"].as_str().unwrap().is_empty());
        assert_eq!(tool["inputSchema"]["type"], "object", "{}", tool["name"]);
        assert_eq!(tool["outputSchema"]["type"], "object", "{}", tool["name"]);
        assert!(tool["annotations"]["readOnlyHint"].is_boolean());
    }
    let tool = |name: &str| tools.iter().find(|t| t["name"] == name).unwrap();
    let update = tool("update_draft");
    assert!(update["inputSchema"]["properties"]["id"].is_object(), "path parameter");
    assert!(update["inputSchema"]["properties"]["fields"].is_object(), "body property");
    assert_eq!(update["inputSchema"]["required"], json!(["id"]));
    assert_eq!(update["annotations"]["readOnlyHint"], false);
    assert_eq!(update["annotations"]["idempotentHint"], true);
    assert!(update["inputSchema"]["properties"]["idempotency_key"].is_object(), "(I) operations take the key as an argument");
    assert!(tool("get_draft")["inputSchema"]["properties"]["idempotency_key"].is_null());
    let search = tool("search_listings");
    assert!(search["inputSchema"]["properties"]["q"].is_object(), "query parameter");
    assert_eq!(search["annotations"]["readOnlyHint"], true);
}

#[tokio::test]
async fn discovery_and_public_tools_need_no_token_and_match_rest() {
    let app = spawn_app().await;
    let (status, _, discovered) = app.mcp("server/discover", json!({}), None).await;
    assert_eq!(status, 200);
    assert!(discovered["result"]["supportedVersions"].as_array().unwrap().contains(&json!(MODERN)));
    assert!(discovered["result"]["capabilities"]["tools"].is_object());

    let result = app.call_tool("get_site_info", json!({}), None).await;
    assert_eq!(result["isError"], false);
    let rest = app.get("/api/v1/site").await.body;
    assert_eq!(result["structuredContent"], rest, "the same use case answers both");
    assert_eq!(serde_json::from_str::<Value>(result["content"][0]["text"].as_str().unwrap()).unwrap(), rest);

    // Path and query arguments of a public tool.
    let design = app.call_tool("get_category", json!({"slug": "design", "per_page": 2}), None).await;
    assert_eq!(design["structuredContent"]["items"].as_array().unwrap().len(), 2);

    // Validation and not-found errors are tool errors carrying the problem details.
    let invalid = app.call_tool("get_category", json!({"slug": "Not A Slug"}), None).await;
    assert_eq!(invalid["isError"], true);
    assert_eq!(invalid["structuredContent"]["code"], "validation_failed");
    assert_eq!(invalid["structuredContent"]["errors"][0]["field"], "slug");
    let missing = app.call_tool("get_category", json!({"slug": "no-such-category"}), None).await;
    assert_eq!(missing["isError"], true);
    assert_eq!(missing["structuredContent"]["status"], 404);
    let unknown = app.call_tool("list_categories", json!({"colour": "red"}), None).await;
    assert_eq!(unknown["structuredContent"]["errors"][0]["field"], "colour");
}

/// Posts a JSON-RPC message as a legacy (2025-11-25) client does, in `session` once it has one.
fn legacy_post(app: &TestApp, body: Value, session: Option<String>) -> impl Future<Output = reqwest::Result<reqwest::Response>> {
    let mut request = app
        .client
        .post(app.url("/mcp"))
        .header("Content-Type", "application/json")
        .header("Accept", "application/json, text/event-stream")
        .json(&body);
    if let Some(session) = session {
        request = request.header("Mcp-Session-Id", session).header("MCP-Protocol-Version", "2025-11-25");
    }
    request.send()
}

#[tokio::test]
async fn legacy_clients_initialize_and_call_tools() {
    let app = spawn_app().await;
    let post = |body: Value, session: Option<String>| legacy_post(&app, body, session);
    let init = post(
        json!({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {"protocolVersion": "2025-11-25", "capabilities": {}, "clientInfo": {"name": "test", "version": "1"}}}),
        None,
    )
    .await
    .unwrap();
    assert_eq!(init.status(), 200);
    let session = init.headers().get("mcp-session-id").map(|v| v.to_str().unwrap().to_owned());
    let body = rpc_body(&init.text().await.unwrap());
    assert_eq!(body["result"]["protocolVersion"], "2025-11-25");
    assert_eq!(body["result"]["serverInfo"]["name"], "Launchdir");
    let notified = post(json!({"jsonrpc": "2.0", "method": "notifications/initialized"}), session.clone()).await.unwrap();
    assert_eq!(notified.status(), 202);
    let listed = post(json!({"jsonrpc": "2.0", "id": 2, "method": "tools/list"}), session.clone()).await.unwrap();
    let listed = rpc_body(&listed.text().await.unwrap());
    assert_eq!(listed["result"]["tools"].as_array().unwrap().len(), ops::registry().len());
    let called =
        post(json!({"jsonrpc": "2.0", "id": 3, "method": "tools/call", "params": {"name": "list_products", "arguments": {}}}), session)
            .await
            .unwrap();
    let called = rpc_body(&called.text().await.unwrap());
    assert!(called["result"]["structuredContent"]["items"].as_array().unwrap().len() >= 9);
}

/// A legacy session's answer is an event stream written in pieces (a priming event, the result,
/// the end). Without `TCP_NODELAY` each piece after the first waited for the client's delayed
/// acknowledgement, about 40 ms a call on a kept-alive connection. A ratio of medians measured
/// in one run, one request at a time on one kept-alive connection, not a wall-clock limit.
#[tokio::test]
async fn a_tool_call_on_a_kept_alive_connection_costs_about_what_its_rest_twin_costs() {
    let app = spawn_app().await;
    let init = json!({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {"protocolVersion": "2025-11-25", "capabilities": {}, "clientInfo": {"name": "test", "version": "1"}}});
    let init = legacy_post(&app, init, None).await.unwrap();
    let session = init.headers().get("mcp-session-id").map(|v| v.to_str().unwrap().to_owned());
    init.bytes().await.unwrap();
    legacy_post(&app, json!({"jsonrpc": "2.0", "method": "notifications/initialized"}), session.clone()).await.unwrap();
    let (mut rest, mut mcp) = (Vec::new(), Vec::new());
    for round in 0..30 {
        let started = std::time::Instant::now();
        let response = app.client.get(app.url("/api/v1/site")).send().await.unwrap();
        assert_eq!(response.status(), 200);
        response.bytes().await.unwrap();
        let rest_time = started.elapsed();
        let started = std::time::Instant::now();
        let call = json!({"jsonrpc": "2.0", "id": 2 + round, "method": "tools/call", "params": {"name": "get_site_info", "arguments": {}}});
        let response = legacy_post(&app, call, session.clone()).await.unwrap();
        assert_eq!(response.status(), 200);
        assert!(response.headers()["content-type"].to_str().unwrap().starts_with("text/event-stream"));
        assert!(response.headers().contains_key("content-length"), "the event stream is sent whole, in one piece");
        assert!(rpc_body(&response.text().await.unwrap())["result"]["structuredContent"]["name"].is_string());
        let mcp_time = started.elapsed();
        if round >= 5 {
            rest.push(rest_time);
            mcp.push(mcp_time);
        }
    }
    rest.sort_unstable();
    mcp.sort_unstable();
    let (rest, mcp) = (rest[rest.len() / 2], mcp[mcp.len() / 2]);
    assert!(mcp <= rest * 10, "tools/call median {mcp:?} against GET /api/v1/site median {rest:?}");
}

#[tokio::test]
async fn tools_that_need_the_account_get_401_and_403_before_the_mcp_layer() {
    let app = spawn_app().await;
    let metadata_url = "https://launch.example/.well-known/oauth-protected-resource/mcp";
    let (status, challenge, body) = app.mcp("tools/call", json!({"name": "get_account", "arguments": {}}), None).await;
    assert_eq!(status, 401, "{body:#}");
    assert_eq!(challenge.unwrap(), format!("Bearer resource_metadata=\"{metadata_url}\""));
    assert_eq!(body["code"], "unauthorized");

    let (status, challenge, _) = app.mcp("tools/call", json!({"name": "get_account", "arguments": {}}), Some("ldk_not-a-real-key")).await;
    assert_eq!(status, 401);
    let challenge = challenge.unwrap();
    assert!(challenge.contains("error=\"invalid_token\"") && challenge.contains(metadata_url), "{challenge}");

    let (_, writer) = app.api_key("listings:write").await;
    let (status, challenge, body) = app.mcp("tools/call", json!({"name": "get_account", "arguments": {}}), Some(&writer)).await;
    assert_eq!(status, 403, "{body:#}");
    let challenge = challenge.unwrap();
    assert!(challenge.contains("error=\"insufficient_scope\"") && challenge.contains("scope=\"account:read\""), "{challenge}");
    assert_eq!(body["code"], "insufficient_scope");

    // An API key works on /mcp as on REST.
    let (email, key) = app.api_key("").await;
    let account = app.call_tool("get_account", json!({}), Some(&key)).await;
    assert_eq!(account["isError"], false, "{account:#}");
    assert_eq!(account["structuredContent"]["user"]["email"], email.as_str());

    // A bad token is refused even on a public tool, as on REST.
    let (status, _, _) = app.mcp("tools/call", json!({"name": "get_site_info", "arguments": {}}), Some("ldk_not-a-real-key")).await;
    assert_eq!(status, 401);
    // tools/list and public tools still work with no token.
    let (status, _, _) = app.mcp("tools/list", json!({}), None).await;
    assert_eq!(status, 200);

    // The protected resource metadata.
    let metadata = app.get("/.well-known/oauth-protected-resource/mcp").await;
    assert_eq!(metadata.status, 200);
    assert_eq!(metadata.body["resource"], "https://launch.example/mcp");
    assert_eq!(metadata.body["scopes_supported"], json!(["account:read", "listings:write", "orders:write"]));
}

#[tokio::test]
async fn an_authenticated_tool_runs_the_same_use_case_with_the_same_rules() {
    let app = spawn_app().await;
    let (_, key) = app.api_key("").await;
    // Bad input is a tool error naming the field, and writes nothing.
    let refused = app.call_tool("submit_listing", json!({"url": "ftp://files.example/"}), Some(&key)).await;
    assert_eq!(refused["isError"], true);
    assert_eq!(refused["structuredContent"]["errors"][0]["field"], "url");
    let drafts = app.call_tool("list_my_drafts", json!({}), Some(&key)).await;
    assert_eq!(drafts["structuredContent"]["total"], 0);
    // A draft made through MCP is the caller's, visible through REST.
    let made = app.call_tool("submit_listing", json!({"url": "https://mcp.example/"}), Some(&key)).await;
    assert_eq!(made["isError"], false, "{made:#}");
    let id = made["structuredContent"]["id"].as_str().unwrap();
    let rest = app.get_with_token(&format!("/api/v1/drafts/{id}"), &key).await;
    assert_eq!(rest.status, 200);
    // Idempotency: the same key and arguments replay the first answer; no second draft.
    let arguments = json!({"url": "https://replayed.example/", "idempotency_key": "mcp-key-1"});
    let first = app.call_tool("submit_listing", arguments.clone(), Some(&key)).await;
    let second = app.call_tool("submit_listing", arguments, Some(&key)).await;
    assert_eq!(first["structuredContent"]["id"], second["structuredContent"]["id"]);
    let mismatch =
        app.call_tool("submit_listing", json!({"url": "https://other.example/", "idempotency_key": "mcp-key-1"}), Some(&key)).await;
    assert_eq!(mismatch["structuredContent"]["code"], "idempotency_key_mismatch");
    let drafts = app.call_tool("list_my_drafts", json!({}), Some(&key)).await;
    assert_eq!(drafts["structuredContent"]["total"], 2, "one draft from submit_listing above, one from the replayed key");
    // A read-only tool has no such argument.
    let unknown = app.call_tool("list_my_drafts", json!({"idempotency_key": "k"}), Some(&key)).await;
    assert_eq!(unknown["structuredContent"]["errors"][0]["field"], "idempotency_key");
    // Someone else's draft is not found, as on REST.
    let (_, other) = app.api_key("").await;
    let hidden = app.call_tool("get_draft", json!({"id": id}), Some(&other)).await;
    assert_eq!(hidden["structuredContent"]["status"], 404);
}

#[tokio::test]
async fn hosts_and_origins_are_checked() {
    let app = spawn_app().await;
    let request = |host: &str, origin: Option<&str>| {
        let mut request = app
            .client
            .post(app.url("/mcp"))
            .header("Host", host)
            .header("Content-Type", "application/json")
            .header("Accept", "application/json, text/event-stream")
            .header("MCP-Protocol-Version", MODERN)
            .header("Mcp-Method", "server/discover")
            .json(&json!({"jsonrpc": "2.0", "id": 1, "method": "server/discover", "params": {"_meta": meta()}}));
        if let Some(origin) = origin {
            request = request.header("Origin", origin);
        }
        request.send()
    };
    assert_eq!(request("launch.example", None).await.unwrap().status(), 200);
    assert_eq!(request("evil.example", None).await.unwrap().status(), 403);
    assert_eq!(request("launch.example", Some("https://launch.example")).await.unwrap().status(), 200);
    assert_eq!(request("launch.example", Some("https://evil.example")).await.unwrap().status(), 403);
}
