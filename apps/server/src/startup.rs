//! Start-up and shutdown: opens and migrates the database, seeds the demo directory on a first
//! start, builds the services (`wiring`), brings the search index and the kept counts up to
//! date, starts the background jobs and workers, and runs the HTTP server (`http`).

use crate::database::{open_database, open_serving_database};
use crate::settings::Settings;
use crate::wiring::Services;
use anyhow::Context;
use kernel::{Clock, SystemClock};
use migration::MigratorTrait;
use std::net::TcpListener;
use std::sync::Arc;
use std::time::Instant;

/// The running HTTP server.
pub struct Application {
    port: u16,
    site_url: String,
    base_url: String,
    server: actix_web::dev::Server,
    jobs: Vec<tokio::task::JoinHandle<()>>,
    bookkeeping: crate::bookkeeping::Bookkeeping,
    /// The services the server runs on: tests and the command line act through these very
    /// ones (one answer cache, one search index), never through a copy.
    services: Services,
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
        if seeded {
            let pictured = crate::demo_pictures::add(&services.app.media, &services.store).await?;
            tracing::info!(listings = pictured, "drew the demo's logos, screenshots and founders' portraits");
        }
        // The serving process keeps its search index on disk (the CLI and other processes
        // never open it); it goes on from where it stood.
        if settings.search_index_on_disk {
            let dir = settings.data_dir.join("search-index");
            let index = search_tantivy::TantivyIndex::in_dir(&dir).with_context(|| {
                format!("cannot open the search index at {} (each server process needs its own data_dir)", dir.display())
            })?;
            services.app.listings.search = services.app.listings.search.with_index(Arc::new(index));
        }
        // The search index is brought up to date with the database before the server answers.
        let started = Instant::now();
        let indexed = services.app.listings.search.sync().await.context("cannot build the search index")?;
        tracing::info!(documents = indexed, elapsed_ms = started.elapsed().as_millis() as u64, "brought the search index up to date");
        // The counts, trending and this week's ranking are ready before the first request, so
        // no early reader waits for them.
        services.app.listings.directory.shared_shape().refresh().await.context("cannot count the directory")?;
        services.app.listings.feeds.trending().refresh().await.context("cannot score trending")?;
        services.app.listings.calendar.refresh_recent_weeks().await.context("cannot rank this week and last week")?;
        if seeded {
            // The demo's finished weeks get their awards before the first answer, not from the
            // week-end job a moment after the server already answers `list_awards` with none.
            let fixed = services.app.listings.awards.fix_finished_weeks().await.context("cannot fix the demo's awards")?;
            tracing::info!(weeks = fixed.len(), "fixed the awards of the demo's finished weeks");
        }
        let mut jobs = vec![
            tokio::spawn(crate::periodic::sync_search(services.app.listings.search.clone())),
            tokio::spawn(crate::periodic::prepare_profiles(services.app.listings.profiles.clone())),
            tokio::spawn(crate::periodic::refresh_counts(services.app.listings.directory.shared_shape().clone())),
            tokio::spawn(crate::periodic::refresh_trending(services.app.listings.feeds.trending().clone())),
            tokio::spawn(crate::periodic::refresh_recent_weeks(services.app.listings.calendar.clone())),
            tokio::spawn(crate::periodic::rank_after_votes(services.app.clone(), services.edge.answers.clone())),
            tokio::spawn(crate::periodic::enqueue_jobs(
                services.app.listings.lifecycle.clone(),
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
            crate::bookkeeping::Bookkeeping::start(&settings, &services.app.listings.profiles, services.clock.clone(), workers).await?;
        let server = crate::http::serve(listener, &settings, &services, db)?;
        Ok(Self { port, site_url: settings.site_url(), base_url: settings.base_url(), server, jobs, bookkeeping, services })
    }

    pub fn services(&self) -> &Services {
        &self.services
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
