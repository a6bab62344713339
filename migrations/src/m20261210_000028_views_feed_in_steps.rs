//! A view count tells the search index of its change in steps, not on every view.
//!
//! Since migration 20 every write of `views_count` wrote a position to the change feed, and each
//! position made every node's search index read the listing and index it again. In a
//! directory's long tail (crawlers and visitors reading thousands of different listings) the
//! views flush touches thousands of listings every few seconds: at 100,000 listings the listing
//! page served about 540 different listings a second this way, and 1,600 with the feed
//! leaving views out.
//!
//! Now the feed watches the other columns as before, and `views_count` only when its step
//! changes: its number of digits or its first two digits (…, 98, 99, 100, 110, 120, …, 990,
//! 1,000, 1,100, …). The index's view count, which only the most-viewed order of a search
//! reads, is then within one step (about 10 %) of the count; a listing's answer reads its
//! count beside its document, exactly.

use crate::triggers::run_script;
use sea_orm_migration::prelude::*;
use sea_orm_migration::sea_orm::DatabaseBackend;

#[derive(DeriveMigrationName)]
pub struct Migration;

/// The columns migration 20 watched (copied, so this migration stays as it was released).
const WATCHED_BEFORE: &str = "name, tagline, short_description, description, keywords, status, stage, country, pricing_model, domain, \
                              launched_at, votes_count, views_count, follows_count";
/// The same without `views_count`.
const WATCHED: &str = "name, tagline, short_description, description, keywords, status, stage, country, pricing_model, domain, \
                       launched_at, votes_count, follows_count";
/// When a view count's step changes: its number of digits or its first two digits.
const VIEWS_STEPPED: &str = "length(CAST(NEW.views_count AS TEXT)) <> length(CAST(OLD.views_count AS TEXT)) \
                             OR substr(CAST(NEW.views_count AS TEXT), 1, 2) <> substr(CAST(OLD.views_count AS TEXT), 1, 2)";

/// The statements that make the feed watch `columns`, and views in steps when `stepped`.
fn feed(backend: DatabaseBackend, columns: &str, stepped: bool) -> Vec<String> {
    match backend {
        DatabaseBackend::Postgres => {
            let mut statements = vec![
                "DROP TRIGGER listings_changed ON listings".to_owned(),
                format!(
                    "CREATE TRIGGER listings_changed AFTER INSERT OR DELETE OR UPDATE OF {columns} ON listings \
                     FOR EACH ROW EXECUTE FUNCTION note_listing_change()"
                ),
            ];
            statements.push(if stepped {
                format!(
                    "CREATE TRIGGER listings_viewed AFTER UPDATE OF views_count ON listings \
                     FOR EACH ROW WHEN ({VIEWS_STEPPED}) EXECUTE FUNCTION note_listing_change()"
                )
            } else {
                "DROP TRIGGER listings_viewed ON listings".to_owned()
            });
            statements
        }
        _ => {
            // Read the schema first: a pooled connection that has not seen it since an earlier
            // migration changed it refuses to drop and create triggers (as in migration 19).
            let mut statements = vec![
                "SELECT COUNT(*) FROM sqlite_master".to_owned(),
                "DROP TRIGGER listings_updated".to_owned(),
                format!(
                    "CREATE TRIGGER listings_updated AFTER UPDATE OF {columns} ON listings \
                     BEGIN INSERT INTO listing_changes (listing_id) VALUES (NEW.id); END"
                ),
            ];
            statements.push(if stepped {
                format!(
                    "CREATE TRIGGER listings_viewed AFTER UPDATE OF views_count ON listings WHEN {VIEWS_STEPPED} \
                     BEGIN INSERT INTO listing_changes (listing_id) VALUES (NEW.id); END"
                )
            } else {
                "DROP TRIGGER listings_viewed".to_owned()
            });
            statements
        }
    }
}

#[async_trait::async_trait]
impl MigrationTrait for Migration {
    async fn up(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        run_script(manager, feed(manager.get_database_backend(), WATCHED, true)).await
    }

    async fn down(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        run_script(manager, feed(manager.get_database_backend(), WATCHED_BEFORE, false)).await
    }
}
