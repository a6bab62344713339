//! Legacy MCP sessions (the `initialize` handshake of 2025-03-26 to 2025-11-25), capped: at most
//! `max` live at once, each ended after `idle` without a message, and at most a tenth of them
//! (`share`) opened from one client network (an IPv4 address, an IPv6 /64), so one client
//! cannot hold every place. Modern (2026-07-28) requests open no session and are not counted.

use futures_util::Stream;
use rmcp::model::{ClientJsonRpcMessage, ServerJsonRpcMessage};
use rmcp::transport::streamable_http_server::session::local::{LocalSessionManager, LocalSessionManagerError, SessionError};
use rmcp::transport::streamable_http_server::session::{EventStore, ServerSseMessage, SessionId, SessionManager};
use std::collections::HashMap;
use std::net::IpAddr;
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Duration;

/// Why a session could not be opened or used.
#[derive(Debug, thiserror::Error)]
pub enum SessionsError {
    #[error("{0} MCP sessions are open, the most this server keeps; try again in a minute")]
    Full(usize),
    #[error(transparent)]
    Local(#[from] LocalSessionManagerError),
}

/// rmcp's in-memory sessions with a cap and an idle timeout.
pub struct CappedSessions {
    inner: LocalSessionManager,
    max: usize,
    /// Sessions open: raised when one is created, lowered when one is removed (by DELETE, by
    /// its idle timeout, or by a failed handshake), so it never waits on the session map's lock.
    open: AtomicUsize,
    /// Held while a session is opened, so the count checked is the count kept.
    opening: tokio::sync::Mutex<()>,
    /// The most sessions one client network may hold.
    share: usize,
    /// Sessions per client network, and the network of each session, counted from the moment
    /// the guard lets a handshake through (`reserve`) until the session ends.
    networks: std::sync::Mutex<Networks>,
}

#[derive(Debug, Default)]
struct Networks {
    held: HashMap<IpAddr, usize>,
    of_session: HashMap<String, IpAddr>,
}

impl Networks {
    fn release(&mut self, network: IpAddr) {
        if let Some(count) = self.held.get_mut(&network) {
            *count = count.saturating_sub(1);
            if *count == 0 {
                self.held.remove(&network);
            }
        }
    }
}

/// A place one client network holds for a handshake under way: kept by `bind` once the
/// session exists, given back when dropped otherwise.
#[derive(Debug)]
pub struct Reservation {
    sessions: Arc<CappedSessions>,
    network: Option<IpAddr>,
}

impl Reservation {
    /// The handshake opened `session`: the place stays taken until it ends.
    pub fn bind(mut self, session: &str) {
        if let Some(network) = self.network.take() {
            self.sessions.lock_networks().of_session.insert(session.to_owned(), network);
        }
    }
}

impl Drop for Reservation {
    fn drop(&mut self) {
        if let Some(network) = self.network.take() {
            self.sessions.lock_networks().release(network);
        }
    }
}

impl std::fmt::Debug for CappedSessions {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("CappedSessions").field("max", &self.max).field("open", &self.open()).finish()
    }
}

impl CappedSessions {
    /// At most `max` sessions; a session without a message for `idle` ends and frees its memory.
    pub fn new(max: usize, idle: Duration) -> Self {
        let mut inner = LocalSessionManager::default();
        inner.session_config.keep_alive = Some(idle);
        Self {
            inner,
            max,
            open: AtomicUsize::new(0),
            opening: tokio::sync::Mutex::new(()),
            share: max.div_ceil(10),
            networks: std::sync::Mutex::new(Networks::default()),
        }
    }

    /// The most sessions one client network may hold (a tenth of the cap, at least one).
    pub fn share(&self) -> usize {
        self.share
    }

    fn lock_networks(&self) -> std::sync::MutexGuard<'_, Networks> {
        self.networks.lock().unwrap_or_else(|poisoned| poisoned.into_inner())
    }

    /// Gives back the place of session `id`'s network.
    fn forget_network_of(&self, id: &SessionId) {
        let mut networks = self.lock_networks();
        if let Some(network) = networks.of_session.remove(&id.to_string()) {
            networks.release(network);
        }
    }

    /// Takes a place for a handshake from `client` (counted by its network), or `None` when
    /// that network holds its whole share already.
    pub fn reserve(self: &Arc<Self>, client: IpAddr) -> Option<Reservation> {
        let network = kernel::client_network(client);
        let mut networks = self.lock_networks();
        let held = networks.held.entry(network).or_default();
        if *held >= self.share {
            return None;
        }
        *held += 1;
        Some(Reservation { sessions: self.clone(), network: Some(network) })
    }

    /// Sessions open now.
    pub fn open(&self) -> usize {
        self.open.load(Ordering::Acquire)
    }

    /// Whether a new session would be refused.
    pub fn is_full(&self) -> bool {
        self.open() >= self.max
    }
}

impl SessionManager for CappedSessions {
    type Error = SessionsError;
    type Transport = <LocalSessionManager as SessionManager>::Transport;

    async fn create_session(&self) -> Result<(SessionId, Self::Transport), SessionsError> {
        let _opening = self.opening.lock().await;
        if self.open() >= self.max {
            return Err(SessionsError::Full(self.max));
        }
        let created = self.inner.create_session().await?;
        self.open.fetch_add(1, Ordering::AcqRel);
        Ok(created)
    }

    async fn initialize_session(&self, id: &SessionId, message: ClientJsonRpcMessage) -> Result<ServerJsonRpcMessage, SessionsError> {
        Ok(self.inner.initialize_session(id, message).await?)
    }

    async fn has_session(&self, id: &SessionId) -> Result<bool, SessionsError> {
        Ok(self.inner.has_session(id).await?)
    }

    /// As `LocalSessionManager::close_session`, counting only a session that was there (rmcp
    /// closes a session both on DELETE and when its worker ends, and unknown ids close too).
    async fn close_session(&self, id: &SessionId) -> Result<(), SessionsError> {
        let removed = self.inner.sessions.write().await.remove(id);
        if let Some(handle) = removed {
            self.open.fetch_sub(1, Ordering::AcqRel);
            self.forget_network_of(id);
            match handle.close().await {
                // The worker has already ended: nothing is left to stop.
                Ok(()) | Err(SessionError::SessionServiceTerminated) => {}
                Err(error) => return Err(SessionsError::Local(error.into())),
            }
        }
        Ok(())
    }

    async fn create_stream(
        &self,
        id: &SessionId,
        message: ClientJsonRpcMessage,
    ) -> Result<impl Stream<Item = ServerSseMessage> + Send + Sync + 'static, SessionsError> {
        Ok(self.inner.create_stream(id, message).await?)
    }

    async fn accept_message(&self, id: &SessionId, message: ClientJsonRpcMessage) -> Result<(), SessionsError> {
        Ok(self.inner.accept_message(id, message).await?)
    }

    async fn create_standalone_stream(
        &self,
        id: &SessionId,
    ) -> Result<impl Stream<Item = ServerSseMessage> + Send + Sync + 'static, SessionsError> {
        Ok(self.inner.create_standalone_stream(id).await?)
    }

    async fn resume(
        &self,
        id: &SessionId,
        last_event_id: String,
    ) -> Result<impl Stream<Item = ServerSseMessage> + Send + Sync + 'static, SessionsError> {
        Ok(self.inner.resume(id, last_event_id).await?)
    }

    fn event_store(&self) -> Option<Arc<dyn EventStore>> {
        self.inner.event_store()
    }
}
