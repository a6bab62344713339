//! Table `listings`. `votes_count` mirrors the number of rows in `votes` for the listing and
//! is written in the same transaction as a vote.

use sea_orm::entity::prelude::*;

#[derive(Clone, Debug, PartialEq, Eq, DeriveEntityModel)]
#[sea_orm(table_name = "listings")]
pub struct Model {
    #[sea_orm(primary_key)]
    pub id: i64,
    #[sea_orm(unique)]
    pub slug: String,
    pub name: String,
    pub url: String,
    pub domain: String,
    pub tagline: Option<String>,
    pub short_description: Option<String>,
    pub description: Option<String>,
    /// The maker's own address of their logo, where a draft found it (only its source).
    pub logo_url: Option<String>,
    /// The logo we keep: a `kernel::ImageRef` (migration 30).
    pub logo: Option<String>,
    /// The gallery: `[{"image": ImageRef, "alt": ...}]` (migration 30).
    pub gallery: Option<Json>,
    pub status: String,
    pub plan: Option<String>,
    pub primary_category_id: Option<i64>,
    pub country: Option<String>,
    pub city: Option<String>,
    pub stage: Option<String>,
    pub pricing_model: Option<String>,
    pub founded_year: Option<i32>,
    pub launch_week: Option<TimeDate>,
    pub launched_at: Option<TimeDateTimeWithTimeZone>,
    pub votes_count: i64,
    /// Page views, added in batches by the view counter (never one write per view).
    pub views_count: i64,
    /// Followers, kept in step by `follows` (the one writer of `listing_follows`).
    pub follows_count: i64,
    pub owner_user_id: Option<i64>,
    pub created_at: TimeDateTimeWithTimeZone,
    pub updated_at: TimeDateTimeWithTimeZone,
    pub pricing_summary: Option<String>,
    /// `["...", ...]`
    pub features: Option<Json>,
    pub usps: Option<Json>,
    pub keywords: Option<Json>,
    /// `[{"question", "answer"}]`
    pub faqs: Option<Json>,
    /// `{"x": "https://...", ...}`
    pub socials: Option<Json>,
    /// `[{"label", "url"}]`
    pub links: Option<Json>,
    /// Field names the company's own site did not state.
    pub not_found_on_website: Option<Json>,
    pub demo_video_url: Option<String>,
    pub contact_email: Option<String>,
    /// Paid-only sections unlocked: `["story", "milestones", "media"]`.
    pub unlocked_sections: Option<Json>,
    /// `["...", ...]`
    pub tags: Option<Json>,
    pub seo_title: Option<String>,
    pub seo_description: Option<String>,
    pub headline: Option<String>,
    pub summary: Option<String>,
    /// When the badge check last read the homepage, and what it found (`found`, `not_found`,
    /// `unreachable`, `robots_disallowed`, ...), with a readable detail.
    pub badge_checked_at: Option<TimeDateTimeWithTimeZone>,
    pub badge_check_result: Option<String>,
    pub badge_check_detail: Option<String>,
    /// When the badge was first seen on the homepage.
    pub badge_seen_at: Option<TimeDateTimeWithTimeZone>,
    /// Checks that failed in a row (the backoff grows with it).
    pub badge_failures: i32,
    /// When the badge check looks again; none means at the next run.
    pub badge_next_check_at: Option<TimeDateTimeWithTimeZone>,
    /// When featured placement was bought (the Featured badge).
    pub featured_at: Option<TimeDateTimeWithTimeZone>,
    /// When a claim on the listing was first verified (the Verified badge).
    pub verified_at: Option<TimeDateTimeWithTimeZone>,
    /// The order line that paid for the listing's launch (a second one is not applied).
    pub paid_launch_line_id: Option<i64>,
}

#[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
pub enum Relation {}

impl ActiveModelBehavior for ActiveModel {}
