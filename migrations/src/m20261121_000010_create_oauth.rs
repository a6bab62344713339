//! OAuth 2.1 and signing in on the site: clients, authorization codes and tokens (hashed),
//! passwords (argon2id) and sessions (hashed).

use sea_orm_migration::{prelude::*, schema::*};

#[derive(DeriveMigrationName)]
pub struct Migration;

#[derive(DeriveIden)]
enum Users {
    Table,
    Id,
    PasswordHash,
}

#[derive(DeriveIden)]
enum OauthClients {
    Table,
    ClientId,
    ClientName,
    RedirectUris,
    Kind,
    CreatedAt,
}

#[derive(DeriveIden)]
enum OauthCodes {
    Table,
    CodeHash,
    ClientId,
    UserId,
    RedirectUri,
    Scopes,
    Resource,
    CodeChallenge,
    ExpiresAt,
    UsedAt,
    Family,
    CreatedAt,
}

#[derive(DeriveIden)]
enum OauthTokens {
    Table,
    Id,
    TokenHash,
    Kind,
    ClientId,
    UserId,
    Scopes,
    Resource,
    Family,
    CreatedAt,
    ExpiresAt,
    UsedAt,
    RevokedAt,
}

#[derive(DeriveIden)]
enum WebSessions {
    Table,
    TokenHash,
    UserId,
    CsrfToken,
    ExpiresAt,
}

fn user_fk(table: impl IntoIden) -> ForeignKeyCreateStatement {
    ForeignKey::create().from(table, Alias::new("user_id")).to(Users::Table, Users::Id).on_delete(ForeignKeyAction::Cascade).to_owned()
}

#[async_trait::async_trait]
impl MigrationTrait for Migration {
    async fn up(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        manager.alter_table(Table::alter().table(Users::Table).add_column(string_len_null(Users::PasswordHash, 200)).to_owned()).await?;
        manager
            .create_table(
                Table::create()
                    .table(OauthClients::Table)
                    .col(string_len(OauthClients::ClientId, 2048).primary_key())
                    .col(string_len(OauthClients::ClientName, 100))
                    .col(json(OauthClients::RedirectUris))
                    .col(string_len(OauthClients::Kind, 20))
                    .col(timestamp_with_time_zone(OauthClients::CreatedAt))
                    .to_owned(),
            )
            .await?;
        manager
            .create_table(
                Table::create()
                    .table(OauthCodes::Table)
                    .col(string_len(OauthCodes::CodeHash, 64).primary_key())
                    .col(string_len(OauthCodes::ClientId, 2048))
                    .col(big_integer(OauthCodes::UserId))
                    .col(string_len(OauthCodes::RedirectUri, 2048))
                    .col(string_len(OauthCodes::Scopes, 200))
                    .col(string_len(OauthCodes::Resource, 2048))
                    .col(string_len(OauthCodes::CodeChallenge, 64))
                    .col(timestamp_with_time_zone(OauthCodes::ExpiresAt))
                    .col(timestamp_with_time_zone_null(OauthCodes::UsedAt))
                    .col(string_len_null(OauthCodes::Family, 64))
                    .col(timestamp_with_time_zone(OauthCodes::CreatedAt))
                    .foreign_key(&mut user_fk(OauthCodes::Table))
                    .to_owned(),
            )
            .await?;
        manager
            .create_table(
                Table::create()
                    .table(OauthTokens::Table)
                    .col(big_pk_auto(OauthTokens::Id))
                    .col(string_len_uniq(OauthTokens::TokenHash, 64))
                    .col(string_len(OauthTokens::Kind, 10))
                    .col(string_len(OauthTokens::ClientId, 2048))
                    .col(big_integer(OauthTokens::UserId))
                    .col(string_len(OauthTokens::Scopes, 200))
                    .col(string_len(OauthTokens::Resource, 2048))
                    .col(string_len(OauthTokens::Family, 64))
                    .col(timestamp_with_time_zone(OauthTokens::CreatedAt))
                    .col(timestamp_with_time_zone(OauthTokens::ExpiresAt))
                    .col(timestamp_with_time_zone_null(OauthTokens::UsedAt))
                    .col(timestamp_with_time_zone_null(OauthTokens::RevokedAt))
                    .foreign_key(&mut user_fk(OauthTokens::Table))
                    .to_owned(),
            )
            .await?;
        manager
            .create_index(Index::create().name("idx_oauth_tokens_family").table(OauthTokens::Table).col(OauthTokens::Family).to_owned())
            .await?;
        manager
            .create_table(
                Table::create()
                    .table(WebSessions::Table)
                    .col(string_len(WebSessions::TokenHash, 64).primary_key())
                    .col(big_integer(WebSessions::UserId))
                    .col(string_len(WebSessions::CsrfToken, 64))
                    .col(timestamp_with_time_zone(WebSessions::ExpiresAt))
                    .foreign_key(&mut user_fk(WebSessions::Table))
                    .to_owned(),
            )
            .await
    }

    async fn down(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        for table in
            [WebSessions::Table.into_iden(), OauthTokens::Table.into_iden(), OauthCodes::Table.into_iden(), OauthClients::Table.into_iden()]
        {
            manager.drop_table(Table::drop().table(table).to_owned()).await?;
        }
        manager.alter_table(Table::alter().table(Users::Table).drop_column(Users::PasswordHash).to_owned()).await
    }
}
