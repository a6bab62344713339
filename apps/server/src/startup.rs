//! Wiring: builds every adapter from settings, hands them to the application layer, and runs
//! the HTTP server.

use crate::database::{open_database, open_serving_database};
use crate::settings::Settings;
use accounts::AccountsService;
use actix_web::body::MessageBody;
use actix_web::dev::{ServiceRequest, ServiceResponse};
use actix_web::http::header::{HeaderName, HeaderValue};
use actix_web::middleware::{Next, from_fn};
use actix_web::{HttpMessage, HttpResponse, HttpServer, web};
use anyhow::Context;
use kernel::{Clock, SystemClock};
use listings::DirectoryService;
use migration::MigratorTrait;
use ops::{App, SiteConfig};
use orders::{CatalogService, WeekPolicy};
use std::net::TcpListener;
use std::sync::Arc;
use std::time::Instant;
use store_seaorm::{DatabaseConnection, SeaStore};
use tracing::Instrument;

/// The application layer and its adapters, built from settings.
#[derive(Clone)]
pub struct Services {
    pub app: App,
    pub store: SeaStore,
    pub clock: Arc<dyn Clock>,
}

impl Services {
    pub fn build(settings: &Settings, db: DatabaseConnection, clock: Arc<dyn Clock>) -> anyhow::Result<Self> {
        let store = SeaStore::new(db);
        let policy_addresses =
            outbound_http::AddressPolicy { allow_private_networks: settings.crawler.allow_private_networks, trusted: Vec::new() };
        let fetcher = outbound_http::SafeFetcher::new(outbound_http::FetcherConfig::new(
            outbound_http::user_agent(&settings.site_url()),
            policy_addresses,
        ))
        .context("cannot build the HTTP client for outbound requests")?;
        let drafter: Arc<dyn drafts::Drafter> = match settings.drafter.kind.as_str() {
            "openai" => Arc::new(
                drafter::OpenAiDrafter::new(drafter::OpenAiConfig {
                    base_url: settings.drafter.base_url.clone(),
                    model: settings.drafter.model.clone(),
                    api_key: settings.drafter.api_key.clone(),
                    timeout: std::time::Duration::from_secs(settings.drafter.timeout_seconds.max(1)),
                })
                .context("cannot build the HTTP client for the model endpoint")?,
            ),
            _ => Arc::new(drafter::ExtractiveDrafter),
        };
        let oauth = accounts::OAuthService::new(
            store.oauth(),
            Arc::new(outbound_http::ClientMetadataFetcher::new(fetcher.clone())),
            clock.clone(),
            vec![format!("{}/mcp", settings.site_url()), settings.base_url()],
        );
        let mailer = mailer(settings, &store, &clock)?;
        // The badge check shares the site reader's robots.txt cache.
        let mut site_reader = outbound_http::CrawlingSiteReader::new(fetcher.clone(), outbound_http::BOT_TOKEN);
        let browser = outbound_http::ChromiumRenderer::find_browser().filter(|_| settings.crawler.render_javascript);
        match browser {
            // The browser runs only in a network namespace of its own: where none can be made,
            // there is no rendering, never a browser on this host's network.
            Some(browser) => match site_reader.use_browser(browser.clone()) {
                Ok(()) => {
                    tracing::info!(browser = %browser.display(), "pages that need JavaScript are rendered in headless Chromium, in a network namespace of its own")
                }
                Err(reason) => tracing::warn!(
                    %reason,
                    "pages that need JavaScript are read as served, and their drafts say so: the browser cannot be enclosed here"
                ),
            },
            None if settings.crawler.render_javascript => {
                tracing::info!("no Chromium on PATH: pages that need JavaScript are read as served, and their drafts say so")
            }
            None => {}
        }
        let badge_probe = Arc::new(outbound_http::HomepageBadgeProbe::new(fetcher.clone(), site_reader.robots()));
        let claims = crate::claims_wiring::claims_service(settings, &store, fetcher, mailer.clone(), &clock)?;
        let drafts = drafts::DraftsService::new(
            drafts::DraftsPorts {
                repo: store.drafts(),
                reader: Arc::new(site_reader),
                drafter,
                categories: store.draft_categories(),
                listings: listings::SubmissionService::new(store.submitted_listings(), clock.clone()),
                mailer: mailer.clone(),
                clock: clock.clone(),
            },
            drafts::DraftsPolicy {
                site_url: settings.site_url(),
                site_name: settings.site_name.clone(),
                invites_per_account_per_day: settings.invites_per_account_per_day,
                invites_per_recipient_per_day: settings.invites_per_recipient_per_day,
            },
        );
        let policy = WeekPolicy {
            launch_offset: settings.launch_offset()?,
            paid_weeks_ahead: settings.paid_weeks_ahead,
            free_queue_min_weeks: settings.free_queue_min_weeks,
        };
        let calendar = listings::CalendarService::new(
            store.launches(),
            clock.clone(),
            listings::CalendarPolicy {
                launch_offset: settings.launch_offset()?,
                weeks_ahead: settings.paid_weeks_ahead.max(settings.free_queue_max_weeks),
            },
        );
        let awards = listings::AwardsService::new(store.awards(), calendar.clone(), clock.clone());
        let lifecycle = listings::LifecycleService::new(
            store.lifecycle(),
            badge_probe,
            store.jobs(),
            awards.clone(),
            clock.clone(),
            listings::LifecyclePolicy {
                launch_offset: settings.launch_offset()?,
                site_url: settings.site_url(),
                badge_check_interval: time::Duration::minutes(i64::try_from(settings.badge_check_minutes).unwrap_or(60)),
                badge_max_backoff: time::Duration::hours(i64::try_from(settings.badge_max_backoff_hours).unwrap_or(24)),
                badge_checks_per_sweep: 500,
            },
        );
        let trending = listings::TrendingScores::new(
            store.feeds(),
            clock.clone(),
            time::Duration::hours(i64::from(settings.trending_half_life_hours)),
        );
        // The directory's counts, shared by every read that shows a total.
        let shape = listings::DirectoryShape::new(store.categories(), clock.clone());
        // Reviews follow votes: a young account's review counts in the rating once the account is
        // as old as a vote needs to be.
        let review_policy =
            listings::ReviewPolicy { min_account_age: time::Duration::hours(i64::from(settings.vote_min_account_age_hours)) };
        // One hasher for sign-in, resets and password changes: its cap on concurrent hashes is the server's.
        let hasher: Arc<dyn accounts::PasswordHashing> = Arc::new(ops::passwords::BlockingArgon2::half_the_cores());
        // One sign-in throttle for every form that checks a password (sign-in, a new password,
        // closing the account), so guesses through any of them count together.
        let signin = accounts::SignInService::new(store.users(), store.passwords(), store.sessions(), hasher.clone(), clock.clone());
        let password_throttle = signin.shared_throttle();
        // What a new password (changed or reset) ends: every session, API key and OAuth token of
        // the account, as closing it does; and the e-mail that says so.
        let revocation =
            accounts::AccessRevocation::new(store.access_revoker(), mailer.clone(), settings.site_name.clone(), settings.site_url());
        let app = App {
            site: SiteConfig {
                name: settings.site_name.clone(),
                site_url: settings.site_url(),
                base_url: settings.base_url(),
                launch_timezone: settings.launch_timezone.clone(),
            },
            accounts: AccountsService::new(store.users(), store.api_keys(), store.email_tokens(), clock.clone()).with_oauth(oauth.clone()),
            signin,
            admin: accounts::AdminService::new(store.admin(), clock.clone()),
            own_account: accounts::OwnAccount::new(
                store.passwords(),
                revocation.clone(),
                hasher.clone(),
                store.account_closer(),
                clock.clone(),
            )
            .with_throttle(password_throttle),
            reset: accounts::PasswordReset::new(
                accounts::ResetStores {
                    tokens: store.email_tokens(),
                    users: store.users(),
                    passwords: store.passwords(),
                    revocation,
                    hasher,
                    mailer: mailer.clone(),
                    clock: clock.clone(),
                },
                settings.site_name.clone(),
                settings.site_url(),
            ),
            housekeeper: ops::housekeeping::Housekeeper::new(store.housekeeping(), clock.clone()),
            answers: Arc::new(ops::AnswerCache::new(
                std::time::Duration::from_millis(settings.answer_cache_ms),
                settings.answer_cache_mib.saturating_mul(1024 * 1024),
            )),
            confirmation: accounts::EmailConfirmation::new(
                store.email_tokens(),
                store.users(),
                mailer.clone(),
                clock.clone(),
                settings.site_name.clone(),
                settings.site_url(),
            ),
            votes: listings::VoteService::new(
                store.votes(),
                clock.clone(),
                listings::VotePolicy {
                    min_account_age: time::Duration::hours(i64::from(settings.vote_min_account_age_hours)),
                    launch_offset: settings.launch_offset()?,
                },
            ),
            reviews: listings::ReviewService::new(store.reviews(), clock.clone(), review_policy),
            oauth,
            directory: DirectoryService::new(store.listings(), shape.clone()),
            founders: listings::FoundersService::new(store.founders(), clock.clone(), shape.clone()),
            leaderboards: listings::LeaderboardService::new(store.rankings(), calendar.clone(), shape.clone()),
            feeds: listings::FeedService::new(
                store.feeds(),
                store.rankings(),
                listings::FeedSources { calendar: calendar.clone(), trending: trending.clone(), shape: shape.clone() },
                clock.clone(),
                listings::FeedPolicy { launch_offset: settings.launch_offset()? },
            ),
            awards,
            lifecycle,
            badges: listings::BadgeService::new(store.listings(), store.awards()),
            profiles: listings::ProfileService::new(store.profiles(), clock.clone(), review_policy),
            compare: listings::CompareService::new(store.alternatives(), store.profiles(), clock.clone(), review_policy),
            search: listings::SearchService::new(
                Arc::new(search_tantivy::TantivyIndex::in_memory()?),
                store.search_source(),
                store.feeds(),
                trending,
                shape,
            ),
            sitemap: listings::SitemapService::new(store.sitemap(), calendar.clone()),
            calendar,
            catalog: CatalogService::new(store.products(), clock.clone(), policy),
            orders: crate::orders_wiring::orders_service(settings, &store, &clock, policy)?,
            claims,
            interview_questions: store.interview_questions(),
            blog: content::BlogService::new(store.blog_posts(), clock.clone()),
            drafts,
            interviews: listings::InterviewService::new(store.interviews(), clock.clone()),
            owners: listings::OwnerService::new(
                store.owned_listings(),
                clock.clone(),
                listings::FreeQueuePolicy {
                    launch_offset: settings.launch_offset()?,
                    min_weeks: settings.free_queue_min_weeks,
                    max_weeks: settings.free_queue_max_weeks,
                    slots_per_week: settings.free_slots_per_week,
                },
                mailer.clone(),
                settings.site_url(),
            ),
            limits: rate_limits(settings)?,
            idempotency: store.idempotency(),
            clock: clock.clone(),
        };
        Ok(Self { app, store, clock })
    }
}

/// The mailer the settings choose: the database outbox (default) or SMTP.
/// The rate limits: counted in Redis when `redis_url` is set (several servers share one quota),
/// in this process's memory otherwise.
fn rate_limits(settings: &Settings) -> anyhow::Result<ops::RateLimits> {
    if !settings.rate_limits.enabled {
        return Ok(ops::RateLimits::off());
    }
    let limiter: Arc<dyn kernel::RateLimiter> = match &settings.redis_url {
        Some(url) => {
            let redis = ratelimit::RedisLimiter::new(url, "launchdir:ratelimit:")
                .with_context(|| format!("cannot use the Redis at {}", crate::settings::redact_url(url)))?;
            Arc::new(ratelimit::SharedLimiter::new(redis))
        }
        None => Arc::new(ratelimit::MemoryLimiter::new()),
    };
    Ok(ops::RateLimits::new(limiter, settings.rate_quotas()?))
}

fn mailer(settings: &Settings, store: &SeaStore, clock: &Arc<dyn Clock>) -> anyhow::Result<Arc<dyn kernel::Mailer>> {
    Ok(match (settings.mail.transport.as_str(), &settings.mail.smtp_url) {
        ("smtp", Some(url)) => Arc::new(mail_smtp::SmtpMailer::new(url, &settings.mail.from)?),
        _ => Arc::new(store_seaorm::OutboxMailer::new(store.clone(), clock.clone())),
    })
}

/// The running HTTP server.
pub struct Application {
    port: u16,
    site_url: String,
    base_url: String,
    server: actix_web::dev::Server,
    jobs: Vec<tokio::task::JoinHandle<()>>,
    bookkeeping: crate::bookkeeping::Bookkeeping,
}

impl Application {
    /// Opens the database, migrates it (SQLite, or when `auto_migrate` is on), seeds the demo
    /// directory on first start where configured, binds the address and prepares the server.
    pub async fn build(settings: Settings) -> anyhow::Result<Self> {
        Self::build_with_clock(settings, Arc::new(SystemClock)).await
    }

    pub async fn build_with_clock(mut settings: Settings, clock: Arc<dyn Clock>) -> anyhow::Result<Self> {
        let listener = TcpListener::bind(&settings.bind).with_context(|| format!("cannot listen on {}", settings.bind))?;
        let port = listener.local_addr()?.port();
        if settings.site_url.is_none() {
            // Derived from the address actually bound, so `bind = "127.0.0.1:0"` still yields a
            // reachable site URL.
            let host = settings.bind.rsplit_once(':').map_or("127.0.0.1", |(host, _)| host);
            let host = if host == "0.0.0.0" || host == "[::]" { "localhost" } else { host };
            settings.site_url = Some(format!("http://{host}:{port}"));
        }
        // Migrations and the demo seed run on a pool of their own that opens one connection,
        // closed before the serving pool opens all of its own at once.
        let setup = open_database(&settings).await?;
        let sqlite = matches!(store_seaorm::Backend::of_url(&settings.database_url()), Some(store_seaorm::Backend::Sqlite));
        if settings.auto_migrate.unwrap_or(sqlite) {
            store_seaorm::migrate(&setup).await.context("cannot migrate the database")?;
        } else {
            let pending = migration::Migrator::get_pending_migrations(&setup).await.context("cannot read the migration state")?;
            if !pending.is_empty() {
                anyhow::bail!("the database has {} pending migrations: run `launchdir migrate` first", pending.len());
            }
        }
        let seeded = settings.demo_data.unwrap_or(settings.uses_embedded_database()) && !store_seaorm::seed::has_listings(&setup).await?;
        if seeded {
            let report = store_seaorm::seed::demo(&setup, clock.now()).await.context("cannot seed the demo directory")?;
            tracing::info!(listings = report.listings, votes = report.votes, "seeded the demo directory");
        }
        setup.close().await.context("cannot close the set-up connections")?;
        let db = open_serving_database(&settings).await?;
        let mut services = Services::build(&settings, db.clone(), clock)?;
        // The serving process keeps its search index on disk (the CLI and other processes
        // never open it); it goes on from where it stood.
        if settings.search_index_on_disk {
            let dir = settings.data_dir.join("search-index");
            let index = search_tantivy::TantivyIndex::in_dir(&dir).with_context(|| {
                format!("cannot open the search index at {} (each server process needs its own data_dir)", dir.display())
            })?;
            services.app.search = services.app.search.with_index(Arc::new(index));
        }
        // The search index is brought up to date with the database before the server answers.
        let started = Instant::now();
        let indexed = services.app.search.sync().await.context("cannot build the search index")?;
        tracing::info!(documents = indexed, elapsed_ms = started.elapsed().as_millis() as u64, "brought the search index up to date");
        // The counts, trending and this week's ranking are ready before the first request, so
        // no early reader waits for them.
        services.app.directory.shared_shape().refresh().await.context("cannot count the directory")?;
        services.app.feeds.trending().refresh().await.context("cannot score trending")?;
        services.app.calendar.refresh_recent_weeks().await.context("cannot rank this week and last week")?;
        if seeded {
            // The demo's finished weeks get their awards before the first answer, not from the
            // week-end job a moment after the server already answers `list_awards` with none.
            let fixed = services.app.awards.fix_finished_weeks().await.context("cannot fix the demo's awards")?;
            tracing::info!(weeks = fixed.len(), "fixed the awards of the demo's finished weeks");
        }
        let mut jobs = vec![
            tokio::spawn(crate::periodic::sync_search(services.app.search.clone())),
            tokio::spawn(crate::periodic::refresh_counts(services.app.directory.shared_shape().clone())),
            tokio::spawn(crate::periodic::refresh_trending(services.app.feeds.trending().clone())),
            tokio::spawn(crate::periodic::refresh_recent_weeks(services.app.calendar.clone())),
            tokio::spawn(crate::periodic::rank_after_votes(services.app.clone())),
            tokio::spawn(crate::periodic::enqueue_jobs(
                services.app.lifecycle.clone(),
                services.store.jobs(),
                services.clock.clone(),
                settings.scheduler_seconds,
                time::Duration::minutes(i64::try_from(settings.payments.reconcile_every_minutes).unwrap_or(180)),
            )),
        ];
        let registry = Arc::new(ops::JobRegistry::of(&services.app));
        let mut workers = Vec::new();
        for n in 0..settings.job_workers {
            // Unique per process start, so a restart never mistakes another node's claims for its own.
            let name = format!("{}-{}-{n}-{}", std::process::id(), port, uuid::Uuid::new_v4().simple());
            let lease = time::Duration::seconds(i64::try_from(settings.job_lease_seconds).unwrap_or(120));
            jobs.push(tokio::spawn(crate::worker::run(
                name.clone(),
                services.store.jobs(),
                registry.clone(),
                services.clock.clone(),
                lease,
            )));
            workers.push(name);
        }
        let bookkeeping =
            crate::bookkeeping::Bookkeeping::start(&settings, &services.app.profiles, services.clock.clone(), workers).await?;
        let rest = Arc::new(api_rest::RestState::new(services.app.clone()));
        let pages = ::web::configure(::web::WebState {
            app: services.app.clone(),
            site_url: settings.site_url(),
            api_not_found: api_rest::problem::route_not_found,
        });
        let mcp = api_mcp::configure(
            services.app.clone(),
            api_mcp::McpConfig {
                site_url: settings.site_url(),
                allowed_hosts: settings.mcp_allowed_hosts(),
                allowed_origins: settings.mcp_allowed_origins(),
                max_sessions: settings.mcp.max_sessions,
                session_idle: std::time::Duration::from_secs(settings.mcp.session_idle_seconds),
            },
        );
        let db_data = web::Data::new(db);
        let trusted_proxies = web::Data::new(settings.trusted_proxies()?);
        let security_headers = web::Data::new(SecurityHeaders { hsts: settings.site_url().starts_with("https://") });
        let answers = web::Data::from(services.app.answers.clone());
        let mut server = HttpServer::new(move || {
            actix_web::App::new()
                .wrap(from_fn(request_context))
                .app_data(db_data.clone())
                .app_data(trusted_proxies.clone())
                .app_data(security_headers.clone())
                .app_data(answers.clone())
                .route("/healthz", web::get().to(|| async { HttpResponse::Ok().json(serde_json::json!({"status": "ok"})) }))
                .route("/readyz", web::get().to(readyz))
                .route("/bot", web::get().to(about_the_bot))
                .configure(api_rest::configure(rest.clone()))
                .configure(mcp.clone())
                .configure(pages.clone())
                .default_service(web::to(not_found))
        })
        .listen(listener)?
        .shutdown_timeout(10);
        if let Some(workers) = settings.http_workers {
            server = server.workers(workers);
        }
        Ok(Self { port, site_url: settings.site_url(), base_url: settings.base_url(), server: server.run(), jobs, bookkeeping })
    }

    pub fn port(&self) -> u16 {
        self.port
    }

    /// Stops the server from elsewhere (`stop(true)` finishes requests in flight first).
    pub fn handle(&self) -> actix_web::dev::ServerHandle {
        self.server.handle()
    }

    /// The site address in effect (derived from the bound port when not configured).
    pub fn site_url(&self) -> &str {
        &self.site_url
    }

    pub fn base_url(&self) -> &str {
        &self.base_url
    }

    /// Serves until SIGTERM or Ctrl-C, then finishes the requests in flight (up to 10 s).
    pub async fn run_until_stopped(self) -> std::io::Result<()> {
        let result = self.server.await;
        for job in &self.jobs {
            job.abort();
        }
        for job in self.jobs {
            let _ = job.await;
        }
        // Then the views counted since the last flush and the jobs the workers held.
        self.bookkeeping.finish().await;
        result
    }
}

/// An address nothing answers: the page for people to a browser, problem+json to an API client.
async fn not_found(request: actix_web::HttpRequest, pages: Option<web::Data<::web::WebState>>) -> HttpResponse {
    match pages {
        Some(pages) => ::web::unknown_address(pages, request).await,
        None => api_rest::not_found().await,
    }
}

/// The page our crawler's user agent links to.
async fn about_the_bot() -> HttpResponse {
    HttpResponse::Ok().content_type("text/html; charset=utf-8").body(concat!(
        "<!doctype html><html lang=\"en\"><head><meta charset=\"utf-8\"><title>LaunchdirBot</title></head><body>",
        "<h1>LaunchdirBot</h1>",
        "<p>LaunchdirBot reads a product's website when someone submits it to this launch directory, to draft the listing from what the site says. ",
        "It also checks homepages for our badge and verifies ownership claims.</p>",
        "<ul><li>It obeys robots.txt (user agent <code>LaunchdirBot</code>, else the <code>*</code> group) and never reads a page robots.txt disallows.</li>",
        "<li>It reads at most 10 pages of a site per submission, each at most 2 MiB, within 30 seconds.</li>",
        "<li>It never connects to private or reserved network addresses.</li></ul>",
        "<p>To keep it out, add <code>User-agent: LaunchdirBot</code> and <code>Disallow: /</code> to your robots.txt.</p>",
        "</body></html>"
    ))
}

async fn readyz(db: web::Data<DatabaseConnection>) -> HttpResponse {
    match store_seaorm::ping(&db).await {
        Ok(()) => HttpResponse::Ok().json(serde_json::json!({"status": "ready", "database": "ok"})),
        Err(err) => {
            tracing::warn!(error = %err, "readiness check failed");
            api_rest::problem::ProblemResponse::response(&api_rest::problem::Problem::new(
                503,
                "not_ready",
                "Not ready",
                "the database does not answer",
            ))
        }
    }
}

const REQUEST_ID: HeaderName = HeaderName::from_static("x-request-id");

/// Headers every answer carries. HSTS only when the site is served over https: sent over plain
/// http it would be ignored at best, and would pin a misconfigured development site at worst.
struct SecurityHeaders {
    hsts: bool,
}

impl SecurityHeaders {
    fn apply(&self, headers: &mut actix_web::http::header::HeaderMap) {
        let mut set = |name: &'static str, value: &'static str| {
            let name = HeaderName::from_static(name);
            // A route that chose its own value (an SVG badge, a page's frame rules) keeps it.
            if !headers.contains_key(&name) {
                headers.insert(name, HeaderValue::from_static(value));
            }
        };
        set("x-content-type-options", "nosniff");
        set("referrer-policy", "strict-origin-when-cross-origin");
        if self.hsts {
            set("strict-transport-security", "max-age=31536000; includeSubDomains");
        }
    }
}

/// Gives every request an id (the caller's `X-Request-Id` when it is sane, else a new UUID),
/// runs it inside a span carrying that id, logs its outcome, and echoes the id back.
async fn request_context(
    mut request: ServiceRequest,
    next: Next<impl MessageBody>,
) -> Result<ServiceResponse<impl MessageBody>, actix_web::Error> {
    let id = request
        .headers()
        .get(&REQUEST_ID)
        .and_then(|value| value.to_str().ok())
        .filter(|value| {
            !value.is_empty() && value.len() <= 64 && value.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_')
        })
        .map(str::to_owned)
        .unwrap_or_else(|| uuid::Uuid::new_v4().to_string());
    // HEAD is GET without the body (RFC 9110 9.3.2): routed as GET, and the HTTP layer, which
    // saw the HEAD, sends the headers only. The tool server's stream keeps its own rules.
    if request.method() == actix_web::http::Method::HEAD && !request.path().starts_with("/mcp") {
        request.head_mut().method = actix_web::http::Method::GET;
    }
    // The client, once for every part of the site (rate limits count per client address).
    if let (Some(peer), Some(trusted)) = (request.peer_addr(), request.app_data::<web::Data<ops::limits::TrustedProxies>>()) {
        let forwarded = request.headers().get_all("x-forwarded-for").filter_map(|value| value.to_str().ok());
        let client = ops::limits::client_ip(peer.ip(), forwarded, trusted);
        request.extensions_mut().insert(ops::ClientIp(client));
    }
    let security = request.app_data::<web::Data<SecurityHeaders>>().cloned();
    // A page's write that succeeds (a vote, a form) forgets the kept answers, as an operation's
    // does in `ops::execute`, which the tool server's POSTs (its reads too) go through; only a
    // known writer's (`ops::KnownWriter`), so a form refused to someone unknown forgets nothing.
    let reads = matches!(request.method().as_str(), "GET" | "HEAD" | "OPTIONS") || request.path().starts_with("/mcp");
    let answers = (!reads).then(|| request.app_data::<web::Data<ops::AnswerCache>>().cloned()).flatten();
    let span = tracing::info_span!("request", request_id = %id, method = %request.method(), path = %request.path());
    let started = Instant::now();
    let mut response = next.call(request).instrument(span.clone()).await?;
    if let Some(answers) = answers
        && (response.status().is_success() || response.status().is_redirection())
        && response.request().extensions().contains::<ops::KnownWriter>()
    {
        answers.forget_all();
    }
    let status = response.status().as_u16();
    span.in_scope(|| {
        let elapsed_ms = started.elapsed().as_secs_f64() * 1000.0;
        if status >= 500 {
            tracing::error!(status, elapsed_ms, "request failed");
        } else {
            tracing::info!(status, elapsed_ms, "request");
        }
    });
    if let Ok(value) = HeaderValue::from_str(&id) {
        response.headers_mut().insert(REQUEST_ID, value);
    }
    if let Some(security) = security {
        security.apply(response.headers_mut());
    }
    // Where the API, the tool server or a page counted the request: the `RateLimit` headers.
    let rate = response.response().extensions().get::<ops::RateStatus>().copied();
    if let Some(rate) = rate {
        for (name, value) in rate.headers() {
            if let Ok(value) = HeaderValue::from_str(&value) {
                response.headers_mut().insert(HeaderName::from_static(name), value);
            }
        }
    }
    Ok(response)
}
