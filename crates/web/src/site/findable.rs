//! What search engines and feed readers read: `robots.txt`, the sitemap index and its files
//! (split at 50,000 addresses), and Atom feeds of launches and of the blog.

use super::browse::SECTIONS;
use super::{caller, respond, run, run_with};
use crate::{PageError, WebState};
use actix_web::http::StatusCode;
use actix_web::{HttpRequest, HttpResponse, web};
use kernel::markup::escape as xml;
use listings::{Board, CategoryNode, SitemapFile};
use ops::operations::blog::{BlogQuery, ListBlogPosts};
use ops::operations::categories::ListCategories;
use ops::operations::feeds::{FeedMetricView, ListLaunches};
use ops::{NoInput, OpError};
use std::fmt::Write;

pub async fn robots(state: web::Data<WebState>, request: HttpRequest) -> HttpResponse {
    let body = format!(
        "# Pages for people are open to every crawler; the API, the tool server, sign-in and checkout are not pages.\n\
         User-agent: *\nAllow: /\nDisallow: /api/\nDisallow: /mcp\nDisallow: /oauth/\nDisallow: /checkout/\nDisallow: /payments/\n\
         Disallow: /signin\nDisallow: /signup\nDisallow: /search\n\nSitemap: {}/sitemap.xml\n",
        state.site_url
    );
    respond(&request, StatusCode::OK, "text/plain; charset=utf-8", body)
}

pub async fn sitemap_index(state: web::Data<WebState>, request: HttpRequest) -> Result<HttpResponse, PageError> {
    let files = state.app.listings.sitemap.files().await.map_err(OpError::from)?;
    let mut body = String::from(r#"<?xml version="1.0" encoding="UTF-8"?>"#);
    body.push_str("\n<sitemapindex xmlns=\"http://www.sitemaps.org/schemas/sitemap/0.9\">\n");
    for file in files {
        let _ = writeln!(body, "<sitemap><loc>{}</loc></sitemap>", xml(&format!("{}/sitemaps/{}.xml", state.site_url, file.name())));
    }
    body.push_str("</sitemapindex>\n");
    Ok(respond(&request, StatusCode::OK, "application/xml; charset=utf-8", body))
}

/// One `<url>` of a sitemap.
fn url(body: &mut String, location: &str, modified: Option<&str>) {
    match modified {
        Some(at) => {
            let _ = writeln!(body, "<url><loc>{}</loc><lastmod>{}</lastmod></url>", xml(location), xml(at));
        }
        None => {
            let _ = writeln!(body, "<url><loc>{}</loc></url>", xml(location));
        }
    }
}

fn categories(nodes: &[CategoryNode], out: &mut Vec<String>) {
    for node in nodes {
        out.push(node.slug.to_string());
        categories(&node.subcategories, out);
    }
}

/// The fixed pages, every category, week and blog post.
async fn pages(state: &WebState, request: &HttpRequest, body: &mut String) -> Result<(), OpError> {
    let site = &state.site_url;
    let who = caller(request);
    for path in ["/", "/launches", "/categories", "/leaderboards", "/awards", "/founders", "/blog", "/submit", "/docs/api"] {
        url(body, &format!("{site}{path}"), None);
    }
    for (_, section, _) in SECTIONS {
        url(body, &format!("{site}/launches?section={section}"), None);
    }
    for board in Board::ALL {
        url(body, &format!("{site}/leaderboards/{}", board.as_str()), None);
    }
    let tree = run(ListCategories, state, &who, &[], &[]).await?;
    let mut slugs = Vec::new();
    categories(&tree.items, &mut slugs);
    for slug in slugs {
        url(body, &format!("{site}/categories/{slug}"), None);
    }
    for week in state.app.listings.sitemap.weeks().await? {
        url(body, &format!("{site}/launches/weeks/{week}"), None);
    }
    let mut page = 1u32;
    loop {
        let posts = run_with(ListBlogPosts, state, &who, NoInput {}, BlogQuery { q: None, page, per_page: 100 }, NoInput {}).await?;
        for post in &posts.items {
            url(body, &post.url, Some(&post.published_at));
        }
        if u64::from(page) * 100 >= posts.total || page >= kernel::PageRequest::MAX_PAGE {
            break;
        }
        page += 1;
    }
    Ok(())
}

pub async fn sitemap(state: web::Data<WebState>, request: HttpRequest, path: web::Path<String>) -> Result<HttpResponse, PageError> {
    let not_found = || PageError::not_found(format!("there is no sitemap {path}"));
    let Some(file) = path.strip_suffix(".xml").and_then(SitemapFile::parse) else { return Err(not_found()) };
    let mut body = String::from(r#"<?xml version="1.0" encoding="UTF-8"?>"#);
    body.push_str("\n<urlset xmlns=\"http://www.sitemaps.org/schemas/sitemap/0.9\">\n");
    let site = &state.site_url;
    match file {
        SitemapFile::Pages => {
            pages(&state, &request, &mut body).await?;
        }
        SitemapFile::Listings(number) => match state.app.listings.sitemap.listings(number).await {
            Ok(Some(listings)) => {
                for listing in listings {
                    let modified = listing.updated_at.format(&time::format_description::well_known::Rfc3339).ok();
                    url(&mut body, &format!("{site}/listings/{}", listing.slug), modified.as_deref());
                }
            }
            Ok(None) => return Err(not_found()),
            Err(error) => return Err(OpError::from(error).into()),
        },
        SitemapFile::Founders(number) => match state.app.listings.sitemap.founders(number).await {
            Ok(Some(founders)) => {
                for slug in founders {
                    url(&mut body, &format!("{site}/founders/{slug}"), None);
                }
            }
            Ok(None) => return Err(not_found()),
            Err(error) => return Err(OpError::from(error).into()),
        },
    }
    body.push_str("</urlset>\n");
    Ok(respond(&request, StatusCode::OK, "application/xml; charset=utf-8", body))
}

/// An Atom entry.
struct Entry {
    title: String,
    link: String,
    updated: String,
    summary: String,
    author: Option<String>,
}

fn atom(state: &WebState, request: &HttpRequest, title: &str, path: &str, page: &str, entries: Vec<Entry>) -> HttpResponse {
    let site = &state.site_url;
    // A feed without entries is as old as the oldest moment Atom can say; it changes when one arrives.
    let updated = entries.iter().map(|entry| entry.updated.as_str()).max().unwrap_or("1970-01-01T00:00:00Z").to_owned();
    let mut body = String::from(r#"<?xml version="1.0" encoding="UTF-8"?>"#);
    body.push_str("\n<feed xmlns=\"http://www.w3.org/2005/Atom\">\n");
    let _ = writeln!(body, "<title>{}</title>", xml(&format!("{}: {title}", state.app.site.name)));
    let _ = writeln!(body, "<id>{}</id>", xml(&format!("{site}{path}")));
    let _ = writeln!(body, "<link rel=\"self\" href=\"{}\"/>", xml(&format!("{site}{path}")));
    let _ = writeln!(body, "<link rel=\"alternate\" type=\"text/html\" href=\"{}\"/>", xml(&format!("{site}{page}")));
    let _ = writeln!(body, "<updated>{}</updated>", xml(&updated));
    let _ = writeln!(body, "<author><name>{}</name></author>", xml(&state.app.site.name));
    for entry in entries {
        body.push_str("<entry>");
        let _ = write!(body, "<title>{}</title><id>{}</id>", xml(&entry.title), xml(&entry.link));
        let _ = write!(body, "<link rel=\"alternate\" type=\"text/html\" href=\"{}\"/>", xml(&entry.link));
        let _ = write!(body, "<updated>{}</updated><summary>{}</summary>", xml(&entry.updated), xml(&entry.summary));
        if let Some(author) = entry.author {
            let _ = write!(body, "<author><name>{}</name></author>", xml(&author));
        }
        body.push_str("</entry>\n");
    }
    body.push_str("</feed>\n");
    respond(request, StatusCode::OK, "application/atom+xml; charset=utf-8", body)
}

/// The latest launches, newest first.
pub async fn launches_feed(state: web::Data<WebState>, request: HttpRequest) -> Result<HttpResponse, PageError> {
    let query = [("section", "recent".to_owned()), ("per_page", "50".to_owned())];
    let feed = run(ListLaunches, &state, &caller(&request), &[], &query).await?;
    let entries = feed
        .items
        .into_iter()
        .filter_map(|item| {
            let FeedMetricView::LaunchedAt { value } = item.metric else { return None };
            Some(Entry {
                link: format!("{}/listings/{}", state.site_url, item.listing.slug),
                summary: item.listing.tagline.clone().unwrap_or_default(),
                title: item.listing.name,
                updated: value,
                author: None,
            })
        })
        .collect();
    Ok(atom(&state, &request, "launches", "/launches/feed.atom", "/launches?section=recent", entries))
}

/// The latest blog posts.
pub async fn blog_feed(state: web::Data<WebState>, request: HttpRequest) -> Result<HttpResponse, PageError> {
    let latest = BlogQuery { q: None, page: 1, per_page: 20 };
    let posts = run_with(ListBlogPosts, &state, &caller(&request), NoInput {}, latest, NoInput {}).await?;
    let entries = posts
        .items
        .into_iter()
        .map(|post| Entry {
            title: post.title,
            link: post.url,
            updated: post.published_at,
            summary: post.summary,
            author: Some(post.author_name),
        })
        .collect();
    Ok(atom(&state, &request, "blog", "/blog/feed.atom", "/blog", entries))
}
