//! The directory's counts, kept by triggers in the writing transaction instead of recounted.
//!
//! Every read that shows a total (site counts, the category tree and pages, search without
//! words, the ranked feeds, founders) used to recount the directory every two seconds with
//! grouped scans: at a million listings one recount took 15-30 s. Now the counts are data:
//! - `directory_counts`: live listings, live listings with a follower, founders of a live listing;
//! - `categories.live_listings` (in `category_counts` since migration 19): live listings
//!   that carry the category itself;
//! - `categories.live_in_tree` (likewise): distinct live listings in a top-level category or any of its
//!   subcategories, kept through `listing_trees`, the set of top-level trees each listing is in;
//! - `founders.live_listings`: live listings the founder is linked to;
//! - `live_facets`: live listings per stage, country and pricing model (lower case), the
//!   totals of a browse filtered by one of them.
//!
//! Triggers keep them, so no writer (seeds and bulk jobs included) can forget one. They are
//! written so that they count the same whether a backend fires row triggers as each row is
//! written (SQLite) or at the end of the statement (PostgreSQL's AFTER triggers): each count
//! changes with one row's own before and after, and a listing enters or leaves a tree through
//! the `listing_trees` row, whose insert is idempotent (`ON CONFLICT DO NOTHING` fires no
//! trigger) and whose delete happens once, when no link of the listing is left in that tree.
//! A live listing being deleted first drops its links, so their triggers count it out. A
//! category's parent and the keys of a link never change, and linked categories and counted
//! founders are never deleted (nothing does it); triggers refuse it, because the kept counts
//! would go wrong. On PostgreSQL the counting triggers take one lock first
//! (`triggers::COUNTS_LOCK`).

use crate::triggers::{Body, Trigger, drop_triggers, fill_and_keep, live, run, step};
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
enum Founders {
    Table,
    LiveListings,
}

#[derive(DeriveIden)]
enum DirectoryCounts {
    Table,
    Name,
    Value,
}

#[derive(DeriveIden)]
enum ListingTrees {
    Table,
    ListingId,
    TopCategoryId,
}

#[derive(DeriveIden)]
enum LiveFacets {
    Table,
    Facet,
    Value,
    Live,
}

/// The facets a browse filters by, each with the expression of its value in `NEW`/`OLD` (`@`)
/// as the filter compares it.
const FACETS: [(&str, &str); 3] = [("stage", "@.stage"), ("country", "@.country"), ("pricing_model", "LOWER(@.pricing_model)")];

/// Counts the listing in `row` (`NEW` or `OLD`) in or out of its facets, if it is live.
fn facet_steps(row: &str, step: i64) -> Vec<String> {
    FACETS
        .iter()
        .map(|(facet, value)| {
            let value = value.replace('@', row);
            format!(
                "INSERT INTO live_facets (facet, value, live) SELECT '{facet}', {value}, {step} \
                 WHERE {row}.status = 'live' AND {value} IS NOT NULL \
                 ON CONFLICT (facet, value) DO UPDATE SET live = live_facets.live + ({step})"
            )
        })
        .collect()
}

pub(crate) fn triggers() -> Vec<Trigger> {
    vec![
        Trigger {
            name: "count_listing_inserted",
            when_fired: "AFTER INSERT",
            table: "listings",
            only_if: Some("NEW.status = 'live'"),
            body: Body::Run(
                [
                    "UPDATE directory_counts SET value = value + 1 WHERE name = 'live'".to_owned(),
                    "UPDATE directory_counts SET value = value + 1 WHERE name = 'followed' AND NEW.follows_count > 0".to_owned(),
                ]
                .into_iter()
                .chain(facet_steps("NEW", 1))
                .collect(),
            ),
        },
        Trigger {
            name: "count_listing_status",
            when_fired: "AFTER UPDATE OF status",
            table: "listings",
            only_if: Some("(OLD.status = 'live') <> (NEW.status = 'live')"),
            body: run(&[
                concat!("UPDATE directory_counts SET value = value + (", step!(), ") WHERE name = 'live'"),
                concat!(
                    "UPDATE categories SET live_listings = live_listings + (",
                    step!(),
                    ") WHERE id IN (SELECT category_id FROM listing_categories WHERE listing_id = NEW.id)"
                ),
                concat!(
                    "UPDATE categories SET live_in_tree = live_in_tree + (",
                    step!(),
                    ") WHERE id IN (SELECT top_category_id FROM listing_trees WHERE listing_id = NEW.id)"
                ),
                concat!(
                    "UPDATE founders SET live_listings = live_listings + (",
                    step!(),
                    ") WHERE id IN (SELECT founder_id FROM listing_founders WHERE listing_id = NEW.id)"
                ),
            ]),
        },
        Trigger {
            name: "count_listing_followed",
            when_fired: "AFTER UPDATE OF status, follows_count",
            table: "listings",
            only_if: Some("(OLD.status = 'live' AND OLD.follows_count > 0) <> (NEW.status = 'live' AND NEW.follows_count > 0)"),
            body: run(&[
                "UPDATE directory_counts SET value = value + (CASE WHEN NEW.follows_count > 0 AND NEW.status = 'live' THEN 1 ELSE -1 END) \
                 WHERE name = 'followed'",
            ]),
        },
        Trigger {
            name: "count_listing_deleted",
            when_fired: "BEFORE DELETE",
            table: "listings",
            only_if: Some("OLD.status = 'live'"),
            body: Body::Run(
                [
                    // While the listing is still live, so the links' triggers count it out.
                    "DELETE FROM listing_categories WHERE listing_id = OLD.id".to_owned(),
                    "DELETE FROM listing_founders WHERE listing_id = OLD.id".to_owned(),
                    "UPDATE directory_counts SET value = value - 1 WHERE name = 'live'".to_owned(),
                    "UPDATE directory_counts SET value = value - 1 WHERE name = 'followed' AND OLD.follows_count > 0".to_owned(),
                ]
                .into_iter()
                .chain(facet_steps("OLD", -1))
                .collect(),
            ),
        },
        Trigger {
            name: "count_listing_facets",
            when_fired: "AFTER UPDATE OF status, stage, country, pricing_model",
            table: "listings",
            only_if: Some(
                "(OLD.status = 'live' OR NEW.status = 'live') AND (OLD.status IS NOT NEW.status OR OLD.stage IS NOT NEW.stage \
                 OR OLD.country IS NOT NEW.country OR LOWER(OLD.pricing_model) IS NOT LOWER(NEW.pricing_model))",
            ),
            body: Body::Run(facet_steps("OLD", -1).into_iter().chain(facet_steps("NEW", 1)).collect()),
        },
        Trigger {
            name: "count_category_linked",
            when_fired: "AFTER INSERT",
            table: "listing_categories",
            only_if: None,
            body: run(&[
                concat!("UPDATE categories SET live_listings = live_listings + 1 WHERE id = NEW.category_id AND ", live!("NEW")),
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
                concat!("UPDATE categories SET live_listings = live_listings - 1 WHERE id = OLD.category_id AND ", live!("OLD")),
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
            body: run(&[concat!(
                "UPDATE categories SET live_in_tree = live_in_tree + 1 WHERE id = NEW.top_category_id AND ",
                live!("NEW")
            )]),
        },
        Trigger {
            name: "count_tree_left",
            when_fired: "AFTER DELETE",
            table: "listing_trees",
            only_if: None,
            body: run(&[concat!(
                "UPDATE categories SET live_in_tree = live_in_tree - 1 WHERE id = OLD.top_category_id AND ",
                live!("OLD")
            )]),
        },
        Trigger {
            name: "count_founder_linked",
            when_fired: "AFTER INSERT",
            table: "listing_founders",
            only_if: None,
            body: run(&[concat!("UPDATE founders SET live_listings = live_listings + 1 WHERE id = NEW.founder_id AND ", live!("NEW"))]),
        },
        Trigger {
            name: "count_founder_unlinked",
            when_fired: "AFTER DELETE",
            table: "listing_founders",
            only_if: None,
            body: run(&[concat!("UPDATE founders SET live_listings = live_listings - 1 WHERE id = OLD.founder_id AND ", live!("OLD"))]),
        },
        Trigger {
            name: "count_founder_live",
            when_fired: "AFTER UPDATE OF live_listings",
            table: "founders",
            only_if: Some("(OLD.live_listings > 0) <> (NEW.live_listings > 0)"),
            body: run(&[
                "UPDATE directory_counts SET value = value + (CASE WHEN NEW.live_listings > 0 THEN 1 ELSE -1 END) WHERE name = 'founders'",
            ]),
        },
        Trigger {
            name: "refuse_category_moved",
            when_fired: "BEFORE UPDATE OF parent_id",
            table: "categories",
            only_if: Some("OLD.parent_id IS NOT NEW.parent_id"),
            body: Body::Refuse("a category keeps its parent: the kept live counts depend on it"),
        },
        Trigger {
            name: "refuse_category_link_moved",
            when_fired: "BEFORE UPDATE OF listing_id, category_id",
            table: "listing_categories",
            only_if: Some("OLD.listing_id <> NEW.listing_id OR OLD.category_id <> NEW.category_id"),
            body: Body::Refuse("delete a category link and insert another instead of changing it"),
        },
        Trigger {
            name: "refuse_founder_link_moved",
            when_fired: "BEFORE UPDATE OF listing_id, founder_id",
            table: "listing_founders",
            only_if: Some("OLD.listing_id <> NEW.listing_id OR OLD.founder_id <> NEW.founder_id"),
            body: Body::Refuse("delete a founder link and insert another instead of changing it"),
        },
        Trigger {
            name: "refuse_linked_category_deleted",
            when_fired: "BEFORE DELETE",
            table: "categories",
            only_if: None,
            body: Body::RefuseIf(
                "EXISTS (SELECT 1 FROM listing_categories WHERE category_id = OLD.id)",
                "a category with listings is not deleted: the kept live counts depend on it",
            ),
        },
        Trigger {
            name: "refuse_counted_founder_deleted",
            when_fired: "BEFORE DELETE",
            table: "founders",
            only_if: Some("OLD.live_listings > 0"),
            body: Body::Refuse("a founder of a live listing is not deleted: unlink them first"),
        },
    ]
}

/// The counts from the rows, once, when the migration runs on an existing directory.
pub(crate) const FILL: &[&str] = &[
    "INSERT INTO listing_trees (listing_id, top_category_id) \
     SELECT DISTINCT lc.listing_id, COALESCE(c.parent_id, c.id) FROM listing_categories lc JOIN categories c ON c.id = lc.category_id",
    "UPDATE categories SET live_listings = (SELECT COUNT(*) FROM listing_categories lc JOIN listings l ON l.id = lc.listing_id \
     WHERE lc.category_id = categories.id AND l.status = 'live')",
    "UPDATE categories SET live_in_tree = (SELECT COUNT(*) FROM listing_trees t JOIN listings l ON l.id = t.listing_id \
     WHERE t.top_category_id = categories.id AND l.status = 'live')",
    "UPDATE founders SET live_listings = (SELECT COUNT(*) FROM listing_founders lf JOIN listings l ON l.id = lf.listing_id \
     WHERE lf.founder_id = founders.id AND l.status = 'live')",
    "INSERT INTO live_facets (facet, value, live) SELECT 'stage', stage, COUNT(*) FROM listings \
     WHERE status = 'live' AND stage IS NOT NULL GROUP BY stage",
    "INSERT INTO live_facets (facet, value, live) SELECT 'country', country, COUNT(*) FROM listings \
     WHERE status = 'live' AND country IS NOT NULL GROUP BY country",
    "INSERT INTO live_facets (facet, value, live) SELECT 'pricing_model', LOWER(pricing_model), COUNT(*) FROM listings \
     WHERE status = 'live' AND pricing_model IS NOT NULL GROUP BY LOWER(pricing_model)",
    "INSERT INTO directory_counts (name, value) VALUES \
     ('live', (SELECT COUNT(*) FROM listings WHERE status = 'live')), \
     ('followed', (SELECT COUNT(*) FROM listings WHERE status = 'live' AND follows_count > 0)), \
     ('founders', (SELECT COUNT(*) FROM founders WHERE live_listings > 0))",
];

#[async_trait::async_trait]
impl MigrationTrait for Migration {
    async fn up(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        for column in [Categories::LiveListings, Categories::LiveInTree] {
            manager.alter_table(Table::alter().table(Categories::Table).add_column(big_integer(column).default(0)).to_owned()).await?;
        }
        manager
            .alter_table(Table::alter().table(Founders::Table).add_column(big_integer(Founders::LiveListings).default(0)).to_owned())
            .await?;
        manager
            .create_table(
                Table::create()
                    .table(DirectoryCounts::Table)
                    .col(string_len(DirectoryCounts::Name, 40).primary_key())
                    .col(big_integer(DirectoryCounts::Value).default(0))
                    .to_owned(),
            )
            .await?;
        manager
            .create_table(
                Table::create()
                    .table(ListingTrees::Table)
                    .col(big_integer(ListingTrees::ListingId))
                    .col(big_integer(ListingTrees::TopCategoryId))
                    .primary_key(Index::create().col(ListingTrees::ListingId).col(ListingTrees::TopCategoryId))
                    .to_owned(),
            )
            .await?;
        manager
            .create_table(
                Table::create()
                    .table(LiveFacets::Table)
                    .col(string_len(LiveFacets::Facet, 20))
                    .col(string_len(LiveFacets::Value, 100))
                    .col(big_integer(LiveFacets::Live).default(0))
                    .primary_key(Index::create().col(LiveFacets::Facet).col(LiveFacets::Value))
                    .to_owned(),
            )
            .await?;
        fill_and_keep(manager, FILL, &triggers()).await
    }

    async fn down(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        drop_triggers(manager, &triggers()).await?;
        manager.drop_table(Table::drop().table(LiveFacets::Table).to_owned()).await?;
        manager.drop_table(Table::drop().table(ListingTrees::Table).to_owned()).await?;
        manager.drop_table(Table::drop().table(DirectoryCounts::Table).to_owned()).await?;
        manager.alter_table(Table::alter().table(Founders::Table).drop_column(Founders::LiveListings).to_owned()).await?;
        for column in [Categories::LiveListings, Categories::LiveInTree] {
            manager.alter_table(Table::alter().table(Categories::Table).drop_column(column).to_owned()).await?;
        }
        Ok(())
    }
}
