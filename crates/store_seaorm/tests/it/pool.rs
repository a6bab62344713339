//! The pool: on PostgreSQL the connections it keeps open are all open when `connect` returns,
//! and each works in the configured schema; otherwise connections open as they are needed.

use sea_orm::{ConnectionTrait, Statement, TransactionTrait};
use store_seaorm::testing::TestDatabase;
use store_seaorm::{DbConfig, connect};

#[tokio::test]
async fn kept_connections_are_open_before_connect_returns_and_each_works_in_the_schema() {
    let test = TestDatabase::new().await;
    let config = DbConfig { max_connections: 5, min_connections: 3, ..test.config.clone() };
    let db = connect(&config).await.unwrap();
    if test.backend_name() != "postgres" {
        return; // SQLite keeps one connection: each has a page cache of its own.
    }
    let pool = db.get_postgres_connection_pool();
    assert_eq!(pool.size(), 3, "the three kept connections are open, and no more");
    // Three at once, each reading the test's own tables. (Whether these are the kept three is
    // not asserted: the pool takes a connection back in a task of its own, so one may still be
    // on its way back and a fourth be opened.)
    let schema = config.schema.clone().unwrap();
    let mut held = Vec::new();
    for _ in 0..3 {
        let transaction = db.begin().await.unwrap();
        let backend = transaction.get_database_backend();
        let row = transaction
            .query_one_raw(Statement::from_string(backend, "SELECT current_schema(), (SELECT count(*) FROM listings)"))
            .await
            .unwrap()
            .unwrap();
        assert_eq!(row.try_get_by_index::<String>(0).unwrap(), schema);
        held.push(transaction);
    }
    for transaction in held {
        transaction.rollback().await.unwrap();
    }
}

#[tokio::test]
async fn a_pool_that_keeps_one_opens_the_others_as_they_are_needed() {
    let test = TestDatabase::new().await;
    let config = DbConfig { max_connections: 5, ..test.config.clone() };
    let db = connect(&config).await.unwrap();
    if test.backend_name() != "postgres" {
        return;
    }
    let pool = db.get_postgres_connection_pool();
    assert_eq!(pool.size(), 1);
    let (first, second) = (db.begin().await.unwrap(), db.begin().await.unwrap());
    assert_eq!(pool.size(), 2, "a second connection opened when two were needed at once");
    first.rollback().await.unwrap();
    second.rollback().await.unwrap();
}

#[tokio::test]
async fn an_unreachable_database_is_an_error_even_when_connections_are_kept() {
    // Nothing listens on port 1: the lazily built pool's kept connections fail to open, and
    // `connect` says so rather than handing out a pool that cannot answer.
    let config = DbConfig { min_connections: 3, max_connections: 4, ..DbConfig::new("postgres://postgres@127.0.0.1:1/none") };
    assert!(connect(&config).await.is_err());
}
