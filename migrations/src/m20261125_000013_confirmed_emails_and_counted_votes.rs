//! People on the site: an account's e-mail address is confirmed through an e-mailed link
//! (`users.email_confirmed_at`; `email_tokens` keeps only each link's SHA-256, its purpose,
//! expiry and use), and a vote records whether it counts (`votes.counted`: an account younger
//! than `vote_min_account_age_hours` votes without counting), the client network it came from
//! (IPv4 address or IPv6 /64, to find bursts from one network) and when the site team
//! discounted it. `listings.votes_count` counts the counted votes only.

use sea_orm_migration::{prelude::*, schema::*};

#[derive(DeriveMigrationName)]
pub struct Migration;

#[derive(DeriveIden)]
enum Users {
    Table,
    Id,
    EmailConfirmedAt,
}

#[derive(DeriveIden)]
enum Votes {
    Table,
    Counted,
    ClientNetwork,
    DiscountedAt,
}

#[derive(DeriveIden)]
enum EmailTokens {
    Table,
    Id,
    UserId,
    Purpose,
    TokenHash,
    CreatedAt,
    ExpiresAt,
    UsedAt,
}

#[async_trait::async_trait]
impl MigrationTrait for Migration {
    async fn up(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        // One change per statement: SQLite alters one column at a time.
        manager
            .alter_table(Table::alter().table(Users::Table).add_column(timestamp_with_time_zone_null(Users::EmailConfirmedAt)).to_owned())
            .await?;
        manager.alter_table(Table::alter().table(Votes::Table).add_column(boolean(Votes::Counted).default(true)).to_owned()).await?;
        manager.alter_table(Table::alter().table(Votes::Table).add_column(string_null(Votes::ClientNetwork)).to_owned()).await?;
        manager
            .alter_table(Table::alter().table(Votes::Table).add_column(timestamp_with_time_zone_null(Votes::DiscountedAt)).to_owned())
            .await?;
        manager
            .create_table(
                Table::create()
                    .table(EmailTokens::Table)
                    .col(big_pk_auto(EmailTokens::Id))
                    .col(big_integer(EmailTokens::UserId))
                    .col(string(EmailTokens::Purpose))
                    .col(string_uniq(EmailTokens::TokenHash))
                    .col(timestamp_with_time_zone(EmailTokens::CreatedAt))
                    .col(timestamp_with_time_zone(EmailTokens::ExpiresAt))
                    .col(timestamp_with_time_zone_null(EmailTokens::UsedAt))
                    .foreign_key(
                        ForeignKey::create()
                            .from(EmailTokens::Table, EmailTokens::UserId)
                            .to(Users::Table, Users::Id)
                            .on_delete(ForeignKeyAction::Cascade),
                    )
                    .to_owned(),
            )
            .await?;
        manager
            .create_index(Index::create().name("idx_email_tokens_user").table(EmailTokens::Table).col(EmailTokens::UserId).to_owned())
            .await
    }

    async fn down(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        manager.drop_table(Table::drop().table(EmailTokens::Table).to_owned()).await?;
        for column in [Votes::DiscountedAt, Votes::ClientNetwork, Votes::Counted] {
            manager.alter_table(Table::alter().table(Votes::Table).drop_column(column).to_owned()).await?;
        }
        manager.alter_table(Table::alter().table(Users::Table).drop_column(Users::EmailConfirmedAt).to_owned()).await
    }
}
