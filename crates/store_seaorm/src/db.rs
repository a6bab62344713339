//! Opening the database: SQLite with WAL and foreign keys, or PostgreSQL, from one URL.

use migration::{Migrator, MigratorTrait};
use sea_orm::sqlx::sqlite::SqliteJournalMode;
use sea_orm::{ConnectOptions, ConnectionTrait, Database, DatabaseConnection, DbErr};
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
}

impl DbConfig {
    pub fn new(url: impl Into<String>) -> Self {
        Self { url: url.into(), max_connections: 16, schema: None }
    }
}

/// Opens a connection pool. SQLite files are created when missing, in WAL mode with foreign
/// keys enforced and a busy timeout, so readers never block the writer.
pub async fn connect(config: &DbConfig) -> Result<DatabaseConnection, DbErr> {
    let backend =
        Backend::of_url(&config.url).ok_or_else(|| DbErr::Custom("database URL must start with sqlite: or postgres://".into()))?;
    let mut options = ConnectOptions::new(config.url.clone());
    options
        .max_connections(config.max_connections)
        .min_connections(1)
        .connect_timeout(Duration::from_secs(10))
        .acquire_timeout(Duration::from_secs(10))
        .sqlx_logging(false);
    match backend {
        Backend::Sqlite => {
            options.map_sqlx_sqlite_opts(|opts| {
                opts.create_if_missing(true)
                    .journal_mode(SqliteJournalMode::Wal)
                    .foreign_keys(true)
                    .busy_timeout(Duration::from_secs(10))
                    .synchronous(sea_orm::sqlx::sqlite::SqliteSynchronous::Normal)
            });
        }
        Backend::Postgres => {
            if let Some(schema) = &config.schema {
                options.set_schema_search_path(schema.clone());
            }
        }
    }
    Database::connect(options).await
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

/// After a bulk load: on PostgreSQL, `VACUUM (ANALYZE)` of the directory's tables, which sets
/// the rows' hint bits and the visibility map now (so index-only scans skip the table) rather
/// than leaving it to autovacuum, which would do it while the server answers, a burst of work
/// on every row at a moment nobody chose; on SQLite, [`optimize`]. Cannot run inside a
/// transaction.
pub async fn settle_after_bulk_load(db: &DatabaseConnection) -> Result<(), DbErr> {
    match db.get_database_backend() {
        sea_orm::DatabaseBackend::Postgres => db
            .execute_unprepared(
                "VACUUM (ANALYZE) listings, votes, listing_follows, listing_categories, listing_founders, founders, listing_metrics, listing_changes, awards",
            )
            .await
            .map(|_| ()),
        _ => optimize(db).await,
    }
}

/// Refreshes the planner's statistics, so it knows `status = 'live'` matches most of the
/// directory and picks the ranked indexes: on SQLite of the tables that need it (cheap when
/// nothing changed; also at every start), on PostgreSQL of the directory's tables (`ANALYZE`:
/// autovacuum would, but only a while after a bulk load). Run after a bulk seed and by the daily purge.
pub async fn optimize(db: &DatabaseConnection) -> Result<(), DbErr> {
    match db.get_database_backend() {
        sea_orm::DatabaseBackend::Sqlite => db.execute_unprepared("PRAGMA optimize=0x10002").await.map(|_| ()),
        sea_orm::DatabaseBackend::Postgres => db
            .execute_unprepared(
                "ANALYZE listings, votes, listing_follows, listing_categories, listing_founders, founders, listing_metrics, listing_changes",
            )
            .await
            .map(|_| ()),
        _ => Ok(()),
    }
}
