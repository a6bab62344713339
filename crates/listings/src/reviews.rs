//! Reviews and follows: what people on the site say about a live listing and whose updates they
//! want by e-mail. One review per person per listing (a 1-5 rating and text; written again, it
//! is edited; it can be deleted); a review counts toward the community rating only when it is
//! genuine (the reviewer's e-mail is confirmed, the account not blocked and old enough, the
//! reviewer not the owner, the review not hidden by the site team). Reviews follow votes: a
//! review from an account younger than [`ReviewPolicy::min_account_age`] (the votes' setting) is
//! shown but does not count until the account is old enough, which is decided when the rating
//! is read, so it starts counting by itself; each review keeps the client network it was first
//! written from, and the site team lists bursts from one network ([`flag_bursts`]). Following
//! sends e-mail, so it needs a confirmed address. Neither is an API operation: both come from
//! the site's pages.

use async_trait::async_trait;
use kernel::{Clock, RepoError, Slug, UserId};
use std::collections::HashMap;
use std::sync::Arc;
use time::{Duration, OffsetDateTime};

/// The longest review text, in characters.
pub const REVIEW_MAX_CHARS: usize = 2000;
/// How many reviews a listing's page shows, newest first.
pub const REVIEWS_SHOWN: u64 = 50;

/// Review rules from settings (they follow the votes' rules).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ReviewPolicy {
    /// Reviews of accounts younger than this are shown but do not count in the rating until
    /// the account is old enough (`vote_min_account_age_hours`, as for votes).
    pub min_account_age: Duration,
}

impl ReviewPolicy {
    /// Which reviews are genuine at `now`: an account exactly `min_account_age` old counts, as
    /// a vote does. Every read of the rating or of a review's mark asks with the time of the
    /// read, so a young account's review starts counting once the account is old enough,
    /// without any write.
    pub fn genuine_at(&self, now: OffsetDateTime) -> GenuineReviews {
        GenuineReviews { reviewers_made_by: now - self.min_account_age }
    }
}

/// The rule of which reviews are genuine: counted in a listing's rating and marked so. The
/// domain decides it; a store implements it, in a query for the rating and with
/// [`GenuineReviews::holds`] for a review it has read. A review is genuine when it is not
/// hidden, its author does not own the listing, and the author's account has a confirmed
/// address, is not blocked and was made by `reviewers_made_by`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct GenuineReviews {
    pub reviewers_made_by: OffsetDateTime,
}

/// What [`GenuineReviews`] asks of a review.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ReviewFacts {
    pub hidden: bool,
    pub by_an_owner: bool,
    /// `None` when the author's account is gone.
    pub author: Option<ReviewerFacts>,
}

/// What [`GenuineReviews`] asks of a review's author.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct ReviewerFacts {
    pub email_confirmed: bool,
    pub blocked: bool,
    pub created_at: OffsetDateTime,
}

impl GenuineReviews {
    pub fn holds(&self, review: &ReviewFacts) -> bool {
        !review.hidden
            && !review.by_an_owner
            && review.author.is_some_and(|author| author.email_confirmed && !author.blocked && author.created_at <= self.reviewers_made_by)
    }
}

/// A review as written, checked.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ReviewText {
    pub rating: u8,
    pub body: String,
}

impl ReviewText {
    /// Checks a rating (1 to 5) and a text (not blank, at most [`REVIEW_MAX_CHARS`]); the
    /// error names every field that is wrong.
    pub fn parse(rating: &str, body: &str) -> Result<Self, ReviewError> {
        let mut problems = Vec::new();
        let rating = match rating.trim().parse::<u8>() {
            Ok(stars @ 1..=5) => stars,
            _ => {
                problems.push(FieldProblem { field: "rating", message: "choose a rating from 1 to 5 stars" });
                0
            }
        };
        let body = body.trim();
        if body.is_empty() {
            problems.push(FieldProblem { field: "body", message: "write a few words about it" });
        } else if body.chars().count() > REVIEW_MAX_CHARS {
            problems.push(FieldProblem { field: "body", message: "at most 2,000 characters" });
        }
        match problems.is_empty() {
            true => Ok(Self { rating, body: body.to_owned() }),
            false => Err(ReviewError::Invalid(problems)),
        }
    }
}

/// A review as the listing's page shows it: the author by display name, never by e-mail.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Review {
    pub id: i64,
    pub author: String,
    pub rating: u8,
    pub body: String,
    pub written_at: OffsetDateTime,
    pub edited_at: Option<OffsetDateTime>,
    /// Whether it counts toward the community rating now (see the module's rules).
    pub genuine: bool,
    /// Hidden by the site team (only its author still sees it).
    pub hidden: bool,
}

/// A review as the site team looks at it: the review, its listing, its author's account and the
/// client network it was first written from.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ReviewRecord {
    pub listing: Slug,
    pub user: UserId,
    /// IPv4 address or IPv6 /64; `None` for reviews written before networks were kept.
    pub network: Option<String>,
    pub review: Review,
}

/// A listing's reviews for one viewer.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ListingReviews {
    /// Visible reviews, newest first, at most [`REVIEWS_SHOWN`].
    pub shown: Vec<Review>,
    /// How many visible reviews there are in all.
    pub total: u64,
    /// The viewer's own review, hidden or not.
    pub mine: Option<Review>,
    /// Whether the viewer follows the listing.
    pub following: bool,
    /// Whether the viewer owns the listing: its page then shows what only owners see (the
    /// badge's embed code, what its website did not state).
    pub viewer_owns: bool,
}

/// Whether saving made a review or changed one.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Saved {
    Written,
    Edited,
}

/// Reads that mark reviews genuine take the rule ([`ReviewPolicy::genuine_at`] the time of the
/// read) and apply it as [`GenuineReviews`] says.
#[async_trait]
pub trait ReviewRepository: Send + Sync {
    /// Writes `user`'s review of the live listing `listing`, sent from the client network
    /// `network`, or edits the one they wrote (unique per person and listing; an edit keeps the
    /// first writing's time and network). `None` when no live listing has this slug.
    async fn save(
        &self,
        listing: &Slug,
        user: UserId,
        review: &ReviewText,
        at: OffsetDateTime,
        network: &str,
    ) -> Result<Option<Saved>, RepoError>;
    /// Deletes `user`'s review of `listing`; `false` when there was none.
    async fn delete(&self, listing: &Slug, user: UserId) -> Result<bool, RepoError>;
    /// The listing's visible reviews, and the viewer's own review, follow and ownership.
    async fn of_listing(
        &self,
        listing: &Slug,
        viewer: Option<UserId>,
        shown: u64,
        genuine: GenuineReviews,
    ) -> Result<ListingReviews, RepoError>;
    /// The newest reviews of any listing, hidden ones included, with their listing's slug.
    async fn recent(&self, limit: u64, genuine: GenuineReviews) -> Result<Vec<(Slug, Review)>, RepoError>;
    /// The reviews first written since `since`, hidden ones included, newest first (a bounded
    /// scan: a list for the site team, not an export); [`flag_bursts`] judges them.
    async fn written_since(&self, since: OffsetDateTime, genuine: GenuineReviews) -> Result<Vec<ReviewRecord>, RepoError>;
    /// Hides a review from everyone but its author (and from the rating), or shows it again:
    /// whether that changed it (`false`: it was so already), `None` when there is no such review.
    async fn set_hidden(&self, review: i64, hidden: bool) -> Result<Option<bool>, RepoError>;
    /// Starts or stops `user` following the live listing `listing`; `None` when there is none.
    async fn set_following(&self, listing: &Slug, user: UserId, follow: bool, at: OffsetDateTime) -> Result<Option<()>, RepoError>;
}

/// What is wrong with one field of a review.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct FieldProblem {
    pub field: &'static str,
    pub message: &'static str,
}

#[derive(Debug, thiserror::Error)]
pub enum ReviewError {
    #[error("the review has {} problem(s)", .0.len())]
    Invalid(Vec<FieldProblem>),
    #[error("confirm your e-mail address first: we sent you a link")]
    NotConfirmed,
    #[error("no live listing has this address")]
    NotLive,
    #[error(transparent)]
    Repo(#[from] RepoError),
}

/// Someone on the site, as reviews and follows need to know them.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Member {
    pub user: UserId,
    pub email_confirmed: bool,
    /// The client network the request came from (IPv4 address, IPv6 /64), to find bursts.
    pub network: String,
}

#[derive(Clone)]
pub struct ReviewService {
    repo: Arc<dyn ReviewRepository>,
    clock: Arc<dyn Clock>,
    policy: ReviewPolicy,
}

impl ReviewService {
    pub fn new(repo: Arc<dyn ReviewRepository>, clock: Arc<dyn Clock>, policy: ReviewPolicy) -> Self {
        Self { repo, clock, policy }
    }

    /// Reviews count now when their author's account was made by this instant.
    fn genuine(&self) -> GenuineReviews {
        self.policy.genuine_at(self.clock.now())
    }

    /// Writes or edits `member`'s review. Anyone signed in may write one; it counts toward the
    /// rating only when genuine (a young account's once the account is old enough).
    pub async fn save(&self, member: Member, listing: &Slug, review: &ReviewText) -> Result<Saved, ReviewError> {
        self.repo.save(listing, member.user, review, self.clock.now(), &member.network).await?.ok_or(ReviewError::NotLive)
    }

    pub async fn delete(&self, member: Member, listing: &Slug) -> Result<bool, ReviewError> {
        Ok(self.repo.delete(listing, member.user).await?)
    }

    pub async fn of_listing(&self, listing: &Slug, viewer: Option<UserId>) -> Result<ListingReviews, RepoError> {
        self.repo.of_listing(listing, viewer, REVIEWS_SHOWN, self.genuine()).await
    }

    /// The newest reviews, for the site team.
    pub async fn recent(&self, limit: u64) -> Result<Vec<(Slug, Review)>, RepoError> {
        self.repo.recent(limit, self.genuine()).await
    }

    /// The reviews of the last `days` days written from a network from which `burst` or more
    /// accounts wrote reviews within `window`, newest first, for the site team.
    pub async fn bursts(&self, days: i64, burst: u32, window: Duration) -> Result<Vec<ReviewRecord>, RepoError> {
        let now = self.clock.now();
        let written = self.repo.written_since(now - Duration::days(days), self.policy.genuine_at(now)).await?;
        Ok(flag_bursts(written, burst, window))
    }

    /// The site team hides a review (or shows it again).
    pub async fn set_hidden(&self, review: i64, hidden: bool) -> Result<Option<bool>, RepoError> {
        self.repo.set_hidden(review, hidden).await
    }

    /// Follows a live listing (its updates come by e-mail, so the address must be confirmed),
    /// or stops following it.
    pub async fn set_following(&self, member: Member, listing: &Slug, follow: bool) -> Result<(), ReviewError> {
        if follow && !member.email_confirmed {
            return Err(ReviewError::NotConfirmed);
        }
        self.repo.set_following(listing, member.user, follow, self.clock.now()).await?.ok_or(ReviewError::NotLive)
    }
}

/// Keeps the reviews written from a network from which `burst` (at least 2) or more accounts
/// wrote reviews within `window` (the votes' burst rule), newest first. Reviews without a
/// network (written before networks were kept) are never part of a burst.
pub fn flag_bursts(mut reviews: Vec<ReviewRecord>, burst: u32, window: Duration) -> Vec<ReviewRecord> {
    let mut by_network: HashMap<String, Vec<(OffsetDateTime, UserId, i64)>> = HashMap::new();
    for record in &reviews {
        if let Some(network) = &record.network {
            by_network.entry(network.clone()).or_default().push((record.review.written_at, record.user, record.review.id));
        }
    }
    let flagged = crate::votes::bursts(by_network, burst, window);
    reviews.retain(|record| flagged.contains(&record.review.id));
    reviews.sort_by(|a, b| b.review.written_at.cmp(&a.review.written_at).then(b.review.id.cmp(&a.review.id)));
    reviews
}

#[cfg(test)]
mod tests {
    use super::*;
    use kernel::FixedClock;
    use std::sync::Mutex;
    use time::macros::datetime;

    const NOW: OffsetDateTime = datetime!(2026-11-25 12:00 UTC);

    /// Keeps what the service asks: the networks saves came from and the rule of each read. Its
    /// reviews are marked as the store marks them, by the rule (`GenuineReviews::holds`).
    #[derive(Default)]
    struct Reviews {
        /// `(author, account made at)` of the one review on `live`.
        author: Mutex<Option<(UserId, OffsetDateTime)>>,
        networks: Mutex<Vec<String>>,
        asked: Mutex<Vec<OffsetDateTime>>,
        written: Mutex<Vec<ReviewRecord>>,
    }

    fn review(id: i64, at: OffsetDateTime, genuine: bool) -> Review {
        Review { id, author: "Ada".into(), rating: 1, body: "Meh.".into(), written_at: at, edited_at: None, genuine, hidden: false }
    }

    #[async_trait]
    impl ReviewRepository for Reviews {
        async fn save(
            &self,
            listing: &Slug,
            _: UserId,
            _: &ReviewText,
            _: OffsetDateTime,
            network: &str,
        ) -> Result<Option<Saved>, RepoError> {
            if listing.as_str() != "live" {
                return Ok(None);
            }
            self.networks.lock().unwrap().push(network.to_owned());
            Ok(Some(Saved::Written))
        }
        async fn delete(&self, _: &Slug, _: UserId) -> Result<bool, RepoError> {
            Ok(false)
        }
        async fn of_listing(&self, _: &Slug, _: Option<UserId>, _: u64, genuine: GenuineReviews) -> Result<ListingReviews, RepoError> {
            self.asked.lock().unwrap().push(genuine.reviewers_made_by);
            let facts = |made: OffsetDateTime| ReviewFacts {
                hidden: false,
                by_an_owner: false,
                author: Some(ReviewerFacts { email_confirmed: true, blocked: false, created_at: made }),
            };
            let shown =
                self.author.lock().unwrap().iter().map(|(_, made)| review(1, NOW, genuine.holds(&facts(*made)))).collect::<Vec<_>>();
            Ok(ListingReviews { total: shown.len() as u64, shown, ..Default::default() })
        }
        async fn recent(&self, _: u64, genuine: GenuineReviews) -> Result<Vec<(Slug, Review)>, RepoError> {
            self.asked.lock().unwrap().push(genuine.reviewers_made_by);
            Ok(Vec::new())
        }
        async fn written_since(&self, since: OffsetDateTime, genuine: GenuineReviews) -> Result<Vec<ReviewRecord>, RepoError> {
            self.asked.lock().unwrap().push(genuine.reviewers_made_by);
            Ok(self.written.lock().unwrap().iter().filter(|record| record.review.written_at >= since).cloned().collect())
        }
        async fn set_hidden(&self, _: i64, _: bool) -> Result<Option<bool>, RepoError> {
            Ok(None)
        }
        async fn set_following(&self, _: &Slug, _: UserId, _: bool, _: OffsetDateTime) -> Result<Option<()>, RepoError> {
            Ok(Some(()))
        }
    }

    fn service() -> (ReviewService, Arc<Reviews>, Arc<FixedClock>) {
        let reviews = Arc::new(Reviews::default());
        let clock = Arc::new(FixedClock::new(NOW));
        let policy = ReviewPolicy { min_account_age: Duration::hours(24) };
        (ReviewService::new(reviews.clone(), clock.clone(), policy), reviews, clock)
    }

    fn record(id: i64, user: i64, network: Option<&str>, at: OffsetDateTime) -> ReviewRecord {
        ReviewRecord {
            listing: Slug::parse("live").unwrap(),
            user: UserId::new(user),
            network: network.map(str::to_owned),
            review: review(id, at, true),
        }
    }

    #[test]
    fn an_account_exactly_old_enough_counts_as_for_votes() {
        let policy = ReviewPolicy { min_account_age: Duration::hours(24) };
        assert_eq!(policy.genuine_at(NOW).reviewers_made_by, NOW - Duration::hours(24));
        let made = NOW - Duration::hours(24);
        let by = |created_at| ReviewFacts {
            hidden: false,
            by_an_owner: false,
            author: Some(ReviewerFacts { email_confirmed: true, blocked: false, created_at }),
        };
        assert!(policy.genuine_at(NOW).holds(&by(made)), "24 hours old: counts");
        assert!(!policy.genuine_at(NOW - Duration::seconds(1)).holds(&by(made)), "a second younger: not yet");
    }

    #[test]
    fn hidden_reviews_owners_reviews_and_unconfirmed_blocked_or_gone_authors_are_not_genuine() {
        let rule = ReviewPolicy { min_account_age: Duration::ZERO }.genuine_at(NOW);
        let author = ReviewerFacts { email_confirmed: true, blocked: false, created_at: NOW - Duration::days(30) };
        let fine = ReviewFacts { hidden: false, by_an_owner: false, author: Some(author) };
        assert!(rule.holds(&fine));
        assert!(!rule.holds(&ReviewFacts { hidden: true, ..fine }));
        assert!(!rule.holds(&ReviewFacts { by_an_owner: true, ..fine }));
        assert!(!rule.holds(&ReviewFacts { author: None, ..fine }));
        assert!(!rule.holds(&ReviewFacts { author: Some(ReviewerFacts { email_confirmed: false, ..author }), ..fine }));
        assert!(!rule.holds(&ReviewFacts { author: Some(ReviewerFacts { blocked: true, ..author }), ..fine }));
    }

    #[tokio::test]
    async fn a_young_accounts_review_is_shown_uncounted_and_counts_once_the_clock_makes_the_account_old_enough() {
        let (reviews, stored, clock) = service();
        let live = Slug::parse("live").unwrap();
        *stored.author.lock().unwrap() = Some((UserId::new(1), NOW - Duration::hours(2)));
        let first = reviews.of_listing(&live, None).await.unwrap();
        assert_eq!((first.total, first.shown[0].genuine), (1, false), "shown, not counted");
        clock.advance(Duration::hours(21));
        assert!(!reviews.of_listing(&live, None).await.unwrap().shown[0].genuine, "23 hours old");
        clock.advance(Duration::hours(1));
        assert!(reviews.of_listing(&live, None).await.unwrap().shown[0].genuine, "24 hours old: it counts, with no write");
        reviews.recent(10).await.unwrap();
        let asked = stored.asked.lock().unwrap().clone();
        assert_eq!(
            asked,
            [NOW - Duration::hours(24), NOW - Duration::hours(3), NOW - Duration::hours(2), NOW - Duration::hours(2)],
            "every read asks with the time of the read"
        );
    }

    #[tokio::test]
    async fn a_review_keeps_the_network_it_was_sent_from() {
        let (reviews, stored, _) = service();
        let member = Member { user: UserId::new(1), email_confirmed: true, network: "198.51.100.7".into() };
        let text = ReviewText::parse("1", "Meh.").unwrap();
        assert_eq!(reviews.save(member.clone(), &Slug::parse("live").unwrap(), &text).await.unwrap(), Saved::Written);
        assert!(matches!(reviews.save(member, &Slug::parse("gone").unwrap(), &text).await, Err(ReviewError::NotLive)));
        assert_eq!(stored.networks.lock().unwrap().clone(), ["198.51.100.7"]);
    }

    #[tokio::test]
    async fn bursts_of_reviews_from_one_network_are_listed_and_an_office_over_a_day_is_not() {
        let (reviews, stored, _) = service();
        let minute = Duration::minutes(1);
        let mut written = Vec::new();
        // Five accounts from one network within five minutes: a burst.
        for n in 0..5 {
            written.push(record(n, n, Some("198.51.100.7"), NOW - Duration::hours(1) + minute * n as i32));
        }
        // Five accounts from one network, an hour apart: people in one office over a day.
        for n in 5..10 {
            written.push(record(n, n, Some("203.0.113.9"), NOW - Duration::hours(n)));
        }
        // One account writing five reviews from one network at once is one account, not a burst.
        for n in 10..15 {
            written.push(record(n, 99, Some("192.0.2.1"), NOW - Duration::hours(2) + minute * n as i32));
        }
        // Reviews from before networks were kept never make a burst.
        for n in 15..20 {
            written.push(record(n, n, None, NOW - Duration::hours(3)));
        }
        // A burst older than the days asked for is not read.
        for n in 20..25 {
            written.push(record(n, n, Some("198.51.100.8"), NOW - Duration::days(40) + minute * n as i32));
        }
        *stored.written.lock().unwrap() = written;
        let listed = reviews.bursts(30, 5, Duration::minutes(10)).await.unwrap();
        assert_eq!(listed.iter().map(|record| record.review.id).collect::<Vec<_>>(), [4, 3, 2, 1, 0], "newest first");
        assert!(listed.iter().all(|record| record.network.as_deref() == Some("198.51.100.7")));
        assert_eq!(stored.asked.lock().unwrap().clone(), [NOW - Duration::hours(24)]);
    }

    #[test]
    fn a_review_needs_one_to_five_stars_and_some_words_and_names_the_field_it_lacks() {
        assert_eq!(ReviewText::parse("4", "  Solid tool.  ").unwrap(), ReviewText { rating: 4, body: "Solid tool.".into() });
        let fields = |rating: &str, body: &str| match ReviewText::parse(rating, body) {
            Err(ReviewError::Invalid(problems)) => problems.iter().map(|problem| problem.field).collect::<Vec<_>>(),
            other => panic!("{other:?}"),
        };
        for bad in ["0", "6", "", "three", "4.5"] {
            assert_eq!(fields(bad, "fine"), ["rating"], "{bad:?}");
        }
        assert_eq!(fields("5", "   "), ["body"]);
        assert_eq!(fields("", ""), ["rating", "body"], "every problem at once");
        assert_eq!(fields("5", &"é".repeat(REVIEW_MAX_CHARS + 1)), ["body"]);
        assert!(ReviewText::parse("5", &"é".repeat(REVIEW_MAX_CHARS)).is_ok(), "the limit counts characters, not bytes");
    }
}
