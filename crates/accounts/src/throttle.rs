//! The sign-in throttle: failed attempts counted per client address and per (client, account),
//! each with a growing wait once its free attempts are spent. Keyed by the address and a hash of
//! the e-mail (never the raw text), and bounded, so a flood of made-up addresses costs a fixed
//! amount of memory. A wrong guess from one address never locks the owner out elsewhere.

use sha2::{Digest, Sha256};
use std::collections::HashMap;
use std::hash::Hash;
use std::net::IpAddr;
use time::{Duration, OffsetDateTime};

/// Failures allowed per (client, account) before each further attempt waits.
pub const FREE_PER_ACCOUNT: u32 = 5;
/// Failures allowed per client address (an office behind one address is many people).
pub const FREE_PER_CLIENT: u32 = 20;
/// The first wait; each further failure doubles it, up to `MAX_WAIT`.
pub const FIRST_WAIT: Duration = Duration::seconds(30);
pub const MAX_WAIT: Duration = Duration::minutes(15);
/// Failures older than this are forgotten.
pub const FORGET_AFTER: Duration = Duration::minutes(15);
/// Entries kept per kind of key; the stalest go first when full.
pub const MAX_ENTRIES: usize = 10_000;

/// The account an attempt names, as 16 bytes of the SHA-256 of the trimmed, lower-cased text.
fn account_key(email: &str) -> [u8; 16] {
    let digest = Sha256::digest(email.trim().to_lowercase().as_bytes());
    let mut key = [0u8; 16];
    key.copy_from_slice(&digest[..16]);
    key
}

#[derive(Debug, Clone, Copy)]
struct Strikes {
    failures: u32,
    last: OffsetDateTime,
    wait_until: OffsetDateTime,
}

/// Failure counts of one kind of key, bounded.
#[derive(Debug)]
struct Ledger<K> {
    free: u32,
    entries: HashMap<K, Strikes>,
}

impl<K: Hash + Eq + Copy> Ledger<K> {
    fn new(free: u32) -> Self {
        Self { free, entries: HashMap::new() }
    }

    fn wait(&self, key: &K, now: OffsetDateTime) -> Option<Duration> {
        let strikes = self.entries.get(key)?;
        (strikes.wait_until > now && now - strikes.last < FORGET_AFTER).then(|| strikes.wait_until - now)
    }

    fn fail(&mut self, key: K, now: OffsetDateTime) {
        if !self.entries.contains_key(&key) && self.entries.len() >= MAX_ENTRIES {
            self.entries.retain(|_, strikes| now - strikes.last < FORGET_AFTER);
            if self.entries.len() >= MAX_ENTRIES
                && let Some(stalest) = self.entries.iter().min_by_key(|(_, strikes)| strikes.last).map(|(key, _)| *key)
            {
                self.entries.remove(&stalest);
            }
        }
        let strikes = self.entries.entry(key).or_insert(Strikes { failures: 0, last: now, wait_until: now });
        if now - strikes.last >= FORGET_AFTER {
            *strikes = Strikes { failures: 0, last: now, wait_until: now };
        }
        strikes.failures += 1;
        strikes.last = now;
        if strikes.failures >= self.free {
            let doublings = (strikes.failures - self.free).min(10);
            strikes.wait_until = now + (FIRST_WAIT * 2_i32.pow(doublings)).min(MAX_WAIT);
        }
    }

    fn forget(&mut self, key: &K) {
        self.entries.remove(key);
    }
}

/// The throttle. Not shared between processes: each node counts what it sees (the rate limits
/// of `sign_in` are the cluster-wide bound).
#[derive(Debug)]
pub struct SignInThrottle {
    clients: Ledger<IpAddr>,
    accounts: Ledger<(IpAddr, [u8; 16])>,
}

impl Default for SignInThrottle {
    fn default() -> Self {
        Self { clients: Ledger::new(FREE_PER_CLIENT), accounts: Ledger::new(FREE_PER_ACCOUNT) }
    }
}

impl SignInThrottle {
    /// How long `client` must wait before trying `email` again, if at all.
    pub fn wait(&self, client: IpAddr, email: &str, now: OffsetDateTime) -> Option<Duration> {
        let client = kernel::client_network(client);
        let by_client = self.clients.wait(&client, now);
        let by_account = self.accounts.wait(&(client, account_key(email)), now);
        by_client.max(by_account)
    }

    pub fn failed(&mut self, client: IpAddr, email: &str, now: OffsetDateTime) {
        let client = kernel::client_network(client);
        self.clients.fail(client, now);
        self.accounts.fail((client, account_key(email)), now);
    }

    /// A right password clears that client's count for the account (not the address's count).
    pub fn succeeded(&mut self, client: IpAddr, email: &str) {
        self.accounts.forget(&(kernel::client_network(client), account_key(email)));
    }

    /// Entries held, for the bound's test.
    pub fn len(&self) -> usize {
        self.clients.entries.len() + self.accounts.entries.len()
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn at(seconds: i64) -> OffsetDateTime {
        OffsetDateTime::UNIX_EPOCH + Duration::seconds(1_700_000_000 + seconds)
    }

    #[test]
    fn waits_grow_per_client_and_account_and_never_reach_other_clients() {
        let mut throttle = SignInThrottle::default();
        let (attacker, owner): (IpAddr, IpAddr) = ("203.0.113.9".parse().unwrap(), "198.51.100.4".parse().unwrap());
        for n in 0..FREE_PER_ACCOUNT - 1 {
            throttle.failed(attacker, "Owner@Example.com", at(n.into()));
            assert_eq!(throttle.wait(attacker, "owner@example.com", at(n.into())), None);
        }
        throttle.failed(attacker, "owner@example.com ", at(4));
        assert_eq!(throttle.wait(attacker, "owner@example.com", at(4)), Some(FIRST_WAIT));
        assert_eq!(throttle.wait(owner, "owner@example.com", at(4)), None, "the owner elsewhere is never locked out");
        assert_eq!(throttle.wait(attacker, "someone@example.com", at(4)), None, "other accounts from the address still may");
        // Each further failure doubles the wait, up to the cap; the wait ends on its own.
        throttle.failed(attacker, "owner@example.com", at(40));
        assert_eq!(throttle.wait(attacker, "owner@example.com", at(40)), Some(FIRST_WAIT * 2));
        assert_eq!(throttle.wait(attacker, "owner@example.com", at(101)), None);
        for n in 0..12 {
            throttle.failed(attacker, "owner@example.com", at(200 + n));
        }
        assert_eq!(throttle.wait(attacker, "owner@example.com", at(211)), Some(MAX_WAIT));
        // Success from a client clears its count for the account.
        throttle.succeeded(attacker, "owner@example.com");
        assert_eq!(throttle.wait(attacker, "owner@example.com", at(212)), None);
    }

    #[test]
    fn one_address_spraying_many_accounts_waits_too() {
        let mut throttle = SignInThrottle::default();
        let sprayer: IpAddr = "2001:db8:1:2::7".parse().unwrap();
        let neighbour: IpAddr = "2001:db8:1:2::8".parse().unwrap();
        for n in 0..FREE_PER_CLIENT {
            throttle.failed(sprayer, &format!("user{n}@example.com"), at(n.into()));
        }
        assert_eq!(throttle.wait(sprayer, "fresh@example.com", at(20)), Some(FIRST_WAIT - Duration::seconds(1)));
        assert!(throttle.wait(neighbour, "fresh@example.com", at(20)).is_some(), "an IPv6 /64 is one client");
        assert_eq!(throttle.wait("2001:db8:1:3::1".parse().unwrap(), "fresh@example.com", at(20)), None);
    }

    #[test]
    fn the_ledger_is_bounded_and_keyed_by_hash() {
        let mut throttle = SignInThrottle::default();
        let long = "x".repeat(15_000);
        for n in 0..(MAX_ENTRIES as i64 + 500) {
            let client: IpAddr = std::net::Ipv4Addr::from(0x0a00_0000 + n as u32).into();
            throttle.failed(client, &format!("{long}{n}@example.com"), at(n));
        }
        assert!(throttle.len() <= 2 * MAX_ENTRIES, "{}", throttle.len());
        // The newest are kept.
        let last: IpAddr = std::net::Ipv4Addr::from(0x0a00_0000 + MAX_ENTRIES as u32 + 499).into();
        assert!(throttle.accounts.entries.contains_key(&(last, account_key(&format!("{long}{}@example.com", MAX_ENTRIES + 499)))));
    }
}
