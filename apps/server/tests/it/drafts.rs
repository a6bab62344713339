//! Submission by URL, end to end: fixture websites on loopback, the real server with its job
//! workers, and the seven draft operations.

use crate::helpers::{Reply, TestApp, spawn_app_with, spawn_empty_app_with};
use outbound_http::testing::FixtureServer;
use serde_json::{Value, json};
use std::path::PathBuf;
use std::time::{Duration, Instant};

pub(crate) fn site(name: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../tests/fixtures/sites").join(name)
}

pub(crate) async fn spawn() -> TestApp {
    spawn_app_with(|settings| {
        settings.crawler.allow_private_networks = true;
        settings.job_workers = 2;
        // Each test's server stops when the test ends, maybe holding a job of another test:
        // a short lease hands it over quickly.
        settings.job_lease_seconds = 5;
    })
    .await
}

impl TestApp {
    pub async fn post_json(&self, path: &str, token: &str, body: Value) -> Reply {
        self.send(self.client.post(self.url(path)).bearer_auth(token).json(&body)).await
    }

    pub async fn patch_json(&self, path: &str, token: &str, body: Value) -> Reply {
        self.send(self.client.patch(self.url(path)).bearer_auth(token).json(&body)).await
    }

    /// Polls `get_draft` until `done` holds (at most 30 s).
    pub(crate) async fn poll_draft(&self, id: &str, token: &str, done: impl Fn(&Value) -> bool) -> Value {
        let started = Instant::now();
        loop {
            let reply = self.get_with_token(&format!("/api/v1/drafts/{id}"), token).await;
            assert_eq!(reply.status, 200, "{:#}", reply.body);
            if done(&reply.body) {
                return reply.body;
            }
            assert!(started.elapsed() < Duration::from_secs(30), "the draft did not get there: {:#}", reply.body);
            tokio::time::sleep(Duration::from_millis(100)).await;
        }
    }

    /// Submits a website and waits until its draft is drafted (ready or failed) and its
    /// pictures looked for.
    pub(crate) async fn draft_of(&self, url: &str, token: &str) -> Value {
        let reply = self.post_json("/api/v1/drafts", token, json!({"url": url})).await;
        assert_eq!(reply.status, 201, "{:#}", reply.body);
        assert_eq!(reply.body["status"], "crawling");
        let id = reply.body["id"].as_str().unwrap().to_owned();
        // Settled: drafted, and the site's pictures looked for (their job writes the draft too).
        self.poll_draft(&id, token, |draft| {
            (draft["status"] == "ready" || draft["status"] == "failed") && draft["looking_for_pictures"] != true
        })
        .await
    }
}

pub(crate) fn field<'a>(draft: &'a Value, name: &str) -> &'a Value {
    &draft["fields"][name]
}

#[tokio::test]
async fn a_saas_site_becomes_a_draft_with_evidence_for_every_value() {
    let app = spawn().await;
    let fixture = FixtureServer::site(&site("saas")).await;
    let (_, token) = app.api_key("").await;
    let started = Instant::now();
    let draft = app.draft_of(&fixture.url("/"), &token).await;
    eprintln!("saas: submit to ready in {:.2} s", started.elapsed().as_secs_f64());
    assert_eq!(draft["status"], "ready", "{draft:#}");
    assert_eq!(field(&draft, "name")["value"], "Metricly");
    assert_eq!(field(&draft, "name")["state"], "ai");
    assert_eq!(field(&draft, "tagline")["value"], "Privacy-first product analytics for small teams");
    assert_eq!(field(&draft, "categories")["value"], json!(["analytics"]));
    assert_eq!(field(&draft, "founded_year")["value"], "2019");
    assert_eq!(field(&draft, "country")["value"], "PT");
    assert_eq!(field(&draft, "pricing_model")["value"], "freemium");
    assert_eq!(field(&draft, "contact_email")["value"], "hello@metricly.example");
    assert_eq!(field(&draft, "stage")["state"], "not_found");
    assert_eq!(field(&draft, "stage")["value"], Value::Null);
    // Every value quotes a page that was read.
    let pages: Vec<&str> = draft["pages_read"].as_array().unwrap().iter().map(|p| p.as_str().unwrap()).collect();
    assert_eq!(pages.len(), 5);
    for (name, value) in draft["fields"].as_object().unwrap() {
        if value["state"] == "ai" {
            let evidence = value["evidence"].as_array().unwrap();
            assert!(!evidence.is_empty(), "{name} has no evidence");
            for quote in evidence {
                assert!(pages.contains(&quote["url"].as_str().unwrap()), "{name}: {quote}");
                assert!(!quote["quote"].as_str().unwrap().is_empty());
            }
        }
    }
    assert_eq!(draft["faqs"]["value"].as_array().unwrap().len(), 2);
    assert_eq!(draft["founders"]["value"][0]["name"], "Ines Duarte");
    assert_eq!(draft["company_socials"]["value"]["github"], "https://github.com/metricly");
    assert_eq!(draft["seo"]["value"]["title"], "Metricly - Privacy-first product analytics");
    assert_eq!(draft["not_found_on_website"], json!(["stage"]));
    assert!(draft["completeness"].as_u64().unwrap() >= 90, "{}", draft["completeness"]);
    assert_eq!(draft["missing"], json!(["stage"]));

    // The list shows it, newest first.
    let list = app.get_with_token("/api/v1/drafts", &token).await;
    assert_eq!(list.body["total"], 1);
    assert_eq!(list.body["items"][0]["id"], draft["id"]);
    assert_eq!(list.body["items"][0]["name"], "Metricly");
}

#[tokio::test]
async fn each_fixture_site_gives_what_it_states_and_nothing_else() {
    let app = spawn().await;
    let (_, token) = app.api_key("").await;
    let mut timings = Vec::new();

    let bare = FixtureServer::site(&site("bare")).await;
    let started = Instant::now();
    let draft = app.draft_of(&bare.url("/"), &token).await;
    timings.push(started.elapsed().as_secs_f64());
    assert_eq!(draft["status"], "ready");
    assert_eq!(field(&draft, "name")["value"], "Quillnote");
    let filled: Vec<&String> = draft["fields"].as_object().unwrap().iter().filter(|(_, f)| f["state"] == "ai").map(|(n, _)| n).collect();
    assert_eq!(filled, ["name"]);
    assert_eq!(draft["not_found_on_website"].as_array().unwrap().len(), 17);

    let private = FixtureServer::site(&site("robots-private")).await;
    let started = Instant::now();
    let draft = app.draft_of(&private.url("/"), &token).await;
    timings.push(started.elapsed().as_secs_f64());
    assert_eq!(draft["status"], "ready");
    let text = draft.to_string();
    assert!(!text.contains("PLANTED") && !text.contains("Reykjavik") && !text.contains("planted@"), "{draft:#}");
    assert_eq!(field(&draft, "founded_year")["state"], "not_found", "the only founding year is on the disallowed page");
    assert!(private.requested_paths().iter().all(|p| !p.starts_with("/private")));
    assert_eq!(draft["pages_skipped"].as_array().unwrap().len(), 2);
    assert_eq!(field(&draft, "pricing_summary")["value"], "One plan: $19/month per shop.");

    let german = FixtureServer::site(&site("german")).await;
    let started = Instant::now();
    let draft = app.draft_of(&german.url("/"), &token).await;
    timings.push(started.elapsed().as_secs_f64());
    assert_eq!(draft["status"], "ready");
    assert_eq!(field(&draft, "tagline")["value"], "Die Kasse für Bäckereien");
    assert_eq!(field(&draft, "city")["value"], "Graz");
    assert_eq!(field(&draft, "country")["value"], "AT");
    assert_eq!(field(&draft, "founded_year")["value"], "2020");

    let closed = FixtureServer::site(&site("disallow-all")).await;
    let draft = app.draft_of(&closed.url("/"), &token).await;
    assert_eq!(draft["status"], "failed");
    assert_eq!(draft["failure_reason"], "robots_disallowed");
    assert!(draft["failure_message"].as_str().unwrap().contains("robots.txt"));
    assert_eq!(closed.requested_paths(), ["/robots.txt"]);

    let redirect = FixtureServer::site(&site("redirect-private")).await;
    let draft = app.draft_of(&redirect.url("/"), &token).await;
    assert_eq!(draft["status"], "failed");
    assert_eq!(draft["failure_reason"], "blocked_address");

    timings.sort_by(f64::total_cmp);
    eprintln!("fixtures: submit to ready, median {:.2} s of {timings:?}", timings[timings.len() / 2]);
}

#[tokio::test]
async fn submit_listing_checks_the_address_and_writes_nothing_when_it_is_bad() {
    let app = spawn().await;
    let (_, token) = app.api_key("").await;
    for body in [
        json!({}),
        json!({"url": ""}),
        json!({"url": "ftp://files.example/"}),
        json!({"url": "https://user:secret@acme.example/"}),
        json!({"url": "acme.example"}),
        json!({"url": format!("https://acme.example/{}", "a".repeat(2040))}),
        json!({"url": 42}),
    ] {
        app.post_json("/api/v1/drafts", &token, body).await.assert_invalid(&["url"]);
    }
    app.post_json("/api/v1/drafts", &token, json!({"url": "https://acme.example/", "extra": 1})).await.assert_invalid(&["extra"]);
    assert_eq!(app.get_with_token("/api/v1/drafts", &token).await.body["total"], 0);
    // Scopes: listings:write to submit, account:read to read.
    let (_, reader) = app.api_key("account:read").await;
    app.post_json("/api/v1/drafts", &reader, json!({"url": "https://acme.example/"})).await.assert_problem(403, "insufficient_scope");
    let (_, writer) = app.api_key("listings:write").await;
    app.get_with_token("/api/v1/drafts", &writer).await.assert_problem(403, "insufficient_scope");
    let reply = app.send(app.client.post(app.url("/api/v1/drafts")).json(&json!({"url": "https://acme.example/"}))).await;
    reply.assert_problem(401, "unauthorized");
}

#[tokio::test]
async fn someone_elses_draft_is_not_found() {
    let app = spawn().await;
    let fixture = FixtureServer::site(&site("bare")).await;
    let (_, owner) = app.api_key("").await;
    let (_, other) = app.api_key("").await;
    let draft = app.draft_of(&fixture.url("/"), &owner).await;
    let id = draft["id"].as_str().unwrap();
    app.get_with_token(&format!("/api/v1/drafts/{id}"), &other).await.assert_problem(404, "not_found");
    app.patch_json(&format!("/api/v1/drafts/{id}"), &other, json!({"fields": {"name": "Mine"}})).await.assert_problem(404, "not_found");
    app.post_json(&format!("/api/v1/drafts/{id}/invites"), &other, json!({"email": "a@b.example"})).await.assert_problem(404, "not_found");
    app.post_json(&format!("/api/v1/drafts/{id}/submit"), &other, json!({})).await.assert_problem(404, "not_found");
    assert_eq!(app.get_with_token("/api/v1/drafts", &other).await.body["total"], 0);
    let unknown = uuid::Uuid::new_v4();
    app.get_with_token(&format!("/api/v1/drafts/{unknown}"), &owner).await.assert_problem(404, "not_found");
    app.get_with_token("/api/v1/drafts/not-a-uuid", &owner).await.assert_invalid(&["id"]);
    // The owner's draft is untouched.
    let again = app.get_with_token(&format!("/api/v1/drafts/{id}"), &owner).await;
    assert_eq!(again.body["fields"]["name"]["value"], "Quillnote");
}

#[tokio::test]
async fn concurrent_update_draft_calls_answer_200_or_409_and_one_edit_wins() {
    let app = spawn().await;
    let fixture = FixtureServer::site(&site("bare")).await;
    let (_, token) = app.api_key("").await;
    let draft = app.draft_of(&fixture.url("/"), &token).await;
    let path = format!("/api/v1/drafts/{}", draft["id"].as_str().unwrap());
    let edits: Vec<String> = (0..30).map(|n| format!("Edit number {n}")).collect();
    let replies =
        futures_util::future::join_all(edits.iter().map(|tagline| app.patch_json(&path, &token, json!({"fields": {"tagline": tagline}}))))
            .await;
    let mut accepted = Vec::new();
    for (reply, tagline) in replies.iter().zip(&edits) {
        match reply.status.as_u16() {
            200 => accepted.push(tagline.clone()),
            409 => {
                reply.assert_problem(409, "conflict");
                assert!(reply.header("retry-after").is_some_and(|s| s.parse::<u32>().is_ok()), "a 409 says when to retry");
            }
            other => panic!("update_draft answered {other}: {:#}", reply.body),
        }
    }
    assert!(!accepted.is_empty(), "at least one edit goes through");
    let last = app.get_with_token(&path, &token).await;
    let tagline = last.body["fields"]["tagline"]["value"].as_str().unwrap().to_owned();
    assert!(accepted.contains(&tagline), "the draft holds one of the accepted edits, not a refused one: {tagline}");
}

#[tokio::test]
async fn update_draft_bounds_are_checked_and_name_the_field() {
    let app = spawn().await;
    let fixture = FixtureServer::site(&site("bare")).await;
    let (_, token) = app.api_key("").await;
    let draft = app.draft_of(&fixture.url("/"), &token).await;
    let path = format!("/api/v1/drafts/{}", draft["id"].as_str().unwrap());
    let long = |n: usize| "x".repeat(n);
    let many = |n: usize, item: Value| Value::Array(vec![item; n]);
    let faq = json!({"question": "Q?", "answer": "A."});
    let founder = json!({"name": "Ada"});
    let milestone = json!({"date": "2024-05-01", "title": "Launched"});
    let cases: Vec<(Value, &[&str])> = vec![
        (json!({"fields": {"tagline": long(501)}}), &["fields.tagline"]),
        (json!({"fields": {"description": long(20_001)}}), &["fields.description"]),
        (json!({"fields": {"bogus": "x"}}), &["fields.bogus"]),
        (json!({"fields": {"name": 5}}), &["fields.name"]),
        (json!({"fields": {"features": many(21, json!("f"))}}), &["fields.features"]),
        (json!({"fields": {"keywords": [long(201)]}}), &["fields.keywords[0]"]),
        (json!({"fields": {"categories": ["no-such-category"]}}), &["fields.categories[0]"]),
        (json!({"fields": {"country": "Germany"}}), &["fields.country"]),
        (json!({"fields": {"founded_year": "long ago"}}), &["fields.founded_year"]),
        (json!({"fields": {"contact_email": "not-an-address"}}), &["fields.contact_email"]),
        (json!({"fields": {"demo_video_url": "http://video.example/x"}}), &["fields.demo_video_url"]),
        (json!({"lock_fields": many(21, json!("name"))}), &["lock_fields"]),
        (json!({"lock_fields": ["nope"]}), &["lock_fields[0]"]),
        (json!({"regenerate": many(6, json!("name"))}), &["regenerate"]),
        (json!({"restore": many(21, json!("name"))}), &["restore"]),
        (json!({"faqs": many(11, faq.clone())}), &["faqs"]),
        (json!({"faqs": [{"question": long(301), "answer": "a"}]}), &["faqs[0].question"]),
        (json!({"faqs": [{"question": "q", "answer": long(1501)}]}), &["faqs[0].answer"]),
        (json!({"company_socials": {"myspace": "https://myspace.example/x"}}), &["company_socials.myspace"]),
        (json!({"company_socials": {"github": "http://github.com/x"}}), &["company_socials.github"]),
        (json!({"founder_socials": {"x": format!("https://x.com/{}", long(500))}}), &["founder_socials.x"]),
        (json!({"founders": many(7, founder.clone())}), &["founders"]),
        (json!({"founders": [{"name": long(161)}]}), &["founders[0].name"]),
        (json!({"founders": [{"name": "Ada", "bio": long(3001)}]}), &["founders[0].bio"]),
        (json!({"story": {"why_started": long(8001)}}), &["story.why_started"]),
        (json!({"story": {"chapter": "x"}}), &["story.chapter"]),
        (json!({"milestones": many(51, milestone.clone())}), &["milestones"]),
        (json!({"milestones": [{"date": "May 2024", "title": "x"}]}), &["milestones[0].date"]),
        (json!({"milestones": [{"date": "2024-05-01", "title": "x", "url": "http://a.example/"}]}), &["milestones[0].url"]),
        (json!({"competitor_url": long(2049)}), &["competitor_url"]),
        (json!({"competitor_url": "not a url"}), &["competitor_url"]),
        (json!({"seo": {"title": long(71)}}), &["seo.title"]),
        (json!({"seo": {"meta": long(171)}}), &["seo.meta"]),
        (json!({"surprise": true}), &["surprise"]),
    ];
    for (body, fields) in cases {
        app.patch_json(&path, &token, body.clone()).await.assert_invalid(fields);
    }
    // Nothing was written by any of them.
    let after = app.get_with_token(&path, &token).await.body;
    assert_eq!(after["updated_at"], draft["updated_at"]);
    assert_eq!(after["fields"], draft["fields"]);
}

#[tokio::test]
async fn update_draft_keys_change_values_and_states() {
    let app = spawn().await;
    let fixture = FixtureServer::site(&site("saas")).await;
    let competitor = FixtureServer::site(&site("german")).await;
    let (_, token) = app.api_key("").await;
    let draft = app.draft_of(&fixture.url("/"), &token).await;
    let path = format!("/api/v1/drafts/{}", draft["id"].as_str().unwrap());

    let reply = app
        .patch_json(
            &path,
            &token,
            json!({
                "fields": {"tagline": "Analytics without cookies", "stage": "growing", "city": null, "categories": ["Analytics", "seo"]},
                "lock_fields": ["name"],
                "faqs": [{"question": "Is there a free plan?", "answer": "Yes."}],
                "company_socials": {"github": "https://github.com/metricly", "website": "https://metricly.example/"},
                "founder_socials": {"linkedin": "https://www.linkedin.com/in/ines"},
                "founders": [{"name": "Ines Duarte", "title": "CEO", "bio": "Engineer."}, {"name": "Tomas Reis"}],
                "story": {"title": "Why Metricly", "why_started": "Privacy matters."},
                "milestones": [{"date": "2019-03-01", "title": "Founded", "url": "https://metricly.example/about"}],
                "seo": {"title": "Metricly analytics", "meta": "Privacy-first analytics."},
                "competitor_url": competitor.url("/")
            }),
        )
        .await;
    assert_eq!(reply.status, 200, "{:#}", reply.body);
    let body = &reply.body;
    assert_eq!(field(body, "tagline")["state"], "edited");
    assert_eq!(field(body, "tagline")["evidence"], json!([]));
    assert_eq!(field(body, "stage")["state"], "manual");
    assert_eq!(field(body, "city")["state"], "deleted");
    assert_eq!(field(body, "city")["value"], Value::Null);
    assert_eq!(field(body, "categories")["value"], json!(["analytics", "seo"]));
    assert_eq!(field(body, "name")["state"], "override");
    assert_eq!(body["faqs"]["state"], "edited");
    assert_eq!(body["founders"]["value"][1]["name"], "Tomas Reis");
    assert_eq!(body["founder_socials"]["state"], "manual");
    assert_eq!(body["story"]["value"]["why_started"], "Privacy matters.");
    assert_eq!(body["milestones"]["value"][0]["title"], "Founded");
    assert_eq!(body["seo"]["value"]["title"], "Metricly analytics");
    assert_eq!(body["competitor"]["status"], "pending");

    // The competitor's site is read in the background and set beside ours.
    let compared = app.poll_draft(draft["id"].as_str().unwrap(), &token, |d| d["competitor"]["status"] != "pending").await;
    assert_eq!(compared["competitor"]["status"], "ready", "{:#}", compared["competitor"]);
    let rows = compared["competitor"]["comparison"].as_array().unwrap();
    let name = rows.iter().find(|r| r["field"] == "name").unwrap();
    assert_eq!(name["ours"], "Metricly");
    assert_eq!(name["theirs"], "Kassenfuchs");
    assert!(!name["evidence"].as_array().unwrap().is_empty());

    // Restore puts the AI's value back; a locked field cannot be redrafted.
    let reply = app.patch_json(&path, &token, json!({"restore": ["tagline", "city"], "competitor_url": ""})).await;
    assert_eq!(field(&reply.body, "tagline")["state"], "ai");
    assert_eq!(field(&reply.body, "tagline")["value"], "Privacy-first product analytics for small teams");
    assert_eq!(field(&reply.body, "city")["value"], "Lisbon");
    assert_eq!(reply.body["competitor"], Value::Null);
    app.patch_json(&path, &token, json!({"regenerate": ["name"]})).await.assert_invalid(&["regenerate[0]"]);

    // Regenerate redrafts in the background: the field is listed while it runs.
    let reply = app.patch_json(&path, &token, json!({"fields": {"founded_year": "2001"}, "regenerate": ["tagline", "stage"]})).await;
    assert_eq!(reply.status, 200, "{:#}", reply.body);
    assert_eq!(field(&reply.body, "founded_year")["state"], "edited");
    let redrafted = app.poll_draft(draft["id"].as_str().unwrap(), &token, |d| d["regenerating"] == json!([])).await;
    assert_eq!(field(&redrafted, "tagline")["state"], "ai");
    assert_eq!(field(&redrafted, "stage")["state"], "not_found", "the site does not state a stage");
    assert_eq!(field(&redrafted, "founded_year")["value"], "2001", "fields not named keep the caller's value");
    assert_eq!(field(&redrafted, "name")["state"], "override");
}

#[tokio::test]
async fn submit_draft_saves_a_listing_and_later_edits_update_it() {
    let app = spawn().await;
    let fixture = FixtureServer::site(&site("saas")).await;
    let bare = FixtureServer::site(&site("bare")).await;
    let (_, token) = app.api_key("").await;

    // A listing needs a category: the bare site has none.
    let empty = app.draft_of(&bare.url("/"), &token).await;
    let reply = app.post_json(&format!("/api/v1/drafts/{}/submit", empty["id"].as_str().unwrap()), &token, json!({})).await;
    reply.assert_invalid(&["fields.categories"]);

    let draft = app.draft_of(&fixture.url("/"), &token).await;
    let id = draft["id"].as_str().unwrap();
    let submit = format!("/api/v1/drafts/{id}/submit");
    let reply = app.send(app.client.post(app.url(&submit)).bearer_auth(&token)).await;
    assert_eq!(reply.status, 200, "{:#}", reply.body);
    let listing_id = reply.body["listing_id"].as_i64().unwrap();
    assert_eq!(reply.body["listing_status"], "draft");
    assert_eq!(reply.body["draft"]["status"], "submitted");
    let row = listing_row(&app, listing_id).await;
    assert_eq!(row.0, "Metricly");
    assert_eq!(row.1, "draft");
    // Not published: the public profile does not show it.
    app.get(&format!("/api/v1/listings/{}", row.2)).await.assert_problem(404, "not_found");

    // An edit of a submitted draft reaches the listing; submitting again keeps the same one.
    let reply = app.patch_json(&format!("/api/v1/drafts/{id}"), &token, json!({"fields": {"name": "Metricly Cloud"}})).await;
    assert_eq!(reply.body["status"], "submitted");
    assert_eq!(listing_row(&app, listing_id).await.0, "Metricly Cloud");
    let again = app.send(app.client.post(app.url(&submit)).bearer_auth(&token)).await;
    assert_eq!(again.body["listing_id"], listing_id, "{:#}", again.body);
    // A listing's bounds are tighter than a draft's: a 300-character tagline is refused there.
    let reply = app.patch_json(&format!("/api/v1/drafts/{id}"), &token, json!({"fields": {"tagline": "t".repeat(300)}})).await;
    reply.assert_invalid(&["fields.tagline"]);
    let after = app.get_with_token(&format!("/api/v1/drafts/{id}"), &token).await;
    assert_eq!(field(&after.body, "tagline")["value"], "Privacy-first product analytics for small teams");
}

/// `(name, status, slug)` of a listing, read from the database.
async fn listing_row(app: &TestApp, id: i64) -> (String, String, String) {
    use sea_orm::{ConnectionTrait, Statement};
    let db = app.services.store.connection();
    let sql = format!("SELECT name, status, slug FROM listings WHERE id = {id}");
    let row = db.query_one_raw(Statement::from_string(db.get_database_backend(), sql)).await.unwrap().unwrap();
    (row.try_get("", "name").unwrap(), row.try_get("", "status").unwrap(), row.try_get("", "slug").unwrap())
}

#[tokio::test]
async fn idempotency_keys_replay_refuse_mismatches_and_conflicts() {
    let app = spawn().await;
    let (_, token) = app.api_key("").await;
    let key = uuid::Uuid::new_v4().to_string();
    let send =
        |body: Value, key: &str| app.client.post(app.url("/api/v1/drafts")).bearer_auth(&token).header("Idempotency-Key", key).json(&body);
    let body = json!({"url": "https://replay.example/"});
    let first = app.send(send(body.clone(), &key)).await;
    assert_eq!(first.status, 201);
    assert_eq!(first.header("idempotent-replayed"), None);
    let second = app.send(send(body.clone(), &key)).await;
    assert_eq!(second.status, 201);
    assert_eq!(second.header("idempotent-replayed"), Some("true"));
    assert_eq!(second.body, first.body);
    assert_eq!(app.get_with_token("/api/v1/drafts", &token).await.body["total"], 1, "no second draft");
    // The same key with another request.
    app.send(send(json!({"url": "https://other.example/"}), &key)).await.assert_problem(400, "idempotency_key_mismatch");
    // Keys are per principal: another caller's same key is a new request.
    let (_, other) = app.api_key("").await;
    let theirs = app.send(app.client.post(app.url("/api/v1/drafts")).bearer_auth(&other).header("Idempotency-Key", &key).json(&body)).await;
    assert_eq!(theirs.status, 201);
    assert_ne!(theirs.body["id"], first.body["id"]);
    // Malformed keys.
    for bad in ["has space".to_owned(), "k".repeat(256)] {
        app.send(send(body.clone(), &bad)).await.assert_invalid(&["Idempotency-Key"]);
    }
    // A failed request does not use up its key.
    let retry = uuid::Uuid::new_v4().to_string();
    app.send(send(json!({"url": "nope"}), &retry)).await.assert_invalid(&["url"]);
    assert_eq!(app.send(send(body.clone(), &retry)).await.status, 201);
    // A request still running with this key: 409.
    let running = uuid::Uuid::new_v4().to_string();
    let principal = app.services.app.accounts.users.authenticate(&token).await.unwrap();
    let op = ops::find("submit_listing").unwrap();
    let raw = ops::RawInput { body: Some(body.clone()), ..Default::default() };
    let scope = kernel::IdempotencyScope {
        principal: format!("user:{}", principal.user.id),
        operation: "submit_listing".into(),
        key: running.clone(),
    };
    let now = time::OffsetDateTime::now_utc();
    let reserved = app
        .services
        .edge
        .idempotency
        .reserve(
            &scope,
            &http_edge::idempotency::fingerprint(&**op, &raw),
            now,
            now - time::Duration::days(1),
            now - time::Duration::minutes(5),
        )
        .await
        .unwrap();
    assert_eq!(reserved, kernel::Reservation::Reserved);
    app.send(send(body.clone(), &running)).await.assert_problem(409, "idempotency_key_in_use");
    // Every idempotent operation documents the header and the 409.
    let openapi = app.get("/api/v1/openapi.json").await.body;
    assert!(openapi["paths"]["/drafts"]["post"]["responses"]["409"].is_object());
    assert!(openapi["paths"]["/drafts/{id}"]["patch"]["responses"]["409"].is_object());
    assert!(openapi["paths"]["/drafts"]["get"]["responses"]["409"].is_null());
}

#[tokio::test]
async fn the_bot_page_describes_the_crawler() {
    let app = spawn().await;
    let response = app.client.get(app.url("/bot")).send().await.unwrap();
    assert_eq!(response.status(), 200);
    let text = response.text().await.unwrap();
    assert!(text.contains("LaunchdirBot") && text.contains("robots.txt"));
}

/// The figures of `docs/performance.md` (`cargo xtask bench --drafts` runs it in release
/// mode): seconds from `submit_listing` to `ready` over the HTTP API, and per fixture the
/// share of the facts it states (`_facts.json`) that the draft filled, and any value filled
/// that the site does not state. Measures only; asserts nothing about time.
#[tokio::test]
#[ignore = "a measurement; run by `cargo xtask bench --drafts`"]
async fn measure_drafting_on_the_fixtures() {
    let app = spawn().await;
    let mut all = Vec::new();
    for name in [
        "saas",
        "bare",
        "robots-private",
        "german",
        "testimonials",
        "partner-prices",
        "comparison",
        "roadmap",
        "copyright",
        "cookie-wall",
        "french-about",
        "team-page",
        "jsonld-disagrees",
        "german-founders",
        "founded-since",
    ] {
        all.extend(measure_one(&app, name, "").await);
    }
    all.sort_by(f64::total_cmp);
    eprintln!("all fixtures: submit to ready median {:.3} s over {} drafts", all[all.len() / 2], all.len());
    // The JavaScript-only site, rendered in headless Chromium and read as served.
    measure_one(&app, "js-only", " (rendered with JavaScript)").await;
    let unrendered = spawn_empty_app_with(|settings| {
        settings.crawler.allow_private_networks = true;
        settings.crawler.render_javascript = false;
        settings.job_workers = 1;
    })
    .await;
    measure_one(&unrendered, "js-only", " (read without JavaScript)").await;
}

/// Drafts fixture `name` ten times; prints the median time from `submit_listing` to `ready`,
/// the share of the facts it states that the draft filled, the values it does not state, and
/// the decoys taken. Returns the timings.
async fn measure_one(app: &TestApp, name: &str, how: &str) -> Vec<f64> {
    // A caller per site: ten submissions stay under `submit_listing`'s hourly quota.
    let (_, token) = app.api_key("").await;
    let token = token.as_str();
    let server = FixtureServer::site(&site(name)).await;
    let mut facts: serde_json::Map<String, Value> =
        serde_json::from_str(&std::fs::read_to_string(site(name).join("_facts.json")).unwrap()).unwrap();
    let decoys = facts.remove("_decoys").and_then(|d| d.as_array().cloned()).unwrap_or_default();
    facts.retain(|key, _| !key.starts_with('_'));
    let mut timings = Vec::new();
    let mut last = Value::Null;
    for _ in 0..10 {
        let started = Instant::now();
        last = app.draft_of(&server.url("/"), token).await;
        timings.push(started.elapsed().as_secs_f64());
    }
    let (mut filled, mut invented) = (0, Vec::new());
    for (field, value) in last["fields"].as_object().unwrap() {
        if value["state"] != "ai" {
            continue;
        }
        let matches = match (facts.get(field), &value["value"]) {
            (Some(Value::String(want)), Value::String(got)) if want.starts_with('/') => got.ends_with(want.as_str()),
            (Some(Value::String(want)), Value::String(got)) => got.contains(want.as_str()),
            (Some(Value::Array(wants)), Value::Array(got)) => wants.iter().all(|w| got.contains(w)),
            _ => false,
        };
        if matches { filled += 1 } else { invented.push(field.clone()) }
    }
    for section in ["faqs", "founders", "company_socials"] {
        let count = match &last[section]["value"] {
            Value::Array(items) => items.len(),
            Value::Object(map) => map.len(),
            _ => 0,
        } as u64;
        match facts.get(section).and_then(Value::as_u64) {
            Some(want) if want == count => filled += 1,
            // Stated but not drafted: recall, not invention.
            Some(_) | None if count == 0 => {}
            _ => invented.push(section.to_owned()),
        }
    }
    let drafted = last.to_string();
    let taken = decoys
        .iter()
        .filter(|d| {
            d["field"] != "founders"
                && field(&last, d["field"].as_str().unwrap())["value"].to_string().contains(d["value"].as_str().unwrap())
        })
        .chain(decoys.iter().filter(|d| d["field"] == "founders" && drafted.contains(&format!("\"name\":{}", d["value"]))))
        .count();
    timings.sort_by(f64::total_cmp);
    eprintln!(
        "{name}{how}: submit to ready median {:.3} s (min {:.3}, max {:.3}); recall {filled}/{} = {:.0} %; invented {} {invented:?}; decoys taken {taken}/{}",
        timings[timings.len() / 2],
        timings[0],
        timings[timings.len() - 1],
        facts.len(),
        filled as f64 * 100.0 / facts.len() as f64,
        invented.len(),
        decoys.len()
    );
    timings
}

#[tokio::test]
async fn values_a_model_invents_come_out_not_found() {
    use outbound_http::testing::Route;
    let site_server = FixtureServer::site(&site("saas")).await;
    let home = site_server.url("/");
    let answer = json!({
        "fields": {
            "tagline": {"value": "Privacy-first product analytics for small teams", "evidence": [{"url": home, "quote": "Privacy-first product analytics for small teams"}]},
            "city": {"value": "Porto", "evidence": [{"url": home, "quote": "Our office is in Porto."}]},
            "founded_year": {"value": "2015", "evidence": [{"url": home, "quote": "Privacy-first product analytics for small teams"}]},
            "contact_email": {"value": "sales@metricly.example", "evidence": [{"url": home, "quote": "Questions? Write to hello@metricly.example"}]},
            "stage": {"value": "growing", "evidence": []}
        }
    });
    let completion = json!({"choices": [{"message": {"role": "assistant", "content": answer.to_string()}}]});
    let model = FixtureServer::start(std::collections::HashMap::from([(
        "/v1/chat/completions".to_owned(),
        Route::new(200, "application/json", completion.to_string()),
    )]))
    .await;
    let base_url = model.url("/v1");
    // A database of its own: the workers of other tests' servers use the extractive drafter.
    let app = spawn_empty_app_with(move |settings| {
        settings.crawler.allow_private_networks = true;
        settings.job_workers = 1;
        settings.drafter.kind = "openai".into();
        settings.drafter.base_url = base_url;
        settings.drafter.api_key = Some("sk-test".into());
    })
    .await;
    let (_, token) = app.api_key("").await;
    let draft = app.draft_of(&home, &token).await;
    assert_eq!(draft["status"], "ready", "{draft:#}");
    assert_eq!(field(&draft, "tagline")["state"], "ai");
    for invented in ["city", "founded_year", "contact_email", "stage"] {
        assert_eq!(field(&draft, invented)["state"], "not_found", "{invented}: {:#}", field(&draft, invented));
        assert_eq!(field(&draft, invented)["value"], Value::Null);
    }
    let request = &model.received()[0];
    assert!(request.body.contains("\"model\":\"gpt-4o-mini\""), "the configured model is asked");
}

/// A site that shows its content only with JavaScript: drafted through headless Chromium (as
/// `.ci/run` installs it) like any site; with rendering off, the draft says why it is thin.
#[tokio::test]
async fn a_site_that_needs_javascript_is_drafted_as_a_browser_shows_it_or_says_why_not() {
    let fixture = FixtureServer::site(&site("js-only")).await;
    let home = fixture.url("/");
    let app = spawn().await;
    let (_, token) = app.api_key("").await;
    let draft = app.draft_of(&home, &token).await;
    assert_eq!(draft["status"], "ready", "{draft:#}");
    assert_eq!(draft["pages_rendered"], json!([home]));
    assert_eq!(draft["reading_note"], Value::Null);
    assert_eq!(field(&draft, "tagline")["value"], "Invoices that chase themselves");
    assert_eq!(field(&draft, "founded_year")["value"], "2021");
    assert_eq!(draft["founders"]["value"][0]["name"], "Ana Costa", "{:#}", draft["founders"]);

    // A database of its own, so that no other test's worker (which renders) takes the job.
    let unrendered = spawn_empty_app_with(|settings| {
        settings.crawler.allow_private_networks = true;
        settings.crawler.render_javascript = false;
        settings.job_workers = 1;
    })
    .await;
    let (_, token) = unrendered.api_key("").await;
    let draft = unrendered.draft_of(&home, &token).await;
    assert_eq!(draft["status"], "ready", "{draft:#}");
    assert_eq!(draft["pages_rendered"], json!([]));
    assert!(draft["reading_note"].as_str().unwrap().contains("only with JavaScript"), "{draft:#}");
    assert_eq!(field(&draft, "tagline")["state"], "not_found");
}
