//! The services an operation can use, built once by the server from configuration and grouped
//! by the domain that owns them, so a reader sees at a glance which area an operation touches.

use content::{BlogService, InterviewQuestionRepository};
use kernel::Clock;
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

/// Everything an operation runs against: one field per domain.
#[derive(Clone)]
pub struct App {
    pub site: SiteConfig,
    pub accounts: AccountServices,
    pub listings: ListingServices,
    pub content: ContentServices,
    pub commerce: CommerceServices,
    /// Ownership claims and their proofs.
    pub claims: claims::ClaimsService,
    /// Submission by URL: drafts, their crawls and invitations.
    pub drafts: drafts::DraftsService,
    pub clock: Arc<dyn Clock>,
    /// The daily purge of rows whose use has ended.
    pub housekeeper: crate::housekeeping::Housekeeper,
}

/// People: accounts, keys, sign-in, the site team and the OAuth authorization server.
#[derive(Clone)]
pub struct AccountServices {
    /// Users and API keys, and who a bearer token is.
    pub users: accounts::AccountsService,
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
}

/// The directory: listings, their launches, boards, awards, owners and what people do on them.
#[derive(Clone)]
pub struct ListingServices {
    pub directory: listings::DirectoryService,
    pub founders: listings::FoundersService,
    pub calendar: listings::CalendarService,
    /// What the sitemaps list.
    pub sitemap: listings::SitemapService,
    pub feeds: listings::FeedService,
    pub leaderboards: listings::LeaderboardService,
    pub awards: listings::AwardsService,
    pub badges: listings::BadgeService,
    pub profiles: listings::ProfileService,
    pub compare: listings::CompareService,
    pub search: listings::SearchService,
    /// Owners and their listings.
    pub owners: listings::OwnerService,
    pub interviews: listings::InterviewService,
    /// The badge check, the week start and the week end.
    pub lifecycle: listings::LifecycleService,
    /// Votes, cast on the site's pages only (no operation casts one).
    pub votes: listings::VoteService,
    /// Reviews and follows, written on the site's pages only.
    pub reviews: listings::ReviewService,
}

/// The site team's own writing: the blog and the interview questions.
#[derive(Clone)]
pub struct ContentServices {
    pub blog: BlogService,
    pub interview_questions: Arc<dyn InterviewQuestionRepository>,
}

/// What is for sale and what was bought.
#[derive(Clone)]
pub struct CommerceServices {
    pub catalog: orders::CatalogService,
    /// Quotes, orders, payments and fulfilment.
    pub orders: orders::OrdersService,
}
