//! A view count below 100 tells the search index of its change every ten views, not every view.
//!
//! Migration 28 made the change feed watch `views_count` in steps: when its number of digits or
//! its first two digits change. Below 100 the first two digits are the whole count, so there
//! every view was a step, and a directory's long tail is mostly such listings: at 100,000
//! listings a views flush of 22,000 listings wrote 7,700 positions to the feed, and each made
//! every node read its listing and index it again. With a different listing each request and
//! the answer cache off, the listing's answer had a p99 of about 17 ms with those positions and
//! about 11 ms with the 2,150 this migration leaves (docs/performance.md).
//!
//! Now a step also needs the count's tens to change: 0 to 9 views are one step, then 10, 20,
//! …, 90, 100, 110, …, 990, 1,000, 1,100, … as before (from 100 on, a change of the first two
//! digits always changes the tens). The index's view count, which only the most-viewed order
//! of a search reads, is then within ten views or one step (about 10 %) of the count.

use crate::triggers::run_script;
use sea_orm_migration::prelude::*;
use sea_orm_migration::sea_orm::DatabaseBackend;

#[derive(DeriveMigrationName)]
pub struct Migration;

/// Migration 28's condition (copied, so this migration stays as it was released).
const DIGITS_STEPPED: &str = "length(CAST(NEW.views_count AS TEXT)) <> length(CAST(OLD.views_count AS TEXT)) \
                              OR substr(CAST(NEW.views_count AS TEXT), 1, 2) <> substr(CAST(OLD.views_count AS TEXT), 1, 2)";

/// The trigger that writes a position when a view count's step changes, stepped by `condition`.
fn viewed(backend: DatabaseBackend, condition: &str) -> Vec<String> {
    match backend {
        DatabaseBackend::Postgres => vec![
            "DROP TRIGGER listings_viewed ON listings".to_owned(),
            format!(
                "CREATE TRIGGER listings_viewed AFTER UPDATE OF views_count ON listings \
                 FOR EACH ROW WHEN ({condition}) EXECUTE FUNCTION note_listing_change()"
            ),
        ],
        _ => vec![
            // Read the schema first: a pooled connection that has not seen it since an earlier
            // migration changed it refuses to drop and create triggers (as in migration 19).
            "SELECT COUNT(*) FROM sqlite_master".to_owned(),
            "DROP TRIGGER listings_viewed".to_owned(),
            format!(
                "CREATE TRIGGER listings_viewed AFTER UPDATE OF views_count ON listings WHEN {condition} \
                 BEGIN INSERT INTO listing_changes (listing_id) VALUES (NEW.id); END"
            ),
        ],
    }
}

#[async_trait::async_trait]
impl MigrationTrait for Migration {
    async fn up(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        // Integer division on both databases (the counts are integers).
        let in_tens = format!("NEW.views_count / 10 <> OLD.views_count / 10 AND ({DIGITS_STEPPED})");
        run_script(manager, viewed(manager.get_database_backend(), &in_tens)).await
    }

    async fn down(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        run_script(manager, viewed(manager.get_database_backend(), DIGITS_STEPPED)).await
    }
}
