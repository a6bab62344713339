//! Reviews and follows: what people on the site say about a live listing and whose updates they
//! want by e-mail. One review per person per listing (a 1-5 rating and text; written again, it
//! is edited; it can be deleted); a review counts toward the community rating only when it is
//! genuine (the reviewer's e-mail is confirmed, the account not blocked, the reviewer not the
//! owner, the review not hidden by the site team). Following sends e-mail, so it needs a
//! confirmed address. Neither is an API operation: both come from the site's pages.

use async_trait::async_trait;
use kernel::{Clock, RepoError, Slug, UserId};
use std::sync::Arc;
use time::OffsetDateTime;

/// The longest review text, in characters.
pub const REVIEW_MAX_CHARS: usize = 2000;
/// How many reviews a listing's page shows, newest first.
pub const REVIEWS_SHOWN: u64 = 50;

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
    /// Whether it counts toward the community rating (see the module's rules).
    pub genuine: bool,
    /// Hidden by the site team (only its author still sees it).
    pub hidden: bool,
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
}

/// Whether saving made a review or changed one.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Saved {
    Written,
    Edited,
}

#[async_trait]
pub trait ReviewRepository: Send + Sync {
    /// Writes `user`'s review of the live listing `listing`, or edits the one they wrote
    /// (unique per person and listing). `None` when no live listing has this slug.
    async fn save(&self, listing: &Slug, user: UserId, review: &ReviewText, at: OffsetDateTime) -> Result<Option<Saved>, RepoError>;
    /// Deletes `user`'s review of `listing`; `false` when there was none.
    async fn delete(&self, listing: &Slug, user: UserId) -> Result<bool, RepoError>;
    /// The listing's visible reviews, and the viewer's own review and follow.
    async fn of_listing(&self, listing: &Slug, viewer: Option<UserId>, shown: u64) -> Result<ListingReviews, RepoError>;
    /// The newest reviews of any listing, hidden ones included, with their listing's slug.
    async fn recent(&self, limit: u64) -> Result<Vec<(Slug, Review)>, RepoError>;
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
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Member {
    pub user: UserId,
    pub email_confirmed: bool,
}

#[derive(Clone)]
pub struct ReviewService {
    repo: Arc<dyn ReviewRepository>,
    clock: Arc<dyn Clock>,
}

impl ReviewService {
    pub fn new(repo: Arc<dyn ReviewRepository>, clock: Arc<dyn Clock>) -> Self {
        Self { repo, clock }
    }

    /// Writes or edits `member`'s review. Anyone signed in may write one; it counts toward the
    /// rating only when genuine.
    pub async fn save(&self, member: Member, listing: &Slug, review: &ReviewText) -> Result<Saved, ReviewError> {
        self.repo.save(listing, member.user, review, self.clock.now()).await?.ok_or(ReviewError::NotLive)
    }

    pub async fn delete(&self, member: Member, listing: &Slug) -> Result<bool, ReviewError> {
        Ok(self.repo.delete(listing, member.user).await?)
    }

    pub async fn of_listing(&self, listing: &Slug, viewer: Option<UserId>) -> Result<ListingReviews, RepoError> {
        self.repo.of_listing(listing, viewer, REVIEWS_SHOWN).await
    }

    /// The newest reviews, for the site team.
    pub async fn recent(&self, limit: u64) -> Result<Vec<(Slug, Review)>, RepoError> {
        self.repo.recent(limit).await
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

#[cfg(test)]
mod tests {
    use super::*;

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
