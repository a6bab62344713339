//! `list_blog_posts` and `get_blog_post`.

use crate::helpers::spawn_app;

fn slugs(body: &serde_json::Value) -> Vec<String> {
    body["items"].as_array().unwrap().iter().map(|p| p["slug"].as_str().unwrap().to_owned()).collect()
}

#[tokio::test]
async fn published_posts_newest_first() {
    let app = spawn_app().await;
    let reply = app.get("/api/v1/blog").await;
    assert_eq!(reply.status, 200);
    assert_eq!(reply.body["total"], 10, "scheduled and draft posts are not listed");
    let items = reply.body["items"].as_array().unwrap();
    let dates: Vec<&str> = items.iter().map(|p| p["published_at"].as_str().unwrap()).collect();
    assert!(dates.windows(2).all(|w| w[0] >= w[1]), "newest first: {dates:?}");
    assert_eq!(items[0]["slug"], "how-launch-weeks-work");
    assert_eq!(items[0]["url"], "https://launch.example/blog/how-launch-weeks-work");
    assert!(items[0]["summary"].is_string() && items[0]["tags"].is_array() && items[0]["author_name"].is_string());
    assert!(!slugs(&reply.body).contains(&"coming-soon-badge-redesign".to_owned()));
    assert!(!slugs(&reply.body).contains(&"draft-notes-on-moderation".to_owned()));

    let second = app.get("/api/v1/blog?page=2&per_page=4").await;
    assert_eq!(slugs(&second.body), slugs(&reply.body)[4..8]);
}

#[tokio::test]
async fn q_matches_every_word_case_insensitively_title_first() {
    let app = spawn_app().await;
    let reply = app.get("/api/v1/blog?q=LEADERBOARDS").await;
    assert_eq!(slugs(&reply.body), ["understanding-the-leaderboards"]);

    let reply = app.get("/api/v1/blog?q=launch").await;
    let found = slugs(&reply.body);
    assert!(found.len() >= 3, "{found:?}");
    let title_hits = ["how-launch-weeks-work", "preparing-your-homepage-for-launch-day", "a-year-of-launches"];
    for (position, slug) in found.iter().enumerate() {
        if !title_hits.contains(&slug.as_str()) {
            assert!(found[position..].iter().all(|s| !title_hits.contains(&s.as_str())), "title matches come first: {found:?}");
        }
    }

    let both = app.get("/api/v1/blog?q=badge%20homepage").await;
    assert!(slugs(&both.body).contains(&"how-launch-weeks-work".to_owned()), "{:#}", both.body);
    assert_eq!(both.body["total"].as_u64().unwrap(), slugs(&both.body).len() as u64);
    for item in both.body["items"].as_array().unwrap() {
        let post = app.get(&format!("/api/v1/blog/{}", item["slug"].as_str().unwrap())).await;
        let text = format!("{} {} {}", post.body["title"], post.body["summary"], post.body["body_markdown"]).to_lowercase();
        assert!(text.contains("badge") && text.contains("homepage"), "every word must appear");
    }

    assert_eq!(app.get("/api/v1/blog?q=zebra-unicorn").await.body["total"], 0);
    assert_eq!(app.get("/api/v1/blog?q=%25").await.body["total"], 0, "% is a literal, not a wildcard");
    assert_eq!(app.get("/api/v1/blog?q=_").await.body["total"], 0, "_ is a literal, not a wildcard");
    assert_eq!(app.get("/api/v1/blog?q=").await.body["total"], 10, "an empty q browses");
}

#[tokio::test]
async fn list_blog_posts_validation() {
    let app = spawn_app().await;
    app.get(&format!("/api/v1/blog?q={}", "a".repeat(201))).await.assert_invalid(&["q"]);
    assert_eq!(app.get(&format!("/api/v1/blog?q={}", "a".repeat(200))).await.status, 200);
    app.get("/api/v1/blog?page=0").await.assert_invalid(&["page"]);
    app.get("/api/v1/blog?per_page=500").await.assert_invalid(&["per_page"]);
    app.get("/api/v1/blog?tag=x").await.assert_invalid(&["tag"]);
}

#[tokio::test]
async fn a_post_with_markdown_and_faqs() {
    let app = spawn_app().await;
    let reply = app.get("/api/v1/blog/why-we-quote-your-website").await;
    assert_eq!(reply.status, 200);
    assert_eq!(reply.body["title"], "Why every draft quotes your website");
    assert!(reply.body["body_markdown"].as_str().unwrap().starts_with("# Why every draft"));
    let faqs = reply.body["faqs"].as_array().unwrap();
    assert_eq!(faqs.len(), 2);
    assert!(faqs[0]["question"].is_string() && faqs[0]["answer"].is_string());
    assert!(reply.body["updated_at"].as_str().unwrap().ends_with('Z'));
}

#[tokio::test]
async fn unpublished_and_unknown_posts_are_404() {
    let app = spawn_app().await;
    for slug in ["coming-soon-badge-redesign", "draft-notes-on-moderation", "no-such-post"] {
        app.get(&format!("/api/v1/blog/{slug}")).await.assert_problem(404, "not_found");
    }
    app.get("/api/v1/blog/Not_A_Slug").await.assert_invalid(&["slug"]);
}
