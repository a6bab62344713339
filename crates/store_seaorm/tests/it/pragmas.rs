//! SQLite runs in WAL mode with foreign keys on.

use sea_orm::{ConnectionTrait, Statement};
use store_seaorm::testing::TestDatabase;

#[tokio::test]
async fn sqlite_uses_wal_and_foreign_keys() {
    let test = TestDatabase::new().await;
    if test.backend_name() != "sqlite" {
        return; // PostgreSQL has neither pragma; its foreign keys are checked in accounts.rs.
    }
    let backend = test.db.get_database_backend();
    let mode = test.db.query_one_raw(Statement::from_string(backend, "PRAGMA journal_mode")).await.unwrap().unwrap();
    assert_eq!(mode.try_get_by_index::<String>(0).unwrap().to_lowercase(), "wal");
    let keys = test.db.query_one_raw(Statement::from_string(backend, "PRAGMA foreign_keys")).await.unwrap().unwrap();
    assert_eq!(keys.try_get_by_index::<i32>(0).unwrap(), 1);
}
