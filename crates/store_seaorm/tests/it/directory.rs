//! Categories, live counts and category pages over the demo directory; the seed is idempotent.

use kernel::{CategoryId, PageRequest, Slug};
use listings::{CategoryRepository, ListingRepository, ListingStatus};
use sea_orm::{ConnectionTrait, Statement};
use store_seaorm::SeaStore;
use store_seaorm::testing::TestDatabase;
use time::macros::datetime;

async fn scalar(test: &TestDatabase, sql: &str) -> i64 {
    let row = test.db.query_one_raw(Statement::from_string(test.db.get_database_backend(), sql)).await.unwrap().unwrap();
    row.try_get_by_index::<i64>(0).unwrap()
}

#[tokio::test]
async fn demo_directory_reads_and_seed_is_idempotent() {
    let test = TestDatabase::new().await;
    let store = SeaStore::new(test.db.clone());
    let now = datetime!(2026-11-18 12:00 UTC);
    let first = store_seaorm::seed::demo(&test.db, now).await.unwrap();
    assert!(first.categories >= 25 && first.listings >= 300 && first.votes > 1000, "{first:?}");
    assert!(store_seaorm::seed::has_listings(&test.db).await.unwrap());

    // Votes: one per person per listing, and votes_count mirrors the votes table.
    assert_eq!(scalar(&test, "SELECT COUNT(*) FROM votes").await, first.votes as i64);
    assert_eq!(
        scalar(&test, "SELECT COUNT(*) FROM listings l WHERE l.votes_count <> (SELECT COUNT(*) FROM votes v WHERE v.listing_id = l.id)")
            .await,
        0
    );
    // Launch weeks spread over past, current and future weeks.
    assert!(scalar(&test, "SELECT COUNT(*) FROM listings WHERE launch_week < '2026-11-16'").await > 100);
    assert!(scalar(&test, "SELECT COUNT(*) FROM listings WHERE launch_week = '2026-11-16'").await > 0);
    assert!(scalar(&test, "SELECT COUNT(*) FROM listings WHERE launch_week > '2026-11-16'").await > 0);
    assert!(scalar(&test, "SELECT COUNT(*) FROM listings WHERE status = 'awaiting_badge'").await > 0);
    assert_eq!(scalar(&test, "SELECT COUNT(*) FROM listings WHERE url NOT LIKE 'https://%.example'").await, 0, "fictional domains only");

    // Live count equals what SQL says.
    let live = scalar(&test, "SELECT COUNT(*) FROM listings WHERE status = 'live'").await as u64;
    assert_eq!(store.live_counts().await.unwrap().live, live);
    let followed = scalar(
        &test,
        "SELECT COUNT(DISTINCT f.listing_id) FROM listing_follows f JOIN listings l ON l.id = f.listing_id WHERE l.status = 'live'",
    )
    .await as u64;
    assert_eq!(store.live_counts().await.unwrap().followed, followed);
    assert_eq!(
        scalar(
            &test,
            "SELECT COUNT(*) FROM listings l WHERE l.follows_count <> (SELECT COUNT(*) FROM listing_follows f WHERE f.listing_id = l.id)"
        )
        .await,
        0,
        "the seed keeps follows_count in step"
    );

    // Two-level tree, every category with a description and FAQs.
    let categories = store.all().await.unwrap();
    assert!(categories.len() >= 25);
    for category in &categories {
        assert!(!category.description.is_empty() && !category.faqs.is_empty(), "{}", category.slug);
        if let Some(parent) = category.parent_id {
            let parent = categories.iter().find(|c| c.id == parent).unwrap();
            assert!(parent.parent_id.is_none(), "{} is nested deeper than two levels", category.slug);
        }
    }

    // Per-top-level counts are distinct listings of the subtree, never more than the sum.
    let counts = store.live_counts().await.unwrap();
    let productivity = CategoryRepository::find_by_slug(&store, &Slug::parse("productivity").unwrap()).await.unwrap().unwrap();
    let children: Vec<_> = categories.iter().filter(|c| c.parent_id == Some(productivity.id)).collect();
    let sum_children: u64 = children.iter().map(|c| counts.direct.get(&c.id).copied().unwrap_or(0)).sum();
    let subtree = counts.by_top_level[&productivity.id];
    assert!(subtree > 0 && subtree <= sum_children + counts.direct.get(&productivity.id).copied().unwrap_or(0));

    // A category page: live listings of the subtree, most voted first, paginated.
    let page1 = store.live_in_category(productivity.id, PageRequest::new(1, 5).unwrap(), subtree).await.unwrap();
    assert_eq!(page1.total, subtree);
    assert_eq!(page1.items.len(), 5);
    assert!(page1.items.windows(2).all(|pair| pair[0].votes >= pair[1].votes));
    assert!(page1.items.iter().all(|item| item.status == ListingStatus::Live));
    let page2 = store.live_in_category(productivity.id, PageRequest::new(2, 5).unwrap(), subtree).await.unwrap();
    assert!(page1.items.last().unwrap().votes >= page2.items[0].votes);
    assert!(page2.items.iter().all(|item| !page1.items.contains(item)));
    let beyond = store.live_in_category(productivity.id, PageRequest::new(1000, 100).unwrap(), subtree).await.unwrap();
    assert!(beyond.items.is_empty() && beyond.total == subtree);

    // Seeding again adds nothing.
    let second = store_seaorm::seed::demo(&test.db, now).await.unwrap();
    assert!(second.is_empty(), "{second:?}");
    assert_eq!(scalar(&test, "SELECT COUNT(*) FROM votes").await, first.votes as i64);
}

/// Every live listing on `category`'s page, in the page's order, computed from the rows: the
/// listings carrying the category or (for a top-level one) any of its subcategories.
async fn ranked_from_rows(test: &TestDatabase, category: CategoryId) -> Vec<String> {
    let sql = format!(
        "SELECT l.slug FROM listings l WHERE l.status = 'live' AND EXISTS (SELECT 1 FROM listing_categories lc \
         JOIN categories c ON c.id = lc.category_id WHERE lc.listing_id = l.id AND (c.id = {id} OR c.parent_id = {id})) \
         ORDER BY l.votes_count DESC, l.id",
        id = category.get()
    );
    let rows = test.db.query_all_raw(Statement::from_string(test.db.get_database_backend(), sql)).await.unwrap();
    rows.iter().map(|row| row.try_get_by_index::<String>(0).unwrap()).collect()
}

/// Every page of `category`, as the store reads them, end to end.
async fn ranked_by_store(store: &SeaStore, category: &listings::Category) -> Vec<String> {
    let counts = store.live_counts().await.unwrap();
    let table = if category.parent_id.is_none() { &counts.by_top_level } else { &counts.direct };
    let total = table.get(&category.id).copied().unwrap_or(0);
    let mut slugs = Vec::new();
    for number in 1.. {
        let page = store.live_in_category(category.id, PageRequest::new(number, 7).unwrap(), total).await.unwrap();
        assert_eq!(page.total, total);
        if page.items.is_empty() {
            break;
        }
        slugs.extend(page.items.iter().map(|item| item.slug.as_str().to_owned()));
    }
    assert_eq!(slugs.len() as u64, total, "{}: the kept count and the pages agree", category.slug);
    slugs
}

async fn execute(test: &TestDatabase, sql: &str) {
    test.db.execute_raw(Statement::from_string(test.db.get_database_backend(), sql)).await.unwrap();
}

#[tokio::test]
async fn category_pages_follow_votes_statuses_and_links() {
    let test = TestDatabase::new().await;
    let store = SeaStore::new(test.db.clone());
    store_seaorm::seed::demo(&test.db, datetime!(2026-11-18 12:00 UTC)).await.unwrap();
    let categories = store.all().await.unwrap();
    let top = categories.iter().find(|c| c.slug.as_str() == "productivity").unwrap();
    let child = categories.iter().find(|c| c.parent_id == Some(top.id)).unwrap();
    let other = categories.iter().find(|c| c.parent_id.is_some() && c.parent_id != Some(top.id)).unwrap();
    let check = async |when: &str| {
        for category in [top, child, other] {
            assert_eq!(ranked_by_store(&store, category).await, ranked_from_rows(&test, category.id).await, "{when}: {}", category.slug);
        }
    };
    check("seeded").await;

    // The last of the child's page gets the most votes, so it leads both pages it is on.
    let last = ranked_from_rows(&test, child.id).await.pop().unwrap();
    execute(&test, &format!("UPDATE listings SET votes_count = votes_count + 100000 WHERE slug = '{last}'")).await;
    check("a vote count moved").await;
    assert_eq!(ranked_from_rows(&test, top.id).await[0], last);

    // It leaves the directory, then comes back.
    execute(&test, &format!("UPDATE listings SET status = 'archived' WHERE slug = '{last}'")).await;
    check("archived").await;
    assert!(!ranked_by_store(&store, top).await.contains(&last));
    execute(&test, &format!("UPDATE listings SET status = 'live' WHERE slug = '{last}'")).await;
    check("live again").await;

    // It takes another tree's subcategory, then drops its links to this tree.
    let id = scalar(&test, &format!("SELECT id FROM listings WHERE slug = '{last}'")).await;
    execute(&test, &format!("INSERT INTO listing_categories (listing_id, category_id) VALUES ({id}, {})", other.id.get())).await;
    check("linked to another tree").await;
    assert!(ranked_by_store(&store, other).await.contains(&last));
    execute(
        &test,
        &format!(
            "DELETE FROM listing_categories WHERE listing_id = {id} AND category_id IN \
             (SELECT id FROM categories WHERE id = {top} OR parent_id = {top})",
            top = top.id.get()
        ),
    )
    .await;
    check("unlinked from its tree").await;
    assert!(!ranked_by_store(&store, top).await.contains(&last));

    // Deleting it leaves no row behind.
    execute(&test, &format!("DELETE FROM listings WHERE id = {id}")).await;
    check("deleted").await;
    assert_eq!(scalar(&test, &format!("SELECT COUNT(*) FROM category_rankings WHERE listing_id = {id}")).await, 0);
}

#[tokio::test]
async fn bulk_listings_for_benchmarks() {
    let test = TestDatabase::new().await;
    let store = SeaStore::new(test.db.clone());
    let now = datetime!(2026-11-18 12:00 UTC);
    assert!(store_seaorm::seed::bulk_listings(&test.db, now, 10, |_| {}).await.is_err(), "needs the demo seed first");
    store_seaorm::seed::demo(&test.db, now).await.unwrap();
    let live_before = store.live_counts().await.unwrap().live;
    let reported = std::sync::Mutex::new(Vec::new());
    assert_eq!(store_seaorm::seed::bulk_listings(&test.db, now, 700, |done| reported.lock().unwrap().push(done)).await.unwrap(), 700);
    assert_eq!(reported.into_inner().unwrap(), vec![500, 700], "progress after each round");
    // What `seed --bulk-listings` does next: vacuum and analyze the loaded tables (outside a
    // transaction, every table named must exist).
    store_seaorm::settle_after_bulk_load(&test.db).await.unwrap();
    assert_eq!(store.live_counts().await.unwrap().live, live_before + 700);
    assert_eq!(
        scalar(
            &test,
            "SELECT COUNT(DISTINCT founder_id) FROM listing_founders lf JOIN listings l ON l.id = lf.listing_id WHERE l.slug LIKE 'bulk-%'"
        )
        .await,
        350,
        "a founder for every two listings"
    );
    assert_eq!(
        scalar(
            &test,
            "SELECT COUNT(*) FROM listings l WHERE l.follows_count <> (SELECT COUNT(*) FROM listing_follows f WHERE f.listing_id = l.id)"
        )
        .await,
        0
    );
    assert_eq!(
        scalar(&test, "SELECT COUNT(*) FROM listings l WHERE NOT EXISTS (SELECT 1 FROM listing_changes c WHERE c.listing_id = l.id)").await,
        0,
        "every insert is in the search feed"
    );
    assert_eq!(store_seaorm::seed::bulk_listings(&test.db, now, 700, |_| {}).await.unwrap(), 0, "idempotent");
    assert_eq!(
        scalar(&test, "SELECT COUNT(*) FROM listings l WHERE l.votes_count <> (SELECT COUNT(*) FROM votes v WHERE v.listing_id = l.id)")
            .await,
        0
    );
    assert_eq!(
        scalar(&test, "SELECT COUNT(*) FROM listings l WHERE NOT EXISTS (SELECT 1 FROM listing_categories c WHERE c.listing_id = l.id)")
            .await,
        0
    );
}

/// The directory's counts as the old per-request recount computed them: the oracle the kept
/// counts must always equal.
async fn recounted(test: &TestDatabase) -> listings::LiveCounts {
    let backend = test.db.get_database_backend();
    let grouped = |sql: &'static str| async move {
        let rows = test.db.query_all_raw(Statement::from_string(backend, sql)).await.unwrap();
        rows.into_iter()
            .map(|row| {
                let id: i64 = row.try_get_by_index(0).unwrap();
                let count: i64 = row.try_get_by_index(1).unwrap();
                (kernel::CategoryId::new(id), count as u64)
            })
            .collect()
    };
    listings::LiveCounts {
        direct: grouped(
            "SELECT lc.category_id, COUNT(*) FROM listing_categories lc JOIN listings l ON l.id = lc.listing_id \
             WHERE l.status = 'live' GROUP BY lc.category_id",
        )
        .await,
        by_top_level: grouped(
            "SELECT COALESCE(c.parent_id, c.id), COUNT(DISTINCT lc.listing_id) FROM listing_categories lc \
             JOIN listings l ON l.id = lc.listing_id JOIN categories c ON c.id = lc.category_id \
             WHERE l.status = 'live' GROUP BY COALESCE(c.parent_id, c.id)",
        )
        .await,
        live: scalar(test, "SELECT COUNT(*) FROM listings WHERE status = 'live'").await as u64,
        followed: scalar(test, "SELECT COUNT(*) FROM listings WHERE status = 'live' AND follows_count > 0").await as u64,
        founders: scalar(
            test,
            "SELECT COUNT(DISTINCT lf.founder_id) FROM listing_founders lf JOIN listings l ON l.id = lf.listing_id WHERE l.status = 'live'",
        )
        .await as u64,
    }
}

#[tokio::test]
async fn kept_counts_follow_every_kind_of_write() {
    let test = TestDatabase::new().await;
    let store = SeaStore::new(test.db.clone());
    let now = datetime!(2026-11-18 12:00 UTC);
    store_seaorm::seed::demo(&test.db, now).await.unwrap();
    store_seaorm::seed::bulk_listings(&test.db, now, 40, |_| {}).await.unwrap();
    let run = |sql: String| {
        let db = test.db.clone();
        async move { db.execute_unprepared(&sql).await.map(|_| ()) }
    };
    let id = |sql: &'static str| scalar(&test, sql);
    let top = id("SELECT id FROM categories WHERE slug = 'productivity'").await;
    let (child, other_child) = (
        id("SELECT MIN(id) FROM categories WHERE parent_id = (SELECT id FROM categories WHERE slug = 'productivity')").await,
        id("SELECT MAX(id) FROM categories WHERE parent_id = (SELECT id FROM categories WHERE slug = 'productivity')").await,
    );
    assert_ne!(child, other_child);
    let elsewhere = id("SELECT MIN(id) FROM categories WHERE id <> (SELECT id FROM categories WHERE slug = 'productivity') \
         AND parent_id IS NULL")
    .await;
    let listing = id("SELECT MIN(id) FROM listings WHERE slug LIKE 'bulk-%'").await;
    let founder = id("SELECT MIN(founder_id) FROM listing_founders").await;
    assert_eq!(store.live_counts().await.unwrap(), recounted(&test).await, "after the seeds");

    let steps: Vec<(&str, String)> = vec![
        ("unlink every category", format!("DELETE FROM listing_categories WHERE listing_id = {listing}")),
        (
            "link a tree and two of its subcategories in one statement",
            format!(
                "INSERT INTO listing_categories (listing_id, category_id, is_primary) VALUES \
                 ({listing}, {child}, true), ({listing}, {other_child}, false), ({listing}, {top}, false)"
            ),
        ),
        (
            "link again, ignored",
            format!(
                "INSERT INTO listing_categories (listing_id, category_id, is_primary) VALUES ({listing}, {child}, false) \
                 ON CONFLICT DO NOTHING"
            ),
        ),
        ("unlink one of three in the tree", format!("DELETE FROM listing_categories WHERE listing_id = {listing} AND category_id = {top}")),
        ("archive", format!("UPDATE listings SET status = 'archived' WHERE id = {listing}")),
        ("unlink while archived", format!("DELETE FROM listing_categories WHERE listing_id = {listing} AND category_id = {child}")),
        (
            "link while archived",
            format!("INSERT INTO listing_categories (listing_id, category_id, is_primary) VALUES ({listing}, {elsewhere}, false)"),
        ),
        ("follow while archived", format!("UPDATE listings SET follows_count = 3 WHERE id = {listing}")),
        ("live again", format!("UPDATE listings SET status = 'live' WHERE id = {listing}")),
        ("unfollowed", format!("UPDATE listings SET follows_count = 0 WHERE id = {listing}")),
        ("followed and archived at once", format!("UPDATE listings SET follows_count = 1, status = 'archived' WHERE id = {listing}")),
        ("live again, followed", format!("UPDATE listings SET status = 'live' WHERE id = {listing}")),
        ("a live listing changes stage", format!("UPDATE listings SET stage = 'idea', pricing_model = 'Freemium' WHERE id = {listing}")),
        ("its stage is cleared", format!("UPDATE listings SET stage = NULL WHERE id = {listing}")),
        ("an archived listing changes country", "UPDATE listings SET country = 'FR' WHERE status = 'archived'".to_owned()),
        ("many listings change at once", "UPDATE listings SET status = 'archived' WHERE slug LIKE 'bulk-1%'".to_owned()),
        (
            "a founder joins",
            format!(
                "INSERT INTO listing_founders (listing_id, founder_id, position) VALUES ({listing}, {founder}, 5) ON CONFLICT DO NOTHING"
            ),
        ),
        ("a founder leaves every listing", format!("DELETE FROM listing_founders WHERE founder_id = {founder}")),
        ("a live listing is deleted", format!("DELETE FROM listings WHERE id = {listing}")),
        ("archived listings are deleted", "DELETE FROM listings WHERE slug LIKE 'bulk-1%'".to_owned()),
        ("the rest come back", "UPDATE listings SET status = 'live' WHERE status = 'archived'".to_owned()),
    ];
    for (step, sql) in steps {
        run(sql).await.unwrap_or_else(|err| panic!("{step}: {err}"));
        assert_eq!(store.live_counts().await.unwrap(), recounted(&test).await, "after: {step}");
    }
    assert!(recounted(&test).await.by_top_level.contains_key(&kernel::CategoryId::new(top)));

    // What would make the kept trees wrong is refused.
    let refused = run(format!("UPDATE categories SET parent_id = {elsewhere} WHERE id = {child}")).await.unwrap_err();
    assert!(refused.to_string().contains("keeps its parent"), "{refused}");
    let linked = scalar(
        &test,
        "SELECT MIN(listing_id) FROM listing_categories WHERE listing_id NOT IN \
         (SELECT listing_id FROM listing_categories lc JOIN categories c ON c.id = lc.category_id WHERE c.parent_id IS NULL)",
    )
    .await;
    let refused = run(format!("UPDATE listing_categories SET category_id = {elsewhere} WHERE listing_id = {linked}")).await.unwrap_err();
    assert!(refused.to_string().contains("instead of changing it"), "{refused}");
    assert_eq!(store.live_counts().await.unwrap(), recounted(&test).await, "after the refusals");
}

#[tokio::test]
async fn a_listing_linked_while_another_transaction_publishes_it_is_counted_once() {
    use sea_orm::TransactionTrait;
    let test = TestDatabase::new().await;
    let store = SeaStore::new(test.db.clone());
    store_seaorm::seed::demo(&test.db, datetime!(2026-11-18 12:00 UTC)).await.unwrap();
    let waiting = scalar(&test, "SELECT MIN(id) FROM listings WHERE status = 'awaiting_badge'").await;
    let category = scalar(
        &test,
        &format!(
            "SELECT MIN(id) FROM categories WHERE id NOT IN (SELECT category_id FROM listing_categories WHERE listing_id = {waiting})"
        ),
    )
    .await;

    // One transaction publishes the listing and has not committed when another links it.
    let publishing = test.db.begin().await.unwrap();
    publishing.execute_unprepared(&format!("UPDATE listings SET status = 'live' WHERE id = {waiting}")).await.unwrap();
    let db = test.db.clone();
    let linking = tokio::spawn(async move {
        let linking = db.begin().await.unwrap();
        linking
            .execute_unprepared(&format!(
                "INSERT INTO listing_categories (listing_id, category_id, is_primary) VALUES ({waiting}, {category}, false)"
            ))
            .await
            .unwrap();
        linking.commit().await.unwrap();
    });
    tokio::time::sleep(std::time::Duration::from_millis(300)).await;
    publishing.commit().await.unwrap();
    linking.await.unwrap();
    assert_eq!(store.live_counts().await.unwrap(), recounted(&test).await);
}
