//! VAT invoices and credit notes: `invoices` keeps each document as it was issued (a JSON copy of
//! seller, buyer, lines, rates and totals, never changed afterwards) under a number of its
//! series; `document_counters` holds each series' last number. A document is issued in one
//! transaction that takes the next number and inserts it, so a failed issue leaves no gap, and
//! an order has at most one invoice and one credit note.

use sea_orm_migration::{prelude::*, schema::*};

#[derive(DeriveMigrationName)]
pub struct Migration;

#[derive(DeriveIden)]
enum Orders {
    Table,
    Id,
}

#[derive(DeriveIden)]
enum Invoices {
    Table,
    Id,
    Kind,
    Series,
    Sequence,
    Number,
    OrderId,
    UserId,
    IssuedAt,
    TotalCents,
    Document,
}

#[derive(DeriveIden)]
enum DocumentCounters {
    Table,
    Series,
    LastValue,
}

#[async_trait::async_trait]
impl MigrationTrait for Migration {
    async fn up(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        manager
            .create_table(
                Table::create()
                    .table(DocumentCounters::Table)
                    .col(string_len(DocumentCounters::Series, 8).primary_key())
                    .col(big_integer(DocumentCounters::LastValue))
                    .to_owned(),
            )
            .await?;
        let seed = Query::insert()
            .into_table(DocumentCounters::Table)
            .columns([DocumentCounters::Series, DocumentCounters::LastValue])
            .values_panic(["INV".into(), 0i64.into()])
            .values_panic(["CN".into(), 0i64.into()])
            .to_owned();
        manager.exec_stmt(seed).await?;
        manager
            .create_table(
                Table::create()
                    .table(Invoices::Table)
                    .col(big_pk_auto(Invoices::Id))
                    .col(string_len(Invoices::Kind, 12))
                    .col(string_len(Invoices::Series, 8))
                    .col(big_integer(Invoices::Sequence))
                    .col(string_len_uniq(Invoices::Number, 32))
                    .col(big_integer(Invoices::OrderId))
                    .col(big_integer(Invoices::UserId))
                    .col(timestamp_with_time_zone(Invoices::IssuedAt))
                    .col(big_integer(Invoices::TotalCents))
                    .col(json(Invoices::Document))
                    .foreign_key(
                        ForeignKey::create()
                            .from(Invoices::Table, Invoices::OrderId)
                            .to(Orders::Table, Orders::Id)
                            .on_delete(ForeignKeyAction::Restrict),
                    )
                    .to_owned(),
            )
            .await?;
        for (name, columns) in [
            ("uq_invoices_order_kind", [Invoices::OrderId, Invoices::Kind]),
            ("uq_invoices_series_sequence", [Invoices::Series, Invoices::Sequence]),
        ] {
            let mut index = Index::create().name(name).table(Invoices::Table).unique().to_owned();
            for column in columns {
                index.col(column);
            }
            manager.create_index(index).await?;
        }
        manager.create_index(Index::create().name("ix_invoices_user").table(Invoices::Table).col(Invoices::UserId).to_owned()).await
    }

    async fn down(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        manager.drop_table(Table::drop().table(Invoices::Table).to_owned()).await?;
        manager.drop_table(Table::drop().table(DocumentCounters::Table).to_owned()).await
    }
}
