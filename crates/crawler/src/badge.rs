//! `HomepageBadgeProbe`: the `listings::BadgeProbe` adapter. Reads a homepage through the safe
//! fetcher (robots.txt first) and looks for our badge in the parsed document: an `<a>` linking
//! to the listing's page, or an `<img>`/`<source>` whose address is under our badge endpoint.
//! Parsing the document (rather than searching the text) is what leaves out matches inside
//! comments and scripts: neither produces elements.

use crate::fetcher::{FetchError, SafeFetcher};
use crate::reader::MAX_PAGE_BYTES;
use crate::robots::RobotsCache;
use async_trait::async_trait;
use listings::BadgeSighting;
use reqwest::Url;
use scraper::{Html, Selector};
use std::sync::Arc;

pub struct HomepageBadgeProbe {
    fetcher: SafeFetcher,
    robots: Arc<RobotsCache>,
}

impl HomepageBadgeProbe {
    /// Shares the robots.txt cache with the site reader.
    pub fn new(fetcher: SafeFetcher, robots: Arc<RobotsCache>) -> Self {
        Self { fetcher, robots }
    }

    async fn read(&self, homepage: &str) -> Result<(Url, String), BadgeSighting> {
        let failed = |reason: &'static str, detail: String| BadgeSighting::Failed { reason, detail };
        let start = Url::parse(homepage).map_err(|_| failed("unreachable", format!("{homepage} is not an address")))?;
        let fetch_failure = |err: FetchError| match err {
            FetchError::Blocked(what) => failed("blocked_address", what),
            FetchError::TooLarge(_) => failed("too_large", err.to_string()),
            other => failed("unreachable", other.to_string()),
        };
        if !self.robots.allowed(&start).await.map_err(fetch_failure)? {
            return Err(failed(
                "robots_disallowed",
                format!("robots.txt of {} does not let LaunchdirBot read the homepage", start.origin().ascii_serialization()),
            ));
        }
        let fetched = self.fetcher.get(start.as_str(), MAX_PAGE_BYTES).await.map_err(fetch_failure)?;
        if !fetched.status.is_success() {
            return Err(failed("unreachable", format!("the homepage answered {}", fetched.status)));
        }
        if !fetched.is_html() {
            return Err(failed(
                "not_html",
                format!("the homepage is {}", if fetched.media_type.is_empty() { "of no content type" } else { &fetched.media_type }),
            ));
        }
        if fetched.url.origin() != start.origin() && !self.robots.allowed(&fetched.url).await.map_err(fetch_failure)? {
            return Err(failed(
                "robots_disallowed",
                format!(
                    "robots.txt of {} does not let LaunchdirBot read the page the homepage redirects to",
                    fetched.url.origin().ascii_serialization()
                ),
            ));
        }
        Ok((fetched.url.clone(), fetched.text()))
    }
}

#[async_trait]
impl listings::BadgeProbe for HomepageBadgeProbe {
    async fn look(&self, homepage: &str, listing_page: &str, badge_images: &str) -> BadgeSighting {
        match self.read(homepage).await {
            Ok((url, html)) => find_badge(&url, &html, listing_page, badge_images),
            Err(failure) => failure,
        }
    }
}

/// The address without scheme, query, fragment and trailing slash, in lower case: `http` and
/// `https`, `/listings/acme` and `/listings/acme/?ref=badge` are the same page.
fn page_key(url: &Url) -> String {
    format!("{}{}", url.host_str().unwrap_or_default().trim_start_matches("www."), url.path().trim_end_matches('/')).to_lowercase()
}

/// Looks for the badge in a homepage's document. Elements only: text inside comments, scripts
/// and styles is never an element, so it never counts.
pub fn find_badge(page: &Url, html: &str, listing_page: &str, badge_images: &str) -> BadgeSighting {
    let (Ok(listing_page), Ok(badge_images)) = (Url::parse(listing_page), Url::parse(badge_images)) else {
        return BadgeSighting::NotFound;
    };
    let wanted_page = page_key(&listing_page);
    let images_prefix = format!("{}/", page_key(&badge_images));
    let document = Html::parse_document(html);
    let (Ok(links), Ok(images)) = (Selector::parse("a[href]"), Selector::parse("img[src], img[srcset], source[srcset]")) else {
        return BadgeSighting::NotFound;
    };
    for link in document.select(&links) {
        if let Some(href) = link.value().attr("href")
            && let Ok(target) = page.join(href.trim())
            && page_key(&target) == wanted_page
        {
            return BadgeSighting::Found(format!("a link to {listing_page}"));
        }
    }
    for image in document.select(&images) {
        let element = image.value();
        let mut addresses: Vec<&str> = element.attr("src").into_iter().collect();
        // `srcset` lists addresses, each followed by an optional size.
        for candidate in element.attr("srcset").unwrap_or_default().split(',') {
            if let Some(address) = candidate.split_whitespace().next() {
                addresses.push(address);
            }
        }
        for address in addresses {
            if let Ok(source) = page.join(address.trim())
                && page_key(&source).starts_with(&images_prefix)
            {
                return BadgeSighting::Found(format!("an image from {badge_images}"));
            }
        }
    }
    BadgeSighting::NotFound
}

#[cfg(test)]
mod tests {
    use super::*;

    const PAGE: &str = "https://launch.example/listings/acme";
    const IMAGES: &str = "https://launch.example/badges/acme/";

    fn look(html: &str) -> BadgeSighting {
        find_badge(&Url::parse("https://acme.example/").unwrap(), html, PAGE, IMAGES)
    }

    #[test]
    fn a_link_to_the_listing_page_or_a_badge_image_counts() {
        assert!(matches!(look(r#"<a href="https://launch.example/listings/acme">Listed</a>"#), BadgeSighting::Found(_)));
        assert!(matches!(look(r#"<a href="http://www.launch.example/listings/acme/?ref=badge#x">Listed</a>"#), BadgeSighting::Found(_)));
        assert!(matches!(
            look(r#"<p><img src="https://launch.example/badges/acme/listed.svg?shape=pill" alt="Listed"></p>"#),
            BadgeSighting::Found(_)
        ));
        assert!(matches!(
            look(r#"<picture><source srcset="https://launch.example/badges/acme/listed.svg?mode=dark 1x"><img src="/x.png"></picture>"#),
            BadgeSighting::Found(_)
        ));
    }

    #[test]
    fn comments_scripts_and_other_listings_do_not_count() {
        assert_eq!(look(r#"<!-- <a href="https://launch.example/listings/acme">Listed</a> -->"#), BadgeSighting::NotFound);
        assert_eq!(
            look(r#"<script>document.write('<a href="https://launch.example/listings/acme">Listed</a>')</script>"#),
            BadgeSighting::NotFound
        );
        assert_eq!(look(r#"<style>/* https://launch.example/badges/acme/listed.svg */</style>"#), BadgeSighting::NotFound);
        assert_eq!(look("<p>https://launch.example/listings/acme</p>"), BadgeSighting::NotFound, "text is not a link");
        assert_eq!(look(r#"<a href="https://launch.example/listings/acme-rival">Rival</a>"#), BadgeSighting::NotFound);
        assert_eq!(look(r#"<img src="https://launch.example/badges/acme-rival/listed.svg">"#), BadgeSighting::NotFound);
        assert_eq!(look(r#"<a href="https://elsewhere.example/listings/acme">Elsewhere</a>"#), BadgeSighting::NotFound);
    }
}
