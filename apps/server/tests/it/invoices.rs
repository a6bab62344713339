//! VAT invoices and credit notes: every paid order gets one invoice (and the receipt e-mail),
//! numbered consecutively without gaps however many payments arrive at once, with the reverse
//! charge wording for an EU business; a refund cancels it with a credit note of its own series.
//! Runs on both databases, like the rest of this suite.

use crate::orders::{Shop, paid_event, shop_with};
use serde_json::{Value, json};

/// A paid order of a new listing of mine, billed as `billing` says: its number and id.
async fn paid_order(shop: &Shop, slug: &str, billing: Value) -> (String, i64) {
    let id = shop.listing(slug, "draft", None).await;
    let mut body = json!({"items": [{"product": "launch", "listing_id": id}, {"product": "ai_review", "listing_id": id}]});
    for (key, value) in billing.as_object().unwrap() {
        body[key] = value.clone();
    }
    let created = shop.checkout(body).await;
    assert_eq!(created.status, 201, "{:#}", created.body);
    let number = created.body["order"]["number"].as_str().unwrap().to_owned();
    let total = created.body["order"]["total_cents"].as_i64().unwrap();
    let (event, signature) = paid_event(&number, &format!("cs_{slug}"), total, "usd");
    assert_eq!(shop.webhook(&event, &signature).await, 200);
    let order = shop.app.services.app.commerce.orders.find(&number).await.unwrap();
    assert!(order.paid_at.is_some(), "the order is paid");
    (number, order.id)
}

#[tokio::test]
async fn invoice_numbers_run_without_gaps_when_many_are_issued_at_once() {
    let shop = shop_with(|_| {}).await;
    let orders = &shop.app.services.app.commerce.orders;
    let mut paid = Vec::new();
    for index in 0..10 {
        paid.push(paid_order(&shop, &format!("concurrent-{index}"), json!({"billing_country": "DE"})).await);
    }
    // Every order's invoice asked for twice, all at once: each order gets one, numbered once.
    let issued = futures_util::future::join_all(paid.iter().chain(&paid).map(|(_, id)| orders.issue_invoice(*id))).await;
    let issued: Vec<orders::Invoice> = issued.into_iter().map(|result| result.unwrap().expect("a paid order is invoiced")).collect();
    for (first, again) in issued[..paid.len()].iter().zip(&issued[paid.len()..]) {
        assert_eq!(first.number, again.number, "one invoice an order");
    }
    let mut sequences: Vec<i64> = issued[..paid.len()].iter().map(|invoice| invoice.sequence).collect();
    sequences.sort_unstable();
    assert_eq!(sequences, (1..=paid.len() as i64).collect::<Vec<_>>(), "consecutive from the first, no gaps, no repeats");
    assert!(issued.iter().all(|invoice| invoice.number == orders::DocumentKind::Invoice.number(invoice.sequence)));
    // An unpaid order is not invoiced.
    let id = shop.listing("unpaid", "draft", None).await;
    let pending = shop.checkout(json!({"items": [{"product": "launch", "listing_id": id}], "billing_country": "DE"})).await;
    let pending = orders.find(pending.body["order"]["number"].as_str().unwrap()).await.unwrap();
    assert!(orders.issue_invoice(pending.id).await.unwrap().is_none());
}

#[tokio::test]
async fn an_eu_business_gets_a_reverse_charge_invoice_and_a_refund_gets_a_credit_note() {
    // Workers on: the payment's own job issues the invoice and e-mails the receipt.
    let shop = shop_with(|settings| {
        settings.job_workers = 1;
        settings.seller_name = Some("Launchdir Ltd".into());
        settings.seller_address = Some("1 Main Street, Dublin".into());
        settings.seller_vat_number = Some("IE6388047V".into());
    })
    .await;
    let orders = &shop.app.services.app.commerce.orders;
    let billing = json!({"billing_country": "FR", "vat_number": "FR 40 303 265 045"});
    let (number, order_id) = paid_order(&shop, "business", billing).await;
    let owner = kernel::UserId::new(shop.me);
    let mut documents = Vec::new();
    for _ in 0..100 {
        documents = orders.documents_of(owner, &number).await.unwrap();
        if !documents.is_empty() {
            break;
        }
        tokio::time::sleep(std::time::Duration::from_millis(100)).await;
    }
    let invoice = documents.first().expect("the payment's job issued the invoice").clone();
    assert_eq!(invoice.kind, orders::DocumentKind::Invoice);
    let body = &invoice.body;
    assert!(body.vat_note.as_deref().is_some_and(|note| note.starts_with("Reverse charge")), "{body:?}");
    assert_eq!(body.buyer.vat_number.as_deref(), Some("FR 40 303 265 045"));
    assert_eq!((body.vat_cents, body.subtotal_cents), (0, body.total_cents), "no VAT charged");
    assert!(body.lines.iter().all(|line| line.vat_rate() == "0 %"), "{:?}", body.lines);
    assert_eq!((body.seller.name.as_str(), body.seller.vat_number.as_deref()), ("Launchdir Ltd", Some("IE6388047V")));
    assert!(body.lines[0].description.starts_with("Paid launch for"), "{:?}", body.lines[0]);
    // The receipt went out, naming the invoice.
    let mut receipt = None;
    for _ in 0..100 {
        let outbox = shop.app.services.store.outbox(50).await.unwrap();
        receipt = outbox.into_iter().find(|mail| mail.kind == "order_receipt");
        if receipt.is_some() {
            break;
        }
        tokio::time::sleep(std::time::Duration::from_millis(100)).await;
    }
    let receipt = receipt.expect("the receipt is e-mailed");
    assert!(receipt.subject.contains(&number) && receipt.body.contains(&invoice.number), "{receipt:?}");

    // Refunded by the site team: a credit note cancels the invoice, in its own series.
    orders.refund(&number, "asked by the buyer").await.unwrap();
    let documents = orders.documents_of(owner, &number).await.unwrap();
    assert_eq!(documents.len(), 2, "{documents:?}");
    let note = &documents[1];
    assert_eq!((note.kind, note.number.as_str()), (orders::DocumentKind::CreditNote, "CN-000001"));
    assert_eq!(note.body.credits.as_deref(), Some(invoice.number.as_str()));
    assert_eq!(note.body.total_cents, -invoice.body.total_cents);
    // Refunding again issues nothing more.
    orders.refund(&number, "again").await.unwrap();
    assert_eq!(orders.issue_credit_note(order_id).await.unwrap().unwrap().number, note.number);
    assert_eq!(orders.documents_of(owner, &number).await.unwrap().len(), 2);
    // Someone else's documents are not theirs to read.
    assert!(matches!(orders.document(kernel::UserId::new(shop.me + 1000), &invoice.number).await, Err(orders::OrderError::NotFound)));
}
