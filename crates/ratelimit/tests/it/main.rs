//! The limiters against the kernel's GCRA: in memory, in a real Redis (`LAUNCHDIR_TEST_REDIS`,
//! default `redis://127.0.0.1:6379`), and falling back to memory when Redis does not answer.

use kernel::{RateDecision, RateLimiter, RateQuota};
use ratelimit::{MemoryLimiter, RedisLimiter, SharedLimiter};
use std::time::Duration;

fn redis_url() -> String {
    std::env::var("LAUNCHDIR_TEST_REDIS").unwrap_or_else(|_| "redis://127.0.0.1:6379".into())
}

/// A key prefix no other test run uses.
fn prefix() -> String {
    format!("launchdir-test:{}:{}:", std::process::id(), kernel::secrets::random_token().unwrap())
}

/// Spends a quota of 3 an hour: three allowed with 2, 1, 0 left, then refused with about 20
/// minutes to wait (one request comes back per interval).
async fn spend(check: impl AsyncFn() -> RateDecision) {
    let quota = RateQuota::per_hour(3);
    let mut remaining = Vec::new();
    for _ in 0..3 {
        let decision = check().await;
        assert!(decision.allowed);
        assert!(decision.reset <= quota.window());
        remaining.push(decision.remaining);
    }
    assert_eq!(remaining, [2, 1, 0]);
    let refused = check().await;
    assert!(!refused.allowed);
    assert_eq!(refused.remaining, 0);
    let interval = quota.interval();
    assert!(refused.retry_after <= interval && refused.retry_after > interval - Duration::from_secs(60), "{refused:?}");
    assert!(refused.reset > quota.window() - Duration::from_secs(60) && refused.reset <= quota.window(), "{refused:?}");
}

#[tokio::test]
async fn memory_spends_a_quota_then_refuses() {
    let limiter = MemoryLimiter::new();
    spend(async || limiter.check("submit_listing", RateQuota::per_hour(3), "user:1").await).await;
    // Another key, and the same key under another policy, have budgets of their own.
    assert!(limiter.check("submit_listing", RateQuota::per_hour(3), "user:2").await.allowed);
    assert!(limiter.check("write", RateQuota::per_hour(3), "user:1").await.allowed);
}

#[tokio::test]
async fn memory_forgets_keys_whose_bucket_is_full_again() {
    let limiter = MemoryLimiter::new();
    let quick = RateQuota::new(1000, Duration::from_millis(100)).unwrap();
    for n in 0..500 {
        limiter.check("read_anonymous", quick, &format!("ip:10.0.{}.{}", n / 256, n % 256)).await;
    }
    assert_eq!(limiter.keys(), 500);
    tokio::time::sleep(Duration::from_millis(50)).await;
    limiter.forget_idle();
    assert_eq!(limiter.keys(), 0, "a key idle for longer than its interval is as good as new");
}

#[tokio::test]
async fn redis_spends_a_quota_then_refuses_and_servers_share_it() {
    let prefix = prefix();
    let first = RedisLimiter::new(&redis_url(), &prefix).unwrap();
    let second = RedisLimiter::new(&redis_url(), &prefix).unwrap();
    let quota = RateQuota::per_hour(3);
    let turn = std::sync::atomic::AtomicUsize::new(0);
    // Two servers take turns: together they get the quota once.
    spend(async || {
        let limiter = if turn.fetch_add(1, std::sync::atomic::Ordering::Relaxed).is_multiple_of(2) { &first } else { &second };
        limiter.try_check("submit_listing", quota, "user:1").await.expect("Redis answers at LAUNCHDIR_TEST_REDIS")
    })
    .await;
    assert!(first.try_check("submit_listing", quota, "user:2").await.unwrap().allowed);
}

#[tokio::test]
async fn redis_gives_what_the_kernel_gcra_gives() {
    let limiter = RedisLimiter::new(&redis_url(), &prefix()).unwrap();
    let quota = RateQuota::per_minute(5);
    let mut tat = Duration::ZERO;
    for _ in 0..7 {
        let (expected, next) = RateDecision::gcra(quota, tat);
        tat = next;
        let got = limiter.try_check("read", quota, "user:9").await.unwrap();
        assert_eq!((got.allowed, got.remaining), (expected.allowed, expected.remaining));
        // Redis's clock moved a little between calls; the times agree to within a second.
        let near = |a: Duration, b: Duration| a.abs_diff(b) < Duration::from_secs(1);
        assert!(near(got.reset, expected.reset) && near(got.retry_after, expected.retry_after), "{got:?} vs {expected:?}");
    }
}

#[tokio::test]
async fn without_redis_requests_are_counted_in_memory_and_never_fail() {
    // Nothing listens on port 1.
    let shared = SharedLimiter::new(RedisLimiter::new("redis://127.0.0.1:1", &prefix()).unwrap());
    spend(async || shared.check("sign_in", RateQuota::per_hour(3), "ip:203.0.113.7").await).await;
    assert!(shared.counting_locally());
}

#[tokio::test]
async fn with_redis_the_shared_limiter_counts_in_redis() {
    let prefix = prefix();
    let shared = SharedLimiter::new(RedisLimiter::new(&redis_url(), &prefix).unwrap());
    let other_server = RedisLimiter::new(&redis_url(), &prefix).unwrap();
    let quota = RateQuota::per_hour(2);
    assert!(shared.check("oauth_register", quota, "ip:203.0.113.7").await.allowed);
    assert!(other_server.try_check("oauth_register", quota, "ip:203.0.113.7").await.unwrap().allowed);
    assert!(!shared.check("oauth_register", quota, "ip:203.0.113.7").await.allowed, "the other server spent the rest");
    assert!(!shared.counting_locally());
}
