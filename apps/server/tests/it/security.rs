//! The findings of the security review, each as a caller meets it: response headers and HEAD,
//! page views that cannot be inflated, sign-in throttled per client, invitation quotas.

use crate::helpers::{spawn_app, spawn_app_with};

#[tokio::test]
async fn every_answer_carries_the_security_headers_and_hsts_only_over_https() {
    let app = spawn_app().await;
    for path in ["/healthz", "/api/v1/site", "/api/v1/listings/no-such-listing", "/signin", "/no/such/page"] {
        let reply = app.client.get(app.url(path)).send().await.unwrap();
        let headers = reply.headers();
        assert_eq!(headers["x-content-type-options"], "nosniff", "{path}");
        assert_eq!(headers["referrer-policy"], "strict-origin-when-cross-origin", "{path}");
        assert_eq!(headers["strict-transport-security"], "max-age=31536000; includeSubDomains", "{path}");
    }
    let plain = spawn_app_with(|settings| settings.site_url = Some("http://launch.example".into())).await;
    let reply = plain.client.get(plain.url("/api/v1/site")).send().await.unwrap();
    assert_eq!(reply.headers()["x-content-type-options"], "nosniff");
    assert!(reply.headers().get("strict-transport-security").is_none(), "no HSTS over plain http");
}

/// The form pages allow no `<base>` and let forms post only to this site.
#[tokio::test]
async fn form_pages_post_only_to_this_site_and_allow_no_base() {
    let app = spawn_app().await;
    for path in ["/signin", "/signup", "/account/reset"] {
        let reply = app.client.get(app.url(path)).send().await.unwrap();
        let policy = reply.headers()["content-security-policy"].to_str().unwrap().to_owned();
        assert!(policy.contains("base-uri 'none'"), "{path}: {policy}");
        assert!(policy.contains("form-action 'self';"), "{path}: {policy}");
        assert!(!policy.contains("http:") && !policy.contains("https:"), "{path}: {policy}");
    }
}

#[tokio::test]
async fn head_answers_like_get_without_a_body() {
    let app = spawn_app().await;
    for path in ["/api/v1/site", "/healthz", "/signin", "/api/v1/openapi.json"] {
        let get = app.client.get(app.url(path)).send().await.unwrap();
        let head = app.client.head(app.url(path)).send().await.unwrap();
        assert_eq!(head.status(), get.status(), "{path}");
        assert_eq!(head.headers()["content-type"], get.headers()["content-type"], "{path}");
        assert!(head.bytes().await.unwrap().is_empty(), "{path}: HEAD has no body");
    }
    let missing = app.client.head(app.url("/api/v1/listings/no-such-listing")).send().await.unwrap();
    assert_eq!(missing.status(), 404);
}

/// A sign-in form post from `client` (the test is the trusted proxy), with a matching CSRF pair.
async fn sign_in_from(app: &crate::helpers::TestApp, client: &str, email: &str, password: &str) -> reqwest::Response {
    let no_redirects = crate::helpers::client_builder().redirect(reqwest::redirect::Policy::none()).build().unwrap();
    no_redirects
        .post(app.url("/signin"))
        .header("X-Forwarded-For", client)
        .header("Cookie", "ld_csrf=pair")
        .header("Content-Type", "application/x-www-form-urlencoded")
        .body(serde_urlencoded::to_string([("csrf", "pair"), ("next", "/"), ("email", email), ("password", password)]).unwrap())
        .send()
        .await
        .unwrap()
}

#[tokio::test]
async fn wrong_passwords_from_one_client_never_lock_the_owner_out_elsewhere() {
    let app = spawn_app_with(|settings| settings.trusted_proxies = vec!["127.0.0.1".into()]).await;
    let email = format!("owner-{}@example.com", uuid::Uuid::new_v4().simple());
    app.services.app.accounts.signin.sign_up(&email, "Owner", "a good long password").await.unwrap();
    for _ in 0..5 {
        assert_eq!(sign_in_from(&app, "203.0.113.66", &email, "a wrong guess").await.status(), 401);
    }
    let waiting = sign_in_from(&app, "203.0.113.66", &email, "a good long password").await;
    assert_eq!(waiting.status(), 429);
    let wait: u64 = waiting.headers()["retry-after"].to_str().unwrap().parse().unwrap();
    assert!((1..=30).contains(&wait), "{wait}");
    assert!(waiting.text().await.unwrap().contains("too many failed attempts"));
    // The owner, from their own address, signs in at once.
    let owner = sign_in_from(&app, "198.51.100.23", &email, "a good long password").await;
    assert_eq!(owner.status(), 303);
    // A made-up address of 15 KB is answered like any wrong one.
    let huge = format!("{}@example.com", "x".repeat(15_000));
    assert_eq!(sign_in_from(&app, "198.51.100.24", &huge, "whatever").await.status(), 401);
}

#[tokio::test]
async fn jobs_running_at_shutdown_are_handed_back_for_the_next_start() {
    use sea_orm::{ConnectionTrait, Statement};
    let test = store_seaorm::testing::TestDatabase::new().await;
    // A site that accepts connections and never answers: the crawl is running when we stop.
    let silent = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let mut settings = crate::helpers::settings_for(&test.config);
    settings.job_workers = 1;
    settings.job_lease_seconds = 600;
    settings.crawler.allow_private_networks = true;
    let app = launchdir_server::Application::build(settings.clone()).await.unwrap();
    let base = format!("http://127.0.0.1:{}", app.port());
    let handle = app.handle();
    let running = tokio::spawn(app.run_until_stopped());
    let services = launchdir_server::Services::build(
        &settings,
        launchdir_server::open_database(&settings).await.unwrap(),
        std::sync::Arc::new(kernel::SystemClock),
    )
    .unwrap();
    let email = kernel::Email::parse("shutdown@example.com").unwrap();
    services.app.accounts.users.create_user(&email, None).await.unwrap();
    let key = services.app.accounts.users.create_api_key(&email, None, accounts::Scopes::all()).await.unwrap();
    let created = crate::helpers::client()
        .post(format!("{base}/api/v1/drafts"))
        .bearer_auth(key.secret.expose())
        .json(&serde_json::json!({"url": format!("http://{}/", silent.local_addr().unwrap())}))
        .send()
        .await
        .unwrap();
    assert_eq!(created.status(), 201);
    let job = || async {
        let sql = "SELECT state, CAST(attempts AS BIGINT), locked_by IS NULL, locked_until IS NULL FROM jobs WHERE kind = 'draft.crawl'";
        let row = test.db.query_one_raw(Statement::from_string(test.db.get_database_backend(), sql)).await.unwrap().unwrap();
        let state: String = row.try_get_by_index(0).unwrap();
        let attempts: i64 = row.try_get_by_index(1).unwrap();
        let (no_worker, no_lease): (bool, bool) = (row.try_get_by_index(2).unwrap(), row.try_get_by_index(3).unwrap());
        (state, attempts, no_worker, no_lease)
    };
    let started = std::time::Instant::now();
    while job().await.0 != "running" {
        assert!(started.elapsed() < std::time::Duration::from_secs(20), "the crawl never started: {:?}", job().await);
        tokio::time::sleep(std::time::Duration::from_millis(50)).await;
    }
    assert_eq!(job().await, ("running".into(), 1, false, false));
    handle.stop(true).await;
    running.await.unwrap().unwrap();
    assert_eq!(job().await, ("queued".into(), 0, true, true), "handed back, the interrupted attempt not counted");
}

#[tokio::test]
async fn a_daily_job_purges_what_has_expired_and_keeps_the_rest() {
    use kernel::{Housekeeping, JobQueue};
    use ops::housekeeping::Housekeeper;
    let app = crate::helpers::spawn_empty_app_with(|settings| {
        settings.job_workers = 1;
        settings.scheduler_seconds = 1;
    })
    .await;
    let store = &app.services.store;
    // The scheduler enqueues today's purge, once, and a worker runs it.
    let started = std::time::Instant::now();
    let purge = loop {
        let ids = store.job_ids("maintenance.purge").await.unwrap();
        if let [id] = ids[..]
            && store.state(id).await.unwrap().is_some_and(|(state, _, _)| state == kernel::JobState::Done)
        {
            break id;
        }
        assert!(started.elapsed() < std::time::Duration::from_secs(20), "the purge never ran: {ids:?}");
        tokio::time::sleep(std::time::Duration::from_millis(100)).await;
    };
    // Rows of today: a session, an idempotency record, and the finished purge job itself.
    app.services
        .app
        .accounts
        .signin
        .sign_up(&format!("purge-{}@example.com", std::process::id()), "P", "a good long password")
        .await
        .unwrap();
    let now = time::OffsetDateTime::now_utc();
    let scope = kernel::IdempotencyScope { principal: "user:1".into(), operation: "submit_listing".into(), key: "purge-test".into() };
    let idempotency = store.idempotency();
    idempotency.reserve(&scope, "fingerprint", now, now - time::Duration::DAY, now - time::Duration::minutes(5)).await.unwrap();
    idempotency.finish(&scope, &kernel::StoredResponse { status: 201, body: serde_json::json!({}) }).await.unwrap();
    // A claim e-mail, counted by the daily quotas.
    let db = store.connection();
    let claimant = store_seaorm::testing::fixtures::user(db, &format!("claimant-{}@example.com", std::process::id())).await;
    let week = kernel::Week::at(now, time::UtcOffset::UTC);
    let listing = store_seaorm::testing::fixtures::listing(db, "purged-claims", "live", week, now).await;
    let claim = claims::NewClaim {
        listing: kernel::ListingId::new(listing),
        claimant: kernel::UserId::new(claimant),
        method: claims::ClaimMethod::Email,
        token: None,
        email: Some(kernel::Email::parse("ceo@purged-claims.example").unwrap()),
        link_hash: Some("0".repeat(64)),
        created_at: now,
    };
    let quota = claims::MailQuota { per_account_per_day: 10, per_recipient_per_day: 3 };
    assert!(matches!(store.claims().create(claim, quota).await.unwrap(), claims::Stored::New(_)));
    // Today nothing of it has expired.
    let kept = store.purge(&Housekeeper::cutoffs(now)).await.unwrap();
    assert_eq!((kept.idempotency_keys, kept.jobs, kept.sessions, kept.claim_emails), (0, 0, 0, 0), "{kept}");
    // Forty days on, all of it has.
    let later = store.purge(&Housekeeper::cutoffs(now + time::Duration::days(40))).await.unwrap();
    assert!(later.idempotency_keys >= 1 && later.sessions >= 1 && later.jobs >= 1, "{later}");
    assert_eq!(later.claim_emails, 1, "the claim e-mail's record, past the quotas' day: {later}");
    assert!(store.state(purge).await.unwrap().is_none(), "the finished job is gone");
}
