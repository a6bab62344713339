//! Opening the configured database: as the commands and tests do (connections opened as they
//! are needed), as a serving process does (on PostgreSQL, the connections it keeps opened
//! before it answers), and for the writes a server makes for itself (`bookkeeping`).

use crate::settings::Settings;
use anyhow::Context;
use std::time::Instant;
use store_seaorm::{DatabaseConnection, DbConfig};

/// Opens the configured database, its connections opened as they are first needed (for the
/// commands and tests; a server keeps its connections open, see [`open_serving_database`]).
pub async fn open_database(settings: &Settings) -> anyhow::Result<DatabaseConnection> {
    open_with(settings, &database_config(settings)).await
}

/// Opens the database for a serving process: on PostgreSQL the connections it keeps open
/// (`database_min_connections`) are opened before it returns, so no request waits for one.
pub(crate) async fn open_serving_database(settings: &Settings) -> anyhow::Result<DatabaseConnection> {
    let config = DbConfig {
        min_connections: settings.database_min_connections.unwrap_or(settings.database_max_connections),
        ..database_config(settings)
    };
    let started = Instant::now();
    let db = open_with(settings, &config).await?;
    tracing::info!(elapsed_ms = started.elapsed().as_millis() as u64, "opened the database");
    Ok(db)
}

/// The one connection a server opens for its own writes (see `crate::bookkeeping`).
pub(crate) fn bookkeeping_database_config(settings: &Settings) -> DbConfig {
    DbConfig { max_connections: 1, min_connections: 1, ..database_config(settings) }
}

fn database_config(settings: &Settings) -> DbConfig {
    DbConfig {
        max_connections: settings.database_max_connections,
        schema: settings.database_schema.clone(),
        ..DbConfig::new(settings.database_url())
    }
}

async fn open_with(settings: &Settings, config: &DbConfig) -> anyhow::Result<DatabaseConnection> {
    if settings.uses_embedded_database() {
        std::fs::create_dir_all(&settings.data_dir)
            .with_context(|| format!("cannot create the data directory {}", settings.data_dir.display()))?;
    }
    store_seaorm::connect(config).await.with_context(|| format!("cannot open the database {}", crate::settings::redact_url(&config.url)))
}
