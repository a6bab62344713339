//! Submission by URL: drafts and their invitations, the durable job queue, the e-mail outbox,
//! remembered idempotency keys, and the listing columns a submitted draft fills.

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
    Tags,
    SeoTitle,
    SeoDescription,
}

#[derive(DeriveIden)]
enum Drafts {
    Table,
    Id,
    OwnerUserId,
    Status,
    Document,
    Snapshot,
    Version,
    CreatedAt,
    UpdatedAt,
}

#[derive(DeriveIden)]
enum DraftInvites {
    Table,
    Id,
    DraftId,
    Email,
    TokenHash,
    CreatedAt,
}

#[derive(DeriveIden)]
enum Jobs {
    Table,
    Id,
    Kind,
    Payload,
    UniqueKey,
    State,
    RunAt,
    Attempts,
    MaxAttempts,
    LockedUntil,
    LockedBy,
    LastError,
    CreatedAt,
    FinishedAt,
}

#[derive(DeriveIden)]
enum Outbox {
    Table,
    Id,
    ToAddress,
    Subject,
    Body,
    Kind,
    CreatedAt,
}

#[derive(DeriveIden)]
enum IdempotencyKeys {
    Table,
    Id,
    Principal,
    Operation,
    Key,
    Fingerprint,
    State,
    ResponseStatus,
    ResponseBody,
    CreatedAt,
}

#[async_trait::async_trait]
impl MigrationTrait for Migration {
    async fn up(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        for column in [json_null(Listings::Tags), string_len_null(Listings::SeoTitle, 200), string_len_null(Listings::SeoDescription, 320)]
        {
            let mut column = column;
            manager.alter_table(Table::alter().table(Listings::Table).add_column(&mut column).to_owned()).await?;
        }
        manager
            .create_table(
                Table::create()
                    .table(Drafts::Table)
                    .col(string_len(Drafts::Id, 36).primary_key())
                    .col(big_integer(Drafts::OwnerUserId))
                    .col(string_len(Drafts::Status, 20))
                    .col(json(Drafts::Document))
                    .col(json_null(Drafts::Snapshot))
                    .col(big_integer(Drafts::Version).default(0))
                    .col(timestamp_with_time_zone(Drafts::CreatedAt))
                    .col(timestamp_with_time_zone(Drafts::UpdatedAt))
                    .foreign_key(
                        ForeignKey::create()
                            .from(Drafts::Table, Drafts::OwnerUserId)
                            .to(Users::Table, Users::Id)
                            .on_delete(ForeignKeyAction::Cascade),
                    )
                    .to_owned(),
            )
            .await?;
        manager
            .create_index(
                Index::create()
                    .name("idx_drafts_owner_created")
                    .table(Drafts::Table)
                    .col(Drafts::OwnerUserId)
                    .col(Drafts::CreatedAt)
                    .to_owned(),
            )
            .await?;
        manager
            .create_table(
                Table::create()
                    .table(DraftInvites::Table)
                    .col(big_pk_auto(DraftInvites::Id))
                    .col(string_len(DraftInvites::DraftId, 36))
                    .col(string_len(DraftInvites::Email, 254))
                    .col(string_len(DraftInvites::TokenHash, 64))
                    .col(timestamp_with_time_zone(DraftInvites::CreatedAt))
                    .foreign_key(
                        ForeignKey::create()
                            .from(DraftInvites::Table, DraftInvites::DraftId)
                            .to(Drafts::Table, Drafts::Id)
                            .on_delete(ForeignKeyAction::Cascade),
                    )
                    .to_owned(),
            )
            .await?;
        manager
            .create_index(
                Index::create()
                    .name("uq_draft_invites_draft_email")
                    .table(DraftInvites::Table)
                    .col(DraftInvites::DraftId)
                    .col(DraftInvites::Email)
                    .unique()
                    .to_owned(),
            )
            .await?;
        manager
            .create_table(
                Table::create()
                    .table(Jobs::Table)
                    .col(big_pk_auto(Jobs::Id))
                    .col(string_len(Jobs::Kind, 60))
                    .col(json(Jobs::Payload))
                    .col(string_len_null(Jobs::UniqueKey, 200).unique_key())
                    .col(string_len(Jobs::State, 10))
                    .col(timestamp_with_time_zone(Jobs::RunAt))
                    .col(integer(Jobs::Attempts).default(0))
                    .col(integer(Jobs::MaxAttempts).default(3))
                    .col(timestamp_with_time_zone_null(Jobs::LockedUntil))
                    .col(string_len_null(Jobs::LockedBy, 100))
                    .col(text_null(Jobs::LastError))
                    .col(timestamp_with_time_zone(Jobs::CreatedAt))
                    .col(timestamp_with_time_zone_null(Jobs::FinishedAt))
                    .to_owned(),
            )
            .await?;
        manager
            .create_index(Index::create().name("idx_jobs_state_run_at").table(Jobs::Table).col(Jobs::State).col(Jobs::RunAt).to_owned())
            .await?;
        manager
            .create_table(
                Table::create()
                    .table(Outbox::Table)
                    .col(big_pk_auto(Outbox::Id))
                    .col(string_len(Outbox::ToAddress, 254))
                    .col(string_len(Outbox::Subject, 300))
                    .col(text(Outbox::Body))
                    .col(string_len(Outbox::Kind, 60))
                    .col(timestamp_with_time_zone(Outbox::CreatedAt))
                    .to_owned(),
            )
            .await?;
        manager
            .create_table(
                Table::create()
                    .table(IdempotencyKeys::Table)
                    .col(big_pk_auto(IdempotencyKeys::Id))
                    .col(string_len(IdempotencyKeys::Principal, 100))
                    .col(string_len(IdempotencyKeys::Operation, 60))
                    .col(string_len(IdempotencyKeys::Key, 255))
                    .col(string_len(IdempotencyKeys::Fingerprint, 64))
                    .col(string_len(IdempotencyKeys::State, 10))
                    .col(integer_null(IdempotencyKeys::ResponseStatus))
                    .col(json_null(IdempotencyKeys::ResponseBody))
                    .col(timestamp_with_time_zone(IdempotencyKeys::CreatedAt))
                    .to_owned(),
            )
            .await?;
        manager
            .create_index(
                Index::create()
                    .name("uq_idempotency_keys_scope")
                    .table(IdempotencyKeys::Table)
                    .col(IdempotencyKeys::Principal)
                    .col(IdempotencyKeys::Operation)
                    .col(IdempotencyKeys::Key)
                    .unique()
                    .to_owned(),
            )
            .await
    }

    async fn down(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        for table in [
            IdempotencyKeys::Table.into_iden(),
            Outbox::Table.into_iden(),
            Jobs::Table.into_iden(),
            DraftInvites::Table.into_iden(),
            Drafts::Table.into_iden(),
        ] {
            manager.drop_table(Table::drop().table(table).to_owned()).await?;
        }
        for column in [Listings::Tags, Listings::SeoTitle, Listings::SeoDescription] {
            manager.alter_table(Table::alter().table(Listings::Table).drop_column(column).to_owned()).await?;
        }
        Ok(())
    }
}
