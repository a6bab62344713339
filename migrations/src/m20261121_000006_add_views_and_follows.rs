//! Page views (a counter per listing, flushed in batches rather than written per request)
//! and follows (one per person per listing).

use crate::m20261121_000001_create_accounts::Users;
use sea_orm_migration::{prelude::*, schema::*};

#[derive(DeriveMigrationName)]
pub struct Migration;

#[derive(DeriveIden)]
enum Listings {
    Table,
    Id,
    ViewsCount,
}

#[derive(DeriveIden)]
enum ListingFollows {
    Table,
    ListingId,
    UserId,
    CreatedAt,
}

#[async_trait::async_trait]
impl MigrationTrait for Migration {
    async fn up(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        manager
            .alter_table(Table::alter().table(Listings::Table).add_column(big_integer(Listings::ViewsCount).default(0)).to_owned())
            .await?;
        manager
            .create_table(
                Table::create()
                    .table(ListingFollows::Table)
                    .col(big_integer(ListingFollows::ListingId))
                    .col(big_integer(ListingFollows::UserId))
                    .col(timestamp_with_time_zone(ListingFollows::CreatedAt))
                    .primary_key(Index::create().col(ListingFollows::ListingId).col(ListingFollows::UserId))
                    .foreign_key(
                        ForeignKey::create()
                            .from(ListingFollows::Table, ListingFollows::ListingId)
                            .to(Listings::Table, Listings::Id)
                            .on_delete(ForeignKeyAction::Cascade),
                    )
                    .foreign_key(
                        ForeignKey::create()
                            .from(ListingFollows::Table, ListingFollows::UserId)
                            .to(Users::Table, Users::Id)
                            .on_delete(ForeignKeyAction::Cascade),
                    )
                    .to_owned(),
            )
            .await
    }

    async fn down(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        manager.drop_table(Table::drop().table(ListingFollows::Table).to_owned()).await?;
        manager.alter_table(Table::alter().table(Listings::Table).drop_column(Listings::ViewsCount).to_owned()).await
    }
}
