//! The demo directory: a realistic, clearly fictional data set so every public read has data.
//!
//! Deterministic (a fixed pseudo-random sequence) and idempotent: each row is written only when
//! its natural key (slug, code, e-mail, question text) is missing, so running it again changes
//! nothing, and prices an administrator changed are kept. Every website is under the reserved
//! `.example` domain and every e-mail under `.invalid`.

use crate::entity::{
    category, founder, interview_question, listing, listing_category, listing_follow, listing_founder, product, user, vote,
};
use crate::shared::votes::utc_week;
use sea_orm::{ActiveModelTrait, ColumnTrait, DatabaseConnection, DbErr, EntityTrait, QueryFilter, QuerySelect, Set, TransactionTrait};
use serde_json::json;
use std::collections::{HashMap, HashSet};
use time::{Duration, OffsetDateTime};

mod bulk;
mod categories;
mod content;
mod pictures;

pub use bulk::bulk_listings;
use categories::{CATEGORIES, NEW_CATEGORIES, category_faqs};
pub use pictures::{WithoutPictures, founders_without_avatar, set_bulk_logos, set_founder_avatar, set_pictures, without_pictures};

/// What a seed run wrote.
#[derive(Debug, Default, Clone, Copy, PartialEq, Eq)]
pub struct SeedReport {
    pub categories: usize,
    pub products: usize,
    pub questions: usize,
    pub users: usize,
    pub listings: usize,
    pub founders: usize,
    pub votes: usize,
    pub follows: usize,
    pub blog_posts: usize,
    pub stories: usize,
    pub metrics: usize,
    pub profiles: usize,
    pub alternatives: usize,
    pub contributions: usize,
}

impl SeedReport {
    pub fn is_empty(&self) -> bool {
        *self == Self::default()
    }
}

/// Whether the demo directory was seeded already (any listing exists).
pub async fn has_listings(db: &DatabaseConnection) -> Result<bool, DbErr> {
    Ok(listing::Entity::find().select_only().column(listing::Column::Id).limit(1).into_tuple::<i64>().one(db).await?.is_some())
}

/// Writes the demo directory as of `now`. Launch weeks are spread around `now`'s week: past
/// weeks are live, later weeks scheduled or waiting for their badge.
pub async fn demo(db: &DatabaseConnection, now: OffsetDateTime) -> Result<SeedReport, DbErr> {
    let txn = db.begin().await?;
    let mut report = SeedReport::default();
    let category_ids = seed_categories(&txn, &mut report).await?;
    seed_products(&txn, &mut report).await?;
    seed_questions(&txn, &mut report).await?;
    let voters = seed_voters(&txn, now, &mut report).await?;
    seed_listings(&txn, now, &category_ids, &voters, &mut report).await?;
    report.blog_posts = content::seed_blog(&txn, now).await?;
    report.stories = content::seed_stories(&txn, now).await?;
    (report.metrics, report.contributions) = content::seed_rankings(&txn, now).await?;
    report.profiles = content::seed_profiles(&txn, now).await?;
    report.alternatives = content::seed_alternatives(&txn).await?;
    txn.commit().await?;
    Ok(report)
}

/// The demo data's numbers: the same from the same start, so it is reproducible.
type Rng = kernel::SplitMix64;

async fn seed_categories(db: &impl sea_orm::ConnectionTrait, report: &mut SeedReport) -> Result<Vec<(i64, i64, &'static str)>, DbErr> {
    let existing: HashMap<String, i64> = category::Entity::find()
        .select_only()
        .column(category::Column::Slug)
        .column(category::Column::Id)
        .into_tuple::<(String, i64)>()
        .all(db)
        .await?
        .into_iter()
        .collect();
    let mut ensure = async |slug: &str, name: &str, description: &str, parent: Option<i64>, position: i32| -> Result<i64, DbErr> {
        if let Some(id) = existing.get(slug) {
            return Ok(*id);
        }
        report.categories += 1;
        let row = category::ActiveModel {
            slug: Set(slug.to_owned()),
            name: Set(name.to_owned()),
            description: Set(description.to_owned()),
            parent_id: Set(parent),
            position: Set(position),
            faqs: Set(category_faqs(name)),
            ..Default::default()
        }
        .insert(db)
        .await?;
        Ok(row.id)
    };
    // (category id, its top-level id, its name) for every category a listing may be placed in.
    let mut placeable = Vec::new();
    for (top_position, top) in CATEGORIES.iter().enumerate() {
        let top_id = ensure(top.slug, top.name, top.description, None, top_position as i32).await?;
        if top.children.is_empty() && !NEW_CATEGORIES.contains(&top.slug) {
            placeable.push((top_id, top_id, top.name));
        }
        for (position, (slug, name, description)) in top.children.iter().enumerate() {
            let id = ensure(slug, name, description, Some(top_id), position as i32).await?;
            if !NEW_CATEGORIES.contains(slug) {
                placeable.push((id, top_id, *name));
            }
        }
    }
    Ok(placeable)
}

/// Demo prices: an administrator changes them later; the seed never overwrites a price.
pub(crate) async fn seed_products(db: &impl sea_orm::ConnectionTrait, report: &mut SeedReport) -> Result<(), DbErr> {
    // (code, name, description, price in cents, week rule, options)
    type DemoProduct = (&'static str, &'static str, &'static str, i64, &'static str, Option<serde_json::Value>);
    let products: [DemoProduct; 9] = [
        (
            "launch",
            "Paid launch",
            "Launch in a week of your choice, without waiting in the free queue or showing a badge.",
            4900,
            "optional",
            None,
        ),
        (
            "skip_queue",
            "Skip the queue",
            "Move a free listing to an earlier week than the free queue offers.",
            1900,
            "required_before_free_queue",
            None,
        ),
        (
            "featured",
            "Featured placement",
            "Show your listing in the featured row for one week.",
            9900,
            "none",
            Some(json!({"placement": {"type": "string", "enum": ["homepage", "category"], "default": "homepage"}})),
        ),
        ("done_for_you", "Done-for-you launch", "We list your product on other launch sites for you.", 14900, "none", None),
        ("launch_bundle", "Launch bundle", "Paid launch, featured placement and an AI review together.", 12900, "optional", None),
        ("extra_categories", "Extra categories", "Place your listing in up to 3 more categories.", 1500, "none", None),
        ("relaunch", "Relaunch", "Launch a major new version again in a week of your choice.", 2900, "required", None),
        ("ai_review", "AI review", "A written review of your positioning, pricing page and onboarding.", 2500, "none", None),
        ("billboard_min", "Billboard", "A paid ranking by money contributed; the price is the minimum amount.", 500, "none", None),
    ];
    let existing: HashSet<String> =
        product::Entity::find().select_only().column(product::Column::Code).into_tuple::<String>().all(db).await?.into_iter().collect();
    for (position, (code, name, description, price, week_rule, options)) in products.into_iter().enumerate() {
        if existing.contains(code) {
            continue;
        }
        report.products += 1;
        product::ActiveModel {
            code: Set(code.to_owned()),
            name: Set(name.to_owned()),
            description: Set(description.to_owned()),
            price_cents: Set(price),
            needs_listing: Set(true),
            week_rule: Set(week_rule.to_owned()),
            options: Set(options),
            position: Set(position as i32),
            active: Set(true),
        }
        .insert(db)
        .await?;
    }
    Ok(())
}

async fn seed_questions(db: &impl sea_orm::ConnectionTrait, report: &mut SeedReport) -> Result<(), DbErr> {
    let questions: [(&str, Option<&str>); 10] = [
        ("What problem does your product solve, and for whom?", Some("Describe the person and the moment they need you.")),
        ("How did you come up with the idea?", None),
        ("What was the hardest part of building the first version?", None),
        ("How did you find your first ten customers?", Some("Channels, messages and what did not work.")),
        ("What would you do differently if you started again?", None),
        ("Which tools does your team rely on every day?", None),
        ("How do you decide what to build next?", None),
        ("What is your business model, and how did you set your prices?", None),
        ("What advice would you give to someone launching this week?", None),
        ("Where do you want the product to be in two years?", None),
    ];
    let existing: HashSet<String> = interview_question::Entity::find()
        .select_only()
        .column(interview_question::Column::Question)
        .into_tuple::<String>()
        .all(db)
        .await?
        .into_iter()
        .collect();
    for (position, (question, hint)) in questions.into_iter().enumerate() {
        if existing.contains(question) {
            continue;
        }
        report.questions += 1;
        interview_question::ActiveModel {
            position: Set(position as i32),
            question: Set(question.to_owned()),
            hint: Set(hint.map(str::to_owned)),
            active: Set(true),
            ..Default::default()
        }
        .insert(db)
        .await?;
    }
    Ok(())
}

const VOTERS: usize = 600;

async fn seed_voters(db: &impl sea_orm::ConnectionTrait, now: OffsetDateTime, report: &mut SeedReport) -> Result<Vec<i64>, DbErr> {
    let emails: Vec<String> = (1..=VOTERS).map(|n| format!("voter{n:03}@demo.launchdir.invalid")).collect();
    let existing: HashMap<String, i64> = user::Entity::find()
        .select_only()
        .column(user::Column::Email)
        .column(user::Column::Id)
        .filter(user::Column::Email.is_in(emails.clone()))
        .into_tuple::<(String, i64)>()
        .all(db)
        .await?
        .into_iter()
        .collect();
    let missing: Vec<user::ActiveModel> = emails
        .iter()
        .enumerate()
        .filter(|(_, email)| !existing.contains_key(*email))
        .map(|(n, email)| user::ActiveModel {
            email: Set(email.clone()),
            display_name: Set(format!("Demo voter {}", n + 1)),
            blocked: Set(false),
            created_at: Set(now - Duration::days(400)),
            email_confirmed_at: Set(Some(now - Duration::days(400))),
            ..Default::default()
        })
        .collect();
    report.users += missing.len();
    for chunk in missing.chunks(200) {
        user::Entity::insert_many(chunk.to_vec()).exec(db).await?;
    }
    let ids = user::Entity::find()
        .select_only()
        .column(user::Column::Id)
        .filter(user::Column::Email.is_in(emails))
        .into_tuple::<i64>()
        .all(db)
        .await?;
    Ok(ids)
}

const NAME_HEADS: &[&str] = &[
    "Quill", "Nimbus", "Lumen", "Atlas", "Pico", "Orbit", "Fable", "Cobalt", "Juniper", "Vertex", "Maple", "Ember", "Harbor", "Pixel",
    "Tandem", "Sprout", "Kite", "Cinder", "Drift", "Mosaic",
];
const NAME_TAILS: &[&str] =
    &["ly", "desk", "flow", "stack", "base", "hub", "kit", "forge", "lane", "loop", "nest", "works", "pilot", "scope", "mint", "grid"];
const FIRST_NAMES: &[&str] = &[
    "Ada", "Bruno", "Chiara", "Dmitri", "Elif", "Farah", "Goran", "Hana", "Ines", "Jonas", "Kofi", "Lena", "Mateo", "Nadia", "Oskar",
    "Priya", "Quentin", "Rosa", "Sami", "Tove", "Uma", "Viktor", "Wen", "Ximena", "Yusuf", "Zofia",
];
const LAST_NAMES: &[&str] = &[
    "Abara",
    "Brandt",
    "Castell",
    "Dimas",
    "Eklund",
    "Fontaine",
    "Garrido",
    "Holm",
    "Ilves",
    "Jovanic",
    "Kaur",
    "Lindqvist",
    "Moreau",
    "Novak",
    "Okafor",
    "Petrov",
    "Quiroga",
    "Rahman",
    "Sato",
    "Tamm",
    "Ulloa",
    "Varga",
    "Weiss",
    "Yilmaz",
    "Zeller",
];
const COUNTRIES: &[&str] = &["US", "DE", "GB", "FR", "NL", "SE", "ES", "IN", "CA", "BR", "EE", "PL", "JP", "NG", "AU"];
const STAGES: &[&str] = &["idea", "mvp", "launched", "growing"];
const PRICING: &[&str] = &["free", "freemium", "subscription", "one_time", "usage_based"];
const TITLES: &[&str] = &["Founder & CEO", "Co-founder & CTO", "Founder", "Co-founder, Design", "Co-founder, Growth"];
const PROMISES: &[&str] = &[
    "without the busywork",
    "for small teams",
    "in minutes, not days",
    "that stays out of your way",
    "built for remote teams",
    "with privacy by default",
];

/// The weeks demo listings launch in, relative to the current week: mostly past, some now,
/// some ahead (scheduled paid launches and the free queue 6 to 8 weeks out).
fn week_offset(rng: &mut Rng, index: usize) -> i64 {
    match index % 10 {
        0 => 0,
        1 => 1 + rng.below(4) as i64,
        2 if index % 20 == 2 => 6 + rng.below(3) as i64,
        _ => -(1 + rng.below(40) as i64),
    }
}

async fn seed_listings(
    db: &impl sea_orm::ConnectionTrait,
    now: OffsetDateTime,
    categories: &[(i64, i64, &'static str)],
    voters: &[i64],
    report: &mut SeedReport,
) -> Result<(), DbErr> {
    let existing: HashSet<String> =
        listing::Entity::find().select_only().column(listing::Column::Slug).into_tuple::<String>().all(db).await?.into_iter().collect();
    let mut existing_founders: HashSet<String> =
        founder::Entity::find().select_only().column(founder::Column::Slug).into_tuple::<String>().all(db).await?.into_iter().collect();
    let this_monday = {
        let date = now.date();
        let back = i64::from(date.weekday().number_days_from_monday());
        date - Duration::days(back)
    };
    let mut rng = Rng::new(0x1A0C_4D12);
    let mut votes = Vec::new();
    let mut follows = Vec::new();
    let mut followed = HashSet::new();
    let mut index = 0usize;
    for head in NAME_HEADS {
        for tail in NAME_TAILS {
            index += 1;
            // Every draw happens whether or not the row exists, so reruns see the same sequence.
            let name = format!("{head}{tail}");
            let slug = name.to_lowercase();
            let &(category_id, top_id, category_name) = rng.pick(categories);
            let extra = categories.iter().find(|(id, top, _)| *top == top_id && *id != category_id).map(|(id, _, _)| *id);
            let has_extra = rng.below(4) == 0;
            let offset = week_offset(&mut rng, index);
            let monday = this_monday + Duration::weeks(offset);
            let launched_at = (monday.midnight().assume_utc() + Duration::hours(rng.below(10) as i64)).min(now);
            let (status, plan) = match offset {
                o if o <= 0 && index.is_multiple_of(37) => ("draft", None),
                o if o <= 0 => ("live", Some(if rng.below(3) == 0 { "paid" } else { "free" })),
                o if o >= 6 => ("awaiting_badge", Some("free")),
                _ => ("scheduled", Some("paid")),
            };
            let popularity = rng.below(100);
            let vote_total = match status {
                "live" => (popularity * popularity / 25 + rng.below(12)) as usize,
                _ => 0,
            }
            .min(voters.len());
            let country = *rng.pick(COUNTRIES);
            let stage = *rng.pick(STAGES);
            let pricing = *rng.pick(PRICING);
            let promise = *rng.pick(PROMISES);
            let founders: Vec<(String, String)> =
                (0..1 + rng.below(2)).map(|_| (rng.pick(FIRST_NAMES).to_string(), rng.pick(LAST_NAMES).to_string())).collect();
            let founded = 2015 + rng.below(11) as i32;
            let vote_seed = rng.next_u64();
            if existing.contains(&slug) {
                continue;
            }
            let tagline = format!("{} {promise}", category_name);
            let description = format!(
                "{name} is a fictional product created for the Launchdir demo directory. It shows how a listing looks \
                 with a tagline, a description, founders and votes. Founded in {founded}, it is at the {stage} stage \
                 and uses a {} pricing model. Nothing here describes a real company.",
                pricing.replace('_', " ")
            );
            let row = listing::ActiveModel {
                slug: Set(slug.clone()),
                name: Set(name.clone()),
                url: Set(format!("https://{slug}.example")),
                domain: Set(format!("{slug}.example")),
                tagline: Set(Some(tagline)),
                short_description: Set(Some(format!("{name} is a demo listing in the Launchdir sample directory."))),
                description: Set(Some(description)),
                logo_url: Set(None),
                status: Set(status.to_owned()),
                plan: Set(plan.map(str::to_owned)),
                primary_category_id: Set(Some(category_id)),
                country: Set(Some(country.to_owned())),
                city: Set(None),
                stage: Set(Some(stage.to_owned())),
                pricing_model: Set(Some(pricing.to_owned())),
                founded_year: Set(Some(founded)),
                launch_week: Set(Some(monday)),
                launched_at: Set((status == "live").then_some(launched_at)),
                votes_count: Set(vote_total as i64),
                views_count: Set((vote_total * 12 + index * 37 % 500) as i64),
                owner_user_id: Set(None),
                created_at: Set(launched_at - Duration::days(30)),
                updated_at: Set(launched_at - Duration::days(30)),
                ..Default::default()
            }
            .insert(db)
            .await?;
            report.listings += 1;
            let mut links =
                vec![listing_category::ActiveModel { listing_id: Set(row.id), category_id: Set(category_id), is_primary: Set(true) }];
            if let (true, Some(extra)) = (has_extra && plan == Some("paid"), extra) {
                links.push(listing_category::ActiveModel { listing_id: Set(row.id), category_id: Set(extra), is_primary: Set(false) });
            }
            listing_category::Entity::insert_many(links).exec(db).await?;
            for (position, (first, last)) in founders.iter().enumerate() {
                let founder_slug = format!("{}-{}-{slug}", first.to_lowercase(), last.to_lowercase());
                // A listing may draw the same name twice; a founder is written once.
                if !existing_founders.insert(founder_slug.clone()) {
                    continue;
                }
                let founder_row = founder::ActiveModel {
                    slug: Set(founder_slug.clone()),
                    name: Set(format!("{first} {last}")),
                    title: Set(Some(TITLES[(index + position) % TITLES.len()].to_owned())),
                    bio: Set(Some(format!("{first} {last} is a fictional founder of {name} in the Launchdir demo directory."))),
                    country: Set(Some(country.to_owned())),
                    avatar: Set(None),
                    socials: Set(json!({"x": format!("https://x.com/{}{}", first.to_lowercase(), last.to_lowercase())})),
                    created_at: Set(launched_at - Duration::days(30)),
                    ..Default::default()
                }
                .insert(db)
                .await?;
                report.founders += 1;
                listing_founder::ActiveModel { listing_id: Set(row.id), founder_id: Set(founder_row.id), position: Set(position as i32) }
                    .insert(db)
                    .await?;
            }
            // Distinct voters: a walk through the voter list with a stride coprime to its length.
            let mut vote_rng = Rng::new(vote_seed);
            let start = vote_rng.below(voters.len() as u64) as usize;
            let stride = [7usize, 11, 13, 17, 19, 23][vote_rng.below(6) as usize];
            for n in 0..vote_total {
                let voter = voters[(start + n * stride) % voters.len()];
                // Most votes come on launch day, fewer over the following week.
                let minutes = (vote_rng.below(60 * 24 * 7) * vote_rng.below(100) / 100) as i64;
                let at = (launched_at + Duration::minutes(minutes)).min(now);
                votes.push(vote::ActiveModel {
                    listing_id: Set(row.id),
                    user_id: Set(voter),
                    created_at: Set(at),
                    launch_week: Set(utc_week(at)),
                    ..Default::default()
                });
                // About one voter in four also follows the listing.
                if n % 4 == 0 {
                    follows.push(listing_follow::ActiveModel { listing_id: Set(row.id), user_id: Set(voter), created_at: Set(at) });
                    followed.insert(row.id);
                }
            }
        }
    }
    report.votes = votes.len();
    for chunk in votes.chunks(500) {
        vote::Entity::insert_many(chunk.to_vec()).exec(db).await?;
    }
    report.follows = follows.len();
    for chunk in follows.chunks(500) {
        listing_follow::Entity::insert_many(chunk.to_vec()).exec(db).await?;
    }
    crate::shared::follows::recount(db, &followed.into_iter().collect::<Vec<_>>()).await?;
    Ok(())
}
