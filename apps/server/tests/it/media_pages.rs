//! Pictures as an owner and a visitor meet them, in a real browser: the owner sends a logo and
//! gallery pictures from the listing's page (a file that is not a picture, and a picture without
//! alt text, refused beside their fields, nothing saved), orders and removes them; the visitor
//! sees the logo, the gallery and the demo video behind a preview that loads nothing from the
//! video's site until pressed, as the browser's own log of requests shows.

use crate::browser::Browser;
use image::ImageEncoder;
use thirtyfour::prelude::*;

fn write_png(path: &std::path::Path, width: u32, height: u32, rgb: [u8; 3]) {
    let picture = image::RgbImage::from_fn(width, height, |x, y| image::Rgb([rgb[0] ^ (x % 32) as u8, rgb[1], rgb[2] ^ (y % 32) as u8]));
    let mut bytes = Vec::new();
    image::codecs::png::PngEncoder::new(&mut bytes).write_image(picture.as_raw(), width, height, image::ExtendedColorType::Rgb8).unwrap();
    std::fs::write(path, bytes).unwrap();
}

/// Every address the page has requested so far (the Resource Timing API: the browser's log).
async fn requested(browser: &Browser) -> Vec<String> {
    let entries = browser
        .driver
        .execute("return performance.getEntriesByType('resource').map(e => e.name).concat([location.href]);", Vec::new())
        .await
        .unwrap();
    serde_json::from_value(entries.json().clone()).unwrap()
}

#[tokio::test]
async fn an_owner_sends_pictures_and_a_visitor_sees_them_with_the_video_behind_its_preview() {
    let app = crate::helpers::spawn_empty_app_with(|settings| settings.site_url = None).await;
    let email = format!("pictures-{}@example.com", uuid::Uuid::new_v4().simple());
    let session = app.services.app.accounts.signin.sign_up(&email, "Owner", "a long enough password").await.unwrap();
    let now = time::OffsetDateTime::now_utc();
    let db = app.services.store.connection();
    let listing = store_seaorm::testing::fixtures::listing(db, "shown", "live", kernel::Week::containing(now.date()), now).await;
    store_seaorm::testing::fixtures::set_owner(db, listing, session.user.id.get()).await;
    store_seaorm::testing::fixtures::unlock(db, listing, &["media"]).await;
    let files = crate::helpers::own_data_dir();
    let (logo, board, settings_shot, notes) =
        (files.join("logo.png"), files.join("board.png"), files.join("settings.png"), files.join("notes.png"));
    write_png(&logo, 240, 240, [20, 90, 200]);
    write_png(&board, 1280, 800, [230, 240, 250]);
    write_png(&settings_shot, 1200, 750, [250, 230, 220]);
    std::fs::write(&notes, "meeting notes, saved as a .png\n").unwrap();
    let path = |file: &std::path::Path| file.display().to_string();

    let browser = Browser::start().await;
    browser
        .run("owner_sends_pictures", async {
            browser.driver.goto(&app.url(&format!("/account/listings/{listing}"))).await.unwrap();
            browser.field("E-mail").await.send_keys(&email).await.unwrap();
            browser.field("Password").await.send_keys("a long enough password").await.unwrap();
            browser.button("Sign in").await.click().await.unwrap();
            browser.wait_for_text("Logo and pictures").await;

            // Not a picture: refused beside the logo's field, nothing saved.
            browser.field("Logo").await.send_keys(path(&notes)).await.unwrap();
            browser.button("Upload the logo").await.click().await.unwrap();
            browser.wait_for_text("This file is not an image we can read").await;
            assert_eq!(browser.field("Logo").await.attr("aria-invalid").await.unwrap().as_deref(), Some("true"));
            browser.assert_accessible().await;
            assert_eq!(app.get("/api/v1/listings/shown").await.body["logo_url"], serde_json::Value::Null);

            browser.field("Logo").await.send_keys(path(&logo)).await.unwrap();
            browser.button("Upload the logo").await.click().await.unwrap();
            browser.wait_for_text("Your pictures are saved").await;
            assert!(app.get("/api/v1/listings/shown").await.body["logo_url"].as_str().unwrap().contains("/media/"));

            // A picture without alt text: refused beside the alt text, nothing saved.
            browser.field("Add a picture").await.send_keys(path(&board)).await.unwrap();
            browser.button("Add to the gallery").await.click().await.unwrap();
            browser.wait_for_text("Say what the picture shows").await;
            browser.assert_accessible().await;
            assert_eq!(app.get("/api/v1/listings/shown").await.body["media"], serde_json::json!([]));

            for (file, alt) in [(&board, "The board with three columns"), (&settings_shot, "The settings page")] {
                browser.field("Add a picture").await.send_keys(path(file)).await.unwrap();
                browser.field("What the picture shows (read out to people who cannot see it)").await.send_keys(alt).await.unwrap();
                browser.button("Add to the gallery").await.click().await.unwrap();
                browser.wait_for_text(alt).await;
            }
            browser.button("Move picture 2 earlier").await.click().await.unwrap();
            browser.wait_for_text("Your pictures are saved").await;
            let captions = |body: serde_json::Value| -> Vec<String> {
                body["media"].as_array().unwrap().iter().map(|m| m["caption"].as_str().unwrap().to_owned()).collect()
            };
            assert_eq!(captions(app.get("/api/v1/listings/shown").await.body), ["The settings page", "The board with three columns"]);
            browser.field("Demo video (an https link)").await.send_keys("https://www.youtube.com/watch?v=dQw4w9WgXcQ").await.unwrap();
            browser.button("Save the profile").await.click().await.unwrap();
            browser.wait_for_text("Your changes are saved").await;
            browser.assert_accessible_light_and_dark().await;

            // The visitor's view: logo, gallery, and a video preview that loads nothing from YouTube.
            browser.driver.goto(&app.url("/listings/shown")).await.unwrap();
            browser.wait_for_text("Play the demo (YouTube)").await;
            let gallery = browser.driver.find_all(By::Css(".shots img")).await.unwrap();
            assert_eq!(gallery.len(), 2);
            assert_eq!(gallery[0].attr("alt").await.unwrap().as_deref(), Some("The settings page"));
            let logo = browser.driver.find(By::Css("img.logo.big")).await.unwrap();
            assert!(logo.prop("naturalWidth").await.unwrap().unwrap_or_default() != "0", "the logo loaded");
            browser.assert_accessible_light_and_dark().await;
            let origin = app.url("");
            let before = requested(&browser).await;
            assert!(
                before.iter().all(|address| address.starts_with(&origin)),
                "only our origin before the preview is pressed: {before:#?}"
            );
            assert!(before.iter().any(|address| address.contains("/media/")), "the pictures came from our origin: {before:#?}");
            browser.driver.find(By::LinkText("Play the demo (YouTube)")).await.unwrap().click().await.unwrap();
            let player = browser.driver.find(By::Css(".video iframe")).await.unwrap();
            assert_eq!(
                player.attr("src").await.unwrap().as_deref(),
                Some("https://www.youtube-nocookie.com/embed/dQw4w9WgXcQ?autoplay=1"),
                "the player comes only once pressed"
            );
            assert!(browser.driver.current_url().await.unwrap().as_str().starts_with(&origin), "the visitor stayed on the page");

            // The owner removes a picture.
            browser.driver.goto(&app.url(&format!("/account/listings/{listing}"))).await.unwrap();
            browser.button("Remove picture 1").await.click().await.unwrap();
            browser.wait_for_text("Your pictures are saved").await;
            assert_eq!(captions(app.get("/api/v1/listings/shown").await.body), ["The board with three columns"]);
        })
        .await;
    let _ = std::fs::remove_dir_all(files);
}
