//! The HTTP edge that REST, the tool server and the pages share: who the client is
//! (`limits::client_ip`, behind trusted proxies), counting requests against the rate classes
//! and the `RateLimit` headers (`limits`), `Idempotency-Key` and running an operation
//! (`Edge::execute`, in `idempotency`), the answer cache of public reads and visitors' pages (`answers`),
//! and gzip and ETags made once per kept answer (`encoding`). Transports hold an [`Edge`] beside
//! the operations' `ops::App`.

pub mod answers;
pub mod encoding;
pub mod idempotency;
pub mod limits;

pub use answers::{AnswerCache, KnownWriter};
pub use encoding::KeptBody;
pub use idempotency::{Answer, Executed};
pub use limits::{Admission, ClientIp, RateLimits, RateStatus};

use kernel::IdempotencyStore;
use ops::{Caller, OpError, RateClass};
use std::net::IpAddr;
use std::sync::Arc;

/// What every transport runs a request through, built once by the server.
#[derive(Clone)]
pub struct Edge {
    /// The rate limits every operation, page and OAuth endpoint counts against.
    pub limits: RateLimits,
    /// The public reads' answers and visitors' pages, kept a moment (`answer_cache_ms`).
    pub answers: Arc<AnswerCache>,
    /// What `Idempotency-Key` remembers.
    pub idempotency: Arc<dyn IdempotencyStore>,
}

impl Edge {
    /// Counts an authenticated request against each class it belongs to (`limits::admit`).
    pub async fn admit(&self, classes: &[RateClass], authenticated: Result<Caller, OpError>, client: IpAddr) -> Admission {
        limits::admit(&self.limits, classes, authenticated, client).await
    }
}
