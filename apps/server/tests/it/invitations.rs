//! Co-founder invitations: each address once per draft, ten per draft, and daily quotas per
//! account and per recipient; the subject line holds only the site's words.

use crate::drafts::{site, spawn};
use crate::helpers::spawn_app_with;
use outbound_http::testing::FixtureServer;
use sea_orm::ConnectionTrait;
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

/// The token of the newest invitation e-mailed to `address`.
async fn invite_token(app: &crate::helpers::TestApp, address: &str) -> String {
    let outbox = app.services.store.outbox(1000).await.unwrap();
    let mail = outbox.iter().rev().find(|mail| mail.to == address).expect("an invitation in the outbox");
    mail.body.split("/invites/").nth(1).unwrap().split_whitespace().next().unwrap().to_owned()
}

#[tokio::test]
async fn the_invited_cofounder_adds_their_profile_once_through_the_emailed_link() {
    let app = spawn().await;
    let fixture = FixtureServer::site(&site("bare")).await;
    let (_, owner_key) = app.api_key("").await;
    let draft = app.draft_of(&fixture.url("/"), &owner_key).await;
    let draft_path = format!("/api/v1/drafts/{}", draft["id"].as_str().unwrap());
    let address = format!("cofounder-{}@quillnote.example", uuid::Uuid::new_v4().simple());
    assert_eq!(app.post_json(&format!("{draft_path}/invites"), &owner_key, json!({"email": address})).await.status, 201);
    let token = invite_token(&app, &address).await;
    let link = format!("/invites/{token}");

    // Not signed in: the page names the product and the address, and asks to sign in first.
    let anonymous = crate::orders::no_redirects().get(app.url(&link)).send().await.unwrap();
    assert_eq!(anonymous.status(), 200);
    let page = anonymous.text().await.unwrap();
    assert!(page.contains("Quillnote") && page.contains(&address), "{page}");
    assert!(page.contains(&format!("/signin?next=%2Finvites%2F{token}")));

    // Someone signed in with another address (a forwarded link) is told which address to use.
    let stranger = crate::votes::person(&app, 8, true, time::Duration::days(1)).await;
    let elsewhere = crate::my_account::page_of_path(&app, &stranger, &link).await;
    assert!(elsewhere.contains("signed in with another address") && !elsewhere.contains("Add my founder profile"), "{elsewhere}");
    let refused = crate::reviews::send(&app, &stranger, &link, &[("name", "Mallory"), ("title", ""), ("bio", "")]).await;
    assert_eq!(refused.status(), 403);

    let session = app.services.app.accounts.signin.sign_up(&address, "Ada", "a long enough password").await.unwrap();
    let cofounder = crate::votes::Person { session: session.token, csrf: session.csrf_token, user: session.user.id };
    let signed_in = crate::my_account::page_of_path(&app, &cofounder, &link).await;
    assert!(signed_in.contains("Add my founder profile"), "{signed_in}");
    let blank = crate::reviews::send(&app, &cofounder, &link, &[("name", " "), ("title", "CTO"), ("bio", "")]).await;
    assert_eq!(blank.status(), 400);
    let page = blank.text().await.unwrap();
    assert!(page.contains(r#"aria-describedby="founder-name-error""#) && page.contains(r#"value="CTO""#), "{page}");
    let founders = |view: &Value| {
        view["founders"]["value"].as_array().unwrap().iter().map(|f| f["name"].as_str().unwrap().to_owned()).collect::<Vec<_>>()
    };
    assert!(!founders(&app.get_with_token(&draft_path, &owner_key).await.body).contains(&"Ada Quill".to_owned()), "nothing saved");

    let accepted =
        crate::reviews::send(&app, &cofounder, &link, &[("name", "Ada Quill"), ("title", "CTO"), ("bio", "Builds the editor.")]).await;
    assert_eq!(accepted.status(), 200);
    assert!(accepted.text().await.unwrap().contains("Your founder profile is added"));
    let view = app.get_with_token(&draft_path, &owner_key).await.body;
    assert!(founders(&view).contains(&"Ada Quill".to_owned()), "{view:#}");
    assert_ne!(view["founders"]["state"], "ai", "the section is people's word now");

    assert!(!founders(&view).contains(&"Mallory".to_owned()));

    // Once the draft is submitted, a founder who accepts later reaches its listing too.
    let categorised = app.patch_json(&draft_path, &owner_key, json!({"fields": {"categories": ["productivity"]}})).await;
    assert_eq!(categorised.status, 200, "{:#}", categorised.body);
    let submitted = app.post_json(&format!("{draft_path}/submit"), &owner_key, json!({})).await;
    assert!(submitted.status.is_success(), "{:#}", submitted.body);
    let listing_id = submitted.body["listing_id"].as_i64().unwrap();
    let second = format!("second-{address}");
    assert_eq!(app.post_json(&format!("{draft_path}/invites"), &owner_key, json!({"email": second})).await.status, 201);
    let second_link = format!("/invites/{}", invite_token(&app, &second).await);
    let session = app.services.app.accounts.signin.sign_up(&second, "Grace", "a long enough password").await.unwrap();
    let grace = crate::votes::Person { session: session.token, csrf: session.csrf_token, user: session.user.id };
    let accepted = crate::reviews::send(&app, &grace, &second_link, &[("name", "Grace Quill"), ("title", "CEO"), ("bio", "")]).await;
    assert_eq!(accepted.status(), 200);
    assert!(accepted.text().await.unwrap().contains("its listing takes the change"));
    let mine = app.get_with_token(&format!("/api/v1/me/listings/{listing_id}"), &owner_key).await.body;
    let on_listing: Vec<&str> = mine["profile"]["founders"].as_array().unwrap().iter().map(|f| f["name"].as_str().unwrap()).collect();
    assert!(on_listing.contains(&"Grace Quill") && on_listing.contains(&"Ada Quill"), "{on_listing:?}");

    // The link works once; an unknown link is 404; an old one has expired.
    assert_eq!(crate::reviews::send(&app, &cofounder, &link, &[("name", "Ada Again")]).await.status(), 410);
    assert_eq!(crate::orders::no_redirects().get(app.url("/invites/not-a-real-token")).send().await.unwrap().status(), 404);
    let later = format!("late-{address}");
    assert_eq!(app.post_json(&format!("{draft_path}/invites"), &owner_key, json!({"email": later})).await.status, 201);
    let old = invite_token(&app, &later).await;
    let db = app.services.store.connection();
    let sql = match db.get_database_backend() {
        sea_orm::DatabaseBackend::Postgres => "UPDATE draft_invites SET created_at = $1 WHERE email = $2",
        _ => "UPDATE draft_invites SET created_at = ? WHERE email = ?",
    };
    let fifteen_days_ago = time::OffsetDateTime::now_utc() - time::Duration::days(15);
    db.execute_raw(sea_orm::Statement::from_sql_and_values(
        db.get_database_backend(),
        sql,
        [fifteen_days_ago.into(), later.clone().into()],
    ))
    .await
    .unwrap();
    assert_eq!(crate::orders::no_redirects().get(app.url(&format!("/invites/{old}"))).send().await.unwrap().status(), 410);
}
