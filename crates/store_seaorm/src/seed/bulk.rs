//! Bulk listings for benchmarks: a directory as large as a real one (a million listings, with
//! votes over years of weeks, follows, founders, Domain Ratings, revenue and billboard
//! places), written in one transaction.

use super::content::{contributions_of, metrics_of};
use super::{COUNTRIES, FIRST_NAMES, LAST_NAMES, NEW_CATEGORIES, PRICING, PROMISES, Rng, STAGES, TITLES};
use crate::entity::{
    billboard_contribution, category, founder, listing, listing_category, listing_follow, listing_founder, listing_metric, user, vote,
};
use crate::shared::votes::utc_week;
use sea_orm::{
    ColumnTrait, ConnectionTrait, DatabaseConnection, DatabaseTransaction, DbErr, EntityTrait, QueryFilter, QueryOrder, QuerySelect, Set,
    TransactionTrait,
};
use serde_json::json;
use std::collections::{HashMap, HashSet};
use time::{Duration, OffsetDateTime};

/// Launches a week in a directory of Product Hunt's size: its API lists over 90,000 featured
/// products from December 2013 to January 2022, about 216 a week for eight years.
const LAUNCHES_PER_WEEK: usize = 216;
/// The bulk listings span at least a year of weeks and at most ten years: a directory larger
/// than Product Hunt's is a busier one, not a hundred years old (a million listings give
/// weeks of about 1,900 launches).
const WEEKS: std::ops::RangeInclusive<usize> = 52..=520;

/// Listings written per round of statements.
const CHUNK: usize = 500;

/// SQLite's page cache while seeding, in KiB (`PRAGMA cache_size` takes it negative): the
/// indexes of twenty million votes are written in random key order, and with the default 2 MiB
/// nearly every insert reads a page back from disk.
const SEED_CACHE_KIB: i64 = 512 * 1024;

/// Adds `count` more fictional listings (live, spread over the last years (`WEEKS`), with votes and
/// follows from the demo voters, a founder for every two listings, and metrics and billboard
/// contributions as the demo listings have them) so benchmarks run at the size of a real
/// directory.
/// Idempotent: listings are named `bulk-N`, and existing ones are skipped. `progress` hears how
/// many of the `count` listings are done after each round.
pub async fn bulk_listings(db: &DatabaseConnection, now: OffsetDateTime, count: usize, progress: impl Fn(usize)) -> Result<usize, DbErr> {
    let sqlite = db.get_database_backend() == sea_orm::DatabaseBackend::Sqlite;
    if !sqlite {
        // PostgreSQL: a transaction per round. In one transaction of a hundred thousand
        // listings every update of the same count row (a category's, a facet's) leaves a
        // version that stays until the end, and each update walks past all of them.
        return write(db, None, now, count, progress).await;
    }
    let txn = db.begin().await?;
    if sqlite {
        txn.execute_unprepared(&format!("PRAGMA cache_size = -{SEED_CACHE_KIB}")).await?;
    }
    let written = write(db, Some(&txn), now, count, progress).await;
    if sqlite {
        // Back to the default whatever happened, as the pooled connection is reused.
        txn.execute_unprepared("PRAGMA cache_size = -2000").await?;
    }
    let written = written?;
    txn.commit().await?;
    if sqlite {
        // The transaction sits in the write-ahead log (gigabytes at a million listings) until it
        // is copied into the database; do it now rather than in the first reader's way.
        db.execute_unprepared("PRAGMA wal_checkpoint(TRUNCATE)").await?;
    }
    Ok(written)
}

/// Writes the listings, all in `single` when given, else each round in a transaction of its
/// own; how many were new.
async fn write(
    db: &DatabaseConnection,
    single: Option<&DatabaseTransaction>,
    now: OffsetDateTime,
    count: usize,
    progress: impl Fn(usize),
) -> Result<usize, DbErr> {
    let categories: Vec<i64> = category::Entity::find()
        .select_only()
        .column(category::Column::Id)
        .filter(category::Column::Slug.is_not_in(NEW_CATEGORIES.iter().copied()))
        .order_by_asc(category::Column::Id)
        .into_tuple::<i64>()
        .all(db)
        .await?;
    let voters: Vec<i64> = user::Entity::find()
        .select_only()
        .column(user::Column::Id)
        .filter(user::Column::Email.like("voter%@demo.launchdir.invalid"))
        .into_tuple::<i64>()
        .all(db)
        .await?;
    if categories.is_empty() || voters.is_empty() {
        return Err(DbErr::Custom("run the demo seed before adding bulk listings".into()));
    }
    let existing: HashSet<String> = listing::Entity::find()
        .select_only()
        .column(listing::Column::Slug)
        .filter(listing::Column::Slug.like("bulk-%"))
        .into_tuple::<String>()
        .all(db)
        .await?
        .into_iter()
        .collect();
    let this_monday = now.date() - Duration::days(i64::from(now.date().weekday().number_days_from_monday()));
    let weeks = (count / LAUNCHES_PER_WEEK).clamp(*WEEKS.start(), *WEEKS.end()) as u64;
    let mut rng = Rng::new(0xB01C);
    let mut written = 0;
    for chunk_start in (0..count).step_by(CHUNK) {
        let own = if single.is_none() { Some(db.begin().await?) } else { None };
        let Some(txn) = single.or(own.as_ref()) else {
            return Err(DbErr::Custom("no transaction to write the bulk listings in".into()));
        };
        let mut rows = Vec::new();
        let mut plans = Vec::new();
        for n in chunk_start..(chunk_start + CHUNK).min(count) {
            let slug = format!("bulk-{n}");
            let weeks_back = rng.below(weeks) as i64;
            let votes = rng.below(40) as usize;
            let category = categories[rng.below(categories.len() as u64) as usize];
            if existing.contains(&slug) {
                continue;
            }
            let launched_at = ((this_monday - Duration::weeks(weeks_back)).midnight().assume_utc() + Duration::hours(9)).min(now);
            rows.push(listing::ActiveModel {
                slug: Set(slug.clone()),
                name: Set(format!("Bulk Product {n}")),
                url: Set(format!("https://{slug}.example")),
                domain: Set(format!("{slug}.example")),
                tagline: Set(Some(format!("{} for benchmark number {n}", PROMISES[n % PROMISES.len()]))),
                short_description: Set(Some("A fictional listing generated for benchmarks.".into())),
                description: Set(Some(format!("Bulk Product {n} exists only to make the demo directory as large as a real one."))),
                status: Set("live".into()),
                plan: Set(Some("free".into())),
                primary_category_id: Set(Some(category)),
                country: Set(Some(COUNTRIES[n % COUNTRIES.len()].into())),
                stage: Set(Some(STAGES[n % STAGES.len()].into())),
                pricing_model: Set(Some(PRICING[n % PRICING.len()].into())),
                launch_week: Set(Some(this_monday - Duration::weeks(weeks_back))),
                launched_at: Set(Some(launched_at)),
                votes_count: Set(votes as i64),
                views_count: Set((votes * 9) as i64),
                created_at: Set(launched_at),
                updated_at: Set(launched_at),
                ..Default::default()
            });
            plans.push((slug, category, votes, launched_at));
        }
        if rows.is_empty() {
            progress((chunk_start + CHUNK).min(count));
            continue;
        }
        listing::Entity::insert_many(rows).exec(txn).await?;
        let slugs: Vec<String> = plans.iter().map(|(slug, ..)| slug.clone()).collect();
        let ids: HashMap<String, i64> = listing::Entity::find()
            .select_only()
            .column(listing::Column::Slug)
            .column(listing::Column::Id)
            .filter(listing::Column::Slug.is_in(slugs))
            .into_tuple::<(String, i64)>()
            .all(txn)
            .await?
            .into_iter()
            .collect();
        let mut links = Vec::new();
        let mut votes = Vec::new();
        let mut follows = Vec::new();
        for (slug, category, vote_count, launched_at) in &plans {
            let id = ids[slug];
            links.push(listing_category::ActiveModel { listing_id: Set(id), category_id: Set(*category), is_primary: Set(true) });
            let start = rng.below(voters.len() as u64) as usize;
            for k in 0..*vote_count {
                let voter = voters[(start + k * 7) % voters.len()];
                let at = (*launched_at + Duration::minutes(rng.below(60 * 24 * 6) as i64)).min(now);
                votes.push(vote::ActiveModel {
                    listing_id: Set(id),
                    user_id: Set(voter),
                    created_at: Set(at),
                    launch_week: Set(utc_week(at)),
                    ..Default::default()
                });
                if k % 4 == 0 {
                    follows.push(listing_follow::ActiveModel { listing_id: Set(id), user_id: Set(voter), created_at: Set(at) });
                }
            }
        }
        listing_category::Entity::insert_many(links).exec(txn).await?;
        // Listings 2k and 2k+1 share founder k, so founders have one company or two.
        let founder_of = |slug: &str| -> (String, usize) {
            let n: usize = slug.trim_start_matches("bulk-").parse().unwrap_or(0);
            (format!("bulk-founder-{}", n / 2), n / 2)
        };
        let mut new_founders = Vec::new();
        let mut founder_slugs = HashSet::new();
        for (slug, _, _, launched_at) in &plans {
            let (founder_slug, k) = founder_of(slug);
            if founder_slugs.insert(founder_slug.clone()) {
                let (first, last) = (FIRST_NAMES[k % FIRST_NAMES.len()], LAST_NAMES[(k / FIRST_NAMES.len()) % LAST_NAMES.len()]);
                new_founders.push(founder::ActiveModel {
                    slug: Set(founder_slug),
                    name: Set(format!("{first} {last} {k}")),
                    title: Set(Some(TITLES[k % TITLES.len()].to_owned())),
                    bio: Set(None),
                    country: Set(Some(COUNTRIES[k % COUNTRIES.len()].to_owned())),
                    avatar: Set(None),
                    socials: Set(json!({})),
                    created_at: Set(*launched_at),
                    ..Default::default()
                });
            }
        }
        let known: HashSet<String> = founder::Entity::find()
            .select_only()
            .column(founder::Column::Slug)
            .filter(founder::Column::Slug.is_in(founder_slugs.iter().cloned()))
            .into_tuple::<String>()
            .all(txn)
            .await?
            .into_iter()
            .collect();
        new_founders.retain(|row| !known.contains(row.slug.as_ref()));
        if !new_founders.is_empty() {
            founder::Entity::insert_many(new_founders).exec(txn).await?;
        }
        let founder_ids: HashMap<String, i64> = founder::Entity::find()
            .select_only()
            .column(founder::Column::Slug)
            .column(founder::Column::Id)
            .filter(founder::Column::Slug.is_in(founder_slugs))
            .into_tuple::<(String, i64)>()
            .all(txn)
            .await?
            .into_iter()
            .collect();
        let founder_links: Vec<listing_founder::ActiveModel> = plans
            .iter()
            .map(|(slug, ..)| listing_founder::ActiveModel {
                listing_id: Set(ids[slug]),
                founder_id: Set(founder_ids[&founder_of(slug).0]),
                position: Set(0),
            })
            .collect();
        listing_founder::Entity::insert_many(founder_links).exec(txn).await?;
        for part in votes.chunks(500) {
            vote::Entity::insert_many(part.to_vec()).exec(txn).await?;
        }
        // Domain Ratings, revenue and billboard places as the demo listings have them, so the
        // boards over them are as large as the directory.
        let mut ids_in_order: Vec<i64> = ids.values().copied().collect();
        ids_in_order.sort_unstable();
        let metrics: Vec<listing_metric::ActiveModel> = ids_in_order.iter().map(|&id| metrics_of(id, now)).collect();
        listing_metric::Entity::insert_many(metrics).exec(txn).await?;
        let contributions: Vec<billboard_contribution::ActiveModel> =
            ids_in_order.iter().flat_map(|&id| contributions_of(id, now)).collect();
        if !contributions.is_empty() {
            billboard_contribution::Entity::insert_many(contributions).exec(txn).await?;
        }
        for part in follows.chunks(500) {
            listing_follow::Entity::insert_many(part.to_vec()).exec(txn).await?;
        }
        crate::shared::follows::recount(txn, &ids.values().copied().collect::<Vec<_>>()).await?;
        if let Some(own) = own {
            own.commit().await?;
            // The planner's statistics still describe the tables as they were before the seed:
            // a lookup it thinks reads a few rows scans the growing tables in every round.
            // Refreshed each time the seed has doubled them (a handful of times in all).
            let round = chunk_start / CHUNK + 1;
            if round.is_power_of_two() {
                crate::optimize(db).await?;
            }
        }
        written += plans.len();
        progress((chunk_start + CHUNK).min(count));
    }
    Ok(written)
}
