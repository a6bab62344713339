//! Rankings beside community votes: weekly awards (fixed once per week), billboard
//! contributions (a paid ranking), and per-listing metrics (Domain Rating, revenue).

use sea_orm_migration::{prelude::*, schema::*};

#[derive(DeriveMigrationName)]
pub struct Migration;

#[derive(DeriveIden)]
enum Listings {
    Table,
    Id,
}

#[derive(DeriveIden)]
enum AwardWeeks {
    Table,
    Week,
    FixedAt,
    Winners,
}

#[derive(DeriveIden)]
enum Awards {
    Table,
    Id,
    Week,
    Rank,
    ListingId,
    Votes,
}

#[derive(DeriveIden)]
enum BillboardContributions {
    Table,
    Id,
    ListingId,
    AmountCents,
    CreatedAt,
}

#[derive(DeriveIden)]
enum ListingMetrics {
    Table,
    ListingId,
    DomainRating,
    DomainRatingPrevious,
    DomainRatingCheckedAt,
    MonthlyRevenueCents,
    RevenueVerified,
    RevenueReportedAt,
}

fn to_listing(table: impl IntoIden, column: impl IntoIden) -> ForeignKeyCreateStatement {
    ForeignKey::create().from(table, column).to(Listings::Table, Listings::Id).on_delete(ForeignKeyAction::Cascade).to_owned()
}

#[async_trait::async_trait]
impl MigrationTrait for Migration {
    async fn up(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        // One row per finished week: its primary key is what lets exactly one server process
        // fix a week's awards, however many run the job.
        manager
            .create_table(
                Table::create()
                    .table(AwardWeeks::Table)
                    .col(date(AwardWeeks::Week).primary_key())
                    .col(timestamp_with_time_zone(AwardWeeks::FixedAt))
                    .col(integer(AwardWeeks::Winners))
                    .to_owned(),
            )
            .await?;
        manager
            .create_table(
                Table::create()
                    .table(Awards::Table)
                    .col(big_pk_auto(Awards::Id))
                    .col(date(Awards::Week))
                    .col(integer(Awards::Rank))
                    .col(big_integer(Awards::ListingId))
                    .col(big_integer(Awards::Votes))
                    .foreign_key(&mut to_listing(Awards::Table, Awards::ListingId))
                    .check(Expr::col(Awards::Rank).between(1, 3))
                    .to_owned(),
            )
            .await?;
        manager
            .create_index(
                Index::create().name("uq_awards_week_rank").table(Awards::Table).col(Awards::Week).col(Awards::Rank).unique().to_owned(),
            )
            .await?;
        manager.create_index(Index::create().name("idx_awards_listing").table(Awards::Table).col(Awards::ListingId).to_owned()).await?;
        manager
            .create_table(
                Table::create()
                    .table(BillboardContributions::Table)
                    .col(big_pk_auto(BillboardContributions::Id))
                    .col(big_integer(BillboardContributions::ListingId))
                    .col(big_integer(BillboardContributions::AmountCents))
                    .col(timestamp_with_time_zone(BillboardContributions::CreatedAt))
                    .foreign_key(&mut to_listing(BillboardContributions::Table, BillboardContributions::ListingId))
                    .check(Expr::col(BillboardContributions::AmountCents).gt(0))
                    .to_owned(),
            )
            .await?;
        manager
            .create_index(
                Index::create()
                    .name("idx_billboard_listing")
                    .table(BillboardContributions::Table)
                    .col(BillboardContributions::ListingId)
                    .to_owned(),
            )
            .await?;
        manager
            .create_table(
                Table::create()
                    .table(ListingMetrics::Table)
                    .col(big_integer(ListingMetrics::ListingId).primary_key())
                    .col(integer_null(ListingMetrics::DomainRating))
                    .col(integer_null(ListingMetrics::DomainRatingPrevious))
                    .col(timestamp_with_time_zone_null(ListingMetrics::DomainRatingCheckedAt))
                    .col(big_integer_null(ListingMetrics::MonthlyRevenueCents))
                    .col(boolean(ListingMetrics::RevenueVerified).default(false))
                    .col(timestamp_with_time_zone_null(ListingMetrics::RevenueReportedAt))
                    .foreign_key(&mut to_listing(ListingMetrics::Table, ListingMetrics::ListingId))
                    .to_owned(),
            )
            .await
    }

    async fn down(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        for table in [
            ListingMetrics::Table.into_iden(),
            BillboardContributions::Table.into_iden(),
            Awards::Table.into_iden(),
            AwardWeeks::Table.into_iden(),
        ] {
            manager.drop_table(Table::drop().table(table).to_owned()).await?;
        }
        Ok(())
    }
}
