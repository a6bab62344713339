//! Votes on the site's pages: a confirmed e-mail first, one vote per person per listing however
//! many presses arrive at once, young accounts kept but not counted, the form's token and this
//! site's origin required, and the confirmation link from the outbox.

use crate::helpers::{TestApp, eventually, spawn_empty_app_with};
use crate::orders::{no_redirects, post_form};
use futures_util::future::join_all;
use kernel::{UserId, Week};
use sea_orm::{ConnectionTrait, Statement};
use store_seaorm::testing::fixtures;
use time::OffsetDateTime;

/// Someone signed in on the site.
pub(crate) struct Person {
    pub session: String,
    pub csrf: String,
    pub user: UserId,
}

pub(crate) async fn app_with_min_age(hours: u32) -> TestApp {
    spawn_empty_app_with(|settings| {
        settings.vote_min_account_age_hours = hours;
        // Fifty presses in a burst are the point of some tests here.
        settings.rate_limits.enabled = false;
    })
    .await
}

/// A live listing launched this week.
pub(crate) async fn live_listing(app: &TestApp, slug: &str) -> i64 {
    let now = OffsetDateTime::now_utc();
    fixtures::listing(app.services.store.connection(), slug, "live", Week::containing(now.date()), now).await
}

pub(crate) async fn person(app: &TestApp, n: usize, confirmed: bool, age: time::Duration) -> Person {
    let email = format!("voter{n}-{}@example.com", uuid::Uuid::new_v4().simple());
    let session = app.services.app.accounts.signin.sign_up(&email, "Voter", "a long enough password").await.unwrap();
    set_account_age(app, session.user.id, age).await;
    if confirmed {
        app.services.store.email_tokens().set_email_confirmed(session.user.id, OffsetDateTime::now_utc()).await.unwrap();
    }
    Person { session: session.token, csrf: session.csrf_token, user: session.user.id }
}

/// Makes an account `age` old.
pub(crate) async fn set_account_age(app: &TestApp, user: UserId, age: time::Duration) {
    let db = app.services.store.connection();
    let created = OffsetDateTime::now_utc() - age;
    db.execute_raw(Statement::from_sql_and_values(
        db.get_database_backend(),
        if db.get_database_backend() == sea_orm::DatabaseBackend::Postgres {
            "UPDATE users SET created_at = $1 WHERE id = $2"
        } else {
            "UPDATE users SET created_at = ? WHERE id = ?"
        },
        [created.into(), user.get().into()],
    ))
    .await
    .unwrap();
}

/// Presses the upvote button of `slug` as the listing page's form sends it.
async fn press(app: &TestApp, who: &Person, slug: &str, action: &str) -> reqwest::Response {
    press_with(app, who, slug, action, &who.csrf, &[("Sec-Fetch-Site", "same-origin")]).await
}

async fn press_with(app: &TestApp, who: &Person, slug: &str, action: &str, csrf: &str, headers: &[(&str, &str)]) -> reqwest::Response {
    let mut request = no_redirects()
        .post(app.url(&format!("/listings/{slug}/vote")))
        .header("Cookie", format!("ld_session={}", who.session))
        .header("Content-Type", "application/x-www-form-urlencoded")
        .body(serde_urlencoded::to_string([("csrf", csrf), ("back", &format!("/listings/{slug}")), ("action", action)]).unwrap());
    for (name, value) in headers {
        request = request.header(*name, *value);
    }
    request.send().await.unwrap()
}

/// (votes rows, counted rows, `votes_count`) of a listing.
async fn tallies(app: &TestApp, listing: i64) -> (i64, i64, i64) {
    let db = app.services.store.connection();
    let one = |sql: String| async move {
        let row = db.query_one_raw(Statement::from_string(db.get_database_backend(), sql)).await.unwrap().unwrap();
        row.try_get_by_index::<i64>(0).unwrap()
    };
    (
        one(format!("SELECT COUNT(*) FROM votes WHERE listing_id = {listing}")).await,
        one(format!("SELECT COUNT(*) FROM votes WHERE listing_id = {listing} AND counted")).await,
        one(format!("SELECT votes_count FROM listings WHERE id = {listing}")).await,
    )
}

#[tokio::test]
async fn fifty_presses_at_once_make_one_vote_per_person_and_the_count_matches_the_votes() {
    let app = app_with_min_age(0).await;
    let listing = live_listing(&app, "crowded").await;
    let mut people = Vec::new();
    for n in 0..25 {
        people.push(person(&app, n, true, time::Duration::days(30)).await);
    }
    // Everyone presses twice at once (a double click): 50 requests, 25 votes.
    let presses = people.iter().flat_map(|who| [press(&app, who, "crowded", "vote"), press(&app, who, "crowded", "vote")]);
    for reply in join_all(presses).await {
        assert_eq!(reply.status(), 303);
        assert_eq!(reply.headers()["location"], "/listings/crowded");
    }
    assert_eq!(tallies(&app, listing).await, (25, 25, 25));
    let listing_view = app.get("/api/v1/listings/crowded").await;
    assert_eq!(listing_view.body["votes"], 25);
    // Withdrawals and votes race: whatever each person ends with, the count equals the rows.
    let mixed = people.iter().enumerate().flat_map(|(n, who)| {
        let (first, second) = if n % 2 == 0 { ("withdraw", "vote") } else { ("withdraw", "withdraw") };
        [press(&app, who, "crowded", first), press(&app, who, "crowded", second)]
    });
    join_all(mixed).await;
    let (rows, counted, count) = tallies(&app, listing).await;
    assert_eq!((rows, counted), (count, count), "votes_count follows the votes table");
    assert!(count <= 13, "the odd half withdrew: {count}");
}

#[tokio::test]
async fn young_accounts_vote_without_counting_in_rankings_and_the_site_team_can_discount() {
    let app = app_with_min_age(24).await;
    let listing = live_listing(&app, "contested").await;
    let old = person(&app, 0, true, time::Duration::days(30)).await;
    let young = person(&app, 1, true, time::Duration::hours(2)).await;
    assert_eq!(press(&app, &old, "contested", "vote").await.status(), 303);
    assert_eq!(press(&app, &young, "contested", "vote").await.status(), 303);
    assert_eq!(tallies(&app, listing).await, (2, 1, 1), "both kept, one counted");
    assert_eq!(app.get("/api/v1/listings/contested").await.body["votes"], 1);
    // The week's ranking is kept a second (docs/api.md, Freshness).
    let week_ttl = listings::calendar::CURRENT_WEEK_TTL.unsigned_abs();
    // The listing is on the board from its launch, with 0 votes until the ranking is redone.
    eventually(week_ttl, "the counted vote on the weekly board", || async {
        app.get("/api/v1/leaderboards/community-weekly").await.body["items"][0]["metric"]["value"] == 1
    })
    .await;
    eventually(week_ttl, "the counted vote on the week's page", || async {
        app.get("/api/v1/launches/weeks/this").await.body["items"][0]["votes_in_week"] == 1
    })
    .await;
    // Only the counted vote counts, however long one waits.
    tokio::time::sleep(week_ttl * 2).await;
    let weekly = app.get("/api/v1/leaderboards/community-weekly").await.body;
    assert_eq!(weekly["items"][0]["metric"]["value"], 1, "the weekly board counts counted votes: {weekly:#}");
    assert_eq!(app.get("/api/v1/launches/weeks/this").await.body["items"][0]["votes_in_week"], 1);
    // The young account's vote is listed for the site team, who can also discount a vote.
    let suspicious = app.services.app.listings.votes.suspicious(7, 5, time::Duration::minutes(10)).await.unwrap();
    assert_eq!(suspicious.iter().map(|vote| vote.user).collect::<Vec<_>>(), [young.user]);
    let counted_vote: i64 = {
        let db = app.services.store.connection();
        let sql = format!("SELECT id FROM votes WHERE listing_id = {listing} AND counted");
        db.query_one_raw(Statement::from_string(db.get_database_backend(), sql)).await.unwrap().unwrap().try_get_by_index(0).unwrap()
    };
    assert!(app.services.app.listings.votes.discount(counted_vote).await.unwrap());
    assert!(!app.services.app.listings.votes.discount(counted_vote).await.unwrap(), "once");
    assert_eq!(tallies(&app, listing).await, (2, 0, 0));
    assert_eq!(app.get("/api/v1/listings/contested").await.body["votes"], 0);
}

#[tokio::test]
async fn get_listing_charts_counted_votes_per_week_with_the_first_and_last_vote_and_names_no_voter() {
    let app = app_with_min_age(24).await;
    let listing = live_listing(&app, "charted").await;
    let db = app.services.store.connection();
    let now = OffsetDateTime::now_utc();
    let this_week = Week::containing(now.date());
    // Two votes three weeks back, one last week (cast before today's votes).
    let three_back = this_week.plus_weeks(-3).starts_at(time::UtcOffset::UTC) + time::Duration::hours(5);
    let last_week = this_week.plus_weeks(-1).starts_at(time::UtcOffset::UTC) + time::Duration::hours(30);
    for (n, at) in [three_back, three_back + time::Duration::hours(1), last_week].into_iter().enumerate() {
        let voter = fixtures::user(db, &format!("earlier{n}@example.com")).await;
        fixtures::vote(db, listing, voter, at).await;
    }
    // This week: one counted vote from the page, one kept but not counted (a young account).
    let old = person(&app, 0, true, time::Duration::days(30)).await;
    let young = person(&app, 1, true, time::Duration::hours(1)).await;
    assert_eq!(press(&app, &old, "charted", "vote").await.status(), 303);
    assert_eq!(press(&app, &young, "charted", "vote").await.status(), 303);

    let view = app.get("/api/v1/listings/charted").await.body;
    let weeks: Vec<(String, u64)> = view["votes_by_week"]
        .as_array()
        .unwrap()
        .iter()
        .map(|week| (week["week"].as_str().unwrap().to_owned(), week["votes"].as_u64().unwrap()))
        .collect();
    assert_eq!(
        weeks,
        [(this_week.to_string(), 1), (this_week.plus_weeks(-1).to_string(), 1), (this_week.plus_weeks(-3).to_string(), 2)],
        "newest first, counted votes only, empty weeks left out"
    );
    assert_eq!(parse_at(&view["first_vote_at"]), three_back.unix_timestamp());
    assert!(
        parse_at(&view["last_vote_at"]) >= (now - time::Duration::minutes(1)).unix_timestamp(),
        "the page's vote is the last counted one"
    );
    let text = view.to_string();
    assert!(!text.contains("voter0-") && !text.contains("earlier0@"), "no voter is named");

    // Withdrawing this week's counted vote takes the week off the chart.
    assert_eq!(press(&app, &old, "charted", "withdraw").await.status(), 303);
    let view = app.get("/api/v1/listings/charted").await.body;
    assert_eq!(view["votes_by_week"][0]["week"], this_week.plus_weeks(-1).to_string());
    assert_eq!(parse_at(&view["last_vote_at"]), last_week.unix_timestamp());
    // A listing without votes has an empty chart.
    live_listing(&app, "quiet").await;
    let quiet = app.get("/api/v1/listings/quiet").await.body;
    assert_eq!((quiet["votes_by_week"].as_array().unwrap().len(), &quiet["first_vote_at"]), (0, &serde_json::Value::Null));
}

fn parse_at(value: &serde_json::Value) -> i64 {
    OffsetDateTime::parse(value.as_str().unwrap(), &time::format_description::well_known::Rfc3339).unwrap().unix_timestamp()
}

#[tokio::test]
async fn a_vote_needs_the_forms_token_this_sites_origin_and_a_signed_in_person() {
    let app = app_with_min_age(0).await;
    let listing = live_listing(&app, "guarded").await;
    let who = person(&app, 0, true, time::Duration::days(30)).await;
    let refused = [
        press_with(&app, &who, "guarded", "vote", "wrong-token", &[("Sec-Fetch-Site", "same-origin")]).await,
        press_with(&app, &who, "guarded", "vote", "", &[]).await,
        press_with(&app, &who, "guarded", "vote", &who.csrf, &[("Sec-Fetch-Site", "cross-site")]).await,
        press_with(&app, &who, "guarded", "vote", &who.csrf, &[("Origin", "https://evil.example")]).await,
    ];
    for reply in refused {
        assert_eq!(reply.status(), 403);
        assert!(reply.text().await.unwrap().contains("The form expired or came from another site"));
    }
    assert_eq!(tallies(&app, listing).await, (0, 0, 0), "nothing was written");
    let anonymous = no_redirects()
        .post(app.url("/listings/guarded/vote"))
        .header("Content-Type", "application/x-www-form-urlencoded")
        .body("back=%2Flistings%2Fguarded&action=vote")
        .send()
        .await
        .unwrap();
    assert_eq!(anonymous.status(), 303);
    assert_eq!(anonymous.headers()["location"], "/signin?next=%2Flistings%2Fguarded");
    // Only live listings take votes.
    let now = OffsetDateTime::now_utc();
    fixtures::listing(app.services.store.connection(), "later", "scheduled", Week::containing(now.date()).plus_weeks(3), now).await;
    assert_eq!(press(&app, &who, "later", "vote").await.status(), 404);
    // The same origin in `Origin` alone (a browser without Sec-Fetch-Site) is accepted.
    let site = app.get("/api/v1/site").await.body["site_url"].as_str().unwrap().to_owned();
    assert_eq!(press_with(&app, &who, "guarded", "vote", &who.csrf, &[("Origin", &site)]).await.status(), 303);
    assert_eq!(tallies(&app, listing).await, (1, 1, 1));
}

#[tokio::test]
async fn an_unconfirmed_account_is_asked_to_confirm_and_the_link_in_the_outbox_confirms_it_once() {
    let app = app_with_min_age(0).await;
    let listing = live_listing(&app, "patient").await;
    let who = person(&app, 0, false, time::Duration::days(30)).await;
    let reply = press(&app, &who, "patient", "vote").await;
    assert_eq!(reply.status(), 403);
    let page = reply.text().await.unwrap();
    assert!(page.contains("Confirm your e-mail address first") && page.contains("Send me a new link"), "{page}");
    assert_eq!(tallies(&app, listing).await, (0, 0, 0));
    // Asking for a link puts one in the outbox; the link's page confirms with one button.
    let resend = no_redirects()
        .post(app.url("/account/confirm/resend"))
        .header("Cookie", format!("ld_session={}", who.session))
        .header("Sec-Fetch-Site", "same-origin")
        .header("Content-Type", "application/x-www-form-urlencoded")
        .body(serde_urlencoded::to_string([("csrf", who.csrf.as_str())]).unwrap())
        .send()
        .await
        .unwrap();
    assert_eq!(resend.status(), 200);
    let outbox = app.services.store.outbox(10).await.unwrap();
    let mail = outbox.iter().find(|mail| mail.kind == "confirm_email").expect("a confirmation e-mail");
    let link = mail.body.split_whitespace().find(|word| word.contains("/account/confirm?token=")).unwrap();
    let token = link.split("token=").nth(1).unwrap();
    let stored = app.services.store.connection();
    let hashes = stored
        .query_all_raw(Statement::from_string(stored.get_database_backend(), "SELECT token_hash FROM email_tokens".to_owned()))
        .await
        .unwrap();
    assert!(hashes.iter().all(|row| row.try_get_by_index::<String>(0).unwrap() != token), "the token is stored hashed");
    let path = link.replace("https://launch.example", "");
    let shown = app.client.get(app.url(&path)).send().await.unwrap().text().await.unwrap();
    assert!(shown.contains("Confirm my e-mail address"), "opening the link changes nothing by itself");
    let client = no_redirects();
    let first = post_form(&client, app.url("/account/confirm"), &[("token", token)]).await;
    assert_eq!(first.status(), 200);
    assert!(first.text().await.unwrap().contains("is confirmed"));
    assert_eq!(post_form(&client, app.url("/account/confirm"), &[("token", token)]).await.status(), 400, "a link works once");
    assert_eq!(press(&app, &who, "patient", "vote").await.status(), 303);
    assert_eq!(tallies(&app, listing).await, (1, 1, 1));
}

#[tokio::test]
async fn the_pages_script_gets_the_new_state_as_json_and_runs_under_a_strict_policy() {
    let app = app_with_min_age(0).await;
    live_listing(&app, "scripted").await;
    let who = person(&app, 0, true, time::Duration::days(30)).await;
    let voted =
        press_with(&app, &who, "scripted", "vote", &who.csrf, &[("Sec-Fetch-Site", "same-origin"), ("Accept", "application/json")]).await;
    assert_eq!(voted.status(), 200);
    assert_eq!(voted.json::<serde_json::Value>().await.unwrap(), serde_json::json!({"voted": true, "votes": 1, "counted": true}));
    let refused =
        press_with(&app, &who, "scripted", "vote", "stale", &[("Sec-Fetch-Site", "same-origin"), ("Accept", "application/json")]).await;
    assert_eq!(refused.status(), 403, "a refusal stays a page, which the script then shows");

    let page = no_redirects().get(app.url("/listings/scripted")).send().await.unwrap();
    let policy = page.headers()["content-security-policy"].to_str().unwrap().to_owned();
    assert!(policy.contains("script-src 'self'") && !policy.contains("unsafe-inline") && !policy.contains("unsafe-eval"), "{policy}");
    assert!(page.text().await.unwrap().contains(r#"<script src="/assets/site.js" defer></script>"#));
    let script = no_redirects().get(app.url("/assets/site.js")).send().await.unwrap();
    assert_eq!(script.headers()["content-type"], "text/javascript; charset=utf-8");
    assert!(script.text().await.unwrap().contains("form.votes"));
}
