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
    /// Images kept and served from our origin: logos, galleries, avatars.
    pub media: media::MediaService,
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

/// The services of one area of the application, as an operation of that area sees them.
pub trait Area: Send + Sync + 'static {
    fn of(app: &App) -> &Self;
}

/// What an operation runs in: the site's public facts (for the addresses it answers with) and
/// the services of its own area, not the whole `App`. It reads as the area's services
/// (`listings.badges`), and `site` beside them.
pub struct Context<'a, A: ?Sized> {
    pub site: &'a SiteConfig,
    area: &'a A,
}

impl<'a, A: Area> Context<'a, A> {
    pub fn of(app: &'a App) -> Self {
        Self { site: &app.site, area: A::of(app) }
    }
}

impl<A: ?Sized> Clone for Context<'_, A> {
    fn clone(&self) -> Self {
        *self
    }
}

impl<A: ?Sized> Copy for Context<'_, A> {}

impl<A: ?Sized> std::ops::Deref for Context<'_, A> {
    type Target = A;

    fn deref(&self) -> &A {
        self.area
    }
}

/// `Area` for each field of `App` an operation may work in.
macro_rules! areas {
    ($($area:ty => $field:ident),* $(,)?) => {
        $(impl Area for $area {
            fn of(app: &App) -> &Self {
                &app.$field
            }
        })*
    };
}

areas!(
    AccountServices => accounts,
    ListingServices => listings,
    ContentServices => content,
    CommerceServices => commerce,
    claims::ClaimsService => claims,
    drafts::DraftsService => drafts,
    media::MediaService => media,
);

/// The whole application, for the one operation that reports on every area (`get_site_info`).
impl Area for App {
    fn of(app: &App) -> &Self {
        app
    }
}
