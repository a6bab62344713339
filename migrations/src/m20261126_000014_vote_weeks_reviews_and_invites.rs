//! Vote momentum and editable reviews: each vote keeps its launch week (`votes.launch_week`,
//! the Monday of the week it was cast in, in the launch time zone when cast), so a listing's
//! counted votes per week, first and last vote come from one index over its own votes
//! (`idx_votes_listing_momentum`), never from the whole table. Votes from before are given
//! their UTC week (the default launch time zone). A review records when it was last edited. A
//! co-founder invitation records who accepted it and when (its link works once).

use sea_orm_migration::prelude::*;
use sea_orm_migration::schema::*;
use sea_orm_migration::sea_orm::{ConnectionTrait, Statement};
use time::{Date, Duration, OffsetDateTime, UtcOffset};

#[derive(DeriveMigrationName)]
pub struct Migration;

#[derive(DeriveIden)]
enum Votes {
    Table,
    ListingId,
    Counted,
    LaunchWeek,
    CreatedAt,
}

#[derive(DeriveIden)]
enum Reviews {
    Table,
    UpdatedAt,
}

#[derive(DeriveIden)]
enum DraftInvites {
    Table,
    AcceptedAt,
    AcceptedBy,
}

/// The Monday of the UTC week `at` falls in.
fn utc_monday(at: OffsetDateTime) -> Date {
    let date = at.to_offset(UtcOffset::UTC).date();
    date - Duration::days(i64::from(date.weekday().number_days_from_monday()))
}

#[async_trait::async_trait]
impl MigrationTrait for Migration {
    async fn up(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        manager
            .alter_table(Table::alter().table(Votes::Table).add_column(date(Votes::LaunchWeek).default(Expr::val("1970-01-05"))).to_owned())
            .await?;
        // Existing votes get their UTC week: one update per week between the first vote and the
        // last, each over a range of `created_at` (all stored in UTC, so ranges compare).
        let db = manager.get_connection();
        let bounds = db
            .query_one_raw(Statement::from_string(
                db.get_database_backend(),
                "SELECT MIN(created_at) AS first, MAX(created_at) AS last FROM votes",
            ))
            .await?;
        if let Some(row) = bounds {
            let first: Option<OffsetDateTime> = row.try_get("", "first")?;
            let last: Option<OffsetDateTime> = row.try_get("", "last")?;
            if let (Some(first), Some(last)) = (first, last) {
                let mut monday = utc_monday(first);
                while monday <= last.to_offset(UtcOffset::UTC).date() {
                    let starts = monday.midnight().assume_utc();
                    let ends = starts + Duration::weeks(1);
                    let update = Query::update()
                        .table(Votes::Table)
                        .value(Votes::LaunchWeek, monday)
                        .and_where(Expr::col(Votes::CreatedAt).gte(starts))
                        .and_where(Expr::col(Votes::CreatedAt).lt(ends))
                        .to_owned();
                    manager.exec_stmt(update).await?;
                    monday += Duration::weeks(1);
                }
            }
        }
        manager
            .create_index(
                Index::create()
                    .name("idx_votes_listing_momentum")
                    .table(Votes::Table)
                    .col(Votes::ListingId)
                    .col(Votes::Counted)
                    .col(Votes::LaunchWeek)
                    .col(Votes::CreatedAt)
                    .to_owned(),
            )
            .await?;
        manager
            .alter_table(
                Table::alter().table(DraftInvites::Table).add_column(timestamp_with_time_zone_null(DraftInvites::AcceptedAt)).to_owned(),
            )
            .await?;
        manager
            .alter_table(Table::alter().table(DraftInvites::Table).add_column(big_integer_null(DraftInvites::AcceptedBy)).to_owned())
            .await?;
        manager
            .alter_table(Table::alter().table(Reviews::Table).add_column(timestamp_with_time_zone_null(Reviews::UpdatedAt)).to_owned())
            .await
    }

    async fn down(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        manager.alter_table(Table::alter().table(Reviews::Table).drop_column(Reviews::UpdatedAt).to_owned()).await?;
        for column in [DraftInvites::AcceptedBy, DraftInvites::AcceptedAt] {
            manager.alter_table(Table::alter().table(DraftInvites::Table).drop_column(column).to_owned()).await?;
        }
        manager.drop_index(Index::drop().name("idx_votes_listing_momentum").table(Votes::Table).to_owned()).await?;
        manager.alter_table(Table::alter().table(Votes::Table).drop_column(Votes::LaunchWeek).to_owned()).await
    }
}
