//! Vote momentum and editable reviews: each vote keeps its launch week (`votes.launch_week`,
//! the Monday of the week it was cast in, in the launch time zone when cast), so a listing's
//! counted votes per week, first and last vote come from one index over its own votes
//! (`idx_votes_listing_momentum`), never from the whole table. Votes from before are given
//! their UTC week (the default launch time zone). A review records when it was last edited. A
//! co-founder invitation records who accepted it and when (its link works once).

use sea_orm_migration::prelude::*;
use sea_orm_migration::schema::*;
use sea_orm_migration::sea_orm::ConnectionTrait;
use std::collections::BTreeMap;
use time::{Date, Duration, OffsetDateTime, UtcOffset};

#[derive(DeriveMigrationName)]
pub struct Migration;

/// Votes read at a time by the backfill.
const BACKFILL_WINDOW: u64 = 5000;

#[derive(DeriveIden)]
enum Votes {
    Table,
    Id,
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
        // Existing votes get their UTC week, computed here from each row's instant (on SQLite a
        // timestamp is text whose fractional seconds vary in length, so ranges of text would
        // misplace the first second of a week), a window of ids at a time.
        let db = manager.get_connection();
        let mut after = 0i64;
        loop {
            let window = Query::select()
                .columns([Votes::Id, Votes::CreatedAt])
                .from(Votes::Table)
                .and_where(Expr::col(Votes::Id).gt(after))
                .order_by(Votes::Id, Order::Asc)
                .limit(BACKFILL_WINDOW)
                .to_owned();
            let rows = db.query_all(&window).await?;
            if rows.is_empty() {
                break;
            }
            let mut by_week: BTreeMap<Date, Vec<i64>> = BTreeMap::new();
            for row in &rows {
                let id: i64 = row.try_get("", "id")?;
                let at: OffsetDateTime = row.try_get("", "created_at")?;
                by_week.entry(utc_monday(at)).or_default().push(id);
                after = Ord::max(after, id);
            }
            for (monday, ids) in by_week {
                let update = Query::update()
                    .table(Votes::Table)
                    .value(Votes::LaunchWeek, monday)
                    .and_where(Expr::col(Votes::Id).is_in(ids))
                    .to_owned();
                manager.exec_stmt(update).await?;
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
