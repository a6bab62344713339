//! A listing's logo and gallery are images we keep (`kernel::ImageRef`, the media store), held
//! on its row beside the rest of what its owner edits: `logo` (the reference) and `gallery` (a
//! JSON list of `{image, alt}`), so an edit of either is one row write, kept in the version
//! history like every other edit. `listing_media` held addresses on other sites that no page
//! could show (the site loads nothing from other origins) and that only the demo data filled;
//! it goes. The profile document watches the new columns, and every document is built again.

use crate::triggers::{Trigger, run, run_script};
use sea_orm_migration::prelude::*;
use sea_orm_migration::schema::*;

#[derive(DeriveMigrationName)]
pub struct Migration;

#[derive(DeriveIden)]
enum Listings {
    Table,
    Logo,
    Gallery,
}

#[derive(DeriveIden)]
enum ListingMedia {
    Table,
    Id,
    ListingId,
    Kind,
    Url,
    Caption,
    Position,
}

/// Migration 25's statements that move a listing's document on.
const TOUCH: &[&str] = &[
    "INSERT INTO listing_documents (listing_id, revision) VALUES (NEW.id, 1) ON CONFLICT (listing_id) DO UPDATE SET revision = listing_documents.revision + 1",
    "INSERT INTO listing_documents_due (listing_id) VALUES (NEW.id) ON CONFLICT DO NOTHING",
];

/// Migration 25's column list, and this migration's.
const WATCHED_BEFORE: &str = "AFTER UPDATE OF slug, name, url, status, tagline, logo_url, primary_category_id, launch_week, launched_at, \
                              owner_user_id, short_description, headline, summary, description, stage, country, city, founded_year, \
                              pricing_model, pricing_summary, demo_video_url, features, usps, keywords, faqs, socials, links, \
                              not_found_on_website, unlocked_sections";
const WATCHED: &str = "AFTER UPDATE OF slug, name, url, status, tagline, logo_url, logo, gallery, primary_category_id, launch_week, \
                       launched_at, owner_user_id, short_description, headline, summary, description, stage, country, city, \
                       founded_year, pricing_model, pricing_summary, demo_video_url, features, usps, keywords, faqs, socials, links, \
                       not_found_on_website, unlocked_sections";

fn touch_document(when_fired: &'static str) -> Trigger {
    Trigger { name: "listings_touch_document", when_fired, table: "listings", only_if: None, body: run(TOUCH) }
}

/// Drops the row trigger and creates it watching `to`.
fn rewatch(manager: &SchemaManager, from: &'static str, to: &'static str) -> Vec<String> {
    crate::triggers::replace_statements(manager, touch_document(from), touch_document(to))
}

#[async_trait::async_trait]
impl MigrationTrait for Migration {
    async fn up(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        manager.alter_table(Table::alter().table(Listings::Table).add_column(string_len_null(Listings::Logo, 120)).to_owned()).await?;
        manager.alter_table(Table::alter().table(Listings::Table).add_column(json_null(Listings::Gallery)).to_owned()).await?;
        // Its triggers (migration 25's) first: on PostgreSQL their functions would outlive it.
        crate::triggers::drop_triggers(manager, &media_triggers()).await?;
        manager.get_connection().execute_unprepared("DROP TABLE listing_media").await?;
        run_script(manager, rewatch(manager, WATCHED_BEFORE, WATCHED)).await?;
        // Documents built before know no logo or gallery: every one is built again. (SQLite reads
        // `ON CONFLICT` after `INSERT ... SELECT` only behind a `WHERE`.)
        let db = manager.get_connection();
        db.execute_unprepared("UPDATE listing_documents SET revision = revision + 1").await?;
        db.execute_unprepared("INSERT INTO listing_documents_due (listing_id) SELECT id FROM listings WHERE true ON CONFLICT DO NOTHING")
            .await?;
        Ok(())
    }

    async fn down(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        run_script(manager, rewatch(manager, WATCHED, WATCHED_BEFORE)).await?;
        manager.alter_table(Table::alter().table(Listings::Table).drop_column(Listings::Gallery).to_owned()).await?;
        manager.alter_table(Table::alter().table(Listings::Table).drop_column(Listings::Logo).to_owned()).await?;
        // Migration 7's table, empty (what it held is gone), so the migrations before this one
        // can be undone in turn.
        manager
            .create_table(
                Table::create()
                    .table(ListingMedia::Table)
                    .col(big_pk_auto(ListingMedia::Id))
                    .col(big_integer(ListingMedia::ListingId))
                    .col(string_len(ListingMedia::Kind, 20))
                    .col(string_len(ListingMedia::Url, 500))
                    .col(string_len_null(ListingMedia::Caption, 300))
                    .col(integer(ListingMedia::Position).default(0))
                    .to_owned(),
            )
            .await?;
        // Migration 17's index and migration 25's triggers on it.
        manager
            .create_index(
                Index::create()
                    .name("idx_media_listing")
                    .table(ListingMedia::Table)
                    .col(ListingMedia::ListingId)
                    .col(ListingMedia::Position)
                    .col(ListingMedia::Id)
                    .to_owned(),
            )
            .await?;
        crate::triggers::fill_and_keep(manager, &[], &media_triggers()).await
    }
}

/// Migration 25's triggers on `listing_media`, which went with the table.
fn media_triggers() -> Vec<Trigger> {
    let touch = |row: &str| {
        run(&[
            &format!(
                "INSERT INTO listing_documents (listing_id, revision) VALUES ({row}.listing_id, 1) ON CONFLICT (listing_id) DO UPDATE SET revision = listing_documents.revision + 1"
            ),
            &format!("INSERT INTO listing_documents_due (listing_id) VALUES ({row}.listing_id) ON CONFLICT DO NOTHING"),
        ])
    };
    vec![
        Trigger {
            name: "listing_media_touch_document_ins",
            when_fired: "AFTER INSERT",
            table: "listing_media",
            only_if: None,
            body: touch("NEW"),
        },
        Trigger {
            name: "listing_media_touch_document_upd",
            when_fired: "AFTER UPDATE",
            table: "listing_media",
            only_if: None,
            body: touch("NEW"),
        },
        Trigger {
            name: "listing_media_touch_document_del",
            when_fired: "AFTER DELETE",
            table: "listing_media",
            only_if: None,
            body: touch("OLD"),
        },
    ]
}
