#![doc = include_str!("../README.md")]

mod db;
mod entity;
mod repos;
pub mod seed;
mod shared;
#[cfg(feature = "testing")]
pub mod testing;

pub use db::{Backend, DbConfig, connect, migrate, migrate_if_sqlite, optimize, ping, settle_after_bulk_load};
pub use repos::jobs::outbox_repo::{OutboxEmail, OutboxMailer};
pub use sea_orm::DatabaseConnection;
pub(crate) use shared::{emails_of, fetch_page, listing_is_live, listing_status, lower_contains, page_of, repo_err, utc};

use std::sync::Arc;

/// Every repository port, implemented over one connection pool.
#[derive(Clone, Debug)]
pub struct SeaStore {
    db: DatabaseConnection,
    /// Where the pages of ranked lists start, remembered for a moment (`shared::positions`).
    positions: Arc<shared::positions::PagePositions>,
}

impl SeaStore {
    pub fn new(db: DatabaseConnection) -> Self {
        Self { db, positions: Arc::default() }
    }

    /// The count of this server's writes that forgets the store's page positions: hand it to
    /// the answer cache, which moves it on at every write the server takes.
    pub fn writes(&self) -> kernel::WriteGeneration {
        self.positions.writes()
    }

    pub fn connection(&self) -> &DatabaseConnection {
        &self.db
    }

    pub fn users(&self) -> Arc<dyn accounts::UserRepository> {
        Arc::new(self.clone())
    }

    pub fn api_keys(&self) -> Arc<dyn accounts::ApiKeyRepository> {
        Arc::new(self.clone())
    }

    pub fn categories(&self) -> Arc<dyn listings::CategoryRepository> {
        Arc::new(self.clone())
    }

    pub fn listings(&self) -> Arc<dyn listings::ListingRepository> {
        Arc::new(self.clone())
    }

    pub fn launches(&self) -> Arc<dyn listings::LaunchRepository> {
        Arc::new(self.clone())
    }

    pub fn rankings(&self) -> Arc<dyn listings::RankingRepository> {
        Arc::new(self.clone())
    }

    pub fn awards(&self) -> Arc<dyn listings::AwardRepository> {
        Arc::new(self.clone())
    }

    pub fn feeds(&self) -> Arc<dyn listings::FeedRepository> {
        Arc::new(self.clone())
    }

    pub fn profiles(&self) -> Arc<dyn listings::ProfileRepository> {
        Arc::new(self.clone())
    }

    pub fn alternatives(&self) -> Arc<dyn listings::AlternativeRepository> {
        Arc::new(self.clone())
    }

    pub fn search_source(&self) -> Arc<dyn listings::SearchSource> {
        Arc::new(self.clone())
    }

    pub fn founders(&self) -> Arc<dyn listings::FounderRepository> {
        Arc::new(self.clone())
    }

    pub fn votes(&self) -> Arc<dyn listings::VoteRepository> {
        Arc::new(self.clone())
    }

    pub fn email_tokens(&self) -> Arc<dyn accounts::EmailTokenRepository> {
        Arc::new(self.clone())
    }

    pub fn admin(&self) -> Arc<dyn accounts::AdminRepository> {
        Arc::new(self.clone())
    }

    pub fn account_closer(&self) -> Arc<dyn accounts::AccountCloser> {
        Arc::new(self.clone())
    }

    pub fn access_revoker(&self) -> Arc<dyn accounts::AccessRevoker> {
        Arc::new(self.clone())
    }

    pub fn reviews(&self) -> Arc<dyn listings::ReviewRepository> {
        Arc::new(self.clone())
    }

    pub fn sitemap(&self) -> Arc<dyn listings::SitemapRepository> {
        Arc::new(self.clone())
    }

    pub fn products(&self) -> Arc<dyn orders::ProductRepository> {
        Arc::new(self.clone())
    }

    pub fn vat_rates(&self) -> Arc<dyn orders::VatRateRepository> {
        Arc::new(self.clone())
    }

    pub fn orders(&self) -> Arc<dyn orders::OrderRepository> {
        Arc::new(self.clone())
    }

    pub fn purchases(&self) -> Arc<dyn listings::PurchaseRepository> {
        Arc::new(self.clone())
    }

    pub fn blog_posts(&self) -> Arc<dyn content::BlogRepository> {
        Arc::new(self.clone())
    }

    pub fn interview_questions(&self) -> Arc<dyn content::InterviewQuestionRepository> {
        Arc::new(self.clone())
    }

    pub fn drafts(&self) -> Arc<dyn drafts::DraftRepository> {
        Arc::new(self.clone())
    }

    pub fn draft_categories(&self) -> Arc<dyn drafts::DraftCategories> {
        Arc::new(self.clone())
    }

    pub fn submitted_listings(&self) -> Arc<dyn listings::SubmittedListingRepository> {
        Arc::new(self.clone())
    }

    pub fn lifecycle(&self) -> Arc<dyn listings::LifecycleRepository> {
        Arc::new(self.clone())
    }

    pub fn interviews(&self) -> Arc<dyn listings::InterviewRepository> {
        Arc::new(self.clone())
    }

    pub fn owned_listings(&self) -> Arc<dyn listings::OwnedListingRepository> {
        Arc::new(self.clone())
    }

    pub fn oauth(&self) -> Arc<dyn accounts::oauth::OAuthRepository> {
        Arc::new(self.clone())
    }

    pub fn passwords(&self) -> Arc<dyn accounts::signin::PasswordRepository> {
        Arc::new(self.clone())
    }

    pub fn sessions(&self) -> Arc<dyn accounts::signin::SessionRepository> {
        Arc::new(self.clone())
    }

    pub fn jobs(&self) -> Arc<dyn kernel::JobQueue> {
        Arc::new(self.clone())
    }

    pub fn idempotency(&self) -> Arc<dyn kernel::IdempotencyStore> {
        Arc::new(self.clone())
    }

    pub fn housekeeping(&self) -> Arc<dyn kernel::Housekeeping> {
        Arc::new(self.clone())
    }

    pub fn claims(&self) -> Arc<dyn claims::ClaimRepository> {
        Arc::new(self.clone())
    }

    pub fn ownership(&self) -> Arc<dyn listings::OwnershipRepository> {
        Arc::new(self.clone())
    }
}
