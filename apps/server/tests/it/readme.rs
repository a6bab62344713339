//! The README's screenshots: the home page (1280 px, light), a listing (1280 px, dark) and the
//! maker's draft editor (390 px), each checked by axe in the scheme and width it is pictured in,
//! then saved as PNG. `cargo xtask screenshots` runs this test with `LAUNCHDIR_README_IMAGES`
//! set to `docs/images/`; every other run (the suite, CI) writes them under `target/`, so the
//! front door never shows a page that fails the accessibility check and the pictures are always
//! remade from the demo data rather than drawn by hand.

use crate::browser::Browser;
use crate::drafts::site;
use crate::submitting::{app, sign_in_to_submit};
use outbound_http::testing::FixtureServer;
use std::path::{Path, PathBuf};

/// The pictures the README shows, by file name (the README links these paths).
pub const PICTURES: [&str; 3] = ["home-1280-light.png", "listing-1280-dark.png", "editor-390-light.png"];

/// Where the pictures go: `LAUNCHDIR_README_IMAGES` (relative to the workspace), or
/// `target/screenshots/readme/`.
fn destination() -> PathBuf {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../..");
    match std::env::var_os("LAUNCHDIR_README_IMAGES") {
        Some(dir) => root.join(dir),
        None => root.join("target/screenshots/readme"),
    }
}

/// A PNG's width and height from its header: a screenshot must show the width it claims.
fn png_size(path: &Path) -> (u32, u32) {
    let bytes = std::fs::read(path).unwrap_or_else(|_| panic!("{} was not written", path.display()));
    assert!(bytes.starts_with(b"\x89PNG\r\n\x1a\n") && bytes.len() > 24, "{} is not a PNG", path.display());
    let word = |at: usize| u32::from_be_bytes([bytes[at], bytes[at + 1], bytes[at + 2], bytes[at + 3]]);
    (word(16), word(20))
}

/// Sets the browser's preferred colour scheme through the DevTools protocol.
async fn scheme(browser: &Browser, value: &str) {
    let media = serde_json::json!({"media": "", "features": [{"name": "prefers-color-scheme", "value": value}]});
    browser.driver.cdp().send_raw("Emulation.setEmulatedMedia", media).await.unwrap();
}

/// Checks the page as it is shown, then saves it; returns the saved picture's width.
async fn picture(browser: &Browser, dir: &Path, name: &str) -> u32 {
    browser.assert_accessible().await;
    let path = dir.join(name);
    browser.driver.screenshot(&path).await.unwrap();
    png_size(&path).0
}

#[tokio::test]
async fn the_readme_pictures_pages_that_pass_the_accessibility_check() {
    let app = app().await;
    let fixture = FixtureServer::site(&site("saas")).await;
    let dir = destination();
    std::fs::create_dir_all(&dir).unwrap();
    for name in PICTURES {
        let _ = std::fs::remove_file(dir.join(name));
    }
    // The listing with the most votes: the one a visitor is most likely to open.
    let top = app.get("/api/v1/listings?sort=votes").await.body;
    let slug = top["items"][0]["slug"].as_str().expect("the demo directory has listings").to_owned();
    let browser = Browser::start().await;
    browser
        .run("readme_pictures", async {
            browser.driver.set_window_rect(0, 0, 1280, 900).await.unwrap();
            browser.driver.goto(&app.url("/")).await.unwrap();
            browser.wait_for_text("This week").await;
            assert_eq!(picture(&browser, &dir, PICTURES[0]).await, 1280, "the home page at 1280 px");

            browser.driver.goto(&app.url(&format!("/listings/{slug}"))).await.unwrap();
            scheme(&browser, "dark").await;
            assert_eq!(picture(&browser, &dir, PICTURES[1]).await, 1280, "the listing at 1280 px");
            scheme(&browser, "light").await;

            let email = format!("readme-{}@example.com", uuid::Uuid::new_v4().simple());
            sign_in_to_submit(&app, &browser, &email).await;
            browser.field("Your product's website").await.send_keys(fixture.url("/")).await.unwrap();
            browser.button("Read my website").await.click().await.unwrap();
            browser.wait_for_text("Save the draft").await;
            browser.driver.set_window_rect(0, 0, 390, 844).await.unwrap();
            assert_eq!(picture(&browser, &dir, PICTURES[2]).await, 390, "the editor at 390 px");
        })
        .await;
    for name in PICTURES {
        assert!(png_size(&dir.join(name)).1 > 0, "{name} is a picture");
    }
}
