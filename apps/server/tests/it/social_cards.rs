//! Social cards: every listing, week and founder page names a PNG card (`og:image`) drawn by
//! the server with what the page says, kept in the media store, and drawn anew (at a new
//! address) when what it shows changes.

use crate::helpers::{TestApp, spawn_empty_app};
use kernel::Week;
use reqwest::header::{CACHE_CONTROL, CONTENT_TYPE, ETAG, IF_NONE_MATCH};
use serde_json::json;
use store_seaorm::testing::fixtures;
use time::OffsetDateTime;

const SITE: &str = "https://launch.example";

/// The page's `og:image` address, from the site's root, after checking the card's other tags.
async fn card_of(app: &TestApp, page: &str) -> String {
    let html = app.client.get(app.url(page)).send().await.unwrap().text().await.unwrap();
    let content = |property: &str| {
        let tag = format!(r#"property="{property}" content=""#);
        let at = html.find(&tag).unwrap_or_else(|| panic!("{page} has no {property}")) + tag.len();
        html[at..at + html[at..].find('"').unwrap()].to_owned()
    };
    assert_eq!(content("og:image:width"), "1200");
    assert_eq!(content("og:image:height"), "630");
    assert!(!content("og:image:alt").is_empty());
    assert!(html.contains(r#"<meta name="twitter:card" content="summary_large_image">"#), "{page}");
    let url = content("og:image");
    assert!(url.starts_with(SITE), "{url}");
    url.trim_start_matches(SITE).to_owned()
}

/// Fetches a card and checks it is a 1200 × 630 PNG; answers its `ETag`.
async fn fetch_card(app: &TestApp, path: &str) -> String {
    let response = app.client.get(app.url(path)).send().await.unwrap();
    assert_eq!(response.status(), 200, "{path}");
    assert_eq!(response.headers()[CONTENT_TYPE], "image/png");
    assert_eq!(response.headers()[CACHE_CONTROL], "public, max-age=86400");
    let tag = response.headers()[ETAG].to_str().unwrap().to_owned();
    let bytes = response.bytes().await.unwrap();
    let picture = image::load_from_memory_with_format(&bytes, image::ImageFormat::Png).unwrap();
    assert_eq!((picture.width(), picture.height()), (1200, 630));
    tag
}

#[tokio::test]
async fn listing_week_and_founder_pages_name_a_card_drawn_and_kept_by_the_server() {
    let app = spawn_empty_app().await;
    let (key, id) = app.owned_live_listing("carded").await;
    let db = app.services.store.connection();
    let now = OffsetDateTime::now_utc();
    let week = Week::at(now, time::UtcOffset::UTC);
    fixtures::founder(db, id, "ada-lovelace", 0).await;
    fixtures::listing(db, "hidden", "draft", week, now).await;

    let card = card_of(&app, "/listings/carded").await;
    assert!(card.starts_with("/cards/listings/carded.png?v="), "{card}");
    let tag = fetch_card(&app, &card).await;
    let again = app.client.get(app.url(&card)).header(IF_NONE_MATCH, &tag).send().await.unwrap();
    assert_eq!(again.status(), 304, "a crawler that has the card is told so");
    // Kept under the name of what it says, so the media address serves the same card.
    let kept = format!("/media/{}", tag.trim_matches('"'));
    assert_eq!(app.client.get(app.url(&kept)).send().await.unwrap().status(), 200, "{kept}");

    // What the card shows changes, so its address does: networks fetch the new one.
    let voter = fixtures::user(db, "voter@example.com").await;
    fixtures::vote(db, id, voter, now).await;
    let edited = app
        .send(
            app.client
                .patch(app.url(&format!("/api/v1/me/listings/{id}")))
                .bearer_auth(&key)
                .json(&json!({"fields": {"tagline": "Cards for every launch"}})),
        )
        .await;
    assert_eq!(edited.status, 200, "{:#}", edited.body);
    let changed = card_of(&app, "/listings/carded").await;
    assert_ne!(changed, card, "a new tagline and a vote make a new card");
    assert_ne!(fetch_card(&app, &changed).await, tag);

    let week_card = card_of(&app, &format!("/launches/weeks/{week}")).await;
    assert!(week_card.starts_with(&format!("/cards/weeks/{week}.png?v=")), "{week_card}");
    fetch_card(&app, &week_card).await;
    let founder_card = card_of(&app, "/founders/ada-lovelace").await;
    assert!(founder_card.starts_with("/cards/founders/ada-lovelace.png?v="), "{founder_card}");
    fetch_card(&app, &founder_card).await;

    for missing in ["/cards/listings/nowhere.png", "/cards/listings/hidden.png", "/cards/listings/carded.jpg", "/cards/weeks/someday.png"] {
        assert_eq!(app.client.get(app.url(missing)).send().await.unwrap().status(), 404, "{missing}");
    }
}
