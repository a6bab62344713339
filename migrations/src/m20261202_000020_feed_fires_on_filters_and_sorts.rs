//! The search index's change feed also fires on what searches filter and sort by.
//!
//! Filters (categories, stage, country, pricing model, domain) and sorts (votes, views,
//! follows, launch time) now run inside each node's search index, so a write to any of them is
//! a change the index must read: the listings trigger of migration 17 watches these columns
//! too, and linking a listing to a category or unlinking it writes a position for the listing.
//! Votes arrive one by one and views in batches (the view counter's flush), so the feed grows
//! with them; the daily purge keeps the newest `CHANGES_KEPT` positions as before.

use crate::triggers::run_script;
use sea_orm_migration::prelude::*;
use sea_orm_migration::sea_orm::DatabaseBackend;

#[derive(DeriveMigrationName)]
pub struct Migration;

/// The columns migration 17 watched (copied, so this migration stays as it was released).
const INDEXED_COLUMNS: &str = "name, tagline, short_description, description, keywords, status";
/// The columns searches filter and sort by, watched beside them.
const FILTERED_AND_SORTED: &str = "stage, country, pricing_model, domain, launched_at, votes_count, views_count, follows_count";

/// The statements that make the feed watch `columns` of `listings`, and category links when
/// `links`.
fn feed(backend: DatabaseBackend, columns: &str, links: bool) -> Vec<String> {
    match backend {
        DatabaseBackend::Postgres => {
            let mut statements = vec![
                "DROP TRIGGER listings_changed ON listings".to_owned(),
                format!(
                    "CREATE TRIGGER listings_changed AFTER INSERT OR DELETE OR UPDATE OF {columns} ON listings \
                     FOR EACH ROW EXECUTE FUNCTION note_listing_change()"
                ),
            ];
            if links {
                statements.push(
                    "CREATE FUNCTION note_listing_link_change() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN \
                     INSERT INTO listing_changes (listing_id) VALUES (CASE WHEN TG_OP = 'DELETE' THEN OLD.listing_id ELSE NEW.listing_id END); \
                     RETURN NULL; END $$"
                        .to_owned(),
                );
                statements.push(
                    "CREATE TRIGGER listing_categories_changed AFTER INSERT OR DELETE ON listing_categories \
                     FOR EACH ROW EXECUTE FUNCTION note_listing_link_change()"
                        .to_owned(),
                );
            } else {
                statements.push("DROP TRIGGER listing_categories_changed ON listing_categories".to_owned());
                statements.push("DROP FUNCTION note_listing_link_change()".to_owned());
            }
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
            if links {
                statements.push(
                    "CREATE TRIGGER listing_categories_linked AFTER INSERT ON listing_categories \
                     BEGIN INSERT INTO listing_changes (listing_id) VALUES (NEW.listing_id); END"
                        .to_owned(),
                );
                statements.push(
                    "CREATE TRIGGER listing_categories_unlinked AFTER DELETE ON listing_categories \
                     BEGIN INSERT INTO listing_changes (listing_id) VALUES (OLD.listing_id); END"
                        .to_owned(),
                );
            } else {
                statements.push("DROP TRIGGER listing_categories_linked".to_owned());
                statements.push("DROP TRIGGER listing_categories_unlinked".to_owned());
            }
            statements
        }
    }
}

#[async_trait::async_trait]
impl MigrationTrait for Migration {
    async fn up(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        let columns = format!("{INDEXED_COLUMNS}, {FILTERED_AND_SORTED}");
        run_script(manager, feed(manager.get_database_backend(), &columns, true)).await
    }

    async fn down(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        run_script(manager, feed(manager.get_database_backend(), INDEXED_COLUMNS, false)).await
    }
}
