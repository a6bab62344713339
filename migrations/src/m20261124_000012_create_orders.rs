//! Orders are financial records: deleting an account is refused while it has orders, and a
//! deleted listing leaves its order lines with no listing rather than taking them along.
//!
//! Orders: VAT rates (seeded with the EU standard rates in force when this was written; the
//! administrator keeps them current), orders with their lines, the payment events already
//! handled (one row per provider event: the key that makes a delivery count once), the tasks
//! the site team does for paid products, and what fulfilment writes on listings (the order line
//! that paid for its launch, featured, billboard contributions and relaunches, each keyed by the
//! order line that paid for it).

use sea_orm_migration::{prelude::*, schema::*};

#[derive(DeriveMigrationName)]
pub struct Migration;

#[derive(DeriveIden)]
enum Users {
    Table,
    Id,
}

#[derive(DeriveIden)]
enum Listings {
    Table,
    Id,
    FeaturedAt,
    PaidLaunchLineId,
}

#[derive(DeriveIden)]
enum BillboardContributions {
    Table,
    OrderLineId,
}

#[derive(DeriveIden)]
enum VatRates {
    Table,
    Id,
    Country,
    RateBasisPoints,
    ValidFrom,
}

#[derive(DeriveIden)]
enum Orders {
    Table,
    Id,
    Number,
    UserId,
    Status,
    StatusReason,
    Currency,
    SubtotalCents,
    VatCents,
    TotalCents,
    VatRateBasisPoints,
    VatTreatment,
    ReverseCharge,
    VatNumberCheck,
    BillingName,
    BillingAddress,
    BillingCountry,
    VatNumber,
    TokenHash,
    Provider,
    ProviderSession,
    PaymentId,
    PaidCents,
    PaidCurrency,
    CreatedAt,
    UpdatedAt,
    ExpiresAt,
    PaidAt,
    RefundedAt,
}

#[derive(DeriveIden)]
enum OrderLines {
    Table,
    Id,
    OrderId,
    Position,
    ProductCode,
    ProductName,
    ListingId,
    Week,
    AmountCents,
    Categories,
    Options,
    SubtotalCents,
    VatCents,
    TotalCents,
    Fulfilled,
    FulfilledAt,
    Outcome,
}

#[derive(DeriveIden)]
enum PaymentEvents {
    Table,
    Id,
    Provider,
    EventId,
    OrderId,
    Kind,
    ReceivedAt,
}

#[derive(DeriveIden)]
enum OrderTasks {
    Table,
    Id,
    OrderLineId,
    Kind,
    Status,
    CreatedAt,
    DoneAt,
}

#[derive(DeriveIden)]
enum ListingRelaunches {
    Table,
    Id,
    ListingId,
    Week,
    OrderLineId,
    RelaunchedAt,
}

/// EU standard VAT rates in basis points (1900 = 19 %), with the date each took effect.
const EU_STANDARD_RATES: [(&str, i32, &str); 27] = [
    ("AT", 2000, "2016-01-01"),
    ("BE", 2100, "1996-01-01"),
    ("BG", 2000, "1999-01-01"),
    ("CY", 1900, "2014-01-13"),
    ("CZ", 2100, "2013-01-01"),
    ("DE", 1900, "2021-01-01"),
    ("DK", 2500, "1992-01-01"),
    ("EE", 2400, "2025-07-01"),
    ("ES", 2100, "2012-09-01"),
    ("FI", 2550, "2024-09-01"),
    ("FR", 2000, "2014-01-01"),
    ("GR", 2400, "2016-06-01"),
    ("HR", 2500, "2012-03-01"),
    ("HU", 2700, "2012-01-01"),
    ("IE", 2300, "2021-03-01"),
    ("IT", 2200, "2013-10-01"),
    ("LT", 2100, "2009-09-01"),
    ("LU", 1700, "2024-01-01"),
    ("LV", 2100, "2011-07-01"),
    ("MT", 1800, "1995-01-01"),
    ("NL", 2100, "2012-10-01"),
    ("PL", 2300, "2011-01-01"),
    ("PT", 2300, "2011-01-01"),
    ("RO", 2100, "2025-08-01"),
    ("SE", 2500, "1990-07-01"),
    ("SI", 2200, "2013-07-01"),
    ("SK", 2300, "2025-01-01"),
];

fn cascade(from: (impl IntoIden, impl IntoIden), to: (impl IntoIden, impl IntoIden)) -> ForeignKeyCreateStatement {
    foreign_key(from, to, ForeignKeyAction::Cascade)
}

fn foreign_key(
    from: (impl IntoIden, impl IntoIden),
    to: (impl IntoIden, impl IntoIden),
    on_delete: ForeignKeyAction,
) -> ForeignKeyCreateStatement {
    ForeignKey::create().from(from.0, from.1).to(to.0, to.1).on_delete(on_delete).to_owned()
}

#[async_trait::async_trait]
impl MigrationTrait for Migration {
    async fn up(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        manager
            .create_table(
                Table::create()
                    .table(VatRates::Table)
                    .col(big_pk_auto(VatRates::Id))
                    .col(string_len(VatRates::Country, 2))
                    .col(integer(VatRates::RateBasisPoints))
                    .col(date(VatRates::ValidFrom))
                    .check(Expr::col(VatRates::RateBasisPoints).between(0, 10000))
                    .to_owned(),
            )
            .await?;
        manager
            .create_index(
                Index::create()
                    .name("uq_vat_rates_country_from")
                    .table(VatRates::Table)
                    .col(VatRates::Country)
                    .col(VatRates::ValidFrom)
                    .unique()
                    .to_owned(),
            )
            .await?;
        let mut seed = Query::insert()
            .into_table(VatRates::Table)
            .columns([VatRates::Country, VatRates::RateBasisPoints, VatRates::ValidFrom])
            .to_owned();
        for (country, rate, from) in EU_STANDARD_RATES {
            let from = time::Date::parse(from, &time::format_description::well_known::Iso8601::DATE)
                .map_err(|err| DbErr::Custom(err.to_string()))?;
            seed.values_panic([country.into(), rate.into(), from.into()]);
        }
        manager.exec_stmt(seed).await?;

        manager
            .create_table(
                Table::create()
                    .table(Orders::Table)
                    .col(big_pk_auto(Orders::Id))
                    .col(string_len_uniq(Orders::Number, 32))
                    .col(big_integer(Orders::UserId))
                    .col(string_len(Orders::Status, 20))
                    .col(text_null(Orders::StatusReason))
                    .col(string_len(Orders::Currency, 3))
                    .col(big_integer(Orders::SubtotalCents))
                    .col(big_integer(Orders::VatCents))
                    .col(big_integer(Orders::TotalCents))
                    .col(integer(Orders::VatRateBasisPoints))
                    .col(string_len(Orders::VatTreatment, 30))
                    .col(boolean(Orders::ReverseCharge))
                    .col(string_len(Orders::VatNumberCheck, 20))
                    .col(string_len_null(Orders::BillingName, 200))
                    .col(text_null(Orders::BillingAddress))
                    .col(string_len_null(Orders::BillingCountry, 2))
                    .col(string_len_null(Orders::VatNumber, 32))
                    .col(string_len(Orders::TokenHash, 64))
                    .col(string_len_null(Orders::Provider, 20))
                    .col(string_len_null(Orders::ProviderSession, 255))
                    .col(string_len_null(Orders::PaymentId, 255))
                    .col(big_integer_null(Orders::PaidCents))
                    .col(string_len_null(Orders::PaidCurrency, 3))
                    .col(timestamp_with_time_zone(Orders::CreatedAt))
                    .col(timestamp_with_time_zone(Orders::UpdatedAt))
                    .col(timestamp_with_time_zone(Orders::ExpiresAt))
                    .col(timestamp_with_time_zone_null(Orders::PaidAt))
                    .col(timestamp_with_time_zone_null(Orders::RefundedAt))
                    .foreign_key(&mut foreign_key((Orders::Table, Orders::UserId), (Users::Table, Users::Id), ForeignKeyAction::Restrict))
                    .check(Expr::col(Orders::TotalCents).eq(Expr::col(Orders::SubtotalCents).add(Expr::col(Orders::VatCents))))
                    .to_owned(),
            )
            .await?;
        manager
            .create_index(Index::create().name("idx_orders_user").table(Orders::Table).col(Orders::UserId).col(Orders::Id).to_owned())
            .await?;
        manager
            .create_index(
                Index::create().name("idx_orders_status_expiry").table(Orders::Table).col(Orders::Status).col(Orders::ExpiresAt).to_owned(),
            )
            .await?;

        manager
            .create_table(
                Table::create()
                    .table(OrderLines::Table)
                    .col(big_pk_auto(OrderLines::Id))
                    .col(big_integer(OrderLines::OrderId))
                    .col(integer(OrderLines::Position))
                    .col(string_len(OrderLines::ProductCode, 60))
                    .col(string_len(OrderLines::ProductName, 120))
                    .col(big_integer_null(OrderLines::ListingId))
                    .col(date_null(OrderLines::Week))
                    .col(big_integer_null(OrderLines::AmountCents))
                    .col(json(OrderLines::Categories))
                    .col(json_null(OrderLines::Options))
                    .col(big_integer(OrderLines::SubtotalCents))
                    .col(big_integer(OrderLines::VatCents))
                    .col(big_integer(OrderLines::TotalCents))
                    .col(boolean(OrderLines::Fulfilled).default(false))
                    .col(timestamp_with_time_zone_null(OrderLines::FulfilledAt))
                    .col(text_null(OrderLines::Outcome))
                    .foreign_key(&mut cascade((OrderLines::Table, OrderLines::OrderId), (Orders::Table, Orders::Id)))
                    .foreign_key(&mut foreign_key(
                        (OrderLines::Table, OrderLines::ListingId),
                        (Listings::Table, Listings::Id),
                        ForeignKeyAction::SetNull,
                    ))
                    .to_owned(),
            )
            .await?;
        manager
            .create_index(Index::create().name("idx_order_lines_order").table(OrderLines::Table).col(OrderLines::OrderId).to_owned())
            .await?;

        manager
            .create_table(
                Table::create()
                    .table(PaymentEvents::Table)
                    .col(big_pk_auto(PaymentEvents::Id))
                    .col(string_len(PaymentEvents::Provider, 20))
                    .col(string_len(PaymentEvents::EventId, 255))
                    .col(big_integer_null(PaymentEvents::OrderId))
                    .col(string_len(PaymentEvents::Kind, 60))
                    .col(timestamp_with_time_zone(PaymentEvents::ReceivedAt))
                    .to_owned(),
            )
            .await?;
        manager
            .create_index(
                Index::create()
                    .name("uq_payment_events_provider_event")
                    .table(PaymentEvents::Table)
                    .col(PaymentEvents::Provider)
                    .col(PaymentEvents::EventId)
                    .unique()
                    .to_owned(),
            )
            .await?;

        manager
            .create_table(
                Table::create()
                    .table(OrderTasks::Table)
                    .col(big_pk_auto(OrderTasks::Id))
                    .col(big_integer(OrderTasks::OrderLineId))
                    .col(string_len(OrderTasks::Kind, 60))
                    .col(string_len(OrderTasks::Status, 20))
                    .col(timestamp_with_time_zone(OrderTasks::CreatedAt))
                    .col(timestamp_with_time_zone_null(OrderTasks::DoneAt))
                    .foreign_key(&mut cascade((OrderTasks::Table, OrderTasks::OrderLineId), (OrderLines::Table, OrderLines::Id)))
                    .to_owned(),
            )
            .await?;
        manager
            .create_index(
                Index::create()
                    .name("uq_order_tasks_line_kind")
                    .table(OrderTasks::Table)
                    .col(OrderTasks::OrderLineId)
                    .col(OrderTasks::Kind)
                    .unique()
                    .to_owned(),
            )
            .await?;

        manager
            .alter_table(Table::alter().table(Listings::Table).add_column(timestamp_with_time_zone_null(Listings::FeaturedAt)).to_owned())
            .await?;
        // One change per statement: SQLite alters one column at a time.
        manager
            .alter_table(Table::alter().table(Listings::Table).add_column(big_integer_null(Listings::PaidLaunchLineId)).to_owned())
            .await?;
        manager
            .alter_table(
                Table::alter()
                    .table(BillboardContributions::Table)
                    .add_column(big_integer_null(BillboardContributions::OrderLineId))
                    .to_owned(),
            )
            .await?;
        manager
            .create_index(
                Index::create()
                    .name("uq_billboard_order_line")
                    .table(BillboardContributions::Table)
                    .col(BillboardContributions::OrderLineId)
                    .unique()
                    .to_owned(),
            )
            .await?;
        manager
            .create_table(
                Table::create()
                    .table(ListingRelaunches::Table)
                    .col(big_pk_auto(ListingRelaunches::Id))
                    .col(big_integer(ListingRelaunches::ListingId))
                    .col(date(ListingRelaunches::Week))
                    .col(big_integer(ListingRelaunches::OrderLineId).unique_key())
                    .col(timestamp_with_time_zone_null(ListingRelaunches::RelaunchedAt))
                    .foreign_key(&mut cascade((ListingRelaunches::Table, ListingRelaunches::ListingId), (Listings::Table, Listings::Id)))
                    .to_owned(),
            )
            .await?;
        manager
            .create_index(
                Index::create().name("idx_relaunches_week").table(ListingRelaunches::Table).col(ListingRelaunches::Week).to_owned(),
            )
            .await
    }

    async fn down(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        manager.drop_table(Table::drop().table(ListingRelaunches::Table).to_owned()).await?;
        manager.drop_index(Index::drop().name("uq_billboard_order_line").table(BillboardContributions::Table).to_owned()).await?;
        manager
            .alter_table(Table::alter().table(BillboardContributions::Table).drop_column(BillboardContributions::OrderLineId).to_owned())
            .await?;
        manager.alter_table(Table::alter().table(Listings::Table).drop_column(Listings::FeaturedAt).to_owned()).await?;
        manager.alter_table(Table::alter().table(Listings::Table).drop_column(Listings::PaidLaunchLineId).to_owned()).await?;
        for table in [
            OrderTasks::Table.into_iden(),
            PaymentEvents::Table.into_iden(),
            OrderLines::Table.into_iden(),
            Orders::Table.into_iden(),
            VatRates::Table.into_iden(),
        ] {
            manager.drop_table(Table::drop().table(table).to_owned()).await?;
        }
        Ok(())
    }
}
