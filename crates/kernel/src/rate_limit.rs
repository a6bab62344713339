//! Rate limits: a quota of requests per window, and the port that counts requests against one.
//!
//! The quota is enforced as a GCRA ("leaky bucket as a meter"): a key may spend its whole quota
//! at once, then earns one request back every `window / requests`. Every adapter follows the same
//! arithmetic, so a deployment that moves from one server (memory) to several (Redis) keeps the
//! same behaviour.

use async_trait::async_trait;
use std::fmt;
use std::time::Duration;

/// A number of requests per window, e.g. 600 a minute.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct RateQuota {
    requests: u32,
    window: Duration,
}

impl RateQuota {
    /// `requests` per `window`; `None` when either is zero.
    pub const fn new(requests: u32, window: Duration) -> Option<Self> {
        if requests == 0 || window.is_zero() { None } else { Some(Self { requests, window }) }
    }

    pub const fn per_minute(requests: u32) -> Self {
        Self { requests: if requests == 0 { 1 } else { requests }, window: Duration::from_secs(60) }
    }

    pub const fn per_hour(requests: u32) -> Self {
        Self { requests: if requests == 0 { 1 } else { requests }, window: Duration::from_secs(3600) }
    }

    /// Reads `600/minute`, `20/hour`, `10/min`, `5/s`, `100/day` (a whole number of requests, a
    /// slash, and one of second, minute, hour, day or their short forms s, min, h, d).
    pub fn parse(text: &str) -> Result<Self, String> {
        let wrong = || format!("`{text}` is not a rate: write requests per window, like `600/minute` or `20/hour`");
        let (count, unit) = text.trim().split_once('/').ok_or_else(wrong)?;
        let requests: u32 = count.trim().parse().map_err(|_| wrong())?;
        let seconds = match unit.trim().to_ascii_lowercase().as_str() {
            "s" | "sec" | "second" => 1,
            "m" | "min" | "minute" => 60,
            "h" | "hour" => 3600,
            "d" | "day" => 86_400,
            _ => return Err(wrong()),
        };
        Self::new(requests, Duration::from_secs(seconds)).ok_or_else(|| format!("`{text}`: a rate needs at least one request"))
    }

    /// Requests a key may make per window.
    pub const fn requests(&self) -> u32 {
        self.requests
    }

    /// The window the requests are counted over.
    pub const fn window(&self) -> Duration {
        self.window
    }

    /// How long it takes to earn one request back.
    pub fn interval(&self) -> Duration {
        self.window / self.requests
    }
}

impl fmt::Display for RateQuota {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let unit = match self.window.as_secs() {
            1 => "second".to_owned(),
            60 => "minute".to_owned(),
            3600 => "hour".to_owned(),
            86_400 => "day".to_owned(),
            other => format!("{other} s"),
        };
        write!(f, "{}/{unit}", self.requests)
    }
}

/// What counting one request decided.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RateDecision {
    pub allowed: bool,
    /// Requests the key may still make at once.
    pub remaining: u32,
    /// Until the key has its whole quota again.
    pub reset: Duration,
    /// Until the next request is allowed (zero when this one was).
    pub retry_after: Duration,
}

impl RateDecision {
    /// The decision the GCRA makes for a key whose theoretical arrival time (when its bucket is
    /// empty again, counted from `now`) is `tat_after_now`, for one more request. Adapters that
    /// keep the arrival time themselves (Redis) share this arithmetic through their script; this
    /// is the reference the tests hold them to.
    pub fn gcra(quota: RateQuota, tat_after_now: Duration) -> (Self, Duration) {
        let interval = quota.interval();
        let tolerance = interval * (quota.requests - 1);
        if tat_after_now > tolerance {
            let retry_after = tat_after_now - tolerance;
            let decision = Self { allowed: false, remaining: 0, reset: tat_after_now, retry_after };
            return (decision, tat_after_now);
        }
        let next = tat_after_now + interval;
        let spare = (tolerance + interval).saturating_sub(next);
        let remaining = u32::try_from(spare.as_nanos() / interval.as_nanos().max(1)).unwrap_or(u32::MAX);
        (Self { allowed: true, remaining, reset: next, retry_after: Duration::ZERO }, next)
    }
}

/// Counts requests against quotas, per key (`read_anonymous:ip:203.0.113.7`).
#[async_trait]
pub trait RateLimiter: Send + Sync {
    /// Counts one request of `key` under `policy` with `quota`, and says whether it may run.
    ///
    /// # Errors
    /// None: a limiter never fails a request. An adapter that cannot reach its shared store
    /// decides with local counters instead (and says so in its logs).
    async fn check(&self, policy: &str, quota: RateQuota, key: &str) -> RateDecision;
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rates_are_read_from_text() {
        assert_eq!(RateQuota::parse("600/minute"), Ok(RateQuota::per_minute(600)));
        assert_eq!(RateQuota::parse(" 20 / hour "), Ok(RateQuota::per_hour(20)));
        assert_eq!(RateQuota::parse("10/min").unwrap().window(), Duration::from_secs(60));
        assert_eq!(RateQuota::parse("5/s").unwrap().window(), Duration::from_secs(1));
        assert_eq!(RateQuota::parse("100/day").unwrap().window(), Duration::from_secs(86_400));
        for bad in ["", "600", "600/fortnight", "-1/minute", "0/minute", "many/hour", "1.5/hour"] {
            assert!(RateQuota::parse(bad).is_err(), "{bad:?}");
        }
        assert_eq!(RateQuota::per_hour(20).to_string(), "20/hour");
    }

    #[test]
    fn the_gcra_spends_the_quota_at_once_then_earns_a_request_per_interval() {
        let quota = RateQuota::per_minute(3);
        let mut tat = Duration::ZERO;
        let mut remaining = Vec::new();
        for _ in 0..3 {
            let (decision, next) = RateDecision::gcra(quota, tat);
            assert!(decision.allowed);
            remaining.push(decision.remaining);
            tat = next;
        }
        assert_eq!(remaining, [2, 1, 0]);
        assert_eq!(tat, Duration::from_secs(60), "the whole quota is back a window after it was spent");
        let (refused, unchanged) = RateDecision::gcra(quota, tat);
        assert!(!refused.allowed);
        assert_eq!(unchanged, tat, "a refused request costs nothing");
        assert_eq!(refused.retry_after, Duration::from_secs(20), "one request comes back per interval");
        assert_eq!(refused.reset, Duration::from_secs(60));
        // Twenty seconds later one request is allowed again, and it is the last.
        let (allowed, _) = RateDecision::gcra(quota, tat - Duration::from_secs(20));
        assert_eq!((allowed.allowed, allowed.remaining), (true, 0));
    }
}
