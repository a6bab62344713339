//! A listing's public profile is kept ready: `listing_documents` holds, per listing, everything
//! its profile shows but the counters (the row's profile columns, and from other tables its
//! categories, founders, latest updates, the reviews and their authors' facts, owners by claim,
//! Domain Rating, votes per week, story, milestones, media) as one JSON document (`body`), built
//! at `built_revision`. Triggers on those columns and tables move the listing's `revision` on in
//! the writing transaction (so no writer can forget it) and put the listing in
//! `listing_documents_due`, which a background task drains by building documents. A reader uses
//! a document only when it was built at the current revision, read in the one statement that
//! also reads the listing's counters; otherwise it reads the parts as before.
//! The revision lives here and not on `listings`, so a write to a part never touches the listing's
//! row (on PostgreSQL, the parts deleted with a listing could not). Every listing starts due.
//! On PostgreSQL the triggers take the counting lock first, as the kept counts' triggers do, so
//! a writer never holds a document's row while waiting for that lock.

use crate::triggers::{Trigger, run};
use sea_orm_migration::{prelude::*, schema::*};

#[derive(DeriveMigrationName)]
pub struct Migration;

#[derive(DeriveIden)]
enum ListingDocuments {
    Table,
    ListingId,
    Revision,
    BuiltRevision,
    Body,
}

#[derive(DeriveIden)]
enum ListingDocumentsDue {
    Table,
    ListingId,
}

/// Moves the revision of the listing `$listing` (an SQL expression) on and marks it due.
macro_rules! touch_listing {
    ($listing:literal) => {
        &[
            concat!(
                "INSERT INTO listing_documents (listing_id, revision) VALUES (",
                $listing,
                ", 1) ON CONFLICT (listing_id) DO UPDATE SET revision = listing_documents.revision + 1"
            ),
            concat!("INSERT INTO listing_documents_due (listing_id) VALUES (", $listing, ") ON CONFLICT DO NOTHING"),
        ]
    };
}

/// The same for every `listing_id` of the rows `$rows` names (`FROM ... WHERE ...`, each
/// listing once).
macro_rules! touch_listings {
    ($rows:literal) => {
        &[
            concat!(
                "INSERT INTO listing_documents (listing_id, revision) SELECT listing_id, 1 ",
                $rows,
                " ON CONFLICT (listing_id) DO UPDATE SET revision = listing_documents.revision + 1"
            ),
            concat!("INSERT INTO listing_documents_due (listing_id) SELECT listing_id ", $rows, " ON CONFLICT DO NOTHING"),
        ]
    };
}

/// For each table a profile reads by `listing_id`: each insert, update and delete touches its
/// listing.
macro_rules! parts {
    ($($table:literal),*) => {
        vec![$(
            Trigger {
                name: concat!($table, "_touch_document_ins"),
                when_fired: "AFTER INSERT",
                table: $table,
                only_if: None,
                body: run(touch_listing!("NEW.listing_id")),
            },
            Trigger {
                name: concat!($table, "_touch_document_upd"),
                when_fired: "AFTER UPDATE",
                table: $table,
                only_if: None,
                body: run(touch_listing!("NEW.listing_id")),
            },
            Trigger {
                name: concat!($table, "_touch_document_del"),
                when_fired: "AFTER DELETE",
                table: $table,
                only_if: None,
                body: run(touch_listing!("OLD.listing_id")),
            },
        )*]
    };
}

fn triggers() -> Vec<Trigger> {
    let mut triggers = parts!(
        "listing_categories",
        "listing_founders",
        "listing_updates",
        "reviews",
        "listing_owners",
        "listing_metrics",
        "votes",
        "listing_stories",
        "listing_milestones",
        "listing_media"
    );
    triggers.extend([
        // The row's profile columns are kept in the document too (its counters are not: votes,
        // views and follows are read beside it).
        Trigger {
            name: "listings_touch_document",
            when_fired: "AFTER UPDATE OF slug, name, url, status, tagline, logo_url, primary_category_id, launch_week, launched_at, \
                         owner_user_id, short_description, headline, summary, description, stage, country, city, founded_year, \
                         pricing_model, pricing_summary, demo_video_url, features, usps, keywords, faqs, socials, links, \
                         not_found_on_website, unlocked_sections",
            table: "listings",
            only_if: None,
            body: run(touch_listing!("NEW.id")),
        },
        // A new listing has no document yet.
        Trigger {
            name: "listings_document_due",
            when_fired: "AFTER INSERT",
            table: "listings",
            only_if: None,
            body: run(&["INSERT INTO listing_documents_due (listing_id) VALUES (NEW.id) ON CONFLICT DO NOTHING"]),
        },
        // Whether a review counts depends on its author's account.
        Trigger {
            name: "users_touch_documents",
            when_fired: "AFTER UPDATE OF blocked, email_confirmed_at, created_at",
            table: "users",
            only_if: None,
            body: run(touch_listings!("FROM reviews WHERE user_id = NEW.id")),
        },
        // Profiles show their founders' names, titles and addresses ...
        Trigger {
            name: "founders_touch_documents",
            when_fired: "AFTER UPDATE OF slug, name, title",
            table: "founders",
            only_if: None,
            body: run(touch_listings!("FROM listing_founders WHERE founder_id = NEW.id")),
        },
        // ... and their categories' names and addresses.
        Trigger {
            name: "categories_touch_documents",
            when_fired: "AFTER UPDATE OF slug, name",
            table: "categories",
            only_if: None,
            body: run(touch_listings!("FROM listing_categories WHERE category_id = NEW.id")),
        },
    ]);
    triggers
}

#[async_trait::async_trait]
impl MigrationTrait for Migration {
    async fn up(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        // No foreign key to `listings`: the parts deleted with a listing touch its document
        // after the listing is gone; the task that builds documents removes what is left.
        manager
            .create_table(
                Table::create()
                    .table(ListingDocuments::Table)
                    .col(big_integer(ListingDocuments::ListingId).primary_key())
                    .col(big_integer(ListingDocuments::Revision).default(0))
                    .col(big_integer_null(ListingDocuments::BuiltRevision))
                    .col(text_null(ListingDocuments::Body))
                    .to_owned(),
            )
            .await?;
        manager
            .create_table(
                Table::create().table(ListingDocumentsDue::Table).col(big_integer(ListingDocumentsDue::ListingId).primary_key()).to_owned(),
            )
            .await?;
        crate::triggers::fill_and_keep(manager, &["INSERT INTO listing_documents_due (listing_id) SELECT id FROM listings"], &triggers())
            .await
    }

    async fn down(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        crate::triggers::drop_triggers(manager, &triggers()).await?;
        manager.drop_table(Table::drop().table(ListingDocumentsDue::Table).to_owned()).await?;
        manager.drop_table(Table::drop().table(ListingDocuments::Table).to_owned()).await
    }
}
