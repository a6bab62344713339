//! The site team: `users.is_admin` (granted with `launchdir user grant-admin`) opens the admin
//! pages; `admin_audit` keeps every admin action with who did it, to what, and when.

use sea_orm_migration::{prelude::*, schema::*};

#[derive(DeriveMigrationName)]
pub struct Migration;

#[derive(DeriveIden)]
enum Users {
    Table,
    Id,
    IsAdmin,
}

#[derive(DeriveIden)]
enum AdminAudit {
    Table,
    Id,
    ActorUserId,
    Action,
    Target,
    Detail,
    CreatedAt,
}

#[async_trait::async_trait]
impl MigrationTrait for Migration {
    async fn up(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        manager.alter_table(Table::alter().table(Users::Table).add_column(boolean(Users::IsAdmin).default(false)).to_owned()).await?;
        manager
            .create_table(
                Table::create()
                    .table(AdminAudit::Table)
                    .col(big_pk_auto(AdminAudit::Id))
                    .col(big_integer(AdminAudit::ActorUserId))
                    .col(string(AdminAudit::Action))
                    .col(string(AdminAudit::Target))
                    .col(text(AdminAudit::Detail))
                    .col(timestamp_with_time_zone(AdminAudit::CreatedAt))
                    .foreign_key(ForeignKey::create().from(AdminAudit::Table, AdminAudit::ActorUserId).to(Users::Table, Users::Id))
                    .to_owned(),
            )
            .await?;
        manager
            .create_index(Index::create().name("idx_admin_audit_created").table(AdminAudit::Table).col(AdminAudit::CreatedAt).to_owned())
            .await
    }

    async fn down(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        manager.drop_table(Table::drop().table(AdminAudit::Table).to_owned()).await?;
        manager.alter_table(Table::alter().table(Users::Table).drop_column(Users::IsAdmin).to_owned()).await
    }
}
