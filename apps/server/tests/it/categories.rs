//! `list_categories` and `get_category`.

use crate::helpers::spawn_app;
use serde_json::Value;

#[tokio::test]
async fn category_tree_with_live_counts() {
    let app = spawn_app().await;
    let reply = app.get("/api/v1/categories").await;
    assert_eq!(reply.status, 200);
    let items = reply.body["items"].as_array().unwrap();
    assert!(items.len() >= 8);
    let total: usize = items.iter().map(|c| 1 + c["subcategories"].as_array().unwrap().len()).sum();
    assert!(total >= 25);
    for top in items {
        assert!(top["name"].is_string() && top["description"].is_string() && top["slug"].is_string());
        let children = top["subcategories"].as_array().unwrap();
        let child_sum: u64 = children.iter().map(|c| c["live_listings"].as_u64().unwrap()).sum();
        let count = top["live_listings"].as_u64().unwrap();
        // A listing in two subcategories counts once for the parent.
        assert!(count <= child_sum || children.is_empty(), "{top:#}");
        for child in children {
            assert_eq!(child["subcategories"], serde_json::json!([]), "two levels only");
        }
    }
}

#[tokio::test]
async fn include_empty_false_hides_categories_without_live_listings() {
    let app = spawn_app().await;
    let all = app.get("/api/v1/categories?include_empty=true").await;
    let default = app.get("/api/v1/categories").await;
    assert_eq!(all.body, default.body, "include_empty defaults to true");
    let non_empty = app.get("/api/v1/categories?include_empty=false").await;
    assert_eq!(non_empty.status, 200);
    let count = |body: &Value| -> usize {
        body["items"].as_array().unwrap().iter().map(|c| 1 + c["subcategories"].as_array().unwrap().len()).sum()
    };
    let zero_in_all = |body: &Value| -> usize {
        body["items"]
            .as_array()
            .unwrap()
            .iter()
            .flat_map(|c| std::iter::once(c).chain(c["subcategories"].as_array().unwrap().iter()))
            .filter(|c| c["live_listings"] == 0)
            .count()
    };
    assert!(zero_in_all(&all.body) > 0, "the demo has at least one empty category");
    assert_eq!(zero_in_all(&non_empty.body), 0);
    assert!(count(&non_empty.body) < count(&all.body));
}

#[tokio::test]
async fn list_categories_validation() {
    let app = spawn_app().await;
    app.get("/api/v1/categories?include_empty=maybe").await.assert_invalid(&["include_empty"]);
    app.get("/api/v1/categories?include_empty=1").await.assert_invalid(&["include_empty"]);
    app.get("/api/v1/categories?include_empty=true&include_empty=false").await.assert_invalid(&["include_empty"]);
    app.get("/api/v1/categories?sort=name").await.assert_invalid(&["sort"]);
}

#[tokio::test]
async fn category_page_lists_live_listings_most_voted_first() {
    let app = spawn_app().await;
    let reply = app.get("/api/v1/categories/productivity").await;
    assert_eq!(reply.status, 200, "{:#}", reply.body);
    let body = &reply.body;
    assert_eq!(body["category"]["slug"], "productivity");
    assert!(body["category"]["description"].as_str().unwrap().len() > 10);
    assert!(!body["category"]["faqs"].as_array().unwrap().is_empty());
    assert_eq!(body["parent"], Value::Null);
    let subcategories = body["subcategories"].as_array().unwrap();
    assert!(subcategories.len() >= 2);
    assert_eq!((body["page"].as_u64(), body["per_page"].as_u64()), (Some(1), Some(20)));
    let total = body["total"].as_u64().unwrap();
    assert_eq!(total, body["category"]["live_listings"].as_u64().unwrap());
    let items = body["items"].as_array().unwrap();
    assert_eq!(items.len(), 20.min(total as usize));
    let votes: Vec<u64> = items.iter().map(|i| i["votes"].as_u64().unwrap()).collect();
    assert!(votes.windows(2).all(|w| w[0] >= w[1]), "most voted first: {votes:?}");
    let child_slugs: Vec<&str> = subcategories.iter().map(|c| c["slug"].as_str().unwrap()).collect();
    for item in items {
        assert_eq!(item["status"], "live");
        assert!(item["name"].is_string() && item["url"].as_str().unwrap().starts_with("https://"));
        let primary = item["primary_category"].as_str().unwrap();
        assert!(primary == "productivity" || child_slugs.contains(&primary), "listings of subcategories are included");
    }
}

#[tokio::test]
async fn category_page_of_a_subcategory_names_its_parent() {
    let app = spawn_app().await;
    let reply = app.get("/api/v1/categories/note-taking?per_page=100").await;
    assert_eq!(reply.status, 200);
    assert_eq!(reply.body["parent"]["slug"], "productivity");
    assert_eq!(reply.body["subcategories"], serde_json::json!([]));
    assert!(reply.body["items"].as_array().unwrap().len() as u64 == reply.body["total"].as_u64().unwrap());
}

#[tokio::test]
async fn category_pages_do_not_overlap() {
    let app = spawn_app().await;
    let first = app.get("/api/v1/categories/developer-tools?page=1&per_page=5").await;
    let second = app.get("/api/v1/categories/developer-tools?page=2&per_page=5").await;
    assert_eq!(second.body["page"], 2);
    assert_eq!(second.body["per_page"], 5);
    let slugs = |reply: &crate::helpers::Reply| -> Vec<String> {
        reply.body["items"].as_array().unwrap().iter().map(|i| i["slug"].as_str().unwrap().to_owned()).collect()
    };
    let (a, b) = (slugs(&first), slugs(&second));
    assert_eq!(a.len(), 5);
    assert!(a.iter().all(|slug| !b.contains(slug)));
    let far = app.get("/api/v1/categories/developer-tools?page=1000&per_page=100").await;
    assert_eq!(far.status, 200);
    assert_eq!(far.body["items"], serde_json::json!([]));
    assert_eq!(far.body["total"], first.body["total"]);
}

#[tokio::test]
async fn unknown_category_is_404() {
    let app = spawn_app().await;
    let reply = app.get("/api/v1/categories/no-such-category").await;
    reply.assert_problem(404, "not_found");
    assert!(reply.body["detail"].as_str().unwrap().contains("no-such-category"));
}

#[tokio::test]
async fn get_category_validation() {
    let app = spawn_app().await;
    app.get("/api/v1/categories/Productivity").await.assert_invalid(&["slug"]);
    app.get("/api/v1/categories/-bad").await.assert_invalid(&["slug"]);
    app.get(&format!("/api/v1/categories/{}", "a".repeat(221))).await.assert_invalid(&["slug"]);
    app.get("/api/v1/categories/productivity?page=0").await.assert_invalid(&["page"]);
    app.get("/api/v1/categories/productivity?page=1001").await.assert_invalid(&["page"]);
    app.get("/api/v1/categories/productivity?page=two").await.assert_invalid(&["page"]);
    app.get("/api/v1/categories/productivity?page=-1").await.assert_invalid(&["page"]);
    app.get("/api/v1/categories/productivity?per_page=0").await.assert_invalid(&["per_page"]);
    app.get("/api/v1/categories/productivity?per_page=101").await.assert_invalid(&["per_page"]);
    app.get("/api/v1/categories/productivity?page=0&per_page=101").await.assert_invalid(&["page", "per_page"]);
    app.get("/api/v1/categories/productivity?pagesize=10").await.assert_invalid(&["pagesize"]);
    app.get("/api/v1/categories/Bad?page=0").await.assert_invalid(&["slug", "page"]);
}
