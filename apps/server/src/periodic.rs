//! What every server does in the background while it runs: enqueue the periodic jobs, read
//! listing changes into its search index, make changed listings' profiles ready, read the
//! directory's counts and score trending (so no request does). Counted page views are written by `bookkeeping`.

use kernel::Clock;
use std::sync::Arc;

/// Enqueues the periodic jobs (week start, week end, badge sweep, the daily purge, the order
/// expiry, the payment reconciliation, the claim expiry and re-check) at start-up
/// (catching up after downtime) and then every `every_seconds`. Every process does; each job's
/// key names its period, so each runs once whichever process's workers claim it.
pub(crate) async fn enqueue_jobs(
    lifecycle: listings::LifecycleService,
    queue: Arc<dyn kernel::JobQueue>,
    clock: Arc<dyn Clock>,
    every_seconds: u64,
    reconcile_every: time::Duration,
) {
    loop {
        match lifecycle.enqueue_periodic().await {
            Ok(0) => {}
            Ok(added) => tracing::debug!(added, "enqueued periodic jobs"),
            Err(err) => tracing::warn!(error = %err, "could not enqueue the periodic jobs; will try again"),
        }
        if let Err(err) = queue.enqueue(kernel::Purge::of_day(clock.now())).await {
            tracing::warn!(error = %err, "could not enqueue the daily purge; will try again");
        }
        for job in orders::periodic_jobs(clock.now(), reconcile_every).into_iter().chain(claims::periodic_jobs(clock.now())) {
            if let Err(err) = queue.enqueue(job).await {
                tracing::warn!(error = %err, "could not enqueue a periodic order or claim job; will try again");
            }
        }
        tokio::time::sleep(std::time::Duration::from_secs(every_seconds.max(1))).await;
    }
}

pub(crate) async fn sync_search(search: listings::SearchService) {
    loop {
        tokio::time::sleep(listings::SEARCH_SYNC_PERIOD).await;
        if let Err(err) = search.sync().await {
            tracing::warn!(error = %err, "could not update the search index; will try again");
        }
    }
}

/// How often `prepare_profiles` looks for listings whose profile changed.
const PROFILES_WATCH: std::time::Duration = std::time::Duration::from_millis(200);

/// Makes ready the profiles of listings that changed (their kept documents), so `get_listing`
/// and the listing page read each in one statement; until then a read takes the parts one by
/// one, so nothing waits for this. A migrated or bulk-loaded directory is worked through in
/// batches beside the requests.
pub(crate) async fn prepare_profiles(profiles: listings::ProfileService) {
    loop {
        tokio::time::sleep(PROFILES_WATCH).await;
        match profiles.prepare_profiles().await {
            Ok(0) => {}
            Ok(prepared) => tracing::debug!(prepared, "made listing profiles ready"),
            Err(err) => tracing::warn!(error = %err, "could not make listing profiles ready; will try again"),
        }
    }
}

/// Reads the directory's kept counts (live listings, per category, followed, founders) every
/// `listings::DIRECTORY_REFRESH`, so no read waits for them. Start-up read them just before
/// the server answered, so the first round waits too: doing it again at once would only
/// compete with the first requests.
pub(crate) async fn refresh_counts(shape: listings::DirectoryShape) {
    loop {
        tokio::time::sleep(listings::DIRECTORY_REFRESH).await;
        if let Err(err) = shape.refresh().await {
            tracing::warn!(error = %err, "could not read the directory's counts; will try again");
        }
    }
}

/// Ranks the current week again every `listings::calendar::CURRENT_WEEK_TTL` (and last week
/// before its ranking expires), so no read waits. Waits first, as `refresh_counts` does.
pub(crate) async fn refresh_recent_weeks(calendar: listings::CalendarService) {
    let period = listings::calendar::CURRENT_WEEK_TTL.unsigned_abs();
    loop {
        tokio::time::sleep(period).await;
        if let Err(err) = calendar.refresh_recent_weeks().await {
            tracing::warn!(error = %err, "could not rank this week or last week; will try again");
        }
    }
}

/// Scores trending again every `listings::TRENDING_REFRESH`, so no read waits for it. Waits
/// first, as `refresh_counts` does.
pub(crate) async fn refresh_trending(trending: listings::TrendingScores) {
    loop {
        tokio::time::sleep(listings::TRENDING_REFRESH).await;
        if let Err(err) = trending.refresh().await {
            tracing::warn!(error = %err, "could not score trending; will try again");
        }
    }
}

/// How often `rank_after_votes` looks for new votes, and how long it rests after ranking, so a
/// burst of votes costs at most two rankings a second.
const VOTE_WATCH: std::time::Duration = std::time::Duration::from_millis(100);
const AFTER_VOTES_REST: std::time::Duration = std::time::Duration::from_millis(400);

/// After votes this server took: this week's ranking and trending are computed again and the
/// kept answers forgotten, so a vote shows in them within a second on this server (others see
/// it with their periodic refreshes).
pub(crate) async fn rank_after_votes(app: ops::App, answers: std::sync::Arc<http_edge::AnswerCache>) {
    let signal = app.listings.votes.signal().clone();
    let mut seen = signal.changes();
    loop {
        tokio::time::sleep(VOTE_WATCH).await;
        let changes = signal.changes();
        if changes == seen {
            continue;
        }
        seen = changes;
        if let Err(err) = app.listings.calendar.refresh_recent_weeks().await {
            tracing::warn!(error = %err, "could not rank the current week after a vote");
        }
        if let Err(err) = app.listings.feeds.trending().refresh().await {
            tracing::warn!(error = %err, "could not score trending after a vote");
        }
        // Searches sort by votes inside the index: read the vote's feed position now.
        if let Err(err) = app.listings.search.sync().await {
            tracing::warn!(error = %err, "could not bring the search index up to date after a vote");
        }
        answers.forget_all();
        tokio::time::sleep(AFTER_VOTES_REST).await;
    }
}
