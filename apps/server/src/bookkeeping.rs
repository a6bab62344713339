//! The writes a server makes for itself rather than for a request: counted page views, every
//! `view_flush_seconds` and once more as it stops, and its workers' jobs handed back at the end.
//! They go through one connection of their own, opened on the server's main runtime.
//!
//! Why a connection of their own: a pooled PostgreSQL connection belongs to the runtime that
//! opened it, an HTTP worker's when a request opened it, and those runtimes shut down as the
//! server stops. A write on such a connection can reach the database and still fail here; the
//! views, put back and written again, would count twice.

use crate::settings::Settings;
use anyhow::Context;
use kernel::Clock;
use std::sync::Arc;
use std::time::Duration;
use store_seaorm::{DatabaseConnection, SeaStore};
use tokio::sync::watch;

/// The server's own writes: the periodic views flush runs from `start` to `finish`.
pub(crate) struct Bookkeeping {
    db: DatabaseConnection,
    profiles: listings::ProfileService,
    queue: Arc<dyn kernel::JobQueue>,
    clock: Arc<dyn Clock>,
    /// The job workers' names, to hand their jobs back.
    workers: Vec<String>,
    stop_flushing: watch::Sender<bool>,
    flushing: tokio::task::JoinHandle<()>,
}

impl Bookkeeping {
    /// Opens the connection and starts writing the views `profiles` counts.
    pub(crate) async fn start(
        settings: &Settings,
        profiles: &listings::ProfileService,
        clock: Arc<dyn Clock>,
        workers: Vec<String>,
    ) -> anyhow::Result<Self> {
        let db = store_seaorm::connect(&crate::database::bookkeeping_database_config(settings))
            .await
            .context("cannot open the connection for the server's own writes")?;
        let store = SeaStore::new(db.clone());
        let profiles = profiles.writing_to(store.profiles());
        let (stop_flushing, stop) = watch::channel(false);
        let flushing = tokio::spawn(flush_views(profiles.clone(), settings.view_flush_seconds, stop));
        Ok(Self { db, profiles, queue: store.jobs(), clock, workers, stop_flushing, flushing })
    }

    /// Once the server has stopped: lets a views flush under way finish (never cut off between
    /// taking the counts and writing them), hands the workers' jobs back, writes the views
    /// counted since, and closes the connection.
    pub(crate) async fn finish(self) {
        let _ = self.stop_flushing.send(true);
        let _ = self.flushing.await;
        // Jobs the workers were running go back to the queue, due now: the next start (here or
        // on another node) resumes them at once instead of waiting out their leases.
        match self.queue.release(&self.workers, self.clock.now()).await {
            Ok(0) => {}
            Ok(released) => tracing::info!(released, "handed unfinished jobs back to the queue"),
            Err(err) => tracing::warn!(error = %err, "could not hand unfinished jobs back; they resume when their leases expire"),
        }
        // A busy database gets a few more tries (a failed flush keeps the views for the next).
        for attempt in 1..=5 {
            match self.profiles.flush_views().await {
                Ok(_) => break,
                Err(err) if attempt < 5 => {
                    tracing::warn!(error = %err, attempt, "could not write the last page views; trying again");
                    tokio::time::sleep(Duration::from_millis(200)).await;
                }
                Err(err) => tracing::error!(error = %err, "could not write the last page views; they are lost"),
            }
        }
        self.db.close().await.ok();
    }
}

/// Writes counted page views every `every_seconds` (one batched write per period, never one per
/// view) until told to stop; a stop waits for a write under way.
async fn flush_views(profiles: listings::ProfileService, every_seconds: u64, mut stop: watch::Receiver<bool>) {
    loop {
        tokio::select! {
            () = tokio::time::sleep(Duration::from_secs(every_seconds.max(1))) => {}
            _ = stop.changed() => return,
        }
        if let Err(err) = profiles.flush_views().await {
            tracing::warn!(error = %err, "could not write page views; they are kept for the next flush");
        }
    }
}
