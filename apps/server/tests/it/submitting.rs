//! Submission in the browser, in headless Chromium, as a maker does it: the website's address,
//! the draft's progress while the (held back) fixture site is read, the quote behind a value,
//! an edit and a lock, submitting, then the free queue with its week and badge embed code, or
//! a paid launch that lands on the order's checkout page.

use crate::browser::Browser;
use crate::drafts::site;
use crate::helpers::{TestApp, spawn_app_with};
use outbound_http::testing::FixtureServer;
use thirtyfour::prelude::*;

pub(crate) async fn app() -> TestApp {
    spawn_app_with(|settings| {
        settings.site_url = None;
        settings.crawler.allow_private_networks = true;
        settings.job_workers = 2;
        settings.job_lease_seconds = 5;
    })
    .await
}

/// Signs `email` up (through the service) and in (through the sign-in page), landing on /submit.
pub(crate) async fn sign_in_to_submit(app: &TestApp, browser: &Browser, email: &str) {
    app.services.app.accounts.signin.sign_up(email, "Maker", "a long enough password").await.unwrap();
    browser.driver.goto(&app.url("/signin?next=%2Fsubmit")).await.unwrap();
    browser.field("E-mail").await.send_keys(email).await.unwrap();
    browser.field("Password").await.send_keys("a long enough password").await.unwrap();
    browser.button("Sign in").await.click().await.unwrap();
    browser.wait_for_text("Your product's website").await;
}

#[tokio::test]
async fn a_maker_submits_a_website_edits_the_draft_and_queues_a_free_launch() {
    let app = app().await;
    let fixture = FixtureServer::site(&site("saas")).await;
    let email = format!("maker-{}@example.com", uuid::Uuid::new_v4().simple());
    let browser = Browser::start().await;
    browser
        .run("submit_free", async {
            sign_in_to_submit(&app, &browser, &email).await;
            browser.assert_accessible().await;
            // The site answers slowly: the page shows the draft's progress meanwhile.
            fixture.hold();
            browser.field("Your product's website").await.send_keys(fixture.url("/")).await.unwrap();
            browser.button("Read my website").await.click().await.unwrap();
            browser.wait_for_text("Reading your website").await;
            browser.assert_accessible().await;
            fixture.release();
            // The page follows the draft by itself and shows the editor once it is ready.
            browser.wait_for_text("Save the draft").await;
            browser.assert_accessible_light_and_dark().await;

            // Why the tagline is what it is: the website's own words, and the page they are on.
            let why = browser
                .driver
                .find(By::XPath("//summary[normalize-space()='Why: what your website says about the tagline']"))
                .await
                .unwrap();
            why.click().await.unwrap();
            let quote = browser.driver.find(By::Css("#field-tagline details blockquote")).await.unwrap().text().await.unwrap();
            let drafted = browser.field("Tagline").await.value().await.unwrap().unwrap_or_default();
            assert!(!quote.is_empty() && !drafted.is_empty(), "a drafted tagline with its quote");
            let index = std::fs::read_to_string(site("saas").join("index.html")).unwrap();
            let first_words: String = quote.split_whitespace().take(3).collect::<Vec<_>>().join(" ");
            assert!(index.contains(&first_words), "the quote {quote:?} is from the site");

            let tagline = browser.field("Tagline").await;
            tagline.clear().await.unwrap();
            tagline.send_keys("Analytics that respect your visitors").await.unwrap();
            browser.driver.find(By::XPath("//label[normalize-space()='Lock the name']")).await.unwrap().click().await.unwrap();
            browser.button("Save the draft").await.click().await.unwrap();
            browser.wait_for_text("Your changes are saved").await;
            assert_eq!(browser.field("Tagline").await.value().await.unwrap().as_deref(), Some("Analytics that respect your visitors"));
            let page = browser.text().await;
            // The browser sent the whole form: only the tagline changed, only the name is locked.
            assert_eq!((page.matches("changed by you").count(), page.matches("locked by you").count()), (1, 1), "{page}");

            // Three more fields, the categories from the picker, then "Save and submit" at once:
            // everything typed is saved before the draft is submitted.
            let city = browser.field("City").await;
            city.clear().await.unwrap();
            city.send_keys("Porto").await.unwrap();
            let short = browser.field("Short description").await;
            short.clear().await.unwrap();
            short.send_keys("Privacy-first analytics for small sites.").await.unwrap();
            browser.choose("Country", "Portugal").await;
            browser.choose("Main category", "Developer Tools").await;
            browser.field("Find a category").await.send_keys("api").await.unwrap();
            browser.tick("Developer Tools › API Tools").await;
            browser.button("Save and submit").await.click().await.unwrap();
            browser.wait_for_text("Free launch").await;
            browser.assert_accessible().await;
            browser.driver.find(By::LinkText("Back to the draft")).await.unwrap().click().await.unwrap();
            browser.wait_for_text("Save the draft").await;
            assert_eq!(browser.field("City").await.value().await.unwrap().as_deref(), Some("Porto"));
            assert_eq!(browser.field("Country").await.value().await.unwrap().as_deref(), Some("PT"));
            assert_eq!(
                browser.field("Short description").await.value().await.unwrap().as_deref(),
                Some("Privacy-first analytics for small sites.")
            );
            assert_eq!(browser.field("Tagline").await.value().await.unwrap().as_deref(), Some("Analytics that respect your visitors"));
            assert_eq!(browser.field("Main category").await.value().await.unwrap().as_deref(), Some("developer-tools"));
            let other = browser.driver.find(By::Css("input[name=category][value=api-tools]")).await.unwrap();
            assert!(other.is_selected().await.unwrap(), "the other category picked is kept");
            browser.driver.find(By::LinkText("Choose how to launch")).await.unwrap().click().await.unwrap();
            browser.wait_for_text("Free launch").await;
            browser.button("Launch for free").await.click().await.unwrap();
            let queued = browser.wait_for_text("Put our badge on your homepage").await;
            // Post, redirect, get: the queued launch is a page of its own, in the site's words.
            let at = browser.driver.current_url().await.unwrap();
            assert!(at.path().ends_with("/launch"), "{at}");
            assert!(queued.contains("Your free launch is queued for the week of") && !queued.contains("get_badges"), "{queued}");
            let week = regex_week(&queued).expect("the launch week is shown");
            assert!(kernel::Week::parse_date(&week).is_some(), "{week}");
            let embed = browser.driver.find(By::Css("textarea.embed")).await.unwrap().value().await.unwrap().unwrap_or_default();
            assert!(embed.contains("<a ") && embed.contains("<img "), "the badge's embed code: {embed}");
            browser.assert_accessible_light_and_dark().await;
        })
        .await;
}

/// The first `YYYY-MM-DD` in `text`.
fn regex_week(text: &str) -> Option<String> {
    text.char_indices().find_map(|(at, _)| {
        let candidate = text.get(at..at + 10)?;
        let bytes = candidate.as_bytes();
        let shape = bytes.iter().enumerate().all(|(i, b)| if i == 4 || i == 7 { *b == b'-' } else { b.is_ascii_digit() });
        shape.then(|| candidate.to_owned())
    })
}

/// Monday of the week `ahead` weeks after this one, as the paid launch page names it.
fn week_label(ahead: i64) -> (String, String) {
    let week = kernel::Week::at(time::OffsetDateTime::now_utc(), time::UtcOffset::UTC).plus_weeks(ahead);
    let day = week.monday();
    (week.to_string(), format!("Monday {} {} {}", day.day(), day.month(), day.year()))
}

/// Submits the fixture site's draft as `email` and opens the launch page.
async fn submitted(app: &TestApp, browser: &Browser, fixture: &FixtureServer, email: &str) {
    sign_in_to_submit(app, browser, email).await;
    browser.field("Your product's website").await.send_keys(fixture.url("/")).await.unwrap();
    browser.button("Read my website").await.click().await.unwrap();
    browser.wait_for_text("Save the draft").await;
    browser.button("Save and submit").await.click().await.unwrap();
    browser.wait_for_text("Paid launch").await;
}

/// The maker's listing's status, plan and launch week, read from the database.
async fn listing_state(app: &TestApp, email: &str) -> (String, Option<String>, Option<String>) {
    use sea_orm::{ConnectionTrait, Statement};
    let db = app.services.store.connection();
    // The address is the test's own (letters, digits and `@.-`): safe to write into the query.
    let sql = format!(
        "SELECT l.status, l.plan, CAST(l.launch_week AS TEXT) FROM listings l JOIN users u ON u.id = l.owner_user_id \
         WHERE u.email = '{email}'"
    );
    let row = db.query_one_raw(Statement::from_string(db.get_database_backend(), sql)).await.unwrap().expect("the maker's listing");
    (row.try_get_by_index(0).unwrap(), row.try_get_by_index(1).unwrap(), row.try_get_by_index(2).unwrap())
}

#[tokio::test]
async fn a_maker_shapes_a_paid_launch_pays_and_reads_the_receipt() {
    let app = app().await;
    let fixture = FixtureServer::site(&site("saas")).await;
    let email = format!("payer-{}@example.com", uuid::Uuid::new_v4().simple());
    let browser = Browser::start().await;
    let (week, label) = week_label(3);
    browser
        .run("submit_paid", async {
            submitted(&app, &browser, &fixture, &email).await;
            browser.driver.find(By::LinkText("Launch paid")).await.unwrap().click().await.unwrap();
            let shaping = browser.wait_for_text("Shape the paid launch of").await;
            // Prices are shown before anything is chosen, and the first week is priced already.
            assert!(shaping.contains("Featured placement · $99.00") && shaping.contains("Paid launch · $49.00"), "{shaping}");
            assert!(shaping.contains("Total") && shaping.contains("$49.00"), "{shaping}");
            browser.assert_accessible_light_and_dark().await;

            // A billboard amount that is not money: the problem at the top and beside the field,
            // and no order is made.
            browser.tick("Billboard").await;
            browser.field("Your amount for the billboard (USD)").await.send_keys("lots").await.unwrap();
            browser.button("Go to checkout").await.click().await.unwrap();
            let refused = browser.wait_for_text("There is a problem").await;
            assert!(refused.contains("Billboard: Enter an amount in dollars"), "{refused}");
            assert!(browser.driver.current_url().await.unwrap().path().ends_with("/paid"));
            browser.assert_accessible().await;
            browser.tick("Billboard").await;

            // The week and two extras; the price with VAT follows the choices as they are made.
            browser.tick(&label).await;
            browser.tick("Featured placement").await;
            browser.tick("AI review").await;
            browser.choose("Country", "Germany").await;
            // $49 + $99 + $25 = $173, and 19 % VAT on it: $32.87.
            let priced = browser.wait_for_text("$205.87").await;
            assert!(priced.contains("VAT (19 %)") && priced.contains("$32.87"), "{priced}");
            assert!(priced.contains(&format!("week of {label}")), "{priced}");

            browser.button("Go to checkout").await.click().await.unwrap();
            let checkout = browser.wait_for_text("Your order (USD)").await;
            assert!(browser.driver.current_url().await.unwrap().path().starts_with("/checkout/"));
            assert!(
                checkout.contains("Featured placement") && checkout.contains("AI review") && checkout.contains("$205.87"),
                "{checkout}"
            );
            browser.assert_accessible().await;
            browser.button("Continue to payment").await.click().await.unwrap();
            browser.wait_for_text("This is a test payment").await;
            browser.button("Pay").await.click().await.unwrap();
            let receipt = browser.wait_for_text("Receipt for order").await;
            assert!(receipt.contains("Paid on ") && receipt.contains(&format!("The launch week begins on {label}")), "{receipt}");
            // Each line names the listing it was bought for, linked to the owner's page of it.
            assert!(receipt.contains("Paid launch for Metricly"), "{receipt}");
            browser
                .driver
                .find(By::XPath("//td//a[normalize-space()='Metricly' and starts-with(@href, '/account/listings/')]"))
                .await
                .unwrap();
            assert!(!receipt.contains("T00:") && !receipt.contains("What you are buying"), "{receipt}");
            browser.assert_accessible_light_and_dark().await;
            // The payment's job issues the invoice: once it has, the receipt links it.
            let mut shown = receipt;
            for _ in 0..100 {
                if shown.contains("VAT invoice INV-") {
                    break;
                }
                tokio::time::sleep(std::time::Duration::from_millis(100)).await;
                browser.driver.refresh().await.unwrap();
                shown = browser.wait_for_text("Receipt for order").await;
            }
            assert!(shown.contains("VAT invoice INV-") && shown.contains("Download the PDF"), "{shown}");
            // Its number is the next of the database's series (the demo's orders may hold some).
            let link = browser.driver.find(By::XPath("//a[starts-with(normalize-space(), 'VAT invoice INV-')]")).await.unwrap();
            let number = link.text().await.unwrap().trim().trim_start_matches("VAT invoice ").to_owned();
            link.click().await.unwrap();
            let invoice = browser.wait_for_text("Date of issue").await;
            assert!(
                invoice.contains(&number) && invoice.contains("Germany") && invoice.contains("$205.87") && invoice.contains("19 %"),
                "{invoice}"
            );
            browser.assert_accessible().await;
            // The PDF, fetched as the signed-in buyer.
            let cookie = browser.driver.get_named_cookie("ld_session").await.unwrap();
            let pdf = app
                .client
                .get(app.url(&format!("/account/invoices/{number}.pdf")))
                .header("Cookie", format!("ld_session={}", cookie.value))
                .send()
                .await
                .unwrap();
            assert_eq!(pdf.status(), 200);
            assert_eq!(pdf.headers()["content-type"], "application/pdf");
            let bytes = pdf.bytes().await.unwrap();
            let literal = format!("({number})");
            assert!(
                bytes.starts_with(b"%PDF-1.4") && bytes.windows(literal.len()).any(|w| w == literal.as_bytes()),
                "a PDF of the invoice"
            );
            // Nobody else reads it.
            let stranger = crate::orders::no_redirects().get(app.url(&format!("/account/invoices/{number}.pdf"))).send().await.unwrap();
            assert_eq!(stranger.status(), 303, "a stranger is asked to sign in");
        })
        .await;
    // The listing waits for its week on the paid plan: it goes live when that Monday comes.
    let mut state = listing_state(&app, &email).await;
    for _ in 0..100 {
        if state.0 == "scheduled" {
            break;
        }
        tokio::time::sleep(std::time::Duration::from_millis(100)).await;
        state = listing_state(&app, &email).await;
    }
    assert_eq!((state.0.as_str(), state.1.as_deref()), ("scheduled", Some("paid")));
    assert!(state.2.as_deref().is_some_and(|at| at.starts_with(&week)), "{state:?}");
}

#[tokio::test]
async fn a_maker_upgrades_a_queued_free_launch_to_a_paid_week() {
    let app = app().await;
    let fixture = FixtureServer::site(&site("saas")).await;
    let email = format!("upgrader-{}@example.com", uuid::Uuid::new_v4().simple());
    let browser = Browser::start().await;
    let (week, label) = week_label(2);
    browser
        .run("upgrade_paid", async {
            submitted(&app, &browser, &fixture, &email).await;
            browser.button("Launch for free").await.click().await.unwrap();
            browser.wait_for_text("Rather not wait?").await;
            browser.driver.find(By::LinkText("Choose a paid launch week")).await.unwrap().click().await.unwrap();
            let shaping = browser.wait_for_text("waits in the free queue").await;
            assert!(shaping.contains("frees its place"), "{shaping}");
            browser.tick(&label).await;
            browser.button("Go to checkout").await.click().await.unwrap();
            browser.wait_for_text("Your order (USD)").await;
            browser.choose("Country", "United States").await;
            browser.button("Update prices").await.click().await.unwrap();
            browser.wait_for_text("Outside the EU").await;
            browser.button("Continue to payment").await.click().await.unwrap();
            browser.wait_for_text("This is a test payment").await;
            browser.button("Pay").await.click().await.unwrap();
            browser.wait_for_text("Receipt for order").await;
        })
        .await;
    let mut state = listing_state(&app, &email).await;
    for _ in 0..100 {
        if state.1.as_deref() == Some("paid") {
            break;
        }
        tokio::time::sleep(std::time::Duration::from_millis(100)).await;
        state = listing_state(&app, &email).await;
    }
    // Out of the free queue (its place freed, no badge needed), into the week paid for.
    assert_eq!((state.0.as_str(), state.1.as_deref()), ("scheduled", Some("paid")));
    assert!(state.2.as_deref().is_some_and(|at| at.starts_with(&week)), "{state:?}");
}

/// A person signed in (through the service), as the forms' helpers take them.
async fn maker(app: &TestApp, name: &str) -> crate::votes::Person {
    let email = format!("{name}-{}@example.com", uuid::Uuid::new_v4().simple());
    let session = app.services.app.accounts.signin.sign_up(&email, name, "a long enough password").await.unwrap();
    crate::votes::Person { session: session.token, csrf: session.csrf_token, user: session.user.id }
}

/// Waits until the draft at `path` is no longer being read or drafted.
async fn ready(app: &TestApp, who: &crate::votes::Person, path: &str) -> String {
    for _ in 0..100 {
        let page = crate::my_account::page_of_path(app, who, path).await;
        if page.contains("Save the draft") {
            return page;
        }
        tokio::time::sleep(std::time::Duration::from_millis(100)).await;
    }
    panic!("the draft never became ready");
}

#[tokio::test]
async fn the_editor_sends_only_what_changed_answers_bad_input_beside_its_field_and_keeps_drafts_private() {
    let app = app().await;
    let fixture = FixtureServer::site(&site("saas")).await;
    let (alice, bob) = (maker(&app, "alice").await, maker(&app, "bob").await);
    let bad = crate::reviews::send(&app, &alice, "/submit", &[("url", "not a website")]).await;
    assert_eq!(bad.status(), 400);
    assert!(bad.text().await.unwrap().contains(r#"aria-describedby="submit-url-error""#));

    let started = crate::reviews::send(&app, &alice, "/submit", &[("url", &fixture.url("/"))]).await;
    assert_eq!(started.status(), 303);
    let path = started.headers()["location"].to_str().unwrap().to_owned();
    let before = ready(&app, &alice, &path).await;
    // The same site again: the page points to the draft there is, and only a second, deliberate
    // press reads the site into a new one.
    let again = crate::reviews::send(&app, &alice, "/submit", &[("url", &fixture.url("/pricing"))]).await;
    assert_eq!(again.status(), 200);
    let warned = again.text().await.unwrap();
    assert!(warned.contains("You already have a draft of") && warned.contains(&format!(r#"href="{path}""#)), "{warned}");
    let second = crate::reviews::send(&app, &alice, "/submit", &[("url", &fixture.url("/")), ("again", "1")]).await;
    assert_eq!(second.status(), 303);
    assert_ne!(second.headers()["location"].to_str().unwrap(), path);
    let peek =
        crate::orders::no_redirects().get(app.url(&path)).header("Cookie", format!("ld_session={}", bob.session)).send().await.unwrap();
    assert_eq!(peek.status(), 404, "bob cannot open alice's draft");
    assert_eq!(crate::reviews::send(&app, &bob, &path, &[("f.tagline", "Mine now")]).await.status(), 404);
    let drafted_states = before.matches("drafted from your website").count();
    assert!(drafted_states > 3, "{before}");

    // A founder without a name, then an over-long tagline: each beside its box, nothing saved.
    let refused = crate::reviews::send(&app, &alice, &path, &[("founders", " | CTO"), ("action", "save")]).await;
    assert_eq!(refused.status(), 400);
    let page = refused.text().await.unwrap();
    assert!(page.contains(r#"aria-describedby="s-founders-error""#) && page.contains("item 1, name:"), "{page}");
    // The problem is also at the top of the page, linked to its box.
    assert!(page.contains(r##"<a href="#s-founders">Founders: item 1, name:"##), "{page}");
    assert!(page.contains(" | CTO"), "what was sent is kept");
    let long = "x".repeat(501);
    let refused = crate::reviews::send(&app, &alice, &path, &[("f.tagline", &long), ("action", "save")]).await;
    assert_eq!(refused.status(), 400);
    assert!(refused.text().await.unwrap().contains(r#"aria-describedby="f-tagline-error""#));
    let after = crate::my_account::page_of_path(&app, &alice, &path).await;
    assert_eq!(after.matches("drafted from your website").count(), drafted_states, "nothing was saved");

    // Saving one changed field leaves every other drafted value as drafted.
    let saved = crate::reviews::send(&app, &alice, &path, &[("f.city", "Porto"), ("action", "save")]).await;
    assert_eq!(saved.status(), 303);
    let after = crate::my_account::page_of_path(&app, &alice, &path).await;
    assert!(after.contains(r#"value="Porto""#));
    let still_drafted = after.matches("drafted from your website").count();
    assert!(still_drafted + 1 >= drafted_states, "only the city changed state: {still_drafted} of {drafted_states}");

    // An edited tagline restored: the drafted value and its state come back.
    let drafted_tagline = value_of(&before, "f-tagline");
    assert_eq!(crate::reviews::send(&app, &alice, &path, &[("f.tagline", "Something else")]).await.status(), 303);
    assert_eq!(value_of(&crate::my_account::page_of_path(&app, &alice, &path).await, "f-tagline"), "Something else");
    assert_eq!(crate::reviews::send(&app, &alice, &path, &[("f.tagline", "Something else"), ("restore", "tagline")]).await.status(), 303);
    let restored = crate::my_account::page_of_path(&app, &alice, &path).await;
    assert_eq!(value_of(&restored, "f-tagline"), drafted_tagline);
    // Redrafting a field runs in the background; the page says so while it does.
    assert_eq!(crate::reviews::send(&app, &alice, &path, &[("regenerate", "short_description")]).await.status(), 303);
}

/// The value of the input with this id in a page.
fn value_of(page: &str, id: &str) -> String {
    let start = page.find(&format!(r#"id="{id}""#)).unwrap_or_else(|| panic!("no input {id}"));
    let rest = &page[start..];
    rest.split("value=\"").nth(1).unwrap().split('"').next().unwrap().to_owned()
}
