//! The Domain Rating and revenue boards, and the awards, read their page inside one index.
//!
//! Before, a board walked `idx_metrics_domain_rating` (or `idx_metrics_revenue`) and probed
//! each row's listing for `status = 'live'`, the rows before the page included: page 50 cost
//! 1,200 probes of the listings table. Now `listing_metrics.live` mirrors whether its listing
//! is live, and each board has an index that starts with it and carries every column the
//! board shows beside the listing's card:
//!
//! - `idx_metrics_rated_board (live, domain_rating DESC, listing_id, domain_rating_previous)`
//! - `idx_metrics_earning_board (live, monthly_revenue_cents DESC, listing_id, revenue_verified)`
//!
//! so a page skips the rows before it inside the index and reads no table row. The two indexes
//! replace the ones they extend.
//!
//! The awards are listed newest week first and by rank within a week: `idx_awards_newest (week
//! DESC, rank)` holds that order, where before every request sorted all the awards.
//!
//! Triggers keep the mirror in the writing transaction: a metrics row takes its listing's
//! state when it is added, and a listing's rows follow it when it goes live or leaves.

use crate::triggers::{Trigger, drop_triggers, fill_and_keep, live, run};
use sea_orm_migration::{prelude::*, schema::*};

#[derive(DeriveMigrationName)]
pub struct Migration;

#[derive(DeriveIden)]
enum Awards {
    Table,
    Week,
    Rank,
}

#[derive(DeriveIden)]
enum ListingMetrics {
    Table,
    ListingId,
    Live,
    DomainRating,
    DomainRatingPrevious,
    MonthlyRevenueCents,
    RevenueVerified,
}

pub(crate) fn triggers() -> Vec<Trigger> {
    vec![
        Trigger {
            name: "metrics_take_listing_state",
            when_fired: "AFTER INSERT",
            table: "listing_metrics",
            only_if: None,
            body: run(&[concat!("UPDATE listing_metrics SET live = ", live!("NEW"), " WHERE listing_id = NEW.listing_id")]),
        },
        Trigger {
            name: "metrics_follow_listing_state",
            when_fired: "AFTER UPDATE OF status",
            table: "listings",
            only_if: Some("(OLD.status = 'live') <> (NEW.status = 'live')"),
            body: run(&["UPDATE listing_metrics SET live = (NEW.status = 'live') WHERE listing_id = NEW.id"]),
        },
    ]
}

/// The mirror from the rows, once, when the migration runs on an existing directory.
const FILL: &[&str] = &[concat!("UPDATE listing_metrics SET live = ", live!("listing_metrics"))];

#[async_trait::async_trait]
impl MigrationTrait for Migration {
    async fn up(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        manager
            .alter_table(Table::alter().table(ListingMetrics::Table).add_column(boolean(ListingMetrics::Live).default(false)).to_owned())
            .await?;
        for old in ["idx_metrics_domain_rating", "idx_metrics_revenue"] {
            manager.drop_index(Index::drop().name(old).table(ListingMetrics::Table).to_owned()).await?;
        }
        manager
            .create_index(
                Index::create()
                    .name("idx_metrics_rated_board")
                    .table(ListingMetrics::Table)
                    .col(ListingMetrics::Live)
                    .col((ListingMetrics::DomainRating, IndexOrder::Desc))
                    .col(ListingMetrics::ListingId)
                    .col(ListingMetrics::DomainRatingPrevious)
                    .to_owned(),
            )
            .await?;
        manager
            .create_index(
                Index::create()
                    .name("idx_metrics_earning_board")
                    .table(ListingMetrics::Table)
                    .col(ListingMetrics::Live)
                    .col((ListingMetrics::MonthlyRevenueCents, IndexOrder::Desc))
                    .col(ListingMetrics::ListingId)
                    .col(ListingMetrics::RevenueVerified)
                    .to_owned(),
            )
            .await?;
        manager
            .create_index(
                Index::create()
                    .name("idx_awards_newest")
                    .table(Awards::Table)
                    .col((Awards::Week, IndexOrder::Desc))
                    .col(Awards::Rank)
                    .to_owned(),
            )
            .await?;
        fill_and_keep(manager, FILL, &triggers()).await
    }

    async fn down(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        drop_triggers(manager, &triggers()).await?;
        manager.drop_index(Index::drop().name("idx_awards_newest").table(Awards::Table).to_owned()).await?;
        for new in ["idx_metrics_rated_board", "idx_metrics_earning_board"] {
            manager.drop_index(Index::drop().name(new).table(ListingMetrics::Table).to_owned()).await?;
        }
        manager
            .create_index(
                Index::create()
                    .name("idx_metrics_domain_rating")
                    .table(ListingMetrics::Table)
                    .col((ListingMetrics::DomainRating, IndexOrder::Desc))
                    .col(ListingMetrics::ListingId)
                    .to_owned(),
            )
            .await?;
        manager
            .create_index(
                Index::create()
                    .name("idx_metrics_revenue")
                    .table(ListingMetrics::Table)
                    .col((ListingMetrics::MonthlyRevenueCents, IndexOrder::Desc))
                    .col(ListingMetrics::ListingId)
                    .to_owned(),
            )
            .await?;
        manager.alter_table(Table::alter().table(ListingMetrics::Table).drop_column(ListingMetrics::Live).to_owned()).await
    }
}
