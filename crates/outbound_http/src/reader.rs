//! `CrawlingSiteReader`: the `drafts::SiteReader` adapter. Reads the homepage, then up to nine
//! same-origin pages chosen for what they tell (pricing, about, features, FAQ, team, contact,
//! changelog, a story, the blog), robots.txt first for each and for every redirect hop, all within the crawl
//! deadline. A page that ends on another origin is dropped.

use crate::extract::{extract, needs_javascript};
use crate::fetcher::SafeFetcher;
use crate::page::{PageFailure, fetch_allowed, fetch_html};
use crate::render::ChromiumRenderer;
use crate::robots::RobotsCache;
use async_trait::async_trait;
use drafts::site::{Page, ReadFailure, SiteSnapshot};
use futures_util::StreamExt;
use kernel::WebUrl;
use std::sync::Arc;
use std::time::Duration;

/// The largest page read.
pub const MAX_PAGE_BYTES: usize = 2 * 1024 * 1024;
/// The time one draft's reading may take.
pub const CRAWL_DEADLINE: Duration = Duration::from_secs(30);
/// Pages of one site rendered with JavaScript at most (each starts a browser).
pub const MAX_RENDERED_PAGES: usize = 3;

/// Topics worth a page, in the order they are picked, with words that name them in a path or a
/// link text (English first, then a few other languages).
const TOPICS: &[(&str, &[&str])] = &[
    (
        "pricing",
        &[
            "pricing",
            "price",
            "prices",
            "plans",
            "buy",
            "shop",
            "store",
            "membership",
            "purchase",
            "preise",
            "tarife",
            "tarifs",
            "precios",
            "prezzi",
        ],
    ),
    (
        "about",
        &["about", "company", "story", "our-story", "who-we-are", "ueber-uns", "uber-uns", "über-uns", "a-propos", "sobre", "chi-siamo"],
    ),
    ("features", &["features", "product", "funktionen", "fonctionnalites", "caracteristicas"]),
    ("faq", &["faq", "faqs", "questions", "help", "hilfe", "support"]),
    ("team", &["team", "people", "founders"]),
    ("contact", &["contact", "kontakt", "impressum", "imprint"]),
    ("changelog", &["changelog", "releases", "release-notes", "whats-new", "updates"]),
    // Makers tell why and when they started in a post ("Why we started Dapplewood").
    ("story", &["why", "started", "mission"]),
    // A small site's blog is often one post, where its maker tells who started it and when;
    // read last, after every page named for a topic.
    ("blog", &["blog", "journal", "news", "press"]),
];

/// Files that are not pages.
const NOT_PAGES: &[&str] =
    &[".pdf", ".png", ".jpg", ".jpeg", ".gif", ".svg", ".webp", ".zip", ".dmg", ".exe", ".mp4", ".xml", ".json", ".css", ".js"];

pub struct CrawlingSiteReader {
    fetcher: SafeFetcher,
    robots: Arc<RobotsCache>,
    deadline: Duration,
    /// Renders pages that show their content only with JavaScript; `None` reads them as served.
    renderer: Option<ChromiumRenderer>,
}

impl CrawlingSiteReader {
    /// `agent` is the product token robots.txt groups are matched against (`LaunchdirBot`).
    pub fn new(fetcher: SafeFetcher, agent: &str) -> Self {
        let robots = Arc::new(RobotsCache::new(fetcher.clone(), agent));
        Self { fetcher, robots, deadline: CRAWL_DEADLINE, renderer: None }
    }

    /// Renders pages that need JavaScript in `browser` (Chromium), fetching through this
    /// reader's fetcher and robots.txt. `Err` says why it cannot (`ChromiumRenderer::new`); the
    /// reader then reads such pages as served.
    pub fn use_browser(&mut self, browser: std::path::PathBuf) -> Result<(), String> {
        self.renderer = Some(ChromiumRenderer::new(browser, self.fetcher.clone(), self.robots.clone())?);
        Ok(())
    }

    /// The page at `url` as a browser shows it, or `None` (rendering off or failed: the page
    /// is then read as served and the draft says so).
    async fn rendered(&self, url: &WebUrl, crawl_deadline: tokio::time::Instant) -> Option<Page> {
        let renderer = self.renderer.as_ref()?;
        // What the crawl has left, less a moment to draft from what was read.
        let time = crawl_deadline.saturating_duration_since(tokio::time::Instant::now()).saturating_sub(Duration::from_secs(2));
        if time.is_zero() {
            return None;
        }
        match renderer.render_within(url, time).await {
            Ok(rendered) => {
                tracing::debug!(%url, requests = rendered.requests.len(), "rendered with JavaScript");
                Some(extract(url.url(), &rendered.html))
            }
            Err(failure) => {
                tracing::info!(%url, %failure, "a page that needs JavaScript could not be rendered");
                None
            }
        }
    }

    pub fn robots(&self) -> Arc<RobotsCache> {
        self.robots.clone()
    }

    async fn read_site(&self, start: &WebUrl, max_pages: usize) -> Result<SiteSnapshot, ReadFailure> {
        let crawl_deadline = tokio::time::Instant::now() + self.deadline;
        let fetched = fetch_html(&self.fetcher, &self.robots, start, MAX_PAGE_BYTES).await.map_err(|failure| match failure {
            PageFailure::RobotsDisallowed { .. } => ReadFailure::RobotsDisallowed,
            PageFailure::Blocked(what) => ReadFailure::BlockedAddress(what),
            PageFailure::TooLarge(_) => ReadFailure::TooLarge,
            PageFailure::Unreachable(why) => ReadFailure::Unreachable(why),
            PageFailure::NotHtml(media_type) => {
                ReadFailure::NotHtml(if media_type.is_empty() { "no content type".into() } else { media_type })
            }
        })?;
        let html = fetched.text();
        let mut home = extract(fetched.url.url(), &html);
        let home_origin = fetched.url.origin();
        let mut snapshot = SiteSnapshot { home_url: fetched.url.to_string(), ..SiteSnapshot::default() };
        // Renderings tried, whether they worked or not.
        let mut renderings = 0;
        if needs_javascript(&html, &home) {
            renderings += 1;
            match self.rendered(&fetched.url, crawl_deadline).await {
                Some(page) => {
                    home = page;
                    snapshot.rendered.push(fetched.url.to_string());
                }
                None => snapshot.needs_javascript.push(fetched.url.to_string()),
            }
        }
        let candidates = plan(&fetched.url, &home, max_pages.saturating_sub(1));
        snapshot.pages.push(home);
        // Three at a time, in plan order; a page robots.txt keeps us from is listed as skipped.
        let fetches: Vec<_> = candidates
            .into_iter()
            .map(|url| Box::pin(async move { (fetch_html(&self.fetcher, &self.robots, &url, MAX_PAGE_BYTES).await, url) }))
            .collect();
        let mut pages = futures_util::stream::iter(fetches).buffered(3);
        while let Some((page, url)) = pages.next().await {
            match page {
                // A page that redirected off the site is another site's page: not evidence.
                Ok(fetched) if fetched.url.origin() != home_origin => {
                    tracing::debug!(planned = %url, ended = %fetched.url, "a page of the site redirected off it; left out")
                }
                Ok(fetched) => {
                    let html = fetched.text();
                    let mut page = extract(fetched.url.url(), &html);
                    if needs_javascript(&html, &page) {
                        // One browser at a time, and only a few per site.
                        let rendered = if renderings < MAX_RENDERED_PAGES {
                            renderings += 1;
                            self.rendered(&fetched.url, crawl_deadline).await
                        } else {
                            None
                        };
                        match rendered {
                            Some(shown) => {
                                page = shown;
                                snapshot.rendered.push(fetched.url.to_string());
                            }
                            None => snapshot.needs_javascript.push(fetched.url.to_string()),
                        }
                    }
                    if !snapshot.pages.iter().any(|p| p.url == page.url) {
                        snapshot.pages.push(page);
                    }
                }
                Err(PageFailure::RobotsDisallowed { redirected: false, .. }) => snapshot.skipped.push(url.to_string()),
                Err(failure) => tracing::debug!(error = %failure.describe(), "a page of the site could not be read"),
            }
        }
        Ok(snapshot)
    }
}

#[async_trait]
impl drafts::SiteReader for CrawlingSiteReader {
    async fn read(&self, url: &WebUrl, max_pages: usize) -> Result<SiteSnapshot, ReadFailure> {
        // A new crawl asks an unreachable robots.txt again: the memory of one serves only the
        // pages of the crawl that met it, so a person who tries again a minute later is not
        // refused from a failure the site has since recovered from.
        self.robots.forget_unreachable(url);
        match tokio::time::timeout(self.deadline, self.read_site(url, max_pages)).await {
            Ok(result) => result,
            Err(_) => Err(ReadFailure::Unreachable(format!("reading the site took longer than {} seconds", self.deadline.as_secs()))),
        }
    }

    async fn picture(&self, url: &WebUrl, max_bytes: usize) -> Result<Vec<u8>, ReadFailure> {
        let fetched = match tokio::time::timeout(PICTURE_DEADLINE, fetch_allowed(&self.fetcher, &self.robots, url, max_bytes)).await {
            Ok(Ok(fetched)) => fetched,
            Ok(Err(PageFailure::RobotsDisallowed { .. })) => return Err(ReadFailure::RobotsDisallowed),
            Ok(Err(PageFailure::Blocked(what))) => return Err(ReadFailure::BlockedAddress(what)),
            Ok(Err(PageFailure::TooLarge(_))) => return Err(ReadFailure::TooLarge),
            Ok(Err(failure)) => return Err(ReadFailure::Unreachable(failure.describe())),
            Err(_) => return Err(ReadFailure::Unreachable(format!("{url} took longer than {} seconds", PICTURE_DEADLINE.as_secs()))),
        };
        if !fetched.media_type.starts_with("image/") {
            return Err(ReadFailure::NotHtml(format!("{url} is {}, not a picture", fetched.media_type)));
        }
        Ok(fetched.body)
    }
}

/// The time one picture of a site may take.
pub const PICTURE_DEADLINE: Duration = Duration::from_secs(15);

/// Picks up to `limit` same-origin pages from the homepage's links: one per topic in topic order,
/// then further pages of any topic.
pub fn plan(home: &WebUrl, page: &Page, limit: usize) -> Vec<WebUrl> {
    let mut scored: Vec<(usize, WebUrl)> = Vec::new();
    for link in &page.links {
        let Ok(url) = WebUrl::parse(&link.url) else { continue };
        if url.origin() != home.origin() || url.path() == home.path() && url.url().query() == home.url().query() {
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
    let mut chosen: Vec<WebUrl> = Vec::new();
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
        let home = WebUrl::parse("https://acme.example/").unwrap();
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
        assert_eq!(chosen, ["/pricing", "/about-us", "/team", "/blog/post-1"]);
        assert_eq!(plan(&home, &page, 1).len(), 1);
    }
}
