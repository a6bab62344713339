//! Migrations that rewrite rows: migration 14 gives votes cast before it their launch week
//! (UTC), whatever their timestamps' fractional seconds look like on SQLite.

use migration::{Migrator, MigratorTrait};
use sea_orm::{ConnectionTrait, Statement};
use store_seaorm::testing::{TestDatabase, fixtures};
use time::macros::datetime;

#[tokio::test]
async fn votes_from_before_migration_14_get_the_utc_week_they_were_cast_in() {
    let test = TestDatabase::new().await;
    let db = &test.db;
    let listing = fixtures::listing(
        db,
        "older",
        "live",
        kernel::Week::containing(datetime!(2026-11-02 0:00 UTC).date()),
        datetime!(2026-11-02 0:00 UTC),
    )
    .await;
    let cast = [
        // The first instants of a Monday, with and without fractional seconds: that Monday's week.
        datetime!(2026-11-09 0:00:00.4 UTC),
        datetime!(2026-11-09 0:00:00 UTC),
        // The last instant of a Sunday: the week before.
        datetime!(2026-11-08 23:59:59.999 UTC),
        datetime!(2026-11-16 12:30:00.125 UTC),
    ];
    let backend = db.get_database_backend();
    let sql = match backend {
        sea_orm::DatabaseBackend::Postgres => "INSERT INTO votes (listing_id, user_id, created_at) VALUES ($1, $2, $3)",
        _ => "INSERT INTO votes (listing_id, user_id, created_at) VALUES (?, ?, ?)",
    };
    let mut voters = Vec::new();
    for n in 0..cast.len() {
        voters.push(fixtures::user(db, &format!("early{n}@example.com")).await);
    }
    // Back to the schema before migration 14 (and the ones after it), where votes have no
    // launch week.
    let after_14 = Migrator::get_applied_migrations(db)
        .await
        .unwrap()
        .iter()
        .rev()
        .take_while(|m| m.name() != "m20261125_000013_confirmed_emails_and_counted_votes")
        .count();
    Migrator::down(db, Some(after_14 as u32)).await.expect("undo migration 14 and later");
    for (voter, at) in voters.iter().zip(cast) {
        db.execute_raw(Statement::from_sql_and_values(backend, sql, [listing.into(), (*voter).into(), at.into()])).await.unwrap();
    }
    Migrator::up(db, None).await.expect("migration 14 again");
    let rows = db.query_all_raw(Statement::from_string(backend, "SELECT launch_week FROM votes ORDER BY id".to_owned())).await.unwrap();
    let weeks: Vec<time::Date> = rows.iter().map(|row| row.try_get_by_index(0).unwrap()).collect();
    let monday = |text: &str| time::Date::parse(text, time::macros::format_description!("[year]-[month]-[day]")).unwrap();
    assert_eq!(weeks, [monday("2026-11-09"), monday("2026-11-09"), monday("2026-11-02"), monday("2026-11-16")], "{}", test.backend_name());
}
