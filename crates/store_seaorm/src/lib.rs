#![doc = include_str!("../README.md")]

mod accounts_repo;
mod admin_repo;
mod alternatives_repo;
mod blog_repo;
mod calendar_repo;
mod catalog_repo;
mod claims_repo;
mod closure_repo;
mod db;
mod directory_repo;
mod drafts_repo;
mod email_tokens_repo;
mod entity;
mod feeds_repo;
mod follows;
mod founders_repo;
mod housekeeping_repo;
mod idempotency_repo;
mod interview_repo;
mod jobs_repo;
mod lifecycle_repo;
mod oauth_repo;
mod orders_repo;
mod outbox_repo;
mod owner_repo;
mod ownership_repo;
mod profile_repo;
mod purchases_repo;
mod rankings_repo;
mod reviews_repo;
mod search_repo;
pub mod seed;
mod seed_content;
mod sitemap_repo;
mod submission_repo;
#[cfg(feature = "testing")]
pub mod testing;
mod votes_repo;

pub use db::{Backend, DbConfig, connect, migrate, migrate_if_sqlite, optimize, ping, settle_after_bulk_load};
pub use outbox_repo::{OutboxEmail, OutboxMailer};
pub use sea_orm::DatabaseConnection;

use std::sync::Arc;

/// Every repository port, implemented over one connection pool.
#[derive(Clone, Debug)]
pub struct SeaStore {
    db: DatabaseConnection,
}

impl SeaStore {
    pub fn new(db: DatabaseConnection) -> Self {
        Self { db }
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

/// `EXISTS (a live listing with id = table.column)`: correlated, so each row probes one
/// listing by key (an `IN (live ids)` list would be built from the whole directory per query).
pub(crate) fn listing_is_live(
    table: impl sea_orm::sea_query::IntoIden,
    column: impl sea_orm::sea_query::IntoIden,
) -> sea_orm::sea_query::SimpleExpr {
    use crate::entity::listing;
    use sea_orm::sea_query::{Expr, ExprTrait, Query};
    Expr::exists(
        Query::select()
            .expr(Expr::val(1))
            .from(listing::Entity)
            .and_where(Expr::col((listing::Entity, listing::Column::Id)).equals((table.into_iden(), column.into_iden())))
            .and_where(Expr::col((listing::Entity, listing::Column::Status)).eq("live"))
            .to_owned(),
    )
}

/// `EXISTS (a category link of listings.id to one of `categories`)`: correlated, so walking
/// listings in a ranked order probes each one's links by key and stops at the page.
pub(crate) fn listing_in_categories(categories: &[kernel::CategoryId]) -> sea_orm::sea_query::SimpleExpr {
    use crate::entity::{listing, listing_category};
    use sea_orm::sea_query::{Expr, ExprTrait, Query};
    Expr::exists(
        Query::select()
            .expr(Expr::val(1))
            .from(listing_category::Entity)
            .and_where(
                Expr::col((listing_category::Entity, listing_category::Column::ListingId)).equals((listing::Entity, listing::Column::Id)),
            )
            .and_where(
                Expr::col((listing_category::Entity, listing_category::Column::CategoryId)).is_in(categories.iter().map(|id| id.get())),
            )
            .to_owned(),
    )
}

/// One page of `query` (already ordered), for reads whose total is known without counting
/// (the directory's counts): an index walk of the page, never a count of the directory.
pub(crate) async fn page_of<E: sea_orm::EntityTrait>(
    db: &DatabaseConnection,
    query: sea_orm::Select<E>,
    page: kernel::PageRequest,
) -> Result<Vec<E::Model>, kernel::RepoError>
where
    E::Model: Send + Sync,
{
    use sea_orm::QuerySelect;
    query.offset(page.offset()).limit(u64::from(page.per_page())).all(db).await.map_err(repo_err)
}

/// Runs one page of `query` (already ordered) and counts the whole query: for the small tables
/// (awards, blog, upcoming launches) and filtered reads without a maintained count.
pub(crate) async fn fetch_page<E: sea_orm::EntityTrait>(
    db: &DatabaseConnection,
    query: sea_orm::Select<E>,
    page: kernel::PageRequest,
) -> Result<(Vec<E::Model>, u64), kernel::RepoError>
where
    E::Model: Send + Sync,
{
    use sea_orm::{PaginatorTrait, QuerySelect};
    let total = query.clone().count(db).await.map_err(repo_err)?;
    let rows = query.offset(page.offset()).limit(u64::from(page.per_page())).all(db).await.map_err(repo_err)?;
    Ok((rows, total))
}

/// `LOWER(column) LIKE '%word%'`: the word lower-cased and its own wildcards escaped. The one
/// case-insensitive substring match of every search (blog, founders, the admin lists, claims).
pub(crate) fn lower_contains(column: impl sea_orm::sea_query::IntoColumnRef, word: &str) -> sea_orm::sea_query::SimpleExpr {
    use sea_orm::sea_query::{Expr, ExprTrait, Func, LikeExpr};
    let escaped: String =
        word.to_lowercase().chars().flat_map(|c| if matches!(c, '%' | '_' | '\\') { vec!['\\', c] } else { vec![c] }).collect();
    Expr::expr(Func::lower(Expr::col(column))).like(LikeExpr::new(format!("%{escaped}%")).escape('\\'))
}

/// The e-mail addresses of the users among `ids`, by id.
pub(crate) async fn emails_of(
    db: &impl sea_orm::ConnectionTrait,
    ids: impl IntoIterator<Item = i64>,
) -> Result<std::collections::HashMap<i64, String>, kernel::RepoError> {
    use sea_orm::{ColumnTrait, EntityTrait, QueryFilter};
    let users = entity::user::Entity::find().filter(entity::user::Column::Id.is_in(ids)).all(db).await.map_err(repo_err)?;
    Ok(users.into_iter().map(|user| (user.id, user.email)).collect())
}

/// Maps a driver error into the port's error; a unique-key violation becomes `Duplicate`.
/// An instant as stored: in UTC, because SQLite compares timestamps as text.
pub(crate) fn utc(at: time::OffsetDateTime) -> time::OffsetDateTime {
    at.to_offset(time::UtcOffset::UTC)
}

/// A listing's status as stored; anything else is a corrupt row.
pub(crate) fn listing_status(raw: &str) -> Result<listings::ListingStatus, kernel::RepoError> {
    listings::ListingStatus::parse(raw).ok_or_else(|| kernel::RepoError::Backend(format!("listings.status holds {raw:?}").into()))
}

pub(crate) fn repo_err(err: sea_orm::DbErr) -> kernel::RepoError {
    match err.sql_err() {
        Some(sea_orm::SqlErr::UniqueConstraintViolation(detail)) => kernel::RepoError::Duplicate(detail),
        _ => kernel::RepoError::backend(err),
    }
}
