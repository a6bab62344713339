//! Freshness (docs/api.md, Freshness): a vote, an edit and a new live listing show in the reads
//! they affect within the promised time, on the server that took the write and on a second
//! server on the same database (its own caches, search index and background refreshes). Both
//! keep answers in the answer cache, as servers do by default, and every read is made once
//! before the write, so a kept answer has to be forgotten or expire. Each wait polls and allows
//! `FRESHNESS_SLACK` beyond the promise, for a loaded machine.

use crate::helpers::{TestApp, eventually, eventually_since, spawn_empty_app_with, spawn_second_node};
use crate::reviews::send;
use crate::votes::{live_listing, person};
use listings::SEARCH_SYNC_PERIOD;
use serde_json::Value;
use std::time::{Duration, Instant};
use store_seaorm::testing::fixtures;

const MONTH: time::Duration = time::Duration::days(30);

/// Two servers on one new database, keeping answers as long as a server does by default;
/// votes count from the first second of an account.
async fn two_nodes() -> (TestApp, TestApp) {
    let first = spawn_empty_app_with(|settings| {
        settings.vote_min_account_age_hours = 0;
        settings.rate_limits.enabled = false;
        settings.answer_cache_ms = launchdir_server::settings::Settings::default().answer_cache_ms;
    })
    .await;
    let second = spawn_second_node(&first).await;
    (first, second)
}

/// How long a server may answer a public read from the answer cache after another server's write.
fn kept(node: &TestApp) -> Duration {
    Duration::from_millis(node.settings.answer_cache_ms)
}

/// The metric value of `slug` in a feed section, if it is on the first page.
async fn in_section(node: &TestApp, section: &str, slug: &str) -> Option<Value> {
    let feed = node.get(&format!("/api/v1/launches?section={section}&per_page=100")).await.body;
    feed["items"].as_array()?.iter().find(|item| item["listing"]["slug"] == slug).map(|item| item["metric"]["value"].clone())
}

async fn live_count(node: &TestApp) -> u64 {
    node.get("/api/v1/site").await.body["counts"]["live_listings"].as_u64().unwrap()
}

async fn found_by(node: &TestApp, words: &str) -> Vec<String> {
    let body = node.get(&format!("/api/v1/listings?q={words}")).await.body;
    body["items"].as_array().unwrap().iter().map(|item| item["slug"].as_str().unwrap().to_owned()).collect()
}

/// The slugs a word search sorted by votes finds, in its order.
async fn by_votes(node: &TestApp, words: &str) -> Vec<String> {
    let body = node.get(&format!("/api/v1/listings?q={words}&sort=votes&per_page=100")).await.body;
    body["items"].as_array().unwrap().iter().map(|item| item["slug"].as_str().unwrap().to_owned()).collect()
}

async fn votes_of(node: &TestApp, slug: &str) -> Value {
    node.get(&format!("/api/v1/listings/{slug}")).await.body["votes"].clone()
}

#[tokio::test]
async fn a_vote_shows_on_both_servers_within_the_promised_times() {
    let (a, b) = two_nodes().await;
    live_listing(&a, "fresh-vote").await;
    // A rival with the same word and no votes, older: it leads a search sorted by votes until
    // the vote (ties go to the lower id).
    live_listing(&a, "quokka-rival").await;
    live_listing(&a, "quokka-vote").await;
    let (rival_first, voted_first) = (["quokka-rival", "quokka-vote"], ["quokka-vote", "quokka-rival"]);
    for node in [&a, &b] {
        eventually(SEARCH_SYNC_PERIOD + kept(node), "both in the index", || async { by_votes(node, "quokka").await == rival_first }).await;
    }
    let voter = person(&a, 0, true, MONTH).await;
    let second_voter = person(&a, 1, true, MONTH).await;
    for node in [&a, &b] {
        assert_eq!(votes_of(node, "fresh-vote").await, 0, "read once, so the answer is kept");
        assert_eq!(in_section(node, "most-voted", "fresh-vote").await, Some(Value::from(0)));
    }
    // The new listing joins this week's ranking with the next background ranking: read it
    // there once, without votes, so that answer is kept too.
    for node in [&a, &b] {
        eventually(listings::calendar::CURRENT_WEEK_TTL.unsigned_abs() + kept(node), "the listing in this week's feed", || async {
            in_section(node, "this-week", "fresh-vote").await == Some(Value::from(0))
        })
        .await;
    }
    let voted = Instant::now();
    assert_eq!(send(&a, &voter, "/listings/fresh-vote/vote", &[("back", "/"), ("action", "vote")]).await.status(), 303);
    assert_eq!(send(&a, &second_voter, "/listings/quokka-vote/vote", &[("back", "/"), ("action", "vote")]).await.status(), 303);

    // The server that took the vote: at once where the row is read (it forgot its kept
    // answers), within a second where a ranking is kept (it ranks again after a vote).
    assert_eq!(votes_of(&a, "fresh-vote").await, 1);
    assert_eq!(in_section(&a, "most-voted", "fresh-vote").await, Some(Value::from(1)));
    let here = Duration::from_secs(1);
    eventually_since(voted, here, "the vote in this week's feed on A", || async {
        in_section(&a, "this-week", "fresh-vote").await == Some(Value::from(1))
    })
    .await;
    eventually_since(voted, here, "the vote in trending on A", || async { in_section(&a, "trending", "fresh-vote").await.is_some() }).await;
    // Searches sort inside each server's index, fed from the change feed every 0.5 s.
    eventually_since(voted, here, "the vote in a search sorted by votes on A", || async { by_votes(&a, "quokka").await == voted_first })
        .await;

    // The other server: once its kept answer expires, and its periodic rankings run.
    eventually_since(voted, kept(&b), "the vote on the listing on B", || async { votes_of(&b, "fresh-vote").await == 1 }).await;
    eventually_since(voted, kept(&b), "the vote in the most voted on B", || async {
        in_section(&b, "most-voted", "fresh-vote").await == Some(Value::from(1))
    })
    .await;
    let week = listings::calendar::CURRENT_WEEK_TTL.unsigned_abs() + kept(&b);
    eventually_since(voted, week, "the vote in this week's feed on B", || async {
        in_section(&b, "this-week", "fresh-vote").await == Some(Value::from(1))
    })
    .await;
    for (node, name) in [(&a, "A"), (&b, "B")] {
        eventually_since(voted, week, &format!("the vote on the weekly board on {name}"), || async {
            let board = node.get("/api/v1/leaderboards/community-weekly").await.body;
            board["items"][0]["listing"]["slug"] == "fresh-vote" && board["items"][0]["metric"]["value"] == 1
        })
        .await;
    }
    eventually_since(voted, SEARCH_SYNC_PERIOD + kept(&b), "the vote in a search sorted by votes on B", || async {
        by_votes(&b, "quokka").await == voted_first
    })
    .await;
    let elsewhere = listings::TRENDING_REFRESH + kept(&b);
    assert!(elsewhere <= Duration::from_secs(5));
    eventually_since(voted, elsewhere, "the vote in trending on B", || async { in_section(&b, "trending", "fresh-vote").await.is_some() })
        .await;
}

#[tokio::test]
async fn an_edit_is_searchable_at_once_where_it_was_made_and_soon_elsewhere() {
    let (a, b) = two_nodes().await;
    let owner = person(&a, 0, true, MONTH).await;
    let id = live_listing(&a, "fresh-edit").await;
    fixtures::set_owner(a.services.store.connection(), id, owner.user.get()).await;
    for node in [&a, &b] {
        assert_eq!(found_by(node, "quokka").await, Vec::<String>::new());
        assert_ne!(node.get("/api/v1/listings/fresh-edit").await.body["tagline"], "Quokka spreadsheets for teams");
    }
    let saved = send(&a, &owner, &format!("/account/listings/{id}"), &[("tagline", "Quokka spreadsheets for teams")]).await;
    assert_eq!(saved.status(), 303);
    // The server that took the edit brings its index up to date and forgets its kept answers
    // before it answers.
    assert_eq!(found_by(&a, "quokka").await, ["fresh-edit"]);
    assert_eq!(a.get("/api/v1/listings/fresh-edit").await.body["tagline"], "Quokka spreadsheets for teams");
    // Another server reads the change feed twice a second.
    eventually(listings::SEARCH_SYNC_PERIOD + kept(&b), "the edit in search on B", || async {
        found_by(&b, "quokka").await == ["fresh-edit"]
    })
    .await;
    eventually(kept(&b), "the edit on the profile on B", || async {
        b.get("/api/v1/listings/fresh-edit").await.body["tagline"] == "Quokka spreadsheets for teams"
    })
    .await;
}

#[tokio::test]
async fn a_new_live_listing_is_counted_ranked_and_found_on_both_servers() {
    let (a, b) = two_nodes().await;
    let before = (live_count(&a).await, live_count(&b).await);
    for node in [&a, &b] {
        assert_eq!(in_section(node, "recent", "fresh-launch").await, None);
        assert_eq!(in_section(node, "this-week", "fresh-launch").await, None);
    }
    // Written straight to the database, as another server or the command line would.
    let id = live_listing(&a, "fresh-launch").await;
    fixtures::edit_tagline(a.services.store.connection(), id, "Wombat invoices").await;
    for (node, name, before) in [(&a, "A", before.0), (&b, "B", before.1)] {
        assert_eq!(node.get("/api/v1/listings/fresh-launch").await.status, 200, "the profile at once on {name} (it was never kept)");
        eventually(kept(node), &format!("ranked by launch on {name}"), || async {
            in_section(node, "recent", "fresh-launch").await.is_some()
        })
        .await;
        eventually(listings::DIRECTORY_REFRESH + kept(node), &format!("the count on {name}"), || async {
            live_count(node).await == before + 1
        })
        .await;
        eventually(listings::SEARCH_SYNC_PERIOD + kept(node), &format!("the listing in search on {name}"), || async {
            found_by(node, "wombat").await == ["fresh-launch"]
        })
        .await;
        eventually(listings::calendar::CURRENT_WEEK_TTL.unsigned_abs() + kept(node), &format!("this week's feed on {name}"), || async {
            in_section(node, "this-week", "fresh-launch").await.is_some()
        })
        .await;
    }
}
