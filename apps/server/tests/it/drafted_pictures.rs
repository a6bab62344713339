//! Pictures found at drafting, end to end: a fixture site shows its logo (JSON-LD), a shared
//! picture (`og:image`), a hero screenshot, a team avatar and a tracking pixel; the draft
//! proposes the logo and the two pictures of the product, each kept by us with the page it came
//! from, and neither the avatar nor the pixel. The maker drops one, adds an upload with alt
//! text, and the submitted listing gets the logo and that gallery.

use crate::drafts::spawn;
use image::ImageEncoder;
use outbound_http::testing::{FixtureServer, Route};
use serde_json::{Value, json};
use std::collections::HashMap;

pub(crate) fn png(width: u32, height: u32, rgb: [u8; 3]) -> Vec<u8> {
    let picture = image::RgbImage::from_fn(width, height, |x, y| image::Rgb([rgb[0] ^ (x % 16) as u8, rgb[1] ^ (y % 16) as u8, rgb[2]]));
    let mut bytes = Vec::new();
    image::codecs::png::PngEncoder::new(&mut bytes).write_image(picture.as_raw(), width, height, image::ExtendedColorType::Rgb8).unwrap();
    bytes
}

pub(crate) const HOME: &str = r#"<!doctype html><html lang="en"><head><title>Dapple: boards for small teams</title>
<meta property="og:image" content="/og.png">
<script type="application/ld+json">{"@context": "https://schema.org", "@type": "Organization", "name": "Dapple", "logo": "/logo.png"}</script>
</head><body><h1>Dapple</h1><p>Dapple is a board for small teams that plan their week together.</p>
<img class="hero-shot" src="/hero.png" alt="The Dapple board with three columns">
<img class="team-avatar" src="/ann.png" alt="Ann, who started Dapple">
<img class="hero" src="/pixel.png" alt="">
</body></html>"#;

/// The Dapple site: its home, logo, shared picture, hero screenshot, an avatar and a pixel.
pub(crate) fn routes() -> HashMap<String, Route> {
    [
        ("/", Route::new(200, "text/html; charset=utf-8", HOME)),
        ("/logo.png", Route::new(200, "image/png", png(200, 200, [30, 120, 200]))),
        ("/og.png", Route::new(200, "image/png", png(1200, 630, [240, 200, 60]))),
        ("/hero.png", Route::new(200, "image/png", png(1280, 800, [250, 250, 250]))),
        ("/ann.png", Route::new(200, "image/png", png(400, 400, [200, 150, 120]))),
        ("/pixel.png", Route::new(200, "image/png", png(1, 1, [0, 0, 0]))),
    ]
    .into_iter()
    .map(|(path, route)| (path.to_owned(), route))
    .collect()
}

#[tokio::test]
async fn a_draft_proposes_the_sites_logo_and_screenshots_with_evidence_and_the_listing_gets_what_the_maker_keeps() {
    let app = spawn().await;
    let (_, token) = app.api_key("").await;
    let site = FixtureServer::start(routes()).await;
    let draft = app.draft_of(&site.url("/"), &token).await;
    assert_eq!(draft["status"], "ready", "{draft:#}");
    // The pictures come a moment after the draft is ready, from a job of their own.
    let id = draft["id"].as_str().unwrap().to_owned();
    let draft = app.poll_draft(&id, &token, |draft| draft["looking_for_pictures"] == false).await;
    let pictures = draft["pictures"].as_array().unwrap();
    let sources: Vec<&str> = pictures.iter().map(|p| p["source"].as_str().unwrap()).collect();
    assert_eq!(sources, [site.url("/logo.png"), site.url("/og.png"), site.url("/hero.png")], "{pictures:#?}");
    assert_eq!((pictures[0]["role"].as_str(), pictures[0]["evidence"]["basis"].as_str()), (Some("logo"), Some("structured_data")));
    assert_eq!(pictures[0]["evidence"]["url"], site.url("/"));
    assert_eq!(pictures[2]["role"], "screenshot");
    assert_eq!(pictures[2]["alt"], "The Dapple board with three columns");
    assert_eq!(pictures[2]["evidence"]["quote"], "The Dapple board with three columns");
    assert_eq!(
        pictures[1]["alt"], "A picture from the page Dapple: boards for small teams",
        "a picture without words says where it is from"
    );
    assert!(pictures.iter().all(|p| p["kept"] == true && p["url"].as_str().unwrap().starts_with("/media/")));
    assert!(!site.requested_paths().iter().any(|path| path == "/ann.png"), "an avatar is not fetched");
    let served = app.client.get(app.url(pictures[2]["url"].as_str().unwrap())).send().await.unwrap();
    assert_eq!(served.status(), 200, "the picture is ours to serve");

    let id = id.as_str();
    let upload = app.post_json("/api/v1/me/images", &token, json!({"data": base64(&png(900, 600, [10, 200, 100]))})).await;
    let uploaded = upload.body["image"].as_str().unwrap().to_owned();
    let image = |i: usize| pictures[i]["image"].clone();
    let edit = |pictures: Value| json!({"pictures": pictures, "fields": {"categories": ["productivity"]}});
    // Bad pictures are named and nothing is written.
    let unknown = format!("{}.jpg:900x600", "cd".repeat(32));
    let reply = app
        .patch_json(
            &format!("/api/v1/drafts/{id}"),
            &token,
            edit(json!([{"image": image(0)}, {"image": unknown, "alt": "A screen"}, {"image": uploaded, "alt": ""}])),
        )
        .await;
    reply.assert_invalid(&["pictures[1].image"]);
    let reply = app.patch_json(&format!("/api/v1/drafts/{id}"), &token, edit(json!([{"image": uploaded, "alt": " "}]))).await;
    reply.assert_invalid(&["pictures[0].alt"]);
    assert_eq!(app.get_with_token(&format!("/api/v1/drafts/{id}"), &token).await.body["pictures"].as_array().unwrap().len(), 3);

    let kept = json!([
        {"image": image(0)},
        {"image": image(2), "alt": "The Dapple board with three columns"},
        {"image": image(1), "kept": false},
        {"image": uploaded, "alt": "The settings of a board"},
    ]);
    let reply = app.patch_json(&format!("/api/v1/drafts/{id}"), &token, edit(kept)).await;
    assert_eq!(reply.status, 200, "{:#}", reply.body);
    let after = &reply.body["pictures"];
    assert_eq!(after[2]["kept"], false, "a dropped picture stays in view");
    assert_eq!(after[2]["evidence"]["quote"], "og:image", "and keeps its evidence");
    assert_eq!((after[3]["role"].as_str(), &after[3]["evidence"]), (Some("screenshot"), &Value::Null), "an upload has none");

    let submitted = app.send(app.client.post(app.url(&format!("/api/v1/drafts/{id}/submit"))).bearer_auth(&token)).await;
    assert_eq!(submitted.status, 200, "{:#}", submitted.body);
    let listing = submitted.body["listing_id"].as_i64().unwrap();
    let mine = app.get_with_token(&format!("/api/v1/me/listings/{listing}"), &token).await.body;
    assert!(mine["profile"]["logo_url"].as_str().unwrap().contains(&image(0).as_str().unwrap()[..64]), "{mine:#}");
    let gallery: Vec<&str> = mine["gallery"].as_array().unwrap().iter().map(|m| m["caption"].as_str().unwrap()).collect();
    assert_eq!(gallery, ["The Dapple board with three columns", "The settings of a board"]);
}

fn base64(bytes: &[u8]) -> String {
    use base64::Engine;
    base64::engine::general_purpose::STANDARD.encode(bytes)
}
