//! Owners and their listings: list and read them, and the free launch queue.

use crate::helpers::spawn_empty_app;
use kernel::Week;
use serde_json::json;
use store_seaorm::testing::fixtures;
use time::OffsetDateTime;

#[tokio::test]
async fn owners_see_their_listings_of_any_status_and_nobody_elses() {
    let app = spawn_empty_app().await;
    let (_, key) = app.api_key("").await;
    let (_, other) = app.api_key("").await;
    let me = app.get_with_token("/api/v1/me", &key).await.body["user"]["id"].as_i64().unwrap();
    let db = app.services.store.connection();
    let now = OffsetDateTime::now_utc();
    let week = Week::at(now, time::UtcOffset::UTC);
    let draft = fixtures::listing(db, "mine-draft", "draft", week, now).await;
    let live = fixtures::listing(db, "mine-live", "live", week, now).await;
    let theirs = fixtures::listing(db, "theirs", "draft", week, now).await;
    fixtures::set_owner(db, draft, me).await;
    fixtures::set_owner(db, live, me).await;

    let list = app.get_with_token("/api/v1/me/listings", &key).await;
    assert_eq!(list.status, 200, "{:#}", list.body);
    assert_eq!(list.body["total"], 2);
    let statuses: Vec<&str> = list.body["items"].as_array().unwrap().iter().map(|i| i["status"].as_str().unwrap()).collect();
    assert!(statuses.contains(&"draft") && statuses.contains(&"live"));
    let one = app.get_with_token(&format!("/api/v1/me/listings/{draft}"), &key).await;
    assert_eq!(one.body["slug"], "mine-draft");
    assert_eq!(one.body["public_url"], serde_json::Value::Null, "a draft has no public page");
    // Everything public too, even before publication.
    assert_eq!(one.body["profile"]["name"], "MINE-DRAFT");
    assert_eq!(one.body["profile"]["url"], "https://mine-draft.example");
    let live_view = app.get_with_token(&format!("/api/v1/me/listings/{live}"), &key).await;
    assert_eq!(live_view.body["public_url"], "https://launch.example/listings/mine-live");

    app.get_with_token(&format!("/api/v1/me/listings/{theirs}"), &key).await.assert_problem(404, "not_found");
    app.get_with_token(&format!("/api/v1/me/listings/{draft}"), &other).await.assert_problem(404, "not_found");
    assert_eq!(app.get_with_token("/api/v1/me/listings", &other).await.body["total"], 0);
    app.get_with_token("/api/v1/me/listings/0", &key).await.assert_invalid(&["listing_id"]);
    app.get_with_token("/api/v1/me/listings/abc", &key).await.assert_invalid(&["listing_id"]);
}

#[tokio::test]
async fn the_free_queue_takes_the_earliest_week_with_room_and_never_moves_a_listing() {
    let app = spawn_empty_app().await;
    let (_, key) = app.api_key("").await;
    let me = app.get_with_token("/api/v1/me", &key).await.body["user"]["id"].as_i64().unwrap();
    let db = app.services.store.connection();
    let now = OffsetDateTime::now_utc();
    let current = Week::at(now, time::UtcOffset::UTC);
    // Week +6 is full (20 free launches); +7 has room.
    for n in 0..20 {
        let id = fixtures::listing(db, &format!("full-{n}"), "awaiting_badge", current.plus_weeks(6), now).await;
        fixtures::set_plan(db, id, "free").await;
    }
    let mine = fixtures::listing(db, "queued", "draft", current, now).await;
    fixtures::set_owner(db, mine, me).await;
    let path = format!("/api/v1/me/listings/{mine}/free");
    let first = app.send(app.client.post(app.url(&path)).bearer_auth(&key)).await;
    assert_eq!(first.status, 200, "{:#}", first.body);
    assert_eq!(first.body["outcome"], "queued");
    assert_eq!(first.body["launch_week"], current.plus_weeks(7).to_string());
    assert_eq!(first.body["listing"]["status"], "awaiting_badge");
    assert_eq!(first.body["listing"]["plan"], "free");
    // Again: nothing moves, even when an earlier week has room now.
    let second = app.send(app.client.post(app.url(&path)).bearer_auth(&key)).await;
    assert_eq!(second.body["outcome"], "already_queued");
    assert_eq!(second.body["launch_week"], first.body["launch_week"]);

    // Only the owner; only a draft.
    let (_, other) = app.api_key("").await;
    app.send(app.client.post(app.url(&path)).bearer_auth(&other)).await.assert_problem(404, "not_found");
    let live = fixtures::listing(db, "already-live", "live", current, now).await;
    fixtures::set_owner(db, live, me).await;
    let refused = app.send(app.client.post(app.url(&format!("/api/v1/me/listings/{live}/free"))).bearer_auth(&key)).await;
    refused.assert_invalid(&["listing_id"]);
    assert!(refused.body["errors"][0]["message"].as_str().unwrap().contains("live"));
    let (_, reader) = app.api_key("account:read").await;
    app.send(app.client.post(app.url(&path)).bearer_auth(&reader)).await.assert_problem(403, "insufficient_scope");
    // Takes no body.
    let with_body = app.send(app.client.post(app.url(&path)).bearer_auth(&key).json(&json!({"week": "2030-01-07"}))).await;
    with_body.assert_invalid(&["body"]);
}

#[tokio::test]
async fn milestones_and_the_founder_story() {
    let app = spawn_empty_app().await;
    let (_, key) = app.api_key("").await;
    let (_, other) = app.api_key("").await;
    let me = app.get_with_token("/api/v1/me", &key).await.body["user"]["id"].as_i64().unwrap();
    let db = app.services.store.connection();
    let now = OffsetDateTime::now_utc();
    let week = Week::at(now, time::UtcOffset::UTC);
    let live = fixtures::listing(db, "storied", "live", week, now).await;
    let elsewhere = fixtures::listing(db, "elsewhere", "live", week, now).await;
    fixtures::set_owner(db, live, me).await;
    fixtures::set_owner(db, elsewhere, me).await;
    let milestones = format!("/api/v1/me/listings/{live}/milestones");

    let added = app
        .send(
            app.client
                .post(app.url(&milestones))
                .bearer_auth(&key)
                .json(&json!({"date": "2025-03-01", "title": "First customer", "url": "https://storied.example/blog/1"})),
        )
        .await;
    assert_eq!(added.status, 201, "{:#}", added.body);
    assert_eq!(added.body["shown_publicly"], false, "milestones are a paid-only section");
    let id = added.body["id"].as_i64().unwrap();
    // Bounds.
    let post = |body: serde_json::Value| app.send(app.client.post(app.url(&milestones)).bearer_auth(&key).json(&body));
    post(json!({"title": "No date"})).await.assert_invalid(&["date"]);
    post(json!({"date": "March 2025", "title": "x"})).await.assert_invalid(&["date"]);
    post(json!({"date": "2025-03-01", "title": "t".repeat(201)})).await.assert_invalid(&["title"]);
    post(json!({"date": "2025-03-01", "title": "x", "description": "d".repeat(2001)})).await.assert_invalid(&["description"]);
    post(json!({"date": "2025-03-01", "title": "x", "url": "http://plain.example/"})).await.assert_invalid(&["url"]);
    post(json!({"date": "2025-03-01", "title": "x", "colour": "red"})).await.assert_invalid(&["colour"]);
    // Someone else's listing; another listing's milestone; then deleted once.
    let theirs =
        app.send(app.client.post(app.url(&milestones)).bearer_auth(&other).json(&json!({"date": "2025-03-01", "title": "x"}))).await;
    theirs.assert_problem(404, "not_found");
    let delete = |listing: i64, token: &str| {
        app.send(app.client.delete(app.url(&format!("/api/v1/me/listings/{listing}/milestones/{id}"))).bearer_auth(token))
    };
    delete(elsewhere, &key).await.assert_problem(404, "not_found");
    delete(live, &other).await.assert_problem(404, "not_found");
    let deleted = delete(live, &key).await;
    assert_eq!(deleted.status, 200, "{:#}", deleted.body);
    assert_eq!(deleted.body["deleted"], true);
    delete(live, &key).await.assert_problem(404, "not_found");

    // The founder story: bounds, then published at once on a live listing.
    let story = format!("/api/v1/me/listings/{live}/story");
    let put = |body: serde_json::Value, token: &str| app.send(app.client.put(app.url(&story)).bearer_auth(token).json(&body));
    put(json!({"title": "t".repeat(201)}), &key).await.assert_invalid(&["title"]);
    put(json!({"lessons": "l".repeat(8001)}), &key).await.assert_invalid(&["lessons"]);
    put(json!({"chapter": "x"}), &key).await.assert_invalid(&["chapter"]);
    put(json!({"title": "Why"}), &other).await.assert_problem(404, "not_found");
    let written = put(json!({"title": "Why we built it", "why_started": "Because.", "lessons": "Many."}), &key).await;
    assert_eq!(written.status, 200, "{:#}", written.body);
    assert_eq!(written.body["published"], true);
    assert_eq!(written.body["shown_publicly"], false, "the story is a paid-only section");
}

#[tokio::test]
async fn an_update_feeds_the_profile_and_followers_are_told_by_a_background_job() {
    // No workers in the server: the request alone sends no e-mail.
    let app = spawn_empty_app().await;
    let (_, key) = app.api_key("").await;
    let (_, other) = app.api_key("").await;
    let me = app.get_with_token("/api/v1/me", &key).await.body["user"]["id"].as_i64().unwrap();
    let db = app.services.store.connection();
    let now = OffsetDateTime::now_utc();
    let live = fixtures::listing(db, "updating", "live", Week::at(now, time::UtcOffset::UTC), now).await;
    fixtures::set_owner(db, live, me).await;
    for (n, blocked) in [(1, false), (2, false), (3, true)] {
        let follower = fixtures::user(db, &format!("follower{n}-{}@example.com", uuid::Uuid::new_v4().simple())).await;
        fixtures::follow(db, live, follower, now).await;
        if blocked {
            fixtures::block(db, follower).await;
        }
    }
    let path = format!("/api/v1/me/listings/{live}/updates");
    let post = |body: serde_json::Value, token: &str| app.send(app.client.post(app.url(&path)).bearer_auth(token).json(&body));
    post(json!({"body": "no title"}), &key).await.assert_invalid(&["title"]);
    post(json!({"title": "t".repeat(201), "body": "b"}), &key).await.assert_invalid(&["title"]);
    post(json!({"title": "t", "body": "b".repeat(5001)}), &key).await.assert_invalid(&["body"]);
    post(json!({"title": "t", "body": "b"}), &other).await.assert_problem(404, "not_found");

    let posted = post(json!({"title": "Version 2 is out", "body": "Faster dashboards and a new API."}), &key).await;
    assert_eq!(posted.status, 201, "{:#}", posted.body);
    assert_eq!(posted.body["followers_notified"], "queued");
    let profile = app.get("/api/v1/listings/updating").await;
    assert_eq!(profile.body["latest_updates"][0]["title"], "Version 2 is out", "{:#}", profile.body["latest_updates"]);
    let sent = |outbox: &[store_seaorm::OutboxEmail]| outbox.iter().filter(|e| e.kind == "listing_update").count();
    assert_eq!(sent(&app.services.store.outbox(100).await.unwrap()), 0, "nothing is sent inside the request");
    assert_eq!(app.services.store.job_ids("listing.notify_followers").await.unwrap().len(), 1);

    // A worker sends them: one e-mail per follower whose account is not blocked.
    let worker = tokio::spawn(launchdir_server::worker::run(
        "test-worker".into(),
        app.services.store.jobs(),
        std::sync::Arc::new(ops::JobRegistry::of(&app.services.app)),
        std::sync::Arc::new(kernel::SystemClock),
        time::Duration::seconds(30),
    ));
    let started = std::time::Instant::now();
    let outbox = loop {
        let outbox = app.services.store.outbox(100).await.unwrap();
        if sent(&outbox) >= 2 || started.elapsed() > std::time::Duration::from_secs(20) {
            break outbox;
        }
        tokio::time::sleep(std::time::Duration::from_millis(100)).await;
    };
    worker.abort();
    let mails: Vec<_> = outbox.iter().filter(|e| e.kind == "listing_update").collect();
    assert_eq!(mails.len(), 2, "{mails:#?}");
    assert!(mails.iter().all(|m| m.subject.contains("Version 2 is out") && m.body.contains("https://launch.example/listings/updating")));
    assert!(mails.iter().all(|m| m.to.starts_with("follower1") || m.to.starts_with("follower2")));
}

#[tokio::test]
async fn an_edit_publishes_at_once_is_searchable_and_is_kept_with_before_and_after() {
    let app = spawn_empty_app().await;
    let (_, key) = app.api_key("").await;
    let me = app.get_with_token("/api/v1/me", &key).await.body["user"]["id"].as_i64().unwrap();
    let db = app.services.store.connection();
    let now = OffsetDateTime::now_utc();
    let week = Week::at(now, time::UtcOffset::UTC);
    let live = fixtures::listing(db, "editable", "live", week, now).await;
    fixtures::set_owner(db, live, me).await;
    fixtures::edit_tagline(db, live, "The old tagline").await;
    let path = format!("/api/v1/me/listings/{live}");

    let edited = app
        .send(app.client.patch(app.url(&path)).bearer_auth(&key).json(&json!({
            "fields": {"tagline": "Invoices for zebracorns", "country": "de", "founded_year": 2019, "keywords": ["billing", "invoices"],
                       "headline": "Billing, done", "city": null},
            "socials": {"github": "https://github.com/editable", "website": "https://editable.example"},
            "faqs": [{"question": "Is it free?", "answer": "Yes, for one user."}]
        })))
        .await;
    assert_eq!(edited.status, 200, "{:#}", edited.body);
    assert_eq!(edited.body["version"]["changed"], json!(["country", "faqs", "founded_year", "headline", "keywords", "socials", "tagline"]));
    assert_eq!(edited.body["listing"]["profile"]["tagline"], "Invoices for zebracorns");
    // Published at once, and searchable at once (no waiting for the periodic sync).
    let public = app.get("/api/v1/listings/editable").await;
    assert_eq!(public.body["tagline"], "Invoices for zebracorns");
    assert_eq!(public.body["country"], "DE");
    assert_eq!(public.body["headline"], "Billing, done");
    assert_eq!(public.body["socials"]["github"], "https://github.com/editable");
    assert_eq!(public.body["faqs"][0]["question"], "Is it free?");
    let found = app.get("/api/v1/listings?q=zebracorns").await;
    assert_eq!(found.body["items"][0]["slug"], "editable", "{:#}", found.body);

    // The same edit again changes nothing and keeps no version.
    let again =
        app.send(app.client.patch(app.url(&path)).bearer_auth(&key).json(&json!({"fields": {"tagline": "Invoices for zebracorns"}}))).await;
    assert_eq!(again.status, 200);
    assert_eq!(again.body["version"], serde_json::Value::Null);

    // The history keeps who, when, before and after.
    let versions = app.services.app.listings.owners.versions(Some(kernel::ListingId::new(live)), 10).await.unwrap();
    assert_eq!(versions.len(), 1);
    let version = &versions[0];
    assert_eq!(version.id, edited.body["version"]["id"].as_i64().unwrap());
    assert_eq!(version.editor, Some(kernel::UserId::new(me)));
    assert!(version.editor_email.is_some());
    assert_eq!(version.before.tagline.as_deref(), Some("The old tagline"));
    assert_eq!(version.after.tagline.as_deref(), Some("Invoices for zebracorns"));
    assert!(version.before.socials.is_empty() && version.after.socials.len() == 2);
    // The site team's review copy shows each changed value before and after.
    let review = launchdir_server::cli::review_copy(version).unwrap();
    assert!(review.contains("tagline\n  before: \"The old tagline\"\n  after:  \"Invoices for zebracorns\""), "{review}");
    assert!(review.contains("Before (full copy)") && review.contains("After (full copy)"));

    // Someone else's listing is 404, and nothing is written.
    let (_, other) = app.api_key("").await;
    app.send(app.client.patch(app.url(&path)).bearer_auth(&other).json(&json!({"fields": {"tagline": "Hijacked"}})))
        .await
        .assert_problem(404, "not_found");
    assert_eq!(app.get("/api/v1/listings/editable").await.body["tagline"], "Invoices for zebracorns");
}

#[tokio::test]
async fn every_bound_of_an_edit_is_a_400_naming_the_field_and_nothing_is_written() {
    let app = spawn_empty_app().await;
    let (_, key) = app.api_key("").await;
    let me = app.get_with_token("/api/v1/me", &key).await.body["user"]["id"].as_i64().unwrap();
    let db = app.services.store.connection();
    let now = OffsetDateTime::now_utc();
    let listing = fixtures::listing(db, "bounded", "draft", Week::at(now, time::UtcOffset::UTC), now).await;
    fixtures::set_owner(db, listing, me).await;
    let path = format!("/api/v1/me/listings/{listing}");
    let long = |n: usize| "x".repeat(n + 1);
    let faq = json!({"question": "Q?", "answer": "A."});
    for (body, field) in [
        (json!({"fields": {"tagline": long(200)}}), "fields.tagline"),
        // Characters XML 1.0 forbids would make the Atom feed ill-formed.
        (json!({"fields": {"tagline": "Fast\u{FFFE} and sure"}}), "fields.tagline"),
        (json!({"fields": {"tagline": "Fast\u{FFFF}"}}), "fields.tagline"),
        (json!({"fields": {"usps": ["ok", "bell\u{7}"]}}), "fields.usps[1]"),
        (json!({"fields": {"short_description": long(300)}}), "fields.short_description"),
        (json!({"fields": {"description": long(20_000)}}), "fields.description"),
        (json!({"fields": {"pricing_model": long(40)}}), "fields.pricing_model"),
        (json!({"fields": {"pricing_summary": long(300)}}), "fields.pricing_summary"),
        (json!({"fields": {"country": "XYZ"}}), "fields.country"),
        (json!({"fields": {"city": long(120)}}), "fields.city"),
        (json!({"fields": {"founded_year": 1799}}), "fields.founded_year"),
        (json!({"fields": {"founded_year": 2101}}), "fields.founded_year"),
        (json!({"fields": {"demo_video_url": "http://video.example/a"}}), "fields.demo_video_url"),
        (json!({"fields": {"demo_video_url": format!("https://video.example/{}", long(480))}}), "fields.demo_video_url"),
        (json!({"fields": {"contact_email": "nope"}}), "fields.contact_email"),
        (json!({"fields": {"features": vec!["f"; 21]}}), "fields.features"),
        (json!({"fields": {"usps": [long(200)]}}), "fields.usps[0]"),
        (json!({"fields": {"keywords": [7]}}), "fields.keywords[0]"),
        (json!({"fields": {"headline": long(200)}}), "fields.headline"),
        (json!({"fields": {"summary": long(20_000)}}), "fields.summary"),
        (json!({"fields": {"seo_title": long(200)}}), "fields.seo_title"),
        (json!({"fields": {"seo_description": long(320)}}), "fields.seo_description"),
        (json!({"fields": {"name": "Renamed"}}), "fields.name"),
        (json!({"socials": {"myspace": "https://myspace.example/a"}}), "socials.myspace"),
        (json!({"socials": {"x": "http://x.com/a"}}), "socials.x"),
        (json!({"faqs": vec![faq.clone(); 11]}), "faqs"),
        (json!({"faqs": [{"question": long(300), "answer": "A."}]}), "faqs[0].question"),
        (json!({"faqs": [{"question": "Q?", "answer": long(1500)}]}), "faqs[0].answer"),
        (json!({"faqs": [{"question": "Q?"}]}), "faqs[0]"),
        (json!({"colour": "red"}), "colour"),
    ] {
        let reply = app.send(app.client.patch(app.url(&path)).bearer_auth(&key).json(&body)).await;
        assert_eq!(reply.status, 400, "{field}: {:#}", reply.body);
        let named: Vec<&str> = reply.body["errors"].as_array().unwrap().iter().map(|e| e["field"].as_str().unwrap()).collect();
        assert!(named.iter().any(|n| n.starts_with(field)), "{field}: {:#}", reply.body);
    }
    // Nothing was written: no version, no change (a valid field beside a bad one is not kept).
    let mixed =
        app.send(app.client.patch(app.url(&path)).bearer_auth(&key).json(&json!({"fields": {"tagline": "Fine", "city": long(120)}}))).await;
    mixed.assert_invalid(&["fields.city"]);
    assert!(app.services.app.listings.owners.versions(Some(kernel::ListingId::new(listing)), 10).await.unwrap().is_empty());
    let mine = app.get_with_token(&path, &key).await;
    assert_eq!(mine.body["tagline"], serde_json::Value::Null);
    // Values at the bounds pass.
    let at_bounds = app
        .send(app.client.patch(app.url(&path)).bearer_auth(&key).json(&json!({
            "fields": {"tagline": "t".repeat(200), "founded_year": 1800, "features": vec!["f".repeat(200); 20]},
            "faqs": vec![faq; 10]
        })))
        .await;
    assert_eq!(at_bounds.status, 200, "{:#}", at_bounds.body);
}

#[tokio::test]
async fn interview_answers_need_asked_questions_and_appear_on_the_founders_profile() {
    let app = spawn_empty_app().await;
    let (_, key) = app.api_key("").await;
    let me = app.get_with_token("/api/v1/me", &key).await.body["user"]["id"].as_i64().unwrap();
    let db = app.services.store.connection();
    let now = OffsetDateTime::now_utc();
    let listing = fixtures::listing(db, "interviewed", "live", Week::at(now, time::UtcOffset::UTC), now).await;
    fixtures::set_owner(db, listing, me).await;
    fixtures::founder(db, listing, "ada-founder", 0).await;
    fixtures::founder(db, listing, "bob-cofounder", 1).await;
    let first = fixtures::interview_question(db, 1, "Why did you start?").await;
    let second = fixtures::interview_question(db, 2, "What is next?").await;

    let answered = app
        .send(app.client.put(app.url("/api/v1/me/interview")).bearer_auth(&key).json(&json!({
            "answers": [{"question_id": second, "answer": "Going global."}, {"question_id": first, "answer": "  Invoices hurt.  "}]
        })))
        .await;
    assert_eq!(answered.status, 200, "{:#}", answered.body);
    assert_eq!(answered.body["answers"][0]["question"], "Why did you start?", "in the questions' order");
    assert_eq!(answered.body["answers"][0]["answer"], "Invoices hurt.");
    assert_eq!(answered.body["shown_on"][0]["founder_slug"], "ada-founder");
    assert_eq!(answered.body["shown_on"][0]["public"], true);
    // The primary founder's profile shows them; a co-founder's does not.
    let profile = app.get("/api/v1/founders/ada-founder").await;
    assert_eq!(profile.body["interview"][1]["answer"], "Going global.", "{:#}", profile.body);
    assert_eq!(app.get("/api/v1/founders/bob-cofounder").await.body["interview"], json!([]));
    // Answering again replaces that answer only.
    let replaced = app
        .send(app.client.put(app.url("/api/v1/me/interview")).bearer_auth(&key).json(&json!({
            "answers": [{"question_id": second, "answer": "Europe first."}]
        })))
        .await;
    assert_eq!(replaced.body["answers"].as_array().unwrap().len(), 2);
    assert_eq!(app.get("/api/v1/founders/ada-founder").await.body["interview"][1]["answer"], "Europe first.");

    // Bounds: an unknown question, a question twice, 31 answers, an answer too long or empty.
    let put = |body: serde_json::Value| app.client.put(app.url("/api/v1/me/interview")).bearer_auth(&key).json(&body);
    app.send(put(json!({"answers": [{"question_id": first, "answer": "ok"}, {"question_id": 9999, "answer": "x"}]})))
        .await
        .assert_invalid(&["answers[1].question_id"]);
    app.send(put(json!({"answers": [{"question_id": first, "answer": "a"}, {"question_id": first, "answer": "b"}]})))
        .await
        .assert_invalid(&["answers[1].question_id"]);
    let many: Vec<_> = (0..31).map(|_| json!({"question_id": first, "answer": "x"})).collect();
    app.send(put(json!({ "answers": many }))).await.assert_invalid(&["answers"]);
    app.send(put(json!({"answers": [{"question_id": first, "answer": "x".repeat(4001)}]}))).await.assert_invalid(&["answers[0].answer"]);
    app.send(put(json!({"answers": [{"question_id": first, "answer": "   "}]}))).await.assert_invalid(&["answers[0].answer"]);
    app.send(put(json!({"answers": [{"question_id": 0, "answer": "x"}]}))).await.assert_invalid(&["answers[0].question_id"]);
    app.send(put(json!({}))).await.assert_invalid(&["answers"]);
    // None of the refused calls wrote anything.
    assert_eq!(app.get("/api/v1/founders/ada-founder").await.body["interview"][0]["answer"], "Invoices hurt.");
}
