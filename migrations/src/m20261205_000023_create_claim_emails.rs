//! `claim_emails`: one row per link an e-mail claim sent (a claim's first link, and each new one
//! for a corrected address or an expired link), with the claimant and the address, so the daily
//! quotas per account and per recipient count e-mails rather than claims: a claim whose address is
//! changed again and again is one claim but many e-mails.

use sea_orm_migration::{prelude::*, schema::*};

#[derive(DeriveMigrationName)]
pub struct Migration;

#[derive(DeriveIden)]
enum Users {
    Table,
    Id,
}

#[derive(DeriveIden)]
enum Claims {
    Table,
    Id,
}

#[derive(DeriveIden)]
enum ClaimEmails {
    Table,
    Id,
    ClaimId,
    ClaimantUserId,
    Email,
    CreatedAt,
}

#[async_trait::async_trait]
impl MigrationTrait for Migration {
    async fn up(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        manager
            .create_table(
                Table::create()
                    .table(ClaimEmails::Table)
                    .col(big_pk_auto(ClaimEmails::Id))
                    .col(big_integer(ClaimEmails::ClaimId))
                    .col(big_integer(ClaimEmails::ClaimantUserId))
                    .col(string_len(ClaimEmails::Email, 254))
                    .col(timestamp_with_time_zone(ClaimEmails::CreatedAt))
                    .foreign_key(ForeignKey::create().from(ClaimEmails::Table, ClaimEmails::ClaimId).to(Claims::Table, Claims::Id))
                    .foreign_key(ForeignKey::create().from(ClaimEmails::Table, ClaimEmails::ClaimantUserId).to(Users::Table, Users::Id))
                    .to_owned(),
            )
            .await?;
        // The two counts of the quotas: an account's e-mails and an address's, in the last day.
        for (name, column) in [("idx_claim_emails_claimant", ClaimEmails::ClaimantUserId), ("idx_claim_emails_email", ClaimEmails::Email)] {
            manager
                .create_index(Index::create().name(name).table(ClaimEmails::Table).col(column).col(ClaimEmails::CreatedAt).to_owned())
                .await?;
        }
        Ok(())
    }

    async fn down(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        manager.drop_table(Table::drop().table(ClaimEmails::Table).to_owned()).await
    }
}
