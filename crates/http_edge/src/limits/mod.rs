//! Rate limits, enforced once for every transport: each operation declares its [`RateClass`] on
//! its registry entry, and [`admit`] authenticates the caller, then counts the request against the
//! class's quota (per principal when signed in, per client address otherwise) before idempotency
//! and the use case run. The pages and the OAuth endpoints count against the same limiter through
//! [`RateLimits::check`].
//!
//! The answer's `RateLimit-Policy` and `RateLimit` headers follow draft-ietf-httpapi-ratelimit-headers:
//! `"read";q=600;w=60` and `"read";r=599;t=1`.

mod client;

pub use client::{ClientIp, TrustedProxies, client_ip};

use kernel::{RateLimiter, RateQuota, UserId};
use ops::{Caller, OpError, RateClass, RateQuotas};
use std::net::IpAddr;
use std::sync::Arc;

/// The header naming the quota a response was counted under (`RateLimit-Policy`; header names
/// are case-insensitive and HTTP/2 sends them in lower case).
pub const RATE_LIMIT_POLICY: &str = "ratelimit-policy";
/// The header saying what is left of that quota (`RateLimit`).
pub const RATE_LIMIT: &str = "ratelimit";

/// Where a request was counted: what the two headers say.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RateStatus {
    pub policy: RateClass,
    pub quota: RateQuota,
    pub remaining: u32,
    /// Seconds until the whole quota is back.
    pub reset_seconds: u64,
    /// Seconds to wait when the request was refused.
    pub retry_after: Option<u32>,
}

impl RateStatus {
    /// `RateLimit-Policy: "read";q=600;w=60`
    pub fn policy_header(&self) -> String {
        format!("\"{}\";q={};w={}", self.policy.name(), self.quota.requests(), self.quota.window().as_secs())
    }

    /// `RateLimit: "read";r=599;t=1`
    pub fn limit_header(&self) -> String {
        format!("\"{}\";r={};t={}", self.policy.name(), self.remaining, self.reset_seconds)
    }

    /// Both headers, by name.
    pub fn headers(&self) -> [(&'static str, String); 2] {
        [(RATE_LIMIT_POLICY, self.policy_header()), (RATE_LIMIT, self.limit_header())]
    }
}

/// A request the limiter refused; it becomes a 429 with `Retry-After`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Limited(pub RateStatus);

impl From<Limited> for OpError {
    fn from(limited: Limited) -> Self {
        OpError::RateLimited { retry_after: limited.0.retry_after.unwrap_or(1) }
    }
}

/// The limiter and the quotas of this deployment.
#[derive(Clone)]
pub struct RateLimits {
    limiter: Option<Arc<dyn RateLimiter>>,
    quotas: Arc<RateQuotas>,
}

impl std::fmt::Debug for RateLimits {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("RateLimits").field("enabled", &self.limiter.is_some()).field("quotas", &self.quotas).finish()
    }
}

impl RateLimits {
    pub fn new(limiter: Arc<dyn RateLimiter>, quotas: RateQuotas) -> Self {
        Self { limiter: Some(limiter), quotas: Arc::new(quotas) }
    }

    /// No limits: nothing is counted and no header is sent (benchmarks compare against it).
    pub fn off() -> Self {
        Self { limiter: None, quotas: Arc::new(RateQuotas::default()) }
    }

    pub fn quotas(&self) -> &RateQuotas {
        &self.quotas
    }

    /// Counts one request of `class`: against the principal's budget when `principal` is known
    /// (and the policy is not per client address), else against the client address's. `Ok(None)`
    /// when limits are off.
    ///
    /// # Errors
    /// [`Limited`] when the budget is spent; the request must not run.
    pub async fn check(&self, class: RateClass, principal: Option<UserId>, client: IpAddr) -> Result<Option<RateStatus>, Limited> {
        let Some(limiter) = &self.limiter else { return Ok(None) };
        let policy = class.counted_as(principal.is_some());
        let quota = self.quotas.get(policy);
        let key = match principal {
            Some(user) if !policy.per_client_only() => format!("user:{user}"),
            _ => kernel::client_key(client),
        };
        let decision = limiter.check(policy.name(), quota, &key).await;
        let seconds = |duration: std::time::Duration| duration.as_secs() + u64::from(duration.subsec_nanos() > 0);
        let status = RateStatus {
            policy,
            quota,
            remaining: decision.remaining,
            reset_seconds: seconds(decision.reset),
            retry_after: (!decision.allowed).then(|| u32::try_from(seconds(decision.retry_after).max(1)).unwrap_or(u32::MAX)),
        };
        if decision.allowed { Ok(Some(status)) } else { Err(Limited(status)) }
    }
}

/// Who is calling and whether they may: the caller (or why not), and where the request was
/// counted, for the headers every answer carries.
#[derive(Debug)]
pub struct Admission {
    pub caller: Result<Caller, OpError>,
    pub rate: Option<RateStatus>,
}

/// Counts an authenticated request (`authenticate` or `authenticate_for` ran first) against
/// each class it belongs to (one per operation; an MCP batch may call several), before
/// idempotency and the use case run. A refused credential is counted too, against the client
/// address, so guessing tokens is limited as well. The first spent budget refuses the request
/// with a 429; otherwise the caller passes on with the tightest budget for the headers.
pub async fn admit(limits: &RateLimits, classes: &[RateClass], authenticated: Result<Caller, OpError>, client: IpAddr) -> Admission {
    let principal = authenticated.as_ref().ok().and_then(|caller| caller.principal.as_ref()).map(|principal| principal.user.id);
    let mut tightest: Option<RateStatus> = None;
    for class in classes {
        match limits.check(*class, principal, client).await {
            Ok(Some(status)) if tightest.is_none_or(|tight| status.remaining < tight.remaining) => tightest = Some(status),
            Ok(_) => {}
            Err(limited) => return Admission { caller: Err(limited.into()), rate: Some(limited.0) },
        }
    }
    Admission { caller: authenticated.map(|caller| Caller { client: Some(client), ..caller }), rate: tightest }
}

#[cfg(test)]
mod tests {
    use super::*;
    use kernel::RateDecision;
    use std::collections::HashMap;
    use std::sync::Mutex;
    use std::time::Duration;

    /// Counts like the real adapters (the kernel's GCRA) on a clock that stands still.
    #[derive(Default)]
    struct StillLimiter(Mutex<HashMap<String, Duration>>);

    #[async_trait::async_trait]
    impl RateLimiter for StillLimiter {
        async fn check(&self, policy: &str, quota: RateQuota, key: &str) -> RateDecision {
            let mut keys = self.0.lock().unwrap();
            let tat = keys.entry(format!("{policy}:{key}")).or_default();
            let (decision, next) = RateDecision::gcra(quota, *tat);
            *tat = next;
            decision
        }
    }

    fn limits(change: impl FnOnce(&mut RateQuotas)) -> RateLimits {
        let mut quotas = RateQuotas::default();
        change(&mut quotas);
        RateLimits::new(Arc::new(StillLimiter::default()), quotas)
    }

    const HOME: IpAddr = IpAddr::V4(std::net::Ipv4Addr::new(203, 0, 113, 7));
    const CAFE: IpAddr = IpAddr::V4(std::net::Ipv4Addr::new(198, 51, 100, 1));

    #[tokio::test]
    async fn reads_are_counted_per_principal_when_signed_in_and_per_address_otherwise() {
        let limits = limits(|quotas| {
            quotas.set(RateClass::Read, RateQuota::per_minute(3));
            quotas.set(RateClass::ReadAnonymous, RateQuota::per_minute(2));
        });
        let user = Some(UserId::new(1));
        for expected in [2, 1, 0] {
            let status = limits.check(RateClass::Read, user, HOME).await.unwrap().unwrap();
            assert_eq!((status.policy, status.remaining), (RateClass::Read, expected));
        }
        let refused = limits.check(RateClass::Read, user, CAFE).await.unwrap_err();
        assert_eq!(refused.0.retry_after, Some(20), "the principal's budget follows it to another address");
        assert_eq!(OpError::from(refused).retry_after(), Some(20));
        // Anonymous reads from the same address have a budget of their own.
        let anonymous = limits.check(RateClass::Read, None, HOME).await.unwrap().unwrap();
        assert_eq!((anonymous.policy, anonymous.remaining), (RateClass::ReadAnonymous, 1));
        assert_eq!(anonymous.policy_header(), "\"read_anonymous\";q=2;w=60");
        assert_eq!(anonymous.limit_header(), "\"read_anonymous\";r=1;t=30");
    }

    #[tokio::test]
    async fn per_address_policies_ignore_the_principal_and_classes_do_not_share() {
        let limits = limits(|quotas| quotas.set(RateClass::SignIn, RateQuota::per_minute(1)));
        let user = Some(UserId::new(1));
        limits.check(RateClass::SignIn, user, HOME).await.unwrap();
        assert!(limits.check(RateClass::SignIn, Some(UserId::new(2)), HOME).await.is_err(), "sign-in counts the address");
        assert!(limits.check(RateClass::SignIn, None, CAFE).await.is_ok());
        assert!(limits.check(RateClass::Write, user, HOME).await.is_ok(), "another class, another budget");
    }

    #[tokio::test]
    async fn reviews_from_one_network_share_one_budget_whichever_accounts_write_them() {
        let limits = limits(|quotas| quotas.set(RateClass::ReviewNetwork, RateQuota::per_hour(2)));
        for n in 1..=2 {
            let status = limits.check(RateClass::ReviewNetwork, Some(UserId::new(n)), HOME).await.unwrap().unwrap();
            assert_eq!(status.policy, RateClass::ReviewNetwork);
        }
        let refused = limits.check(RateClass::ReviewNetwork, Some(UserId::new(3)), HOME).await.unwrap_err();
        assert_eq!(refused.0.policy_header(), "\"review_network\";q=2;w=3600", "a third account behind the address waits");
        assert!(limits.check(RateClass::ReviewNetwork, None, HOME).await.is_err(), "signed in or not, the address is counted");
        assert!(limits.check(RateClass::ReviewNetwork, Some(UserId::new(3)), CAFE).await.is_ok(), "another network has its own");
        assert!(limits.check(RateClass::Review, Some(UserId::new(3)), HOME).await.is_ok(), "each account keeps its own `review` budget");
    }

    #[tokio::test]
    async fn limits_off_count_nothing() {
        assert_eq!(RateLimits::off().check(RateClass::SignIn, None, HOME).await, Ok(None));
    }

    #[test]
    fn the_defaults_are_those_of_the_decisions() {
        let quotas = RateQuotas::default();
        let shown: Vec<String> = RateClass::ALL.iter().map(|policy| format!("{} {}", policy.name(), quotas.get(*policy))).collect();
        assert_eq!(
            shown,
            [
                "read 600/minute",
                "read_anonymous 120/minute",
                "write 120/minute",
                "submit_listing 20/hour",
                "verify_claim 30/hour",
                "create_checkout 30/hour",
                "oauth_register 20/hour",
                "sign_in 10/minute",
                "mcp_initialize 60/minute",
                "vote 60/hour",
                "vote_network 300/hour",
                "review 30/hour",
                "review_network 10/hour"
            ]
        );
    }
}
