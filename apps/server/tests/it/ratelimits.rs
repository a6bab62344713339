//! Rate limits as a caller meets them: each class's quota, the `RateLimit` headers on every kind
//! of answer, 429 with `Retry-After` over REST, MCP, the pages and OAuth, the trusted-proxy rule;
//! and the tool server's authentication of every request and its session cap.

use crate::helpers::{Reply, TestApp, spawn_app_with};
use launchdir_server::settings::Settings;
use serde_json::{Value, json};

/// Small quotas, and 127.0.0.1 (the test client) as a trusted proxy, so each test speaks as
/// clients of its own through `X-Forwarded-For`.
fn small_quotas(settings: &mut Settings) {
    let limits = &mut settings.rate_limits;
    limits.read = "4/minute".into();
    limits.read_anonymous = "3/minute".into();
    limits.write = "2/minute".into();
    limits.submit_listing = "1/hour".into();
    limits.oauth_register = "1/hour".into();
    limits.sign_in = "2/minute".into();
    limits.mcp_initialize = "1/minute".into();
    settings.trusted_proxies = vec!["127.0.0.1".into()];
}

impl TestApp {
    /// A request from `client` (through the trusted proxy, the test itself).
    fn as_client(&self, client: &str, method: reqwest::Method, path: &str) -> reqwest::RequestBuilder {
        self.client.request(method, self.url(path)).header("X-Forwarded-For", client)
    }

    async fn get_from(&self, client: &str, path: &str) -> Reply {
        self.send(self.as_client(client, reqwest::Method::GET, path)).await
    }
}

/// The two headers, as sent.
fn headers(reply: &Reply) -> (String, String) {
    let header = |name| reply.header(name).unwrap_or_else(|| panic!("{name} on a {} answer", reply.status)).to_owned();
    (header("ratelimit-policy"), header("ratelimit"))
}

/// `Retry-After` in seconds; the wait counts from the first request, so a slow machine may
/// see a second or two less than the quota's interval.
fn retry_after(reply: &Reply) -> u32 {
    reply.header("retry-after").expect("Retry-After").parse().unwrap()
}

fn assert_limited(reply: &Reply, policy: &str) {
    reply.assert_problem(429, "rate_limited");
    let wait: u32 = reply.header("retry-after").expect("Retry-After on a 429").parse().unwrap();
    assert!(wait >= 1);
    let (_, left) = headers(reply);
    assert!(left.starts_with(&format!("\"{policy}\";r=0;t=")), "{left}");
}

#[tokio::test]
async fn anonymous_reads_are_counted_per_client_with_the_headers_on_every_answer() {
    let app = spawn_app_with(small_quotas).await;
    let client = "203.0.113.1";
    let ok = app.get_from(client, "/api/v1/site").await;
    assert_eq!(ok.status, 200);
    assert_eq!(headers(&ok), ("\"read_anonymous\";q=3;w=60".into(), "\"read_anonymous\";r=2;t=20".into()));
    let not_found = app.get_from(client, "/api/v1/listings/no-such-listing").await;
    not_found.assert_problem(404, "not_found");
    assert_eq!(headers(&not_found).1, "\"read_anonymous\";r=1;t=40");
    let invalid = app.get_from(client, "/api/v1/launches?section=hot").await;
    invalid.assert_invalid(&["section"]);
    assert_eq!(headers(&invalid).1, "\"read_anonymous\";r=0;t=60");
    let limited = app.get_from(client, "/api/v1/site").await;
    assert_limited(&limited, "read_anonymous");
    assert!((18..=20).contains(&retry_after(&limited)), "one read comes back every 20 seconds");
    // The MCP tool of the same operation shares the budget: HTTP 429, same headers.
    let rpc = json!({"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": {"name": "get_site_info", "arguments": {},
        "_meta": {"io.modelcontextprotocol/protocolVersion": "2026-07-28", "io.modelcontextprotocol/clientCapabilities": {}}}});
    let over_mcp = app.send(mcp_post(&app, client, &rpc).header("Mcp-Method", "tools/call").header("Mcp-Name", "get_site_info")).await;
    assert_limited(&over_mcp, "read_anonymous");
    // Another client has its own budget.
    assert_eq!(app.get_from("203.0.113.2", "/api/v1/site").await.status, 200);
    // The OpenAPI document is a read too.
    assert_limited(&app.get_from(client, "/api/v1/openapi.json").await, "read_anonymous");
}

#[tokio::test]
async fn signed_in_reads_and_writes_are_counted_per_principal_and_a_bad_token_per_client() {
    let app = spawn_app_with(small_quotas).await;
    let (_, key) = app.api_key("").await;
    let signed_in = |client: &'static str, method: reqwest::Method, path: &str| app.as_client(client, method, path).bearer_auth(&key);
    for (n, client) in ["198.51.100.1", "198.51.100.2", "198.51.100.3", "198.51.100.4"].into_iter().enumerate() {
        let reply = app.send(signed_in(client, reqwest::Method::GET, "/api/v1/me")).await;
        assert_eq!(reply.status, 200);
        assert_eq!(headers(&reply).0, "\"read\";q=4;w=60");
        assert!(headers(&reply).1.starts_with(&format!("\"read\";r={};", 3 - n)), "{:?}", headers(&reply));
    }
    // The principal's budget follows it from address to address.
    assert_limited(&app.send(signed_in("198.51.100.9", reqwest::Method::GET, "/api/v1/me")).await, "read");
    // Writes have a budget of their own: two a minute. A 404 counts.
    let draft = "/api/v1/drafts/00000000-0000-4000-8000-000000000000";
    for _ in 0..2 {
        let reply = app.send(signed_in("198.51.100.1", reqwest::Method::PATCH, draft).json(&json!({}))).await;
        reply.assert_problem(404, "not_found");
        assert_eq!(headers(&reply).0, "\"write\";q=2;w=60");
    }
    assert_limited(&app.send(signed_in("198.51.100.1", reqwest::Method::PATCH, draft).json(&json!({}))).await, "write");
    // submit_listing: one an hour; a 400 counts.
    let submit = app.send(signed_in("198.51.100.1", reqwest::Method::POST, "/api/v1/drafts").json(&json!({"url": "nope"}))).await;
    submit.assert_invalid(&["url"]);
    assert_eq!(headers(&submit), ("\"submit_listing\";q=1;w=3600".into(), "\"submit_listing\";r=0;t=3600".into()));
    let again =
        app.send(signed_in("198.51.100.1", reqwest::Method::POST, "/api/v1/drafts").json(&json!({"url": "https://a.example"}))).await;
    assert_limited(&again, "submit_listing");
    assert!((3598..=3600).contains(&retry_after(&again)));
    // A token that is not valid is a 401 with the headers, counted against the client address.
    let bad = app.send(app.as_client("192.0.2.7", reqwest::Method::GET, "/api/v1/me").bearer_auth("ldk_not-a-real-key")).await;
    bad.assert_problem(401, "unauthorized");
    assert_eq!(headers(&bad), ("\"read_anonymous\";q=3;w=60".into(), "\"read_anonymous\";r=2;t=20".into()));
}

fn mcp_post(app: &TestApp, client: &str, body: &Value) -> reqwest::RequestBuilder {
    app.as_client(client, reqwest::Method::POST, "/mcp")
        .header("Content-Type", "application/json")
        .header("Accept", "application/json, text/event-stream")
        .json(body)
}

fn initialize() -> Value {
    json!({"jsonrpc": "2.0", "id": 1, "method": "initialize",
           "params": {"protocolVersion": "2025-11-25", "capabilities": {}, "clientInfo": {"name": "test", "version": "1"}}})
}

#[tokio::test]
async fn the_pages_oauth_registration_and_mcp_initialize_have_their_budgets() {
    let app = spawn_app_with(small_quotas).await;
    let client = "203.0.113.50";
    // Sign-in attempts: two a minute, then a page that says to wait.
    let sign_in = |path: &'static str| {
        app.as_client(client, reqwest::Method::POST, path)
            .header("Content-Type", "application/x-www-form-urlencoded")
            .body("email=a%40example.com&password=x")
            .send()
    };
    for _ in 0..2 {
        let response = sign_in("/signin").await.unwrap();
        assert_ne!(response.status(), 429);
        assert_eq!(response.headers()["ratelimit-policy"], "\"sign_in\";q=2;w=60");
    }
    // Spelling the address differently is the same page, and the same budget.
    let refused = sign_in("/sign%69n").await.unwrap();
    assert_eq!(refused.status(), 429);
    let wait: u32 = refused.headers()["retry-after"].to_str().unwrap().parse().unwrap();
    assert!((25..=30).contains(&wait), "{wait}");
    assert!(refused.headers()["content-type"].to_str().unwrap().starts_with("text/html"));
    assert!(refused.text().await.unwrap().contains(&format!("Please wait {wait} seconds")));
    // The sign-in page itself is a read, with the read budget.
    let page = app.as_client(client, reqwest::Method::GET, "/signin").send().await.unwrap();
    assert_eq!(page.status(), 200);
    assert_eq!(page.headers()["ratelimit-policy"], "\"read_anonymous\";q=3;w=60");

    // Client registrations: one an hour per address, then problem+json.
    let registration = json!({"redirect_uris": ["http://127.0.0.1:9/callback"], "client_name": "Test"});
    let first = app.send(app.as_client(client, reqwest::Method::POST, "/oauth/register").json(&registration)).await;
    assert_eq!(first.status, 201, "{:#}", first.body);
    assert_eq!(headers(&first).0, "\"oauth_register\";q=1;w=3600");
    assert_limited(&app.send(app.as_client(client, reqwest::Method::POST, "/oauth/register").json(&registration)).await, "oauth_register");

    // MCP initialize: one a minute per address; tools/list is a read.
    // (The handshake answers as an event stream, so it is read as text.)
    let opened = mcp_post(&app, client, &initialize()).send().await.unwrap();
    assert_eq!(opened.status(), 200);
    assert_eq!(opened.headers()["ratelimit-policy"], "\"mcp_initialize\";q=1;w=60");
    assert_limited(&app.send(mcp_post(&app, client, &initialize())).await, "mcp_initialize");
}

#[tokio::test]
async fn forwarded_for_is_believed_only_from_trusted_proxies() {
    // No trusted proxy: `X-Forwarded-For` is the client's to write, so it is ignored.
    let app = spawn_app_with(|settings| settings.rate_limits.read_anonymous = "2/minute".into()).await;
    assert_eq!(app.get_from("198.51.100.1", "/api/v1/site").await.status, 200);
    assert_eq!(app.get_from("198.51.100.2", "/api/v1/site").await.status, 200);
    assert_limited(&app.get_from("198.51.100.3", "/api/v1/site").await, "read_anonymous");

    // Behind a trusted proxy, the right-most address it did not add is the client; what the
    // client wrote further left does not give it a new budget.
    let app = spawn_app_with(|settings| {
        settings.rate_limits.read_anonymous = "2/minute".into();
        settings.trusted_proxies = vec!["127.0.0.0/8".into(), "10.0.0.0/8".into()];
    })
    .await;
    for spoofed in ["6.6.6.1", "6.6.6.2"] {
        let reply = app.get_from(&format!("{spoofed}, 198.51.100.1, 10.0.0.5"), "/api/v1/site").await;
        assert_eq!(reply.status, 200);
    }
    assert_limited(&app.get_from("6.6.6.3, 198.51.100.1", "/api/v1/site").await, "read_anonymous");
    assert_eq!(app.get_from("198.51.100.2", "/api/v1/site").await.status, 200);
}

#[tokio::test]
async fn a_bad_token_is_401_on_every_mcp_request_initialize_included() {
    let app = spawn_app_with(|_| {}).await;
    let metadata_url = "https://launch.example/.well-known/oauth-protected-resource/mcp";
    let modern = json!({"io.modelcontextprotocol/protocolVersion": "2026-07-28", "io.modelcontextprotocol/clientCapabilities": {}});
    let requests = [
        ("initialize", initialize()),
        ("tools/list", json!({"jsonrpc": "2.0", "id": 2, "method": "tools/list", "params": {"_meta": modern}})),
        ("server/discover", json!({"jsonrpc": "2.0", "id": 3, "method": "server/discover", "params": {"_meta": modern}})),
        (
            "tools/call",
            json!({"jsonrpc": "2.0", "id": 4, "method": "tools/call", "params": {"name": "get_site_info", "arguments": {}, "_meta": modern}}),
        ),
    ];
    for (method, body) in requests {
        let mut request = mcp_post(&app, "203.0.113.9", &body).bearer_auth("lda_expired-or-made-up");
        if method != "initialize" {
            request = request.header("MCP-Protocol-Version", "2026-07-28").header("Mcp-Method", method);
        }
        if method == "tools/call" {
            request = request.header("Mcp-Name", "get_site_info");
        }
        let reply = app.send(request).await;
        reply.assert_problem(401, "unauthorized");
        let challenge = reply.header("www-authenticate").unwrap();
        assert!(challenge.contains("error=\"invalid_token\""), "{method}: {challenge}");
        assert!(challenge.contains(&format!("resource_metadata=\"{metadata_url}\"")), "{method}: {challenge}");
        assert!(reply.header("ratelimit").is_some(), "{method}: a 401 carries the headers too");
    }
    // The stream and the end of a session are authenticated as well.
    let get = app.send(app.client.get(app.url("/mcp")).bearer_auth("lda_expired-or-made-up").header("Accept", "text/event-stream")).await;
    get.assert_problem(401, "unauthorized");
    // Without a token, initialize still works.
    assert_eq!(mcp_post(&app, "203.0.113.9", &initialize()).send().await.unwrap().status(), 200);
}

#[tokio::test]
async fn legacy_sessions_are_capped_and_idle_ones_end() {
    let app = spawn_app_with(|settings| {
        // A cap of 2 gives each client network a share of 1.
        settings.mcp.max_sessions = 2;
        settings.mcp.session_idle_seconds = 3;
        settings.rate_limits.mcp_initialize = "100/minute".into();
        settings.trusted_proxies = vec!["127.0.0.1".into()];
    })
    .await;
    let open = |client: &'static str| {
        let request = mcp_post(&app, client, &initialize());
        async move {
            let response = request.send().await.unwrap();
            let session = response.headers().get("mcp-session-id").map(|v| v.to_str().unwrap().to_owned());
            (response.status().as_u16(), response.headers().get("retry-after").map(|v| v.to_str().unwrap().to_owned()), session)
        }
    };
    let (first, _, session) = open("203.0.113.1").await;
    assert_eq!(first, 200);
    let session = session.expect("a legacy session");
    // One client network holds at most its share, so it cannot take every place.
    let (refused, retry_after, _) = open("203.0.113.1").await;
    assert_eq!((refused, retry_after.as_deref()), (429, Some("30")), "a client's second session is over its share");
    assert_eq!(open("2001:db8:1:1::1").await.0, 200);
    let (refused, retry_after, _) = open("203.0.113.3").await;
    assert_eq!((refused, retry_after.as_deref()), (503, Some("30")), "a third session is refused while two are open");
    // Ending a session frees its place, and its network's share.
    let ended = app
        .client
        .delete(app.url("/mcp"))
        .header("Mcp-Session-Id", &session)
        .header("MCP-Protocol-Version", "2025-11-25")
        .send()
        .await
        .unwrap();
    assert!(ended.status().is_success(), "{}", ended.status());
    assert_eq!(open("2001:db8:1:1::2").await.0, 429, "an IPv6 /64 is one network, whose share is taken");
    assert_eq!(open("203.0.113.1").await.0, 200);
    assert_eq!(open("203.0.113.4").await.0, 503);
    // Idle sessions end after `session_idle_seconds`, and their places with them.
    let mut reopened = false;
    for _ in 0..100 {
        tokio::time::sleep(std::time::Duration::from_millis(200)).await;
        if open("203.0.113.5").await.0 == 200 {
            reopened = true;
            break;
        }
    }
    assert!(reopened, "idle sessions ended within 20 s");
}

/// A Redis of the test's own (the machine's `redis-server`), so it can be stopped mid-test.
struct PrivateRedis {
    child: std::process::Child,
    url: String,
}

impl PrivateRedis {
    fn start() -> Self {
        let port = free_port();
        let child = std::process::Command::new("redis-server")
            .args(["--port", &port.to_string(), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no"])
            .stdout(std::process::Stdio::null())
            .spawn()
            .expect("redis-server is installed (.ci/run installs it)");
        wait_for(|| std::net::TcpStream::connect(("127.0.0.1", port)).is_ok(), "redis-server to listen");
        Self { child, url: format!("redis://127.0.0.1:{port}") }
    }

    fn stop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

impl Drop for PrivateRedis {
    fn drop(&mut self) {
        self.stop();
    }
}

fn free_port() -> u16 {
    std::net::TcpListener::bind("127.0.0.1:0").unwrap().local_addr().unwrap().port()
}

fn wait_for(mut ready: impl FnMut() -> bool, what: &str) {
    for _ in 0..200 {
        if ready() {
            return;
        }
        std::thread::sleep(std::time::Duration::from_millis(50));
    }
    panic!("waited 10 s for {what}");
}

/// `launchdir serve` on the test database and `redis`, anonymous reads limited to 10 an hour
/// (so nothing comes back during the test); JSON logs to a pipe.
fn serve_with_redis(test: &store_seaorm::testing::TestDatabase, redis: &str) -> (std::process::Child, String) {
    let settings = crate::helpers::settings_for(&test.config);
    let port = free_port();
    let mut command = std::process::Command::new(env!("CARGO_BIN_EXE_launchdir"));
    command
        .env("LAUNCHDIR_DATABASE_URL", settings.database_url.unwrap())
        .env("LAUNCHDIR_BIND", format!("127.0.0.1:{port}"))
        .env("LAUNCHDIR_LOG_FORMAT", "json")
        .env("LAUNCHDIR_LOG_LEVEL", "warn")
        .env("LAUNCHDIR_DEMO_DATA", "false")
        .env("LAUNCHDIR_JOB_WORKERS", "0")
        .env("LAUNCHDIR_REDIS_URL", redis)
        .env("LAUNCHDIR_DATA_DIR", crate::helpers::own_data_dir())
        .env("LAUNCHDIR_RATE_LIMITS_READ_ANONYMOUS", "10/hour")
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::piped());
    if let Some(schema) = settings.database_schema {
        command.env("LAUNCHDIR_DATABASE_SCHEMA", schema);
    }
    let child = command.spawn().expect("start launchdir serve");
    let address = format!("http://127.0.0.1:{port}");
    wait_for(|| std::net::TcpStream::connect(("127.0.0.1", port)).is_ok(), "launchdir serve to listen");
    (child, address)
}

#[tokio::test]
async fn two_servers_share_one_quota_in_redis_and_keep_answering_without_it() {
    let test = store_seaorm::testing::TestDatabase::new().await;
    if test.backend_name() != "postgres" {
        // Several servers on one database is the PostgreSQL deployment; this runs in the
        // PostgreSQL pass of `cargo xtask test`.
        return;
    }
    let mut redis = PrivateRedis::start();
    let servers = [serve_with_redis(&test, &redis.url), serve_with_redis(&test, &redis.url)];
    let client = crate::helpers::client();
    // Each server's first request to Redis connects; make sure that is done (a token request
    // counts against `write`, not against the reads below).
    for (_, address) in &servers {
        client.post(format!("{address}/oauth/token")).send().await.unwrap();
    }
    let mut accepted = [0, 0];
    for n in 0..30 {
        let (_, address) = &servers[n % 2];
        let status = client.get(format!("{address}/api/v1/site")).send().await.unwrap().status().as_u16();
        match status {
            200 => accepted[n % 2] += 1,
            429 => {}
            other => panic!("answered {other}"),
        }
    }
    assert_eq!(accepted[0] + accepted[1], 10, "together the two servers accepted the quota once: {accepted:?}");
    assert!(accepted[0] > 0 && accepted[1] > 0, "both servers counted in the same place: {accepted:?}");

    // Redis goes away: both servers keep answering, each counting on its own.
    redis.stop();
    let mut answered = [Vec::new(), Vec::new()];
    for n in 0..30 {
        let (_, address) = &servers[n % 2];
        let status = client.get(format!("{address}/api/v1/site")).send().await.unwrap().status().as_u16();
        answered[n % 2].push(status);
    }
    for statuses in &answered {
        assert!(statuses.iter().all(|status| *status == 200 || *status == 429), "{statuses:?}");
        assert!(statuses.contains(&200), "a server without Redis still serves: {statuses:?}");
    }
    for (mut server, _) in servers {
        std::process::Command::new("kill").args(["-TERM", &server.id().to_string()]).status().unwrap();
        let mut logs = String::new();
        std::io::Read::read_to_string(server.stderr.as_mut().unwrap(), &mut logs).unwrap();
        server.wait().unwrap();
        let outages = logs.lines().filter(|line| line.contains("Redis does not answer")).count();
        assert_eq!(outages, 1, "the outage is logged once, not per request:\n{logs}");
    }
}
