//! `search_listings`.

use crate::helpers::{TestApp, settings_for, spawn_app};
use launchdir_server::Application;
use sea_orm::{ConnectionTrait, Statement};
use serde_json::Value;
use store_seaorm::testing::{TestDatabase, fixtures};
use time::OffsetDateTime;

async fn scalar(app: &TestApp, sql: &str) -> i64 {
    let db = app.services.store.connection();
    db.query_one_raw(Statement::from_string(db.get_database_backend(), sql)).await.unwrap().unwrap().try_get_by_index::<i64>(0).unwrap()
}

async fn text(app: &TestApp, sql: &str) -> String {
    let db = app.services.store.connection();
    db.query_one_raw(Statement::from_string(db.get_database_backend(), sql)).await.unwrap().unwrap().try_get_by_index::<String>(0).unwrap()
}

fn slugs(body: &Value) -> Vec<String> {
    body["items"].as_array().unwrap().iter().map(|i| i["slug"].as_str().unwrap().to_owned()).collect()
}

#[tokio::test]
async fn typos_are_forgiven_and_the_last_word_is_a_prefix() {
    let app = spawn_app().await;
    let name = text(&app, "SELECT name FROM listings WHERE status = 'live' AND LENGTH(name) >= 9 ORDER BY id LIMIT 1").await;
    let slug = name.to_lowercase();
    let mut typo: Vec<char> = slug.chars().collect();
    typo.remove(2); // one letter missing
    let typo: String = typo.into_iter().collect();
    let reply = app.get(&format!("/api/v1/listings?q={typo}")).await;
    assert_eq!(reply.status, 200, "{:#}", reply.body);
    assert_eq!(slugs(&reply.body).first(), Some(&slug), "{typo} finds {slug} first");
    let item = &reply.body["items"][0];
    assert!(item["name"].is_string() && item["url"].is_string() && item["votes"].is_u64(), "results are summaries");
    let prefix = &slug[..5];
    assert!(slugs(&app.get(&format!("/api/v1/listings?q={prefix}&per_page=100")).await.body).contains(&slug), "prefix {prefix}");
    assert_eq!(app.get("/api/v1/listings?q=qqqqzzzz").await.body["total"], 0);
}

#[tokio::test]
async fn category_includes_its_subcategories() {
    let app = spawn_app().await;
    let search = app.get("/api/v1/listings?category=productivity&per_page=100").await;
    let page = app.get("/api/v1/categories/productivity?per_page=100").await;
    assert_eq!(search.body["total"], page.body["total"]);
    let primaries: Vec<&str> = search.body["items"].as_array().unwrap().iter().map(|i| i["primary_category"].as_str().unwrap()).collect();
    assert!(primaries.iter().any(|p| *p != "productivity"), "listings of subcategories are found: {primaries:?}");
    let note_taking = app.get("/api/v1/listings?category=note-taking&q=note").await;
    assert!(
        note_taking.body["items"]
            .as_array()
            .unwrap()
            .iter()
            .all(|i| i["primary_category"] == "note-taking" || !i["primary_category"].is_null())
    );
}

#[tokio::test]
async fn filters_match_the_database() {
    let app = spawn_app().await;
    let live = scalar(&app, "SELECT COUNT(*) FROM listings WHERE status = 'live'").await;
    assert_eq!(app.get("/api/v1/listings").await.body["total"], live, "empty q browses every live listing");
    for (query, sql) in [
        ("stage=mvp", "stage = 'mvp'"),
        ("country=de", "country = 'DE'"),
        ("pricing_model=Freemium", "pricing_model = 'freemium'"),
        ("stage=growing&country=US", "stage = 'growing' AND country = 'US'"),
    ] {
        let expected = scalar(&app, &format!("SELECT COUNT(*) FROM listings WHERE status = 'live' AND {sql}")).await;
        let reply = app.get(&format!("/api/v1/listings?{query}")).await;
        assert_eq!(reply.body["total"], expected, "{query}");
        assert!(expected > 0, "{query} has demo data");
    }
    let slug = text(&app, "SELECT slug FROM listings WHERE status = 'live' ORDER BY id LIMIT 1").await;
    let by_domain = app.get(&format!("/api/v1/listings?domain=www.{slug}.example")).await;
    assert_eq!(slugs(&by_domain.body), [slug]);
    let upcoming = app.get("/api/v1/listings?status=upcoming&per_page=100").await;
    let expected = scalar(&app, "SELECT COUNT(*) FROM listings WHERE status IN ('scheduled', 'awaiting_badge')").await;
    assert_eq!(upcoming.body["total"], expected);
    assert!(upcoming.body["items"].as_array().unwrap().iter().all(|i| i["status"] == "scheduled" || i["status"] == "awaiting_badge"));
}

#[tokio::test]
async fn sorts() {
    let app = spawn_app().await;
    let votes = app.get("/api/v1/listings?sort=votes&per_page=50").await;
    let v: Vec<u64> = votes.body["items"].as_array().unwrap().iter().map(|i| i["votes"].as_u64().unwrap()).collect();
    assert!(v.windows(2).all(|w| w[0] >= w[1]));
    let relevance = app.get("/api/v1/listings?per_page=50").await;
    assert_eq!(relevance.body["items"], votes.body["items"], "without q, relevance is most voted");
    let newest = app.get("/api/v1/listings?sort=newest&per_page=50").await;
    let weeks: Vec<&str> = newest.body["items"].as_array().unwrap().iter().map(|i| i["launch_week"].as_str().unwrap()).collect();
    assert!(weeks.windows(2).all(|w| w[0] >= w[1]), "{weeks:?}");
    let viewed = app.get("/api/v1/listings?sort=most_viewed&per_page=10").await;
    let feed = app.get("/api/v1/launches?section=most-viewed&per_page=10").await;
    let feed_slugs: Vec<String> =
        feed.body["items"].as_array().unwrap().iter().map(|i| i["listing"]["slug"].as_str().unwrap().to_owned()).collect();
    assert_eq!(slugs(&viewed.body), feed_slugs);
    let followed = app.get("/api/v1/listings?sort=most_followed&per_page=10").await;
    let feed = app.get("/api/v1/launches?section=most-followed&per_page=10").await;
    let feed_slugs: Vec<String> =
        feed.body["items"].as_array().unwrap().iter().map(|i| i["listing"]["slug"].as_str().unwrap().to_owned()).collect();
    assert_eq!(slugs(&followed.body), feed_slugs);
    let trending = app.get("/api/v1/listings?sort=trending&per_page=3").await;
    let feed = app.get("/api/v1/launches?section=trending&per_page=3").await;
    let feed_slugs: Vec<String> =
        feed.body["items"].as_array().unwrap().iter().map(|i| i["listing"]["slug"].as_str().unwrap().to_owned()).collect();
    assert_eq!(slugs(&trending.body), feed_slugs);
}

#[tokio::test]
async fn an_edit_is_found_by_every_server_on_the_database() {
    let test = TestDatabase::new().await;
    let now = OffsetDateTime::now_utc();
    let id = fixtures::listing(&test.db, "acme", "live", kernel::Week::containing(now.date()), now).await;
    fixtures::edit_tagline(&test.db, id, "Zephyr widgets for teams").await;
    let mut servers = Vec::new();
    for _ in 0..2 {
        let app = Application::build(settings_for(&test.config)).await.unwrap();
        servers.push(format!("http://127.0.0.1:{}", app.port()));
        tokio::spawn(app.run_until_stopped());
    }
    let client = crate::helpers::client();
    let find = |base: String, q: &'static str| {
        let client = client.clone();
        async move {
            let body: Value = client.get(format!("{base}/api/v1/listings?q={q}")).send().await.unwrap().json().await.unwrap();
            slugs(&body)
        }
    };
    for base in &servers {
        assert_eq!(find(base.clone(), "zephyr").await, ["acme"], "the index is built at start");
    }
    fixtures::edit_tagline(&test.db, id, "Moonlight calendars for teams").await;
    for base in &servers {
        // Each server reads changes from the database twice a second; allow generous time on
        // a loaded machine rather than asserting a wall-clock limit.
        let mut found = false;
        for _ in 0..100 {
            if find(base.clone(), "moonlight").await == ["acme"] {
                found = true;
                break;
            }
            tokio::time::sleep(std::time::Duration::from_millis(100)).await;
        }
        assert!(found, "{base} finds the edit");
        assert!(find(base.clone(), "zephyr").await.is_empty(), "{base} forgot the old text");
    }
}

#[tokio::test]
async fn pages_of_a_word_search_line_up() {
    let app = spawn_app().await;
    let all = app.get("/api/v1/listings?q=fictional&per_page=30").await;
    let total = all.body["total"].as_u64().unwrap();
    assert!(total > 30, "the demo descriptions all say fictional: {total}");
    let first = app.get("/api/v1/listings?q=fictional&per_page=10").await;
    let second = app.get("/api/v1/listings?q=fictional&per_page=10&page=2").await;
    let joined: Vec<String> = slugs(&first.body).into_iter().chain(slugs(&second.body)).collect();
    assert_eq!(joined, slugs(&all.body)[..20]);
    assert_eq!(second.body["total"], total, "the exact total on every page");
    let upcoming = app.get("/api/v1/listings?q=fictional&status=upcoming&per_page=100").await;
    assert!(upcoming.body["items"].as_array().unwrap().iter().all(|i| i["status"] != "live"));
    let filtered = app.get("/api/v1/listings?q=fictional&country=DE&per_page=100").await;
    assert!(filtered.body["total"].as_u64().unwrap() < total, "other filters still apply");
}

#[tokio::test]
async fn search_validation() {
    let app = spawn_app().await;
    app.get(&format!("/api/v1/listings?q={}", "a".repeat(201))).await.assert_invalid(&["q"]);
    app.get("/api/v1/listings?category=no-such-category").await.assert_invalid(&["category"]);
    app.get("/api/v1/listings?category=Bad").await.assert_invalid(&["category"]);
    app.get("/api/v1/listings?stage=Early_Stage").await.assert_invalid(&["stage"]);
    app.get("/api/v1/listings?country=Germany").await.assert_invalid(&["country"]);
    app.get(&format!("/api/v1/listings?pricing_model={}", "x".repeat(41))).await.assert_invalid(&["pricing_model"]);
    app.get(&format!("/api/v1/listings?domain={}", "d".repeat(254))).await.assert_invalid(&["domain"]);
    app.get("/api/v1/listings?status=all").await.assert_invalid(&["status"]);
    app.get("/api/v1/listings?sort=random").await.assert_invalid(&["sort"]);
    app.get("/api/v1/listings?per_page=101").await.assert_invalid(&["per_page"]);
    app.get("/api/v1/listings?tag=x").await.assert_invalid(&["tag"]);
}

/// The index kept on disk survives a restart: the second start reads only what changed while
/// the server was down, and finds it; a feed pruned past where the index stood reads all.
#[tokio::test]
async fn a_kept_index_goes_on_from_where_it_stood_after_a_restart() {
    let test = TestDatabase::new().await;
    let now = OffsetDateTime::now_utc();
    let week = kernel::Week::containing(now.date());
    let first = fixtures::listing(&test.db, "before-restart", "live", week, now).await;
    fixtures::edit_tagline(&test.db, first, "Narwhal dashboards").await;
    for n in 0..3 {
        fixtures::listing(&test.db, &format!("unchanged-{n}"), "live", week, now).await;
    }
    let settings = settings_for(&test.config);
    let dir = std::env::temp_dir().join(format!("launchdir-kept-index-{}", uuid::Uuid::new_v4().simple()));
    let start = || async {
        let services = launchdir_server::Services::build(&settings, test.db.clone(), std::sync::Arc::new(kernel::SystemClock)).unwrap();
        let index = search_tantivy::TantivyIndex::in_dir(&dir).unwrap();
        services.app.listings.search.with_index(std::sync::Arc::new(index))
    };
    let search = start().await;
    assert_eq!(search.sync().await.unwrap(), 4, "a new index reads every listing");
    // The next poll reads the newest positions once more (a write that took its position
    // before the full read may commit after it) and keeps where it then stands.
    search.sync().await.unwrap();
    assert_eq!(search.sync().await.unwrap(), 0, "nothing new");
    drop(search);

    // While the server is down, a listing changes and another goes live.
    fixtures::edit_tagline(&test.db, first, "Narwhal dashboards and reports").await;
    let second = fixtures::listing(&test.db, "while-down", "live", week, now).await;
    fixtures::edit_tagline(&test.db, second, "Axolotl forms").await;
    let search = start().await;
    assert_eq!(search.sync().await.unwrap(), 2, "only the two listings that changed are read again");
    let found = |q: &'static str| {
        let search = search.clone();
        async move {
            let request = listings::SearchRequest {
                q: Some(q.into()),
                category: None,
                stage: None,
                country: None,
                pricing_model: None,
                domain: None,
                upcoming: false,
                sort: listings::SortBy::Relevance,
                page: kernel::PageRequest::default(),
            };
            search.search(&request).await.unwrap().items.into_iter().map(|item| item.slug.as_str().to_owned()).collect::<Vec<_>>()
        }
    };
    assert_eq!(found("axolotl").await, ["while-down"]);
    assert_eq!(found("reports").await, ["before-restart"]);
    assert_eq!(found("narwhal").await, ["before-restart"], "kept documents are still found");
    drop(search);
    std::fs::remove_dir_all(&dir).unwrap();
}

async fn slugs_by_sql(app: &TestApp, sql: &str) -> Vec<String> {
    let db = app.services.store.connection();
    let rows = db.query_all_raw(Statement::from_string(db.get_database_backend(), sql)).await.unwrap();
    rows.iter().map(|row| row.try_get_by_index::<String>(0).unwrap()).collect()
}

/// Every page of a search, in order.
async fn every_page(app: &TestApp, query: &str) -> (Vec<String>, u64) {
    let (mut all, mut page) = (Vec::new(), 1);
    loop {
        let body = app.get(&format!("/api/v1/listings?{query}&per_page=100&page={page}")).await.body;
        let items = slugs(&body);
        all.extend(items.iter().cloned());
        if items.len() < 100 {
            return (all, body["total"].as_u64().unwrap());
        }
        page += 1;
    }
}

#[tokio::test]
async fn filtered_searches_are_ordered_and_counted_inside_the_index_as_the_database_would() {
    let app = spawn_app().await;
    let productivity = "SELECT lc.listing_id FROM listing_categories lc JOIN categories c ON c.id = lc.category_id \
                        WHERE c.slug = 'productivity' OR c.parent_id = (SELECT id FROM categories WHERE slug = 'productivity')";
    let live = "status = 'live'";
    for (query, filter, order) in [
        ("stage=mvp&sort=votes", format!("{live} AND stage = 'mvp'"), "votes_count DESC, id"),
        ("country=de&sort=newest", format!("{live} AND country = 'DE'"), "launched_at DESC, id"),
        ("pricing_model=FREEMIUM&sort=most_viewed", format!("{live} AND LOWER(pricing_model) = 'freemium'"), "views_count DESC, id"),
        (
            "category=productivity&sort=most_followed",
            format!("{live} AND follows_count > 0 AND id IN ({productivity})"),
            "follows_count DESC, id",
        ),
        ("category=productivity&stage=growing", format!("{live} AND stage = 'growing' AND id IN ({productivity})"), "votes_count DESC, id"),
        ("status=upcoming&sort=votes", "status IN ('scheduled', 'awaiting_badge')".to_owned(), "votes_count DESC, id"),
    ] {
        let expected = slugs_by_sql(&app, &format!("SELECT slug FROM listings WHERE {filter} ORDER BY {order}")).await;
        assert!(expected.len() > 1, "{query} has demo data");
        let (found, total) = every_page(&app, query).await;
        assert_eq!(found, expected, "{query}");
        assert_eq!(total, expected.len() as u64, "{query}");
    }
    // Trending with a filter: the ranking's order among the listings that pass, then the rest
    // by id.
    let (ranked, _) = every_page(&app, "sort=trending").await;
    let passing = slugs_by_sql(&app, "SELECT slug FROM listings WHERE status = 'live' AND stage = 'mvp' ORDER BY id").await;
    let mut expected: Vec<String> = ranked.iter().filter(|slug| passing.contains(slug)).cloned().collect();
    expected.extend(passing.iter().filter(|slug| !ranked.contains(slug)).cloned());
    let (found, total) = every_page(&app, "stage=mvp&sort=trending").await;
    assert_eq!(found, expected);
    assert_eq!(total, passing.len() as u64);
}

#[tokio::test]
async fn typing_is_answered_with_a_few_products_and_categories() {
    let app = spawn_app().await;
    let suggested = |q: &'static str| {
        let app = &app;
        async move {
            let reply = app.client.get(app.url(&format!("/search/suggestions?q={q}"))).send().await.unwrap();
            assert_eq!(reply.status(), 200);
            reply.json::<Value>().await.unwrap()["suggestions"].as_array().unwrap().clone()
        }
    };
    let answer = suggested("produ").await;
    let categories: Vec<&str> = answer.iter().filter(|s| s["kind"] == "category").map(|s| s["label"].as_str().unwrap()).collect();
    assert!(categories.contains(&"Productivity"), "{answer:?}");
    let products: Vec<&Value> = answer.iter().filter(|s| s["kind"] == "product").collect();
    assert!(!products.is_empty() && products.len() <= 5, "{answer:?}");
    for product in products {
        let url = product["url"].as_str().unwrap();
        assert_eq!(app.client.get(app.url(url)).send().await.unwrap().status(), 200, "{url} is its page");
    }
    assert!(suggested("p").await.is_empty(), "one letter is not worth a round trip");
    assert!(suggested("").await.is_empty());
    assert!(suggested("zzzzqqqq").await.is_empty(), "nothing close, nothing offered");
    // What the search refuses, the suggestions refuse too, naming the field.
    let long = "x".repeat(201);
    let refused = app.client.get(app.url(&format!("/search/suggestions?q={long}"))).send().await.unwrap();
    assert_eq!(refused.status(), 400);
    assert_eq!(refused.headers()["content-type"], "application/problem+json");
    let problem: Value = refused.json().await.unwrap();
    assert_eq!(problem["errors"][0]["field"], "q", "{problem}");
}
