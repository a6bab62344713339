//! Co-founder invitations: each address once per draft, ten per draft, and daily quotas per
//! account and per recipient; the subject line holds only the site's words.

use crate::drafts::{site, spawn};
use crate::helpers::spawn_app_with;
use outbound_http::testing::FixtureServer;
use serde_json::{Value, json};

#[tokio::test]
async fn invitations_are_emailed_at_most_ten_times() {
    let app = spawn().await;
    let fixture = FixtureServer::site(&site("bare")).await;
    let (_, token) = app.api_key("").await;
    let draft = app.draft_of(&fixture.url("/"), &token).await;
    let path = format!("/api/v1/drafts/{}/invites", draft["id"].as_str().unwrap());
    app.post_json(&path, &token, json!({"email": "not an address"})).await.assert_invalid(&["email"]);
    app.post_json(&path, &token, json!({})).await.assert_invalid(&["email"]);
    let unique = uuid::Uuid::new_v4().simple().to_string();
    for n in 0..10 {
        let reply = app.post_json(&path, &token, json!({"email": format!("cofounder{n}-{unique}@quillnote.example")})).await;
        assert_eq!(reply.status, 201, "{:#}", reply.body);
        assert_eq!(reply.body["invites_left"], 9 - n);
    }
    app.post_json(&path, &token, json!({"email": format!("eleventh-{unique}@quillnote.example")})).await.assert_invalid(&["email"]);
    let outbox = app.services.store.outbox(1000).await.unwrap();
    let sent: Vec<_> = outbox.iter().filter(|e| e.to.contains(&unique)).collect();
    assert_eq!(sent.len(), 10);
    // The product's name is in the body, never in the subject: that line is only our words.
    assert_eq!(sent[0].subject, "An invitation to add your founder profile on Launchdir");
    assert!(sent[0].body.contains("Quillnote"));
    assert!(sent[0].body.contains("https://launch.example/invites/"));
    assert_eq!(sent[0].kind, "draft_invite");

    let other = app.draft_of(&fixture.url("/"), &token).await;
    let other_path = format!("/api/v1/drafts/{}/invites", other["id"].as_str().unwrap());
    let address = format!("twice-{unique}@quillnote.example");
    assert_eq!(app.post_json(&other_path, &token, json!({"email": address})).await.status, 201);
    app.post_json(&other_path, &token, json!({"email": address})).await.assert_invalid(&["email"]);
}

#[tokio::test]
async fn invitations_are_bounded_per_account_and_per_recipient_each_day() {
    let app = spawn_app_with(|settings| {
        settings.crawler.allow_private_networks = true;
        settings.job_workers = 2;
        settings.job_lease_seconds = 5;
        settings.invites_per_account_per_day = 4;
        settings.invites_per_recipient_per_day = 2;
    })
    .await;
    let fixture = FixtureServer::site(&site("bare")).await;
    let unique = uuid::Uuid::new_v4().simple().to_string();
    let invites_of = |draft: &Value| format!("/api/v1/drafts/{}/invites", draft["id"].as_str().unwrap());

    // One account, two drafts: four invitations in all, then 429 whichever draft sends.
    let (_, token) = app.api_key("").await;
    let (first, second) = (app.draft_of(&fixture.url("/"), &token).await, app.draft_of(&fixture.url("/"), &token).await);
    for n in 0..4 {
        let draft = if n % 2 == 0 { &first } else { &second };
        let reply = app.post_json(&invites_of(draft), &token, json!({"email": format!("a{n}-{unique}@quillnote.example")})).await;
        assert_eq!(reply.status, 201, "{:#}", reply.body);
    }
    let refused = app.post_json(&invites_of(&second), &token, json!({"email": format!("a9-{unique}@quillnote.example")})).await;
    refused.assert_problem(429, "rate_limited");
    let wait: u32 = refused.header("retry-after").unwrap().parse().unwrap();
    assert!((86_000..=86_400).contains(&wait), "{wait}");

    // One recipient: two invitations a day from anyone, then 429 for the next sender.
    let target = format!("popular-{unique}@quillnote.example");
    for _ in 0..2 {
        let (_, token) = app.api_key("").await;
        let draft = app.draft_of(&fixture.url("/"), &token).await;
        assert_eq!(app.post_json(&invites_of(&draft), &token, json!({"email": target})).await.status, 201);
    }
    let (_, token) = app.api_key("").await;
    let draft = app.draft_of(&fixture.url("/"), &token).await;
    app.post_json(&invites_of(&draft), &token, json!({"email": target})).await.assert_problem(429, "rate_limited");
    let outbox = app.services.store.outbox(1000).await.unwrap();
    assert_eq!(outbox.iter().filter(|e| e.to.contains(&unique)).count(), 6, "nothing sent beyond the quotas");
}
