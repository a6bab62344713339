//! The per-category live counts move from the `categories` rows into `category_counts`, a
//! narrow table of their own.
//!
//! A `categories` row is wide (description, FAQs as JSON): on PostgreSQL every count update
//! copied all of it, half of the copies to another page, and a bulk load left 25 MB of dead
//! versions behind 36 categories. A row of three integers is updated in place (a HOT update)
//! and costs the same on SQLite. The triggers of migration 18 that counted per category are
//! redefined to add to `category_counts` (an upsert, so a new category needs no row first);
//! the others are unchanged.

use crate::m20261130_000018_maintained_directory_counts as kept;
use crate::triggers::{Trigger, live, postgres_trigger, run, sqlite_trigger, step};
use sea_orm_migration::sea_orm::DatabaseBackend;
use sea_orm_migration::{prelude::*, schema::*};

#[derive(DeriveMigrationName)]
pub struct Migration;

#[derive(DeriveIden)]
enum Categories {
    Table,
    LiveListings,
    LiveInTree,
}

#[derive(DeriveIden)]
enum CategoryCounts {
    Table,
    CategoryId,
    LiveListings,
    LiveInTree,
}

/// Adds `$delta` (an SQL expression) to the `$column` count of the categories `$select` names.
macro_rules! add_to {
    ($column:literal, $select:expr) => {
        concat!(
            "INSERT INTO category_counts (category_id, ",
            $column,
            ") ",
            $select,
            " ON CONFLICT (category_id) DO UPDATE SET ",
            $column,
            " = category_counts.",
            $column,
            " + excluded.",
            $column
        )
    };
}

/// The triggers of migration 18 that count per category, now into `category_counts`.
fn narrow_triggers() -> Vec<Trigger> {
    vec![
        Trigger {
            name: "count_listing_status",
            when_fired: "AFTER UPDATE OF status",
            table: "listings",
            only_if: Some("(OLD.status = 'live') <> (NEW.status = 'live')"),
            body: run(&[
                concat!("UPDATE directory_counts SET value = value + (", step!(), ") WHERE name = 'live'"),
                add_to!("live_listings", concat!("SELECT category_id, ", step!(), " FROM listing_categories WHERE listing_id = NEW.id")),
                add_to!("live_in_tree", concat!("SELECT top_category_id, ", step!(), " FROM listing_trees WHERE listing_id = NEW.id")),
                concat!(
                    "UPDATE founders SET live_listings = live_listings + (",
                    step!(),
                    ") WHERE id IN (SELECT founder_id FROM listing_founders WHERE listing_id = NEW.id)"
                ),
            ]),
        },
        Trigger {
            name: "count_category_linked",
            when_fired: "AFTER INSERT",
            table: "listing_categories",
            only_if: None,
            body: run(&[
                add_to!("live_listings", concat!("SELECT NEW.category_id, 1 WHERE ", live!("NEW"))),
                "INSERT INTO listing_trees (listing_id, top_category_id) \
                 SELECT NEW.listing_id, COALESCE(parent_id, id) FROM categories WHERE id = NEW.category_id \
                 ON CONFLICT DO NOTHING",
            ]),
        },
        Trigger {
            name: "count_category_unlinked",
            when_fired: "AFTER DELETE",
            table: "listing_categories",
            only_if: None,
            body: run(&[
                add_to!("live_listings", concat!("SELECT OLD.category_id, -1 WHERE ", live!("OLD"))),
                // The tree is left when no other link of the listing is in it.
                "DELETE FROM listing_trees WHERE listing_id = OLD.listing_id \
                 AND top_category_id = (SELECT COALESCE(parent_id, id) FROM categories WHERE id = OLD.category_id) \
                 AND NOT EXISTS (SELECT 1 FROM listing_categories lc JOIN categories c ON c.id = lc.category_id \
                 WHERE lc.listing_id = OLD.listing_id AND COALESCE(c.parent_id, c.id) = listing_trees.top_category_id)",
            ]),
        },
        Trigger {
            name: "count_tree_entered",
            when_fired: "AFTER INSERT",
            table: "listing_trees",
            only_if: None,
            body: run(&[add_to!("live_in_tree", concat!("SELECT NEW.top_category_id, 1 WHERE ", live!("NEW")))]),
        },
        Trigger {
            name: "count_tree_left",
            when_fired: "AFTER DELETE",
            table: "listing_trees",
            only_if: None,
            body: run(&[add_to!("live_in_tree", concat!("SELECT OLD.top_category_id, -1 WHERE ", live!("OLD")))]),
        },
    ]
}

/// Replaces each named trigger with its new definition. On SQLite the statements run as one
/// script on one connection, after a read of the schema: a pooled connection that has not seen
/// migration 18's triggers yet would refuse to drop them, or to create them again.
pub(crate) async fn redefine(manager: &SchemaManager<'_>, triggers: Vec<Trigger>, then: &[&str]) -> Result<(), DbErr> {
    let db = manager.get_connection();
    match manager.get_database_backend() {
        DatabaseBackend::Postgres => {
            for trigger in triggers {
                // The trigger stays; its function is replaced.
                let [function, _] = postgres_trigger(&trigger);
                db.execute_unprepared(&function.replacen("CREATE FUNCTION", "CREATE OR REPLACE FUNCTION", 1)).await?;
            }
            for statement in then {
                db.execute_unprepared(statement).await?;
            }
        }
        _ => {
            let mut script = vec!["SELECT COUNT(*) FROM sqlite_master".to_owned()];
            for trigger in triggers {
                script.push(format!("DROP TRIGGER {}", trigger.name));
                script.push(sqlite_trigger(&trigger));
            }
            script.extend(then.iter().map(|statement| (*statement).to_owned()));
            db.execute_unprepared(&script.join(";\n")).await?;
        }
    }
    Ok(())
}

/// The columns migration 18 kept the counts in.
const DROP_WIDE_COLUMNS: &[&str] = &["ALTER TABLE categories DROP COLUMN live_listings", "ALTER TABLE categories DROP COLUMN live_in_tree"];

/// Migration 18's definitions of the triggers this one redefines (to go back down).
fn wide_triggers() -> Vec<Trigger> {
    let names: Vec<&str> = narrow_triggers().iter().map(|trigger| trigger.name).collect();
    kept::triggers().into_iter().filter(|trigger| names.contains(&trigger.name)).collect()
}

#[async_trait::async_trait]
impl MigrationTrait for Migration {
    async fn up(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        manager
            .create_table(
                Table::create()
                    .table(CategoryCounts::Table)
                    .col(big_integer(CategoryCounts::CategoryId).primary_key())
                    .col(big_integer(CategoryCounts::LiveListings).default(0))
                    .col(big_integer(CategoryCounts::LiveInTree).default(0))
                    .to_owned(),
            )
            .await?;
        let db = manager.get_connection();
        db.execute_unprepared(
            "INSERT INTO category_counts (category_id, live_listings, live_in_tree) SELECT id, live_listings, live_in_tree FROM categories",
        )
        .await?;
        // The triggers first: SQLite drops no column a trigger still names.
        redefine(manager, narrow_triggers(), DROP_WIDE_COLUMNS).await
    }

    async fn down(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        for column in [Categories::LiveListings, Categories::LiveInTree] {
            manager.alter_table(Table::alter().table(Categories::Table).add_column(big_integer(column).default(0)).to_owned()).await?;
        }
        manager
            .get_connection()
            .execute_unprepared(
                "UPDATE categories SET \
                 live_listings = COALESCE((SELECT live_listings FROM category_counts n WHERE n.category_id = categories.id), 0), \
                 live_in_tree = COALESCE((SELECT live_in_tree FROM category_counts n WHERE n.category_id = categories.id), 0)",
            )
            .await?;
        redefine(manager, wide_triggers(), &[]).await?;
        manager.drop_table(Table::drop().table(CategoryCounts::Table).to_owned()).await
    }
}
