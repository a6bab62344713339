//! The boards over Domain Rating, revenue and the billboard read kept totals instead of
//! counting or summing their whole board on every build.
//!
//! - `directory_counts` gains `rated` (live listings with a Domain Rating), `earning` (live
//!   listings with a monthly revenue) and `on_billboard` (live listings with a contribution):
//!   the totals of the three boards.
//! - `billboard_totals`: per listing, the money contributed and when the first contribution
//!   came, with an index in the board's order, so a page of the billboard is read from the
//!   index instead of grouping every contribution.
//!
//! Triggers keep them as migration 18's do, in the writing transaction and whatever writes
//! (seeds included). A listing's metrics row and contributions are counted while the listing
//! is live; when it goes or stops being live, its board memberships are counted in or out;
//! a live listing being deleted first drops its metrics and contributions, so their triggers
//! count it out while it is still live (the cascade would run when it is gone). A metrics row
//! never changes listing, and a contribution is kept as paid: triggers refuse changing them.

use crate::triggers::{Body, Trigger, drop_triggers, fill_and_keep, live, run, step};
use sea_orm_migration::{prelude::*, schema::*};

#[derive(DeriveMigrationName)]
pub struct Migration;

#[derive(DeriveIden)]
enum Listings {
    Table,
    Id,
}

#[derive(DeriveIden)]
enum BillboardTotals {
    Table,
    ListingId,
    ContributedCents,
    FirstContributedAt,
}

/// The kept totals as they are now.
const FILL: &[&str] = &[
    "INSERT INTO billboard_totals (listing_id, contributed_cents, first_contributed_at) \
     SELECT listing_id, SUM(amount_cents), MIN(created_at) FROM billboard_contributions GROUP BY listing_id",
    "INSERT INTO directory_counts (name, value) VALUES \
     ('rated', (SELECT COUNT(*) FROM listing_metrics m JOIN listings l ON l.id = m.listing_id \
      WHERE l.status = 'live' AND m.domain_rating IS NOT NULL)), \
     ('earning', (SELECT COUNT(*) FROM listing_metrics m JOIN listings l ON l.id = m.listing_id \
      WHERE l.status = 'live' AND m.monthly_revenue_cents IS NOT NULL)), \
     ('on_billboard', (SELECT COUNT(*) FROM billboard_totals t JOIN listings l ON l.id = t.listing_id WHERE l.status = 'live'))",
];

const UNFILL: &str = "DELETE FROM directory_counts WHERE name IN ('rated', 'earning', 'on_billboard')";

/// Adds `step` to the count `name` when `condition` holds.
macro_rules! count_if {
    ($name:literal, $step:expr, $condition:expr) => {
        concat!("UPDATE directory_counts SET value = value + (", $step, ") WHERE name = '", $name, "' AND ", $condition)
    };
}

pub(crate) fn triggers() -> Vec<Trigger> {
    vec![
        Trigger {
            name: "count_metrics_added",
            when_fired: "AFTER INSERT",
            table: "listing_metrics",
            only_if: Some("NEW.domain_rating IS NOT NULL OR NEW.monthly_revenue_cents IS NOT NULL"),
            body: run(&[
                count_if!("rated", "1", concat!("NEW.domain_rating IS NOT NULL AND ", live!("NEW"))),
                count_if!("earning", "1", concat!("NEW.monthly_revenue_cents IS NOT NULL AND ", live!("NEW"))),
            ]),
        },
        Trigger {
            name: "count_metrics_changed",
            when_fired: "AFTER UPDATE OF domain_rating, monthly_revenue_cents",
            table: "listing_metrics",
            only_if: Some(
                "(OLD.domain_rating IS NULL) <> (NEW.domain_rating IS NULL) \
                 OR (OLD.monthly_revenue_cents IS NULL) <> (NEW.monthly_revenue_cents IS NULL)",
            ),
            body: run(&[
                count_if!(
                    "rated",
                    "CASE WHEN NEW.domain_rating IS NULL THEN -1 ELSE 1 END",
                    concat!("(OLD.domain_rating IS NULL) <> (NEW.domain_rating IS NULL) AND ", live!("NEW"))
                ),
                count_if!(
                    "earning",
                    "CASE WHEN NEW.monthly_revenue_cents IS NULL THEN -1 ELSE 1 END",
                    concat!("(OLD.monthly_revenue_cents IS NULL) <> (NEW.monthly_revenue_cents IS NULL) AND ", live!("NEW"))
                ),
            ]),
        },
        Trigger {
            name: "count_metrics_removed",
            when_fired: "AFTER DELETE",
            table: "listing_metrics",
            only_if: Some("OLD.domain_rating IS NOT NULL OR OLD.monthly_revenue_cents IS NOT NULL"),
            body: run(&[
                count_if!("rated", "-1", concat!("OLD.domain_rating IS NOT NULL AND ", live!("OLD"))),
                count_if!("earning", "-1", concat!("OLD.monthly_revenue_cents IS NOT NULL AND ", live!("OLD"))),
            ]),
        },
        Trigger {
            name: "keep_metrics_listing",
            when_fired: "BEFORE UPDATE OF listing_id",
            table: "listing_metrics",
            only_if: Some("NEW.listing_id <> OLD.listing_id"),
            body: Body::Refuse("metrics stay with their listing: delete them and add new ones instead of changing it"),
        },
        Trigger {
            name: "total_contribution_added",
            when_fired: "AFTER INSERT",
            table: "billboard_contributions",
            only_if: None,
            body: run(&[
                // The earlier of two instants: both backends keep them in one sortable form.
                "INSERT INTO billboard_totals (listing_id, contributed_cents, first_contributed_at) \
                 VALUES (NEW.listing_id, NEW.amount_cents, NEW.created_at) \
                 ON CONFLICT (listing_id) DO UPDATE SET \
                 contributed_cents = billboard_totals.contributed_cents + excluded.contributed_cents, \
                 first_contributed_at = CASE WHEN excluded.first_contributed_at < billboard_totals.first_contributed_at \
                 THEN excluded.first_contributed_at ELSE billboard_totals.first_contributed_at END",
            ]),
        },
        Trigger {
            name: "total_contribution_removed",
            when_fired: "AFTER DELETE",
            table: "billboard_contributions",
            only_if: None,
            body: run(&[
                "UPDATE billboard_totals SET contributed_cents = contributed_cents - OLD.amount_cents, \
                 first_contributed_at = COALESCE((SELECT MIN(created_at) FROM billboard_contributions \
                 WHERE listing_id = OLD.listing_id), first_contributed_at) WHERE listing_id = OLD.listing_id",
                "DELETE FROM billboard_totals WHERE listing_id = OLD.listing_id \
                 AND NOT EXISTS (SELECT 1 FROM billboard_contributions WHERE listing_id = OLD.listing_id)",
            ]),
        },
        Trigger {
            name: "keep_contribution",
            when_fired: "BEFORE UPDATE OF listing_id, amount_cents, created_at",
            table: "billboard_contributions",
            only_if: Some("NEW.listing_id <> OLD.listing_id OR NEW.amount_cents <> OLD.amount_cents OR NEW.created_at <> OLD.created_at"),
            body: Body::Refuse("a contribution is kept as it was paid: delete it and add another instead of changing it"),
        },
        Trigger {
            name: "count_billboard_joined",
            when_fired: "AFTER INSERT",
            table: "billboard_totals",
            only_if: None,
            body: run(&[count_if!("on_billboard", "1", live!("NEW"))]),
        },
        Trigger {
            name: "count_billboard_left",
            when_fired: "AFTER DELETE",
            table: "billboard_totals",
            only_if: None,
            body: run(&[count_if!("on_billboard", "-1", live!("OLD"))]),
        },
        Trigger {
            name: "count_listing_boards",
            when_fired: "AFTER UPDATE OF status",
            table: "listings",
            only_if: Some("(OLD.status = 'live') <> (NEW.status = 'live')"),
            body: run(&[
                count_if!(
                    "rated",
                    step!(),
                    "EXISTS (SELECT 1 FROM listing_metrics WHERE listing_id = NEW.id AND domain_rating IS NOT NULL)"
                ),
                count_if!(
                    "earning",
                    step!(),
                    "EXISTS (SELECT 1 FROM listing_metrics WHERE listing_id = NEW.id AND monthly_revenue_cents IS NOT NULL)"
                ),
                count_if!("on_billboard", step!(), "EXISTS (SELECT 1 FROM billboard_totals WHERE listing_id = NEW.id)"),
            ]),
        },
        Trigger {
            name: "count_listing_boards_deleted",
            when_fired: "BEFORE DELETE",
            table: "listings",
            only_if: Some("OLD.status = 'live'"),
            body: run(&[
                // While the listing is still live, so the rows' triggers count it out.
                "DELETE FROM listing_metrics WHERE listing_id = OLD.id",
                "DELETE FROM billboard_contributions WHERE listing_id = OLD.id",
            ]),
        },
    ]
}

#[async_trait::async_trait]
impl MigrationTrait for Migration {
    async fn up(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        manager
            .create_table(
                Table::create()
                    .table(BillboardTotals::Table)
                    .col(big_integer(BillboardTotals::ListingId).primary_key())
                    .col(big_integer(BillboardTotals::ContributedCents))
                    .col(timestamp_with_time_zone(BillboardTotals::FirstContributedAt))
                    .foreign_key(
                        ForeignKey::create()
                            .from(BillboardTotals::Table, BillboardTotals::ListingId)
                            .to(Listings::Table, Listings::Id)
                            .on_delete(ForeignKeyAction::Cascade),
                    )
                    .to_owned(),
            )
            .await?;
        // The board's order: most contributed, then the earliest to contribute.
        manager
            .create_index(
                Index::create()
                    .name("idx_billboard_totals_rank")
                    .table(BillboardTotals::Table)
                    .col((BillboardTotals::ContributedCents, IndexOrder::Desc))
                    .col(BillboardTotals::FirstContributedAt)
                    .col(BillboardTotals::ListingId)
                    .to_owned(),
            )
            .await?;
        fill_and_keep(manager, FILL, &triggers()).await
    }

    async fn down(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        drop_triggers(manager, &triggers()).await?;
        manager.get_connection().execute_unprepared(UNFILL).await?;
        manager.drop_table(Table::drop().table(BillboardTotals::Table).to_owned()).await
    }
}
