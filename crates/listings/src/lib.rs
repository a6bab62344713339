#![doc = include_str!("../README.md")]

pub mod awards;
pub mod badges;
pub mod calendar;
pub mod compare;
pub mod edit;
#[cfg(test)]
mod fakes;
pub mod feeds;
pub mod founders;
pub mod interview;
#[cfg(test)]
mod jobs_tests;
pub mod lifecycle;
pub mod model;
pub mod owner;
pub mod ownership;
pub mod ports;
pub mod profile;
pub mod purchases;
pub mod rankings;
pub mod reviews;
pub mod search;
pub mod service;
pub mod sitemap;
pub mod submission;
pub mod votes;

pub use awards::{AWARDED_PLACES, Award, AwardRepository, AwardsError, AwardsService, Winner};
pub use badges::{BadgeError, BadgeKind, BadgeService, BadgeStyle, EarnedBadge, Mode, Shape, Size, render_svg};
pub use calendar::{CalendarError, CalendarPolicy, CalendarService, LaunchRepository, LaunchWeek, WeekLaunch, WeekPhase, WeekRef};
pub use compare::{Alternative, AlternativeRepository, Cell, CompareError, CompareService, Comparison, MAX_ALTERNATIVES, Row};
pub use edit::{EditValue, EditableField, ListingCopy, ListingEdit, ListingVersion};
pub use feeds::{FeedItem, FeedMetric, FeedPolicy, FeedRepository, FeedService, FeedSources, Section, TRENDING_REFRESH, TrendingScores};
pub use founders::{CompanyRef, FounderError, FounderProfile, FounderRepository, FounderSummary, FoundersService, PublishedStory};
pub use interview::{AnsweringFounder, InterviewAnswer, InterviewError, InterviewRepository, InterviewService};
pub use lifecycle::{
    BadgeCheckRecord, BadgeOutcome, BadgeProbe, BadgeSighting, CheckBadge, EndWeek, LifecyclePolicy, LifecycleRepository, LifecycleService,
    QueuedListing, StartWeek, SweepBadges,
};
pub use model::{Category, CategoryNode, CategoryPage, CategoryRef, Faq, ListingStatus, ListingSummary, SiteCounts};
pub use owner::{
    BadgeCheckState, FreeQueueOutcome, FreeQueuePolicy, NotifyFollowers, OwnedListing, OwnedListingRepository, OwnerError, OwnerService,
};
pub use ownership::{ClaimableListing, Granted, OwnershipRepository, OwnershipService, has_verified_owner};
pub use ports::{CategoryRepository, ListingMarks, ListingRepository, LiveCounts};
pub use profile::{
    CommunityRating, DomainRating, FounderCard, GalleryImage, LATEST_UPDATES, Link, ListingCategory, ListingProfile, ListingUpdate,
    MOMENTUM_WEEKS, Milestone, ProfileError, ProfileRepository, ProfileService, Unlocked, ViewTally, VoteMomentum,
};
pub use purchases::{LaunchOutcome, PAID_SECTIONS, PurchaseFacts, PurchaseRepository, PurchaseService};
pub use rankings::{Board, BoardEntry, Leaderboard, LeaderboardError, LeaderboardService, Metric, RankingRepository};
pub use reviews::{
    FieldProblem, GenuineReviews, ListingReviews, Member, Review, ReviewError, ReviewFacts, ReviewPolicy, ReviewRecord, ReviewRepository,
    ReviewService, ReviewText, ReviewerFacts, Saved,
};
pub use search::{
    DbOrder, IndexOrder, IndexSearch, SEARCH_SYNC_PERIOD, SearchChanges, SearchDoc, SearchError, SearchIndex, SearchRequest, SearchService,
    SearchSource, SortBy, domain_key, pricing_key,
};
pub use service::{DIRECTORY_REFRESH, DirectoryError, DirectoryService, DirectoryShape};
pub use sitemap::{SITEMAP_FILE_LIMIT, SitemapFile, SitemapListing, SitemapRepository, SitemapService};
pub use submission::{CheckedSubmission, Submission, SubmissionError, SubmissionService, SubmittedFounder, SubmittedListingRepository};
pub use votes::{NewVote, VoteError, VotePolicy, VoteRecord, VoteRepository, VoteService, VoteSignal, VoteState, Voter};
