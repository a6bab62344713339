//! Opening the database: SQLite with WAL and foreign keys, or PostgreSQL, from one URL.

use futures_util::future::try_join_all;
use migration::{Migrator, MigratorTrait};
use sea_orm::sqlx::sqlite::SqliteJournalMode;
use sea_orm::{ConnectOptions, ConnectionTrait, Database, DatabaseConnection, DbErr, TransactionTrait};
use std::time::Duration;

/// Which database a URL names.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Backend {
    Sqlite,
    Postgres,
}

impl Backend {
    pub fn of_url(url: &str) -> Option<Self> {
        if url.starts_with("sqlite:") {
            Some(Self::Sqlite)
        } else if url.starts_with("postgres://") || url.starts_with("postgresql://") {
            Some(Self::Postgres)
        } else {
            None
        }
    }
}

/// How to open the pool.
#[derive(Debug, Clone)]
pub struct DbConfig {
    pub url: String,
    pub max_connections: u32,
    /// PostgreSQL only: the schema to use (tests give each run its own).
    pub schema: Option<String>,
    /// PostgreSQL only: connections the pool keeps open at all times (at most
    /// `max_connections`), all opened at once before [`connect`] returns, so no request waits
    /// for one to open: on this machine opening one took 85 to 100 ms, nearly all of it waiting
    /// in the TLS handshake (with `sslmode=disable`, about 13 ms). At most 1 opens connections as
    /// they are first needed. SQLite keeps one (each connection has a page cache of its own).
    pub min_connections: u32,
}

impl DbConfig {
    pub fn new(url: impl Into<String>) -> Self {
        Self { url: url.into(), max_connections: 16, schema: None, min_connections: 1 }
    }
}

/// Run on every new PostgreSQL connection: plans a query over each table of the schema, which
/// loads the server process's caches of the tables, their columns and their indexes. A new
/// connection's process starts with them empty, and the pool hands its connections out in
/// turn, so the first requests after a start (or after the pool replaced a connection) each
/// filled them on several connections: a listing page's first build took 15 to 28 ms instead
/// of 9 (at 20,000 listings; 36 to 81 ms at 100,000 on a slower day). A table that cannot be
/// read is left out rather than failing the connection.
const WARM_CATALOG_CACHES: &str = "DO $$ DECLARE t record; BEGIN \
     FOR t IN SELECT c.oid::regclass AS name FROM pg_class c \
     WHERE c.relkind = 'r' AND c.relnamespace = to_regnamespace(current_schema()) LOOP \
     BEGIN EXECUTE format('SELECT * FROM %s LIMIT 0', t.name); EXCEPTION WHEN others THEN NULL; END; \
     END LOOP; END $$";

/// How long a pooled connection may idle before it is tried before use.
const STALE_AFTER: Duration = Duration::from_secs(30);

/// How much of a SQLite file is read through a memory map: the bundled SQLite's ceiling
/// (`SQLITE_MAX_MMAP_SIZE`, just under 2 GiB); a larger file reads its remainder as before.
const SQLITE_MMAP_BYTES: u64 = 0x7fff_0000;

/// Opens a connection pool. SQLite files are created when missing, in WAL mode with foreign
/// keys enforced and a busy timeout, so readers never block the writer.
pub async fn connect(config: &DbConfig) -> Result<DatabaseConnection, DbErr> {
    let backend =
        Backend::of_url(&config.url).ok_or_else(|| DbErr::Custom("database URL must start with sqlite: or postgres://".into()))?;
    let kept_open = match backend {
        Backend::Postgres => config.min_connections.clamp(1, config.max_connections),
        Backend::Sqlite => 1,
    };
    let mut options = ConnectOptions::new(config.url.clone());
    options
        .max_connections(config.max_connections)
        .min_connections(kept_open)
        // The pool would open its kept connections one after another, each waiting out its
        // handshake: they are opened all at once below instead.
        .connect_lazy(kept_open > 1)
        .connect_timeout(Duration::from_secs(10))
        .acquire_timeout(Duration::from_secs(10))
        // Not a ping before every query (a round trip to the connection's thread, or to the
        // server, as dear as a small read): only a connection that idled long enough for a
        // server, proxy or firewall to have dropped it is tried first. A local SQLite file has
        // nothing to drop.
        .test_before_acquire_if_idle_for(STALE_AFTER)
        .sqlx_logging(false);
    if backend == Backend::Sqlite {
        options.test_before_acquire(false);
    }
    match backend {
        Backend::Sqlite => {
            options.map_sqlx_sqlite_opts(|opts| {
                opts.create_if_missing(true)
                    .journal_mode(SqliteJournalMode::Wal)
                    .foreign_keys(true)
                    .busy_timeout(Duration::from_secs(10))
                    .synchronous(sea_orm::sqlx::sqlite::SqliteSynchronous::Normal)
                    // Reads straight from the file's pages as the kernel caches them, shared by
                    // every connection: without it each connection's 2 MB page cache misses on
                    // nearly every read of a large directory's long tail, and each miss is a
                    // `pread` system call and a copy (a profile of a board's deep pages at
                    // 100,000 listings spent more time there than in SQLite itself).
                    .pragma("mmap_size", SQLITE_MMAP_BYTES.to_string())
            });
        }
        Backend::Postgres => {
            if let Some(schema) = config.schema.clone() {
                // A start-up parameter rather than sea-orm's `SET` after connecting: the pool's
                // after-connect hook is ours (below), and there is only one.
                options.map_sqlx_postgres_opts(move |opts| opts.options([("search_path", schema.as_str())]));
            }
            options.map_sqlx_postgres_pool_opts(|pool| {
                pool.after_connect(|connection, _| {
                    Box::pin(async move { sea_orm::sqlx::Executor::execute(connection, WARM_CATALOG_CACHES).await.map(|_| ()) })
                })
            });
        }
    }
    let db = Database::connect(options).await?;
    if kept_open > 1 {
        open_at_once(&db, kept_open).await?;
    }
    Ok(db)
}

/// Opens `count` pooled connections concurrently, so their handshakes' waits overlap: each is
/// held (in a transaction) until all are open, so the pool cannot hand one out twice.
async fn open_at_once(db: &DatabaseConnection, count: u32) -> Result<(), DbErr> {
    let held = try_join_all((0..count).map(|_| db.begin())).await?;
    for transaction in held {
        transaction.rollback().await?;
    }
    Ok(())
}

/// Applies every pending migration.
pub async fn migrate(db: &DatabaseConnection) -> Result<(), DbErr> {
    Migrator::up(db, None).await
}

/// Checks that the database answers (for `/readyz`).
pub async fn ping(db: &DatabaseConnection) -> Result<(), DbErr> {
    db.execute_unprepared("SELECT 1").await.map(|_| ())
}

/// Migrates an embedded SQLite database (it has no separate operator step) and lets SQLite
/// refresh its planner statistics; PostgreSQL is migrated only by `launchdir migrate` and keeps
/// its statistics itself (autovacuum).
pub async fn migrate_if_sqlite(db: &DatabaseConnection, url: &str) -> Result<(), DbErr> {
    if Backend::of_url(url) == Some(Backend::Sqlite) {
        migrate(db).await?;
        optimize(db).await?;
    }
    Ok(())
}

/// After a bulk load (and the profiles' preparation that follows it): on PostgreSQL, `VACUUM
/// (ANALYZE)` of the directory's tables and kept documents, which clears the rows the load
/// replaced and sets the rows' hint bits and the visibility map now (so index-only scans skip
/// the table) rather than leaving it to autovacuum, which would do it while the server answers,
/// a burst of work on every row at a moment nobody chose; on SQLite, [`optimize`]. Cannot run
/// inside a transaction.
pub async fn settle_after_bulk_load(db: &DatabaseConnection) -> Result<(), DbErr> {
    match db.get_database_backend() {
        sea_orm::DatabaseBackend::Postgres => db
            .execute_unprepared(
                "VACUUM (ANALYZE) listings, votes, listing_follows, listing_categories, listing_founders, founders, listing_metrics, \
                 billboard_contributions, listing_changes, awards, listing_documents, listing_documents_due, category_rankings",
            )
            .await
            .map(|_| ()),
        _ => optimize(db).await,
    }
}

/// Refreshes the planner's statistics, so it knows `status = 'live'` matches most of the
/// directory and picks the ranked indexes: on SQLite of the tables that need it (cheap when
/// nothing changed; also at every start), on PostgreSQL of the directory's tables (`ANALYZE`:
/// autovacuum would, but only a while after a bulk load, and never for a table as small as the
/// billboard's contributions: without its statistics, PostgreSQL's generic plan of the board
/// hashed every live listing to check a few dozen contributions: tens of milliseconds a build
/// at 100,000 listings; see `docs/performance.md`).
/// Run after a bulk seed and by the daily purge.
pub async fn optimize(db: &DatabaseConnection) -> Result<(), DbErr> {
    match db.get_database_backend() {
        sea_orm::DatabaseBackend::Sqlite => db.execute_unprepared("PRAGMA optimize=0x10002").await.map(|_| ()),
        sea_orm::DatabaseBackend::Postgres => db
            .execute_unprepared(
                "ANALYZE listings, votes, listing_follows, listing_categories, listing_founders, founders, listing_metrics, \
                 billboard_contributions, listing_changes",
            )
            .await
            .map(|_| ()),
        _ => Ok(()),
    }
}
