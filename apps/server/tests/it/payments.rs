//! Payments arriving: webhook events that count once, bad signatures, mismatched and late
//! payments, a launch paid for twice, cancelling on the checkout page, Stripe against a fake
//! Stripe on loopback, and VIES against a fake VIES.

use crate::orders::{SECRET, no_redirects, paid_event, post_form, shop, shop_with, week_ahead};
use serde_json::{Value, json};
use std::collections::HashMap;
use time::OffsetDateTime;

#[tokio::test]
async fn a_payment_event_counts_once_however_often_and_however_concurrently_it_arrives() {
    let shop = shop().await;
    let id = shop.listing("twice", "draft", None).await;
    let created = shop
        .checkout(
            json!({"items": [{"product": "featured", "listing_id": id}, {"product": "launch", "listing_id": id}], "billing_country": "US"}),
        )
        .await;
    let number = created.body["order"]["number"].as_str().unwrap().to_owned();
    let total = created.body["order"]["total_cents"].as_i64().unwrap();

    // A bad signature is refused and changes nothing.
    let (body, _) = paid_event(&number, "cs_1", total, "usd");
    let forged = payments::signature::sign("whsec_someone_else", &body, OffsetDateTime::now_utc());
    assert_eq!(shop.webhook(&body, &forged).await, 400);
    assert_eq!(shop.webhook(&body, "t=1,v1=00").await, 400);
    let mut tampered = body.clone();
    tampered.extend_from_slice(b" ");
    let (_, signature) = paid_event(&number, "cs_1", total, "usd");
    assert_eq!(shop.webhook(&tampered, &signature).await, 400);
    assert_eq!(shop.order(&number).await["status"], "pending");

    // The same event five times at once, then again: one settlement, one fulfilment job per line.
    let (body, signature) = paid_event(&number, "cs_1", total, "usd");
    let deliveries = (0..5).map(|_| shop.webhook(&body, &signature));
    for status in futures_util::future::join_all(deliveries).await {
        assert_eq!(status, 200);
    }
    assert_eq!(shop.webhook(&body, &signature).await, 200);
    // The same payment under another event id (reconciliation) changes nothing either.
    let (other_id, other_signature) = paid_event(&number, "cs_1", total, "usd");
    assert_eq!(shop.webhook(&other_id, &other_signature).await, 200);
    assert_eq!(shop.order(&number).await["status"], "paid");
    let db = shop.app.services.store.connection();
    use sea_orm::{ConnectionTrait, Statement};
    let count = |sql: &'static str| async move {
        let row = db.query_one_raw(Statement::from_string(db.get_database_backend(), sql)).await.unwrap().unwrap();
        row.try_get_by_index::<i64>(0).unwrap()
    };
    assert_eq!(count("SELECT COUNT(*) FROM jobs WHERE kind = 'order.fulfil'").await, 2, "one job per line");
    assert_eq!(count("SELECT COUNT(*) FROM payment_events").await, 2, "each event id once");
}

#[tokio::test]
async fn a_payment_that_does_not_match_needs_review_and_a_late_one_is_refunded() {
    let shop = shop_with(|settings| settings.job_workers = 1).await;
    let id = shop.listing("mismatch", "draft", None).await;
    let order = |body: Value| async { shop.checkout(body).await.body["order"].clone() };
    let short = order(json!({"items": [{"product": "featured", "listing_id": id}], "billing_country": "US"})).await;
    let number = short["number"].as_str().unwrap();
    let (body, signature) = paid_event(number, "cs_short", 100, "usd");
    assert_eq!(shop.webhook(&body, &signature).await, 200);
    let reviewed = shop.order(number).await;
    assert_eq!(reviewed["status"], "needs_review");
    assert!(reviewed["status_reason"].as_str().unwrap().contains("$1.00"), "{reviewed:#}");
    assert!(reviewed["lines"].as_array().unwrap().iter().all(|line| line["fulfilled"] == false));

    let euros = order(json!({"items": [{"product": "ai_review", "listing_id": id}], "billing_country": "US"})).await;
    let (body, signature) = paid_event(euros["number"].as_str().unwrap(), "cs_eur", euros["total_cents"].as_i64().unwrap(), "eur");
    assert_eq!(shop.webhook(&body, &signature).await, 200);
    assert_eq!(shop.order(euros["number"].as_str().unwrap()).await["status"], "needs_review", "the currency must match too");

    // Expired, then paid: refunded, with the reason.
    let late = order(json!({"items": [{"product": "ai_review", "listing_id": id}], "billing_country": "US"})).await;
    let number = late["number"].as_str().unwrap();
    let db = shop.app.services.store.connection();
    use sea_orm::{ConnectionTrait, Statement};
    db.execute_raw(Statement::from_sql_and_values(
        db.get_database_backend(),
        match db.get_database_backend() {
            sea_orm::DbBackend::Postgres => "UPDATE orders SET expires_at = $1 WHERE number = $2",
            _ => "UPDATE orders SET expires_at = ? WHERE number = ?",
        },
        [(OffsetDateTime::now_utc() - time::Duration::hours(25)).into(), number.into()],
    ))
    .await
    .unwrap();
    assert_eq!(shop.app.services.app.commerce.orders.expire_due().await.unwrap(), 1);
    assert_eq!(shop.order(number).await["status"], "expired");
    let (body, signature) = paid_event(number, "cs_late", late["total_cents"].as_i64().unwrap(), "usd");
    assert_eq!(shop.webhook(&body, &signature).await, 200);
    let refunded = shop.order_until(number, |order| order["status"] == "refunded").await;
    assert!(refunded["status_reason"].as_str().unwrap().contains("expired"), "{refunded:#}");
    assert!(refunded["refunded_at"].is_string());

    // Another payment for the refunded order (a second session) goes back too; the order stays as it is.
    let (body, signature) = paid_event(number, "cs_late_again", late["total_cents"].as_i64().unwrap(), "usd");
    assert_eq!(shop.webhook(&body, &signature).await, 200);
    let row = db
        .query_one_raw(Statement::from_string(db.get_database_backend(), "SELECT COUNT(*) FROM jobs WHERE kind = 'order.refund'"))
        .await
        .unwrap()
        .unwrap();
    assert_eq!(row.try_get_by_index::<i64>(0).unwrap(), 2, "one refund per payment");
    assert_eq!(shop.order(number).await["status"], "refunded");
}

#[tokio::test]
async fn a_launch_paid_for_twice_is_applied_once_and_the_second_goes_to_the_site_team() {
    let shop = shop_with(|settings| settings.job_workers = 1).await;
    let id = shop.listing("twice-launched", "draft", None).await;
    let mut numbers = Vec::new();
    // Both orders pass their checks: neither is paid when the other is made.
    for week in [None, Some(week_ahead(4))] {
        let mut item = json!({"product": "launch", "listing_id": id});
        if let Some(week) = week {
            item["week"] = json!(week);
        }
        let created = shop.checkout(json!({"items": [item], "billing_country": "US"})).await;
        assert_eq!(created.status, 201, "{:#}", created.body);
        numbers
            .push((created.body["order"]["number"].as_str().unwrap().to_owned(), created.body["order"]["total_cents"].as_i64().unwrap()));
    }
    for (number, total) in &numbers {
        let (body, signature) = paid_event(number, &format!("cs_{number}"), *total, "usd");
        assert_eq!(shop.webhook(&body, &signature).await, 200);
    }
    let first = shop.order_until(&numbers[0].0, |order| order["status"] == "fulfilled").await;
    assert_eq!(first["lines"][0]["outcome"], "live at once");
    let second = shop.order_until(&numbers[1].0, |order| order["lines"][0]["outcome"].is_string()).await;
    assert_eq!(second["status"], "paid");
    assert_eq!(second["lines"][0]["fulfilled"], false);
    assert!(second["lines"][0]["outcome"].as_str().unwrap().contains("another order paid"), "{second:#}");
    let tasks = shop.app.services.app.commerce.orders.tasks(true).await.unwrap();
    assert!(tasks.iter().any(|task| task.kind == "launch_review" && task.order_number.as_str() == numbers[1].0), "{tasks:?}");
    let mine = shop.app.get_with_token(&format!("/api/v1/me/listings/{id}"), &shop.key).await;
    assert_eq!(mine.body["status"], "live", "the second order's week did not move the launch: {:#}", mine.body);
}

#[tokio::test]
async fn a_buyer_cancels_on_the_checkout_page_and_a_payment_after_that_is_refunded() {
    let shop = shop_with(|settings| settings.job_workers = 1).await;
    let id = shop.listing("change-of-mind", "draft", None).await;
    let created = shop.checkout(json!({"items": [{"product": "launch", "listing_id": id}], "billing_country": "US"})).await;
    let number = created.body["order"]["number"].as_str().unwrap().to_owned();
    let url = created.body["checkout_url"].as_str().unwrap().replace("https://launch.example", &shop.app.address);
    let (path, token) = url.split_once("?t=").unwrap();
    let client = no_redirects();
    assert_eq!(post_form(&client, format!("{path}/cancel"), &[("t", "wrong")]).await.status(), 404);
    let canceled = post_form(&client, format!("{path}/cancel"), &[("t", token)]).await;
    assert_eq!(canceled.status(), 200);
    let page = canceled.text().await.unwrap();
    assert!(page.contains("<strong>canceled</strong>") && !page.contains("Continue to payment"), "{page}");
    assert_eq!(post_form(&client, format!("{path}/cancel"), &[("t", token)]).await.status(), 409);
    assert_eq!(post_form(&client, format!("{path}/pay"), &[("t", token)]).await.status(), 409, "a canceled order takes no payment");
    let order = shop.order(&number).await;
    assert_eq!((order["status"].as_str(), order["status_reason"].as_str()), (Some("canceled"), Some("canceled by the buyer")));

    let (body, signature) = paid_event(&number, "cs_after_cancel", order["total_cents"].as_i64().unwrap(), "usd");
    assert_eq!(shop.webhook(&body, &signature).await, 200);
    let refunded = shop.order_until(&number, |order| order["status"] == "refunded").await;
    assert!(refunded["status_reason"].as_str().unwrap().contains("canceled"), "{refunded:#}");
}

#[tokio::test]
async fn stripe_checkout_sessions_signed_events_refunds_and_reconciliation_against_a_fake_stripe() {
    use outbound_http::testing::{FixtureServer, Route};
    let stripe = FixtureServer::start(HashMap::from([
        (
            "/v1/checkout/sessions".to_owned(),
            Route::new(200, "application/json", r#"{"id": "cs_fake_1", "url": "https://checkout.stripe.test/c/cs_fake_1"}"#),
        ),
        ("/v1/refunds".to_owned(), Route::new(200, "application/json", r#"{"id": "re_1", "status": "succeeded"}"#)),
        (
            "/v1/checkout/sessions/cs_fake_1/expire".to_owned(),
            Route::new(200, "application/json", r#"{"id": "cs_fake_1", "status": "expired"}"#),
        ),
    ]))
    .await;
    const STRIPE_SECRET: &str = "whsec_fake_stripe";
    let shop = shop_with(|settings| {
        settings.payments.provider = "stripe".into();
        settings.payments.stripe_api_base = stripe.url("");
        settings.payments.stripe_secret_key = Some("sk_test_fake".into());
        settings.payments.stripe_webhook_secret = Some(STRIPE_SECRET.into());
        settings.payments.stripe_payment_methods = vec!["card".into(), "paypal".into()];
    })
    .await;
    let id = shop.listing("striped", "draft", None).await;
    let created = shop.checkout(json!({"items": [{"product": "launch", "listing_id": id}], "billing_country": "DE"})).await;
    let number = created.body["order"]["number"].as_str().unwrap().to_owned();
    let url = created.body["checkout_url"].as_str().unwrap().replace("https://launch.example", &shop.app.address);
    let (path, token) = url.split_once("?t=").unwrap();
    let client = no_redirects();
    let pay = post_form(&client, format!("{path}/pay"), &[("t", token)]).await;
    assert_eq!(pay.status(), 303);
    assert_eq!(pay.headers()["location"], "https://checkout.stripe.test/c/cs_fake_1");

    let session = stripe.received().into_iter().find(|request| request.target == "/v1/checkout/sessions").expect("a session was created");
    assert_eq!(session.method, "POST");
    assert_eq!(session.header("authorization"), Some("Bearer sk_test_fake"));
    assert_eq!(session.header("content-type"), Some("application/x-www-form-urlencoded"));
    let key = session.header("idempotency-key").unwrap();
    assert!(key.starts_with(&format!("checkout-{number}-5831-DE-")), "keyed by the order, its price and the session's expiry: {key}");
    let form: HashMap<String, String> = serde_urlencoded::from_str(&session.body).unwrap();
    assert_eq!(form["mode"], "payment");
    assert_eq!(form["client_reference_id"], number);
    assert_eq!(form["line_items[0][price_data][currency]"], "usd");
    assert_eq!(form["line_items[0][price_data][unit_amount]"], "4900");
    assert_eq!(form["line_items[1][price_data][unit_amount]"], "931", "the VAT is its own line");
    assert_eq!(form["line_items[1][price_data][product_data][name]"], "VAT 19 %");
    assert_eq!((form["payment_method_types[0]"].as_str(), form["payment_method_types[1]"].as_str()), ("card", "paypal"));
    assert!(form["success_url"].starts_with(&format!("https://launch.example/checkout/{number}?t=")));

    // New billing details close the session opened at the old price before re-pricing.
    let changed = post_form(&client, format!("{path}/billing"), &[("t", token), ("name", "Ada GmbH"), ("country", "DE")]).await;
    assert_eq!(changed.status(), 200);
    let expired = stripe
        .received()
        .into_iter()
        .find(|request| request.target == "/v1/checkout/sessions/cs_fake_1/expire")
        .expect("the old session was closed");
    assert_eq!(expired.method, "POST");
    assert_eq!(expired.header("idempotency-key"), Some("expire-cs_fake_1"));

    // Stripe's signed event settles the order; the test provider's path does not exist here.
    let body = json!({"id": "evt_fake_1", "type": "checkout.session.completed", "data": {"object": {
        "id": "cs_fake_1", "client_reference_id": number, "payment_status": "paid", "payment_intent": "pi_fake_1",
        "amount_total": 5831, "currency": "usd"}}})
    .to_string();
    let post = |path: &'static str, signature: String| {
        shop.app.client.post(shop.app.url(path)).header("Stripe-Signature", signature).body(body.clone()).send()
    };
    let now = OffsetDateTime::now_utc();
    assert_eq!(
        post("/webhooks/payments/stripe", payments::signature::sign("whsec_wrong", body.as_bytes(), now)).await.unwrap().status(),
        400
    );
    let stale = payments::signature::sign(STRIPE_SECRET, body.as_bytes(), now - time::Duration::seconds(301));
    assert_eq!(post("/webhooks/payments/stripe", stale).await.unwrap().status(), 400, "older than 300 s");
    assert_eq!(shop.order(&number).await["status"], "pending");
    assert_eq!(post("/webhooks/payments/test", payments::signature::sign(SECRET, body.as_bytes(), now)).await.unwrap().status(), 404);
    assert_eq!(
        post("/webhooks/payments/stripe", payments::signature::sign(STRIPE_SECRET, body.as_bytes(), now)).await.unwrap().status(),
        200
    );
    assert_eq!(shop.order(&number).await["status"], "paid");

    // A refund by the site team goes to Stripe, keyed by the payment.
    let refunded = shop.app.services.app.commerce.orders.refund(&number, "asked by the buyer").await.unwrap();
    assert_eq!(refunded.status, orders::OrderStatus::Refunded);
    let refund = stripe.received().into_iter().find(|request| request.target == "/v1/refunds").expect("a refund was asked for");
    assert_eq!(refund.header("idempotency-key"), Some("refund-pi_fake_1"));
    let form: HashMap<String, String> = serde_urlencoded::from_str(&refund.body).unwrap();
    assert_eq!((form["payment_intent"].as_str(), form["amount"].as_str()), ("pi_fake_1", "5831"));

    // A payment whose webhook never came is settled by reconciliation, once.
    let other =
        shop.checkout(json!({"items": [{"product": "ai_review", "listing_id": id}], "billing_country": "US"})).await.body["order"].clone();
    let other_number = other["number"].as_str().unwrap();
    let listing = json!({"object": "list", "has_more": false, "data": [{
        "id": "cs_fake_2", "client_reference_id": other_number, "payment_status": "paid", "payment_intent": "pi_fake_2",
        "amount_total": other["total_cents"], "currency": "usd", "status": "complete"}]});
    stripe.set_route("/v1/checkout/sessions", Route::new(200, "application/json", listing.to_string()));
    let orders = &shop.app.services.app.commerce.orders;
    assert_eq!(orders.reconcile(time::Duration::hours(6)).await.unwrap(), 1);
    assert_eq!(shop.order(other_number).await["status"], "paid");
    assert_eq!(orders.reconcile(time::Duration::hours(6)).await.unwrap(), 0, "a settled payment is not settled again");
    let asked = stripe.received().into_iter().rfind(|request| request.method == "GET").unwrap();
    assert!(asked.target.starts_with("/v1/checkout/sessions?status=complete&limit=100&created%5Bgte%5D="), "{}", asked.target);
}

#[tokio::test]
async fn vies_answers_valid_invalid_and_unavailable_is_unknown() {
    use orders::{RegistryAnswer, VatNumber, VatNumberRegistry};
    use outbound_http::testing::{FixtureServer, Route};
    let json = |body: &str| Route::new(200, "application/json", body.to_owned());
    let vies = FixtureServer::start(HashMap::from([(
        "/check-vat-number".to_owned(),
        json(r#"{"countryCode": "FR", "vatNumber": "40303265045", "valid": true}"#),
    )]))
    .await;
    let registry = payments::ViesRegistry::with_base(&vies.url("")).unwrap();
    let number = VatNumber::parse("FR40303265045").unwrap();
    assert_eq!(registry.check(&number).await, RegistryAnswer::Valid);
    let asked: Value = serde_json::from_str(&vies.received()[0].body).unwrap();
    assert_eq!(asked, json!({"countryCode": "FR", "vatNumber": "40303265045"}));
    vies.set_route("/check-vat-number", json(r#"{"valid": false}"#));
    assert_eq!(registry.check(&number).await, RegistryAnswer::Invalid);
    vies.set_route("/check-vat-number", json(r#"{"actionSucceed": false, "errorWrappers": [{"error": "MS_UNAVAILABLE"}]}"#));
    assert_eq!(registry.check(&number).await, RegistryAnswer::Unavailable, "a member state that does not answer is unknown, not invalid");
    vies.set_route("/check-vat-number", Route::hang_up());
    assert_eq!(registry.check(&number).await, RegistryAnswer::Unavailable);
}
