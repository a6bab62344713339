//! The boards over Domain Rating, revenue and the billboard read kept totals (migration 22) and,
//! for the first two, a kept mirror of each listing's state (migration 27): whatever is
//! written, they agree with a recount of the tables.

use kernel::PageRequest;
use listings::RankingRepository;
use sea_orm::{ConnectionTrait, Statement};
use store_seaorm::SeaStore;
use store_seaorm::testing::TestDatabase;
use time::macros::datetime;

async fn scalar(test: &TestDatabase, sql: &str) -> i64 {
    let row = test.db.query_one_raw(Statement::from_string(test.db.get_database_backend(), sql)).await.unwrap().unwrap();
    row.try_get_by_index::<i64>(0).unwrap()
}

/// A board as the store reads it: its total and the whole board, `(slug, value)` in order.
#[derive(Debug, PartialEq, Eq)]
struct Board {
    total: u64,
    ranked: Vec<(String, i64)>,
}

/// The three boards as the store reads them (pages of 100, so every row is seen).
async fn read(store: &SeaStore) -> [Board; 3] {
    let page = |n| PageRequest::new(n, 100).unwrap();
    let mut boards: [Board; 3] = std::array::from_fn(|_| Board { total: 0, ranked: Vec::new() });
    for n in 1.. {
        let rated = store.by_domain_rating(page(n)).await.unwrap();
        let earning = store.by_revenue(page(n)).await.unwrap();
        let billboard = store.by_contributions(page(n)).await.unwrap();
        let empty = rated.items.is_empty() && earning.items.is_empty() && billboard.items.is_empty();
        boards[0].total = rated.total;
        boards[1].total = earning.total;
        boards[2].total = billboard.total;
        boards[0].ranked.extend(rated.items.into_iter().map(|(summary, value, _)| (summary.slug.to_string(), i64::from(value))));
        boards[1].ranked.extend(earning.items.into_iter().map(|(summary, value, _)| (summary.slug.to_string(), value)));
        boards[2].ranked.extend(billboard.items.into_iter().map(|(summary, value)| (summary.slug.to_string(), value)));
        if empty {
            break;
        }
    }
    boards
}

/// The same boards counted and grouped from the tables themselves.
async fn recounted(test: &TestDatabase) -> [Board; 3] {
    let ranked = |sql: &'static str| {
        let db = test.db.clone();
        async move {
            let rows = db.query_all_raw(Statement::from_string(db.get_database_backend(), sql)).await.unwrap();
            rows.iter().map(|row| (row.try_get_by_index::<String>(0).unwrap(), row.try_get_by_index::<i64>(1).unwrap())).collect::<Vec<_>>()
        }
    };
    let rated = ranked(
        "SELECT l.slug, CAST(m.domain_rating AS BIGINT) FROM listing_metrics m JOIN listings l ON l.id = m.listing_id \
         WHERE l.status = 'live' AND m.domain_rating IS NOT NULL ORDER BY m.domain_rating DESC, l.id",
    )
    .await;
    let earning = ranked(
        "SELECT l.slug, m.monthly_revenue_cents FROM listing_metrics m JOIN listings l ON l.id = m.listing_id \
         WHERE l.status = 'live' AND m.monthly_revenue_cents IS NOT NULL ORDER BY m.monthly_revenue_cents DESC, l.id",
    )
    .await;
    let billboard = ranked(
        "SELECT l.slug, CAST(SUM(c.amount_cents) AS BIGINT) FROM billboard_contributions c JOIN listings l ON l.id = c.listing_id \
         WHERE l.status = 'live' GROUP BY l.id, l.slug ORDER BY SUM(c.amount_cents) DESC, MIN(c.created_at), l.id",
    )
    .await;
    [rated, earning, billboard].map(|ranked| Board { total: ranked.len() as u64, ranked })
}

#[tokio::test]
async fn board_totals_follow_every_kind_of_write() {
    let test = TestDatabase::new().await;
    let store = SeaStore::new(test.db.clone());
    let now = datetime!(2026-11-18 12:00 UTC);
    store_seaorm::seed::demo(&test.db, now).await.unwrap();
    store_seaorm::seed::bulk_listings(&test.db, now, 40, |_| {}).await.unwrap();
    let [rated, earning, billboard] = read(&store).await;
    assert!(rated.total > 100 && earning.total > 40 && billboard.total > 10, "{} {} {}", rated.total, earning.total, billboard.total);
    assert!(
        scalar(&test, "SELECT COUNT(*) FROM listing_metrics m JOIN listings l ON l.id = m.listing_id WHERE l.slug LIKE 'bulk-%'").await
            == 40,
        "the bulk seed rates its listings"
    );
    assert_eq!(read(&store).await, recounted(&test).await, "after the seeds");

    let id = |sql: &'static str| scalar(&test, sql);
    // A live listing with a rating, revenue and contributions, and one with no contribution.
    let listing = id("SELECT MIN(m.listing_id) FROM listing_metrics m JOIN billboard_contributions c ON c.listing_id = m.listing_id \
         WHERE m.monthly_revenue_cents IS NOT NULL")
    .await;
    let bare =
        id("SELECT MIN(id) FROM listings WHERE status = 'live' AND id NOT IN (SELECT listing_id FROM billboard_contributions)").await;
    // Instants as each backend writes them: the latest contribution's, and the earliest's.
    let at = "(SELECT MAX(created_at) FROM billboard_contributions)";
    let earlier = "(SELECT MIN(created_at) FROM billboard_contributions)";
    let steps: Vec<(&str, String)> = vec![
        ("a listing's metrics are deleted", format!("DELETE FROM listing_metrics WHERE listing_id = {bare}")),
        ("metrics of a listing without any", format!("INSERT INTO listing_metrics (listing_id, domain_rating) VALUES ({bare}, 95)")),
        ("its revenue is reported", format!("UPDATE listing_metrics SET monthly_revenue_cents = 990000 WHERE listing_id = {bare}")),
        ("its rating is withdrawn", format!("UPDATE listing_metrics SET domain_rating = NULL WHERE listing_id = {bare}")),
        ("a rating changes, still rated", format!("UPDATE listing_metrics SET domain_rating = 1 WHERE listing_id = {listing}")),
        (
            "its first contribution",
            format!("INSERT INTO billboard_contributions (listing_id, amount_cents, created_at) VALUES ({bare}, 5000, {at})"),
        ),
        (
            "two more in one statement, one of them earlier",
            format!(
                "INSERT INTO billboard_contributions (listing_id, amount_cents, created_at) VALUES \
                 ({bare}, 700, {at}), ({bare}, 300, {earlier})"
            ),
        ),
        ("one is refunded", format!("DELETE FROM billboard_contributions WHERE listing_id = {bare} AND amount_cents = 300")),
        ("archive", format!("UPDATE listings SET status = 'archived' WHERE id = {listing}")),
        ("its rating is withdrawn while archived", format!("UPDATE listing_metrics SET domain_rating = NULL WHERE listing_id = {listing}")),
        ("its metrics are deleted while archived", format!("DELETE FROM listing_metrics WHERE listing_id = {listing}")),
        (
            "metrics are added while archived",
            format!("INSERT INTO listing_metrics (listing_id, domain_rating, monthly_revenue_cents) VALUES ({listing}, 99, 5000000)"),
        ),
        (
            "contributed to while archived",
            format!("INSERT INTO billboard_contributions (listing_id, amount_cents, created_at) VALUES ({listing}, 100, {at})"),
        ),
        ("live again", format!("UPDATE listings SET status = 'live' WHERE id = {listing}")),
        ("metrics of many change at once", "UPDATE listing_metrics SET monthly_revenue_cents = NULL WHERE listing_id % 2 = 0".to_owned()),
        ("many listings are archived at once", "UPDATE listings SET status = 'archived' WHERE slug LIKE 'bulk-1%'".to_owned()),
        ("every contribution of a listing is refunded", format!("DELETE FROM billboard_contributions WHERE listing_id = {bare}")),
        ("metrics are deleted", format!("DELETE FROM listing_metrics WHERE listing_id = {bare}")),
        ("a live listing is deleted", format!("DELETE FROM listings WHERE id = {listing}")),
        (
            "archived listings are deleted",
            "DELETE FROM listings WHERE id IN (SELECT id FROM listings WHERE slug LIKE 'bulk-1%')".to_owned(),
        ),
        ("the rest come back", "UPDATE listings SET status = 'live' WHERE status = 'archived'".to_owned()),
    ];
    for (step, sql) in steps {
        test.db.execute_unprepared(&sql).await.unwrap_or_else(|err| panic!("{step}: {err}"));
        assert_eq!(read(&store).await, recounted(&test).await, "after: {step}");
    }

    // What would make the kept totals wrong is refused.
    let paid = id("SELECT MIN(id) FROM billboard_contributions").await;
    let refused = test.db.execute_unprepared(&format!("UPDATE billboard_contributions SET amount_cents = 1 WHERE id = {paid}")).await;
    assert!(refused.unwrap_err().to_string().contains("kept as it was paid"));
    let rated = id("SELECT MIN(listing_id) FROM listing_metrics").await;
    let refused = test.db.execute_unprepared(&format!("UPDATE listing_metrics SET listing_id = {bare} WHERE listing_id = {rated}")).await;
    assert!(refused.unwrap_err().to_string().contains("stay with their listing"));
    assert_eq!(read(&store).await, recounted(&test).await, "after the refusals");
}
