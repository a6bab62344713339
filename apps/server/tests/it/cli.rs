//! The `launchdir` binary: account commands, and `serve` from a clean data directory to a
//! graceful stop on SIGTERM.

use crate::helpers::settings_for;
use std::io::{BufRead, BufReader};
use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};
use store_seaorm::testing::TestDatabase;

fn launchdir(test: &TestDatabase, args: &[&str]) -> Output {
    let settings = settings_for(&test.config);
    let mut command = Command::new(env!("CARGO_BIN_EXE_launchdir"));
    command.args(args).env("LAUNCHDIR_DATABASE_URL", settings.database_url.unwrap()).env("LAUNCHDIR_LOG_LEVEL", "warn");
    if let Some(schema) = settings.database_schema {
        command.env("LAUNCHDIR_DATABASE_SCHEMA", schema);
    }
    command.output().expect("run launchdir")
}

fn stdout(output: &Output) -> String {
    assert!(output.status.success(), "failed: {}", String::from_utf8_lossy(&output.stderr));
    String::from_utf8(output.stdout.clone()).unwrap()
}

#[tokio::test]
async fn user_and_api_key_commands() {
    let test = TestDatabase::new().await;
    let created = stdout(&launchdir(&test, &["user", "create", "--email", "Ada@Example.com", "--name", "Ada"]));
    assert!(created.contains("ada@example.com"), "{created}");

    let again = launchdir(&test, &["user", "create", "--email", "ada@example.com"]);
    assert!(!again.status.success());
    assert!(String::from_utf8_lossy(&again.stderr).contains("exists already"));

    let bad = launchdir(&test, &["user", "create", "--email", "not-an-email"]);
    assert!(!bad.status.success());
    assert!(String::from_utf8_lossy(&bad.stderr).contains("--email"));

    let out = stdout(&launchdir(
        &test,
        &["api-key", "create", "--email", "ada@example.com", "--scopes", "account:read,orders:write", "--name", "laptop"],
    ));
    let key = out.lines().last().unwrap().trim().to_owned();
    assert!(key.starts_with("ldk_") && key.len() == 47, "the key is the last line: {out}");

    let bad_scope = launchdir(&test, &["api-key", "create", "--email", "ada@example.com", "--scopes", "account:read,admin"]);
    assert!(!bad_scope.status.success());
    assert!(String::from_utf8_lossy(&bad_scope.stderr).contains("admin"));
    let unknown_user = launchdir(&test, &["api-key", "create", "--email", "nobody@example.com"]);
    assert!(!unknown_user.status.success());

    let default_scopes = stdout(&launchdir(&test, &["api-key", "create", "--email", "ada@example.com"]));
    assert!(default_scopes.contains("account:read listings:write orders:write"), "{default_scopes}");

    let listed = stdout(&launchdir(&test, &["api-key", "list", "--email", "ada@example.com"]));
    assert_eq!(listed.lines().count(), 2, "{listed}");
    assert!(listed.contains("laptop") && listed.contains(&key[..12]));
    assert!(!listed.contains(&key[12..]), "the secret is never shown again");

    // The key works against the server, then stops working once revoked.
    let app_settings = settings_for(&test.config);
    let app = launchdir_server::Application::build(app_settings).await.unwrap();
    let base = format!("http://127.0.0.1:{}", app.port());
    tokio::spawn(app.run_until_stopped());
    let client = crate::helpers::client();
    let me = client.get(format!("{base}/api/v1/me")).bearer_auth(&key).send().await.unwrap();
    assert_eq!(me.status(), 200);

    let id = listed.lines().find(|line| line.contains("laptop")).unwrap().split('\t').next().unwrap().to_owned();
    let revoked = stdout(&launchdir(&test, &["api-key", "revoke", &id]));
    assert!(revoked.contains("revoked"));
    let listed = stdout(&launchdir(&test, &["api-key", "list", "--email", "ada@example.com"]));
    assert!(listed.lines().any(|line| line.contains("laptop") && line.contains("revoked")));
    let me = client.get(format!("{base}/api/v1/me")).bearer_auth(&key).send().await.unwrap();
    assert_eq!(me.status(), 401);
    assert!(!launchdir(&test, &["api-key", "revoke", "999999"]).status.success());

    // Only the hash is stored.
    let db = &test.db;
    use sea_orm::ConnectionTrait;
    let rows = db
        .query_all_raw(sea_orm::Statement::from_string(db.get_database_backend(), "SELECT token_hash, prefix FROM api_keys"))
        .await
        .unwrap();
    for row in rows {
        let hash: String = row.try_get_by_index(0).unwrap();
        assert_eq!(hash.len(), 64);
        assert_ne!(hash, key);
    }
    assert_eq!(accounts::hash_token(&key).len(), 64);
}

#[tokio::test]
async fn serve_from_a_clean_data_dir_then_stop_on_sigterm() {
    if std::env::var(store_seaorm::testing::TEST_DATABASE_ENV).is_ok_and(|url| url.starts_with("postgres")) {
        return; // The embedded default is SQLite; this test runs in the SQLite pass.
    }
    let data_dir = std::env::temp_dir().join(format!("launchdir-serve-{}-{}", std::process::id(), line!()));
    let _ = std::fs::remove_dir_all(&data_dir);
    let mut child = Command::new(env!("CARGO_BIN_EXE_launchdir"))
        .env("LAUNCHDIR_DATA_DIR", &data_dir)
        .env("LAUNCHDIR_BIND", "127.0.0.1:0")
        .env("LAUNCHDIR_LOG_LEVEL", "warn")
        .env_remove("LAUNCHDIR_DATABASE_URL")
        .stdout(Stdio::piped())
        .stderr(Stdio::inherit())
        .spawn()
        .unwrap();
    let mut line = String::new();
    BufReader::new(child.stdout.take().unwrap()).read_line(&mut line).unwrap();
    // "Launchdir is serving on http://127.0.0.1:PORT  (...)"
    let address = line.split_whitespace().find(|word| word.starts_with("http://127.0.0.1:")).expect("the address is printed").to_owned();
    let client = crate::helpers::client();
    let site = client.get(format!("{address}/api/v1/site")).send().await.unwrap().json::<serde_json::Value>().await.unwrap();
    assert!(site["counts"]["live_listings"].as_u64().unwrap() >= 200, "the demo directory was seeded on first start");
    assert!(data_dir.join("launchdir.db").exists(), "the embedded database lives in the data directory");

    let status = Command::new("kill").args(["-TERM", &child.id().to_string()]).status().unwrap();
    assert!(status.success());
    let started = Instant::now();
    let exit = loop {
        if let Some(exit) = child.try_wait().unwrap() {
            break exit;
        }
        assert!(started.elapsed() < Duration::from_secs(30), "the server must stop after SIGTERM");
        tokio::time::sleep(Duration::from_millis(50)).await;
    };
    assert!(exit.success(), "a graceful stop exits 0: {exit:?}");
    std::fs::remove_dir_all(&data_dir).ok();
}

#[tokio::test]
async fn json_logs_carry_the_request_id() {
    let test = TestDatabase::new().await;
    let settings = settings_for(&test.config);
    let mut command = Command::new(env!("CARGO_BIN_EXE_launchdir"));
    command
        .env("LAUNCHDIR_DATABASE_URL", settings.database_url.unwrap())
        .env("LAUNCHDIR_DATA_DIR", crate::helpers::own_data_dir())
        .env("LAUNCHDIR_BIND", "127.0.0.1:0")
        .env("LAUNCHDIR_LOG_FORMAT", "json")
        .env("LAUNCHDIR_LOG_LEVEL", "info")
        .env("LAUNCHDIR_AUTO_MIGRATE", "true")
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    if let Some(schema) = settings.database_schema {
        command.env("LAUNCHDIR_DATABASE_SCHEMA", schema);
    }
    let mut child = command.spawn().unwrap();
    let mut line = String::new();
    BufReader::new(child.stdout.take().unwrap()).read_line(&mut line).unwrap();
    let address = line.split_whitespace().find(|word| word.starts_with("http://127.0.0.1:")).expect("the address is printed").to_owned();
    let reply = crate::helpers::client().get(format!("{address}/api/v1/site")).header("x-request-id", "log-check-42").send().await.unwrap();
    assert_eq!(reply.status(), 200);
    Command::new("kill").args(["-TERM", &child.id().to_string()]).status().unwrap();
    let output = child.wait_with_output().unwrap();
    let logs = String::from_utf8_lossy(&output.stderr);
    let request_line = logs
        .lines()
        .filter_map(|line| serde_json::from_str::<serde_json::Value>(line).ok())
        .find(|entry| entry["span"]["request_id"] == "log-check-42")
        .unwrap_or_else(|| panic!("no JSON log line with the request id in:\n{logs}"));
    assert_eq!(request_line["status"], 200);
    assert_eq!(request_line["span"]["path"], "/api/v1/site");
    assert!(
        logs.lines().all(|line| line.trim().is_empty() || serde_json::from_str::<serde_json::Value>(line).is_ok()),
        "every line is JSON"
    );
}

#[tokio::test]
async fn seed_demo_is_idempotent_from_the_command_line() {
    let test = TestDatabase::new().await;
    let first = stdout(&launchdir(&test, &["seed", "--demo"]));
    assert!(first.starts_with("seeded"), "{first}");
    let second = stdout(&launchdir(&test, &["seed", "--demo"]));
    assert!(second.contains("nothing to add"), "{second}");
    let refused = launchdir(&test, &["seed"]);
    assert!(!refused.status.success(), "seed needs --demo");
}

#[tokio::test]
async fn migrate_command() {
    let test = TestDatabase::new().await;
    let out = stdout(&launchdir(&test, &["migrate"]));
    assert!(out.contains("up to date"));
}

#[tokio::test]
async fn outbox_list_shows_the_emails_the_default_mailer_stored() {
    let test = TestDatabase::new().await;
    assert!(stdout(&launchdir(&test, &["outbox", "list"])).contains("the outbox is empty"));
    let store = store_seaorm::SeaStore::new(test.db.clone());
    let mailer = store_seaorm::OutboxMailer::new(store, std::sync::Arc::new(kernel::SystemClock));
    kernel::Mailer::send(
        &mailer,
        kernel::OutgoingEmail {
            to: kernel::Email::parse("grace@example.com").unwrap(),
            subject: "Welcome aboard".into(),
            body: "Hello Grace".into(),
            kind: "draft_invite".into(),
        },
    )
    .await
    .unwrap();
    let listed = stdout(&launchdir(&test, &["outbox", "list", "--limit", "5"]));
    assert!(listed.contains("grace@example.com") && listed.contains("Welcome aboard") && listed.contains("Hello Grace"), "{listed}");
    assert!(listed.contains("[draft_invite]"), "{listed}");
}

#[tokio::test]
async fn the_site_team_reviews_owner_edits_with_before_and_after_copies() {
    let test = TestDatabase::new().await;
    let settings = settings_for(&test.config);
    let db = launchdir_server::open_database(&settings).await.unwrap();
    let services = launchdir_server::Services::build(&settings, db.clone(), std::sync::Arc::new(kernel::SystemClock)).unwrap();
    let now = time::OffsetDateTime::now_utc();
    let owner = store_seaorm::testing::fixtures::user(&db, "owner@example.com").await;
    let listing = store_seaorm::testing::fixtures::listing(&db, "reviewed", "live", kernel::Week::at(now, time::UtcOffset::UTC), now).await;
    store_seaorm::testing::fixtures::set_owner(&db, listing, owner).await;
    assert_eq!(stdout(&launchdir(&test, &["edits", "list"])).trim(), "no edits yet");
    let edit = listings::ListingEdit {
        fields: vec![(listings::EditableField::Tagline, listings::EditValue::Text(Some("Reviewed & approved".into())))],
        ..Default::default()
    };
    let (_, version) =
        services.app.listings.owners.update(kernel::UserId::new(owner), kernel::ListingId::new(listing), &edit).await.unwrap();
    let id = version.unwrap().id.to_string();

    let list = stdout(&launchdir(&test, &["edits", "list", "--listing", &listing.to_string()]));
    assert!(list.contains(&format!("#{id}")) && list.contains("owner@example.com") && list.contains("changed: tagline"), "{list}");
    let shown = stdout(&launchdir(&test, &["edits", "show", &id]));
    assert!(shown.contains("tagline\n  before: null\n  after:  \"Reviewed & approved\""), "{shown}");
    let missing = launchdir(&test, &["edits", "show", "999999"]);
    assert!(!missing.status.success());
    assert!(String::from_utf8_lossy(&missing.stderr).contains("no edit #999999"));
}

#[tokio::test]
async fn an_account_the_site_team_makes_is_confirmed_and_keys_need_a_confirmed_address() {
    use sea_orm::ConnectionTrait;
    let test = TestDatabase::new().await;
    stdout(&launchdir(&test, &["user", "create", "--email", "team@example.com"]));
    let db = &test.db;
    let confirmed = "SELECT COUNT(*) FROM users WHERE email = 'team@example.com' AND email_confirmed_at IS NOT NULL";
    let row = db.query_one_raw(sea_orm::Statement::from_string(db.get_database_backend(), confirmed)).await.unwrap().unwrap();
    assert_eq!(row.try_get_by_index::<i64>(0).unwrap(), 1, "the site team vouches for the address");
    assert!(stdout(&launchdir(&test, &["api-key", "create", "--email", "team@example.com"])).contains("created API key"));

    // An address nobody confirmed (as after a sign-up) gets no key, from the command line either.
    db.execute_unprepared("UPDATE users SET email_confirmed_at = NULL WHERE email = 'team@example.com'").await.unwrap();
    let refused = launchdir(&test, &["api-key", "create", "--email", "team@example.com"]);
    assert!(!refused.status.success());
    let said = String::from_utf8_lossy(&refused.stderr);
    assert!(said.contains("confirm the account's e-mail address first"), "{said}");
}

/// `launchdir openapi` prints, without settings or a database, the document `docs/openapi.json`
/// holds (CI checks the file with it).
#[test]
fn openapi_prints_the_checked_in_document_without_a_database() {
    let output = Command::new(env!("CARGO_BIN_EXE_launchdir"))
        .arg("openapi")
        .env("LAUNCHDIR_DATABASE_URL", "postgres://nobody@127.0.0.1:1/none")
        .output()
        .expect("run launchdir");
    let printed: serde_json::Value = serde_json::from_str(&stdout(&output)).expect("the output is JSON");
    let checked_in: serde_json::Value = serde_json::from_str(include_str!("../../../../docs/openapi.json")).unwrap();
    assert_eq!(printed, checked_in, "docs/openapi.json is out of date: run `cargo xtask openapi`");
    assert_eq!(printed["openapi"], "3.1.0");
}
