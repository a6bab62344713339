//! The `Clock` port: all time in the domain comes from here, so tests can move it.

use std::sync::Mutex;
use time::{Duration, OffsetDateTime};

/// Where the current time comes from.
pub trait Clock: Send + Sync {
    /// The current instant, in UTC.
    fn now(&self) -> OffsetDateTime;
}

/// The real wall clock.
#[derive(Debug, Default, Clone, Copy)]
pub struct SystemClock;

impl Clock for SystemClock {
    fn now(&self) -> OffsetDateTime {
        OffsetDateTime::now_utc()
    }
}

/// A clock that stands still until a test moves it.
#[derive(Debug)]
pub struct FixedClock {
    now: Mutex<OffsetDateTime>,
}

impl FixedClock {
    pub fn new(at: OffsetDateTime) -> Self {
        Self { now: Mutex::new(at) }
    }

    /// Moves the clock forward (or back, with a negative duration).
    pub fn advance(&self, by: Duration) {
        let mut now = self.now.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
        *now += by;
    }

    pub fn set(&self, at: OffsetDateTime) {
        *self.now.lock().unwrap_or_else(|poisoned| poisoned.into_inner()) = at;
    }
}

impl Clock for FixedClock {
    fn now(&self) -> OffsetDateTime {
        *self.now.lock().unwrap_or_else(|poisoned| poisoned.into_inner())
    }
}
