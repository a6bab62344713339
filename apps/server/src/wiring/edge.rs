//! Wiring of what every transport runs a request through: the rate limits (in Redis when
//! `redis_url` is set, so several servers share one quota; in this process's memory otherwise),
//! the answer cache and the idempotency store.

use crate::settings::Settings;
use anyhow::Context;
use http_edge::Edge;
use std::sync::Arc;
use store_seaorm::SeaStore;

pub fn edge(settings: &Settings, store: &SeaStore) -> anyhow::Result<Edge> {
    Ok(Edge {
        limits: rate_limits(settings)?,
        // One count of this server's writes forgets the kept answers and the store's page
        // positions together.
        answers: Arc::new(http_edge::AnswerCache::counting(
            std::time::Duration::from_millis(settings.answer_cache_ms),
            settings.answer_cache_mib.saturating_mul(1024 * 1024),
            store.writes(),
        )),
        idempotency: store.idempotency(),
    })
}

fn rate_limits(settings: &Settings) -> anyhow::Result<http_edge::RateLimits> {
    if !settings.rate_limits.enabled {
        return Ok(http_edge::RateLimits::off());
    }
    let limiter: Arc<dyn kernel::RateLimiter> = match &settings.redis_url {
        Some(url) => {
            let redis = ratelimit::RedisLimiter::new(url, "launchdir:ratelimit:")
                .with_context(|| format!("cannot use the Redis at {}", crate::settings::redact_url(url)))?;
            Arc::new(ratelimit::SharedLimiter::new(redis))
        }
        None => Arc::new(ratelimit::MemoryLimiter::new()),
    };
    Ok(http_edge::RateLimits::new(limiter, settings.rate_quotas()?))
}
