//! Alternatives an owner named for a listing (approved ones are shown first).

use sea_orm_migration::{prelude::*, schema::*};

#[derive(DeriveMigrationName)]
pub struct Migration;

#[derive(DeriveIden)]
enum Listings {
    Table,
    Id,
}

#[derive(DeriveIden)]
enum ListingAlternatives {
    Table,
    ListingId,
    AlternativeId,
    Approved,
    Position,
}

#[async_trait::async_trait]
impl MigrationTrait for Migration {
    async fn up(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        manager
            .create_table(
                Table::create()
                    .table(ListingAlternatives::Table)
                    .col(big_integer(ListingAlternatives::ListingId))
                    .col(big_integer(ListingAlternatives::AlternativeId))
                    .col(boolean(ListingAlternatives::Approved).default(false))
                    .col(integer(ListingAlternatives::Position).default(0))
                    .primary_key(Index::create().col(ListingAlternatives::ListingId).col(ListingAlternatives::AlternativeId))
                    .foreign_key(
                        ForeignKey::create()
                            .from(ListingAlternatives::Table, ListingAlternatives::ListingId)
                            .to(Listings::Table, Listings::Id)
                            .on_delete(ForeignKeyAction::Cascade),
                    )
                    .foreign_key(
                        ForeignKey::create()
                            .from(ListingAlternatives::Table, ListingAlternatives::AlternativeId)
                            .to(Listings::Table, Listings::Id)
                            .on_delete(ForeignKeyAction::Cascade),
                    )
                    .to_owned(),
            )
            .await
    }

    async fn down(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        manager.drop_table(Table::drop().table(ListingAlternatives::Table).to_owned()).await
    }
}
