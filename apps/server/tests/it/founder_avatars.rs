//! `set_founder_avatar`: an owner gives a founder of their listing a picture (an image from
//! `upload_image`), which shows wherever the founder does; someone else's listing, a founder not
//! of the listing and an image we do not keep are refused, and nothing changes.

use crate::helpers::spawn_empty_app;
use base64::Engine;
use image::ImageEncoder;
use kernel::Week;
use serde_json::{Value, json};
use store_seaorm::testing::fixtures;
use time::OffsetDateTime;

fn portrait() -> String {
    let picture = image::RgbImage::from_fn(200, 200, |x, y| image::Rgb([(x % 256) as u8, 120, (y % 256) as u8]));
    let mut bytes = Vec::new();
    image::codecs::png::PngEncoder::new(&mut bytes).write_image(picture.as_raw(), 200, 200, image::ExtendedColorType::Rgb8).unwrap();
    base64::engine::general_purpose::STANDARD.encode(bytes)
}

#[tokio::test]
async fn an_owner_sets_a_founders_picture_that_shows_wherever_the_founder_does() {
    let app = spawn_empty_app().await;
    let (key, id) = app.owned_live_listing("faces").await;
    let (_, stranger) = app.api_key("").await;
    let db = app.services.store.connection();
    let now = OffsetDateTime::now_utc();
    let week = Week::at(now, time::UtcOffset::UTC);
    fixtures::founder(db, id, "ada-lovelace", 0).await;
    let other = fixtures::listing(db, "elsewhere", "live", week, now).await;
    fixtures::founder(db, other, "grace-hopper", 0).await;
    let uploaded = app.send(app.client.post(app.url("/api/v1/me/images")).bearer_auth(&key).json(&json!({ "data": portrait() }))).await;
    let image = uploaded.body["image"].as_str().unwrap().to_owned();
    let put = |listing: i64, founder: &str, token: &str, body: Value| {
        app.client.put(app.url(&format!("/api/v1/me/listings/{listing}/founders/{founder}/avatar"))).bearer_auth(token).json(&body)
    };

    // Refused, and nothing changes: each names what was wrong.
    app.send(put(id, "ada-lovelace", &stranger, json!({ "avatar": image }))).await.assert_problem(404, "not_found");
    app.send(put(id, "grace-hopper", &key, json!({ "avatar": image }))).await.assert_problem(404, "not_found");
    app.send(put(id, "nobody", &key, json!({ "avatar": image }))).await.assert_problem(404, "not_found");
    let unknown = format!("{}.jpg:200x200", "ab".repeat(32));
    app.send(put(id, "ada-lovelace", &key, json!({ "avatar": unknown }))).await.assert_invalid(&["avatar"]);
    app.send(put(id, "ada-lovelace", &key, json!({ "avatar": "a face" }))).await.assert_invalid(&["avatar"]);
    let missing = app.send(put(id, "ada-lovelace", &key, json!({}))).await;
    assert_eq!(missing.status, 400, "an empty body removes nothing: {:#}", missing.body);
    assert_eq!(app.get("/api/v1/founders/ada-lovelace").await.body["avatar_url"], Value::Null);

    let set = app.send(put(id, "ada-lovelace", &key, json!({ "avatar": image }))).await;
    assert_eq!(set.status, 200, "{:#}", set.body);
    assert_eq!((set.body["listing_id"].as_i64(), set.body["founder"].as_str()), (Some(id), Some("ada-lovelace")));
    assert_eq!(set.body["avatar"]["image"], Value::String(image.clone()));
    let url = format!("https://launch.example/media/{}-full.jpg", &image[..64]);
    let founder = app.get("/api/v1/founders/ada-lovelace").await.body;
    assert_eq!(founder["avatar_url"], Value::String(url.clone()));
    assert_eq!(founder["avatar"]["width"], 200);
    let listed = app.get("/api/v1/founders?q=ada").await.body;
    assert_eq!(listed["items"][0]["avatar_url"], Value::String(url));
    let listing = app.get("/api/v1/listings/faces").await.body;
    assert_eq!(listing["founders"][0]["avatar"]["image"], Value::String(image.clone()), "the listing's document moved on");
    assert_eq!(app.get("/api/v1/founders/grace-hopper").await.body["avatar_url"], Value::Null, "only that founder");

    let page = app.client.get(app.url("/founders/ada-lovelace")).send().await.unwrap().text().await.unwrap();
    assert!(page.contains(&format!(r#"<img class="avatar big" src="/media/{}-full.jpg""#, &image[..64])), "the founder's page shows it");
    let listing_page = app.client.get(app.url("/listings/faces")).send().await.unwrap().text().await.unwrap();
    assert!(listing_page.contains(&format!(r#"<img class="avatar tiny" src="/media/{}-64.jpg""#, &image[..64])), "and the listing's");
    let tiny = app.client.get(app.url(&format!("/media/{}-64.jpg", &image[..64]))).send().await.unwrap();
    assert_eq!(tiny.status(), 200, "the scaled copy the page names is served");

    let removed = app.send(put(id, "ada-lovelace", &key, json!({ "avatar": null }))).await;
    assert_eq!(removed.status, 200, "{:#}", removed.body);
    assert_eq!(removed.body["avatar"], Value::Null);
    assert_eq!(app.get("/api/v1/founders/ada-lovelace").await.body["avatar_url"], Value::Null);
    let page = app.client.get(app.url("/founders/ada-lovelace")).send().await.unwrap().text().await.unwrap();
    assert!(page.contains(r#"<span class="avatar big" aria-hidden="true">A</span>"#), "the initial comes back");
}
