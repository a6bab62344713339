//! Kept listing documents (`shared::documents`, migration 25): a profile read from its document
//! is the profile read part by part; every kind of change makes the document stale in its own
//! transaction, so the next read shows the change whole (counters, read beside it, leave it
//! current); and reads racing votes never see a vote's count without its week, or the other way
//! round.

use kernel::{Slug, UserId, Week};
use listings::{GenuineReviews, ListingProfile, NewVote, ProfileRepository, VoteRepository};
use store_seaorm::SeaStore;
use store_seaorm::testing::{TestDatabase, fixtures};
use time::macros::datetime;
use time::{Duration, OffsetDateTime};

const T: OffsetDateTime = datetime!(2026-11-25 12:00 UTC);

async fn read(store: &SeaStore, slug: &Slug) -> ListingProfile {
    let rule = GenuineReviews { reviewers_made_by: T - Duration::hours(24) };
    store.profile(slug, T, rule, listings::LATEST_UPDATES).await.unwrap().expect("the listing")
}

fn vote_of(user: i64, at: OffsetDateTime) -> NewVote {
    NewVote { user: UserId::new(user), at, week: Week::containing(at.date()), counted: true, network: "198.51.100.7".into() }
}

/// An account old enough for its review to count.
async fn member(db: &sea_orm::DatabaseConnection, email: &str) -> i64 {
    let user = fixtures::user(db, email).await;
    fixtures::account_made(db, user, T - Duration::days(30)).await;
    user
}

#[tokio::test]
async fn a_kept_document_reads_as_its_parts_and_every_kind_of_change_shows_at_once() {
    let test = TestDatabase::new().await;
    let db = &test.db;
    let store = SeaStore::new(db.clone());
    let listing = fixtures::listing(db, "kept", "live", Week::containing(T.date()), T - Duration::days(3)).await;
    let slug = Slug::parse("kept").unwrap();
    let category = fixtures::category(db, "productivity").await;
    fixtures::in_category(db, listing, category, true).await;
    fixtures::founder(db, listing, "first-founder", 0).await;
    let (reviewer, voter) = (member(db, "reviewer@example.com").await, member(db, "voter@example.com").await);
    fixtures::review(db, listing, reviewer, 4, false).await;
    store.cast(&slug, vote_of(voter, T - Duration::hours(1))).await.unwrap();

    let by_parts = read(&store, &slug).await;
    assert!(!fixtures::document_is_current(db, listing).await, "nothing made ready yet ({})", test.backend_name());
    assert!(store.prepare_profiles().await.unwrap() >= 1);
    assert!(fixtures::document_is_current(db, listing).await);
    assert_eq!(store.prepare_profiles().await.unwrap(), 0, "none left waiting");
    let from_document = read(&store, &slug).await;
    assert_eq!(from_document, by_parts, "the document reads as the parts");
    assert_eq!((from_document.summary.votes, from_document.rating.count, from_document.founders.len()), (1, 1, 1));
    assert_eq!(from_document.categories.len(), 1);

    // A vote: its count is on the row, its week in the document; both show.
    let second = member(db, "second@example.com").await;
    store.cast(&slug, vote_of(second, T)).await.unwrap();
    assert!(!fixtures::document_is_current(db, listing).await, "a vote makes the document stale");
    let voted = read(&store, &slug).await;
    assert_eq!(voted.summary.votes, 2);
    assert_eq!(voted.momentum.by_week.iter().map(|(_, votes)| votes).sum::<u64>(), 2);
    assert_eq!(voted.momentum.last_vote_at, Some(T));
    store.prepare_profiles().await.unwrap();
    assert_eq!(read(&store, &slug).await, voted, "made ready again, it reads the same");

    // A review, then its author blocked: the rating follows both.
    fixtures::review(db, listing, second, 2, false).await;
    assert!(!fixtures::document_is_current(db, listing).await, "a review makes it stale");
    assert_eq!(read(&store, &slug).await.rating.count, 2);
    store.prepare_profiles().await.unwrap();
    fixtures::block(db, second).await;
    assert!(!fixtures::document_is_current(db, listing).await, "blocking a reviewer makes it stale");
    assert_eq!(read(&store, &slug).await.rating.count, 1);
    store.prepare_profiles().await.unwrap();

    // The reviewer becomes an owner: an owner's review never counts.
    fixtures::set_owner(db, listing, reviewer).await;
    assert_eq!(read(&store, &slug).await.rating.count, 0, "the owner is on the row, read with the document");

    // A founder added.
    fixtures::founder(db, listing, "second-founder", 1).await;
    assert!(!fixtures::document_is_current(db, listing).await, "a founder makes it stale");
    assert_eq!(read(&store, &slug).await.founders.len(), 2);
    store.prepare_profiles().await.unwrap();

    // An owner's edit of the row's profile columns makes it stale too; the edit shows.
    fixtures::edit_tagline(db, listing, "Edited just now").await;
    assert!(!fixtures::document_is_current(db, listing).await, "an edit of the row makes it stale");
    let edited = read(&store, &slug).await;
    assert_eq!(edited.summary.tagline.as_deref(), Some("Edited just now"));
    assert_eq!(edited.founders.len(), 2);
    store.prepare_profiles().await.unwrap();
    assert_eq!(read(&store, &slug).await, edited);

    // Counted views are a counter, read beside the document: it stays current and they show.
    fixtures::views(db, listing, 41).await;
    assert!(fixtures::document_is_current(db, listing).await, "counters do not touch the document");
    assert_eq!(read(&store, &slug).await.views, 41);
}

#[tokio::test]
async fn reads_racing_votes_never_see_a_votes_count_without_its_week() {
    let test = TestDatabase::new().await;
    let db = &test.db;
    let store = SeaStore::new(db.clone());
    fixtures::listing(db, "raced", "live", Week::containing(T.date()), T - Duration::days(1)).await;
    let slug = Slug::parse("raced").unwrap();
    let mut voters = Vec::new();
    for n in 0..40 {
        voters.push(member(db, &format!("racer{n}@example.com")).await);
    }
    store.prepare_profiles().await.unwrap();

    let writer = {
        let (store, slug) = (store.clone(), slug.clone());
        tokio::spawn(async move {
            for (n, voter) in voters.into_iter().enumerate() {
                store.cast(&slug, vote_of(voter, T - Duration::minutes(n as i64))).await.unwrap();
                if n % 3 == 0 {
                    store.prepare_profiles().await.unwrap();
                }
            }
        })
    };
    let mut reads = 0;
    while !writer.is_finished() || reads == 0 {
        let profile = read(&store, &slug).await;
        let by_week: u64 = profile.momentum.by_week.iter().map(|(_, votes)| votes).sum();
        assert_eq!(profile.summary.votes, by_week, "read {reads}: the count and the weeks are of one moment ({})", test.backend_name());
        reads += 1;
    }
    writer.await.unwrap();
    store.prepare_profiles().await.unwrap();
    let last = read(&store, &slug).await;
    assert_eq!((last.summary.votes, last.momentum.by_week.iter().map(|(_, votes)| votes).sum::<u64>()), (40, 40));
}

#[tokio::test]
async fn a_flush_of_views_adds_each_listings_own_count_however_many_listings_it_holds() {
    let test = TestDatabase::new().await;
    let store = SeaStore::new(test.db.clone());
    // More listings with one view than one statement takes, and a few with more.
    let mut views = Vec::new();
    for n in 0..503 {
        let id = fixtures::listing(&test.db, &format!("viewed-{n}"), "live", Week::containing(T.date()), T).await;
        let count = match n {
            0 => 7,
            1 | 2 => 2,
            _ => 1,
        };
        views.push((kernel::ListingId::new(id), count));
    }
    store.add_views(&views).await.unwrap();
    store.add_views(&views[..2]).await.unwrap();
    for (n, expected) in [(0, 14), (1, 4), (2, 2), (3, 1), (502, 1)] {
        let slug = Slug::parse(&format!("viewed-{n}")).unwrap();
        assert_eq!(read(&store, &slug).await.views, expected, "viewed-{n} on {}", test.backend_name());
    }
}
