//! `CrawlingSiteReader`: the `drafts::SiteReader` adapter. Reads the homepage, then up to nine
//! same-origin pages chosen for what they tell (pricing, about, features, FAQ, team, contact,
//! changelog), robots.txt first for each, all within the crawl deadline.

use crate::extract::extract;
use crate::fetcher::{FetchError, SafeFetcher};
use crate::robots::RobotsCache;
use async_trait::async_trait;
use drafts::site::{Page, ReadFailure, SiteSnapshot};
use futures_util::StreamExt;
use reqwest::Url;
use std::sync::Arc;
use std::time::Duration;

/// The largest page read.
pub const MAX_PAGE_BYTES: usize = 2 * 1024 * 1024;
/// The time one draft's reading may take.
pub const CRAWL_DEADLINE: Duration = Duration::from_secs(30);

/// Topics worth a page, in the order they are picked, with words that name them in a path or a
/// link text (English first, then a few other languages).
const TOPICS: &[(&str, &[&str])] = &[
    ("pricing", &["pricing", "prices", "plans", "preise", "tarife", "tarifs", "precios", "prezzi"]),
    ("about", &["about", "company", "story", "ueber-uns", "uber-uns", "über-uns", "a-propos", "sobre", "chi-siamo"]),
    ("features", &["features", "product", "funktionen", "fonctionnalites", "caracteristicas"]),
    ("faq", &["faq", "faqs", "questions", "help", "hilfe"]),
    ("team", &["team", "people", "founders"]),
    ("contact", &["contact", "kontakt", "impressum", "imprint"]),
    ("changelog", &["changelog", "releases", "release-notes", "whats-new", "updates"]),
];

/// Files that are not pages.
const NOT_PAGES: &[&str] =
    &[".pdf", ".png", ".jpg", ".jpeg", ".gif", ".svg", ".webp", ".zip", ".dmg", ".exe", ".mp4", ".xml", ".json", ".css", ".js"];

pub struct CrawlingSiteReader {
    fetcher: SafeFetcher,
    robots: Arc<RobotsCache>,
    deadline: Duration,
}

impl CrawlingSiteReader {
    /// `agent` is the product token robots.txt groups are matched against (`LaunchdirBot`).
    pub fn new(fetcher: SafeFetcher, agent: &str) -> Self {
        let robots = Arc::new(RobotsCache::new(fetcher.clone(), agent));
        Self { fetcher, robots, deadline: CRAWL_DEADLINE }
    }

    pub fn robots(&self) -> Arc<RobotsCache> {
        self.robots.clone()
    }

    async fn fetch_page(&self, url: &Url) -> Result<Page, FetchError> {
        let fetched = self.fetcher.get(url.as_str(), MAX_PAGE_BYTES).await?;
        if !fetched.status.is_success() {
            return Err(FetchError::Unreachable(format!("{} answered {}", url, fetched.status)));
        }
        if !fetched.is_html() {
            return Err(FetchError::BadUrl(format!("not HTML: {}", fetched.media_type)));
        }
        Ok(extract(&fetched.url, &fetched.text()))
    }

    async fn read_site(&self, url: &str, max_pages: usize) -> Result<SiteSnapshot, ReadFailure> {
        let start = Url::parse(url).map_err(|_| ReadFailure::Unreachable(format!("{url} is not an address")))?;
        if !self.robots.allowed(&start).await.map_err(blocked)? {
            return Err(ReadFailure::RobotsDisallowed);
        }
        let fetched = self.fetcher.get(start.as_str(), MAX_PAGE_BYTES).await.map_err(|err| match err {
            FetchError::Blocked(what) => ReadFailure::BlockedAddress(what),
            FetchError::TooLarge(_) => ReadFailure::TooLarge,
            other => ReadFailure::Unreachable(other.to_string()),
        })?;
        if !fetched.status.is_success() {
            return Err(ReadFailure::Unreachable(format!("the homepage answered {}", fetched.status)));
        }
        if !fetched.is_html() {
            return Err(ReadFailure::NotHtml(if fetched.media_type.is_empty() {
                "no content type".into()
            } else {
                fetched.media_type.clone()
            }));
        }
        // A redirect may have led elsewhere: robots.txt of the final origin must allow it too.
        if fetched.url.origin() != start.origin() && !self.robots.allowed(&fetched.url).await.map_err(blocked)? {
            return Err(ReadFailure::RobotsDisallowed);
        }
        let home = extract(&fetched.url, &fetched.text());
        let mut snapshot = SiteSnapshot { home_url: fetched.url.to_string(), pages: Vec::new(), skipped: Vec::new() };
        let candidates = plan(&fetched.url, &home, max_pages.saturating_sub(1));
        snapshot.pages.push(home);
        let mut allowed = Vec::new();
        for candidate in candidates {
            if self.robots.allowed(&candidate).await.unwrap_or(false) {
                allowed.push(candidate);
            } else {
                snapshot.skipped.push(candidate.to_string());
            }
        }
        // Three at a time, in plan order.
        let fetches: Vec<_> = allowed.iter().map(|url| Box::pin(self.fetch_page(url))).collect();
        let mut pages = futures_util::stream::iter(fetches).buffered(3);
        while let Some(page) = pages.next().await {
            match page {
                Ok(page) if !snapshot.pages.iter().any(|p| p.url == page.url) => snapshot.pages.push(page),
                Ok(_) => {}
                Err(err) => tracing::debug!(error = %err, "a page of the site could not be read"),
            }
        }
        Ok(snapshot)
    }
}

fn blocked(error: FetchError) -> ReadFailure {
    ReadFailure::BlockedAddress(error.to_string())
}

#[async_trait]
impl drafts::SiteReader for CrawlingSiteReader {
    async fn read(&self, url: &str, max_pages: usize) -> Result<SiteSnapshot, ReadFailure> {
        match tokio::time::timeout(self.deadline, self.read_site(url, max_pages)).await {
            Ok(result) => result,
            Err(_) => Err(ReadFailure::Unreachable(format!("reading the site took longer than {} seconds", self.deadline.as_secs()))),
        }
    }
}

/// Picks up to `limit` same-origin pages from the homepage's links: one per topic in topic order,
/// then further pages of any topic.
pub fn plan(home: &Url, page: &Page, limit: usize) -> Vec<Url> {
    let mut scored: Vec<(usize, Url)> = Vec::new();
    for link in &page.links {
        let Ok(url) = Url::parse(&link.url) else { continue };
        if url.origin() != home.origin() || url.path() == home.path() && url.query() == home.query() {
            continue;
        }
        let path = url.path().to_ascii_lowercase();
        if NOT_PAGES.iter().any(|ext| path.ends_with(ext)) || scored.iter().any(|(_, seen)| seen == &url) {
            continue;
        }
        let text = link.text.to_lowercase();
        let segments: Vec<&str> = path.split('/').filter(|s| !s.is_empty()).collect();
        let topic = TOPICS.iter().position(|(_, words)| {
            words.iter().any(|word| {
                segments.iter().any(|segment| segment == word || segment.starts_with(&format!("{word}-")))
                    || text.split_whitespace().any(|w| w == *word)
            })
        });
        if let Some(topic) = topic {
            scored.push((topic, url));
        }
    }
    let mut chosen: Vec<Url> = Vec::new();
    for topic in 0..TOPICS.len() {
        if let Some((_, url)) = scored.iter().find(|(t, _)| *t == topic) {
            chosen.push(url.clone());
        }
    }
    for (_, url) in &scored {
        if !chosen.contains(url) {
            chosen.push(url.clone());
        }
    }
    chosen.truncate(limit);
    chosen
}

#[cfg(test)]
mod tests {
    use super::*;
    use drafts::site::Link;

    #[test]
    fn plan_picks_informative_same_origin_pages() {
        let home = Url::parse("https://acme.example/").unwrap();
        let link = |url: &str, text: &str| Link { url: url.into(), text: text.into() };
        let page = Page {
            links: vec![
                link("https://acme.example/blog/post-1", "A post"),
                link("https://acme.example/team", "Team"),
                link("https://acme.example/pricing", "Pricing"),
                link("https://other.example/pricing", "Their pricing"),
                link("https://acme.example/brochure.pdf", "Pricing PDF"),
                link("https://acme.example/", "Home"),
                link("https://acme.example/about-us", "Who we are"),
                link("https://acme.example/pricing", "Plans"),
            ],
            ..Page::default()
        };
        let chosen: Vec<String> = plan(&home, &page, 9).iter().map(|u| u.path().to_owned()).collect();
        assert_eq!(chosen, ["/pricing", "/about-us", "/team"]);
        assert_eq!(plan(&home, &page, 1).len(), 1);
    }
}
