//! Reviews: the rating (`profile_repo`) and the page's marks (`reviews_repo`) count a review once
//! its author's account is old enough at the time of the read, with no write in between; a
//! review keeps the client network it was first written from.

use kernel::{Slug, UserId, Week};
use listings::{GenuineReviews, ProfileRepository, ReviewRepository, ReviewText, Saved};
use store_seaorm::SeaStore;
use store_seaorm::testing::{TestDatabase, fixtures};
use time::macros::datetime;
use time::{Duration, OffsetDateTime};

const T: OffsetDateTime = datetime!(2026-11-25 12:00 UTC);
/// `vote_min_account_age_hours`' default.
const MIN_AGE: Duration = Duration::hours(24);

/// The domain's rule of genuine reviews, for reads at which accounts made by `at` are old enough.
fn made_by(at: OffsetDateTime) -> GenuineReviews {
    GenuineReviews { reviewers_made_by: at }
}

#[tokio::test]
async fn the_rating_query_and_the_marks_apply_the_domains_rule_of_genuine_reviews_alike() {
    let test = TestDatabase::new().await;
    let db = &test.db;
    let store = SeaStore::new(db.clone());
    let listing = fixtures::listing(db, "judged", "live", Week::containing(T.date()), T - Duration::days(7)).await;
    let slug = Slug::parse("judged").unwrap();
    // One review for each condition of `GenuineReviews`, and one that meets them all.
    let mut people = Vec::new();
    for name in ["fine", "young", "unconfirmed", "blocked", "owner", "hidden"] {
        let user = fixtures::user(db, &format!("{name}@example.com")).await;
        fixtures::account_made(db, user, T - Duration::days(30)).await;
        people.push((name, user));
    }
    let user = |wanted: &str| people.iter().find(|(name, _)| *name == wanted).unwrap().1;
    fixtures::account_made(db, user("young"), T - Duration::hours(2)).await;
    fixtures::unconfirm(db, user("unconfirmed")).await;
    fixtures::block(db, user("blocked")).await;
    fixtures::set_owner(db, listing, user("owner")).await;
    for (rating, (name, who)) in people.iter().enumerate() {
        fixtures::review(db, listing, *who, 5 - rating as i16 % 5, *name == "hidden").await;
    }
    let rule = made_by(T - MIN_AGE);
    let rating = store.profile(&slug, T, rule, 0).await.unwrap().unwrap().rating;
    assert_eq!((rating.count, rating.distribution), (1, [0, 0, 0, 0, 1]), "only the fine review counts ({})", test.backend_name());
    let recent = store.recent(10, rule).await.unwrap();
    assert_eq!(recent.len(), 6, "the site team's list has every review, the hidden one too");
    let genuine: Vec<u8> = recent.iter().filter(|(_, review)| review.genuine).map(|(_, review)| review.rating).collect();
    assert_eq!(genuine, [5], "the marks agree with the rating");
    let shown = store.of_listing(&slug, None, 50, rule).await.unwrap().shown;
    assert_eq!(shown.iter().filter(|review| review.genuine).count() as u64, rating.count);
    // Signed in, the listing is read first (for the viewer's own review): the same marks.
    let seen = store.of_listing(&slug, Some(UserId::new(user("owner"))), 50, rule).await.unwrap();
    assert_eq!(
        seen.shown.iter().map(|review| (review.id, review.genuine)).collect::<Vec<_>>(),
        shown.iter().map(|review| (review.id, review.genuine)).collect::<Vec<_>>()
    );
    assert_eq!(seen.mine.map(|review| review.genuine), Some(false), "the owner's own review, not counted");
}

#[tokio::test]
async fn a_young_accounts_review_counts_from_the_first_read_at_which_the_account_is_old_enough() {
    let test = TestDatabase::new().await;
    let db = &test.db;
    let store = SeaStore::new(db.clone());
    fixtures::listing(db, "rated", "live", Week::containing(T.date()), T - Duration::days(7)).await;
    let slug = Slug::parse("rated").unwrap();
    let (old, young) = (fixtures::user(db, "old@example.com").await, fixtures::user(db, "young@example.com").await);
    fixtures::account_made(db, old, T - Duration::days(30)).await;
    fixtures::account_made(db, young, T - Duration::hours(2)).await;
    let (five, one) = (ReviewText::parse("5", "Great.").unwrap(), ReviewText::parse("1", "Bad.").unwrap());
    for (who, text) in [(old, &five), (young, &one)] {
        let saved = store.save(&slug, UserId::new(who), text, T, "198.51.100.7").await.unwrap();
        assert_eq!(saved, Some(Saved::Written));
    }

    // At T the young account is 2 hours old: its review is shown, marked, and not in the rating.
    let rating = |now: OffsetDateTime| {
        let store = store.clone();
        let slug = slug.clone();
        async move { store.profile(&slug, now, made_by(now - MIN_AGE), 0).await.unwrap().unwrap().rating }
    };
    let at_t = rating(T).await;
    assert_eq!((at_t.average, at_t.count, at_t.distribution), (Some(5.0), 1, [0, 0, 0, 0, 1]), "{}", test.backend_name());
    let marks = |now: OffsetDateTime| {
        let store = store.clone();
        let slug = slug.clone();
        async move {
            let reviews = store.of_listing(&slug, None, 50, made_by(now - MIN_AGE)).await.unwrap();
            let mut marks: Vec<(u8, bool)> = reviews.shown.iter().map(|review| (review.rating, review.genuine)).collect();
            marks.sort_unstable();
            (reviews.total, marks)
        }
    };
    assert_eq!(marks(T).await, (2, vec![(1, false), (5, true)]), "both shown, the young one not counted");

    // 21 hours later it is 23 hours old: still not counted.
    assert_eq!(rating(T + Duration::hours(21)).await.count, 1);
    // 22 hours later it is 24 hours old: it counts, though nothing was written.
    let later = rating(T + Duration::hours(22)).await;
    assert_eq!((later.average, later.count, later.distribution), (Some(3.0), 2, [1, 0, 0, 0, 1]), "{}", test.backend_name());
    assert_eq!(marks(T + Duration::hours(22)).await, (2, vec![(1, true), (5, true)]));
    let recent = store.recent(10, made_by(T + Duration::hours(22) - MIN_AGE)).await.unwrap();
    assert!(recent.iter().all(|(_, review)| review.genuine), "the site team's list marks the same way");

    // Edited from another network, the review keeps the network it was first written from.
    let edited = store.save(&slug, UserId::new(young), &five, T + Duration::hours(1), "203.0.113.9").await.unwrap();
    assert_eq!(edited, Some(Saved::Edited));
    let written = store.written_since(T - Duration::days(1), made_by(T - MIN_AGE)).await.unwrap();
    let mut networks: Vec<(UserId, Option<&str>, u8)> =
        written.iter().map(|record| (record.user, record.network.as_deref(), record.review.rating)).collect();
    networks.sort_unstable();
    assert_eq!(networks, [(UserId::new(old), Some("198.51.100.7"), 5), (UserId::new(young), Some("198.51.100.7"), 5)]);
    assert!(written.iter().all(|record| record.listing == slug));
    assert!(store.written_since(T + Duration::hours(2), made_by(T - MIN_AGE)).await.unwrap().is_empty(), "first written before then");
}
