//! `RedisLimiter`: counters shared by every server in Redis; `SharedLimiter`: Redis, or this
//! server's memory while Redis does not answer.

use crate::MemoryLimiter;
use async_trait::async_trait;
use kernel::{RateDecision, RateLimiter, RateQuota};
use redis::aio::{ConnectionManager, ConnectionManagerConfig};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// The GCRA of `kernel::RateDecision::gcra`, run atomically in Redis on Redis's own clock.
/// KEYS[1]: the key. ARGV[1]: microseconds to earn one request back. ARGV[2]: requests per window.
/// Returns {allowed (1 or 0), remaining, microseconds until the whole quota is back, microseconds
/// until the next request is allowed}. The key holds the theoretical arrival time and expires when
/// the bucket is full again.
const GCRA: &str = r"
local time = redis.call('TIME')
local now = tonumber(time[1]) * 1000000 + tonumber(time[2])
local interval = tonumber(ARGV[1])
local tolerance = interval * (tonumber(ARGV[2]) - 1)
local tat = tonumber(redis.call('GET', KEYS[1]) or now)
if tat < now then tat = now end
local after = tat - now
if after > tolerance then
  return {0, 0, after, after - tolerance}
end
local next = tat + interval
redis.call('SET', KEYS[1], string.format('%d', next), 'PX', math.ceil((next - now) / 1000))
return {1, math.floor((tolerance + interval - (next - now)) / interval), next - now, 0}
";

/// Counts in Redis, shared by every server that names the same Redis.
pub struct RedisLimiter {
    connection: ConnectionManager,
    script: redis::Script,
    prefix: String,
}

impl std::fmt::Debug for RedisLimiter {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("RedisLimiter").field("prefix", &self.prefix).finish_non_exhaustive()
    }
}

impl RedisLimiter {
    /// A limiter for the Redis at `url` (`redis://host:6379/0`), whose keys start with `prefix`.
    /// It connects on first use and reconnects by itself, so a Redis that is down at start-up is
    /// not an error. Must be called inside the Tokio runtime.
    ///
    /// # Errors
    /// The URL is not a Redis URL.
    pub fn new(url: &str, prefix: &str) -> Result<Self, redis::RedisError> {
        let client = redis::Client::open(url)?;
        let config = ConnectionManagerConfig::new()
            .set_connection_timeout(Some(Duration::from_millis(500)))
            .set_response_timeout(Some(Duration::from_millis(500)))
            .set_number_of_retries(1)
            .set_max_delay(Duration::from_secs(1));
        let connection = ConnectionManager::new_lazy_with_config(client, config)?;
        Ok(Self { connection, script: redis::Script::new(GCRA), prefix: prefix.to_owned() })
    }

    /// Connects and loads the script, so the first request does not pay for either.
    ///
    /// # Errors
    /// Redis did not answer.
    pub async fn warm_up(&self) -> Result<(), redis::RedisError> {
        let mut connection = self.connection.clone();
        self.script.prepare_invoke().load_async(&mut connection).await.map(drop)
    }

    /// Counts one request in Redis.
    ///
    /// # Errors
    /// Redis did not answer, or answered with an error.
    pub async fn try_check(&self, policy: &str, quota: RateQuota, key: &str) -> Result<RateDecision, redis::RedisError> {
        let interval = u64::try_from(quota.interval().as_micros()).unwrap_or(u64::MAX).max(1);
        let mut connection = self.connection.clone();
        let (allowed, remaining, reset, retry_after): (i64, i64, i64, i64) = self
            .script
            .key(format!("{}{policy}:{key}", self.prefix))
            .arg(interval)
            .arg(quota.requests())
            .invoke_async(&mut connection)
            .await?;
        let micros = |value: i64| Duration::from_micros(u64::try_from(value).unwrap_or(0));
        Ok(RateDecision {
            allowed: allowed == 1,
            remaining: u32::try_from(remaining).unwrap_or(0),
            reset: micros(reset),
            retry_after: micros(retry_after),
        })
    }
}

/// How long a Redis call may take before this server counts on its own.
const ANSWER_WITHIN: Duration = Duration::from_millis(250);
/// After Redis failed, how long to count locally before asking Redis again (so an outage does
/// not cost every request a timeout).
const RETRY_REDIS_AFTER: Duration = Duration::from_secs(1);

/// Redis when it answers, this server's memory when it does not. Never fails a request.
#[derive(Debug)]
pub struct SharedLimiter {
    redis: Arc<RedisLimiter>,
    local: MemoryLimiter,
    /// Set while Redis is taken to be down: until when to count locally.
    local_until: Mutex<Option<Instant>>,
    /// Whether Redis is taken to be down (and the outage logged: once per outage).
    down: AtomicBool,
    /// While Redis is down, one request at a time asks it again; the others count locally
    /// rather than each wait for a Redis that may not answer.
    probing: AtomicBool,
}

impl SharedLimiter {
    /// Inside a Tokio runtime it starts connecting to Redis and loading the script at once.
    pub fn new(redis: RedisLimiter) -> Self {
        let redis = Arc::new(redis);
        if let Ok(runtime) = tokio::runtime::Handle::try_current() {
            let early = redis.clone();
            runtime.spawn(async move {
                if let Err(error) = early.warm_up().await {
                    tracing::debug!(%error, "Redis did not answer at start-up; the first requests will try again");
                }
            });
        }
        Self {
            redis,
            local: MemoryLimiter::new(),
            local_until: Mutex::new(None),
            down: AtomicBool::new(false),
            probing: AtomicBool::new(false),
        }
    }

    /// Whether requests are counted locally because Redis did not answer.
    pub fn counting_locally(&self) -> bool {
        self.down.load(Ordering::Relaxed)
    }

    /// Whether this request asks Redis: always while it answers; while it is down, one request
    /// at a time once the wait is over.
    fn redis_due(&self) -> bool {
        if !self.down.load(Ordering::Acquire) {
            return true;
        }
        let until = self.local_until.lock().map(|until| *until).unwrap_or(None);
        until.is_none_or(|until| Instant::now() >= until)
            && self.probing.compare_exchange(false, true, Ordering::AcqRel, Ordering::Acquire).is_ok()
    }

    fn fall_back(&self, why: &str) {
        if let Ok(mut until) = self.local_until.lock() {
            *until = Some(Instant::now() + RETRY_REDIS_AFTER);
        }
        if !self.down.swap(true, Ordering::Relaxed) {
            tracing::warn!(error = why, "Redis does not answer: rate limits are counted by each server alone until it does");
        }
    }
}

#[async_trait]
impl RateLimiter for SharedLimiter {
    async fn check(&self, policy: &str, quota: RateQuota, key: &str) -> RateDecision {
        if self.redis_due() {
            let answer = tokio::time::timeout(ANSWER_WITHIN, self.redis.try_check(policy, quota, key)).await;
            self.probing.store(false, Ordering::Release);
            match answer {
                Ok(Ok(decision)) => {
                    if self.down.swap(false, Ordering::Relaxed) {
                        tracing::info!("Redis answers again: rate limits are shared across servers again");
                    }
                    return decision;
                }
                Ok(Err(error)) => self.fall_back(&error.to_string()),
                Err(_) => self.fall_back("no answer within 250 ms"),
            }
        }
        self.local.check(policy, quota, key).await
    }
}
