//! Pictures as an owner and a visitor meet them, in a real browser: the owner sends a logo and
//! gallery pictures from the listing's page (a file that is not a picture, and a picture without
//! alt text, refused beside their fields, nothing saved), orders and removes them; the visitor
//! sees the logo, the gallery and the demo video behind a preview that loads nothing from the
//! video's site until pressed, as the browser's own log of requests shows. The owner gives the
//! listing's founder a picture, which their page shows.

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
    store_seaorm::testing::fixtures::founder(db, listing, "ada-lovelace", 0).await;
    let files = crate::helpers::own_data_dir();
    let (logo, board, settings_shot, notes) =
        (files.join("logo.png"), files.join("board.png"), files.join("settings.png"), files.join("notes.png"));
    let face = files.join("face.png");
    write_png(&face, 300, 300, [200, 150, 120]);
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

            // A founder's picture: a file that is not one is refused beside the founder's field.
            browser.field("A picture of ada lovelace").await.send_keys(path(&notes)).await.unwrap();
            browser.button("Upload the picture of ada lovelace").await.click().await.unwrap();
            browser.wait_for_text("is not an image we can read").await;
            assert_eq!(browser.field("A picture of ada lovelace").await.attr("aria-invalid").await.unwrap().as_deref(), Some("true"));
            assert_eq!(app.get("/api/v1/founders/ada-lovelace").await.body["avatar_url"], serde_json::Value::Null);
            browser.field("A picture of ada lovelace").await.send_keys(path(&face)).await.unwrap();
            browser.button("Upload the picture of ada lovelace").await.click().await.unwrap();
            browser.wait_for_text("Your pictures are saved").await;
            assert!(app.get("/api/v1/founders/ada-lovelace").await.body["avatar_url"].as_str().unwrap().contains("/media/"));
            browser.assert_accessible().await;
            browser.driver.goto(&app.url("/founders/ada-lovelace")).await.unwrap();
            let avatar = browser.driver.find(By::Css("img.avatar.big")).await.unwrap();
            assert!(avatar.prop("naturalWidth").await.unwrap().unwrap_or_default() != "0", "the founder's picture loaded");
            browser.assert_accessible_light_and_dark().await;
        })
        .await;
    let _ = std::fs::remove_dir_all(files);
}

#[tokio::test]
async fn a_maker_keeps_drops_and_adds_the_pictures_of_a_draft_and_the_listing_shows_them() {
    use sea_orm::ConnectionTrait as _;
    let app = crate::submitting::app().await;
    let site = outbound_http::testing::FixtureServer::start(crate::drafted_pictures::routes()).await;
    let email = format!("pictured-{}@example.com", uuid::Uuid::new_v4().simple());
    let files = crate::helpers::own_data_dir();
    let settings_shot = files.join("settings.png");
    std::fs::write(&settings_shot, crate::drafted_pictures::png(1000, 640, [20, 160, 90])).unwrap();
    let browser = Browser::start().await;
    browser
        .run("draft_pictures", async {
            crate::submitting::sign_in_to_submit(&app, &browser, &email).await;
            browser.field("Your product's website").await.send_keys(site.url("/")).await.unwrap();
            browser.button("Read my website").await.click().await.unwrap();
            // Reading the site and keeping its pictures runs in the background, beside other tests.
            let mut editor = browser.wait_for_text_for("Save the draft", std::time::Duration::from_secs(45)).await;
            // The pictures follow the draft by a moment: the page says so until they are there.
            for _ in 0..60 {
                if !editor.contains("Looking for your logo and screenshots") {
                    break;
                }
                tokio::time::sleep(std::time::Duration::from_millis(500)).await;
                browser.driver.refresh().await.unwrap();
                editor = browser.wait_for_text("Save the draft").await;
            }
            // The logo and two screenshots, each with the page it was found on.
            assert!(editor.contains("Logo") && editor.contains(&format!("on {}", site.url("/"))), "{editor}");
            assert_eq!(browser.driver.find_all(By::Css(".gallery-edit img")).await.unwrap().len(), 3);
            assert_eq!(
                browser.field("What picture 3 shows").await.value().await.unwrap().as_deref(),
                Some("The Dapple board with three columns")
            );
            browser.assert_accessible_light_and_dark().await;

            // Drop the shared picture, name the category, save.
            browser
                .driver
                .find(By::XPath("//label[normalize-space()='Use picture 2 on the listing']"))
                .await
                .unwrap()
                .click()
                .await
                .unwrap();
            browser.choose("Main category", "Productivity").await;
            browser.button("Save the draft").await.click().await.unwrap();
            browser.wait_for_text("Your changes are saved").await;
            let kept = browser.driver.find(By::Name("keep.1")).await.unwrap();
            assert!(!kept.is_selected().await.unwrap(), "picture 2 stays in view, unused");

            // A picture without words is refused beside its file; with them it joins the gallery.
            browser.field("Picture").await.send_keys(settings_shot.display().to_string()).await.unwrap();
            browser.button("Add the picture").await.click().await.unwrap();
            browser.wait_for_text("Say what the picture shows").await;
            browser.assert_accessible().await;
            browser.field("Picture").await.send_keys(settings_shot.display().to_string()).await.unwrap();
            browser.field("What the picture shows").await.send_keys("The settings of a board").await.unwrap();
            browser.button("Add the picture").await.click().await.unwrap();
            browser.wait_for_text("Your changes are saved").await;
            assert_eq!(browser.driver.find_all(By::Css(".gallery-edit img")).await.unwrap().len(), 4);

            browser.button("Save and submit").await.click().await.unwrap();
            browser.wait_for_text("Free launch").await;
        })
        .await;
    // The site team lets it go live with the media section (as a paid launch would).
    let db = app.services.store.connection();
    let row = db
        .query_one_raw(sea_orm::Statement::from_string(
            db.get_database_backend(),
            "SELECT id, slug FROM listings WHERE name = 'Dapple'".to_owned(),
        ))
        .await
        .unwrap()
        .expect("the submitted listing");
    let (listing, slug): (i64, String) = (row.try_get_by_index(0).unwrap(), row.try_get_by_index(1).unwrap());
    let now = time::OffsetDateTime::now_utc();
    store_seaorm::testing::fixtures::publish(db, listing, kernel::Week::containing(now.date()), now).await;
    store_seaorm::testing::fixtures::unlock(db, listing, &["media"]).await;
    // Its owner adds a demo video (the owner's page does this in the test above).
    db.execute_raw(sea_orm::Statement::from_string(
        db.get_database_backend(),
        format!("UPDATE listings SET demo_video_url = 'https://www.youtube.com/watch?v=dQw4w9WgXcQ' WHERE id = {listing}"),
    ))
    .await
    .unwrap();
    let page = app.client.get(app.url(&format!("/listings/{slug}"))).send().await.unwrap().text().await.unwrap();
    assert!(page.contains(r#"<img class="logo big""#), "the listing shows the logo found on the site");
    let shown: Vec<&str> = ["The Dapple board with three columns", "The settings of a board"]
        .into_iter()
        .filter(|alt| page.contains(&format!(r#"alt="{alt}""#)))
        .collect();
    assert_eq!(shown.len(), 2, "the gallery holds the kept screenshot and the upload");
    assert!(!page.contains("A picture from the page Dapple"), "the dropped picture is not shown");

    // The visitor's view of it: nothing from the video's site until the preview is pressed.
    let visitor = Browser::start().await;
    visitor
        .run("drafted_listing_page", async {
            visitor.driver.goto(&app.url(&format!("/listings/{slug}"))).await.unwrap();
            visitor.wait_for_text("Play the demo (YouTube)").await;
            assert_eq!(visitor.driver.find_all(By::Css(".shots img")).await.unwrap().len(), 2);
            visitor.assert_accessible_light_and_dark().await;
            let origin = app.url("");
            let before = requested(&visitor).await;
            assert!(before.iter().all(|address| address.starts_with(&origin)), "only our origin before the preview: {before:#?}");
            visitor.driver.find(By::LinkText("Play the demo (YouTube)")).await.unwrap().click().await.unwrap();
            let player = visitor.driver.find(By::Css(".video iframe")).await.unwrap();
            assert!(
                player.attr("src").await.unwrap().unwrap_or_default().starts_with("https://www.youtube-nocookie.com/embed/dQw4w9WgXcQ")
            );
        })
        .await;
    let _ = std::fs::remove_dir_all(files);
}
