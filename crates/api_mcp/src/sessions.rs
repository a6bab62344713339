//! Legacy MCP sessions (the `initialize` handshake of 2025-03-26 to 2025-11-25), capped: at most
//! `max` live at once, each ended after `idle` without a message. Modern (2026-07-28) requests
//! open no session and are not counted.

use futures_util::Stream;
use rmcp::model::{ClientJsonRpcMessage, ServerJsonRpcMessage};
use rmcp::transport::streamable_http_server::session::local::{LocalSessionManager, LocalSessionManagerError, SessionError};
use rmcp::transport::streamable_http_server::session::{EventStore, ServerSseMessage, SessionId, SessionManager};
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
        Self { inner, max, open: AtomicUsize::new(0), opening: tokio::sync::Mutex::new(()) }
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
