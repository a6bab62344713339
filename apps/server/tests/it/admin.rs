//! The site team's pages over HTTP: 404 for everyone without the admin role (every address,
//! GET and POST alike), bad input beside its field with nothing changed, blocking an account
//! stops its keys, and every change lands in the audit log with who and when.

use crate::helpers::TestApp;
use crate::orders::{Shop, no_redirects, paid_event, shop_with};
use crate::reviews::send;
use crate::votes::Person;
use serde_json::json;

/// Someone signed in (through the service); an admin when `admin`.
pub(crate) async fn someone(app: &TestApp, name: &str, admin: bool) -> (Person, String) {
    let email = format!("{name}-{}@example.com", uuid::Uuid::new_v4().simple());
    let session = app.services.app.accounts.signin.sign_up(&email, name, "a long enough password").await.unwrap();
    if admin {
        assert!(app.services.app.accounts.admin.set_admin(&kernel::Email::parse(&email).unwrap(), true).await.unwrap());
    }
    (Person { session: session.token, csrf: session.csrf_token, user: session.user.id }, email)
}

pub(crate) async fn get(app: &TestApp, who: Option<&Person>, path: &str) -> reqwest::Response {
    let mut request = no_redirects().get(app.url(path)).header("Accept", "text/html");
    if let Some(who) = who {
        request = request.header("Cookie", format!("ld_session={}", who.session));
    }
    request.send().await.unwrap()
}

/// A paid `ai_review` order of the shop's owner, and the task its fulfilment opened.
pub(crate) async fn order_with_a_task(shop: &Shop, slug: &str) -> (String, i64) {
    let id = shop.listing(slug, "draft", None).await;
    let created = shop.checkout(json!({"items": [{"product": "ai_review", "listing_id": id}], "billing_country": "US"})).await;
    let number = created.body["order"]["number"].as_str().unwrap().to_owned();
    let (body, signature) = paid_event(&number, &format!("cs_{slug}"), created.body["order"]["total_cents"].as_i64().unwrap(), "usd");
    assert_eq!(shop.webhook(&body, &signature).await, 200);
    for _ in 0..300 {
        let tasks = shop.app.services.app.commerce.orders.tasks(true).await.unwrap();
        if let Some(task) = tasks.iter().find(|task| task.order_number.as_str() == number) {
            return (number, task.id);
        }
        tokio::time::sleep(std::time::Duration::from_millis(100)).await;
    }
    panic!("the fulfilment job never opened the task");
}

/// What a launch costs in a quote now (before VAT).
pub(crate) async fn launch_price(shop: &Shop, slug: &str) -> serde_json::Value {
    let id = shop.listing(slug, "draft", None).await;
    shop.quote(json!({"items": [{"product": "launch", "listing_id": id}]})).await.body["subtotal_cents"].clone()
}

const PAGES: [&str; 11] = [
    "/admin",
    "/admin/prices",
    "/admin/vat-rates",
    "/admin/edits",
    "/admin/votes",
    "/admin/reviews",
    "/admin/orders",
    "/admin/users",
    "/admin/claims",
    "/admin/audit",
    "/admin/no-such-page",
];

#[tokio::test]
async fn nobody_but_an_admin_sees_that_the_admin_pages_exist() {
    let shop = shop_with(|_| {}).await;
    let app = &shop.app;
    let (person, _) = someone(app, "person", false).await;
    let (admin, _) = someone(app, "admin", true).await;
    for path in PAGES {
        assert_eq!(get(app, None, path).await.status(), 404, "{path} for a stranger");
        assert_eq!(get(app, Some(&person), path).await.status(), 404, "{path} for a person without the role");
        let expected = if path.ends_with("no-such-page") { 404 } else { 200 };
        assert_eq!(get(app, Some(&admin), path).await.status(), expected, "{path} for the admin");
    }
    for path in [
        "/admin/prices/launch",
        "/admin/vat-rates",
        "/admin/votes/1/discount",
        "/admin/reviews/1/hide",
        "/admin/tasks/1/done",
        "/admin/users/1/block",
    ] {
        let refused = send(app, &person, path, &[("cents", "1"), ("country", "DE"), ("percent", "1"), ("from", "2030-01-01")]).await;
        assert_eq!(refused.status(), 404, "{path} posted by a person without the role");
    }
    assert_eq!(launch_price(&shop, "unchanged").await, 4900, "no price changed");
    // To anyone without the role an admin address answers as an unknown one does: no 405 for the
    // wrong method, no extractor's error, no rate-limit headers, problem+json to an API client.
    let unknown = no_redirects().get(app.url("/no-such-address")).send().await.unwrap();
    for (method, path) in
        [("GET", "/admin/prices/launch"), ("POST", "/admin"), ("GET", "/admin/users?page=x"), ("POST", "/admin/votes/abc/discount")]
    {
        let request =
            no_redirects().request(method.parse().unwrap(), app.url(path)).header("Cookie", format!("ld_session={}", person.session));
        let answer = request.send().await.unwrap();
        assert_eq!(answer.status(), 404, "{method} {path}");
        assert_eq!(answer.headers().get("content-type"), unknown.headers().get("content-type"), "{method} {path}");
        assert!(answer.headers().get("ratelimit").is_none(), "{method} {path} tells nothing about limits");
    }
    let page = get(app, Some(&admin), "/admin").await.text().await.unwrap();
    assert!(page.contains(r#"<a href="/admin/audit">Audit log</a>"#));
    // A notice is one of the site's own: a link with any other text shows none of it.
    let planted = get(app, Some(&admin), "/admin/reviews?done=Your+session+expired%3A+call+%2B1+555+0100").await.text().await.unwrap();
    assert!(!planted.contains("555 0100") && !planted.contains("session expired"), "{planted}");
    let ours = get(app, Some(&admin), "/admin/reviews?done=review_hidden&of=7").await.text().await.unwrap();
    assert!(ours.contains("Review 7 is hidden."), "{ours}");
}

#[tokio::test]
async fn every_admin_change_is_checked_made_through_its_domain_and_logged_with_who_and_when() {
    let shop = shop_with(|settings| settings.job_workers = 1).await;
    let app = &shop.app;
    let (admin, admin_email) = someone(app, "admin", true).await;

    // Bad input beside its field, nothing changed, nothing logged.
    let bad = send(app, &admin, "/admin/prices/launch", &[("cents", "a lot")]).await;
    assert_eq!(bad.status(), 400);
    assert!(bad.text().await.unwrap().contains(r#"aria-describedby="price-launch-error""#));
    let bad = send(app, &admin, "/admin/vat-rates", &[("country", "XX1"), ("percent", "120"), ("from", "soon")]).await;
    assert_eq!(bad.status(), 400);
    let page = bad.text().await.unwrap();
    for field in ["vat-country", "vat-percent", "vat-from"] {
        assert!(page.contains(&format!(r#"aria-describedby="{field}-error""#)), "{field}");
    }
    assert_eq!(app.services.app.accounts.admin.audit(None, kernel::PageRequest::default()).await.unwrap().total, 0);

    // A price: the next quote uses it.
    let set = send(app, &admin, "/admin/prices/launch", &[("cents", "6900")]).await;
    assert_eq!(set.status(), 303);
    assert_eq!(launch_price(&shop, "repriced").await, 6900);
    assert_eq!(send(app, &admin, "/admin/vat-rates", &[("country", "DE"), ("percent", "20"), ("from", "2020-06-01")]).await.status(), 303);

    // A task: done, and its order line fulfilled.
    let (number, task) = order_with_a_task(&shop, "admin-shop").await;
    assert_eq!(send(app, &admin, &format!("/admin/tasks/{task}/done"), &[]).await.status(), 303);
    assert_eq!(shop.order(&number).await["status"], "fulfilled");

    // An account blocked: its key stops working; unblocked, it works again.
    let (_, customer_email) = someone(app, "customer", false).await;
    let customer = app.services.app.accounts.users.user_by_email(&kernel::Email::parse(&customer_email).unwrap()).await.unwrap();
    // Keys are made only for a confirmed address.
    app.services.store.email_tokens().set_email_confirmed(customer.id, time::OffsetDateTime::now_utc()).await.unwrap();
    let key = app
        .services
        .app
        .accounts
        .users
        .create_api_key(&customer.email, Some("k"), accounts::Scopes::all())
        .await
        .unwrap()
        .secret
        .expose()
        .to_owned();
    assert_eq!(send(app, &admin, &format!("/admin/users/{}/block", customer.id), &[]).await.status(), 303);
    assert_eq!(app.get_with_token("/api/v1/me", &key).await.status, 403);
    assert_eq!(send(app, &admin, &format!("/admin/users/{}/unblock", customer.id), &[]).await.status(), 303);
    assert_eq!(app.get_with_token("/api/v1/me", &key).await.status, 200);
    // A choice the button does not offer names no page, and changes nothing.
    assert_eq!(send(app, &admin, &format!("/admin/users/{}/ban", customer.id), &[]).await.status(), 404);
    assert_eq!(app.get_with_token("/api/v1/me", &key).await.status, 200);
    let users = get(app, Some(&admin), &format!("/admin/users?q={}", &customer_email[..12])).await.text().await.unwrap();
    assert!(users.contains(&customer_email) && !users.contains(&admin_email), "the search finds the account, and only it");

    // A repeated action changes nothing and logs nothing; a form without its token is refused.
    let again = send(app, &admin, &format!("/admin/tasks/{task}/done"), &[]).await;
    assert_eq!(again.status(), 303);
    assert!(again.headers()["location"].to_str().unwrap().contains("done=task_already_done"));
    let forged = no_redirects()
        .post(app.url("/admin/prices/launch"))
        .header("Cookie", format!("ld_session={}", admin.session))
        .header("Sec-Fetch-Site", "same-origin")
        .header("Content-Type", "application/x-www-form-urlencoded")
        .body("csrf=stale&cents=100")
        .send()
        .await
        .unwrap();
    assert_eq!(forged.status(), 403);
    assert_eq!(launch_price(&shop, "still").await, 6900);

    // The log: every change, with who and when, searchable.
    let log = app.services.app.accounts.admin.audit(None, kernel::PageRequest::default()).await.unwrap();
    let actions: Vec<&str> = log.items.iter().map(|entry| entry.action.as_str()).collect();
    assert_eq!(actions, ["user.unblock", "user.block", "task.done", "vat_rate.set", "price.set"], "newest first");
    assert!(log.items.iter().all(|entry| entry.actor_email == admin_email && entry.at <= time::OffsetDateTime::now_utc()));
    assert_eq!(log.items[4].detail, "$49.00 -> $69.00");
    let page = get(app, Some(&admin), "/admin/audit?q=price").await.text().await.unwrap();
    assert!(page.contains("price.set") && !page.contains("task.done"), "the search narrows the log");
}

#[tokio::test]
async fn an_admin_reprices_discounts_a_vote_hides_a_review_and_finishes_a_task_in_the_browser() {
    use thirtyfour::prelude::*;
    let shop = shop_with(|settings| {
        settings.site_url = None;
        settings.job_workers = 1;
        settings.vote_min_account_age_hours = 0;
    })
    .await;
    let app = &shop.app;
    // This week's top listing, voted for by five accounts from one address within minutes.
    let listing = crate::votes::live_listing(app, "boardtop").await;
    for n in 0..5 {
        let voter = crate::votes::person(app, n, true, time::Duration::days(30)).await;
        assert_eq!(send(app, &voter, "/listings/boardtop/vote", &[("back", "/"), ("action", "vote")]).await.status(), 303);
    }
    let weekly = || async {
        let board = app.get("/api/v1/leaderboards/community-weekly").await.body;
        board["items"]
            .as_array()
            .unwrap()
            .iter()
            .find(|item| item["listing"]["slug"] == "boardtop")
            .map(|item| item["metric"]["value"].clone())
    };
    // The week's ranking is kept a second (docs/api.md, Freshness).
    let week_ttl = listings::calendar::CURRENT_WEEK_TTL.unsigned_abs();
    crate::helpers::eventually(week_ttl, "the five votes on the weekly board", || async { weekly().await == Some(json!(5)) }).await;
    // Two reviews: 2 and 4 stars, a rating of 3.
    let db = app.services.store.connection();
    for (n, stars) in [(0, 2), (1, 4)] {
        let reviewer =
            store_seaorm::testing::fixtures::user(db, &format!("reviewer{n}-{}@example.com", uuid::Uuid::new_v4().simple())).await;
        store_seaorm::testing::fixtures::review(db, listing, reviewer, stars, false).await;
    }
    let rating = || async { app.get("/api/v1/listings/boardtop").await.body["community_rating"]["average"].clone() };
    assert_eq!(rating().await, json!(3.0));
    let low = app.services.app.listings.reviews.recent(10).await.unwrap().into_iter().find(|(_, review)| review.rating == 2).unwrap().1.id;
    // Its logo, which the site team's lists show beside its name.
    let logo = app.services.app.media.keep_unqueued(media_image::generated::logo(42).into()).await.unwrap();
    store_seaorm::seed::set_pictures(db, listing, &logo, &[]).await.unwrap();
    let (number, task) = order_with_a_task(&shop, "browser-shop").await;
    let (_, email) = someone(app, "admin", true).await;

    let browser = crate::browser::Browser::start().await;
    browser
        .run("admin_pages", async {
            browser.driver.goto(&app.url("/signin?next=%2Fadmin")).await.unwrap();
            browser.field("E-mail").await.send_keys(&email).await.unwrap();
            browser.field("Password").await.send_keys("a long enough password").await.unwrap();
            browser.button("Sign in").await.click().await.unwrap();
            browser.wait_for_text("The site team's pages").await;
            browser.assert_accessible().await;
            // Every page's header links the admin pages for the site team.
            browser.driver.goto(&app.url("/")).await.unwrap();
            browser.driver.find(By::LinkText("Admin")).await.unwrap().click().await.unwrap();
            browser.wait_for_text("The site team's pages").await;

            browser.driver.find(By::LinkText("Prices")).await.unwrap().click().await.unwrap();
            browser.wait_for_text("The next quote uses a new price").await;
            let price = browser.field("New price of Paid launch (US cents, before VAT)").await;
            price.clear().await.unwrap();
            price.send_keys("7900").await.unwrap();
            browser.driver.find(By::Css("button[aria-label='Set the price of Paid launch']")).await.unwrap().click().await.unwrap();
            browser.wait_for_text("The new price is saved").await;
            browser.assert_accessible_light_and_dark().await;
            assert_eq!(launch_price(&shop, "after-the-change").await, 7900, "the next quote uses the new price");

            browser.driver.goto(&app.url("/admin/votes")).await.unwrap();
            browser.wait_for_text("bursts from one network").await;
            let shown = browser.driver.find(By::Css("a.admin-listing[href='/listings/boardtop'] img.logo.small")).await.unwrap();
            assert!(shown.prop("naturalWidth").await.unwrap().unwrap_or_default() != "0", "the listing's logo beside its name");
            browser.driver.find(By::Css("button[aria-label^='Discount vote']")).await.unwrap().click().await.unwrap();
            browser.wait_for_text("no longer counts").await;
            browser.assert_accessible().await;
            crate::helpers::eventually(week_ttl, "the discount on the weekly board", || async { weekly().await == Some(json!(4)) }).await;

            browser.driver.goto(&app.url("/admin/reviews")).await.unwrap();
            browser.driver.find(By::Css("a.admin-listing[href='/listings/boardtop'] img.logo.small")).await.unwrap();
            browser.driver.find(By::Css(format!("button[aria-label='Hide review {low}']"))).await.unwrap().click().await.unwrap();
            browser.wait_for_text(&format!("Review {low} is hidden")).await;
            assert_eq!(rating().await, json!(4.0), "the rating follows");

            // The paid order's invoice (issued by its job), as a page and a PDF.
            let mut invoices = String::new();
            for _ in 0..100 {
                browser.driver.goto(&app.url("/admin/invoices")).await.unwrap();
                invoices = browser.wait_for_text("Every VAT invoice").await;
                if invoices.contains("INV-000001") {
                    break;
                }
                tokio::time::sleep(std::time::Duration::from_millis(100)).await;
            }
            assert!(invoices.contains(&format!("order {number}")), "{invoices}");
            browser.assert_accessible().await;
            browser.driver.find(By::Css("a[aria-label='Open INV-000001']")).await.unwrap().click().await.unwrap();
            browser.wait_for_text("VAT invoice INV-000001").await;
            browser.assert_accessible().await;

            browser.driver.goto(&app.url("/admin/orders")).await.unwrap();
            // Every order is listed, not only those needing review: this one was paid.
            let row = browser.driver.find(By::XPath(format!("//tr[td[normalize-space()='order {number}']]"))).await.unwrap();
            assert!(row.text().await.unwrap().contains("paid"), "its status");
            browser.driver.find(By::Css(format!("button[aria-label='Mark task {task} done']"))).await.unwrap().click().await.unwrap();
            browser.wait_for_text("its order line is fulfilled").await;
            assert_eq!(shop.order(&number).await["status"], "fulfilled");
            browser.assert_accessible().await;

            browser.driver.goto(&app.url("/admin/audit")).await.unwrap();
            let log = browser.wait_for_text("Every admin action").await;
            for action in ["price.set", "vote.discount", "review.hide", "task.done"] {
                assert!(log.contains(action), "{action} is in the audit log: {log}");
            }
            assert!(log.contains(&email), "with who did it");
            browser.assert_accessible_light_and_dark().await;
        })
        .await;
}
