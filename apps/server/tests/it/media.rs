//! Images: `upload_image` over REST, the kept image and its scaled copies at `/media/...`, and
//! every kind of bad input refused with a 400 naming `data`, with nothing kept.

use crate::helpers::{TestApp, spawn_empty_app};
use base64::Engine;
use image::codecs::gif::GifEncoder;
use image::{Delay, Frame, ImageEncoder, Rgba, RgbaImage};
use serde_json::{Value, json};
use std::path::Path;

fn logo_png() -> Vec<u8> {
    let mut logo = RgbaImage::from_pixel(300, 200, Rgba([0, 0, 0, 0]));
    for (x, y, pixel) in logo.enumerate_pixels_mut() {
        if (x as i32 - 150).pow(2) + (y as i32 - 100).pow(2) < 90 * 90 {
            *pixel = Rgba([30, 90, 200, 255]);
        }
    }
    let mut bytes = Vec::new();
    image::codecs::png::PngEncoder::new(&mut bytes).write_image(logo.as_raw(), 300, 200, image::ExtendedColorType::Rgba8).unwrap();
    bytes
}

fn base64(bytes: &[u8]) -> String {
    base64::engine::general_purpose::STANDARD.encode(bytes)
}

async fn upload(app: &TestApp, key: &str, data: &str) -> crate::helpers::Reply {
    app.send(app.client.post(app.url("/api/v1/me/images")).bearer_auth(key).json(&json!({ "data": data }))).await
}

/// Every file under the server's media folder.
fn kept_files(app: &TestApp) -> Vec<String> {
    fn walk(dir: &Path, found: &mut Vec<String>) {
        let Ok(entries) = std::fs::read_dir(dir) else { return };
        for entry in entries.flatten() {
            let path = entry.path();
            if path.is_dir() { walk(&path, found) } else { found.push(path.display().to_string()) }
        }
    }
    let mut found = Vec::new();
    walk(&app.settings.data_dir.join("media"), &mut found);
    found
}

#[tokio::test]
async fn an_uploaded_image_is_kept_and_served_from_our_origin_with_its_scaled_copies() {
    let app = spawn_empty_app().await;
    let (_, key) = app.api_key("").await;
    let reply = upload(&app, &key, &base64(&logo_png())).await;
    assert_eq!(reply.status, 201, "{:#}", reply.body);
    let image = reply.body["image"].as_str().unwrap().to_owned();
    assert!(image.ends_with(".webp:300x200"), "a transparent logo is kept as lossless WebP: {image}");
    assert_eq!((reply.body["width"].as_u64(), reply.body["height"].as_u64()), (Some(300), Some(200)));
    assert_eq!(reply.body["content_type"], "image/webp");
    let url = reply.body["url"].as_str().unwrap();
    assert!(url.starts_with("https://launch.example/media/") && url.ends_with("-full.webp"), "{url}");
    let widths: Vec<u64> = reply.body["sizes"].as_array().unwrap().iter().map(|s| s["width"].as_u64().unwrap()).collect();
    assert_eq!(widths, vec![64, 128, 256]);

    let path = url.trim_start_matches("https://launch.example");
    let served = app.client.get(app.url(path)).send().await.unwrap();
    assert_eq!(served.status(), 200);
    let headers = served.headers().clone();
    assert_eq!(headers["content-type"], "image/webp");
    assert_eq!(headers["cache-control"], "public, max-age=31536000, immutable");
    assert_eq!(headers["x-content-type-options"], "nosniff");
    let etag = headers["etag"].to_str().unwrap().to_owned();
    assert!(etag.contains(&image[..64]), "{etag}");
    let picture = image::load_from_memory(&served.bytes().await.unwrap()).unwrap();
    assert_eq!((picture.width(), picture.height()), (300, 200));

    let again = app.client.get(app.url(path)).header("if-none-match", &etag).send().await.unwrap();
    assert_eq!(again.status(), 304, "a browser that has it is told so");

    // A scaled copy is there on its first request, whether or not its job has run.
    let scaled = app.client.get(app.url(&path.replace("-full.webp", "-128.webp"))).send().await.unwrap();
    assert_eq!(scaled.status(), 200);
    let picture = image::load_from_memory(&scaled.bytes().await.unwrap()).unwrap();
    assert_eq!((picture.width(), picture.height()), (128, 85));
    for missing in
        [path.replace("-full.webp", "-640.webp"), path.replace("-full.webp", "-100.webp"), format!("/media/{}-full.webp", "0".repeat(64))]
    {
        assert_eq!(app.client.get(app.url(&missing)).send().await.unwrap().status(), 404, "{missing}");
    }

    // The same picture again is the same image, and nothing new is written.
    let files = kept_files(&app);
    let twice = upload(&app, &key, &base64(&logo_png())).await;
    assert_eq!(twice.body["image"], Value::String(image));
    assert_eq!(kept_files(&app), files);
}

fn gif(frames: u32) -> Vec<u8> {
    let mut bytes = Vec::new();
    {
        let mut encoder = GifEncoder::new(&mut bytes);
        encoder
            .encode_frames((0..frames).map(|at| {
                Frame::from_parts(RgbaImage::from_pixel(4, 4, Rgba([(at % 250) as u8, 0, 0, 255])), 0, 0, Delay::from_numer_denom_ms(10, 1))
            }))
            .unwrap();
    }
    bytes
}

#[tokio::test]
async fn bad_images_are_refused_naming_the_field_and_nothing_is_kept() {
    let app = spawn_empty_app().await;
    let (_, key) = app.api_key("").await;
    let mut twelve_megabytes = logo_png();
    twelve_megabytes.resize(12 * 1024 * 1024, 0);
    let cases: Vec<(&str, String, &str)> = vec![
        ("a text file named .png", base64(b"meeting notes, saved as logo.png\n"), "is not an image we can read"),
        ("a 30,000 x 30,000 image", base64(&media_image::testing::png_bomb(30_000)), "is 30000 × 30000 pixels"),
        ("a 12 MB file", base64(&twelve_megabytes), "an image may have at most 10485760 bytes"),
        (
            "an SVG with a script and an external reference",
            base64(
                br#"<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script><image href="https://tracker.example/p.png"/></svg>"#,
            ),
            "is an SVG that",
        ),
        ("an animation of thousands of frames", base64(&gif(3000)), "has more than 100 frames"),
        ("not base64 at all", "!!! not base64 !!!".into(), "must be the image file in base64"),
    ];
    for (what, data, says) in cases {
        let reply = upload(&app, &key, &data).await;
        reply.assert_invalid(&["data"]);
        let message = reply.body["errors"][0]["message"].as_str().unwrap();
        assert!(message.contains(says), "{what}: {message}");
    }
    assert!(kept_files(&app).is_empty(), "nothing was kept: {:?}", kept_files(&app));
    upload(&app, &key, "").await.assert_invalid(&["data"]);

    let (_, read_only) = app.api_key("account:read").await;
    upload(&app, &read_only, &base64(&logo_png())).await.assert_problem(403, "insufficient_scope");
    let anonymous = app.send(app.client.post(app.url("/api/v1/me/images")).json(&json!({ "data": base64(&logo_png()) }))).await;
    assert_eq!(anonymous.status, 401);
    assert!(kept_files(&app).is_empty());
}

/// An opaque screenshot-like picture, `width` × `height`, as PNG.
fn screenshot_png(width: u32, height: u32) -> Vec<u8> {
    let shot = image::RgbImage::from_fn(width, height, |x, y| image::Rgb([(x % 200) as u8 + 40, (y % 120) as u8 + 60, 180]));
    let mut bytes = Vec::new();
    image::codecs::png::PngEncoder::new(&mut bytes).write_image(shot.as_raw(), width, height, image::ExtendedColorType::Rgb8).unwrap();
    bytes
}

#[tokio::test]
async fn an_owner_sets_a_logo_and_a_gallery_that_the_listing_its_cards_and_its_page_show() {
    use store_seaorm::testing::fixtures;
    let app = spawn_empty_app().await;
    let (key, id) = app.owned_live_listing("pictured").await;
    let (_, stranger) = app.api_key("").await;
    let db = app.services.store.connection();
    let logo = upload(&app, &key, &base64(&logo_png())).await.body["image"].as_str().unwrap().to_owned();
    let shot = upload(&app, &key, &base64(&screenshot_png(1400, 800))).await.body["image"].as_str().unwrap().to_owned();
    assert!(shot.ends_with(".jpg:1400x800"), "an opaque screenshot is kept as JPEG: {shot}");
    let edit = |body: Value| app.client.patch(app.url(&format!("/api/v1/me/listings/{id}"))).bearer_auth(&key).json(&body);

    // Bad pictures are refused, each naming its field, and nothing is written.
    let unknown = format!("{}.jpg:1400x800", "ab".repeat(32));
    let wrong_size = shot.replace(":1400x800", ":700x400");
    let too_many: Vec<Value> = (0..9).map(|_| json!({"image": shot, "alt": "A screen"})).collect();
    for (body, fields) in [
        (json!({"logo": "not-an-image"}), vec!["logo"]),
        (json!({"logo": unknown}), vec!["logo"]),
        (json!({"gallery": [{"image": wrong_size, "alt": "The board"}]}), vec!["gallery[0].image"]),
        (json!({"gallery": [{"image": shot, "alt": "  "}]}), vec!["gallery[0].alt"]),
        (
            json!({"gallery": too_many}),
            vec![
                "gallery",
                "gallery[1].image",
                "gallery[2].image",
                "gallery[3].image",
                "gallery[4].image",
                "gallery[5].image",
                "gallery[6].image",
                "gallery[7].image",
                "gallery[8].image",
            ],
        ),
    ] {
        app.send(edit(body)).await.assert_invalid(&fields);
    }
    assert_eq!(app.get_with_token(&format!("/api/v1/me/listings/{id}"), &key).await.body["profile"]["logo_url"], Value::Null);
    app.send(app.client.patch(app.url(&format!("/api/v1/me/listings/{id}"))).bearer_auth(&stranger).json(&json!({"logo": logo})))
        .await
        .assert_problem(404, "not_found");

    let done = app.send(edit(json!({"logo": logo, "gallery": [{"image": shot, "alt": "The board view with three columns"}]}))).await;
    assert_eq!(done.status, 200, "{:#}", done.body);
    assert_eq!(done.body["version"]["changed"], json!(["gallery", "logo"]));
    assert_eq!(done.body["listing"]["gallery"][0]["caption"], "The board view with three columns");

    let public = app.get("/api/v1/listings/pictured").await.body;
    let logo_url = format!("https://launch.example/media/{}-full.webp", &logo[..64]);
    assert_eq!(public["logo_url"], Value::String(logo_url));
    assert_eq!(public["logo"]["width"], 300);
    assert!(public.get("media").is_none(), "the gallery is a paid-only section, shown once unlocked");
    let found = app.get("/api/v1/listings?q=pictured").await.body;
    assert_eq!(found["items"][0]["logo_url"], Value::String(format!("/media/{}-full.webp", &logo[..64])), "{found:#}");

    fixtures::unlock(db, id, &["media"]).await;
    let public = app.get("/api/v1/listings/pictured").await.body;
    assert_eq!(public["media"][0]["caption"], "The board view with three columns");
    assert_eq!(public["media"][0]["image"]["sizes"].as_array().unwrap().len(), 5);

    let page = app.client.get(app.url("/listings/pictured")).send().await.unwrap().text().await.unwrap();
    assert!(page.contains(&format!(r#"<img class="logo big" src="/media/{}-128.webp""#, &logo[..64])), "the page shows the logo");
    assert!(page.contains(r#"alt="The board view with three columns""#), "the gallery shows with its alt text");
    assert!(page.contains(&format!(r#"<a href="/media/{}-full.jpg">"#, &shot[..64])), "each picture links to the full one");
    let search = app.client.get(app.url("/search?q=pictured")).send().await.unwrap().text().await.unwrap();
    assert!(search.contains(&format!(r#"<img class="logo" src="/media/{}-128.webp""#, &logo[..64])), "cards show the logo");

    let removed = app.send(edit(json!({"logo": null}))).await;
    assert_eq!(removed.body["listing"]["profile"]["logo_url"], Value::Null);
    let page = app.client.get(app.url("/listings/pictured")).send().await.unwrap().text().await.unwrap();
    assert!(page.contains(r#"<span class="logo big" aria-hidden="true">P</span>"#), "the letter tile comes back without a logo");
}
