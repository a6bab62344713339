//! The search indexes' change feed and the indexes that keep public reads bounded by their page.
//!
//! `listing_changes` gets one position per insert, delete and update of a listing's indexed
//! columns, written by triggers in the writing transaction (no writer can forget it, seeds and
//! bulk jobs included); each node reads the positions after its own into its search index.
//! Votes and views do not touch those columns, so they never fire it.
//!
//! The indexes give every ranked read an index in its exact order (`status`, the ranking value
//! descending, `id`), so a page is a range walk, never a sort of the directory; and
//! `listings.follows_count` keeps each listing's followers beside it (kept by the follow
//! writers), so "most followed" is ranked like votes.

use sea_orm_migration::sea_orm::DatabaseBackend;
use sea_orm_migration::{prelude::*, schema::*};

#[derive(DeriveMigrationName)]
pub struct Migration;

#[derive(DeriveIden)]
enum Listings {
    Table,
    Id,
    Status,
    VotesCount,
    ViewsCount,
    LaunchedAt,
    LaunchWeek,
    PrimaryCategoryId,
    FollowsCount,
}

#[derive(DeriveIden)]
enum ListingFounders {
    Table,
    ListingId,
    FounderId,
    Position,
}

#[derive(DeriveIden)]
enum Founders {
    Table,
    Id,
    Name,
}

#[derive(DeriveIden)]
enum ListingMilestones {
    Table,
    Id,
    ListingId,
    Date,
}

#[derive(DeriveIden)]
enum ListingMedia {
    Table,
    Id,
    ListingId,
    Position,
}

#[derive(DeriveIden)]
enum ListingMetrics {
    Table,
    ListingId,
    DomainRating,
    MonthlyRevenueCents,
}

#[derive(DeriveIden)]
enum Votes {
    Table,
    ListingId,
    UserId,
    Counted,
    CreatedAt,
}

#[derive(DeriveIden)]
enum ListingFollows {
    Table,
    UserId,
}

/// An index over these columns, each ascending or descending.
fn index<T: Iden + 'static>(name: &'static str, table: T, columns: Vec<(DynIden, IndexOrder)>) -> (&'static str, IndexCreateStatement) {
    let mut index = Index::create();
    index.name(name).table(table);
    for (column, order) in columns {
        index.col((column, order));
    }
    (name, index.to_owned())
}

fn asc(column: impl IntoIden) -> (DynIden, IndexOrder) {
    (column.into_iden(), IndexOrder::Asc)
}

fn desc(column: impl IntoIden) -> (DynIden, IndexOrder) {
    (column.into_iden(), IndexOrder::Desc)
}

/// The read indexes: (name, table, columns).
fn read_indexes() -> Vec<(&'static str, IndexCreateStatement)> {
    vec![
        index("idx_listings_live_votes", Listings::Table, vec![asc(Listings::Status), desc(Listings::VotesCount), asc(Listings::Id)]),
        index("idx_listings_live_launched", Listings::Table, vec![asc(Listings::Status), desc(Listings::LaunchedAt), asc(Listings::Id)]),
        index("idx_listings_live_views", Listings::Table, vec![asc(Listings::Status), desc(Listings::ViewsCount), asc(Listings::Id)]),
        index("idx_listings_live_follows", Listings::Table, vec![asc(Listings::Status), desc(Listings::FollowsCount), asc(Listings::Id)]),
        index("idx_listings_live_week", Listings::Table, vec![asc(Listings::Status), asc(Listings::LaunchWeek)]),
        index(
            "idx_listings_category_votes",
            Listings::Table,
            vec![asc(Listings::PrimaryCategoryId), asc(Listings::Status), desc(Listings::VotesCount), asc(Listings::Id)],
        ),
        index(
            "idx_listing_founders_founder",
            ListingFounders::Table,
            vec![asc(ListingFounders::FounderId), asc(ListingFounders::Position), asc(ListingFounders::ListingId)],
        ),
        index("idx_founders_name", Founders::Table, vec![asc(Founders::Name), asc(Founders::Id)]),
        index(
            "idx_milestones_listing",
            ListingMilestones::Table,
            vec![asc(ListingMilestones::ListingId), desc(ListingMilestones::Date), desc(ListingMilestones::Id)],
        ),
        index(
            "idx_media_listing",
            ListingMedia::Table,
            vec![asc(ListingMedia::ListingId), asc(ListingMedia::Position), asc(ListingMedia::Id)],
        ),
        index("idx_metrics_domain_rating", ListingMetrics::Table, vec![desc(ListingMetrics::DomainRating), asc(ListingMetrics::ListingId)]),
        index(
            "idx_metrics_revenue",
            ListingMetrics::Table,
            vec![desc(ListingMetrics::MonthlyRevenueCents), asc(ListingMetrics::ListingId)],
        ),
        index("idx_votes_counted_created", Votes::Table, vec![asc(Votes::Counted), asc(Votes::CreatedAt), asc(Votes::ListingId)]),
        index("idx_votes_user", Votes::Table, vec![asc(Votes::UserId)]),
        index("idx_listing_follows_user", ListingFollows::Table, vec![asc(ListingFollows::UserId)]),
    ]
}

#[derive(DeriveIden)]
enum ListingChanges {
    Table,
    Seq,
    ListingId,
}

/// The columns the search index holds; an update of any of them is a change.
const INDEXED_COLUMNS: &str = "name, tagline, short_description, description, keywords, status";

#[async_trait::async_trait]
impl MigrationTrait for Migration {
    async fn up(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        manager
            .create_table(
                Table::create()
                    .table(ListingChanges::Table)
                    .col(big_pk_auto(ListingChanges::Seq))
                    .col(big_integer(ListingChanges::ListingId))
                    .to_owned(),
            )
            .await?;
        let db = manager.get_connection();
        match manager.get_database_backend() {
            DatabaseBackend::Postgres => {
                db.execute_unprepared(
                    "CREATE FUNCTION note_listing_change() RETURNS trigger LANGUAGE plpgsql AS $$
                     BEGIN
                         INSERT INTO listing_changes (listing_id) VALUES (CASE WHEN TG_OP = 'DELETE' THEN OLD.id ELSE NEW.id END);
                         RETURN NULL;
                     END $$",
                )
                .await?;
                db.execute_unprepared(&format!(
                    "CREATE TRIGGER listings_changed AFTER INSERT OR DELETE OR UPDATE OF {INDEXED_COLUMNS} ON listings
                     FOR EACH ROW EXECUTE FUNCTION note_listing_change()"
                ))
                .await?;
            }
            _ => {
                db.execute_unprepared(
                    "CREATE TRIGGER listings_inserted AFTER INSERT ON listings
                     BEGIN INSERT INTO listing_changes (listing_id) VALUES (NEW.id); END",
                )
                .await?;
                db.execute_unprepared(&format!(
                    "CREATE TRIGGER listings_updated AFTER UPDATE OF {INDEXED_COLUMNS} ON listings
                     BEGIN INSERT INTO listing_changes (listing_id) VALUES (NEW.id); END"
                ))
                .await?;
                db.execute_unprepared(
                    "CREATE TRIGGER listings_deleted AFTER DELETE ON listings
                     BEGIN INSERT INTO listing_changes (listing_id) VALUES (OLD.id); END",
                )
                .await?;
            }
        }
        manager
            .alter_table(Table::alter().table(Listings::Table).add_column(big_integer(Listings::FollowsCount).default(0)).to_owned())
            .await?;
        db.execute_unprepared(
            "UPDATE listings SET follows_count = (SELECT COUNT(*) FROM listing_follows f WHERE f.listing_id = listings.id)",
        )
        .await?;
        // The new votes index leads with the same columns and adds the order of the ties.
        manager.drop_index(Index::drop().name("idx_listings_status_votes").table(Listings::Table).to_owned()).await?;
        for (_, index) in read_indexes() {
            manager.create_index(index).await?;
        }
        Ok(())
    }

    async fn down(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        for (name, _) in read_indexes() {
            manager.drop_index(Index::drop().name(name).to_owned()).await?;
        }
        manager
            .create_index(
                Index::create()
                    .name("idx_listings_status_votes")
                    .table(Listings::Table)
                    .col(Listings::Status)
                    .col(Listings::VotesCount)
                    .to_owned(),
            )
            .await?;
        manager.alter_table(Table::alter().table(Listings::Table).drop_column(Listings::FollowsCount).to_owned()).await?;
        let db = manager.get_connection();
        match manager.get_database_backend() {
            DatabaseBackend::Postgres => {
                db.execute_unprepared("DROP TRIGGER listings_changed ON listings").await?;
                db.execute_unprepared("DROP FUNCTION note_listing_change()").await?;
            }
            _ => {
                for trigger in ["listings_inserted", "listings_updated", "listings_deleted"] {
                    db.execute_unprepared(&format!("DROP TRIGGER {trigger}")).await?;
                }
            }
        }
        manager.drop_table(Table::drop().table(ListingChanges::Table).to_owned()).await
    }
}
