//! Products and interview questions, as the demo seed writes them.

use orders::WeekRule;
use sea_orm::ConnectionTrait;
use store_seaorm::SeaStore;
use store_seaorm::testing::TestDatabase;
use time::macros::datetime;

#[tokio::test]
async fn products_come_from_the_database_in_order() {
    let test = TestDatabase::new().await;
    let store = SeaStore::new(test.db.clone());
    assert!(store.products().list_active().await.unwrap().is_empty(), "no product exists before seeding");
    store_seaorm::seed::demo(&test.db, datetime!(2026-11-18 12:00 UTC)).await.unwrap();
    let products = store.products().list_active().await.unwrap();
    let codes: Vec<&str> = products.iter().map(|p| p.code.as_str()).collect();
    assert_eq!(
        codes,
        ["launch", "skip_queue", "featured", "done_for_you", "launch_bundle", "extra_categories", "relaunch", "ai_review", "billboard_min"]
    );
    let launch = &products[0];
    assert_eq!(launch.week_rule, WeekRule::Optional);
    assert!(launch.needs_listing);
    assert!(products.iter().any(|p| p.options.is_some()), "at least one product describes its options");

    // An administrator's price change is what the catalogue reads; inactive products disappear.
    test.db.execute_unprepared("UPDATE products SET price_cents = 12345 WHERE code = 'launch'").await.unwrap();
    test.db.execute_unprepared("UPDATE products SET active = false WHERE code = 'ai_review'").await.unwrap();
    let products = store.products().list_active().await.unwrap();
    assert_eq!(products[0].price.get(), 12345);
    assert!(products.iter().all(|p| p.code != "ai_review"));

    // Seeding again keeps the administrator's price.
    store_seaorm::seed::demo(&test.db, datetime!(2026-11-18 12:00 UTC)).await.unwrap();
    assert_eq!(store.products().list_active().await.unwrap()[0].price.get(), 12345);
}

#[tokio::test]
async fn interview_questions_in_display_order() {
    let test = TestDatabase::new().await;
    let store = SeaStore::new(test.db.clone());
    store_seaorm::seed::demo(&test.db, datetime!(2026-11-18 12:00 UTC)).await.unwrap();
    let questions = store.interview_questions().list_active().await.unwrap();
    assert_eq!(questions.len(), 10);
    assert!(questions.windows(2).all(|pair| pair[0].position <= pair[1].position));
    assert!(questions[0].id >= 1);
}
