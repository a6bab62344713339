//! `spawn_app()` and friends.

use accounts::Scopes;
use kernel::Email;
use launchdir_server::settings::Settings;
use launchdir_server::{Application, Services};
use reqwest::StatusCode;
use reqwest::header::HeaderMap;
use serde_json::Value;
use std::sync::OnceLock;
use std::sync::atomic::{AtomicU32, Ordering};
use store_seaorm::DbConfig;
use store_seaorm::testing::TestDatabase;

/// A data directory of its own for a `launchdir serve` process (each serving process keeps its
/// search index there and refuses one another process holds).
pub fn own_data_dir() -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("launchdir-test-data-{}", uuid::Uuid::new_v4().simple()));
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// The data folder of the servers on `config`'s database (one per database, so the servers on
/// the shared demo directory see the pictures its seeding kept).
fn data_dir_of(config: &DbConfig) -> std::path::PathBuf {
    let name = kernel::secrets::sha256_hex(&format!("{}|{:?}", config.url, config.schema));
    let dir = std::env::temp_dir().join(format!("launchdir-test-media-{}", &name[..16]));
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// How far beyond a promised freshness a wait may go on a loaded machine: tests check which
/// timer a read follows, not how fast the machine is.
pub const FRESHNESS_SLACK: std::time::Duration = std::time::Duration::from_millis(1500);

/// Polls `check` until it holds, failing once `bound` (a promise of docs/api.md, Freshness)
/// and `FRESHNESS_SLACK` have passed.
pub async fn eventually<F, Fut>(bound: std::time::Duration, what: &str, mut check: F)
where
    F: FnMut() -> Fut,
    Fut: std::future::Future<Output = bool>,
{
    let started = std::time::Instant::now();
    loop {
        if check().await {
            return;
        }
        assert!(started.elapsed() < bound + FRESHNESS_SLACK, "{what} did not show within {bound:?} (and {FRESHNESS_SLACK:?} more)");
        tokio::time::sleep(std::time::Duration::from_millis(50)).await;
    }
}

/// `eventually`, with the promise counted from `since` (the write) rather than from the call.
pub async fn eventually_since<F, Fut>(since: std::time::Instant, bound: std::time::Duration, what: &str, check: F)
where
    F: FnMut() -> Fut,
    Fut: std::future::Future<Output = bool>,
{
    eventually(bound.saturating_sub(since.elapsed()), what, check).await;
}

/// The demo directory, seeded once per test binary and shared by tests that only read it
/// (tests that write make their own users, so they do not disturb each other).
pub fn shared_directory() -> &'static DbConfig {
    static SHARED: OnceLock<DbConfig> = OnceLock::new();
    SHARED.get_or_init(|| {
        // Its own thread and runtime: the pool used for seeding must not outlive the runtime
        // of whichever test came first.
        std::thread::spawn(|| {
            let runtime = tokio::runtime::Builder::new_current_thread().enable_all().build().unwrap();
            runtime.block_on(async {
                let test = TestDatabase::new().await;
                store_seaorm::seed::demo(&test.db, time::OffsetDateTime::now_utc()).await.expect("seed the demo directory");
                // Its pictures, in the media folder every server on it shares (`settings_for`).
                let services = Services::build(&settings_for(&test.config), test.db.clone(), std::sync::Arc::new(kernel::SystemClock))
                    .expect("services for the demo's pictures");
                launchdir_server::demo_pictures::add(&services.app.media, &services.store).await.expect("draw the demo's pictures");
                test.db.clone().close().await.ok();
                let config = test.config.clone();
                // Kept for the whole test run; stale copies are removed by later runs.
                std::mem::forget(test);
                config
            })
        })
        .join()
        .unwrap()
    })
}

pub struct TestApp {
    pub address: String,
    pub client: reqwest::Client,
    pub services: Services,
    /// What the server was started with (a second node starts with the same).
    pub settings: Settings,
    _own_database: Option<TestDatabase>,
}

pub fn settings_for(config: &DbConfig) -> Settings {
    Settings {
        database_url: Some(config.url.clone()),
        database_schema: config.schema.clone(),
        database_max_connections: 4,
        // Many servers share one PostgreSQL in the tests (at most 100 connections): each opens
        // its connections as it needs them (`errors.rs` starts one that keeps them open).
        database_min_connections: Some(1),
        bind: "127.0.0.1:0".into(),
        // Kept images go to the database's own folder: every server on one database shares it.
        data_dir: data_dir_of(config),
        site_url: Some("https://launch.example".into()),
        demo_data: Some(false),
        http_workers: Some(1),
        // Tests that need background jobs turn workers on: a worker of another test's server on
        // the shared database would otherwise run their jobs with its own settings.
        job_workers: 0,
        // Many servers run in one test process: each keeps its index in memory (one test keeps
        // it on disk, in a directory of its own).
        search_index_on_disk: false,
        // Tests write through the services and read back at once; the answer cache's own tests
        // and the freshness tests turn it on.
        answer_cache_ms: 0,
        ..Settings::default()
    }
}

async fn start(settings: Settings, own_database: Option<TestDatabase>) -> TestApp {
    let app = Application::build(settings.clone()).await.expect("build the application");
    let address = format!("http://127.0.0.1:{}", app.port());
    // The running server's own services: what a test writes through them, the server's search
    // index and caches see.
    let services = app.services().clone();
    tokio::spawn(app.run_until_stopped());
    TestApp { address, client: client(), services, settings, _own_database: own_database }
}

/// The server on the shared demo directory.
pub async fn spawn_app() -> TestApp {
    start(settings_for(shared_directory()), None).await
}

/// The server on the shared demo directory, with changed settings.
pub async fn spawn_app_with(change: impl FnOnce(&mut Settings)) -> TestApp {
    let mut settings = settings_for(shared_directory());
    change(&mut settings);
    start(settings, None).await
}

/// Another server on `first`'s database, as a second node of a multi-server deployment: its
/// own caches, its own search index and its own background refreshes.
pub async fn spawn_second_node(first: &TestApp) -> TestApp {
    start(first.settings.clone(), None).await
}

/// The server on a database of its own with no data.
pub async fn spawn_empty_app() -> TestApp {
    let test = TestDatabase::new().await;
    let settings = settings_for(&test.config);
    start(settings, Some(test)).await
}

/// The server on a database of its own with no data, with changed settings.
pub async fn spawn_empty_app_with(change: impl FnOnce(&mut Settings)) -> TestApp {
    let test = TestDatabase::new().await;
    let mut settings = settings_for(&test.config);
    change(&mut settings);
    start(settings, Some(test)).await
}

/// A response, read whole.
#[derive(Debug)]
pub struct Reply {
    pub status: StatusCode,
    pub headers: HeaderMap,
    pub body: Value,
}

impl Reply {
    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers.get(name).and_then(|v| v.to_str().ok())
    }

    /// Asserts a problem+json 400 naming exactly these fields.
    pub fn assert_invalid(&self, fields: &[&str]) {
        assert_eq!(self.status, StatusCode::BAD_REQUEST, "{:#}", self.body);
        assert_eq!(self.header("content-type"), Some("application/problem+json"));
        assert_eq!(self.body["code"], "validation_failed");
        let named: Vec<&str> = self.body["errors"].as_array().unwrap().iter().map(|e| e["field"].as_str().unwrap()).collect();
        assert_eq!(named, fields, "{:#}", self.body);
        for error in self.body["errors"].as_array().unwrap() {
            assert!(!error["message"].as_str().unwrap().is_empty());
        }
    }

    pub fn assert_problem(&self, status: u16, code: &str) {
        assert_eq!(self.status.as_u16(), status, "{:#}", self.body);
        assert_eq!(self.header("content-type"), Some("application/problem+json"));
        assert_eq!(self.body["code"], code, "{:#}", self.body);
        assert_eq!(self.body["status"], status);
        assert!(self.body["title"].is_string() && self.body["detail"].is_string() && self.body["type"].is_string());
    }
}

impl TestApp {
    pub async fn send(&self, request: reqwest::RequestBuilder) -> Reply {
        let response = request.send().await.expect("request");
        let status = response.status();
        let headers = response.headers().clone();
        let bytes = response.bytes().await.unwrap();
        let body = if bytes.is_empty() { Value::Null } else { serde_json::from_slice(&bytes).expect("JSON body") };
        Reply { status, headers, body }
    }

    pub fn url(&self, path: &str) -> String {
        format!("{}{path}", self.address)
    }

    pub async fn get(&self, path: &str) -> Reply {
        self.send(self.client.get(self.url(path))).await
    }

    pub async fn get_with_token(&self, path: &str, token: &str) -> Reply {
        self.send(self.client.get(self.url(path)).bearer_auth(token)).await
    }

    /// A new user with an API key carrying `scopes` (empty: all three). Returns the secret.
    pub async fn api_key(&self, scopes: &str) -> (Email, String) {
        static COUNTER: AtomicU32 = AtomicU32::new(0);
        let n = COUNTER.fetch_add(1, Ordering::Relaxed);
        let email = Email::parse(&format!("tester-{}-{n}-{}@example.com", std::process::id(), uuid_like())).unwrap();
        let accounts = &self.services.app.accounts.users;
        accounts.create_user(&email, Some("Tester")).await.unwrap();
        let created = accounts.create_api_key(&email, Some("test key"), Scopes::parse_list(scopes).unwrap()).await.unwrap();
        (email, created.secret.expose().to_owned())
    }

    /// A live listing of this week (`fixtures::listing`) owned by a new account: its API key
    /// (every scope) and the listing's id.
    pub async fn owned_live_listing(&self, slug: &str) -> (String, i64) {
        let (_, key) = self.api_key("").await;
        let me = self.get_with_token("/api/v1/me", &key).await.body["user"]["id"].as_i64().unwrap();
        let db = self.services.store.connection();
        let now = time::OffsetDateTime::now_utc();
        let id = store_seaorm::testing::fixtures::listing(db, slug, "live", kernel::Week::at(now, time::UtcOffset::UTC), now).await;
        store_seaorm::testing::fixtures::set_owner(db, id, me).await;
        (key, id)
    }
}

fn uuid_like() -> String {
    let nanos = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).unwrap().subsec_nanos();
    format!("{nanos:x}")
}

/// The database URL and schema of `app`'s database (for the `launchdir` binary).
pub fn settings_for_app(app: &TestApp) -> (String, Option<String>) {
    let config = match &app._own_database {
        Some(test) => &test.config,
        None => shared_directory(),
    };
    (config.url.clone(), config.schema.clone())
}

/// An HTTP client for tests. reqwest is built without a TLS crypto provider of its own (the
/// server installs `ring` at start-up); a test may build its client before any server exists.
///
/// A connection idle for 2 s is not reused: the server closes one after 5 s (actix's
/// keep-alive), and a test that blocked its thread meanwhile (running the command line) has not
/// yet read that close, so a request sent on it failed as an incomplete message.
pub fn client_builder() -> reqwest::ClientBuilder {
    outbound_http::install_crypto_provider();
    reqwest::Client::builder().pool_idle_timeout(std::time::Duration::from_secs(2))
}

pub fn client() -> reqwest::Client {
    client_builder().build().expect("build the test HTTP client")
}

/// How long `request` takes, in milliseconds, body read (it must succeed): for the measurements.
pub async fn timed(request: reqwest::RequestBuilder) -> f64 {
    let started = std::time::Instant::now();
    let response = request.send().await.unwrap();
    assert!(response.status().is_success(), "{}", response.status());
    response.bytes().await.unwrap();
    started.elapsed().as_secs_f64() * 1000.0
}

/// The tests' database, named for a measurement's output.
pub fn backend_name() -> &'static str {
    if std::env::var(store_seaorm::testing::TEST_DATABASE_ENV).unwrap_or_default().starts_with("postgres") {
        "PostgreSQL"
    } else {
        "SQLite"
    }
}
