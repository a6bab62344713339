//! Claims against real servers on loopback: an authoritative DNS server inside the test whose
//! records change mid-test (split strings, a CNAME, SERVFAIL), fixture websites for the meta tag
//! and the file, the e-mailed link through the outbox and its confirmation page, which addresses
//! may claim by e-mail, the daily quotas of claim e-mails and what those mails say, expiry with a
//! moved clock, someone else's claim, and every 400 of `claim_listing`. A verified claim makes the
//! claimant an owner and earns the Verified badge.

use crate::helpers::{TestApp, spawn_app_with, spawn_empty_app};
use dns_txt::testing::TestDns;
use kernel::{ClaimId, Email, FixedClock, Week};
use launchdir_server::Services;
use outbound_http::testing::{FixtureServer, Route};
use sea_orm::ConnectionTrait;
use serde_json::{Value, json};
use std::collections::HashMap;
use std::sync::Arc;
use store_seaorm::testing::fixtures;
use time::{Duration, OffsetDateTime};

async fn app_with_dns(dns: &TestDns) -> TestApp {
    let addr = dns.addr.to_string();
    spawn_app_with(|settings| {
        settings.crawler.allow_private_networks = true;
        settings.dns_nameservers = vec![addr];
    })
    .await
}

fn unique() -> String {
    uuid::Uuid::new_v4().simple().to_string()[..12].to_owned()
}

/// A live listing whose website is `url`.
async fn listing(app: &TestApp, slug: &str, url: &str) -> i64 {
    let now = OffsetDateTime::now_utc();
    let db = app.services.store.connection();
    let id = fixtures::listing(db, slug, "live", Week::containing(now.date()), now).await;
    fixtures::set_url(db, id, url).await;
    id
}

impl TestApp {
    async fn claim(&self, token: &str, body: Value) -> crate::helpers::Reply {
        self.post_json("/api/v1/claims", token, body).await
    }

    async fn verify(&self, token: &str, id: &Value) -> Value {
        let reply = self.post_json(&format!("/api/v1/claims/{id}/verify"), token, json!({})).await;
        assert_eq!(reply.status, 200, "{:#}", reply.body);
        reply.body
    }

    async fn owns(&self, token: &str, slug: &str) -> bool {
        let mine = self.get_with_token("/api/v1/me/listings", token).await.body;
        mine["items"].as_array().unwrap().iter().any(|listing| listing["slug"] == slug)
    }

    /// The confirmation link of the claim e-mail sent to `address` (the newest one).
    async fn claim_link_to(&self, address: &str) -> String {
        let outbox = self.services.store.outbox(200).await.unwrap();
        let sent = outbox.into_iter().find(|mail| mail.to == address).expect("the link is e-mailed");
        assert_eq!(sent.kind, "claim_link");
        sent.body.lines().find(|line| line.contains("/claims/confirm?token=")).expect("a link").to_owned()
    }

    async fn badges_of(&self, slug: &str) -> Vec<String> {
        let badges = self.get(&format!("/api/v1/listings/{slug}/badges")).await.body;
        badges["items"].as_array().unwrap().iter().map(|badge| badge["kind"].as_str().unwrap().to_owned()).collect()
    }
}

#[tokio::test]
async fn a_dns_claim_verifies_once_the_record_is_published_and_the_claimant_owns_the_listing() {
    let dns = TestDns::start().await;
    let app = app_with_dns(&dns).await;
    let host = format!("{}.acme.test", unique());
    let slug = format!("dns-{}", unique());
    listing(&app, &slug, &format!("https://www.{host}/")).await;
    let (_, token) = app.api_key("").await;

    let created = app.claim(&token, json!({"slug": slug, "method": "dns"})).await;
    assert_eq!(created.status, 201, "{:#}", created.body);
    let claim = created.body;
    let record = format!("_launchdir-verification.{host}");
    assert_eq!(claim["status"], "pending");
    assert_eq!(claim["instructions"]["publish"]["kind"], "dns_txt");
    assert_eq!(claim["instructions"]["publish"]["name"], record.as_str());
    let value = claim["instructions"]["publish"]["value"].as_str().unwrap().to_owned();
    assert!(value.starts_with("launchdir-verification=") && value.len() > 60, "{value}");
    assert!(claim["instructions"]["text"].as_str().unwrap().contains(&record));

    // Nothing published yet: not found, and pending.
    let checked = app.verify(&token, &claim["id"]).await;
    assert_eq!(checked["status"], "pending");
    assert_eq!(checked["last_check"]["outcome"], "not_found");
    assert_eq!(checked["last_check"]["looked_at"], format!("TXT records at {record}"));
    assert_eq!(checked["last_check"]["found"], "none");
    assert!(!app.owns(&token, &slug).await);

    // A record appears mid-test, but not ours.
    dns.add_txt(&record, &["google-site-verification=abc"]).await;
    let checked = app.verify(&token, &claim["id"]).await;
    assert_eq!(checked["last_check"]["found"], "found 1 record; it does not match");

    // Ours, split into two strings: the strings of one record are joined.
    let (first, second) = value.split_at(30);
    dns.add_txt(&record, &[first, second]).await;
    let checked = app.verify(&token, &claim["id"]).await;
    assert_eq!(checked["status"], "verified", "{checked:#}");
    assert_eq!(checked["last_check"]["outcome"], "verified");
    assert!(app.owns(&token, &slug).await, "the claimant owns the listing now");
    assert!(app.badges_of(&slug).await.contains(&"verified".to_owned()));

    // Claiming again by the same method answers the claim there is; list_my_claims shows it.
    let again = app.claim(&token, json!({"slug": slug, "method": "dns"})).await;
    assert_eq!(again.body["id"], claim["id"]);
    let mine = app.get_with_token("/api/v1/claims", &token).await.body;
    assert_eq!(mine["items"][0]["id"], claim["id"], "{mine:#}");
    assert_eq!(mine["items"][0]["instructions"]["publish"]["value"], value.as_str(), "the published token is shown again");

    // The same claim over MCP as over REST.
    let rest = app.verify(&token, &claim["id"]).await;
    let tool = app.call_tool("verify_claim", json!({"claim_id": claim["id"]}), Some(&token)).await;
    assert_eq!(tool["structuredContent"], rest);
}

#[tokio::test]
async fn a_cname_is_followed_and_a_failing_server_is_could_not_check() {
    let dns = TestDns::start().await;
    let app = app_with_dns(&dns).await;
    let (_, token) = app.api_key("").await;

    let host = format!("{}.acme.test", unique());
    let slug = format!("cname-{}", unique());
    listing(&app, &slug, &format!("https://{host}/")).await;
    let claim = app.claim(&token, json!({"slug": slug, "method": "dns"})).await.body;
    let value = claim["instructions"]["publish"]["value"].as_str().unwrap();
    let target = format!("_proof-{}.other.test", unique());
    dns.add_txt(&target, &[value]).await;
    dns.set_cname(&format!("_launchdir-verification.{host}"), &target).await;
    assert_eq!(app.verify(&token, &claim["id"]).await["status"], "verified");

    let host = format!("{}.acme.test", unique());
    let slug = format!("servfail-{}", unique());
    listing(&app, &slug, &format!("https://{host}/")).await;
    let claim = app.claim(&token, json!({"slug": slug, "method": "dns"})).await.body;
    dns.fail(&format!("_launchdir-verification.{host}"));
    let checked = app.verify(&token, &claim["id"]).await;
    assert_eq!(checked["status"], "pending");
    assert_eq!(checked["last_check"]["outcome"], "could_not_check", "SERVFAIL is not 'not found': {checked:#}");
    assert!(checked["last_check"]["found"].as_str().unwrap().contains("SERVFAIL"));
}

#[tokio::test]
async fn meta_and_file_claims_read_the_homepage_head_and_the_well_known_file() {
    let app = spawn_app_with(|settings| settings.crawler.allow_private_networks = true).await;
    let (_, token) = app.api_key("").await;
    let page = |head: &str| {
        Route::new(
            200,
            "text/html; charset=utf-8",
            format!("<!doctype html><html><head><title>Acme</title>{head}</head><body>Acme</body></html>"),
        )
    };

    // Meta: only inside a comment (not verified), then a wrong tag, then the right one.
    let site = FixtureServer::start(HashMap::from([("/".to_owned(), page(""))])).await;
    let slug = format!("meta-{}", unique());
    listing(&app, &slug, &site.url("/")).await;
    let claim = app.claim(&token, json!({"slug": slug, "method": "meta"})).await.body;
    let tag = claim["instructions"]["publish"]["tag"].as_str().unwrap().to_owned();
    let content = claim["instructions"]["publish"]["content"].as_str().unwrap().to_owned();
    site.set_route("/", page(&format!("<!-- {tag} -->")));
    let checked = app.verify(&token, &claim["id"]).await;
    assert_eq!((checked["status"].as_str(), checked["last_check"]["found"].as_str()), (Some("pending"), Some("none")), "{checked:#}");
    site.set_route("/", page(r#"<meta name="launchdir-verification" content="not-the-token">"#));
    let checked = app.verify(&token, &claim["id"]).await;
    assert_eq!(checked["last_check"]["found"], "found 1 tag; its content does not match");
    site.set_route("/", page(&format!(r#"<meta name="launchdir-verification" content="{content}">"#)));
    assert_eq!(app.verify(&token, &claim["id"]).await["status"], "verified");
    assert!(app.owns(&token, &slug).await);

    // File: a redirect to another host is not verified; the token with a trailing newline is.
    let site = FixtureServer::start(HashMap::new()).await;
    let slug = format!("file-{}", unique());
    listing(&app, &slug, &site.url("/")).await;
    let claim = app.claim(&token, json!({"slug": slug, "method": "file"})).await.body;
    let path = "/.well-known/launchdir-verification.txt";
    assert_eq!(claim["instructions"]["publish"]["url"], site.url(path).as_str());
    let body = claim["instructions"]["publish"]["body"].as_str().unwrap().to_owned();
    let elsewhere = site.url(path).replace("127.0.0.1", "localhost");
    site.set_route(path, Route::redirect(&elsewhere));
    let checked = app.verify(&token, &claim["id"]).await;
    assert_eq!(checked["status"], "pending");
    assert_eq!(checked["last_check"]["found"], "a redirect to another host (localhost)");
    site.set_route(path, Route::new(404, "text/plain", "nothing here"));
    assert_eq!(app.verify(&token, &claim["id"]).await["last_check"]["found"], "an answer with status 404");
    site.set_route(path, Route::new(200, "text/plain", format!("{body}\n")));
    assert_eq!(app.verify(&token, &claim["id"]).await["status"], "verified");
}

/// Presses Confirm on the link's page, as a browser on the page (`same-origin`) or another site.
async fn confirm(app: &TestApp, token: &str, fetch_site: &str) -> u16 {
    let body = serde_urlencoded::to_string([("token", token)]).unwrap();
    let request = app.client.post(app.url("/claims/confirm")).header("Sec-Fetch-Site", fetch_site);
    let request = request.header("Content-Type", "application/x-www-form-urlencoded").body(body);
    request.send().await.unwrap().status().as_u16()
}

#[tokio::test]
async fn an_emailed_link_verifies_only_when_confirmed_on_its_page_and_the_earlier_owner_is_told() {
    // Public answers are kept a minute: the confirmation, a write by someone not signed in,
    // must still forget them, so the badge shows at once.
    let app = spawn_app_with(|settings| settings.answer_cache_ms = 60_000).await;
    let domain = format!("acme{}.com", unique());
    let slug = format!("mail-{}", unique());
    let id = listing(&app, &slug, &format!("https://www.{domain}/")).await;
    let owner = format!("founder-{}@example.com", unique());
    let owner_id = fixtures::user(app.services.store.connection(), &owner).await;
    fixtures::set_owner(app.services.store.connection(), id, owner_id).await;
    let (_, token) = app.api_key("").await;

    let address = format!("ceo@{domain}");
    let created = app.claim(&token, json!({"slug": slug, "method": "email", "email": address})).await;
    assert_eq!(created.status, 201, "{:#}", created.body);
    assert_eq!(created.body["instructions"]["publish"], json!({"kind": "email_link", "to": address}));
    let link = app.claim_link_to(&address).await;
    let path = link.strip_prefix("https://launch.example").expect("a link to the site");
    let link_token = path.split("token=").nth(1).unwrap().to_owned();

    // Opening the link (as a mail scanner would) changes nothing.
    let page = app.client.get(app.url(path)).send().await.unwrap();
    assert_eq!(page.status(), 200);
    let html = page.text().await.unwrap();
    assert!(html.contains("Tester") && html.contains(&address) && html.contains(&slug), "{html}");
    assert!(html.contains(">Confirm</button>"));
    let mine = app.get_with_token("/api/v1/claims", &token).await.body;
    assert_eq!(mine["items"][0]["status"], "pending");
    assert_eq!(app.verify(&token, &created.body["id"]).await["status"], "pending", "verify_claim only tells an e-mail claim's state");

    // A post from another site is refused; from the page, it confirms.
    assert!(!app.badges_of(&slug).await.contains(&"verified".to_owned()), "kept without the badge");
    let cross = confirm(&app, &link_token, "cross-site").await;
    assert_eq!(cross, 403);
    assert!(!app.owns(&token, &slug).await);
    assert_eq!(confirm(&app, &link_token, "same-origin").await, 200);
    assert!(app.owns(&token, &slug).await);
    assert_eq!(app.get_with_token("/api/v1/claims", &token).await.body["items"][0]["status"], "verified");
    assert!(app.badges_of(&slug).await.contains(&"verified".to_owned()));
    let told = app.services.store.outbox(200).await.unwrap().into_iter().find(|mail| mail.to == owner).expect("the earlier owner is told");
    assert_eq!(told.kind, "claim_new_owner");

    // The earlier owner stays an owner; the used link says so.
    let owner_key =
        app.services.app.accounts.users.create_api_key(&Email::parse(&owner).unwrap(), None, accounts::Scopes::all()).await.unwrap();
    assert!(app.owns(owner_key.secret.expose(), &slug).await);
    assert_eq!(confirm(&app, &link_token, "same-origin").await, 410);
    assert_eq!(app.client.get(app.url(path)).send().await.unwrap().status(), 410);
    assert_eq!(app.client.get(app.url("/claims/confirm?token=nonsense")).send().await.unwrap().status(), 404);
}

#[tokio::test]
async fn a_person_confirms_an_emailed_claim_in_a_real_browser() {
    // The browser follows the e-mailed link: the site is the server's real address.
    let app = spawn_app_with(|settings| settings.site_url = None).await;
    let domain = format!("acme{}.com", unique());
    let slug = format!("browser-claim-{}", unique());
    listing(&app, &slug, &format!("https://{domain}/")).await;
    let (_, token) = app.api_key("").await;
    let address = format!("founder@{domain}");
    assert_eq!(app.claim(&token, json!({"slug": slug, "method": "email", "email": address})).await.status, 201);
    let link = app.claim_link_to(&address).await;
    assert!(link.starts_with(&app.address), "{link}");

    let browser = crate::browser::Browser::start().await;
    browser
        .run("claim_confirm_page", async {
            browser.driver.goto(&link).await.unwrap();
            browser.wait_for_text("Confirm an ownership claim").await;
            browser.wait_for_text(&address).await;
            browser.assert_accessible_light_and_dark().await;
            browser.button("Confirm").await.click().await.unwrap();
            browser.wait_for_text("The claim is confirmed").await;
            browser.assert_accessible().await;
        })
        .await;
    assert!(app.owns(&token, &slug).await);
}

#[tokio::test]
async fn claiming_again_with_another_address_sends_a_new_link_and_the_old_one_stops_working() {
    let app = spawn_app_with(|_| {}).await;
    let domain = format!("acme{}.com", unique());
    let slug = format!("retyped-{}", unique());
    listing(&app, &slug, &format!("https://{domain}/")).await;
    let (_, token) = app.api_key("").await;
    let link_to = |address: String| {
        let app = &app;
        async move { app.claim_link_to(&address).await.split("token=").nth(1).unwrap().to_owned() }
    };
    let (typo, right) = (format!("coe@{domain}"), format!("ceo@{domain}"));
    let first = app.claim(&token, json!({"slug": slug, "method": "email", "email": typo})).await.body;
    let old_link = link_to(typo).await;
    let second = app.claim(&token, json!({"slug": slug, "method": "email", "email": right})).await;
    assert_eq!(second.status, 201);
    assert_eq!(second.body["id"], first["id"], "the same claim");
    assert_eq!(second.body["instructions"]["publish"]["to"], right.as_str());
    let new_link = link_to(right).await;
    assert_eq!(confirm(&app, &old_link, "same-origin").await, 404, "the earlier link stops working");
    assert_eq!(confirm(&app, &new_link, "same-origin").await, 200);
    assert!(app.owns(&token, &slug).await);
    let mine = app.get_with_token("/api/v1/claims", &token).await.body;
    assert_eq!(mine["items"][0]["instructions"]["text"], "Verified through the e-mailed link: you are an owner of this listing.");
}

#[tokio::test]
async fn verify_claim_counts_against_its_own_hourly_limit() {
    let app = spawn_app_with(|settings| settings.rate_limits.verify_claim = "2/hour".into()).await;
    let slug = format!("limited-{}", unique());
    listing(&app, &slug, &format!("https://acme{}.com/", unique())).await;
    let (_, token) = app.api_key("").await;
    let claim = app.claim(&token, json!({"slug": slug, "method": "file"})).await.body;
    let path = format!("/api/v1/claims/{}/verify", claim["id"]);
    for _ in 0..2 {
        let reply = app.post_json(&path, &token, json!({})).await;
        assert_eq!(reply.status, 200, "{:#}", reply.body);
        assert_eq!(reply.header("ratelimit-policy"), Some("\"verify_claim\";q=2;w=3600"));
    }
    let refused = app.post_json(&path, &token, json!({})).await;
    refused.assert_problem(429, "rate_limited");
    assert!(refused.header("retry-after").is_some());
    // claim_listing is a write, counted apart: still allowed.
    assert_eq!(app.claim(&token, json!({"slug": slug, "method": "file"})).await.status, 201);
}

#[tokio::test]
async fn claim_listing_names_the_field_of_every_bad_input_and_writes_nothing() {
    let app = spawn_app_with(|_| {}).await;
    let domain = format!("acme{}.com", unique());
    let slug = format!("bad-{}", unique());
    listing(&app, &slug, &format!("https://{domain}/")).await;
    let hidden = format!("draft-{}", unique());
    let now = OffsetDateTime::now_utc();
    fixtures::listing(app.services.store.connection(), &hidden, "draft", Week::containing(now.date()), now).await;
    let (_, token) = app.api_key("").await;
    let cases = [
        (json!({"slug": "no-such-listing-anywhere", "method": "dns"}), "slug"),
        (json!({"slug": "Not A Slug!", "method": "dns"}), "slug"),
        (json!({"slug": hidden, "method": "dns"}), "slug"),
        (json!({"slug": "", "method": "dns"}), "slug"),
        (json!({"method": "dns"}), "slug"),
        (json!({"slug": slug}), "method"),
        (json!({"slug": slug, "method": "fax"}), "method"),
        (json!({"slug": slug, "method": "email"}), "email"),
        (json!({"slug": slug, "method": "email", "email": "not an address"}), "email"),
        (json!({"slug": slug, "method": "email", "email": "ceo@gmail.com"}), "email"),
        (json!({"slug": slug, "method": "email", "email": format!("ceo@{domain}.evil.example")}), "email"),
        (json!({"slug": slug, "method": "email", "email": "ceo@com"}), "email"),
        (json!({"slug": slug, "method": "dns", "email": format!("ceo@{domain}")}), "email"),
        (json!({"slug": slug, "method": "dns", "color": "red"}), "color"),
    ];
    for (body, field) in cases {
        let reply = app.claim(&token, body.clone()).await;
        assert_eq!(reply.status, 400, "{body}: {:#}", reply.body);
        reply.assert_invalid(&[field]);
    }
    let mine = app.get_with_token("/api/v1/claims", &token).await.body;
    assert_eq!(mine["total"], 0, "nothing was written");
}

#[tokio::test]
async fn an_email_claim_is_at_the_domain_itself_or_the_websites_host_never_another_subdomain_nor_free_mail() {
    let app = spawn_app_with(|_| {}).await;
    let domain = format!("zendesk{}.com", unique());
    let slug = format!("vendor-{}", unique());
    listing(&app, &slug, &format!("https://www.{domain}/")).await;
    let (_, token) = app.api_key("").await;
    let refused = [
        // A tenant of the vendor gets a mailbox on one of its subdomains: that proves nothing.
        format!("support@attacker-trial.{domain}"),
        format!("ceo@mail.{domain}"),
        // Free and disposable mail, from the maintained lists (not the old 24 names).
        "anyone@hey.com".to_owned(),
        "anyone@mailinator.com".to_owned(),
        "anyone@yahoo.co.uk".to_owned(),
    ];
    for address in &refused {
        let reply = app.claim(&token, json!({"slug": slug, "method": "email", "email": address})).await;
        assert_eq!(reply.status, 400, "{address}: {:#}", reply.body);
        reply.assert_invalid(&["email"]);
    }
    let outbox = app.services.store.outbox(500).await.unwrap();
    assert!(!outbox.iter().any(|mail| refused.contains(&mail.to)), "no link went to a refused address");
    assert_eq!(app.get_with_token("/api/v1/claims", &token).await.body["total"], 0, "nothing was written");

    // The registrable domain itself and the website's exact host may.
    let created = app.claim(&token, json!({"slug": slug, "method": "email", "email": format!("ceo@www.{domain}")})).await;
    assert_eq!(created.status, 201, "{:#}", created.body);
    let (_, other) = app.api_key("").await;
    let created = app.claim(&other, json!({"slug": slug, "method": "email", "email": format!("ceo@{domain}")})).await;
    assert_eq!(created.status, 201, "{:#}", created.body);

    // A link that went out before the rule (here: its claim's address moved to a tenant's
    // subdomain behind the rule's back) proves nothing: its page and its confirmation are 404.
    let link = app.claim_link_to(&format!("ceo@{domain}")).await;
    let link_token = link.split("token=").nth(1).unwrap().to_owned();
    let tenant = format!("support@attacker-trial.{domain}");
    let moved = format!("UPDATE claims SET email = '{tenant}' WHERE id = {}", created.body["id"]);
    app.services.store.connection().execute_unprepared(&moved).await.unwrap();
    assert_eq!(app.client.get(app.url(&format!("/claims/confirm?token={link_token}"))).send().await.unwrap().status(), 404);
    assert_eq!(confirm(&app, &link_token, "same-origin").await, 404);
    assert!(!app.owns(&other, &slug).await, "no ownership from a link the rule refuses");
}

#[tokio::test]
async fn a_website_under_a_tld_the_public_suffix_list_does_not_name_has_a_registrable_domain() {
    let app = spawn_app_with(|_| {}).await;
    // `.example` is in no version of the list: its default rule `*` makes the last two labels
    // the registrable domain.
    let domain = format!("cinderforge{}.example", unique());
    let slug = format!("unlisted-tld-{}", unique());
    listing(&app, &slug, &format!("https://www.{domain}/")).await;
    let (_, token) = app.api_key("").await;
    let address = format!("founder@{domain}");
    let created = app.claim(&token, json!({"slug": slug, "method": "email", "email": address})).await;
    assert_eq!(created.status, 201, "{:#}", created.body);
    assert_eq!(created.body["instructions"]["publish"], json!({"kind": "email_link", "to": address}));
    assert!(app.claim_link_to(&address).await.contains("/claims/confirm?token="));
    // Still nobody's: a sibling under the same unknown TLD.
    let reply = app.claim(&token, json!({"slug": slug, "method": "email", "email": format!("founder@other{}.example", unique())})).await;
    reply.assert_invalid(&["email"]);
}

/// How many mails the outbox holds to addresses containing `marker`.
async fn mails_to(app: &TestApp, marker: &str) -> usize {
    app.services.store.outbox(1000).await.unwrap().iter().filter(|mail| mail.to.contains(marker)).count()
}

#[tokio::test]
async fn claim_emails_are_bounded_per_account_and_per_recipient_each_day() {
    let app = spawn_app_with(|settings| {
        settings.claim_emails_per_account_per_day = 3;
        settings.claim_emails_per_recipient_per_day = 2;
    })
    .await;
    let marker = unique();
    let listed = |n: u32| {
        let app = &app;
        let marker = marker.clone();
        async move {
            let domain = format!("acme{n}{marker}.com");
            let slug = format!("quota-{n}-{marker}");
            listing(app, &slug, &format!("https://{domain}/")).await;
            (slug, domain)
        }
    };

    // One account: three e-mails in all, whether new claims or a claim sent to another address,
    // then 429 with Retry-After until the oldest is a day old; nothing is stored or sent beyond.
    let (_, token) = app.api_key("").await;
    let ((first, first_domain), (second, second_domain), (third, third_domain)) = (listed(1).await, listed(2).await, listed(3).await);
    for (slug, address) in
        [(&first, format!("a@{first_domain}")), (&first, format!("b@{first_domain}")), (&second, format!("a@{second_domain}"))]
    {
        let reply = app.claim(&token, json!({"slug": slug, "method": "email", "email": address})).await;
        assert_eq!(reply.status, 201, "{address}: {:#}", reply.body);
    }
    for (slug, address) in [(&third, format!("a@{third_domain}")), (&first, format!("c@{first_domain}"))] {
        let refused = app.claim(&token, json!({"slug": slug, "method": "email", "email": address})).await;
        refused.assert_problem(429, "rate_limited");
        let wait: u32 = refused.header("retry-after").unwrap().parse().unwrap();
        assert!((86_000..=86_400).contains(&wait), "{wait}");
    }
    assert_eq!(mails_to(&app, &marker).await, 3, "nothing sent beyond the account's quota");
    let mine = app.get_with_token("/api/v1/claims", &token).await.body;
    assert_eq!(mine["total"], 2, "the refused claim was not stored: {mine:#}");
    assert_eq!(mine["items"][1]["instructions"]["publish"]["to"], format!("b@{first_domain}"), "nor the refused address");
    // A claim by another method sends nothing and is not counted.
    assert_eq!(app.claim(&token, json!({"slug": third, "method": "dns"})).await.status, 201);

    // One address: two e-mails a day, whoever asks, then 429 for the next account.
    let (target_slug, target_domain) = listed(4).await;
    let target = format!("ceo@{target_domain}");
    for _ in 0..2 {
        let (_, token) = app.api_key("").await;
        let reply = app.claim(&token, json!({"slug": target_slug, "method": "email", "email": target})).await;
        assert_eq!(reply.status, 201, "{:#}", reply.body);
    }
    let (_, late) = app.api_key("").await;
    app.claim(&late, json!({"slug": target_slug, "method": "email", "email": target})).await.assert_problem(429, "rate_limited");
    assert_eq!(app.get_with_token("/api/v1/claims", &late).await.body["total"], 0);
    assert_eq!(mails_to(&app, &target).await, 2, "nothing sent beyond the recipient's quota");
}

#[tokio::test]
async fn claim_emails_carry_none_of_the_claimants_text_only_the_sites_words_the_listing_and_the_link() {
    let app = spawn_app_with(|_| {}).await;
    let domain = format!("acme{}.com", unique());
    let slug = format!("words-{}", unique());
    // The listing's address carries text of its own in its query: only its host is mailed.
    let id = listing(&app, &slug, &format!("https://www.{domain}/?ref=Wire+the+fee+today")).await;
    let owner = format!("founder-{}@example.com", unique());
    let owner_id = fixtures::user(app.services.store.connection(), &owner).await;
    fixtures::set_owner(app.services.store.connection(), id, owner_id).await;
    let (claimant, token) = app.api_key("").await;
    let lure = "Urgent call 555 0100 or lose your domain";
    let rename = format!("UPDATE users SET display_name = '{lure}' WHERE email = '{}'", claimant.as_str());
    app.services.store.connection().execute_unprepared(&rename).await.unwrap();

    let address = format!("ceo@{domain}");
    assert_eq!(app.claim(&token, json!({"slug": slug, "method": "email", "email": address})).await.status, 201);
    let link = app.claim_link_to(&address).await;
    let token_of_link = link.split("token=").nth(1).unwrap().to_owned();
    assert_eq!(confirm(&app, &token_of_link, "same-origin").await, 200);
    assert!(app.owns(&token, &slug).await);

    let outbox = app.services.store.outbox(500).await.unwrap();
    let to_link = outbox.iter().find(|mail| mail.to == address).expect("the link is e-mailed");
    let to_owner = outbox.iter().find(|mail| mail.to == owner).expect("the earlier owner is told");
    assert_eq!(to_owner.kind, "claim_new_owner");
    for mail in [to_link, to_owner] {
        // The link's random token is taken out first, so it cannot spell a word by chance.
        let (subject, body) = (&mail.subject, mail.body.replace(&token_of_link, ""));
        for caller_text in ["Urgent", "lose your domain", "Wire"] {
            assert!(!subject.contains(caller_text) && !body.contains(caller_text), "{caller_text} in {body:?}");
        }
        assert!(body.contains(&format!("www.{domain}")), "the listing's host: {body}");
    }
    assert!(to_link.body.contains(&format!("https://launch.example/claims/confirm?token={token_of_link}")));
    assert!(to_owner.body.contains(&format!("https://launch.example/listings/{slug}")));
}

#[tokio::test]
async fn someone_elses_claim_is_404_and_a_pending_claim_expires_after_fourteen_days() {
    // A database of its own: the moved clock's expiry would end other tests' pending claims.
    let app = spawn_empty_app().await;
    let slug = format!("exp-{}", unique());
    listing(&app, &slug, &format!("https://acme{}.com/", unique())).await;
    let (email, token) = app.api_key("").await;
    let (_, stranger) = app.api_key("").await;
    let claim = app.claim(&token, json!({"slug": slug, "method": "file"})).await.body;
    for id in [claim["id"].clone(), json!(999_999_999)] {
        let reply = app.post_json(&format!("/api/v1/claims/{id}/verify"), &stranger, json!({})).await;
        assert_eq!(reply.status, 404, "{:#}", reply.body);
    }
    assert_eq!(app.get_with_token("/api/v1/claims", &stranger).await.body["total"], 0);

    // Fifteen days on, the claim reads expired; the periodic job marks it so.
    let later = Arc::new(FixedClock::new(OffsetDateTime::now_utc() + Duration::days(15)));
    let db = app.services.store.connection().clone();
    let services = Services::build(&crate::helpers::settings_for(crate::helpers::shared_directory()), db, later).unwrap();
    let user = app.services.app.accounts.users.user_by_email(&email).await.unwrap();
    let id = ClaimId::new(claim["id"].as_i64().unwrap());
    let read = services.app.claims.verify(user.id, id).await.unwrap();
    assert_eq!(read.status, claims::ClaimStatus::Expired);
    assert!(services.app.claims.expire_due().await.unwrap() >= 1);
    assert_eq!(app.get_with_token("/api/v1/claims", &token).await.body["items"][0]["status"], "expired");
    // A new claim may be made once the old one expired.
    let fresh = app.claim(&token, json!({"slug": slug, "method": "file"})).await;
    assert_eq!(fresh.status, 201);
    assert_ne!(fresh.body["id"], claim["id"]);
}

/// A dns claim of `slug` (whose website is at `host`) by the key's account, published and verified.
async fn verified_by_dns(app: &TestApp, dns: &TestDns, token: &str, slug: &str, host: &str) {
    let claim = app.claim(token, json!({"slug": slug, "method": "dns"})).await;
    assert_eq!(claim.status, 201, "{:#}", claim.body);
    let value = claim.body["instructions"]["publish"]["value"].as_str().unwrap().to_owned();
    dns.add_txt(&format!("_launchdir-verification.{host}"), &[value.as_str()]).await;
    assert_eq!(app.verify(token, &claim.body["id"]).await["status"], "verified");
}

/// A new API key of `user`'s account.
async fn key_of(app: &TestApp, user: kernel::UserId) -> String {
    let email = app.services.store.users().find_by_id(user).await.unwrap().unwrap().email;
    let created = app.services.app.accounts.users.create_api_key(&email, Some("claims"), accounts::Scopes::all()).await.unwrap();
    created.secret.expose().to_owned()
}

#[tokio::test]
async fn the_verified_badge_goes_with_the_last_verified_owner_closing_the_account() {
    // A database of its own: an account closes in it.
    let dns = TestDns::start().await;
    let addr = dns.addr.to_string();
    let app = crate::helpers::spawn_empty_app_with(|settings| settings.dns_nameservers = vec![addr]).await;
    let (solo_host, shared_host) = (format!("{}.acme.test", unique()), format!("{}.acme.test", unique()));
    let (solo, shared) = (format!("solo-{}", unique()), format!("shared-{}", unique()));
    let solo_id = listing(&app, &solo, &format!("https://{solo_host}/")).await;
    listing(&app, &shared, &format!("https://{shared_host}/")).await;
    // The submitter of `solo` never proved anything; it stays an owner throughout.
    let db = app.services.store.connection();
    let submitter = fixtures::user(db, &format!("submitter-{}@example.com", unique())).await;
    fixtures::set_owner(db, solo_id, submitter).await;
    let month = Duration::days(30);
    let (alice, bob) = (crate::votes::person(&app, 0, true, month).await, crate::votes::person(&app, 1, true, month).await);
    let (alice_key, bob_key) = (key_of(&app, alice.user).await, key_of(&app, bob.user).await);
    verified_by_dns(&app, &dns, &alice_key, &solo, &solo_host).await;
    verified_by_dns(&app, &dns, &alice_key, &shared, &shared_host).await;
    verified_by_dns(&app, &dns, &bob_key, &shared, &shared_host).await;
    assert!(app.badges_of(&solo).await.contains(&"verified".to_owned()));

    let closed = crate::reviews::send(&app, &alice, "/account/close", &[("password", "a long enough password")]).await;
    assert_eq!(closed.status(), 200);
    // `solo` keeps its submitter, who never verified: no verified owner remains, nor the badge.
    assert!(!app.badges_of(&solo).await.contains(&"verified".to_owned()), "the badge went with its only verified owner");
    let kept = format!("SELECT COUNT(*) FROM listings WHERE id = {solo_id} AND owner_user_id = {submitter} AND verified_at IS NULL");
    assert_eq!(crate::reviews::count(&app, &kept).await, 1);
    // `shared` has another verified owner: it stays verified.
    assert!(app.badges_of(&shared).await.contains(&"verified".to_owned()), "bob still holds a verified claim");
    assert!(app.owns(&bob_key, &shared).await);
}

#[tokio::test]
async fn a_proof_that_disappears_is_recorded_and_the_site_team_told_and_the_owner_stays() {
    // A database of its own: the moved clock re-checks every verified claim there.
    let dns = TestDns::start().await;
    let addr = dns.addr.to_string();
    let app = crate::helpers::spawn_empty_app_with(|settings| settings.dns_nameservers = vec![addr.clone()]).await;
    let host = format!("{}.acme.test", unique());
    let slug = format!("gone-{}", unique());
    listing(&app, &slug, &format!("https://{host}/")).await;
    let (_, token) = app.api_key("").await;
    let claim = app.claim(&token, json!({"slug": slug, "method": "dns"})).await.body;
    let record = format!("_launchdir-verification.{host}");
    dns.add_txt(&record, &[claim["instructions"]["publish"]["value"].as_str().unwrap()]).await;
    assert_eq!(app.verify(&token, &claim["id"]).await["status"], "verified");
    let (admin, admin_email) = crate::admin::someone(&app, "Team", true).await;

    // A month on, the daily job finds the record still there; then it is removed.
    let db = app.services.store.connection().clone();
    let mut settings = crate::helpers::settings_for(crate::helpers::shared_directory());
    settings.dns_nameservers = vec![addr];
    let month_on = |days| {
        let clock = Arc::new(FixedClock::new(OffsetDateTime::now_utc() + Duration::days(days)));
        Services::build(&settings, db.clone(), clock).unwrap()
    };
    let summary = month_on(31).app.claims.recheck_due().await.unwrap();
    assert_eq!((summary.still_there, summary.missing), (1, 0));
    dns.clear(&record).await;
    let summary = month_on(62).app.claims.recheck_due().await.unwrap();
    assert_eq!((summary.still_there, summary.missing), (0, 1));
    let told = app
        .services
        .store
        .outbox(50)
        .await
        .unwrap()
        .into_iter()
        .filter(|mail| mail.to.eq_ignore_ascii_case(&admin_email))
        .collect::<Vec<_>>();
    assert_eq!(told.len(), 1, "the site team is told once");
    assert_eq!(told[0].kind, "claim_proof_missing");
    assert!(app.owns(&token, &slug).await, "ownership is not removed automatically");
    let mine = app.get_with_token("/api/v1/claims", &token).await.body;
    assert!(mine["items"][0]["proof_missing_since"].is_string(), "{mine:#}");

    // The site team sees it on /admin/claims and checks again at once: the record is back.
    let page = crate::admin::get(&app, Some(&admin), &format!("/admin/claims?q={slug}")).await.text().await.unwrap();
    assert!(page.contains(&slug) && page.contains("proof gone since"), "{page}");
    dns.add_txt(&record, &[claim["instructions"]["publish"]["value"].as_str().unwrap()]).await;
    let id = claim["id"].as_i64().unwrap();
    let pressed = crate::reviews::send(&app, &admin, &format!("/admin/claims/{id}/recheck"), &[]).await;
    assert_eq!(pressed.status(), 303);
    let page = crate::admin::get(&app, Some(&admin), &format!("/admin/claims?q={slug}")).await.text().await.unwrap();
    assert!(!page.contains("proof gone since"), "{page}");
    let audit = crate::admin::get(&app, Some(&admin), "/admin/audit?q=claim.recheck").await.text().await.unwrap();
    assert!(audit.contains(&format!("claim {id}")) && audit.contains("the proof is still there"), "{audit}");
    // Someone without the role gets the unknown address's answer.
    let (stranger, _) = crate::admin::someone(&app, "Stranger", false).await;
    assert_eq!(crate::reviews::send(&app, &stranger, &format!("/admin/claims/{id}/recheck"), &[]).await.status(), 404);
}

/// `cargo xtask bench --claims` (release): what one `verify_claim` costs per method, against a
/// DNS server and a website on loopback, beside `get_site_info`, one client, one request at a
/// time, interleaved in one run. Each claim's proof is published with a wrong value, so every call
/// does the whole check (the lookup or the fetch, the comparison, the recorded result) and the
/// claim stays pending; the one-time grant of a successful check is not in these figures.
#[tokio::test]
#[ignore = "a measurement; run by `cargo xtask bench --claims`"]
async fn measure_claim_verification_against_site_info() {
    let dns = TestDns::start().await;
    let addr = dns.addr.to_string();
    let app = spawn_app_with(|settings| {
        settings.crawler.allow_private_networks = true;
        settings.rate_limits.enabled = false;
        settings.dns_nameservers = vec![addr];
    })
    .await;
    let (_, token) = app.api_key("").await;
    let head = r#"<!doctype html><html><head><title>Acme</title><meta name="launchdir-verification" content="wrong"></head><body>Acme</body></html>"#;
    let site = FixtureServer::start(HashMap::from([
        ("/".to_owned(), Route::new(200, "text/html; charset=utf-8", head)),
        ("/.well-known/launchdir-verification.txt".to_owned(), Route::new(200, "text/plain", "wrong\n")),
    ]))
    .await;
    let host = format!("{}.acme.test", unique());
    dns.add_txt(&format!("_launchdir-verification.{host}"), &["launchdir-verification=wrong"]).await;
    let (dns_slug, site_slug, mail_slug) =
        (format!("bench-dns-{}", unique()), format!("bench-site-{}", unique()), format!("bench-mail-{}", unique()));
    listing(&app, &dns_slug, &format!("https://{host}/")).await;
    listing(&app, &site_slug, &site.url("/")).await;
    let domain = format!("acme{}.com", unique());
    listing(&app, &mail_slug, &format!("https://{domain}/")).await;
    let mut claims = Vec::new();
    for (slug, method, email) in [
        (&dns_slug, "dns", None),
        (&site_slug, "meta", None),
        (&site_slug, "file", None),
        (&mail_slug, "email", Some(format!("ceo@{domain}"))),
    ] {
        let claim = app.claim(&token, json!({"slug": slug, "method": method, "email": email})).await.body;
        claims.push((method, claim["id"].as_i64().unwrap()));
    }
    let timed = crate::helpers::timed;
    let mut times: Vec<Vec<f64>> = vec![Vec::new(); claims.len() + 1];
    for round in 0..550 {
        let site_time = timed(app.client.get(app.url("/api/v1/site"))).await;
        let mut round_times = vec![site_time];
        for (_, id) in &claims {
            round_times.push(timed(app.client.post(app.url(&format!("/api/v1/claims/{id}/verify"))).bearer_auth(&token)).await);
        }
        // The first 50 rounds warm up connections and caches.
        if round >= 50 {
            for (list, time) in times.iter_mut().zip(round_times) {
                list.push(time);
            }
        }
    }
    for list in &mut times {
        list.sort_by(f64::total_cmp);
    }
    let median = |list: &[f64]| list[list.len() / 2];
    let p99 = |list: &[f64]| list[list.len() * 99 / 100];
    let site_median = median(&times[0]);
    eprintln!("| request | median | p99 | median / get_site_info's |");
    eprintln!("|---|---|---|---|");
    eprintln!("| get_site_info | {:.3} ms | {:.3} ms | 1.00 |", site_median, p99(&times[0]));
    for ((method, _), list) in claims.iter().zip(&times[1..]) {
        let what = match *method {
            "dns" => "verify_claim dns (TXT lookup, loopback DNS server)",
            "meta" => "verify_claim meta (homepage fetched and parsed)",
            "file" => "verify_claim file (well-known file fetched)",
            _ => "verify_claim email (state only; the link verifies)",
        };
        eprintln!("| {what} | {:.3} ms | {:.3} ms | {:.2} |", median(list), p99(list), median(list) / site_median);
    }
    let backend = crate::helpers::backend_name();
    eprintln!("({} rounds after 50 warm-up rounds, one client, {backend})", times[0].len());
}
