//! `get_badges` and the SVG badge images.

use crate::helpers::{TestApp, spawn_app, spawn_app_with};
use sea_orm::{ConnectionTrait, Statement};

async fn slug_with(app: &TestApp, sql: &str) -> String {
    let db = app.services.store.connection();
    let row = db.query_one_raw(Statement::from_string(db.get_database_backend(), sql)).await.unwrap().expect("a matching listing");
    row.try_get_by_index::<String>(0).unwrap()
}

#[tokio::test]
async fn a_live_listing_gets_listed_and_launched_badges_with_embed_code() {
    let app = spawn_app().await;
    let slug = slug_with(&app, "SELECT slug FROM listings WHERE status = 'live' ORDER BY id LIMIT 1").await;
    let reply = app.get(&format!("/api/v1/listings/{slug}/badges?shape=pill&mode=dark&size=l")).await;
    assert_eq!(reply.status, 200, "{:#}", reply.body);
    assert_eq!(reply.body["listing"]["slug"], slug.as_str());
    assert_eq!((&reply.body["shape"], &reply.body["mode"], &reply.body["size"]), (&"pill".into(), &"dark".into(), &"l".into()));
    let items = reply.body["items"].as_array().unwrap();
    let kinds: Vec<&str> = items.iter().map(|b| b["kind"].as_str().unwrap()).collect();
    assert_eq!(&kinds[..2], ["listed", "launched"]);
    let launched = &items[1];
    assert_eq!(launched["title"], "Launched on Launchdir");
    let image = launched["image_url"].as_str().unwrap();
    assert_eq!(image, format!("https://launch.example/badges/{slug}/launched.svg?shape=pill&mode=dark&size=l"));
    assert_eq!((launched["width"].as_u64(), launched["height"].as_u64()), (Some(275), Some(55)));
    let link = format!("https://launch.example/listings/{slug}");
    assert_eq!(launched["link"], link.as_str());
    let html = launched["embed_html"].as_str().unwrap();
    assert!(html.starts_with(&format!(r#"<a href="{link}""#)), "{html}");
    assert!(html.contains("shape=pill&amp;mode=dark&amp;size=l"), "ampersands are escaped in HTML: {html}");
    assert!(html.contains(r#"width="275" height="55""#));

    let defaults = app.get(&format!("/api/v1/listings/{slug}/badges")).await;
    assert_eq!(
        (&defaults.body["shape"], &defaults.body["mode"], &defaults.body["size"]),
        (&"standard".into(), &"auto".into(), &"m".into())
    );
}

#[tokio::test]
async fn award_winners_get_launch_of_the_week_badges() {
    let app = spawn_app().await;
    app.services.app.listings.awards.fix_finished_weeks().await.unwrap();
    let awards = app.get("/api/v1/awards?per_page=1").await;
    let winner = &awards.body["items"][0];
    let slug = winner["listing"]["slug"].as_str().unwrap();
    let rank = winner["rank"].as_u64().unwrap();
    let reply = app.get(&format!("/api/v1/listings/{slug}/badges")).await;
    let badge = reply.body["items"]
        .as_array()
        .unwrap()
        .iter()
        .find(|b| b["kind"] == format!("launch-of-the-week-{rank}"))
        .unwrap_or_else(|| panic!("no award badge in {:#}", reply.body));
    assert_eq!(badge["week"], winner["week"]);
    let svg = app.client.get(badge["image_url"].as_str().unwrap().replace("https://launch.example", &app.address)).send().await.unwrap();
    assert_eq!(svg.status(), 200);
    assert!(svg.text().await.unwrap().contains(&format!("#{rank} LAUNCH OF THE WEEK")));
}

#[tokio::test]
async fn a_listing_waiting_for_its_badge_gets_only_the_listed_badge() {
    let app = spawn_app().await;
    let slug = slug_with(&app, "SELECT slug FROM listings WHERE status = 'awaiting_badge' ORDER BY id LIMIT 1").await;
    let reply = app.get(&format!("/api/v1/listings/{slug}/badges")).await;
    assert_eq!(reply.status, 200);
    let kinds: Vec<&str> = reply.body["items"].as_array().unwrap().iter().map(|b| b["kind"].as_str().unwrap()).collect();
    assert_eq!(kinds, ["listed"]);
    let earned = app.client.get(app.url(&format!("/badges/{slug}/listed.svg"))).send().await.unwrap();
    assert_eq!(earned.status(), 200);
    let not_earned = app.client.get(app.url(&format!("/badges/{slug}/launched.svg"))).send().await.unwrap();
    assert_eq!(not_earned.status(), 404, "a badge not earned is never drawn");
    let not_won = app.client.get(app.url(&format!("/badges/{slug}/launch-of-the-week-1.svg"))).send().await.unwrap();
    assert_eq!(not_won.status(), 404);
}

#[tokio::test]
async fn badge_errors() {
    let app = spawn_app().await;
    let draft = slug_with(&app, "SELECT slug FROM listings WHERE status = 'draft' ORDER BY id LIMIT 1").await;
    app.get(&format!("/api/v1/listings/{draft}/badges")).await.assert_problem(404, "not_found");
    app.get("/api/v1/listings/no-such-listing/badges").await.assert_problem(404, "not_found");
    app.get("/api/v1/listings/Bad_Slug/badges").await.assert_invalid(&["slug"]);
    let live = slug_with(&app, "SELECT slug FROM listings WHERE status = 'live' ORDER BY id LIMIT 1").await;
    app.get(&format!("/api/v1/listings/{live}/badges?shape=circle")).await.assert_invalid(&["shape"]);
    app.get(&format!("/api/v1/listings/{live}/badges?mode=sepia")).await.assert_invalid(&["mode"]);
    app.get(&format!("/api/v1/listings/{live}/badges?size=xl")).await.assert_invalid(&["size"]);
    app.get(&format!("/api/v1/listings/{live}/badges?colour=red")).await.assert_invalid(&["colour"]);
}

#[tokio::test]
async fn badge_images_are_svg_with_etags() {
    let app = spawn_app().await;
    let slug = slug_with(&app, "SELECT slug FROM listings WHERE status = 'live' ORDER BY id LIMIT 1").await;
    let url = app.url(&format!("/badges/{slug}/launched.svg?shape=outline&mode=auto&size=s"));
    let first = app.client.get(&url).send().await.unwrap();
    assert_eq!(first.status(), 200);
    assert_eq!(first.headers()["content-type"], "image/svg+xml; charset=utf-8");
    assert_eq!(first.headers()["cache-control"], "public, max-age=3600");
    let etag = first.headers()["etag"].to_str().unwrap().to_owned();
    let svg = first.text().await.unwrap();
    assert!(svg.starts_with("<svg ") && svg.contains("prefers-color-scheme: dark") && svg.contains(r#"width="200""#));

    let again = app.client.get(&url).header("if-none-match", &etag).send().await.unwrap();
    assert_eq!(again.status(), 304);
    assert!(again.text().await.unwrap().is_empty());
    let other = app.client.get(app.url(&format!("/badges/{slug}/launched.svg?mode=dark"))).send().await.unwrap();
    assert_ne!(other.headers()["etag"].to_str().unwrap(), etag, "another style is another image");

    for (path, status) in [
        (format!("/badges/{slug}/launched.svg?shape=hexagon"), 400),
        (format!("/badges/{slug}/launched.svg?theme=x"), 400),
        (format!("/badges/{slug}/featured.svg"), 404),
        (format!("/badges/{slug}/launched.png"), 404),
        ("/badges/no-such-listing/listed.svg".to_owned(), 404),
    ] {
        assert_eq!(app.client.get(app.url(&path)).send().await.unwrap().status(), status, "{path}");
    }
}

#[tokio::test]
async fn text_in_badges_is_escaped() {
    let app = spawn_app_with(|settings| settings.site_name = "Launch & <Co> \"Ltd\"".into()).await;
    let slug = slug_with(&app, "SELECT slug FROM listings WHERE status = 'live' ORDER BY id LIMIT 1").await;
    let svg = app.client.get(app.url(&format!("/badges/{slug}/listed.svg"))).send().await.unwrap().text().await.unwrap();
    assert!(svg.contains("Launch &amp; &lt;Co&gt; &quot;Ltd&quot;"), "{svg}");
    assert!(!svg.contains("<Co>"));
    let reply = app.get(&format!("/api/v1/listings/{slug}/badges")).await;
    let html = reply.body["items"][0]["embed_html"].as_str().unwrap();
    assert!(html.contains("Launch &amp; &lt;Co&gt; &quot;Ltd&quot;") && !html.contains("<Co>"), "{html}");
}
