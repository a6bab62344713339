//! The public profile of a listing as `get_listing` shows it, and as `get_my_listing` and
//! `update_my_listing` show the owner what the public sees.

use super::dates::rfc3339;
use super::sections::{MilestoneView, StoryView};
use crate::wire::{ImageView, SchemaOf};
use crate::{Context, ListingServices};
use kernel::{Faq, Slug, Week};
use listings::{Link, ListingStatus};
use schemars::JsonSchema;
use serde::Serialize;
use std::collections::BTreeMap;

/// A category of the listing.
#[derive(Debug, Serialize, JsonSchema)]
pub struct CategoryView {
    #[schemars(with = "SchemaOf<Slug>")]
    pub slug: Slug,
    pub name: String,
    /// The one primary category; paid listings may have up to three more.
    pub primary: bool,
}

#[derive(Debug, Serialize, JsonSchema)]
pub struct FounderCardView {
    #[schemars(with = "SchemaOf<Slug>")]
    pub slug: Slug,
    pub name: String,
    pub title: Option<String>,
    /// Their picture (`set_founder_avatar`), null when none was set.
    pub avatar: Option<ImageView>,
    pub url: String,
}

#[derive(Debug, Serialize, JsonSchema)]
pub struct UpdateView {
    pub title: String,
    pub body: String,
    /// RFC 3339.
    pub posted_at: String,
}

/// From genuine reviews only (see the API docs for what counts as genuine).
#[derive(Debug, Serialize, JsonSchema)]
pub struct RatingView {
    /// Mean rating, 1 to 5, two decimals; null without genuine reviews.
    pub average: Option<f64>,
    pub count: u64,
    /// Reviews giving 1, 2, 3, 4 and 5 stars.
    pub distribution: [u64; 5],
}

#[derive(Debug, Serialize, JsonSchema)]
pub struct DomainRatingView {
    pub value: i32,
    pub previous: Option<i32>,
    /// up, down, flat, or new (rated once).
    pub trend: &'static str,
    /// RFC 3339.
    pub checked_at: Option<String>,
}

/// A picture of the product's gallery.
#[derive(Debug, Serialize, JsonSchema)]
pub struct MediaView {
    /// `image` (the demo video is `demo_video_url`).
    pub kind: &'static str,
    /// The kept original, on our origin.
    pub url: String,
    /// What the picture shows: its alt text.
    pub caption: Option<String>,
    /// The picture with its size and scaled copies.
    pub image: ImageView,
}

impl MediaView {
    pub fn of(picture: &listings::GalleryImage, site_url: &str) -> Self {
        let image = ImageView::new(&picture.image, site_url);
        Self { kind: "image", url: image.url.clone(), caption: Some(picture.alt.clone()), image }
    }
}

/// Which paid-only sections this listing shows.
#[derive(Debug, Serialize, JsonSchema)]
pub struct UnlockedView {
    pub story: bool,
    pub milestones: bool,
    pub media: bool,
}

/// A listing's full public profile.
#[derive(Debug, Serialize, JsonSchema)]
pub struct ListingView {
    #[schemars(with = "SchemaOf<Slug>")]
    pub slug: Slug,
    pub name: String,
    /// The product's own website.
    pub url: String,
    #[schemars(with = "SchemaOf<ListingStatus>")]
    pub status: ListingStatus,
    pub tagline: Option<String>,
    pub short_description: Option<String>,
    /// The owner's headline.
    pub headline: Option<String>,
    pub description: Option<String>,
    /// The owner's long summary.
    pub summary: Option<String>,
    /// The logo we keep, on our origin (null when there is none).
    pub logo_url: Option<String>,
    /// The logo with its size and scaled copies.
    pub logo: Option<ImageView>,
    pub stage: Option<String>,
    pub country: Option<String>,
    pub city: Option<String>,
    pub founded_year: Option<i32>,
    pub pricing: PricingView,
    pub features: Vec<String>,
    pub usps: Vec<String>,
    pub keywords: Vec<String>,
    pub categories: Vec<CategoryView>,
    pub founders: Vec<FounderCardView>,
    #[schemars(with = "Vec<SchemaOf<Faq>>")]
    pub faqs: Vec<Faq>,
    /// Platform key to link.
    pub socials: BTreeMap<String, String>,
    #[schemars(with = "Vec<SchemaOf<Link>>")]
    pub links: Vec<Link>,
    pub demo_video_url: Option<String>,
    /// Newest first, at most five.
    pub latest_updates: Vec<UpdateView>,
    pub community_rating: RatingView,
    pub domain_rating: Option<DomainRatingView>,
    /// Facts the company's own website did not state, left blank on purpose.
    pub not_found_on_website: Vec<String>,
    /// Counted votes (see `docs/api.md`, Votes).
    pub votes: u64,
    /// Counted votes per launch week they were cast in, newest week first, at most 52 weeks;
    /// weeks without votes are left out. No voter is named.
    pub votes_by_week: Vec<WeekVotesView>,
    /// When the earliest counted vote standing now was cast (RFC 3339); null without votes.
    pub first_vote_at: Option<String>,
    /// When the latest counted vote standing now was cast (RFC 3339); null without votes.
    pub last_vote_at: Option<String>,
    pub views: u64,
    pub followers: u64,
    #[schemars(with = "Option<SchemaOf<Week>>")]
    pub launch_week: Option<Week>,
    /// RFC 3339.
    pub launched_at: Option<String>,
    pub unlocked: UnlockedView,
    /// Only when unlocked and published.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub story: Option<StoryView>,
    /// Only when unlocked.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub milestones: Option<Vec<MilestoneView>>,
    /// Only when unlocked.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub media: Option<Vec<MediaView>>,
    /// The listing's page on the site.
    pub page_url: String,
}

/// One launch week's counted votes.
#[derive(Debug, Serialize, JsonSchema)]
pub struct WeekVotesView {
    /// The week's Monday, `YYYY-MM-DD`.
    #[schemars(with = "SchemaOf<Week>")]
    pub week: Week,
    pub votes: u64,
}

#[derive(Debug, Serialize, JsonSchema)]
pub struct PricingView {
    /// free, freemium, subscription, one_time, usage_based, ...
    pub model: Option<String>,
    pub summary: Option<String>,
}

impl ListingView {
    /// The public profile as `get_listing` shows it (also part of `get_my_listing`).
    pub fn of(p: listings::ListingProfile, listings: Context<'_, ListingServices>) -> Self {
        let site = &listings.site.site_url;
        Self {
            page_url: format!("{site}/listings/{}", p.summary.slug),
            slug: p.summary.slug,
            name: p.summary.name,
            url: p.summary.url,
            status: p.summary.status,
            tagline: p.summary.tagline,
            logo_url: p.summary.logo.map(|logo| format!("{site}{}", logo.path(kernel::ImageSize::Original))),
            logo: p.summary.logo.map(|logo| ImageView::new(&logo, site)),
            votes: p.summary.votes,
            launch_week: p.summary.launch_week,
            short_description: p.short_description,
            headline: p.headline,
            description: p.description,
            summary: p.long_summary,
            stage: p.stage,
            country: p.country,
            city: p.city,
            founded_year: p.founded_year,
            pricing: PricingView { model: p.pricing_model, summary: p.pricing_summary },
            features: p.features,
            usps: p.usps,
            keywords: p.keywords,
            categories: p.categories.into_iter().map(|c| CategoryView { slug: c.slug, name: c.name, primary: c.primary }).collect(),
            founders: p
                .founders
                .into_iter()
                .map(|f| FounderCardView {
                    url: format!("{site}/founders/{}", f.slug),
                    avatar: f.avatar.map(|avatar| ImageView::new(&avatar, site)),
                    slug: f.slug,
                    name: f.name,
                    title: f.title,
                })
                .collect(),
            faqs: p.faqs,
            socials: p.socials,
            links: p.links,
            demo_video_url: p.demo_video_url,
            latest_updates: p
                .latest_updates
                .into_iter()
                .map(|u| UpdateView { title: u.title, body: u.body, posted_at: rfc3339(u.posted_at) })
                .collect(),
            community_rating: RatingView { average: p.rating.average, count: p.rating.count, distribution: p.rating.distribution },
            domain_rating: p.domain_rating.map(|dr| DomainRatingView {
                value: dr.value,
                previous: dr.previous,
                trend: match dr.previous {
                    None => "new",
                    Some(before) if dr.value > before => "up",
                    Some(before) if dr.value < before => "down",
                    Some(_) => "flat",
                },
                checked_at: dr.checked_at.map(rfc3339),
            }),
            not_found_on_website: p.not_found_on_website,
            votes_by_week: p.momentum.by_week.into_iter().map(|(week, votes)| WeekVotesView { week, votes }).collect(),
            first_vote_at: p.momentum.first_vote_at.map(rfc3339),
            last_vote_at: p.momentum.last_vote_at.map(rfc3339),
            views: p.views,
            followers: p.followers,
            launched_at: p.launched_at.map(rfc3339),
            unlocked: UnlockedView { story: p.unlocked.story, milestones: p.unlocked.milestones, media: p.unlocked.media },
            story: p.story.map(|(story, _)| StoryView { story }),
            milestones: p.unlocked.milestones.then(|| {
                p.milestones
                    .into_iter()
                    .map(|m| MilestoneView { date: m.date.to_string(), title: m.title, description: m.description, url: m.url })
                    .collect()
            }),
            media: p.unlocked.media.then(|| p.gallery.iter().map(|picture| MediaView::of(picture, site)).collect()),
        }
    }
}
