//! Orders: VAT in quotes, every order item rule, checkout on the site through the test
//! provider's payment page to fulfilment (over HTTP and in a real browser), someone else's
//! order, the site team's commands and the latency measurement. Payments arriving are in
//! `payments.rs`. The `Shop` helpers here serve both.

use crate::helpers::{Reply, TestApp, spawn_empty_app_with};
use kernel::Week;
use serde_json::{Value, json};
use std::collections::HashMap;
use store_seaorm::testing::fixtures;
use time::OffsetDateTime;

pub(crate) const SECRET: &str = "whsec_test_orders";

pub(crate) struct Shop {
    pub(crate) app: TestApp,
    pub(crate) key: String,
    pub(crate) me: i64,
}

pub(crate) async fn shop_with(change: impl FnOnce(&mut launchdir_server::settings::Settings)) -> Shop {
    let app = spawn_empty_app_with(|settings| {
        settings.payments.test_webhook_secret = Some(SECRET.into());
        change(settings);
    })
    .await;
    fixtures::products(app.services.store.connection()).await;
    let (_, key) = app.api_key("").await;
    let me = app.get_with_token("/api/v1/me", &key).await.body["user"]["id"].as_i64().unwrap();
    Shop { app, key, me }
}

pub(crate) async fn shop() -> Shop {
    shop_with(|_| {}).await
}

impl Shop {
    /// A listing of mine in `status` on `plan`.
    pub(crate) async fn listing(&self, slug: &str, status: &str, plan: Option<&str>) -> i64 {
        let db = self.app.services.store.connection();
        let now = OffsetDateTime::now_utc();
        let id = fixtures::listing(db, slug, status, Week::at(now, time::UtcOffset::UTC).plus_weeks(7), now).await;
        fixtures::set_owner(db, id, self.me).await;
        if let Some(plan) = plan {
            fixtures::set_plan(db, id, plan).await;
        }
        id
    }

    pub(crate) async fn quote(&self, body: Value) -> Reply {
        self.app.send(self.app.client.post(self.app.url("/api/v1/orders/quote")).bearer_auth(&self.key).json(&body)).await
    }

    pub(crate) async fn checkout(&self, body: Value) -> Reply {
        self.app.send(self.app.client.post(self.app.url("/api/v1/orders/checkout")).bearer_auth(&self.key).json(&body)).await
    }

    pub(crate) async fn order(&self, number: &str) -> Value {
        let reply = self.app.get_with_token(&format!("/api/v1/orders/{number}"), &self.key).await;
        assert_eq!(reply.status, 200, "{:#}", reply.body);
        reply.body
    }

    /// Polls `get_order` until `done` holds (at most 30 s).
    pub(crate) async fn order_until(&self, number: &str, done: impl Fn(&Value) -> bool) -> Value {
        for _ in 0..300 {
            let order = self.order(number).await;
            if done(&order) {
                return order;
            }
            tokio::time::sleep(std::time::Duration::from_millis(100)).await;
        }
        panic!("order {number} never reached the expected state: {:#}", self.order(number).await);
    }

    pub(crate) async fn webhook(&self, body: &[u8], signature: &str) -> reqwest::StatusCode {
        let request =
            self.app.client.post(self.app.url("/webhooks/payments/test")).header("Stripe-Signature", signature).body(body.to_vec());
        request.send().await.unwrap().status()
    }
}

pub(crate) fn week_ahead(weeks: i64) -> String {
    Week::at(OffsetDateTime::now_utc(), time::UtcOffset::UTC).plus_weeks(weeks).to_string()
}

/// A form POST, as a browser sends one.
pub(crate) async fn post_form(client: &reqwest::Client, url: impl reqwest::IntoUrl, fields: &[(&str, &str)]) -> reqwest::Response {
    let body = serde_urlencoded::to_string(fields).unwrap();
    client.post(url).header("Content-Type", "application/x-www-form-urlencoded").body(body).send().await.unwrap()
}

pub(crate) fn no_redirects() -> reqwest::Client {
    crate::helpers::client_builder().redirect(reqwest::redirect::Policy::none()).build().unwrap()
}

/// A signed `checkout.session.completed` for `number`, as the test provider (or Stripe) sends it.
pub(crate) fn paid_event(number: &str, session: &str, amount: i64, currency: &str) -> (Vec<u8>, String) {
    let body = json!({
        "id": format!("evt_{}", kernel::secrets::random_token().unwrap()),
        "type": "checkout.session.completed",
        "data": {"object": {"id": session, "client_reference_id": number, "payment_status": "paid",
            "payment_intent": format!("pi_{session}"), "amount_total": amount, "currency": currency}},
    })
    .to_string()
    .into_bytes();
    let signature = payments::signature::sign(SECRET, &body, OffsetDateTime::now_utc());
    (body, signature)
}

#[tokio::test]
async fn vat_follows_the_buyer_the_number_and_the_seller() {
    let shop = shop().await;
    let id = shop.listing("vat-co", "draft", None).await;
    let item = json!([{"product": "launch", "listing_id": id}]);
    let site = shop.app.get("/api/v1/site").await;
    assert_eq!(site.body["seller_country"], "IE", "{:#}", site.body);

    let german = shop.quote(json!({"items": item, "billing_country": "DE"})).await;
    assert_eq!(german.status, 200, "{:#}", german.body);
    assert_eq!(
        (german.body["subtotal_cents"].as_i64(), german.body["vat_cents"].as_i64(), german.body["total_cents"].as_i64()),
        (Some(4900), Some(931), Some(5831))
    );
    assert_eq!(german.body["vat_rate"], 19.0);
    assert_eq!(german.body["items"][0]["vat_cents"], 931);
    assert_eq!(german.body["vat"]["treatment"], "eu_consumer");
    assert_eq!(german.body["vat_number_check"], "none");

    let french_business = shop.quote(json!({"items": item, "billing_country": "FR", "vat_number": "FR 40 303 265 045"})).await;
    assert_eq!(french_business.body["reverse_charge"], true, "{:#}", french_business.body);
    assert_eq!((french_business.body["vat_rate"].as_f64(), french_business.body["vat_cents"].as_i64()), (Some(0.0), Some(0)));
    assert_eq!(french_business.body["vat_number_check"], "checksum");
    assert_eq!(french_business.body["vat_number_valid"], true);

    let wrong_digits = shop.quote(json!({"items": item, "billing_country": "FR", "vat_number": "FR41303265045"})).await;
    assert_eq!(wrong_digits.body["reverse_charge"], false);
    assert_eq!((wrong_digits.body["vat_rate"].as_f64(), wrong_digits.body["vat_cents"].as_i64()), (Some(20.0), Some(980)));
    assert_eq!(wrong_digits.body["vat_number_check"], "checksum");
    assert_eq!(wrong_digits.body["vat_number_valid"], false);

    let american = shop.quote(json!({"items": item, "billing_country": "US"})).await;
    assert_eq!((american.body["vat_cents"].as_i64(), american.body["vat"]["treatment"].as_str()), (Some(0), Some("outside_scope")));

    // The seller's own country pays its rate, VAT number or not.
    let irish = shop.quote(json!({"items": item, "billing_country": "IE", "vat_number": "IE6388047V"})).await;
    assert_eq!((irish.body["vat_rate"].as_f64(), irish.body["vat_cents"].as_i64()), (Some(23.0), Some(1127)), "{:#}", irish.body);
    assert_eq!(irish.body["reverse_charge"], false);

    let unknown_country = shop.quote(json!({"items": item})).await;
    assert_eq!(unknown_country.body["vat"]["treatment"], "country_needed");

    // A rate the administrator changes applies from its date.
    let store = shop.app.services.store.vat_rates();
    let today = OffsetDateTime::now_utc().date();
    store
        .set(&orders::VatRateEntry {
            country: kernel::CountryCode::parse("DE").unwrap(),
            rate: orders::VatRate::parse_percent("21").unwrap(),
            valid_from: today,
        })
        .await
        .unwrap();
    assert_eq!(shop.quote(json!({"items": item, "billing_country": "DE"})).await.body["vat_cents"], 1029);

    // Nothing was saved.
    assert_eq!(shop.app.get_with_token("/api/v1/orders", &shop.key).await.body["total"], 0);
}

#[tokio::test]
async fn every_order_item_rule_is_a_400_naming_its_place_and_nothing_is_saved() {
    let shop = shop().await;
    let draft = shop.listing("rules-draft", "draft", None).await;
    let live = shop.listing("rules-live", "live", Some("free")).await;
    let queued = shop.listing("rules-queued", "awaiting_badge", Some("free")).await;
    let (_, stranger) = shop.app.api_key("").await;
    let theirs = {
        let db = shop.app.services.store.connection();
        let stranger_id = shop.app.get_with_token("/api/v1/me", &stranger).await.body["user"]["id"].as_i64().unwrap();
        let id =
            fixtures::listing(db, "theirs", "draft", Week::at(OffsetDateTime::now_utc(), time::UtcOffset::UTC), OffsetDateTime::now_utc())
                .await;
        fixtures::set_owner(db, id, stranger_id).await;
        id
    };
    let db = shop.app.services.store.connection();
    let primary = fixtures::category(db, "tools").await;
    fixtures::category(db, "design").await;
    fixtures::category(db, "ai").await;
    fixtures::category(db, "data").await;
    fixtures::in_category(db, live, primary, true).await;

    let cases: Vec<(Value, Vec<&str>)> = vec![
        (json!([{"product": "nope", "listing_id": draft}]), vec!["items[0].product"]),
        (json!([{"product": "launch"}]), vec!["items[0].listing_id"]),
        (json!([{"product": "launch", "listing_id": theirs}]), vec!["items[0].listing_id"]),
        (json!([{"product": "launch", "listing_id": 999_999}]), vec!["items[0].listing_id"]),
        (json!([{"product": "launch", "listing_id": live}]), vec!["items[0].listing_id"]),
        (json!([{"product": "launch", "listing_id": draft, "week": week_ahead(40)}]), vec!["items[0].week"]),
        (json!([{"product": "launch", "listing_id": draft, "week": "2026-13-01"}]), vec!["items[0].week"]),
        (json!([{"product": "skip_queue", "listing_id": queued}]), vec!["items[0].week"]),
        (json!([{"product": "skip_queue", "listing_id": draft, "week": week_ahead(2)}]), vec!["items[0].listing_id"]),
        (json!([{"product": "skip_queue", "listing_id": queued, "week": week_ahead(7)}]), vec!["items[0].week"]),
        (
            json!([{"product": "launch", "listing_id": queued}, {"product": "skip_queue", "listing_id": queued, "week": week_ahead(2)}]),
            vec!["items[1].listing_id"],
        ),
        (
            json!([{"product": "launch_bundle", "listing_id": draft}, {"product": "featured", "listing_id": draft}, {"product": "ai_review", "listing_id": draft}]),
            vec!["items[1].listing_id", "items[2].listing_id"],
        ),
        (json!([{"product": "relaunch", "listing_id": live}]), vec!["items[0].week"]),
        (json!([{"product": "relaunch", "listing_id": draft, "week": week_ahead(2)}]), vec!["items[0].listing_id"]),
        (json!([{"product": "featured", "listing_id": live, "week": week_ahead(2)}]), vec!["items[0].week"]),
        (json!([{"product": "billboard_min", "listing_id": live, "amount_cents": 499}]), vec!["items[0].amount_cents"]),
        (json!([{"product": "featured", "listing_id": live, "amount_cents": 900}]), vec!["items[0].amount_cents"]),
        (json!([{"product": "extra_categories", "listing_id": live}]), vec!["items[0].categories"]),
        (
            json!([{"product": "extra_categories", "listing_id": live, "categories": ["design", "ai", "data", "tools"]}]),
            vec!["items[0].categories"],
        ),
        (
            json!([{"product": "extra_categories", "listing_id": live, "categories": ["design", "nope", "tools"]}]),
            vec!["items[0].categories[1]", "items[0].categories[2]"],
        ),
        (json!([{"product": "featured", "listing_id": live, "categories": ["design"]}]), vec!["items[0].categories"]),
        (json!([{"product": "featured", "listing_id": live, "options": {"placement": "sidebar"}}]), vec!["items[0].options.placement"]),
        (json!([{"product": "featured", "listing_id": live, "options": {"colour": "red"}}]), vec!["items[0].options.colour"]),
        (json!([{"product": "ai_review", "listing_id": live, "options": {"placement": "homepage"}}]), vec!["items[0].options"]),
        (json!([{"product": "featured", "listing_id": live}, {"product": "featured", "listing_id": live}]), vec!["items[1].product"]),
        (json!([{"product": "featured", "listing_id": live, "colour": "red"}]), vec!["items[0].colour"]),
        (json!([]), vec!["items"]),
        (json!((0..21).map(|_| json!({"product": "ai_review", "listing_id": live})).collect::<Vec<_>>()), vec!["items"]),
    ];
    for (items, fields) in cases {
        for reply in [shop.quote(json!({"items": items})).await, shop.checkout(json!({"items": items})).await] {
            assert_eq!(reply.status, 400, "{items}: {:#}", reply.body);
            reply.assert_invalid(&fields);
        }
    }
    shop.quote(json!({"items": [{"product": "featured", "listing_id": live}], "billing_country": "Germany"}))
        .await
        .assert_invalid(&["billing_country"]);
    shop.quote(json!({"items": [{"product": "featured", "listing_id": live}], "vat_number": "X".repeat(33)}))
        .await
        .assert_invalid(&["vat_number"]);
    // Every bad field of the body in one 400, on quote and checkout alike: a country that is
    // not a code does not hide the empty items and the over-long VAT number.
    let everything_wrong = json!({"items": [], "billing_country": "Germany", "vat_number": "X".repeat(33)});
    shop.quote(everything_wrong.clone()).await.assert_invalid(&["billing_country", "items", "vat_number"]);
    shop.checkout(everything_wrong).await.assert_invalid(&["billing_country", "items", "vat_number"]);

    // The valid forms of the same items pass.
    let fine = shop
        .quote(json!({"items": [
            {"product": "skip_queue", "listing_id": queued, "week": week_ahead(2)},
            {"product": "relaunch", "listing_id": live, "week": week_ahead(3)},
            {"product": "billboard_min", "listing_id": live, "amount_cents": 2500},
            {"product": "extra_categories", "listing_id": live, "categories": ["design", "ai"]},
            {"product": "featured", "listing_id": live, "options": {"placement": "category"}},
            {"product": "launch", "listing_id": draft},
        ]}))
        .await;
    assert_eq!(fine.status, 200, "{:#}", fine.body);
    assert_eq!(fine.body["subtotal_cents"], 1900 + 2900 + 2500 + 1500 + 9900 + 4900);
    assert_eq!(shop.app.get_with_token("/api/v1/orders", &shop.key).await.body["total"], 0, "a refused checkout saves nothing");
}

/// Opens the checkout page, sets the billing country, presses pay and then the test page's
/// **Pay**; returns the order number.
async fn pay_on_the_site(shop: &Shop, checkout_url: &str, country: &str) -> String {
    let client = no_redirects();
    let url = checkout_url.replace("https://launch.example", &shop.app.address);
    let (path, token) = url.split_once("?t=").unwrap();
    let number = path.rsplit('/').next().unwrap().to_owned();
    let page = client.get(&url).send().await.unwrap();
    assert_eq!(page.status(), 200);
    let html = page.text().await.unwrap();
    assert!(html.contains(&number) && html.contains("<label for=\"country\">"), "{html}");
    assert_eq!(client.get(format!("{path}?t=wrong")).send().await.unwrap().status(), 404, "the token is the page's key");

    let priced =
        post_form(&client, format!("{path}/billing"), &[("t", token), ("name", "Ada"), ("address", "1 Main St"), ("country", "ZZZ")]).await;
    assert_eq!(priced.status(), 400, "a bad country is shown beside its field");
    assert!(priced.text().await.unwrap().contains("id=\"country-error\""));
    let priced =
        post_form(&client, format!("{path}/billing"), &[("t", token), ("name", "Ada"), ("address", "1 Main St"), ("country", country)])
            .await;
    assert_eq!(priced.status(), 200);
    let html = priced.text().await.unwrap();
    assert!(html.contains("VAT (19 %)"), "{html}");

    let to_provider = post_form(&client, format!("{path}/pay"), &[("t", token)]).await;
    assert_eq!(to_provider.status(), 303);
    let provider_page = to_provider.headers()["location"].to_str().unwrap().replace("https://launch.example", &shop.app.address);
    let page = client.get(&provider_page).send().await.unwrap().text().await.unwrap();
    assert!(page.contains("This is a test payment") && page.contains(">Pay</button>") && page.contains(">Decline</button>"), "{page}");
    let (session_path, query) = provider_page.split_once('?').unwrap();
    let query: HashMap<String, String> = serde_urlencoded::from_str(query).unwrap();
    assert_eq!(query["t"], token, "the test provider's page carries the checkout token");
    // The order number and session alone open and pay nothing: the checkout token is the key.
    let without_token = format!("{session_path}?order={}", query["order"]);
    assert_eq!(client.get(&without_token).send().await.unwrap().status(), 404);
    for guess in ["", "wrong"] {
        let refused = post_form(&client, session_path, &[("order", query["order"].as_str()), ("t", guess), ("action", "pay")]).await;
        assert_eq!(refused.status(), 404, "Pay with the token {guess:?}");
    }
    assert_eq!(shop.order(&number).await["status"], "pending", "nothing was paid without the token");
    let declined = post_form(
        &client,
        session_path,
        &[("order", query["order"].as_str()), ("t", token), ("return", query["return"].as_str()), ("action", "decline")],
    )
    .await;
    assert_eq!(declined.status(), 303);
    assert_eq!(shop.order(&number).await["status"], "pending", "a declined payment leaves the order pending");
    let paid = post_form(
        &client,
        session_path,
        &[("order", query["order"].as_str()), ("t", token), ("return", query["return"].as_str()), ("action", "pay")],
    )
    .await;
    assert_eq!(paid.status(), 303);
    assert!(paid.headers()["location"].to_str().unwrap().starts_with("https://launch.example/checkout/"));
    number
}

#[tokio::test]
async fn paying_on_the_checkout_page_fulfils_every_product_once() {
    let shop = shop_with(|settings| settings.job_workers = 1).await;
    let db = shop.app.services.store.connection();
    let fresh = shop.listing("fresh", "draft", None).await;
    let later = shop.listing("later", "draft", None).await;
    let bundle = shop.listing("bundle", "draft", None).await;
    let live = shop.listing("veteran", "live", Some("free")).await;
    let queued = shop.listing("queued", "awaiting_badge", Some("free")).await;
    fixtures::category(db, "design").await;
    let body = json!({"items": [
        {"product": "launch", "listing_id": fresh},
        {"product": "launch", "listing_id": later, "week": week_ahead(3)},
        {"product": "launch_bundle", "listing_id": bundle},
        {"product": "skip_queue", "listing_id": queued, "week": week_ahead(2)},
        {"product": "featured", "listing_id": live},
        {"product": "extra_categories", "listing_id": live, "categories": ["design"]},
        {"product": "billboard_min", "listing_id": live, "amount_cents": 1234},
        {"product": "relaunch", "listing_id": live, "week": week_ahead(1)},
        {"product": "ai_review", "listing_id": live},
        {"product": "done_for_you", "listing_id": live},
    ]});
    let created = shop
        .app
        .send(
            shop.app
                .client
                .post(shop.app.url("/api/v1/orders/checkout"))
                .bearer_auth(&shop.key)
                .header("Idempotency-Key", "order-1")
                .json(&body),
        )
        .await;
    assert_eq!(created.status, 201, "{:#}", created.body);
    let replay = shop
        .app
        .send(
            shop.app
                .client
                .post(shop.app.url("/api/v1/orders/checkout"))
                .bearer_auth(&shop.key)
                .header("Idempotency-Key", "order-1")
                .json(&body),
        )
        .await;
    assert_eq!(replay.header("idempotent-replayed"), Some("true"));
    assert_eq!(replay.body["order"]["number"], created.body["order"]["number"]);
    assert_eq!(shop.app.get_with_token("/api/v1/orders", &shop.key).await.body["total"], 1, "a replay makes no second order");
    // The token is kept hashed only, in the idempotency record too: a replay issues a new one.
    let (first_url, checkout_url) = (created.body["checkout_url"].as_str().unwrap(), replay.body["checkout_url"].as_str().unwrap());
    assert!(checkout_url.contains("?t=") && checkout_url != first_url, "{checkout_url}");
    let first_url = first_url.replace("https://launch.example", &shop.app.address);
    assert_eq!(no_redirects().get(&first_url).send().await.unwrap().status(), 404, "the first link stops working");
    {
        use sea_orm::{ConnectionTrait, Statement};
        let db = shop.app.services.store.connection();
        let stored = db
            .query_all_raw(Statement::from_string(db.get_database_backend(), "SELECT response_body FROM idempotency_keys"))
            .await
            .unwrap();
        assert!(!stored.is_empty());
        for row in stored {
            let body: Value = row.try_get_by_index(0).unwrap();
            assert!(!body.to_string().contains("?t="), "no checkout token is stored: {body}");
        }
    }
    let number = created.body["order"]["number"].as_str().unwrap().to_owned();
    assert!(number.starts_with("LD-") && number.len() == 13);
    assert_eq!(created.body["order"]["status"], "pending");

    assert_eq!(pay_on_the_site(&shop, checkout_url, "DE").await, number);
    // Every line but those waiting for the site team's tasks is fulfilled by the jobs.
    let order = shop
        .order_until(&number, |order| order["lines"].as_array().unwrap().iter().filter(|line| line["fulfilled"] == true).count() == 7)
        .await;
    assert_eq!(order["status"], "paid", "{order:#}");
    assert!(order["paid_at"].is_string());
    assert_eq!(order["vat"]["rate_percent"], 19.0);
    // The jobs run one after another: wait for the three task lines too.
    let mut tasks = Vec::new();
    for _ in 0..300 {
        tasks = shop.app.services.app.commerce.orders.tasks(true).await.unwrap();
        if tasks.len() >= 3 {
            break;
        }
        tokio::time::sleep(std::time::Duration::from_millis(100)).await;
    }
    assert_eq!(tasks.len(), 3, "ai_review, done_for_you and the bundle's review: {tasks:?}");
    for task in tasks {
        shop.app.services.app.commerce.orders.finish_task(task.id).await.unwrap();
    }
    let order = shop.order(&number).await;
    assert_eq!(order["status"], "fulfilled", "{order:#}");

    let db = shop.app.services.store.connection();
    let status = |id: i64| fixtures::status(db, id);
    assert_eq!(status(fresh).await, "live");
    assert_eq!(status(later).await, "scheduled");
    assert_eq!(status(bundle).await, "live");
    let mine = shop.app.get_with_token(&format!("/api/v1/me/listings/{fresh}"), &shop.key).await;
    assert_eq!(mine.body["plan"], "paid");
    let unlocked = mine.body["unlocked_sections"].to_string();
    assert!(
        ["story", "milestones", "media"].iter().all(|section| unlocked.contains(section)),
        "the paid plan unlocks its sections: {unlocked}"
    );
    assert_eq!(shop.app.get_with_token(&format!("/api/v1/me/listings/{queued}"), &shop.key).await.body["launch_week"], week_ahead(2));
    let badges = shop.app.get("/api/v1/listings/veteran/badges").await;
    assert!(badges.body.to_string().contains("featured"), "{:#}", badges.body);
    let board = shop.app.get("/api/v1/leaderboards/billboard").await;
    assert!(board.body.to_string().contains("veteran"), "{:#}", board.body);
    let outcome = order["lines"][1]["outcome"].as_str().unwrap();
    assert!(outcome.contains("scheduled for the week of"), "{outcome}");
}

#[tokio::test]
async fn someone_elses_order_is_404_on_rest_and_mcp() {
    let shop = shop().await;
    let id = shop.listing("private-order", "draft", None).await;
    let number = shop.checkout(json!({"items": [{"product": "launch", "listing_id": id}]})).await.body["order"]["number"]
        .as_str()
        .unwrap()
        .to_owned();
    let (_, stranger) = shop.app.api_key("").await;
    shop.app.get_with_token(&format!("/api/v1/orders/{number}"), &stranger).await.assert_problem(404, "not_found");
    shop.app.get_with_token("/api/v1/orders/LD-AAAAAAAAAA", &shop.key).await.assert_problem(404, "not_found");
    assert_eq!(shop.app.get_with_token("/api/v1/orders", &stranger).await.body["total"], 0);
    let mine = shop.app.get_with_token("/api/v1/orders", &shop.key).await;
    assert_eq!(mine.body["items"][0]["number"], number.as_str());

    let theirs = shop.app.call_tool("get_order", json!({"number": number}), Some(&stranger)).await;
    assert_eq!(theirs["isError"], true, "{theirs:#}");
    assert!(theirs.to_string().contains("not_found"), "{theirs:#}");
    let own = shop.app.call_tool("get_order", json!({"number": number}), Some(&shop.key)).await;
    assert_ne!(own["isError"], true, "{own:#}");
    assert_eq!(own["structuredContent"]["number"], number.as_str(), "{own:#}");
}

#[tokio::test]
async fn the_site_team_sets_prices_and_vat_rates_and_works_orders_and_tasks_from_the_command_line() {
    use std::process::Command;
    let shop = shop_with(|settings| settings.job_workers = 1).await;
    let run = |args: &[&str]| {
        let settings = crate::helpers::settings_for_app(&shop.app);
        let mut command = Command::new(env!("CARGO_BIN_EXE_launchdir"));
        command.args(args).env("LAUNCHDIR_DATABASE_URL", settings.0).env("LAUNCHDIR_LOG_LEVEL", "warn");
        if let Some(schema) = settings.1 {
            command.env("LAUNCHDIR_DATABASE_SCHEMA", schema);
        }
        let output = command.output().unwrap();
        (
            output.status.success(),
            String::from_utf8_lossy(&output.stdout).into_owned(),
            String::from_utf8_lossy(&output.stderr).into_owned(),
        )
    };
    let (ok, out, _) = run(&["prices", "set", "launch", "5900"]);
    assert!(ok && out.contains("$59.00"), "{out}");
    let (ok, _, err) = run(&["prices", "set", "nope", "100"]);
    assert!(!ok && err.contains("no product"), "{err}");
    assert!(run(&["prices", "list"]).1.contains("launch\t5900"));
    let (ok, out, _) = run(&["vat-rates", "set", "DE", "20.5", "--from", "2020-01-01"]);
    assert!(ok && out.contains("20.5 %"), "{out}");
    let (ok, _, err) = run(&["vat-rates", "set", "DE", "101", "--from", "2020-01-01"]);
    assert!(!ok && err.contains("PERCENT"), "{err}");
    let id = shop.listing("cli-shop", "draft", None).await;
    let quote = shop.quote(json!({"items": [{"product": "launch", "listing_id": id}], "billing_country": "DE"})).await;
    assert_eq!(
        (quote.body["subtotal_cents"].as_i64(), quote.body["vat_rate"].as_f64()),
        (Some(5900), Some(19.0)),
        "the new price; the 2021 rate is newer than the one from 2020: {:#}",
        quote.body
    );

    let created = shop.checkout(json!({"items": [{"product": "ai_review", "listing_id": id}], "billing_country": "US"})).await;
    let number = created.body["order"]["number"].as_str().unwrap().to_owned();
    let (body, signature) = paid_event(&number, "cs_cli", created.body["order"]["total_cents"].as_i64().unwrap(), "usd");
    assert_eq!(shop.webhook(&body, &signature).await, 200);
    // The fulfilment job opens the task.
    for _ in 0..300 {
        if !shop.app.services.app.commerce.orders.tasks(true).await.unwrap().is_empty() {
            break;
        }
        tokio::time::sleep(std::time::Duration::from_millis(100)).await;
    }
    let (ok, out, _) = run(&["tasks", "list"]);
    assert!(ok && out.contains("ai_review") && out.contains(&number), "{out}");
    let task = out.lines().next().unwrap().split('\t').next().unwrap().to_owned();
    assert!(run(&["orders", "list", "--status", "paid"]).1.contains(&number));
    assert!(run(&["orders", "show", &number]).1.contains("ai_review"));
    let (ok, out, _) = run(&["tasks", "done", &task]);
    assert!(ok && out.contains("is done"), "{out}");
    assert_eq!(shop.order(&number).await["status"], "fulfilled");
    let (ok, out, err) = run(&["orders", "refund", &number]);
    assert!(ok && out.contains("refunded"), "{out}{err}");
    let (ok, _, err) = run(&["orders", "show", "LD-AAAAAAAAAA"]);
    assert!(!ok && err.contains("no order"), "{err}");
}

/// `cargo xtask bench --orders` (release): median and p99 latency of `quote_order` (three items,
/// VAT for a German buyer) and `get_order` (three lines) beside `get_site_info`, one client, one
/// request at a time, interleaved in one run. Measures only.
#[tokio::test]
#[ignore = "a measurement; run by `cargo xtask bench --orders`"]
async fn measure_order_reads_against_site_info() {
    let shop = shop_with(|settings| settings.rate_limits.enabled = false).await;
    let db = shop.app.services.store.connection();
    fixtures::category(db, "design").await;
    let id = shop.listing("bench-shop", "draft", None).await;
    let items = json!({"items": [
        {"product": "launch", "listing_id": id, "week": week_ahead(3)},
        {"product": "featured", "listing_id": id, "options": {"placement": "homepage"}},
        {"product": "extra_categories", "listing_id": id, "categories": ["design"]},
    ], "billing_country": "DE"});
    let number = shop.checkout(items.clone()).await.body["order"]["number"].as_str().unwrap().to_owned();
    let timed = crate::helpers::timed;
    let (mut site, mut quote, mut order) = (Vec::new(), Vec::new(), Vec::new());
    for round in 0..2200 {
        let site_time = timed(shop.app.client.get(shop.app.url("/api/v1/site"))).await;
        let quote_time = timed(shop.app.client.post(shop.app.url("/api/v1/orders/quote")).bearer_auth(&shop.key).json(&items)).await;
        let order_time = timed(shop.app.client.get(shop.app.url(&format!("/api/v1/orders/{number}"))).bearer_auth(&shop.key)).await;
        // The first 200 rounds warm up connections and caches.
        if round >= 200 {
            site.push(site_time);
            quote.push(quote_time);
            order.push(order_time);
        }
    }
    for list in [&mut site, &mut quote, &mut order] {
        list.sort_by(f64::total_cmp);
    }
    let median = |list: &[f64]| list[list.len() / 2];
    let p99 = |list: &[f64]| list[list.len() * 99 / 100];
    eprintln!("| read | median | p99 | median / get_site_info's |");
    eprintln!("|---|---|---|---|");
    for (name, list) in [("get_site_info", &site), ("quote_order (3 items, DE)", &quote), ("get_order (3 lines)", &order)] {
        eprintln!("| {name} | {:.3} ms | {:.3} ms | {:.2} |", median(list), p99(list), median(list) / median(&site));
    }
    let backend = crate::helpers::backend_name();
    eprintln!("({} rounds after 200 warm-up rounds, one client, {backend})", site.len());
}
