//! Products with their prices (set by the administrator) and interview questions.

use sea_orm_migration::{prelude::*, schema::*};

#[derive(DeriveMigrationName)]
pub struct Migration;

#[derive(DeriveIden)]
enum Products {
    Table,
    Code,
    Name,
    Description,
    PriceCents,
    NeedsListing,
    WeekRule,
    Options,
    Position,
    Active,
}

#[derive(DeriveIden)]
enum InterviewQuestions {
    Table,
    Id,
    Position,
    Question,
    Hint,
    Active,
}

#[async_trait::async_trait]
impl MigrationTrait for Migration {
    async fn up(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        manager
            .create_table(
                Table::create()
                    .table(Products::Table)
                    .col(string_len(Products::Code, 60).primary_key())
                    .col(string_len(Products::Name, 120))
                    .col(text(Products::Description))
                    .col(big_integer(Products::PriceCents))
                    .col(boolean(Products::NeedsListing))
                    .col(string_len(Products::WeekRule, 40))
                    .col(json_null(Products::Options))
                    .col(integer(Products::Position).default(0))
                    .col(boolean(Products::Active).default(true))
                    .check(Expr::col(Products::PriceCents).gte(0))
                    .to_owned(),
            )
            .await?;
        manager
            .create_table(
                Table::create()
                    .table(InterviewQuestions::Table)
                    .col(big_pk_auto(InterviewQuestions::Id))
                    .col(integer(InterviewQuestions::Position).default(0))
                    .col(text(InterviewQuestions::Question))
                    .col(text_null(InterviewQuestions::Hint))
                    .col(boolean(InterviewQuestions::Active).default(true))
                    .to_owned(),
            )
            .await
    }

    async fn down(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        manager.drop_table(Table::drop().table(InterviewQuestions::Table).to_owned()).await?;
        manager.drop_table(Table::drop().table(Products::Table).to_owned()).await
    }
}
