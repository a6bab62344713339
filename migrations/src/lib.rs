//! The schema of the Launchdir database, as an ordered list of migrations that run the same
//! on SQLite and PostgreSQL. Each migration has `up` and `down`.

pub use sea_orm_migration::prelude::*;

mod m20261121_000001_create_accounts;
mod m20261121_000002_create_directory;
mod m20261121_000003_create_catalog;
mod m20261121_000004_create_stories_and_blog;
mod m20261121_000005_create_rankings;
mod m20261121_000006_add_views_and_follows;
mod m20261121_000007_create_listing_profile;
mod m20261121_000008_create_alternatives;
mod m20261121_000009_create_drafts_and_jobs;
mod m20261121_000010_create_oauth;
mod m20261121_000011_create_owner_lifecycle;
mod m20261124_000012_create_orders;
mod m20261125_000013_confirmed_emails_and_counted_votes;
mod m20261126_000014_vote_weeks_reviews_and_invites;
mod m20261127_000015_admins_and_audit;
mod m20261128_000016_claims_and_owners;
mod m20261129_000017_change_feed_and_read_indexes;
mod m20261130_000018_maintained_directory_counts;
mod m20261201_000019_narrow_category_counts;
mod m20261202_000020_feed_fires_on_filters_and_sorts;
mod m20261203_000021_drop_facet_counts;
mod m20261204_000022_kept_board_totals;
mod m20261205_000023_create_claim_emails;
mod m20261206_000024_add_review_networks;
mod m20261207_000025_listing_documents;
mod m20261208_000026_kept_list_orders;
mod m20261209_000027_kept_board_orders;
mod m20261210_000028_views_feed_in_steps;
mod m20261211_000029_views_feed_in_tens;
mod m20261212_000030_listing_images;
mod m20261213_000031_founder_avatars;
mod m20261214_000032_invoices;
mod triggers;

pub struct Migrator;

#[async_trait::async_trait]
impl MigratorTrait for Migrator {
    fn migrations() -> Vec<Box<dyn MigrationTrait>> {
        vec![
            Box::new(m20261121_000001_create_accounts::Migration),
            Box::new(m20261121_000002_create_directory::Migration),
            Box::new(m20261121_000003_create_catalog::Migration),
            Box::new(m20261121_000004_create_stories_and_blog::Migration),
            Box::new(m20261121_000005_create_rankings::Migration),
            Box::new(m20261121_000006_add_views_and_follows::Migration),
            Box::new(m20261121_000007_create_listing_profile::Migration),
            Box::new(m20261121_000008_create_alternatives::Migration),
            Box::new(m20261121_000009_create_drafts_and_jobs::Migration),
            Box::new(m20261121_000010_create_oauth::Migration),
            Box::new(m20261121_000011_create_owner_lifecycle::Migration),
            Box::new(m20261124_000012_create_orders::Migration),
            Box::new(m20261125_000013_confirmed_emails_and_counted_votes::Migration),
            Box::new(m20261126_000014_vote_weeks_reviews_and_invites::Migration),
            Box::new(m20261127_000015_admins_and_audit::Migration),
            Box::new(m20261128_000016_claims_and_owners::Migration),
            Box::new(m20261129_000017_change_feed_and_read_indexes::Migration),
            Box::new(m20261130_000018_maintained_directory_counts::Migration),
            Box::new(m20261201_000019_narrow_category_counts::Migration),
            Box::new(m20261202_000020_feed_fires_on_filters_and_sorts::Migration),
            Box::new(m20261203_000021_drop_facet_counts::Migration),
            Box::new(m20261204_000022_kept_board_totals::Migration),
            Box::new(m20261205_000023_create_claim_emails::Migration),
            Box::new(m20261206_000024_add_review_networks::Migration),
            Box::new(m20261207_000025_listing_documents::Migration),
            Box::new(m20261208_000026_kept_list_orders::Migration),
            Box::new(m20261209_000027_kept_board_orders::Migration),
            Box::new(m20261210_000028_views_feed_in_steps::Migration),
            Box::new(m20261211_000029_views_feed_in_tens::Migration),
            Box::new(m20261212_000030_listing_images::Migration),
            Box::new(m20261213_000031_founder_avatars::Migration),
            Box::new(m20261214_000032_invoices::Migration),
        ]
    }
}
