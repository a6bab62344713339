//! Buying a launch as a person does: a week whose paid launch places are all taken is not sold
//! (the quote says so, the paid launch page shows it full), and the checkout page in a real
//! browser, from billing details to the receipt.

use crate::orders::{shop_with, week_ahead};
use kernel::Week;
use serde_json::json;
use store_seaorm::testing::fixtures;
use time::OffsetDateTime;

#[tokio::test]
async fn a_week_whose_paid_launch_places_are_taken_is_not_sold() {
    let shop = shop_with(|settings| settings.paid_launches_per_week = 1).await;
    let db = shop.app.services.store.connection();
    let now = OffsetDateTime::now_utc();
    let booked = fixtures::listing(db, "booked", "scheduled", Week::at(now, time::UtcOffset::UTC).plus_weeks(2), now).await;
    fixtures::set_plan(db, booked, "paid").await;
    let mine = shop.listing("mine", "draft", None).await;
    let full = shop.quote(json!({"items": [{"product": "launch", "listing_id": mine, "week": week_ahead(2)}]})).await;
    full.assert_invalid(&["items[0].week"]);
    assert!(full.body.to_string().contains("is full"), "{:#}", full.body);
    let open = shop.quote(json!({"items": [{"product": "launch", "listing_id": mine, "week": week_ahead(3)}]})).await;
    assert_eq!(open.status, 200, "{:#}", open.body);
    assert_eq!(
        shop.app.services.app.commerce.orders.full_paid_weeks().await.unwrap(),
        vec![Week::at(now, time::UtcOffset::UTC).plus_weeks(2)]
    );
}

#[tokio::test]
async fn a_person_pays_on_the_checkout_page_in_a_real_browser() {
    // The browser follows the site's own links: the site is the server's real address.
    let shop = shop_with(|settings| {
        settings.job_workers = 1;
        settings.site_url = None;
    })
    .await;
    let id = shop.listing("browser-shop", "draft", None).await;
    let created = shop.checkout(json!({"items": [{"product": "launch", "listing_id": id}]})).await;
    let number = created.body["order"]["number"].as_str().unwrap().to_owned();
    let url = created.body["checkout_url"].as_str().unwrap().replace("https://launch.example", &shop.app.address);
    let browser = crate::browser::Browser::start().await;
    browser
        .run("checkout_page", async {
            browser.driver.goto(&url).await.unwrap();
            browser.wait_for_text(&format!("Order {number}")).await;
            browser.assert_accessible().await;
            // Paying needs a country first; the page says so beside the field.
            browser.button("Continue to payment").await.click().await.unwrap();
            browser.wait_for_text("Country is needed before payment").await;
            browser.field("Name or company").await.send_keys("Ada Lovelace").await.unwrap();
            browser.choose("Country", "Germany").await;
            browser.button("Update prices").await.click().await.unwrap();
            let page = browser.wait_for_text("VAT (19 %)").await;
            assert!(page.contains("$58.31"), "{page}");
            browser.assert_accessible().await;
            browser.button("Continue to payment").await.click().await.unwrap();
            browser.wait_for_text("This is a test payment").await;
            browser.assert_accessible().await;
            browser.button("Pay").await.click().await.unwrap();
            // Back on the checkout page, which now shows the order's status.
            let status = browser.wait_for_text("This order is paid").await;
            assert!(status.contains(&format!("Receipt for order {number}")) && status.contains("Paid on "), "{status}");
            // The receipt names the listing it was bought for, linked to the owner's page of it.
            let link = browser.driver.find(thirtyfour::By::XPath("//td//a[contains(@href, \"/account/listings/\")]")).await.unwrap();
            assert_eq!(link.attr("href").await.unwrap().as_deref(), Some(format!("/account/listings/{id}").as_str()));
        })
        .await;
    let order = shop.order_until(&number, |order| order["status"] == "fulfilled").await;
    assert_eq!(order["billing_country"], "DE");
}
