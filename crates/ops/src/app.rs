//! The services an operation can use, built once by the server from configuration.

use accounts::AccountsService;
use content::{BlogService, InterviewQuestionRepository};
use kernel::{Clock, IdempotencyStore};
use listings::SearchService;
use listings::{
    AwardsService, BadgeService, CalendarService, CompareService, DirectoryService, FeedService, FoundersService, LeaderboardService,
    ProfileService,
};
use orders::CatalogService;
use std::sync::Arc;

/// Public facts about this deployment that operations report.
#[derive(Debug, Clone)]
pub struct SiteConfig {
    pub name: String,
    /// The site people visit, without a trailing slash (`https://launchdir.example`).
    pub site_url: String,
    /// The REST API base, without a trailing slash (`https://launchdir.example/api/v1`).
    pub base_url: String,
    /// The launch time zone as shown to callers (`UTC`, `+01:00`).
    pub launch_timezone: String,
}

/// Everything an operation runs against.
#[derive(Clone)]
pub struct App {
    pub site: SiteConfig,
    pub accounts: AccountsService,
    pub directory: DirectoryService,
    pub founders: FoundersService,
    pub calendar: CalendarService,
    /// What the sitemaps list.
    pub sitemap: listings::SitemapService,
    pub feeds: FeedService,
    pub leaderboards: LeaderboardService,
    pub awards: AwardsService,
    pub badges: BadgeService,
    pub profiles: ProfileService,
    pub compare: CompareService,
    pub search: SearchService,
    pub catalog: CatalogService,
    /// Ownership claims and their proofs.
    pub claims: claims::ClaimsService,
    /// Quotes, orders, payments and fulfilment.
    pub orders: orders::OrdersService,
    pub interview_questions: Arc<dyn InterviewQuestionRepository>,
    pub blog: BlogService,
    pub drafts: drafts::DraftsService,
    /// Owners and their listings.
    pub owners: listings::OwnerService,
    pub interviews: listings::InterviewService,
    /// The badge check, the week start and the week end.
    pub lifecycle: listings::LifecycleService,
    /// The rate limits every operation, page and OAuth endpoint counts against.
    pub limits: crate::RateLimits,
    /// The public reads' answers and visitors' pages, kept a moment (`answer_cache_ms`).
    pub answers: Arc<crate::AnswerCache>,
    /// What `Idempotency-Key` remembers.
    pub idempotency: Arc<dyn IdempotencyStore>,
    pub clock: Arc<dyn Clock>,
    /// The OAuth 2.1 authorization server.
    pub oauth: accounts::OAuthService,
    /// Signing in on the site.
    pub signin: accounts::SignInService,
    /// The site team's accounts and the audit log of their actions.
    pub admin: accounts::AdminService,
    /// Changing one's password while signed in, and closing one's account.
    pub own_account: accounts::OwnAccount,
    /// Setting a new password through an e-mailed link.
    pub reset: accounts::PasswordReset,
    /// The e-mailed links that confirm an account's address.
    pub confirmation: accounts::EmailConfirmation,
    /// Votes, cast on the site's pages only (no operation casts one).
    pub votes: listings::VoteService,
    /// Reviews and follows, written on the site's pages only.
    pub reviews: listings::ReviewService,
    /// The daily purge of rows whose use has ended.
    pub housekeeper: crate::housekeeping::Housekeeper,
}
