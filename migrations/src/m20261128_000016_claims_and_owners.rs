//! Claims and the owners they make: `claims` (one row per claim, its token or the hash of its
//! e-mailed link, its latest check), `listing_owners` (owners beside `listings.owner_user_id`,
//! each by the claim that proved it) and `listings.verified_at` (the Verified badge).

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
    VerifiedAt,
}

#[derive(DeriveIden)]
enum Claims {
    Table,
    Id,
    ListingId,
    ClaimantUserId,
    Method,
    Status,
    Token,
    Email,
    LinkHash,
    LinkSentAt,
    CreatedAt,
    VerifiedAt,
    LastCheckedAt,
    LastOutcome,
    LastLookedAt,
    LastFound,
    ProofMissingSince,
}

#[derive(DeriveIden)]
enum ListingOwners {
    Table,
    ListingId,
    UserId,
    ClaimId,
    CreatedAt,
}

#[async_trait::async_trait]
impl MigrationTrait for Migration {
    async fn up(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        manager
            .alter_table(Table::alter().table(Listings::Table).add_column(timestamp_with_time_zone_null(Listings::VerifiedAt)).to_owned())
            .await?;
        manager
            .create_table(
                Table::create()
                    .table(Claims::Table)
                    .col(big_pk_auto(Claims::Id))
                    .col(big_integer(Claims::ListingId))
                    .col(big_integer(Claims::ClaimantUserId))
                    .col(string_len(Claims::Method, 10))
                    .col(string_len(Claims::Status, 10))
                    .col(string_len_null(Claims::Token, 64))
                    .col(string_len_null(Claims::Email, 254))
                    .col(string_len_null(Claims::LinkHash, 64))
                    .col(timestamp_with_time_zone_null(Claims::LinkSentAt))
                    .col(timestamp_with_time_zone(Claims::CreatedAt))
                    .col(timestamp_with_time_zone_null(Claims::VerifiedAt))
                    .col(timestamp_with_time_zone_null(Claims::LastCheckedAt))
                    .col(string_len_null(Claims::LastOutcome, 20))
                    .col(text_null(Claims::LastLookedAt))
                    .col(text_null(Claims::LastFound))
                    .col(timestamp_with_time_zone_null(Claims::ProofMissingSince))
                    .foreign_key(ForeignKey::create().from(Claims::Table, Claims::ListingId).to(Listings::Table, Listings::Id))
                    .foreign_key(ForeignKey::create().from(Claims::Table, Claims::ClaimantUserId).to(Users::Table, Users::Id))
                    .to_owned(),
            )
            .await?;
        for (name, columns, unique) in [
            ("idx_claims_claimant", vec![Claims::ClaimantUserId, Claims::CreatedAt], false),
            ("idx_claims_status_created", vec![Claims::Status, Claims::CreatedAt], false),
            ("idx_claims_status_checked", vec![Claims::Status, Claims::LastCheckedAt], false),
            ("idx_claims_link", vec![Claims::LinkHash], true),
        ] {
            let mut index = Index::create();
            index.name(name).table(Claims::Table);
            for column in columns {
                index.col(column);
            }
            if unique {
                index.unique();
            }
            manager.create_index(index.to_owned()).await?;
        }
        // One pending claim per person, listing and method, under races too. A partial index
        // reads the same on SQLite and PostgreSQL.
        manager
            .get_connection()
            .execute_unprepared(
                "CREATE UNIQUE INDEX idx_claims_one_pending ON claims (listing_id, claimant_user_id, method) WHERE status = 'pending'",
            )
            .await?;
        manager
            .create_table(
                Table::create()
                    .table(ListingOwners::Table)
                    .col(big_integer(ListingOwners::ListingId))
                    .col(big_integer(ListingOwners::UserId))
                    .col(big_integer_null(ListingOwners::ClaimId))
                    .col(timestamp_with_time_zone(ListingOwners::CreatedAt))
                    .primary_key(Index::create().col(ListingOwners::ListingId).col(ListingOwners::UserId))
                    .foreign_key(
                        ForeignKey::create().from(ListingOwners::Table, ListingOwners::ListingId).to(Listings::Table, Listings::Id),
                    )
                    .foreign_key(ForeignKey::create().from(ListingOwners::Table, ListingOwners::UserId).to(Users::Table, Users::Id))
                    .foreign_key(ForeignKey::create().from(ListingOwners::Table, ListingOwners::ClaimId).to(Claims::Table, Claims::Id))
                    .to_owned(),
            )
            .await?;
        manager
            .create_index(Index::create().name("idx_listing_owners_user").table(ListingOwners::Table).col(ListingOwners::UserId).to_owned())
            .await
    }

    async fn down(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        manager.drop_table(Table::drop().table(ListingOwners::Table).to_owned()).await?;
        manager.drop_table(Table::drop().table(Claims::Table).to_owned()).await?;
        manager.alter_table(Table::alter().table(Listings::Table).drop_column(Listings::VerifiedAt).to_owned()).await
    }
}
