//! `HomepageBadgeProbe`: the `listings::BadgeProbe` adapter. Reads a homepage through the safe
//! fetcher (robots.txt first) and looks for our badge in the parsed document: an `<a>` linking
//! to the listing's page, or an `<img>`/`<source>` whose address is under our badge endpoint.
//! Parsing the document (rather than searching the text) is what leaves out matches inside
//! comments and scripts: neither produces elements.

use crate::fetcher::SafeFetcher;
use crate::page::{PageFailure, fetch_html};
use crate::reader::MAX_PAGE_BYTES;
use crate::robots::RobotsCache;
use async_trait::async_trait;
use kernel::WebUrl;
use listings::BadgeSighting;
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
}

#[async_trait]
impl listings::BadgeProbe for HomepageBadgeProbe {
    async fn look(&self, homepage: &WebUrl, listing_page: &WebUrl, badge_images: &WebUrl) -> BadgeSighting {
        match fetch_html(&self.fetcher, &self.robots, homepage, MAX_PAGE_BYTES).await {
            Ok(fetched) => find_badge(&fetched.url, &fetched.text(), listing_page, badge_images),
            Err(failure) => {
                // The owner sees a reason code and a sentence of ours; the raw error (which may
                // name what a host resolves to) goes to the log only.
                tracing::info!(homepage = %homepage, error = %failure.describe(), "the badge check could not read a homepage");
                let (reason, detail) = explain(&failure);
                BadgeSighting::Failed { reason, detail: detail.into() }
            }
        }
    }
}

/// A failure as the owner is told it: a reason code and a sentence without addresses.
pub fn explain(failure: &PageFailure) -> (&'static str, &'static str) {
    match failure {
        PageFailure::RobotsDisallowed { .. } => (
            "robots_disallowed",
            "robots.txt of the site does not let LaunchdirBot read the homepage; allow it to, so the badge can be seen",
        ),
        PageFailure::Blocked(_) => {
            ("blocked_address", "the homepage, or an address it redirects to, is on a network this directory never connects to")
        }
        PageFailure::TooLarge(_) => ("too_large", "the homepage is larger than the 2 MiB the check reads"),
        PageFailure::Unreachable(_) => ("unreachable", "the homepage did not answer, answered with an error, or took too long"),
        PageFailure::NotHtml(_) => ("not_html", "the homepage is not an HTML page"),
    }
}

/// The address without scheme, query, fragment and trailing slash, in lower case: `http` and
/// `https`, `/listings/acme` and `/listings/acme/?ref=badge` are the same page.
fn page_key(url: &WebUrl) -> String {
    format!("{}{}", url.site_domain(), url.path().trim_end_matches('/')).to_lowercase()
}

/// Looks for the badge in a homepage's document. Elements only: text inside comments, scripts
/// and styles is never an element, so it never counts.
pub fn find_badge(page: &WebUrl, html: &str, listing_page: &WebUrl, badge_images: &WebUrl) -> BadgeSighting {
    let wanted_page = page_key(listing_page);
    let images_prefix = format!("{}/", page_key(badge_images));
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
        let at = |address: &str| WebUrl::parse(address).unwrap();
        find_badge(&at("https://acme.example/"), html, &at(PAGE), &at(IMAGES))
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
    fn failures_are_told_without_addresses() {
        let failures = [
            PageFailure::Blocked("internal.example resolves to 10.1.2.3 is a private network (10.0.0.0/8)".into()),
            PageFailure::Unreachable("error sending request for url (http://203.0.113.7/): connection refused".into()),
            PageFailure::RobotsDisallowed { origin: "http://10.1.2.3".into(), redirected: true },
            PageFailure::TooLarge("the body is larger than 2097152 bytes".into()),
            PageFailure::NotHtml("application/pdf".into()),
        ];
        for failure in failures {
            let (reason, detail) = explain(&failure);
            assert!(!reason.is_empty());
            assert!(!detail.contains("10.1.2.3") && !detail.contains("203.0.113.7") && !detail.contains("resolves"), "{detail}");
        }
        assert_eq!(explain(&PageFailure::Blocked(String::new())).0, "blocked_address");
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
