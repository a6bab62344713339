//! The public pages in a real headless Chromium, as a person uses them: following links by
//! their text, typing into labelled fields, pressing named buttons; each page checked by axe.

use crate::browser::Browser;
use crate::helpers::{TestApp, spawn_app_with};
use thirtyfour::prelude::*;

/// The demo directory served at its real address, so the pages' absolute links resolve.
async fn app() -> TestApp {
    spawn_app_with(|settings| settings.site_url = None).await
}

async fn link(browser: &Browser, text: &str) -> WebElement {
    browser.driver.find(By::LinkText(text)).await.unwrap_or_else(|_| panic!("no link {text:?}"))
}

/// The page is readable 360 px wide: nothing sticks out sideways.
async fn assert_fits_a_small_phone(browser: &Browser) {
    browser.driver.set_window_rect(0, 0, 360, 800).await.unwrap();
    let wide = browser.driver.execute("return document.documentElement.scrollWidth;", Vec::new()).await.unwrap();
    let width = wide.json().as_u64().unwrap();
    browser.driver.set_window_rect(0, 0, 1280, 900).await.unwrap();
    assert!(width <= 360, "the page is {width} px wide at 360 px");
}

/// Waits (up to five seconds) until the listing's vote count reads `expected`.
async fn wait_for_count(browser: &Browser, expected: &str) {
    for _ in 0..50 {
        if browser.driver.find(By::Css("#votes strong")).await.unwrap().text().await.unwrap() == expected {
            return;
        }
        tokio::time::sleep(std::time::Duration::from_millis(100)).await;
    }
    panic!("the vote count never read {expected}");
}

#[tokio::test]
async fn a_person_follows_a_listing_pages_a_category_and_walks_the_weeks() {
    let app = app().await;
    let browser = Browser::start().await;
    browser
        .run("browse_listing_category_week", async {
            browser.driver.goto(&app.url("/")).await.unwrap();
            browser.wait_for_text("This week's launches").await;
            browser.assert_accessible_light_and_dark().await;
            assert_fits_a_small_phone(&browser).await;
            // The first launch of the week, as the home page lists it.
            let first = browser.driver.find(By::Css("section ol.cards a.name")).await.unwrap();
            let name = first.text().await.unwrap();
            first.click().await.unwrap();
            let page = browser.wait_for_text(&format!("Visit {name}")).await;
            let slug = browser.driver.current_url().await.unwrap().path().trim_start_matches("/listings/").to_owned();
            let listing = app.get(&format!("/api/v1/listings/{slug}")).await.body;
            assert_eq!(browser.driver.find(By::Tag("h1")).await.unwrap().text().await.unwrap(), listing["name"].as_str().unwrap());
            assert!(page.contains(listing["tagline"].as_str().unwrap()), "the tagline get_listing returns");
            let votes = browser.driver.find(By::Css("#votes strong")).await.unwrap().text().await.unwrap();
            assert_eq!(votes, listing["votes"].to_string(), "the vote count get_listing returns");
            browser.assert_accessible_light_and_dark().await;
            assert_fits_a_small_phone(&browser).await;

            // A category with more products than fit on a page of two.
            let tree = app.get("/api/v1/categories").await.body;
            let category = tree["items"]
                .as_array()
                .unwrap()
                .iter()
                .find(|c| c["live_listings"].as_u64().unwrap() >= 3)
                .expect("a demo category with three products");
            let (slug, name) = (category["slug"].as_str().unwrap(), category["name"].as_str().unwrap());
            browser.driver.goto(&app.url("/categories")).await.unwrap();
            link(&browser, name).await.click().await.unwrap();
            browser.wait_for_text("most voted first").await;
            browser.assert_accessible().await;
            browser.driver.goto(&app.url(&format!("/categories/{slug}?per_page=2"))).await.unwrap();
            let page_one = browser.wait_for_text("Page 1 of").await;
            link(&browser, "Next page").await.click().await.unwrap();
            let page_two = browser.wait_for_text("Page 2 of").await;
            assert_ne!(page_one, page_two, "the second page shows other products");
            link(&browser, "Previous page").await.click().await.unwrap();
            browser.wait_for_text("Page 1 of").await;

            // This week's calendar, then the week before.
            browser.driver.goto(&app.url("/launches/weeks/this")).await.unwrap();
            let this = app.get("/api/v1/launches/weeks/this").await.body;
            let previous = this["previous_week"].as_str().expect("the demo has launches last week");
            browser.wait_for_text(&format!("Launches of the week of {}", this["week"].as_str().unwrap())).await;
            link(&browser, "Previous week").await.click().await.unwrap();
            browser.wait_for_text(&format!("Launches of the week of {previous}")).await;
            assert!(browser.driver.current_url().await.unwrap().path().ends_with(previous));
        })
        .await;
}

#[tokio::test]
async fn a_person_finds_a_listing_despite_a_typo_and_sees_the_billboard_is_paid() {
    let app = app().await;
    // A listing with a word of six letters or more in its name, misspelt by one letter.
    let listings = app.get("/api/v1/listings?sort=votes&per_page=100").await.body;
    let (name, typo) = listings["items"]
        .as_array()
        .unwrap()
        .iter()
        .find_map(|item| {
            let name = item["name"].as_str().unwrap().to_owned();
            let word = name.split_whitespace().find(|w| w.len() >= 6 && w.chars().all(|c| c.is_ascii_alphabetic()))?.to_owned();
            let mut letters: Vec<char> = word.chars().collect();
            letters.swap(2, 3);
            Some((name, letters.into_iter().collect::<String>()))
        })
        .expect("a demo listing with a long word in its name");
    let in_category = app.get("/api/v1/categories/productivity").await.body["total"].as_u64().expect("the category's total");
    let browser = Browser::start().await;
    browser
        .run("search_and_billboard", async {
            browser.driver.goto(&app.url("/search")).await.unwrap();
            browser.wait_for_text("Words to find").await;
            browser.field("Words to find").await.send_keys(&typo).await.unwrap();
            browser.button("Find products").await.click().await.unwrap();
            let results = browser.wait_for_text("found").await;
            assert!(results.contains(&name), "{typo:?} finds {name:?}: {results}");
            browser.assert_accessible().await;

            // Typing suggests products and categories in the box's list (the site's script).
            browser.driver.goto(&app.url("/search")).await.unwrap();
            browser.field("Words to find").await.send_keys("produ").await.unwrap();
            let suggested = By::Css("#search-suggestions option[value='Productivity']");
            let mut waited = 0;
            while browser.driver.find(suggested.clone()).await.is_err() {
                assert!(waited < 100, "no suggestion of the Productivity category");
                tokio::time::sleep(std::time::Duration::from_millis(50)).await;
                waited += 1;
            }
            // A category's name is searched too, and a misspelt word is offered its spelling.
            browser.driver.goto(&app.url("/search")).await.unwrap();
            browser.field("Words to find").await.send_keys("prodcutivity").await.unwrap();
            browser.button("Find products").await.click().await.unwrap();
            browser.wait_for_text("Did you mean productivity?").await;
            link(&browser, "productivity").await.click().await.unwrap();
            let found = browser.wait_for_text("products found").await;
            let shown: u64 = found
                .split(" products found")
                .next()
                .and_then(|before| before.rsplit(char::is_whitespace).next())
                .unwrap()
                .parse()
                .unwrap();
            assert!(shown >= in_category, "the {in_category} live listings filed under Productivity are all found: {shown}");
            assert!(!found.contains("Did you mean"), "a word the directory holds is not corrected");
            browser.assert_accessible().await;

            browser.driver.goto(&app.url("/leaderboards")).await.unwrap();
            link(&browser, "Billboard").await.click().await.unwrap();
            browser.wait_for_text("Billboard: Paid ranking").await;
            let rows = browser.driver.find_all(By::Css("li.card")).await.unwrap();
            assert!(!rows.is_empty());
            for row in rows {
                assert!(row.text().await.unwrap().contains("Paid ranking"), "every billboard row is labelled paid");
            }
            browser.assert_accessible_light_and_dark().await;
        })
        .await;
}

#[tokio::test]
async fn a_person_signs_up_confirms_the_address_upvotes_in_place_withdraws_follows_and_reviews() {
    let app = crate::helpers::spawn_empty_app_with(|settings| {
        settings.site_url = None;
        settings.vote_min_account_age_hours = 0;
    })
    .await;
    let now = time::OffsetDateTime::now_utc();
    let db = app.services.store.connection();
    store_seaorm::testing::fixtures::listing(db, "upvotable", "live", kernel::Week::containing(now.date()), now).await;
    let email = format!("person-{}@example.com", uuid::Uuid::new_v4().simple());
    let browser = Browser::start().await;
    browser
        .run("sign_up_confirm_and_vote", async {
            browser.driver.goto(&app.url("/listings/upvotable")).await.unwrap();
            browser.wait_for_text("Visit UPVOTABLE").await;
            // Signed out, the button leads to signing in, then back here.
            browser
                .driver
                .find(By::XPath("//button[starts-with(normalize-space(.), 'Upvote UPVOTABLE')]"))
                .await
                .unwrap()
                .click()
                .await
                .unwrap();
            browser.wait_for_text("Sign in").await;
            link(&browser, "Create one").await.click().await.unwrap();
            browser.field("Your name").await.send_keys("Ada").await.unwrap();
            browser.field("E-mail").await.send_keys(&email).await.unwrap();
            browser.field("Password (at least 8 characters)").await.send_keys("a long enough password").await.unwrap();
            browser.button("Create the account").await.click().await.unwrap();
            // Signing up signs nobody in (a taken address gets the same page): sign in, and back.
            browser.wait_for_text("Check your inbox").await;
            browser.assert_accessible().await;
            link(&browser, "sign in to continue").await.click().await.unwrap();
            browser.field("E-mail").await.send_keys(&email).await.unwrap();
            browser.field("Password").await.send_keys("a long enough password").await.unwrap();
            browser.button("Sign in").await.click().await.unwrap();
            browser.wait_for_text("Visit UPVOTABLE").await;
            // Not confirmed yet: pressing asks for the confirmation instead of voting.
            browser
                .driver
                .find(By::XPath("//button[starts-with(normalize-space(.), 'Upvote UPVOTABLE,')]"))
                .await
                .unwrap()
                .click()
                .await
                .unwrap();
            browser.wait_for_text("Confirm your e-mail address first").await;
            browser.assert_accessible().await;
            let outbox = app.services.store.outbox(20).await.unwrap();
            let mail = outbox.iter().find(|mail| mail.to == email && mail.kind == "confirm_email").expect("the link was e-mailed");
            let link_url = mail.body.split_whitespace().find(|word| word.contains("/account/confirm?token=")).unwrap();
            browser.driver.goto(link_url).await.unwrap();
            browser.button("Confirm my e-mail address").await.click().await.unwrap();
            browser.wait_for_text("is confirmed").await;

            browser.driver.goto(&app.url("/listings/upvotable")).await.unwrap();
            let button = browser.driver.find(By::XPath("//button[starts-with(normalize-space(.), 'Upvote UPVOTABLE,')]")).await.unwrap();
            assert_eq!(button.attr("aria-pressed").await.unwrap().as_deref(), Some("false"));
            assert_eq!(browser.driver.find(By::Css("#votes strong")).await.unwrap().text().await.unwrap(), "0");
            // A mark on this page: it is still there after the vote, so the page was not reloaded.
            browser.driver.execute("window.stillThisPage = true;", Vec::new()).await.unwrap();
            button.click().await.unwrap();
            wait_for_count(&browser, "1").await;
            let same = browser.driver.execute("return window.stillThisPage === true;", Vec::new()).await.unwrap();
            assert_eq!(same.json(), &serde_json::json!(true), "the count changed in place, without a reload");
            assert_eq!(button.attr("aria-pressed").await.unwrap().as_deref(), Some("true"), "pressed in place");
            assert_eq!(app.get("/api/v1/listings/upvotable").await.body["votes"], 1, "get_listing agrees");
            browser.driver.refresh().await.unwrap();
            let pressed = browser.driver.find(By::XPath("//button[starts-with(normalize-space(.), 'Upvote UPVOTABLE,')]")).await.unwrap();
            assert_eq!(pressed.attr("aria-pressed").await.unwrap().as_deref(), Some("true"), "pressed after a reload");
            browser.assert_accessible_light_and_dark().await;
            pressed.click().await.unwrap();
            wait_for_count(&browser, "0").await;
            assert_eq!(pressed.attr("aria-pressed").await.unwrap().as_deref(), Some("false"));
            assert_eq!(app.get("/api/v1/listings/upvotable").await.body["votes"], 0, "withdrawn");

            // Follow it and review it, through the forms' labels and buttons.
            browser.button("Follow UPVOTABLE").await.click().await.unwrap();
            browser.wait_for_text("its updates come to you by e-mail").await;
            // The button says what is so now.
            browser.button("Following UPVOTABLE").await;
            browser.driver.find(By::XPath("//label[normalize-space()='4 stars']")).await.unwrap().click().await.unwrap();
            browser.field("Your review").await.send_keys("Clear and quick.").await.unwrap();
            browser.button("Publish my review").await.click().await.unwrap();
            browser.wait_for_text("Clear and quick.").await;
            assert_eq!(app.get("/api/v1/listings/upvotable").await.body["followers"], 1);
            browser.assert_accessible_light_and_dark().await;
        })
        .await;
}

#[tokio::test]
async fn a_person_manages_api_keys_and_connected_apps_on_the_account_page() {
    let app = crate::helpers::spawn_empty_app_with(|settings| settings.site_url = None).await;
    let email = format!("keys-{}@example.com", uuid::Uuid::new_v4().simple());
    let made = app.services.app.accounts.signin.sign_up(&email, "Key Maker", "a long enough password").await.unwrap();
    // API keys are made only for a confirmed address.
    app.services.store.email_tokens().set_email_confirmed(made.user.id, time::OffsetDateTime::now_utc()).await.unwrap();
    let browser = Browser::start().await;
    browser
        .run("account_api_keys", async {
            browser.driver.goto(&app.url("/account")).await.unwrap();
            browser.wait_for_text("Sign in").await;
            browser.field("E-mail").await.send_keys(&email).await.unwrap();
            browser.field("Password").await.send_keys("a long enough password").await.unwrap();
            browser.button("Sign in").await.click().await.unwrap();
            browser.wait_for_text("Your account").await;
            browser.assert_accessible().await;
            browser.field("Name of the key").await.send_keys("My agent").await.unwrap();
            browser.button("Create the key").await.click().await.unwrap();
            browser.wait_for_text("copy it now").await;
            let secret = browser.field("Your new API key (copy it now: it is not shown again)").await.value().await.unwrap().unwrap();
            browser.assert_accessible().await;
            let me = app.get_with_token("/api/v1/me", &secret).await;
            assert_eq!(me.status, 200, "the new key works");
            assert_eq!(me.body["user"]["email"], email.as_str());
            browser.driver.goto(&app.url("/account")).await.unwrap();
            let page = browser.wait_for_text("My agent").await;
            assert!(!page.contains(&secret), "the key is shown once");
            browser.driver.find(By::Css("button[aria-label^='Revoke the key My agent']")).await.unwrap().click().await.unwrap();
            browser.wait_for_text("revoked").await;
            assert_eq!(app.get_with_token("/api/v1/me", &secret).await.status, 401, "a revoked key stops working");

            // An agent this person let in through OAuth sign-in, disconnected from the same page.
            let registered = app
                .send(
                    app.client
                        .post(app.url("/oauth/register"))
                        .json(&serde_json::json!({"client_name": "Helpful Agent", "redirect_uris": ["http://localhost:9999/cb"]})),
                )
                .await;
            let client_id = registered.body["client_id"].as_str().unwrap().to_owned();
            let user = app.services.app.accounts.users.user_by_email(&kernel::Email::parse(&email).unwrap()).await.unwrap();
            let token = format!("lda_{}", uuid::Uuid::new_v4().simple());
            let now = time::OffsetDateTime::now_utc();
            let new = accounts::oauth::NewToken {
                token_hash: accounts::hash_token(&token),
                kind: accounts::oauth::TokenKind::Access,
                client_id,
                user_id: user.id,
                scopes: accounts::Scopes::all(),
                // The running server's API address (the test's own services know no port).
                resource: app.get("/api/v1/site").await.body["api_base_url"].as_str().unwrap().to_owned(),
                family: "fam_browser".into(),
                created_at: now,
                expires_at: now + time::Duration::hours(1),
            };
            accounts::oauth::OAuthRepository::insert_token(&app.services.store, &new).await.unwrap();
            assert_eq!(app.get_with_token("/api/v1/me", &token).await.status, 200, "the agent's token works");
            browser.driver.goto(&app.url("/account")).await.unwrap();
            browser.wait_for_text("Helpful Agent").await;
            browser.assert_accessible().await;
            browser.driver.find(By::Css("button[aria-label='Disconnect Helpful Agent']")).await.unwrap().click().await.unwrap();
            browser.wait_for_text("No app is connected.").await;
            assert_eq!(app.get_with_token("/api/v1/me", &token).await.status, 401, "a disconnected app's token stops working");
        })
        .await;
}

#[tokio::test]
async fn an_owner_edits_a_listing_and_posts_an_update_from_the_account_page() {
    let app = crate::helpers::spawn_empty_app_with(|settings| settings.site_url = None).await;
    let email = format!("owner-{}@example.com", uuid::Uuid::new_v4().simple());
    let session = app.services.app.accounts.signin.sign_up(&email, "Owner", "a long enough password").await.unwrap();
    let now = time::OffsetDateTime::now_utc();
    let db = app.services.store.connection();
    let listing = store_seaorm::testing::fixtures::listing(db, "owned", "live", kernel::Week::containing(now.date()), now).await;
    store_seaorm::testing::fixtures::set_owner(db, listing, session.user.id.get()).await;
    let browser = Browser::start().await;
    browser
        .run("owner_edits_listing", async {
            browser.driver.goto(&app.url("/account")).await.unwrap();
            browser.field("E-mail").await.send_keys(&email).await.unwrap();
            browser.field("Password").await.send_keys("a long enough password").await.unwrap();
            browser.button("Sign in").await.click().await.unwrap();
            browser.wait_for_text("Your listings").await;
            browser.assert_accessible_light_and_dark().await;
            link(&browser, "OWNED").await.click().await.unwrap();
            browser.wait_for_text("Edit the profile").await;
            browser.assert_accessible().await;
            let tagline = browser.field("Tagline").await;
            tagline.clear().await.unwrap();
            tagline.send_keys("Notes that file themselves").await.unwrap();
            browser.field("Year founded").await.send_keys("someday").await.unwrap();
            browser.button("Save the profile").await.click().await.unwrap();
            // The year is refused beside its field, and nothing is saved.
            browser.wait_for_text("must be an integer year, or blank").await;
            let year = browser.field("Year founded").await;
            assert_eq!(year.attr("aria-invalid").await.unwrap().as_deref(), Some("true"));
            browser.assert_accessible().await;
            assert_ne!(app.get("/api/v1/listings/owned").await.body["tagline"], "Notes that file themselves");
            year.clear().await.unwrap();
            browser.button("Save the profile").await.click().await.unwrap();
            browser.wait_for_text("Your changes are saved").await;
            assert_eq!(app.get("/api/v1/listings/owned").await.body["tagline"], "Notes that file themselves");
            browser.field("Title").await.send_keys("Tags arrive").await.unwrap();
            browser.field("What is new").await.send_keys("Notes now tag themselves.").await.unwrap();
            browser.button("Post the update").await.click().await.unwrap();
            browser.wait_for_text("Your update is posted").await;
            assert_eq!(app.get("/api/v1/listings/owned").await.body["latest_updates"][0]["title"], "Tags arrive");
        })
        .await;
}

#[tokio::test]
async fn on_a_phone_the_header_is_two_rows_and_its_sections_are_behind_the_menu() {
    let app = app().await;
    let browser = Browser::start().await;
    browser
        .run("phone_menu", async {
            browser.driver.set_window_rect(0, 0, 390, 844).await.unwrap();
            browser.driver.goto(&app.url("/")).await.unwrap();
            browser.wait_for_text("Menu").await;
            let header = browser.driver.find(By::Css("header.site")).await.unwrap();
            let height = header.rect().await.unwrap().height;
            assert!(height < 120.0, "the header is two rows, not four: {height} px");
            let categories = By::XPath("//nav[@aria-label='Site menu']//a[normalize-space()='Categories']");
            assert!(!browser.driver.find(categories.clone()).await.unwrap().is_displayed().await.unwrap(), "closed at first");
            browser.driver.find(By::XPath("//summary[normalize-space()='Menu']")).await.unwrap().click().await.unwrap();
            browser.driver.find(categories).await.unwrap().click().await.unwrap();
            browser.wait_for_text("Categories").await;
            assert!(browser.driver.current_url().await.unwrap().path().ends_with("/categories"));
            browser.assert_accessible().await;
            browser.driver.set_window_rect(0, 0, 1280, 900).await.unwrap();
            assert!(!browser.driver.find(By::Css("details.menu")).await.unwrap().is_displayed().await.unwrap(), "no menu on a wide screen");
        })
        .await;
}
