//! Owners and the publication lifecycle: the version history of owner edits, interview
//! answers, the listing columns `update_my_listing` adds (headline, summary), and the badge
//! check's state on each listing.

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
    Headline,
    Summary,
    BadgeCheckedAt,
    BadgeCheckResult,
    BadgeCheckDetail,
    BadgeSeenAt,
    BadgeFailures,
    BadgeNextCheckAt,
}

#[derive(DeriveIden)]
enum ListingVersions {
    Table,
    Id,
    ListingId,
    EditorUserId,
    Changed,
    Before,
    After,
    CreatedAt,
}

#[derive(DeriveIden)]
enum InterviewQuestions {
    Table,
    Id,
}

#[derive(DeriveIden)]
enum InterviewAnswers {
    Table,
    UserId,
    QuestionId,
    Answer,
    UpdatedAt,
}

fn cascade(from: (impl IntoIden, impl IntoIden), to: (impl IntoIden, impl IntoIden)) -> ForeignKeyCreateStatement {
    ForeignKey::create().from(from.0, from.1).to(to.0, to.1).on_delete(ForeignKeyAction::Cascade).to_owned()
}

#[async_trait::async_trait]
impl MigrationTrait for Migration {
    async fn up(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        for column in [
            string_len_null(Listings::Headline, 200),
            text_null(Listings::Summary),
            timestamp_with_time_zone_null(Listings::BadgeCheckedAt),
            string_len_null(Listings::BadgeCheckResult, 40),
            string_len_null(Listings::BadgeCheckDetail, 500),
            timestamp_with_time_zone_null(Listings::BadgeSeenAt),
            integer(Listings::BadgeFailures).default(0).to_owned(),
            timestamp_with_time_zone_null(Listings::BadgeNextCheckAt),
        ] {
            let mut column = column;
            manager.alter_table(Table::alter().table(Listings::Table).add_column(&mut column).to_owned()).await?;
        }
        manager
            .create_table(
                Table::create()
                    .table(ListingVersions::Table)
                    .col(big_pk_auto(ListingVersions::Id))
                    .col(big_integer(ListingVersions::ListingId))
                    .col(big_integer_null(ListingVersions::EditorUserId))
                    .col(json(ListingVersions::Changed))
                    .col(json(ListingVersions::Before))
                    .col(json(ListingVersions::After))
                    .col(timestamp_with_time_zone(ListingVersions::CreatedAt))
                    .foreign_key(&mut cascade((ListingVersions::Table, ListingVersions::ListingId), (Listings::Table, Listings::Id)))
                    .foreign_key(
                        ForeignKey::create()
                            .from(ListingVersions::Table, ListingVersions::EditorUserId)
                            .to(Users::Table, Users::Id)
                            .on_delete(ForeignKeyAction::SetNull),
                    )
                    .to_owned(),
            )
            .await?;
        manager
            .create_index(
                Index::create()
                    .name("idx_listing_versions_listing")
                    .table(ListingVersions::Table)
                    .col(ListingVersions::ListingId)
                    .col(ListingVersions::Id)
                    .to_owned(),
            )
            .await?;
        manager
            .create_table(
                Table::create()
                    .table(InterviewAnswers::Table)
                    .col(big_integer(InterviewAnswers::UserId))
                    .col(big_integer(InterviewAnswers::QuestionId))
                    .col(text(InterviewAnswers::Answer))
                    .col(timestamp_with_time_zone(InterviewAnswers::UpdatedAt))
                    .primary_key(Index::create().col(InterviewAnswers::UserId).col(InterviewAnswers::QuestionId))
                    .foreign_key(&mut cascade((InterviewAnswers::Table, InterviewAnswers::UserId), (Users::Table, Users::Id)))
                    .foreign_key(&mut cascade(
                        (InterviewAnswers::Table, InterviewAnswers::QuestionId),
                        (InterviewQuestions::Table, InterviewQuestions::Id),
                    ))
                    .to_owned(),
            )
            .await?;
        // The badge job picks listings awaiting the badge whose next check is due.
        manager
            .create_index(
                Index::create().name("idx_listings_badge_next_check").table(Listings::Table).col(Listings::BadgeNextCheckAt).to_owned(),
            )
            .await?;
        Ok(())
    }

    async fn down(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        manager.drop_index(Index::drop().name("idx_listings_badge_next_check").table(Listings::Table).to_owned()).await?;
        for table in [InterviewAnswers::Table.into_iden(), ListingVersions::Table.into_iden()] {
            manager.drop_table(Table::drop().table(table).to_owned()).await?;
        }
        for column in [
            Listings::Headline,
            Listings::Summary,
            Listings::BadgeCheckedAt,
            Listings::BadgeCheckResult,
            Listings::BadgeCheckDetail,
            Listings::BadgeSeenAt,
            Listings::BadgeFailures,
            Listings::BadgeNextCheckAt,
        ] {
            manager.alter_table(Table::alter().table(Listings::Table).drop_column(column).to_owned()).await?;
        }
        Ok(())
    }
}
