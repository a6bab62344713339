//! A founder's avatar is an image we keep (`kernel::ImageRef`, the media store), set by an owner
//! of one of the founder's listings: `founders.avatar`. `avatar_url` held an address on another
//! site that no page could show (the site loads nothing from other origins) and that nothing
//! ever filled; it goes. A listing's profile document shows its founders' avatars, so the
//! trigger that moves the documents of a founder's listings on watches the new column too.

use crate::triggers::{Trigger, run, run_script};
use sea_orm_migration::prelude::*;
use sea_orm_migration::schema::*;

#[derive(DeriveMigrationName)]
pub struct Migration;

#[derive(DeriveIden)]
enum Founders {
    Table,
    Avatar,
    AvatarUrl,
}

/// Migration 25's statements that move the documents of a founder's listings on.
const TOUCH: &[&str] = &[
    "INSERT INTO listing_documents (listing_id, revision) SELECT listing_id, 1 FROM listing_founders WHERE founder_id = NEW.id \
     ON CONFLICT (listing_id) DO UPDATE SET revision = listing_documents.revision + 1",
    "INSERT INTO listing_documents_due (listing_id) SELECT listing_id FROM listing_founders WHERE founder_id = NEW.id ON CONFLICT DO NOTHING",
];

fn touch_documents(when_fired: &'static str) -> Trigger {
    Trigger { name: "founders_touch_documents", when_fired, table: "founders", only_if: None, body: run(TOUCH) }
}

const WATCHED_BEFORE: &str = "AFTER UPDATE OF slug, name, title";
const WATCHED: &str = "AFTER UPDATE OF slug, name, title, avatar";

/// Drops the row trigger and creates it watching `to`.
fn rewatch(manager: &SchemaManager, from: &'static str, to: &'static str) -> Vec<String> {
    crate::triggers::replace_statements(manager, touch_documents(from), touch_documents(to))
}

#[async_trait::async_trait]
impl MigrationTrait for Migration {
    async fn up(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        manager.alter_table(Table::alter().table(Founders::Table).add_column(string_len_null(Founders::Avatar, 120)).to_owned()).await?;
        manager.alter_table(Table::alter().table(Founders::Table).drop_column(Founders::AvatarUrl).to_owned()).await?;
        run_script(manager, rewatch(manager, WATCHED_BEFORE, WATCHED)).await
    }

    async fn down(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        run_script(manager, rewatch(manager, WATCHED, WATCHED_BEFORE)).await?;
        manager.alter_table(Table::alter().table(Founders::Table).drop_column(Founders::Avatar).to_owned()).await?;
        manager.alter_table(Table::alter().table(Founders::Table).add_column(string_len_null(Founders::AvatarUrl, 500)).to_owned()).await
    }
}
