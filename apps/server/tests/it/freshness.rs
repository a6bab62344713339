//! Freshness (docs/api.md, Freshness): a vote, an edit and a new live listing show in the reads
//! they affect within the promised time, on the server that took the write and on a second
//! server on the same database (its own caches, search index and background refreshes). Each
//! wait polls and allows `FRESHNESS_SLACK` beyond the promise, for a loaded machine.

use crate::helpers::{TestApp, eventually, spawn_empty_app_with, spawn_second_node};
use crate::reviews::send;
use crate::votes::{live_listing, person};
use serde_json::Value;
use store_seaorm::testing::fixtures;

const MONTH: time::Duration = time::Duration::days(30);

/// Two servers on one new database; votes count from the first second of an account.
async fn two_nodes() -> (TestApp, TestApp) {
    let first = spawn_empty_app_with(|settings| {
        settings.vote_min_account_age_hours = 0;
        settings.rate_limits.enabled = false;
    })
    .await;
    let second = spawn_second_node(&first).await;
    (first, second)
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

#[tokio::test]
async fn a_vote_shows_on_both_servers_within_the_promised_times() {
    let (a, b) = two_nodes().await;
    live_listing(&a, "fresh-vote").await;
    let voter = person(&a, 0, true, MONTH).await;
    assert_eq!(send(&a, &voter, "/listings/fresh-vote/vote", &[("back", "/"), ("action", "vote")]).await.status(), 303);

    // Read from the row itself: at once, everywhere.
    for node in [&a, &b] {
        assert_eq!(node.get("/api/v1/listings/fresh-vote").await.body["votes"], 1);
        assert_eq!(in_section(node, "most-voted", "fresh-vote").await, Some(Value::from(1)));
    }
    // This week's ranking is kept per server for at most a second.
    let week = listings::calendar::CURRENT_WEEK_TTL.unsigned_abs();
    for (node, name) in [(&a, "A"), (&b, "B")] {
        eventually(week, &format!("the vote in this week's feed on {name}"), || async {
            in_section(node, "this-week", "fresh-vote").await == Some(Value::from(1))
        })
        .await;
        eventually(week, &format!("the vote on the weekly board on {name}"), || async {
            let board = node.get("/api/v1/leaderboards/community-weekly").await.body;
            board["items"][0]["listing"]["slug"] == "fresh-vote" && board["items"][0]["metric"]["value"] == 1
        })
        .await;
    }
    // Trending is scored again in the background by every server.
    for (node, name) in [(&a, "A"), (&b, "B")] {
        eventually(listings::TRENDING_REFRESH, &format!("the vote in trending on {name}"), || async {
            in_section(node, "trending", "fresh-vote").await.is_some()
        })
        .await;
    }
}

#[tokio::test]
async fn an_edit_is_searchable_at_once_where_it_was_made_and_soon_elsewhere() {
    let (a, b) = two_nodes().await;
    let owner = person(&a, 0, true, MONTH).await;
    let id = live_listing(&a, "fresh-edit").await;
    fixtures::set_owner(a.services.store.connection(), id, owner.user.get()).await;
    let saved = send(&a, &owner, &format!("/account/listings/{id}"), &[("tagline", "Quokka spreadsheets for teams")]).await;
    assert_eq!(saved.status(), 303);
    // The server that took the edit brings its index up to date before it answers.
    assert_eq!(found_by(&a, "quokka").await, ["fresh-edit"]);
    // Another server reads the change feed twice a second.
    eventually(listings::SEARCH_SYNC_PERIOD, "the edit in search on B", || async { found_by(&b, "quokka").await == ["fresh-edit"] }).await;
    assert_eq!(b.get("/api/v1/listings/fresh-edit").await.body["tagline"], "Quokka spreadsheets for teams", "the profile at once");
}

#[tokio::test]
async fn a_new_live_listing_is_counted_ranked_and_found_on_both_servers() {
    let (a, b) = two_nodes().await;
    let before = (live_count(&a).await, live_count(&b).await);
    let id = live_listing(&a, "fresh-launch").await;
    fixtures::edit_tagline(a.services.store.connection(), id, "Wombat invoices").await;
    for (node, name, before) in [(&a, "A", before.0), (&b, "B", before.1)] {
        assert_eq!(node.get("/api/v1/listings/fresh-launch").await.status, 200, "the profile at once on {name}");
        assert!(in_section(node, "recent", "fresh-launch").await.is_some(), "ranked by launch at once on {name}");
        eventually(listings::DIRECTORY_REFRESH, &format!("the count on {name}"), || async { live_count(node).await == before + 1 }).await;
        eventually(listings::SEARCH_SYNC_PERIOD, &format!("the listing in search on {name}"), || async {
            found_by(node, "wombat").await == ["fresh-launch"]
        })
        .await;
        eventually(listings::calendar::CURRENT_WEEK_TTL.unsigned_abs(), &format!("this week's feed on {name}"), || async {
            in_section(node, "this-week", "fresh-launch").await.is_some()
        })
        .await;
    }
}
