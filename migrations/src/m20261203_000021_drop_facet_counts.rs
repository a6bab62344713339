//! The live counts per stage, country and pricing model (`live_facets`, migration 18) go.
//!
//! They were the totals of a browse filtered by one of them. Since migration 20 every search
//! with such a filter is counted by the search index itself, exactly and in the same pass as
//! its page, so nothing reads them, and every listing write paid for keeping them. The two
//! triggers of migration 18 that also counted other things are redefined from migration 18's
//! own definitions, with the facet statements left out; the one that counted only facets is
//! dropped. Down brings the table, its counts and the three triggers back.

use crate::m20261130_000018_maintained_directory_counts as kept;
use crate::m20261201_000019_narrow_category_counts::redefine;
use crate::triggers::{Body, Trigger, create_statements};
use sea_orm_migration::prelude::*;
use sea_orm_migration::schema::*;
use sea_orm_migration::sea_orm::DatabaseBackend;

#[derive(DeriveMigrationName)]
pub struct Migration;

#[derive(DeriveIden)]
enum LiveFacets {
    Table,
    Facet,
    Value,
    Live,
}

/// Migration 18's triggers that counted facets among other things.
const ALSO_FACETS: [&str; 2] = ["count_listing_inserted", "count_listing_deleted"];
/// Migration 18's trigger that counted only facets.
const ONLY_FACETS: &str = "count_listing_facets";

fn facet_statement(statement: &str) -> bool {
    statement.contains("live_facets")
}

/// Migration 18's definitions of these triggers.
fn of_migration_18(names: &[&str]) -> Vec<Trigger> {
    kept::triggers().into_iter().filter(|trigger| names.contains(&trigger.name)).collect()
}

/// `ALSO_FACETS` without their facet statements.
fn without_facets() -> Vec<Trigger> {
    let mut triggers = of_migration_18(&ALSO_FACETS);
    for trigger in &mut triggers {
        if let Body::Run(statements) = &mut trigger.body {
            statements.retain(|statement| !facet_statement(statement));
        }
    }
    triggers
}

#[async_trait::async_trait]
impl MigrationTrait for Migration {
    async fn up(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        let drop = match manager.get_database_backend() {
            DatabaseBackend::Postgres => {
                vec![
                    format!("DROP TRIGGER {ONLY_FACETS} ON listings"),
                    format!("DROP FUNCTION {ONLY_FACETS}()"),
                    "DROP TABLE live_facets".into(),
                ]
            }
            _ => vec![format!("DROP TRIGGER {ONLY_FACETS}"), "DROP TABLE live_facets".into()],
        };
        let drop: Vec<&str> = drop.iter().map(String::as_str).collect();
        // The triggers first: SQLite drops no table a trigger still names.
        redefine(manager, without_facets(), &drop).await
    }

    async fn down(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        manager
            .create_table(
                Table::create()
                    .table(LiveFacets::Table)
                    .col(string_len(LiveFacets::Facet, 20))
                    .col(string_len(LiveFacets::Value, 100))
                    .col(big_integer(LiveFacets::Live).default(0))
                    .primary_key(Index::create().col(LiveFacets::Facet).col(LiveFacets::Value))
                    .to_owned(),
            )
            .await?;
        let db = manager.get_connection();
        for statement in kept::FILL.iter().filter(|statement| facet_statement(statement)) {
            db.execute_unprepared(statement).await?;
        }
        let create = create_statements(manager.get_database_backend(), &of_migration_18(&[ONLY_FACETS]));
        let create: Vec<&str> = create.iter().map(String::as_str).collect();
        redefine(manager, of_migration_18(&ALSO_FACETS), &create).await
    }
}
