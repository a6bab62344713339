//! Page positions: a page read just after the page before it starts where that page ended (a
//! walk of the list's index from there) and is the page an offset read finds, ties across the
//! pages' edges included, in every ranked list; within a second, a page starts where the page
//! before it ended even if writes elsewhere moved rows since, until the second passes or this
//! server takes a write, or the page before it comes out short.

use kernel::{CategoryId, PageRequest, Week};
use listings::{DbOrder, FeedRepository, FounderRepository, ListingRepository, RankingRepository, SearchSource};
use sea_orm::{ConnectionTrait, Statement};
use std::time::Duration;
use store_seaorm::SeaStore;
use store_seaorm::testing::{TestDatabase, fixtures};
use time::macros::datetime;

/// Votes of the listings made, in the order they are made: ties run across the edges of pages
/// of three (5 5 5 | 5 4 4 | 4 4 3 | ...), and one listing has none.
const VOTES: [i64; 14] = [5, 5, 5, 5, 4, 4, 4, 4, 3, 2, 2, 1, 1, 0];
const PER_PAGE: u32 = 3;

async fn execute(test: &TestDatabase, sql: &str) {
    test.db.execute_raw(Statement::from_string(test.db.get_database_backend(), sql)).await.unwrap();
}

/// Live listings with `VOTES`, launched an hour apart (two at the same moment, a tie in the
/// newest first), all in one category, each with a founder (named in pairs: ties in the names);
/// the category's id.
async fn directory(test: &TestDatabase) -> CategoryId {
    let category = fixtures::category(&test.db, "walked").await;
    let start = datetime!(2026-11-02 09:00 UTC);
    for (n, votes) in VOTES.iter().enumerate() {
        let hours = if n == 6 { 5 } else { n as i64 };
        let at = start + time::Duration::hours(hours);
        let id = fixtures::listing(&test.db, &format!("walked-{n:02}"), "live", Week::containing(at.date()), at).await;
        fixtures::in_category(&test.db, id, category, true).await;
        execute(test, &format!("UPDATE listings SET votes_count = {votes} WHERE id = {id}")).await;
        let founder = fixtures::founder(&test.db, id, &format!("founder-{n:02}"), 0).await;
        execute(test, &format!("UPDATE founders SET name = 'Founder {}' WHERE id = {founder}", n / 2)).await;
    }
    CategoryId::new(category)
}

/// One page of each ranked list, as slugs (`[votes, newest, category, search by votes,
/// founders]`).
async fn pages(store: &SeaStore, category: CategoryId, number: u32) -> [Vec<String>; 5] {
    let page = PageRequest::new(number, PER_PAGE).unwrap();
    let total = VOTES.len() as u64;
    let slugs = |items: Vec<kernel::Slug>| items.into_iter().map(|slug| slug.to_string()).collect::<Vec<_>>();
    let votes = store.by_votes(page, total).await.unwrap().items.into_iter().map(|s| s.slug).collect();
    let newest = store.recent(page, total).await.unwrap().items.into_iter().map(|(s, _)| s.slug).collect();
    let in_category = store.live_in_category(category, page, total).await.unwrap().items.into_iter().map(|s| s.slug).collect();
    let found = store.page(Some(&[category]), DbOrder::Votes, page, total).await.unwrap().items.into_iter().map(|s| s.slug).collect();
    let founders = store.list_behind_live(&[], None, page, Some(total)).await.unwrap().items.into_iter().map(|f| f.slug).collect();
    [slugs(votes), slugs(newest), slugs(in_category), slugs(found), slugs(founders)]
}

/// A page as a store that remembers nothing finds it: by its offset.
async fn by_offset(test: &TestDatabase, category: CategoryId, number: u32) -> [Vec<String>; 5] {
    pages(&SeaStore::new(test.db.clone()), category, number).await
}

#[tokio::test]
async fn pages_read_one_after_another_are_the_pages_an_offset_finds() {
    let test = TestDatabase::new().await;
    let category = directory(&test).await;
    let walking = SeaStore::new(test.db.clone());
    let mut seen: [Vec<String>; 5] = Default::default();
    for number in 1..=6 {
        let walked = pages(&walking, category, number).await;
        assert_eq!(walked, by_offset(&test, category, number).await, "{}: page {number}", test.backend_name());
        for (list, page) in seen.iter_mut().zip(walked) {
            list.extend(page);
        }
    }
    // Every listing once, in the order of the list.
    let by_votes: Vec<String> = (0..VOTES.len()).map(|n| format!("walked-{n:02}")).collect();
    assert_eq!(seen[0], by_votes);
    assert_eq!(seen[2], by_votes);
    assert_eq!(seen[3], by_votes);
    let founders: Vec<String> = (0..VOTES.len()).map(|n| format!("founder-{n:02}")).collect();
    assert_eq!(seen[4], founders, "by name, ties by id");
    let mut newest = seen[1].clone();
    newest.sort();
    assert_eq!(newest, by_votes, "the newest first holds every listing once");
    assert_eq!(&seen[1][..3], ["walked-13", "walked-12", "walked-11"]);
}

#[tokio::test]
async fn a_page_starts_where_the_page_before_it_ended_until_a_write_here_or_a_second_passes() {
    let test = TestDatabase::new().await;
    let category = directory(&test).await;
    let walking = SeaStore::new(test.db.clone());
    let [page_one, ..] = pages(&walking, category, 1).await;
    assert_eq!(page_one, ["walked-00", "walked-01", "walked-02"]);

    // Another server's write moves the first of page two to the top.
    execute(&test, "UPDATE listings SET votes_count = 1000 WHERE slug = 'walked-03'").await;
    let [offset_two, ..] = by_offset(&test, category, 2).await;
    assert_eq!(offset_two, ["walked-02", "walked-04", "walked-05"]);
    // Page two read now starts after page one's last row as it was read: nothing is shown twice
    // to whoever reads the pages in turn.
    let [walked_two, _, category_two, ..] = pages(&walking, category, 2).await;
    assert_eq!(walked_two, ["walked-04", "walked-05", "walked-06"], "{}", test.backend_name());
    assert_eq!(category_two, walked_two);

    // A write this server takes forgets where pages start.
    walking.writes().advance();
    assert_eq!(pages(&walking, category, 2).await[0], offset_two);

    // So does a second passing.
    let [page_one, ..] = pages(&walking, category, 1).await;
    assert_eq!(page_one, ["walked-03", "walked-00", "walked-01"]);
    execute(&test, "UPDATE listings SET votes_count = 2000 WHERE slug = 'walked-04'").await;
    tokio::time::sleep(Duration::from_millis(1100)).await;
    assert_eq!(pages(&walking, category, 2).await[0], by_offset(&test, category, 2).await[0]);

    // A page that comes out short forgets where the page after it began: the list ends there.
    assert!(pages(&walking, category, 2).await.iter().all(|page| page.len() == 3));
    execute(&test, "UPDATE listings SET status = 'archived' WHERE slug NOT IN ('walked-00', 'walked-01', 'walked-02', 'walked-03')").await;
    assert!(pages(&walking, category, 2).await.iter().all(|page| page.len() == 1), "{}", test.backend_name());
    assert_eq!(pages(&walking, category, 3).await, <[Vec<String>; 5]>::default());
}
