//! Wiring of the listings domain: the directory's reads (one shared count of the directory, one
//! trending score, one calendar), the week's lifecycle with its badge check, owners, votes and
//! reviews, with the policies the settings set.

use crate::settings::Settings;
use kernel::{Clock, Mailer};
use listings::BadgeProbe;
use ops::ListingServices;
use std::sync::Arc;
use store_seaorm::SeaStore;

/// Every listings use case. The badge probe comes from the caller, since it shares the drafts'
/// site reader's robots.txt cache.
pub fn listings(
    settings: &Settings,
    store: &SeaStore,
    badge_probe: Arc<dyn BadgeProbe>,
    mailer: Arc<dyn Mailer>,
    clock: &Arc<dyn Clock>,
) -> anyhow::Result<ListingServices> {
    let launch_offset = settings.launch_offset()?;
    let calendar = listings::CalendarService::new(
        store.launches(),
        clock.clone(),
        listings::CalendarPolicy { launch_offset, weeks_ahead: settings.paid_weeks_ahead.max(settings.free_queue_max_weeks) },
    );
    let awards = listings::AwardsService::new(store.awards(), calendar.clone(), clock.clone());
    let lifecycle = listings::LifecycleService::new(
        store.lifecycle(),
        badge_probe,
        store.jobs(),
        awards.clone(),
        clock.clone(),
        listings::LifecyclePolicy {
            launch_offset,
            site_url: settings.site_url(),
            badge_check_interval: time::Duration::minutes(i64::try_from(settings.badge_check_minutes).unwrap_or(60)),
            badge_max_backoff: time::Duration::hours(i64::try_from(settings.badge_max_backoff_hours).unwrap_or(24)),
            badge_checks_per_sweep: 500,
        },
    );
    let trending =
        listings::TrendingScores::new(store.feeds(), clock.clone(), time::Duration::hours(i64::from(settings.trending_half_life_hours)));
    // The directory's counts, shared by every read that shows a total.
    let shape = listings::DirectoryShape::new(store.categories(), clock.clone());
    let min_account_age = time::Duration::hours(i64::from(settings.vote_min_account_age_hours));
    // Reviews follow votes: a young account's review counts in the rating once the account is
    // as old as a vote needs to be.
    let review_policy = listings::ReviewPolicy { min_account_age };
    Ok(ListingServices {
        directory: listings::DirectoryService::new(store.listings(), shape.clone()),
        founders: listings::FoundersService::new(store.founders(), clock.clone(), shape.clone()),
        leaderboards: listings::LeaderboardService::new(store.rankings(), calendar.clone(), shape.clone()),
        feeds: listings::FeedService::new(
            store.feeds(),
            store.rankings(),
            listings::FeedSources { calendar: calendar.clone(), trending: trending.clone(), shape: shape.clone() },
            clock.clone(),
            listings::FeedPolicy { launch_offset },
        ),
        awards,
        lifecycle,
        badges: listings::BadgeService::new(store.listings(), store.awards()),
        profiles: listings::ProfileService::new(store.profiles(), clock.clone(), review_policy),
        compare: listings::CompareService::new(store.alternatives(), store.profiles(), clock.clone(), review_policy),
        search: listings::SearchService::new(
            Arc::new(search_tantivy::TantivyIndex::in_memory()?),
            store.search_source(),
            store.feeds(),
            trending,
            shape,
        ),
        sitemap: listings::SitemapService::new(store.sitemap(), calendar.clone()),
        calendar,
        interviews: listings::InterviewService::new(store.interviews(), clock.clone()),
        owners: listings::OwnerService::new(
            store.owned_listings(),
            clock.clone(),
            listings::FreeQueuePolicy {
                launch_offset,
                min_weeks: settings.free_queue_min_weeks,
                max_weeks: settings.free_queue_max_weeks,
                slots_per_week: settings.free_slots_per_week,
            },
            mailer,
            settings.site_url(),
        ),
        votes: listings::VoteService::new(store.votes(), clock.clone(), listings::VotePolicy { min_account_age, launch_offset }),
        reviews: listings::ReviewService::new(store.reviews(), clock.clone(), review_policy),
    })
}
