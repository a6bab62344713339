//! The search index's change feed: every write to what the index holds of a listing (its
//! text, status, filters, category links and sort keys; its view count in steps) gives the
//! listing a feed position, and reading the feed brings back what the index needs, normalised
//! as searches compare it.

use kernel::{CategoryId, ListingId, Week};
use listings::{SearchChanges, SearchDoc};
use sea_orm::{ConnectionTrait, Statement};
use store_seaorm::SeaStore;
use store_seaorm::testing::{TestDatabase, fixtures};
use time::macros::datetime;

async fn exec(test: &TestDatabase, sql: &str) {
    test.db.execute_raw(Statement::from_string(test.db.get_database_backend(), sql)).await.unwrap();
}

/// Reads the feed after `after` and moves `after` to its last position.
async fn read(store: &SeaStore, after: &mut u64) -> SearchChanges {
    let changes = store.search_source().changes_after(*after, 10_000).await.unwrap();
    assert!(!changes.lost);
    if let Some(last) = changes.positions.last() {
        *after = *last;
    }
    changes
}

/// The listing's document in what a write put on the feed (failing when it put nothing).
async fn written(store: &SeaStore, after: &mut u64, id: i64, what: &str) -> SearchDoc {
    let changes = read(store, after).await;
    changes.upserts.into_iter().find(|doc| doc.id == ListingId::new(id)).unwrap_or_else(|| panic!("{what}: no feed position"))
}

#[tokio::test]
async fn every_write_to_what_the_index_holds_is_on_the_feed() {
    let test = TestDatabase::new().await;
    let store = SeaStore::new(test.db.clone());
    let now = datetime!(2026-11-18 12:00 UTC);
    let parent = fixtures::category(&test.db, "parent").await;
    exec(
        &test,
        &format!(
            "INSERT INTO categories (slug, name, description, parent_id, position, faqs) VALUES ('child', 'Child', '', {parent}, 0, '[]')"
        ),
    )
    .await;
    let child = parent + 1;
    let id = fixtures::listing(&test.db, "quillflow", "live", Week::containing(now.date()), now).await;
    let mut after = 0;
    let inserted = written(&store, &mut after, id, "insert").await;
    assert_eq!((inserted.votes, inserted.upcoming, inserted.published_at), (0, false, now));
    assert_eq!(inserted.domain.as_deref(), Some("quillflow.example"));

    exec(&test, &format!("UPDATE listings SET votes_count = votes_count + 3 WHERE id = {id}")).await;
    assert_eq!(written(&store, &mut after, id, "a vote").await.votes, 3);
    exec(&test, &format!("UPDATE listings SET views_count = 3 WHERE id = {id}")).await;
    assert!(read(&store, &mut after).await.positions.is_empty(), "0 → 3 views is the step before");
    exec(&test, &format!("UPDATE listings SET views_count = 40 WHERE id = {id}")).await;
    assert_eq!(written(&store, &mut after, id, "views").await.views, 40);
    // Views in steps (migrations 28 and 29): a count whose tens, or whose digits and first two
    // digits, stay is no change; 40 → 49 is not a step, 49 → 50 is, 100 → 109 is not, 109 → 110
    // and 999 → 1,000 are. Below ten, nothing is a step.
    let steps = [
        (41, false),
        (49, false),
        (50, true),
        (100, true),
        (109, false),
        (110, true),
        (999, true),
        (1000, true),
        (1050, false),
        (1100, true),
    ];
    for (views, step) in steps {
        exec(&test, &format!("UPDATE listings SET views_count = {views} WHERE id = {id}")).await;
        let changes = read(&store, &mut after).await;
        match step {
            true => {
                assert_eq!(changes.upserts.iter().find(|doc| doc.id == ListingId::new(id)).map(|doc| doc.views), Some(views), "{views}")
            }
            false => assert!(changes.positions.is_empty(), "{views} views is the step before"),
        }
    }
    exec(&test, &format!("UPDATE listings SET follows_count = 2 WHERE id = {id}")).await;
    assert_eq!(written(&store, &mut after, id, "a follow").await.follows, 2);
    exec(
        &test,
        &format!("UPDATE listings SET stage = 'beta', country = 'DE', pricing_model = 'Freemium', domain = 'WWW.Quillflow.Example.' WHERE id = {id}"),
    )
    .await;
    let filtered = written(&store, &mut after, id, "filters").await;
    assert_eq!(
        (filtered.stage.as_deref(), filtered.country.as_deref(), filtered.pricing_model.as_deref(), filtered.domain.as_deref()),
        (Some("beta"), Some("DE"), Some("freemium"), Some("quillflow.example")),
        "pricing model and domain as searches compare them"
    );
    fixtures::in_category(&test.db, id, child, true).await;
    let linked = written(&store, &mut after, id, "a category link").await;
    assert_eq!(linked.categories, [CategoryId::new(child), CategoryId::new(parent)], "filed under the parent too");
    assert_eq!(linked.topics, ["Child", "PARENT"], "with their names, which searches match");
    exec(&test, &format!("DELETE FROM listing_categories WHERE listing_id = {id}")).await;
    let unlinked = written(&store, &mut after, id, "an unlink").await;
    assert!(unlinked.categories.is_empty() && unlinked.topics.is_empty());

    exec(&test, &format!("UPDATE listings SET updated_at = updated_at, badge_failures = 1 WHERE id = {id}")).await;
    assert!(read(&store, &mut after).await.positions.is_empty(), "a column the index does not hold is no change");

    exec(&test, &format!("UPDATE listings SET status = 'archived' WHERE id = {id}")).await;
    assert_eq!(read(&store, &mut after).await.removed, [ListingId::new(id)], "archived: out of the index");
}
