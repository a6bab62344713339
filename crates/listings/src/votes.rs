//! Votes: only people signed in on the site vote (no API operation or tool casts one), with a
//! confirmed e-mail address, once per listing, for live listings only. A vote from an account
//! younger than the policy's minimum age is kept but does not count; rankings, trending, the
//! weekly board and the awards read counted votes only (`listings.votes_count` counts them).
//! The site team can discount a vote later (a burst from one network, accounts made together).

use async_trait::async_trait;
use kernel::{Clock, RepoError, Slug, UserId, Week};
use std::collections::HashSet;
use std::sync::Arc;
use time::{Duration, OffsetDateTime, UtcOffset};

/// Vote rules from settings.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct VotePolicy {
    /// Votes of accounts younger than this are kept but not counted.
    pub min_account_age: Duration,
    /// The launch time zone's offset: a vote belongs to the launch week it was cast in.
    pub launch_offset: UtcOffset,
}

/// Who is voting, as the site knows them.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Voter {
    pub user: UserId,
    pub account_created_at: OffsetDateTime,
    pub email_confirmed: bool,
    /// The client network the vote came from (IPv4 address, IPv6 /64), to find bursts.
    pub network: String,
}

/// A vote to record.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NewVote {
    pub user: UserId,
    pub at: OffsetDateTime,
    /// The launch week `at` falls in.
    pub week: Week,
    pub counted: bool,
    pub network: String,
}

/// A listing's votes as its voter sees them after a change.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct VoteState {
    /// Whether this person's vote is on the listing now.
    pub voted: bool,
    /// Counted votes (what every page and ranking shows).
    pub votes: u64,
    /// Whether this person's vote counts (`false` for a young account or a discounted vote).
    pub counted: bool,
}

/// A vote the site team may want to look at.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct VoteRecord {
    pub id: i64,
    pub listing: Slug,
    pub user: UserId,
    pub account_created_at: OffsetDateTime,
    pub at: OffsetDateTime,
    pub network: Option<String>,
    pub counted: bool,
    pub discounted_at: Option<OffsetDateTime>,
}

#[async_trait]
pub trait VoteRepository: Send + Sync {
    /// Records `vote` on the live listing `listing` (unique per person and listing: a second
    /// vote changes nothing) and, when it counts, adds one to `votes_count` in the same
    /// transaction. `None` when no live listing has this slug.
    async fn cast(&self, listing: &Slug, vote: NewVote) -> Result<Option<VoteState>, RepoError>;
    /// Removes `user`'s vote (and, when it counted, one from `votes_count`) in one
    /// transaction. `None` when no live listing has this slug.
    async fn withdraw(&self, listing: &Slug, user: UserId) -> Result<Option<VoteState>, RepoError>;
    /// Which of `listings` `user` has voted for.
    async fn voted_among(&self, user: UserId, listings: &[Slug]) -> Result<HashSet<Slug>, RepoError>;
    /// Votes cast since `since` that `flag_suspicious` keeps (uncounted or discounted votes,
    /// bursts from one network, accounts made together voting for one listing), newest first.
    async fn suspicious(&self, since: OffsetDateTime, burst: u32, window: Duration) -> Result<Vec<VoteRecord>, RepoError>;
    /// Stops a vote from counting (and takes it off `votes_count`); `false` when no such vote
    /// counts any more.
    async fn discount(&self, vote: i64, at: OffsetDateTime) -> Result<bool, RepoError>;
}

#[derive(Debug, thiserror::Error)]
pub enum VoteError {
    #[error("confirm your e-mail address first: we sent you a link")]
    NotConfirmed,
    #[error("no live listing has this address")]
    NotLive,
    #[error(transparent)]
    Repo(#[from] RepoError),
}

#[derive(Clone)]
pub struct VoteService {
    repo: Arc<dyn VoteRepository>,
    clock: Arc<dyn Clock>,
    policy: VotePolicy,
    signal: VoteSignal,
}

/// Counts the votes this server changed (cast, withdrawn, discounted), so what is ranked per
/// server from votes (this week, trending) can be ranked again soon after one: `launchdir
/// serve` watches it.
#[derive(Debug, Clone, Default)]
pub struct VoteSignal(Arc<std::sync::atomic::AtomicU64>);

impl VoteSignal {
    pub fn mark(&self) {
        self.0.fetch_add(1, std::sync::atomic::Ordering::AcqRel);
    }

    /// How many changes so far: a watcher compares it with the count it saw last.
    pub fn changes(&self) -> u64 {
        self.0.load(std::sync::atomic::Ordering::Acquire)
    }
}

impl VoteService {
    pub fn new(repo: Arc<dyn VoteRepository>, clock: Arc<dyn Clock>, policy: VotePolicy) -> Self {
        Self { repo, clock, policy, signal: VoteSignal::default() }
    }

    /// Marked on every vote this service changes.
    pub fn signal(&self) -> &VoteSignal {
        &self.signal
    }

    fn votes_changed(&self) {
        self.signal.mark();
    }

    /// Votes for a live listing; voting again changes nothing.
    pub async fn vote(&self, voter: &Voter, listing: &Slug) -> Result<VoteState, VoteError> {
        if !voter.email_confirmed {
            return Err(VoteError::NotConfirmed);
        }
        let at = self.clock.now();
        let counted = at - voter.account_created_at >= self.policy.min_account_age;
        let week = Week::at(at, self.policy.launch_offset);
        let vote = NewVote { user: voter.user, at, week, counted, network: voter.network.clone() };
        let state = self.repo.cast(listing, vote).await?.ok_or(VoteError::NotLive)?;
        self.votes_changed();
        Ok(state)
    }

    /// Withdraws a vote; withdrawing one that is not there changes nothing.
    pub async fn withdraw(&self, voter: &Voter, listing: &Slug) -> Result<VoteState, VoteError> {
        let state = self.repo.withdraw(listing, voter.user).await?.ok_or(VoteError::NotLive)?;
        self.votes_changed();
        Ok(state)
    }

    /// Which of `listings` this person has voted for (to show the buttons pressed).
    pub async fn voted_among(&self, user: UserId, listings: &[Slug]) -> Result<HashSet<Slug>, RepoError> {
        if listings.is_empty() {
            return Ok(HashSet::new());
        }
        self.repo.voted_among(user, listings).await
    }

    /// Uncounted votes and bursts (`burst` accounts or more from one network within `window`)
    /// of the last `days` days.
    pub async fn suspicious(&self, days: i64, burst: u32, window: Duration) -> Result<Vec<VoteRecord>, RepoError> {
        self.repo.suspicious(self.clock.now() - Duration::days(days), burst.max(2), window).await
    }

    pub async fn discount(&self, vote: i64) -> Result<bool, RepoError> {
        let discounted = self.repo.discount(vote, self.clock.now()).await?;
        self.votes_changed();
        Ok(discounted)
    }
}

/// Keeps the votes worth a look, newest first: those that do not count (young accounts,
/// discounted), those from a network from which `burst` or more accounts voted within
/// `window`, and those of `burst` or more accounts created within `window` of each other that
/// voted for the same listing.
pub fn flag_suspicious(mut votes: Vec<VoteRecord>, burst: u32, window: Duration) -> Vec<VoteRecord> {
    let mut flagged: HashSet<i64> = votes.iter().filter(|vote| !vote.counted || vote.discounted_at.is_some()).map(|vote| vote.id).collect();
    let mut by_network: std::collections::HashMap<String, Vec<(OffsetDateTime, UserId, i64)>> = Default::default();
    let mut by_listing: std::collections::HashMap<String, Vec<(OffsetDateTime, UserId, i64)>> = Default::default();
    for vote in &votes {
        if let Some(network) = &vote.network {
            by_network.entry(network.clone()).or_default().push((vote.at, vote.user, vote.id));
        }
        by_listing.entry(vote.listing.to_string()).or_default().push((vote.account_created_at, vote.user, vote.id));
    }
    flagged.extend(bursts(by_network, burst, window));
    flagged.extend(bursts(by_listing, burst, window));
    votes.retain(|vote| flagged.contains(&vote.id));
    votes.sort_by(|a, b| b.at.cmp(&a.at).then(b.id.cmp(&a.id)));
    votes
}

/// Groups of entries by a key (a network, a listing), each `(instant, account, id)`: the ids of
/// every entry in a window of `window` that holds `burst` (at least 2) or more distinct
/// accounts. The one burst rule of votes and reviews alike.
pub(crate) fn bursts(
    groups: std::collections::HashMap<String, Vec<(OffsetDateTime, UserId, i64)>>,
    burst: u32,
    window: Duration,
) -> HashSet<i64> {
    let burst = burst.max(2) as usize;
    let mut flagged = HashSet::new();
    for mut group in groups.into_values() {
        group.sort_by_key(|(at, _, _)| *at);
        let mut start = 0;
        for end in 0..group.len() {
            while group[end].0 - group[start].0 > window {
                start += 1;
            }
            let accounts: HashSet<UserId> = group[start..=end].iter().map(|(_, user, _)| *user).collect();
            if accounts.len() >= burst {
                flagged.extend(group[start..=end].iter().map(|(_, _, id)| *id));
            }
        }
    }
    flagged
}

#[cfg(test)]
mod tests {
    use super::*;
    use kernel::FixedClock;
    use std::sync::Mutex;
    use time::macros::datetime;

    const NOW: OffsetDateTime = datetime!(2026-11-25 12:00 UTC);

    #[derive(Default)]
    struct Votes {
        cast: Mutex<Vec<NewVote>>,
    }

    #[async_trait]
    impl VoteRepository for Votes {
        async fn cast(&self, listing: &Slug, vote: NewVote) -> Result<Option<VoteState>, RepoError> {
            if listing.as_str() != "live" {
                return Ok(None);
            }
            let counted = vote.counted;
            self.cast.lock().unwrap().push(vote);
            Ok(Some(VoteState { voted: true, votes: 1, counted }))
        }
        async fn withdraw(&self, _: &Slug, _: UserId) -> Result<Option<VoteState>, RepoError> {
            Ok(Some(VoteState { voted: false, votes: 0, counted: false }))
        }
        async fn voted_among(&self, _: UserId, _: &[Slug]) -> Result<HashSet<Slug>, RepoError> {
            Ok(HashSet::new())
        }
        async fn suspicious(&self, _: OffsetDateTime, _: u32, _: Duration) -> Result<Vec<VoteRecord>, RepoError> {
            Ok(Vec::new())
        }
        async fn discount(&self, _: i64, _: OffsetDateTime) -> Result<bool, RepoError> {
            Ok(false)
        }
    }

    fn service() -> (VoteService, Arc<Votes>) {
        let votes = Arc::new(Votes::default());
        let policy = VotePolicy { min_account_age: Duration::hours(24), launch_offset: UtcOffset::UTC };
        (VoteService::new(votes.clone(), Arc::new(FixedClock::new(NOW)), policy), votes)
    }

    fn voter(age: Duration, confirmed: bool) -> Voter {
        Voter { user: UserId::new(1), account_created_at: NOW - age, email_confirmed: confirmed, network: "192.0.2.1".into() }
    }

    fn record(id: i64, user: i64, listing: &str, network: &str, at: OffsetDateTime, created: OffsetDateTime) -> VoteRecord {
        VoteRecord {
            id,
            listing: Slug::parse(listing).unwrap(),
            user: UserId::new(user),
            account_created_at: created,
            at,
            network: Some(network.into()),
            counted: true,
            discounted_at: None,
        }
    }

    #[test]
    fn bursts_from_one_network_and_accounts_made_together_are_flagged() {
        let old = NOW - Duration::days(300);
        let minute = Duration::minutes(1);
        let mut votes = Vec::new();
        // Five accounts from one network within five minutes: a burst.
        for n in 0..5 {
            votes.push(record(n, n, "alpha", "198.51.100.7", NOW + minute * n as i32, old - Duration::days(n)));
        }
        // Five accounts from one network, an hour apart: people in one office over a day.
        for n in 5..10 {
            votes.push(record(n, n, "bravo", "203.0.113.9", NOW + Duration::hours(n), old - Duration::days(n)));
        }
        // Five accounts made within ten minutes, from different networks, voting for charlie.
        for n in 10..15 {
            votes.push(record(n, n, "charlie", &format!("192.0.2.{n}"), NOW + Duration::hours(n), old + minute * 2 * n as i32));
        }
        // One uncounted vote from an ordinary network.
        let mut young = record(15, 15, "delta", "192.0.2.200", NOW, NOW - Duration::hours(1));
        young.counted = false;
        votes.push(young);
        let flagged = flag_suspicious(votes, 5, Duration::minutes(10));
        let mut ids: Vec<i64> = flagged.iter().map(|vote| vote.id).collect();
        ids.sort();
        assert_eq!(ids, [0, 1, 2, 3, 4, 10, 11, 12, 13, 14, 15]);
        assert!(flagged.windows(2).all(|pair| pair[0].at >= pair[1].at), "newest first");
    }

    #[tokio::test]
    async fn young_accounts_vote_without_counting_and_unconfirmed_ones_do_not_vote() {
        let (votes, stored) = service();
        let live = Slug::parse("live").unwrap();
        assert!(votes.vote(&voter(Duration::hours(25), true), &live).await.unwrap().counted);
        assert!(!votes.vote(&voter(Duration::hours(23), true), &live).await.unwrap().counted, "kept, not counted");
        assert!(matches!(votes.vote(&voter(Duration::days(30), false), &live).await, Err(VoteError::NotConfirmed)));
        let cast = stored.cast.lock().unwrap().clone();
        assert_eq!(cast.iter().map(|v| (v.counted, v.at)).collect::<Vec<_>>(), [(true, NOW), (false, NOW)], "each vote keeps its time");
        let other = Slug::parse("scheduled").unwrap();
        assert!(matches!(votes.vote(&voter(Duration::days(30), true), &other).await, Err(VoteError::NotLive)));
    }
}
