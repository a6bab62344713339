//! `MemoryLimiter`: the counters of one server, a keyed GCRA (governor) per policy and quota.

use async_trait::async_trait;
use governor::clock::{Clock, DefaultClock};
use governor::middleware::StateInformationMiddleware;
use governor::state::keyed::DashMapStateStore;
use governor::{Quota, RateLimiter as Governor};
use kernel::{RateDecision, RateLimiter, RateQuota};
use std::collections::HashMap;
use std::num::NonZeroU32;
use std::sync::{Arc, Mutex, RwLock};
use std::time::{Duration, Instant};

type Keyed = Governor<String, DashMapStateStore<String>, DefaultClock, StateInformationMiddleware>;

/// How often keys whose bucket is full again are dropped.
const SWEEP_EVERY: Duration = Duration::from_secs(60);

/// Counts in this process's memory.
pub struct MemoryLimiter {
    clock: DefaultClock,
    /// One keyed limiter per policy and quota (a quota change makes a new one).
    limiters: RwLock<HashMap<(String, RateQuota), Arc<Keyed>>>,
    last_sweep: Mutex<Instant>,
}

impl Default for MemoryLimiter {
    fn default() -> Self {
        Self { clock: DefaultClock::default(), limiters: RwLock::default(), last_sweep: Mutex::new(Instant::now()) }
    }
}

impl std::fmt::Debug for MemoryLimiter {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("MemoryLimiter").field("keys", &self.keys()).finish()
    }
}

impl MemoryLimiter {
    pub fn new() -> Self {
        Self::default()
    }

    /// Keys counted now, over every policy.
    pub fn keys(&self) -> usize {
        self.limiters.read().map(|limiters| limiters.values().map(|limiter| limiter.len()).sum()).unwrap_or(0)
    }

    /// Drops the keys whose bucket is full again: they are indistinguishable from keys never seen.
    pub fn forget_idle(&self) {
        if let Ok(limiters) = self.limiters.read() {
            for limiter in limiters.values() {
                limiter.retain_recent();
                limiter.shrink_to_fit();
            }
        }
    }

    fn limiter(&self, policy: &str, quota: RateQuota) -> Arc<Keyed> {
        let id = (policy.to_owned(), quota);
        if let Some(limiter) = self.limiters.read().ok().and_then(|limiters| limiters.get(&id).cloned()) {
            return limiter;
        }
        let mut limiters = self.limiters.write().unwrap_or_else(std::sync::PoisonError::into_inner);
        limiters
            .entry(id)
            .or_insert_with(|| {
                let burst = NonZeroU32::new(quota.requests()).unwrap_or(NonZeroU32::MIN);
                // `interval` is never zero for a `RateQuota`; a nanosecond stands in if it were.
                let per = Quota::with_period(quota.interval()).unwrap_or_else(|| Quota::per_second(NonZeroU32::MAX));
                Arc::new(Governor::dashmap_with_clock(per.allow_burst(burst), self.clock.clone()).with_middleware())
            })
            .clone()
    }

    fn sweep_if_due(&self) {
        let due = match self.last_sweep.try_lock() {
            Ok(mut last) if last.elapsed() >= SWEEP_EVERY => {
                *last = Instant::now();
                true
            }
            _ => false,
        };
        if due {
            self.forget_idle();
        }
    }
}

#[async_trait]
impl RateLimiter for MemoryLimiter {
    async fn check(&self, policy: &str, quota: RateQuota, key: &str) -> RateDecision {
        self.sweep_if_due();
        let interval = quota.interval();
        match self.limiter(policy, quota).check_key(&key.to_owned()) {
            Ok(snapshot) => {
                let remaining = snapshot.remaining_burst_capacity();
                RateDecision { allowed: true, remaining, reset: interval * (quota.requests() - remaining), retry_after: Duration::ZERO }
            }
            Err(refused) => {
                let retry_after = refused.wait_time_from(self.clock.now());
                RateDecision { allowed: false, remaining: 0, reset: retry_after + interval * (quota.requests() - 1), retry_after }
            }
        }
    }
}
