//! Reviews and follows on a listing's page: one review per person per listing, edited and
//! deleted through the same form; only genuine reviews make the community rating; the site team
//! hides a review; bad input comes back beside its field with nothing saved; following needs a
//! confirmed address; every form needs its token and counts against the `review` limit.

use crate::helpers::{TestApp, spawn_empty_app_with};
use crate::orders::no_redirects;
use crate::votes::{Person, live_listing, person};
use sea_orm::{ConnectionTrait, Statement};
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
    let mut fields = fields.to_vec();
    fields.push(("csrf", &who.csrf));
    no_redirects()
        .post(app.url(path))
        .header("Cookie", format!("ld_session={}", who.session))
        .header("Sec-Fetch-Site", "same-origin")
        .header("Content-Type", "application/x-www-form-urlencoded")
        .body(serde_urlencoded::to_string(&fields).unwrap())
        .send()
        .await
        .unwrap()
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
    let recent = app.services.app.reviews.recent(10).await.unwrap();
    let bobs = recent.iter().find(|(_, review)| review.rating == 5).unwrap().1.id;
    assert_eq!(app.services.app.reviews.set_hidden(bobs, true).await.unwrap(), Some(true));
    assert_eq!(app.services.app.reviews.set_hidden(bobs, true).await.unwrap(), Some(false), "hidden already: nothing changes");
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
    assert!(page_of(&app, &alice, "followed").await.contains(r#"aria-pressed="true">Follow FOLLOWED"#));

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
