//! The lists read their page through an index in their order, never by scanning the directory.
//!
//! - `category_rankings` keeps, for every live listing, one row per category page it appears on
//!   with its vote count: one per top-level tree it is in (from `listing_trees`: a top-level
//!   page shows its subcategories' listings too) and one per subcategory it carries. A category
//!   page reads the ids of its page from the index `(category_id, votes_count DESC,
//!   listing_id)`, skipping the pages before it inside that index, so a page costs its
//!   position in the index and never the rows of the category or of the directory. Before,
//!   a page either walked the directory's votes index probing each listing's links or sorted
//!   all of the category's links.
//! - `idx_founders_behind_live`: the founders shown in the founders list (behind a live
//!   listing, kept in `founders.live_listings` since migration 18) by name, so a page of
//!   founders walks only them instead of probing each founder's listings.
//!
//! Triggers keep the rankings in the writing transaction, as the kept counts of migrations 18
//! and 19 are kept: on a link or a tree being entered or left, on a listing going live or
//! leaving it, and on its vote count. Top-level and subcategory ids never collide, so the two
//! kinds of row share the table. On PostgreSQL the triggers take the counting lock first.

use crate::triggers::{Trigger, drop_triggers, fill_and_keep, run};
use sea_orm_migration::{prelude::*, schema::*};

#[derive(DeriveMigrationName)]
pub struct Migration;

#[derive(DeriveIden)]
enum CategoryRankings {
    Table,
    ListingId,
    CategoryId,
    VotesCount,
}

/// Whether the category `$id` (an SQL expression) is a subcategory.
macro_rules! subcategory {
    ($id:literal) => {
        concat!("EXISTS (SELECT 1 FROM categories WHERE id = ", $id, " AND parent_id IS NOT NULL)")
    };
}

pub(crate) fn triggers() -> Vec<Trigger> {
    vec![
        Trigger {
            name: "rank_tree_entered",
            when_fired: "AFTER INSERT",
            table: "listing_trees",
            only_if: None,
            body: run(&["INSERT INTO category_rankings (listing_id, category_id, votes_count) \
                 SELECT id, NEW.top_category_id, votes_count FROM listings WHERE id = NEW.listing_id AND status = 'live' \
                 ON CONFLICT DO NOTHING"]),
        },
        Trigger {
            name: "rank_tree_left",
            when_fired: "AFTER DELETE",
            table: "listing_trees",
            only_if: None,
            body: run(&["DELETE FROM category_rankings WHERE listing_id = OLD.listing_id AND category_id = OLD.top_category_id"]),
        },
        Trigger {
            name: "rank_subcategory_linked",
            when_fired: "AFTER INSERT",
            table: "listing_categories",
            only_if: None,
            body: run(&[concat!(
                "INSERT INTO category_rankings (listing_id, category_id, votes_count) \
                 SELECT id, NEW.category_id, votes_count FROM listings WHERE id = NEW.listing_id AND status = 'live' AND ",
                subcategory!("NEW.category_id"),
                " ON CONFLICT DO NOTHING"
            )]),
        },
        Trigger {
            name: "rank_subcategory_unlinked",
            when_fired: "AFTER DELETE",
            table: "listing_categories",
            only_if: None,
            // A top-level category's row is the tree's, left with the tree.
            body: run(&[concat!(
                "DELETE FROM category_rankings WHERE listing_id = OLD.listing_id AND category_id = OLD.category_id AND ",
                subcategory!("OLD.category_id")
            )]),
        },
        Trigger {
            name: "rank_listing_status",
            when_fired: "AFTER UPDATE OF status",
            table: "listings",
            only_if: Some("(OLD.status = 'live') <> (NEW.status = 'live')"),
            body: run(&[
                "DELETE FROM category_rankings WHERE listing_id = NEW.id AND NEW.status <> 'live'",
                "INSERT INTO category_rankings (listing_id, category_id, votes_count) \
                 SELECT NEW.id, top_category_id, NEW.votes_count FROM listing_trees WHERE listing_id = NEW.id AND NEW.status = 'live' \
                 ON CONFLICT DO NOTHING",
                "INSERT INTO category_rankings (listing_id, category_id, votes_count) \
                 SELECT NEW.id, lc.category_id, NEW.votes_count FROM listing_categories lc JOIN categories c ON c.id = lc.category_id \
                 WHERE lc.listing_id = NEW.id AND c.parent_id IS NOT NULL AND NEW.status = 'live' \
                 ON CONFLICT DO NOTHING",
            ]),
        },
        Trigger {
            name: "rank_listing_votes",
            when_fired: "AFTER UPDATE OF votes_count",
            table: "listings",
            only_if: Some("NEW.status = 'live' AND OLD.votes_count <> NEW.votes_count"),
            body: run(&["UPDATE category_rankings SET votes_count = NEW.votes_count WHERE listing_id = NEW.id"]),
        },
        Trigger {
            name: "rank_listing_deleted",
            when_fired: "AFTER DELETE",
            table: "listings",
            only_if: None,
            body: run(&["DELETE FROM category_rankings WHERE listing_id = OLD.id"]),
        },
    ]
}

/// The rankings from the rows, once, when the migration runs on an existing directory.
const FILL: &[&str] = &[
    "INSERT INTO category_rankings (listing_id, category_id, votes_count) \
     SELECT l.id, t.top_category_id, l.votes_count FROM listing_trees t JOIN listings l ON l.id = t.listing_id WHERE l.status = 'live'",
    "INSERT INTO category_rankings (listing_id, category_id, votes_count) \
     SELECT l.id, lc.category_id, l.votes_count FROM listing_categories lc JOIN categories c ON c.id = lc.category_id \
     JOIN listings l ON l.id = lc.listing_id WHERE l.status = 'live' AND c.parent_id IS NOT NULL",
];

#[async_trait::async_trait]
impl MigrationTrait for Migration {
    async fn up(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        manager
            .create_table(
                Table::create()
                    .table(CategoryRankings::Table)
                    .col(big_integer(CategoryRankings::ListingId))
                    .col(big_integer(CategoryRankings::CategoryId))
                    .col(big_integer(CategoryRankings::VotesCount))
                    // By listing first: a vote or a status change finds the listing's rows.
                    .primary_key(Index::create().col(CategoryRankings::ListingId).col(CategoryRankings::CategoryId))
                    .to_owned(),
            )
            .await?;
        manager
            .create_index(
                Index::create()
                    .name("idx_category_rankings_order")
                    .table(CategoryRankings::Table)
                    .col(CategoryRankings::CategoryId)
                    .col((CategoryRankings::VotesCount, IndexOrder::Desc))
                    .col(CategoryRankings::ListingId)
                    .to_owned(),
            )
            .await?;
        // Partial indexes read the same on both backends; sea-query builds no `WHERE` for them.
        manager
            .get_connection()
            .execute_unprepared("CREATE INDEX idx_founders_behind_live ON founders (name, id) WHERE live_listings > 0")
            .await?;
        fill_and_keep(manager, FILL, &triggers()).await
    }

    async fn down(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        drop_triggers(manager, &triggers()).await?;
        manager.get_connection().execute_unprepared("DROP INDEX idx_founders_behind_live").await?;
        manager.drop_table(Table::drop().table(CategoryRankings::Table).to_owned()).await
    }
}
