//! Users and their API keys (only the SHA-256 of a key is stored).

use sea_orm_migration::{prelude::*, schema::*};

#[derive(DeriveMigrationName)]
pub struct Migration;

#[derive(DeriveIden)]
pub(crate) enum Users {
    Table,
    Id,
    Email,
    DisplayName,
    Blocked,
    CreatedAt,
}

#[derive(DeriveIden)]
enum ApiKeys {
    Table,
    Id,
    UserId,
    Name,
    Prefix,
    TokenHash,
    Scopes,
    CreatedAt,
    LastUsedAt,
    RevokedAt,
}

#[async_trait::async_trait]
impl MigrationTrait for Migration {
    async fn up(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        manager
            .create_table(
                Table::create()
                    .table(Users::Table)
                    .col(big_pk_auto(Users::Id))
                    .col(string_len_uniq(Users::Email, 254))
                    .col(string_len(Users::DisplayName, 120))
                    .col(boolean(Users::Blocked).default(false))
                    .col(timestamp_with_time_zone(Users::CreatedAt))
                    .to_owned(),
            )
            .await?;
        manager
            .create_table(
                Table::create()
                    .table(ApiKeys::Table)
                    .col(big_pk_auto(ApiKeys::Id))
                    .col(big_integer(ApiKeys::UserId))
                    .col(string_len(ApiKeys::Name, 100))
                    .col(string_len(ApiKeys::Prefix, 16))
                    .col(string_len_uniq(ApiKeys::TokenHash, 64))
                    .col(string_len(ApiKeys::Scopes, 200))
                    .col(timestamp_with_time_zone(ApiKeys::CreatedAt))
                    .col(timestamp_with_time_zone_null(ApiKeys::LastUsedAt))
                    .col(timestamp_with_time_zone_null(ApiKeys::RevokedAt))
                    .foreign_key(
                        ForeignKey::create()
                            .from(ApiKeys::Table, ApiKeys::UserId)
                            .to(Users::Table, Users::Id)
                            .on_delete(ForeignKeyAction::Cascade),
                    )
                    .to_owned(),
            )
            .await?;
        manager.create_index(Index::create().name("idx_api_keys_user").table(ApiKeys::Table).col(ApiKeys::UserId).to_owned()).await
    }

    async fn down(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        manager.drop_table(Table::drop().table(ApiKeys::Table).to_owned()).await?;
        manager.drop_table(Table::drop().table(Users::Table).to_owned()).await
    }
}
