//! Reviews and follows on a listing's page: one review per person per listing, edited and
//! deleted through the same form; only genuine reviews make the community rating; the site team
//! hides a review; bad input comes back beside its field with nothing saved; following needs a
//! confirmed address; every form needs its token and counts against the `review` limit. Reviews
//! follow votes: a young account's review is shown but counts only once the account is old
//! enough, reviews from one network share the `review_network` limit, and the site team's
//! review page lists bursts from one network.

use crate::helpers::{TestApp, spawn_empty_app_with};
use crate::orders::no_redirects;
use crate::vote_bursts::member;
use crate::votes::{Person, live_listing, person, set_account_age};
use sea_orm::{ConnectionTrait, Statement};
use serde_json::json;
use store_seaorm::testing::fixtures;

const MONTH: time::Duration = time::Duration::days(30);

async fn app() -> TestApp {
    spawn_empty_app_with(|settings| {
        settings.vote_min_account_age_hours = 0;
        settings.rate_limits.review = "5/hour".into();
    })
    .await
}

/// Sends a listing page's form as a browser on this site would.
pub(crate) async fn send(app: &TestApp, who: &Person, path: &str, fields: &[(&str, &str)]) -> reqwest::Response {
    send_from(app, who, None, path, fields).await
}

/// The same, from `client` when given (through the trusted proxy the test plays: the app must
/// trust 127.0.0.1).
async fn send_from(app: &TestApp, who: &Person, client: Option<&str>, path: &str, fields: &[(&str, &str)]) -> reqwest::Response {
    let mut fields = fields.to_vec();
    fields.push(("csrf", &who.csrf));
    let mut request = no_redirects()
        .post(app.url(path))
        .header("Cookie", format!("ld_session={}", who.session))
        .header("Sec-Fetch-Site", "same-origin")
        .header("Content-Type", "application/x-www-form-urlencoded")
        .body(serde_urlencoded::to_string(&fields).unwrap());
    if let Some(client) = client {
        request = request.header("X-Forwarded-For", client);
    }
    request.send().await.unwrap()
}

pub(crate) async fn page_of(app: &TestApp, who: &Person, slug: &str) -> String {
    no_redirects()
        .get(app.url(&format!("/listings/{slug}")))
        .header("Cookie", format!("ld_session={}", who.session))
        .send()
        .await
        .unwrap()
        .text()
        .await
        .unwrap()
}

pub(crate) async fn count(app: &TestApp, sql: &str) -> i64 {
    let db = app.services.store.connection();
    let row = db.query_one_raw(Statement::from_string(db.get_database_backend(), sql.to_owned())).await.unwrap().unwrap();
    row.try_get_by_index(0).unwrap()
}

#[tokio::test]
async fn one_review_per_person_edited_and_deleted_and_only_genuine_ones_make_the_rating() {
    let app = app().await;
    let listing = live_listing(&app, "rated").await;
    let (alice, bob, unconfirmed, owner) = (
        person(&app, 0, true, MONTH).await,
        person(&app, 1, true, MONTH).await,
        person(&app, 2, false, MONTH).await,
        person(&app, 3, true, MONTH).await,
    );
    fixtures::set_owner(app.services.store.connection(), listing, owner.user.get()).await;

    let written =
        send(&app, &alice, "/listings/rated/review", &[("rating", "4"), ("body", "Does what it says."), ("action", "save")]).await;
    assert_eq!(written.status(), 303);
    assert_eq!(written.headers()["location"], "/listings/rated#reviews");
    let rating = app.get("/api/v1/listings/rated").await.body["community_rating"].clone();
    assert_eq!((rating["average"].as_f64(), &rating["count"]), (Some(4.0), &serde_json::json!(1)));

    // Writing again edits the one review.
    send(&app, &alice, "/listings/rated/review", &[("rating", "2"), ("body", "Slower than I thought."), ("action", "save")]).await;
    assert_eq!(count(&app, &format!("SELECT COUNT(*) FROM reviews WHERE listing_id = {listing}")).await, 1);
    let page = page_of(&app, &alice, "rated").await;
    assert!(page.contains("Slower than I thought.") && page.contains("edited") && page.contains("Save my review"), "{page}");
    assert!(!page.contains("Does what it says."));

    // An unconfirmed person's and the owner's reviews are shown but do not count.
    for who in [&bob, &unconfirmed, &owner] {
        let stars = if who.user == bob.user { "5" } else { "1" };
        assert_eq!(
            send(&app, who, "/listings/rated/review", &[("rating", stars), ("body", "My view."), ("action", "save")]).await.status(),
            303
        );
    }
    let rating = app.get("/api/v1/listings/rated").await.body["community_rating"].clone();
    assert_eq!((rating["average"].as_f64(), &rating["count"]), (Some(3.5), &serde_json::json!(2)), "alice's 2 and bob's 5: {rating}");
    let page = page_of(&app, &bob, "rated").await;
    assert_eq!(page.matches("not counted in the rating").count(), 2, "the unconfirmed and the owner's reviews are marked");
    assert!(!page.contains("@example.com"), "no e-mail address is shown");

    // The site team hides bob's review: gone from the rating and from others' pages; bob is told.
    let recent = app.services.app.listings.reviews.recent(10).await.unwrap();
    let bobs = recent.iter().find(|(_, review)| review.rating == 5).unwrap().1.id;
    assert_eq!(app.services.app.listings.reviews.set_hidden(bobs, true).await.unwrap(), Some(true));
    assert_eq!(app.services.app.listings.reviews.set_hidden(bobs, true).await.unwrap(), Some(false), "hidden already: nothing changes");
    let rating = app.get("/api/v1/listings/rated").await.body["community_rating"].clone();
    assert_eq!((rating["average"].as_f64(), &rating["count"]), (Some(2.0), &serde_json::json!(1)));
    assert!(page_of(&app, &bob, "rated").await.contains("The site team hid your review"));
    assert_eq!(page_of(&app, &alice, "rated").await.matches("My view.").count(), 2, "bob's is no longer shown to alice");

    // Alice deletes hers: no genuine review is left.
    assert_eq!(send(&app, &alice, "/listings/rated/review", &[("action", "delete")]).await.status(), 303);
    let rating = app.get("/api/v1/listings/rated").await.body["community_rating"].clone();
    assert_eq!((&rating["average"], &rating["count"]), (&serde_json::Value::Null, &serde_json::json!(0)));
    assert!(page_of(&app, &alice, "rated").await.contains("Publish my review"));
}

#[tokio::test]
async fn a_review_without_stars_or_words_comes_back_beside_its_fields_and_nothing_is_saved() {
    let app = app().await;
    let listing = live_listing(&app, "picky").await;
    let alice = person(&app, 0, true, MONTH).await;
    let reply = send(&app, &alice, "/listings/picky/review", &[("rating", "9"), ("body", "   "), ("action", "save")]).await;
    assert_eq!(reply.status(), 400);
    let page = reply.text().await.unwrap();
    assert!(page.contains(r#"aria-describedby="rating-error""#) && page.contains("choose a rating from 1 to 5 stars"), "{page}");
    assert!(page.contains(r#"aria-describedby="body-error""#) && page.contains("write a few words about it"));
    let long = "x".repeat(2001);
    let reply = send(&app, &alice, "/listings/picky/review", &[("rating", "3"), ("body", &long), ("action", "save")]).await;
    assert_eq!(reply.status(), 400);
    let page = reply.text().await.unwrap();
    assert!(page.contains("at most 2,000 characters") && page.contains(r#"value="3" checked"#), "what was sent is kept");
    // The page's other forms still return to the listing, not to the address the review went to.
    assert!(page.contains(r#"name="back" value="/listings/picky""#) && !page.contains(r#"value="/listings/picky/review""#), "{page}");
    assert_eq!(count(&app, &format!("SELECT COUNT(*) FROM reviews WHERE listing_id = {listing}")).await, 0);
}

#[tokio::test]
async fn following_needs_a_confirmed_address_and_the_forms_token_and_reviews_are_rate_limited() {
    let app = app().await;
    let listing = live_listing(&app, "followed").await;
    let (alice, unconfirmed) = (person(&app, 0, true, MONTH).await, person(&app, 1, false, MONTH).await);

    let followed = send(&app, &alice, "/listings/followed/follow", &[("back", "/listings/followed"), ("action", "follow")]).await;
    assert_eq!(followed.status(), 303);
    send(&app, &alice, "/listings/followed/follow", &[("back", "/listings/followed"), ("action", "follow")]).await;
    assert_eq!(app.get("/api/v1/listings/followed").await.body["followers"], 1, "a second follow changes nothing");
    assert!(page_of(&app, &alice, "followed").await.contains(r#"aria-pressed="true">Following FOLLOWED"#));

    let refused = send(&app, &unconfirmed, "/listings/followed/follow", &[("action", "follow")]).await;
    assert_eq!(refused.status(), 403);
    assert!(refused.text().await.unwrap().contains("Confirm your e-mail address first"));

    // Another site's form, or a stale token: refused, nothing changes.
    let forged = no_redirects()
        .post(app.url("/listings/followed/follow"))
        .header("Cookie", format!("ld_session={}", alice.session))
        .header("Sec-Fetch-Site", "cross-site")
        .header("Content-Type", "application/x-www-form-urlencoded")
        .body(format!("csrf={}&action=unfollow", alice.csrf))
        .send()
        .await
        .unwrap();
    assert_eq!(forged.status(), 403);
    let mut stale = Person { session: alice.session.clone(), csrf: "not-the-token".into(), user: alice.user };
    assert_eq!(send(&app, &stale, "/listings/followed/review", &[("rating", "5"), ("body", "Hi"), ("action", "save")]).await.status(), 403);
    stale.csrf = alice.csrf.clone();
    assert_eq!(count(&app, &format!("SELECT COUNT(*) FROM listing_follows WHERE listing_id = {listing}")).await, 1);
    assert_eq!(count(&app, &format!("SELECT COUNT(*) FROM reviews WHERE listing_id = {listing}")).await, 0);

    assert_eq!(send(&app, &stale, "/listings/followed/follow", &[("action", "unfollow")]).await.status(), 303);
    assert_eq!(app.get("/api/v1/listings/followed").await.body["followers"], 0);

    // Five changes an hour (this test's limit): alice has used three; the sixth is refused.
    for _ in 0..2 {
        assert_eq!(
            send(&app, &alice, "/listings/followed/review", &[("rating", "5"), ("body", "Hi"), ("action", "save")]).await.status(),
            303
        );
    }
    let limited = send(&app, &alice, "/listings/followed/review", &[("rating", "4"), ("body", "Hi"), ("action", "save")]).await;
    assert_eq!(limited.status(), 429);
    assert!(limited.headers().contains_key("retry-after"));
}

/// `get_listing`'s community rating of `slug`.
async fn rating_of(app: &TestApp, slug: &str) -> serde_json::Value {
    app.get(&format!("/api/v1/listings/{slug}")).await.body["community_rating"].clone()
}

#[tokio::test]
async fn a_young_accounts_review_is_shown_at_once_and_counts_in_the_rating_once_the_account_is_old_enough() {
    // The default: an account counts once it is 24 hours old, for votes and reviews alike.
    let app = spawn_empty_app_with(|settings| settings.vote_min_account_age_hours = 24).await;
    live_listing(&app, "newcomers").await;
    let old = person(&app, 0, true, MONTH).await;
    let young = person(&app, 1, true, time::Duration::hours(2)).await;
    for (who, stars, words) in [(&old, "5", "Five stars from an old hand."), (&young, "1", "One star from a new account.")] {
        let sent = send(&app, who, "/listings/newcomers/review", &[("rating", stars), ("body", words), ("action", "save")]).await;
        assert_eq!(sent.status(), 303);
    }
    assert_eq!(
        rating_of(&app, "newcomers").await,
        json!({"average": 5.0, "count": 1, "distribution": [0, 0, 0, 0, 1]}),
        "the young account's review does not count"
    );
    let page = page_of(&app, &old, "newcomers").await;
    assert!(page.contains("One star from a new account."), "it is shown");
    assert_eq!(page.matches("not counted in the rating").count(), 1, "marked as not counted");

    // 23 hours old: not yet.
    set_account_age(&app, young.user, time::Duration::hours(23)).await;
    assert_eq!(rating_of(&app, "newcomers").await["count"], 1);
    // Old enough: it counts from the next read, though nobody wrote anything.
    set_account_age(&app, young.user, time::Duration::hours(24) + time::Duration::minutes(1)).await;
    assert_eq!(rating_of(&app, "newcomers").await, json!({"average": 3.0, "count": 2, "distribution": [1, 0, 0, 0, 1]}));
    assert_eq!(page_of(&app, &old, "newcomers").await.matches("not counted in the rating").count(), 0);
    let recent = app.services.app.listings.reviews.recent(10).await.unwrap();
    assert!(recent.iter().all(|(_, review)| review.genuine), "the site team sees both counted");
}

#[tokio::test]
async fn thirty_five_fresh_accounts_from_one_address_leave_the_rating_alone_and_are_listed_as_a_burst() {
    // The defaults a deployment runs with (accounts count after 24 hours, limits on), but for
    // the per-network limit (10 an hour), raised so that all 35 get through: what the age rule
    // and the burst list do on their own.
    let app = spawn_empty_app_with(|settings| settings.rate_limits.review_network = "100/hour".into()).await;
    live_listing(&app, "targeted").await;
    let mut fresh = Vec::new();
    for n in 0..35 {
        fresh.push(member(&app, n, time::Duration::minutes(5)).await);
    }
    for who in &fresh {
        let sent = send(&app, who, "/listings/targeted/review", &[("rating", "1"), ("body", "Terrible."), ("action", "save")]).await;
        assert_eq!(sent.status(), 303, "each review is taken as usual");
    }
    let rating = rating_of(&app, "targeted").await;
    assert_eq!((&rating["average"], &rating["count"]), (&serde_json::Value::Null, &json!(0)), "no fresh account's review counts: {rating}");
    let (admin, _) = crate::admin::someone(&app, "admin", true).await;
    let page = page_of(&app, &admin, "targeted").await;
    assert_eq!(page.matches("not counted in the rating").count(), 35, "all 35 are shown, marked");

    // The site team's review page lists the burst first, with the network it came from.
    let listed = app.services.app.listings.reviews.bursts(1, 5, time::Duration::minutes(10)).await.unwrap();
    assert_eq!(listed.len(), 35, "every review of the burst is listed");
    assert!(listed.iter().all(|record| record.network.as_deref() == Some("127.0.0.1") && !record.review.genuine));
    let moderation = crate::admin::get(&app, Some(&admin), "/admin/reviews").await;
    assert_eq!(moderation.status(), 200);
    let moderation = moderation.text().await.unwrap();
    assert_eq!(moderation.matches("in a burst from one network").count(), 25, "the list's first page is the burst: {moderation}");
    assert!(moderation.contains("127.0.0.1"));
    let searched = crate::admin::get(&app, Some(&admin), "/admin/reviews?q=127.0.0.1&page=2").await.text().await.unwrap();
    assert_eq!(searched.matches("in a burst from one network").count(), 10, "searchable by network");

    // A day later the accounts are old enough and would count (a 1.0 rating) until the site
    // team hides the burst.
    for who in &fresh {
        set_account_age(&app, who.user, time::Duration::days(2)).await;
    }
    let rating = rating_of(&app, "targeted").await;
    assert_eq!((&rating["average"], &rating["count"]), (&json!(1.0), &json!(35)));
    for record in &listed {
        assert_eq!(app.services.app.listings.reviews.set_hidden(record.review.id, true).await.unwrap(), Some(true));
    }
    assert_eq!(rating_of(&app, "targeted").await["count"], 0);
}

#[tokio::test]
async fn reviews_from_one_network_share_the_review_network_limit_and_keep_their_network() {
    let app = spawn_empty_app_with(|settings| {
        settings.vote_min_account_age_hours = 0;
        settings.rate_limits.review_network = "3/hour".into();
        // The test speaks as several clients through `X-Forwarded-For`, as a proxy would.
        settings.trusted_proxies = vec!["127.0.0.1".into()];
    })
    .await;
    let listing = live_listing(&app, "office").await;
    let mut office = Vec::new();
    for n in 0..4 {
        office.push(member(&app, n, MONTH).await);
    }
    let review = [("rating", "4"), ("body", "Useful."), ("action", "save")];
    for who in &office[..3] {
        assert_eq!(send_from(&app, who, Some("198.51.100.7"), "/listings/office/review", &review).await.status(), 303);
    }
    // A fourth account behind the same address waits, though its own `review` budget is whole.
    let limited = send_from(&app, &office[3], Some("198.51.100.7"), "/listings/office/review", &review).await;
    assert_eq!(limited.status(), 429);
    assert!(limited.headers().contains_key("retry-after"));
    assert!(limited.text().await.unwrap().contains("Many reviews came from your network"));
    assert_eq!(count(&app, &format!("SELECT COUNT(*) FROM reviews WHERE listing_id = {listing}")).await, 3, "nothing saved");
    // Another network has a budget of its own; following is not a review.
    assert_eq!(send_from(&app, &office[3], Some("203.0.113.9"), "/listings/office/review", &review).await.status(), 303);
    let follow = [("back", "/listings/office"), ("action", "follow")];
    assert_eq!(send_from(&app, &office[0], Some("198.51.100.7"), "/listings/office/follow", &follow).await.status(), 303);
    // Each review keeps the network it came from.
    let from = |network: &str| format!("SELECT COUNT(*) FROM reviews WHERE listing_id = {listing} AND client_network = '{network}'");
    assert_eq!((count(&app, &from("198.51.100.7")).await, count(&app, &from("203.0.113.9")).await), (3, 1));
}
