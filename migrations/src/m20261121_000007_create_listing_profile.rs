//! The full listing profile: lists and objects kept as JSON on the listing, and its latest
//! updates, milestones, media and reviews in tables of their own.

use crate::m20261121_000001_create_accounts::Users;
use sea_orm_migration::{prelude::*, schema::*};

#[derive(DeriveMigrationName)]
pub struct Migration;

#[derive(DeriveIden)]
enum Listings {
    Table,
    Id,
    PricingSummary,
    Features,
    Usps,
    Keywords,
    Faqs,
    Socials,
    Links,
    NotFoundOnWebsite,
    DemoVideoUrl,
    ContactEmail,
    UnlockedSections,
}

#[derive(DeriveIden)]
enum ListingUpdates {
    Table,
    Id,
    ListingId,
    Title,
    Body,
    CreatedAt,
}

#[derive(DeriveIden)]
enum ListingMilestones {
    Table,
    Id,
    ListingId,
    Date,
    Title,
    Description,
    Url,
    CreatedAt,
}

#[derive(DeriveIden)]
enum ListingMedia {
    Table,
    Id,
    ListingId,
    Kind,
    Url,
    Caption,
    Position,
}

#[derive(DeriveIden)]
enum Reviews {
    Table,
    Id,
    ListingId,
    UserId,
    Rating,
    Body,
    Hidden,
    CreatedAt,
}

fn listing_fk(table: impl IntoIden) -> ForeignKeyCreateStatement {
    ForeignKey::create()
        .from(table, Alias::new("listing_id"))
        .to(Listings::Table, Listings::Id)
        .on_delete(ForeignKeyAction::Cascade)
        .to_owned()
}

#[async_trait::async_trait]
impl MigrationTrait for Migration {
    async fn up(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        // One column per statement: SQLite's ALTER TABLE adds one column at a time.
        for column in [
            string_len_null(Listings::PricingSummary, 500),
            json_null(Listings::Features),
            json_null(Listings::Usps),
            json_null(Listings::Keywords),
            json_null(Listings::Faqs),
            json_null(Listings::Socials),
            json_null(Listings::Links),
            json_null(Listings::NotFoundOnWebsite),
            string_len_null(Listings::DemoVideoUrl, 500),
            string_len_null(Listings::ContactEmail, 254),
            json_null(Listings::UnlockedSections),
        ] {
            let mut column = column;
            manager.alter_table(Table::alter().table(Listings::Table).add_column(&mut column).to_owned()).await?;
        }
        manager
            .create_table(
                Table::create()
                    .table(ListingUpdates::Table)
                    .col(big_pk_auto(ListingUpdates::Id))
                    .col(big_integer(ListingUpdates::ListingId))
                    .col(string_len(ListingUpdates::Title, 200))
                    .col(text(ListingUpdates::Body))
                    .col(timestamp_with_time_zone(ListingUpdates::CreatedAt))
                    .foreign_key(&mut listing_fk(ListingUpdates::Table))
                    .to_owned(),
            )
            .await?;
        manager
            .create_index(
                Index::create()
                    .name("idx_updates_listing")
                    .table(ListingUpdates::Table)
                    .col(ListingUpdates::ListingId)
                    .col(ListingUpdates::CreatedAt)
                    .to_owned(),
            )
            .await?;
        manager
            .create_table(
                Table::create()
                    .table(ListingMilestones::Table)
                    .col(big_pk_auto(ListingMilestones::Id))
                    .col(big_integer(ListingMilestones::ListingId))
                    .col(date(ListingMilestones::Date))
                    .col(string_len(ListingMilestones::Title, 200))
                    .col(text_null(ListingMilestones::Description))
                    .col(string_len_null(ListingMilestones::Url, 500))
                    .col(timestamp_with_time_zone(ListingMilestones::CreatedAt))
                    .foreign_key(&mut listing_fk(ListingMilestones::Table))
                    .to_owned(),
            )
            .await?;
        manager
            .create_table(
                Table::create()
                    .table(ListingMedia::Table)
                    .col(big_pk_auto(ListingMedia::Id))
                    .col(big_integer(ListingMedia::ListingId))
                    .col(string_len(ListingMedia::Kind, 20))
                    .col(string_len(ListingMedia::Url, 500))
                    .col(string_len_null(ListingMedia::Caption, 300))
                    .col(integer(ListingMedia::Position).default(0))
                    .foreign_key(&mut listing_fk(ListingMedia::Table))
                    .to_owned(),
            )
            .await?;
        manager
            .create_table(
                Table::create()
                    .table(Reviews::Table)
                    .col(big_pk_auto(Reviews::Id))
                    .col(big_integer(Reviews::ListingId))
                    .col(big_integer(Reviews::UserId))
                    .col(small_integer(Reviews::Rating))
                    .col(text_null(Reviews::Body))
                    .col(boolean(Reviews::Hidden).default(false))
                    .col(timestamp_with_time_zone(Reviews::CreatedAt))
                    .foreign_key(&mut listing_fk(Reviews::Table))
                    .foreign_key(
                        ForeignKey::create()
                            .from(Reviews::Table, Reviews::UserId)
                            .to(Users::Table, Users::Id)
                            .on_delete(ForeignKeyAction::Cascade),
                    )
                    .check(Expr::col(Reviews::Rating).between(1, 5))
                    .to_owned(),
            )
            .await?;
        manager
            .create_index(
                Index::create()
                    .name("uq_reviews_listing_user")
                    .table(Reviews::Table)
                    .col(Reviews::ListingId)
                    .col(Reviews::UserId)
                    .unique()
                    .to_owned(),
            )
            .await
    }

    async fn down(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        for table in [
            Reviews::Table.into_iden(),
            ListingMedia::Table.into_iden(),
            ListingMilestones::Table.into_iden(),
            ListingUpdates::Table.into_iden(),
        ] {
            manager.drop_table(Table::drop().table(table).to_owned()).await?;
        }
        for column in [
            Listings::PricingSummary,
            Listings::Features,
            Listings::Usps,
            Listings::Keywords,
            Listings::Faqs,
            Listings::Socials,
            Listings::Links,
            Listings::NotFoundOnWebsite,
            Listings::DemoVideoUrl,
            Listings::ContactEmail,
            Listings::UnlockedSections,
        ] {
            manager.alter_table(Table::alter().table(Listings::Table).drop_column(column).to_owned()).await?;
        }
        Ok(())
    }
}
