//! The public pages over HTTP: every address `get_site_info` names and every badge link answers
//! a page; pages parse as a browser parses them; the home page's links all resolve; pages say
//! what their API twins say; sitemaps, robots.txt and feeds; the 404 page.

use crate::helpers::{TestApp, spawn_app, spawn_empty_app};
use serde_json::Value;
use std::collections::BTreeSet;
use store_seaorm::testing::fixtures;

/// A page as text, with its status and content type.
async fn fetch(app: &TestApp, path: &str) -> (u16, String, String) {
    let reply = app.client.get(app.url(path)).header("Accept", "text/html").send().await.unwrap();
    let status = reply.status().as_u16();
    let content_type = reply.headers().get("content-type").map(|v| v.to_str().unwrap().to_owned()).unwrap_or_default();
    (status, content_type, reply.text().await.unwrap())
}

/// The local path of an address on this site (`https://launch.example/x` -> `/x`).
fn local(app_site: &str, address: &str) -> Option<String> {
    if address.starts_with('/') && !address.starts_with("//") {
        return Some(address.to_owned());
    }
    address.strip_prefix(app_site).map(|rest| if rest.is_empty() { "/".to_owned() } else { rest.to_owned() })
}

/// Parses HTML as a browser does (html5ever) and fails on any parse error.
fn assert_parses(path: &str, html: &str) {
    let document = scraper::Html::parse_document(html);
    assert!(document.errors.is_empty(), "{path} has HTML parse errors: {:?}", document.errors);
    let h1 = scraper::Selector::parse("h1").unwrap();
    assert_eq!(document.select(&h1).count(), 1, "{path} has one h1");
    for landmark in ["header", "main", "footer", "nav"] {
        let selector = scraper::Selector::parse(landmark).unwrap();
        assert!(document.select(&selector).next().is_some(), "{path} has a {landmark}");
    }
    let head = |selector: &str| {
        let selector = scraper::Selector::parse(selector).unwrap();
        document.select(&selector).next().is_some()
    };
    for tag in ["title", "meta[name=description]", "link[rel=canonical]", "meta[property='og:title']", "meta[property='og:url']"] {
        assert!(head(tag), "{path} has {tag}");
    }
}

fn links(html: &str) -> Vec<String> {
    let document = scraper::Html::parse_document(html);
    let anchor = scraper::Selector::parse("a[href]").unwrap();
    document.select(&anchor).filter_map(|a| a.value().attr("href").map(str::to_owned)).collect()
}

async fn demo_slug(app: &TestApp) -> String {
    let listings = app.get("/api/v1/listings?sort=votes&per_page=1").await;
    listings.body["items"][0]["slug"].as_str().unwrap().to_owned()
}

#[tokio::test]
async fn every_address_site_info_names_and_every_badge_link_is_a_page() {
    let app = spawn_app().await;
    let site = app.get("/api/v1/site").await.body;
    let site_url = site["site_url"].as_str().unwrap().to_owned();
    let mut paths: Vec<String> =
        site["urls"].as_object().unwrap().values().map(|url| local(&site_url, url.as_str().unwrap()).unwrap()).collect();
    paths.push(local(&site_url, site["docs"]["api_docs"].as_str().unwrap()).unwrap());
    let listings = app.get("/api/v1/listings?per_page=20&sort=votes").await;
    for item in listings.body["items"].as_array().unwrap() {
        let badges = app.get(&format!("/api/v1/listings/{}/badges", item["slug"].as_str().unwrap())).await;
        for badge in badges.body["items"].as_array().unwrap() {
            let link = badge["link"].as_str().unwrap();
            assert!(badge["embed_html"].as_str().unwrap().contains(link));
            paths.push(local(&site_url, link).unwrap());
        }
    }
    assert!(paths.len() > 8, "badges were found: {paths:?}");
    for path in paths {
        let (status, content_type, html) = fetch(&app, &path).await;
        assert_eq!(status, 200, "{path}");
        assert!(content_type.starts_with("text/html"), "{path}: {content_type}");
        assert_parses(&path, &html);
    }
}

#[tokio::test]
async fn every_kind_of_page_parses_cleanly_with_its_head_and_landmarks() {
    let app = spawn_app().await;
    let slug = demo_slug(&app).await;
    let category = app.get("/api/v1/categories").await.body["items"][0]["slug"].as_str().unwrap().to_owned();
    let founder = app.get("/api/v1/founders?per_page=1").await.body["items"][0]["slug"].as_str().unwrap().to_owned();
    let post = app.get("/api/v1/blog?per_page=1").await.body["items"][0]["slug"].as_str().unwrap().to_owned();
    let paths = [
        "/launches?section=trending".to_owned(),
        "/launches?section=upcoming&page=2".to_owned(),
        "/launches/weeks/this".to_owned(),
        "/launches/weeks/last".to_owned(),
        "/launches/weeks/next".to_owned(),
        format!("/categories/{category}"),
        "/leaderboards/billboard".to_owned(),
        "/leaderboards/community-weekly?week=last".to_owned(),
        "/leaderboards/domain-rating".to_owned(),
        "/leaderboards/revenue".to_owned(),
        "/awards".to_owned(),
        format!("/founders/{founder}"),
        format!("/blog/{post}"),
        "/search".to_owned(),
        "/search?q=notes&sort=votes".to_owned(),
        format!("/listings/{slug}"),
        "/no/such/page".to_owned(),
    ];
    for path in paths {
        let (status, _, html) = fetch(&app, &path).await;
        assert!(status == 200 || path == "/no/such/page", "{path}: {status}");
        assert_parses(&path, &html);
    }
}

#[tokio::test]
async fn every_link_on_the_home_page_resolves() {
    let app = spawn_app().await;
    let (status, _, home) = fetch(&app, "/").await;
    assert_eq!(status, 200);
    let site_url = app.get("/api/v1/site").await.body["site_url"].as_str().unwrap().to_owned();
    let targets: BTreeSet<String> = links(&home).iter().filter_map(|href| local(&site_url, href)).collect();
    assert!(targets.len() > 20, "the home page links the directory: {targets:?}");
    let mut broken = Vec::new();
    for path in &targets {
        // The link as a browser follows it: `#main` is the same page.
        let path = path.split('#').next().unwrap();
        let path = if path.is_empty() { "/" } else { path };
        let (status, _, _) = fetch(&app, path).await;
        if status != 200 {
            broken.push(format!("{path}: {status}"));
        }
    }
    assert!(broken.is_empty(), "broken links on the home page: {broken:?}");
    // Every link a person can follow stays on this site, except the products' own websites.
    let foreign: Vec<String> = links(&home).into_iter().filter(|href| local(&site_url, href).is_none() && !href.starts_with('#')).collect();
    assert!(foreign.is_empty(), "the home page links away: {foreign:?}");
}

#[tokio::test]
async fn a_listing_page_shows_what_get_listing_returns_with_json_ld_from_genuine_reviews_only() {
    let app = spawn_app().await;
    let slug = demo_slug(&app).await;
    let listing = app.get(&format!("/api/v1/listings/{slug}")).await.body;
    let (status, _, html) = fetch(&app, &format!("/listings/{slug}")).await;
    assert_eq!(status, 200);
    let document = scraper::Html::parse_document(&html);
    let text_of = |selector: &str| {
        let selector = scraper::Selector::parse(selector).unwrap();
        document.select(&selector).next().map(|e| e.text().collect::<String>().trim().to_owned()).unwrap_or_default()
    };
    assert_eq!(text_of("h1"), listing["name"].as_str().unwrap());
    assert_eq!(text_of("#votes strong"), listing["votes"].to_string());
    let shown: String = document.root_element().text().collect();
    assert!(shown.contains(listing["tagline"].as_str().unwrap()), "the tagline is shown");
    for feature in listing["features"].as_array().unwrap() {
        assert!(shown.contains(feature.as_str().unwrap()), "feature {feature} is shown");
    }
    for founder in listing["founders"].as_array().unwrap() {
        assert!(html.contains(&format!("/founders/{}", founder["slug"].as_str().unwrap())));
    }
    let ld_selector = scraper::Selector::parse("script[type='application/ld+json']").unwrap();
    let ld: Value = serde_json::from_str(&document.select(&ld_selector).next().unwrap().text().collect::<String>()).unwrap();
    assert_eq!(ld["@type"], "SoftwareApplication");
    assert_eq!(ld["name"], listing["name"]);
    let rating = &listing["community_rating"];
    if rating["count"].as_u64().unwrap() > 0 {
        assert_eq!(ld["aggregateRating"]["reviewCount"], rating["count"]);
        assert_eq!(ld["aggregateRating"]["ratingValue"], rating["average"]);
    } else {
        assert!(ld.get("aggregateRating").is_none(), "no rating without genuine reviews");
    }
    // The badges it earned show; their embed code is for its owners (`listing_page.rs`).
    let badges = app.get(&format!("/api/v1/listings/{slug}/badges")).await.body;
    for badge in badges["items"].as_array().unwrap() {
        assert!(html.contains(&format!("alt=\"{}\"", badge["title"].as_str().unwrap())), "{badge}");
    }
    assert!(!shown.contains("Embed code"), "nobody signed in owns it");
}

#[tokio::test]
async fn json_ld_cannot_be_broken_out_of_and_unrated_listings_claim_no_rating() {
    let app = spawn_empty_app().await;
    let db = app.services.store.connection();
    let now = time::OffsetDateTime::now_utc();
    let id = fixtures::listing(db, "shady", "live", kernel::Week::containing(now.date()), now).await;
    fixtures::edit_tagline(db, id, "</script><script>alert(1)</script>").await;
    let (status, _, html) = fetch(&app, "/listings/shady").await;
    assert_eq!(status, 200);
    assert!(!html.contains("</script><script>alert(1)"), "the name cannot close the JSON-LD script");
    assert!(html.contains("\\u003c/script\\u003e"));
    assert!(!html.contains("aggregateRating"));
}

#[tokio::test]
async fn the_billboard_is_labelled_paid_on_the_page_and_every_row_and_never_mixed_with_the_others() {
    let app = spawn_app().await;
    let board = app.get("/api/v1/leaderboards/billboard").await.body;
    let rows = board["items"].as_array().unwrap().len();
    assert!(rows > 0, "the demo billboard has places");
    let (_, _, html) = fetch(&app, "/leaderboards/billboard").await;
    let document = scraper::Html::parse_document(&html);
    let h1 = scraper::Selector::parse("h1").unwrap();
    assert!(document.select(&h1).next().unwrap().text().collect::<String>().contains("Paid ranking"));
    let row = scraper::Selector::parse("li.card").unwrap();
    let cards: Vec<String> = document.select(&row).map(|li| li.text().collect()).collect();
    assert_eq!(cards.len(), rows);
    assert!(cards.iter().all(|card| card.contains("Paid ranking")), "every row says it is paid: {cards:?}");
    for other in ["community-weekly", "community-all-time", "domain-rating", "revenue"] {
        let (_, _, html) = fetch(&app, &format!("/leaderboards/{other}")).await;
        assert!(!html.contains("Paid ranking"), "{other} shows no paid place");
    }
    let (_, _, index) = fetch(&app, "/leaderboards").await;
    assert!(index.contains("Billboard</a> <span class=\"paid\">Paid ranking</span>"));
}

#[tokio::test]
async fn the_home_page_ranks_this_weeks_launches_as_list_launches_does() {
    let app = spawn_app().await;
    let feed = app.get("/api/v1/launches?section=this-week&per_page=10").await.body;
    let (_, _, html) = fetch(&app, "/").await;
    let document = scraper::Html::parse_document(&html);
    let first_section = scraper::Selector::parse("section ol.cards").unwrap();
    let card = scraper::Selector::parse("li.card").unwrap();
    let shown: Vec<String> =
        document.select(&first_section).next().unwrap().select(&card).map(|li| li.text().collect::<Vec<_>>().join(" ")).collect();
    let items = feed["items"].as_array().unwrap();
    assert_eq!(shown.len(), items.len());
    for (card, item) in shown.iter().zip(items) {
        assert!(card.contains(item["listing"]["name"].as_str().unwrap()), "{card}");
        assert!(card.contains(&format!("Rank {}", item["rank"])) || card.contains(&item["rank"].to_string()), "{card}");
        assert!(card.contains(&item["listing"]["votes"].to_string()), "{card}");
    }
}

#[tokio::test]
async fn paged_lists_link_their_neighbours_and_bad_input_is_a_400_page_naming_the_field() {
    let app = spawn_app().await;
    let (_, _, first) = fetch(&app, "/launches?section=recent&per_page=5").await;
    assert!(
        first.contains("<link rel=\"next\" href=\"https://launch.example/launches?section=recent&#38;per_page=5&#38;page=2\">"),
        "{first}"
    );
    assert!(!first.contains("rel=\"prev\""));
    let (_, _, second) = fetch(&app, "/launches?section=recent&per_page=5&page=2").await;
    assert!(second.contains("<link rel=\"prev\" href=\"https://launch.example/launches?section=recent&#38;per_page=5\">"));
    let (status, _, html) = fetch(&app, "/search?q=notes&category=no-such-category").await;
    assert_eq!(status, 400);
    let document = scraper::Html::parse_document(&html);
    let error = scraper::Selector::parse("#category-error").unwrap();
    assert!(document.select(&error).next().is_some(), "the error sits beside the category field");
    let invalid = scraper::Selector::parse("select#category[aria-invalid=true]").unwrap();
    assert!(document.select(&invalid).next().is_some());
    let (status, _, html) = fetch(&app, "/launches?section=sideways").await;
    assert_eq!(status, 400);
    assert!(html.contains("<strong>section</strong>"));
    let (status, _, _) = fetch(&app, "/categories/no-such-category").await;
    assert_eq!(status, 404);
}

#[tokio::test]
async fn unknown_addresses_get_a_page_for_people_and_problem_json_for_api_clients() {
    let app = spawn_app().await;
    let (status, content_type, html) = fetch(&app, "/no/such/page").await;
    assert_eq!((status, content_type.as_str()), (404, "text/html; charset=utf-8"));
    assert!(html.contains("Page not found"));
    let reply = app.client.get(app.url("/no/such/page")).header("Accept", "application/json").send().await.unwrap();
    assert_eq!(reply.status(), 404);
    assert_eq!(reply.headers()["content-type"], "application/problem+json");
    let reply = app.client.get(app.url("/api/v1/nothing")).header("Accept", "text/html").send().await.unwrap();
    assert_eq!(reply.headers()["content-type"], "application/problem+json", "the API answers problem+json to a browser too");
}

#[tokio::test]
async fn pages_are_compressed_and_revalidated_with_an_etag() {
    let app = spawn_app().await;
    let reply = app.client.get(app.url("/categories")).header("Accept-Encoding", "gzip").send().await.unwrap();
    assert_eq!(reply.headers()["content-encoding"], "gzip");
    let etag = reply.headers()["etag"].to_str().unwrap().to_owned();
    let again = app.client.get(app.url("/categories")).header("If-None-Match", &etag).send().await.unwrap();
    assert_eq!(again.status(), 304);
    assert!(again.bytes().await.unwrap().is_empty());
}

#[tokio::test]
async fn robots_names_the_sitemap_and_the_sitemaps_list_every_public_page() {
    let app = spawn_app().await;
    let robots = app.client.get(app.url("/robots.txt")).send().await.unwrap().text().await.unwrap();
    assert!(robots.contains("Sitemap: https://launch.example/sitemap.xml"));
    let index = app.client.get(app.url("/sitemap.xml")).send().await.unwrap().text().await.unwrap();
    let files: Vec<String> = index.split("<loc>").skip(1).map(|rest| rest.split("</loc>").next().unwrap().to_owned()).collect();
    assert_eq!(
        files,
        [
            "https://launch.example/sitemaps/pages.xml",
            "https://launch.example/sitemaps/listings-1.xml",
            "https://launch.example/sitemaps/founders-1.xml"
        ]
    );
    let mut addresses = Vec::new();
    for file in &files {
        let body = app.client.get(app.url(&local("https://launch.example", file).unwrap())).send().await.unwrap().text().await.unwrap();
        assert!(body.starts_with("<?xml") && body.contains("<urlset"));
        addresses.extend(body.split("<loc>").skip(1).map(|rest| rest.split("</loc>").next().unwrap().replace("&amp;", "&")));
    }
    let live = app.get("/api/v1/site").await.body["counts"]["live_listings"].as_u64().unwrap();
    assert_eq!(addresses.iter().filter(|a| a.contains("/listings/")).count() as u64, live, "every live listing once");
    let categories = app.get("/api/v1/categories").await.body;
    for category in categories["items"].as_array().unwrap() {
        assert!(addresses.contains(&format!("https://launch.example/categories/{}", category["slug"].as_str().unwrap())));
    }
    let founders = app.get("/api/v1/founders?per_page=100").await.body;
    assert_eq!(addresses.iter().filter(|a| a.contains("/founders/")).count() as u64, founders["total"].as_u64().unwrap());
    let posts = app.get("/api/v1/blog?per_page=100").await.body;
    for post in posts["items"].as_array().unwrap() {
        assert!(addresses.contains(&post["url"].as_str().unwrap().to_owned()));
    }
    assert!(addresses.iter().any(|a| a.contains("/launches/weeks/")), "weeks are listed");
    // Every address is a page.
    for address in addresses.iter().filter(|a| a.contains("/weeks/") || a.contains("/leaderboards/")) {
        let (status, _, _) = fetch(&app, &local("https://launch.example", address).unwrap()).await;
        assert_eq!(status, 200, "{address}");
    }
    let (status, _, _) = fetch(&app, "/sitemaps/listings-2.xml").await;
    assert_eq!(status, 404, "no file past the last");
}

/// Text stored before input refused U+FFFE and U+FFFF cannot make the feed ill-formed: every
/// character XML 1.0 forbids is left out of it.
#[tokio::test]
async fn the_launch_feed_leaves_out_characters_xml_forbids() {
    let app = crate::helpers::spawn_empty_app().await;
    let db = app.services.store.connection();
    let now = time::OffsetDateTime::now_utc();
    let id = store_seaorm::testing::fixtures::listing(db, "odd-text", "live", kernel::Week::at(now, time::UtcOffset::UTC), now).await;
    store_seaorm::testing::fixtures::edit_tagline(db, id, "Fast\u{FFFE} and\u{FFFF} sure\u{1}").await;
    let feed = app.client.get(app.url("/launches/feed.atom")).send().await.unwrap().text().await.unwrap();
    assert!(feed.contains("<summary>Fast and sure</summary>"), "{feed}");
    assert!(!feed.chars().any(|c| !kernel::markup::xml_allows(c)), "{feed:?}");
}

#[tokio::test]
async fn atom_feeds_carry_the_latest_launches_and_posts() {
    let app = spawn_app().await;
    let recent = app.get("/api/v1/launches?section=recent&per_page=1").await.body;
    let reply = app.client.get(app.url("/launches/feed.atom")).send().await.unwrap();
    assert_eq!(reply.headers()["content-type"], "application/atom+xml; charset=utf-8");
    let feed = reply.text().await.unwrap();
    assert!(feed.contains("<feed xmlns=\"http://www.w3.org/2005/Atom\">"));
    let newest = recent["items"][0]["listing"]["slug"].as_str().unwrap();
    assert!(feed.contains(&format!("<id>https://launch.example/listings/{newest}</id>")));
    let blog = app.client.get(app.url("/blog/feed.atom")).send().await.unwrap().text().await.unwrap();
    let post = app.get("/api/v1/blog?per_page=1").await.body;
    assert!(blog.contains(&format!("<id>{}</id>", post["items"][0]["url"].as_str().unwrap())));
}
