//! Reviews follow votes: a review records the client network it was first written from
//! (`reviews.client_network`: IPv4 address or IPv6 /64, as `votes.client_network` since migration
//! 13), so the site team can list bursts of reviews from one network; reviews from before have
//! none. `idx_reviews_created_at` serves that list (reviews written since a day, newest first)
//! and the newest reviews the site team reads. Whether a review counts by its author's account
//! age is decided when the rating is read, so nothing about it is stored.

use sea_orm_migration::{prelude::*, schema::*};

#[derive(DeriveMigrationName)]
pub struct Migration;

#[derive(DeriveIden)]
enum Reviews {
    Table,
    ClientNetwork,
    CreatedAt,
}

#[async_trait::async_trait]
impl MigrationTrait for Migration {
    async fn up(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        manager.alter_table(Table::alter().table(Reviews::Table).add_column(string_null(Reviews::ClientNetwork)).to_owned()).await?;
        manager.create_index(Index::create().name("idx_reviews_created_at").table(Reviews::Table).col(Reviews::CreatedAt).to_owned()).await
    }

    async fn down(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        manager.drop_index(Index::drop().name("idx_reviews_created_at").table(Reviews::Table).to_owned()).await?;
        manager.alter_table(Table::alter().table(Reviews::Table).drop_column(Reviews::ClientNetwork).to_owned()).await
    }
}
