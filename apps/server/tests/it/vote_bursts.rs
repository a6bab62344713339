//! Votes in bulk: what the fraud rules make of a scripted burst of fresh accounts voting from
//! one address, and (ignored; `cargo xtask bench --votes`) how many votes a second one server
//! takes beside a read in the same run.

use crate::helpers::{TestApp, spawn_empty_app_with};
use crate::votes::{Person, live_listing, set_account_age};
use futures_util::future::join_all;
use std::time::{Duration, Instant};
use store_seaorm::testing::fixtures;

/// A member `age` old with a confirmed address, signed in (a session made directly: a hundred
/// sign-ups would spend their time hashing passwords).
pub(crate) async fn member(app: &TestApp, n: usize, age: time::Duration) -> Person {
    let email = format!("member{n}-{}@example.com", uuid::Uuid::new_v4().simple());
    let user = kernel::UserId::new(fixtures::user(app.services.store.connection(), &email).await);
    set_account_age(app, user, age).await;
    let (session, csrf) = (kernel::secrets::random_token().unwrap(), kernel::secrets::random_token().unwrap());
    let stored = accounts::signin::StoredSession {
        user_id: user,
        csrf_token: csrf.clone(),
        expires_at: time::OffsetDateTime::now_utc() + time::Duration::hours(1),
    };
    app.services.store.sessions().create_session(&accounts::hash_token(&session), &stored).await.unwrap();
    Person { session, csrf, user }
}

/// Presses `slug`'s upvote button as `who`, as the page's form (no script) sends it.
async fn press(app: &TestApp, client: &reqwest::Client, who: &Person, slug: &str, action: &str) -> u16 {
    let body = serde_urlencoded::to_string([("csrf", who.csrf.as_str()), ("back", "/"), ("action", action)]).unwrap();
    client
        .post(app.url(&format!("/listings/{slug}/vote")))
        .header("Cookie", format!("ld_session={}", who.session))
        .header("Sec-Fetch-Site", "same-origin")
        .header("Content-Type", "application/x-www-form-urlencoded")
        .body(body)
        .send()
        .await
        .unwrap()
        .status()
        .as_u16()
}

#[tokio::test]
async fn a_burst_of_fifty_fresh_accounts_from_one_address_counts_nothing_and_is_listed() {
    // The defaults a deployment runs with: accounts count after 24 hours, limits on.
    let app = spawn_empty_app_with(|_| {}).await;
    let client = crate::orders::no_redirects();
    live_listing(&app, "targeted").await;
    let mut fresh = Vec::new();
    for n in 0..50 {
        fresh.push(member(&app, n, time::Duration::minutes(5)).await);
    }
    let statuses = join_all(fresh.iter().map(|who| press(&app, &client, who, "targeted", "vote"))).await;
    assert!(statuses.iter().all(|status| *status == 303), "every press is answered as usual: {statuses:?}");
    let view = app.get("/api/v1/listings/targeted").await.body;
    assert_eq!(view["votes"], 0, "no fresh account's vote counts");
    assert_eq!(view["votes_by_week"].as_array().unwrap().len(), 0);
    let weekly = app.get("/api/v1/leaderboards/community-weekly").await.body;
    assert!(weekly["items"].as_array().unwrap().iter().all(|item| item["listing"]["slug"] != "targeted" || item["metric"]["value"] == 0));
    let listed = app.services.app.listings.votes.suspicious(1, 5, time::Duration::minutes(10)).await.unwrap();
    assert_eq!(listed.len(), 50, "every vote of the burst is listed for the site team");
    assert!(listed.iter().all(|vote| !vote.counted));
    eprintln!("burst of 50 fresh accounts from one address: 50 kept, 0 counted, {} listed by `votes suspicious`", listed.len());
}

#[tokio::test]
async fn old_accounts_voting_together_from_one_address_count_until_the_site_team_discounts_them() {
    let app = spawn_empty_app_with(|_| {}).await;
    let client = crate::orders::no_redirects();
    live_listing(&app, "pushed").await;
    live_listing(&app, "ordinary").await;
    // Fifty accounts made months apart (bought or borrowed), all voting from one address now.
    let mut aged = Vec::new();
    for n in 0..50 {
        aged.push(member(&app, n, time::Duration::days(40 + n as i64)).await);
    }
    // One honest person from the same address, for another listing.
    let honest = member(&app, 99, time::Duration::days(400)).await;
    join_all(aged.iter().map(|who| press(&app, &client, who, "pushed", "vote"))).await;
    assert_eq!(press(&app, &client, &honest, "ordinary", "vote").await, 303);
    assert_eq!(app.get("/api/v1/listings/pushed").await.body["votes"], 50, "old accounts count at first");
    let listed = app.services.app.listings.votes.suspicious(1, 5, time::Duration::minutes(10)).await.unwrap();
    // The burst rule flags every vote from the address within the window, the honest one too:
    // the list is for a person to judge, not a verdict.
    assert_eq!(listed.len(), 51);
    for vote in listed.iter().filter(|vote| vote.listing.as_str() == "pushed") {
        assert!(app.services.app.listings.votes.discount(vote.id).await.unwrap());
    }
    assert_eq!(app.get("/api/v1/listings/pushed").await.body["votes"], 0, "discounted, the burst counts nothing");
    assert_eq!(app.get("/api/v1/listings/ordinary").await.body["votes"], 1);
    eprintln!("burst of 50 aged accounts from one address: 50 counted, 51 listed (the honest vote too), 50 discounted");
}

/// Sends requests from `tasks` clients at once for `seconds`; returns answers a second.
async fn load<F, Fut>(tasks: usize, seconds: u64, work: F) -> f64
where
    F: Fn(usize, u64) -> Fut + Clone + Send + 'static,
    Fut: std::future::Future<Output = bool> + Send,
{
    let until = Instant::now() + Duration::from_secs(seconds);
    let started = Instant::now();
    let handles: Vec<_> = (0..tasks)
        .map(|task| {
            let work = work.clone();
            tokio::spawn(async move {
                let mut done = 0u64;
                while Instant::now() < until {
                    assert!(work(task, done).await, "an answer under load was not the expected one");
                    done += 1;
                }
                done
            })
        })
        .collect();
    let total: u64 = join_all(handles).await.into_iter().map(Result::unwrap).sum();
    total as f64 / started.elapsed().as_secs_f64()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "a measurement: cargo xtask bench --votes"]
async fn measure_votes_per_second_beside_a_read() {
    const TASKS: usize = 32;
    const SECONDS: u64 = 6;
    const LISTINGS: usize = 40;
    let app = spawn_empty_app_with(|settings| {
        settings.rate_limits.enabled = false;
        settings.vote_min_account_age_hours = 0;
    })
    .await;
    for n in 0..LISTINGS {
        live_listing(&app, &format!("votable-{n}")).await;
    }
    let mut people = Vec::new();
    for n in 0..TASKS {
        people.push(member(&app, n, time::Duration::days(30)).await);
    }
    let people = std::sync::Arc::new(people);
    let app = std::sync::Arc::new(app);
    let client = crate::orders::no_redirects();
    let (mut reads, mut votes, mut health) = (Vec::new(), Vec::new(), Vec::new());
    for round in 0..4 {
        let (a, c) = (app.clone(), client.clone());
        let read = load(TASKS, SECONDS, move |task, _| {
            let (a, c) = (a.clone(), c.clone());
            async move { c.get(a.url(&format!("/api/v1/listings/votable-{}", task % LISTINGS))).send().await.unwrap().status() == 200 }
        })
        .await;
        let (a, c, p) = (app.clone(), client.clone(), people.clone());
        // Each press is a write: a vote, then its withdrawal, over the listings in turn.
        let vote = load(TASKS, SECONDS, move |task, done| {
            let (a, c, p) = (a.clone(), c.clone(), p.clone());
            async move {
                let slug = format!("votable-{}", (task + done as usize / 2) % LISTINGS);
                press(&a, &c, &p[task], &slug, if done % 2 == 0 { "vote" } else { "withdraw" }).await == 303
            }
        })
        .await;
        let (a, c) = (app.clone(), client.clone());
        let healthz = load(TASKS, SECONDS, move |_, _| {
            let (a, c) = (a.clone(), c.clone());
            async move { c.get(a.url("/healthz")).send().await.unwrap().status() == 200 }
        })
        .await;
        // Round 0 warms up.
        if round > 0 {
            reads.push(read);
            votes.push(vote);
            health.push(healthz);
        }
    }
    let median = |mut list: Vec<f64>| {
        list.sort_by(f64::total_cmp);
        list[list.len() / 2]
    };
    let (read, vote, healthz) = (median(reads), median(votes), median(health));
    let backend = crate::helpers::backend_name();
    eprintln!("| load | answers/s | share of `/healthz` |");
    eprintln!("|---|---|---|");
    eprintln!("| `/healthz` | {healthz:.0} | 1.000 |");
    eprintln!("| `get_listing` | {read:.0} | {:.3} |", read / healthz);
    eprintln!("| votes and withdrawals (page form posts) | {vote:.0} | {:.3} |", vote / healthz);
    eprintln!(
        "({TASKS} clients at once, {SECONDS} s per load, median of 3 rounds after a warm-up, {backend}, rate limits off; the clients run in the test process, on the server's 2 cores)"
    );
}
