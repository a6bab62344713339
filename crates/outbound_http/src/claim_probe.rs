//! `ClaimSiteProbe`: the `claims::SiteProbe` adapter. The owner asked for the check, so
//! robots.txt does not apply; every request still goes through the safe fetcher's address rules.
//! The meta tag is read from the parsed document's `head` (text inside comments and scripts is
//! never an element, so it never counts); the homepage may redirect within its registrable domain
//! (`acme.com` to `www.acme.com`). The file is read at its exact address, at most 4 KiB, with
//! redirects only within the same host.

use crate::fetcher::{FetchError, Hop, MAX_REDIRECTS, SafeFetcher};
use crate::reader::MAX_PAGE_BYTES;
use async_trait::async_trait;
use claims::Probe;
use kernel::WebUrl;
use scraper::{Html, Selector};

/// The most of the well-known file that is read.
pub const MAX_FILE_BYTES: usize = 4 * 1024;

pub struct ClaimSiteProbe {
    fetcher: SafeFetcher,
}

impl ClaimSiteProbe {
    pub fn new(fetcher: SafeFetcher) -> Self {
        Self { fetcher }
    }

    /// Follows redirects while `allowed(from, to)` holds; the answer's body as text, or what was
    /// found instead.
    async fn fetch(&self, url: &WebUrl, max_bytes: usize, allowed: fn(&WebUrl, &WebUrl) -> bool) -> Probe<(WebUrl, String, bool)> {
        let deadline = self.fetcher.deadline();
        let mut current = url.clone();
        for _ in 0..=MAX_REDIRECTS {
            match self.fetcher.get_hop(&current, max_bytes, deadline).await {
                Ok(Hop::Redirect(next)) if allowed(url, &next) => current = next,
                Ok(Hop::Redirect(next)) => return Probe::Missing(format!("a redirect to another host ({})", next.host())),
                Ok(Hop::Arrived(fetched)) if fetched.status.is_success() => {
                    let html = fetched.is_html();
                    return Probe::Found((fetched.url.clone(), fetched.text(), html));
                }
                Ok(Hop::Arrived(fetched)) => return Probe::Missing(format!("an answer with status {}", fetched.status.as_u16())),
                Err(FetchError::TooLarge(limit)) => return Probe::Missing(format!("a body larger than {limit} bytes")),
                // The raw error may name what a host resolves to: the log has it, the claimant a
                // sentence of ours.
                Err(err) => {
                    tracing::info!(url = %current, error = %err, "a claim check could not reach a site");
                    return Probe::Failed(match err {
                        FetchError::Blocked(_) => "the address is on a network this directory never connects to".into(),
                        FetchError::Timeout => "the site took too long to answer".into(),
                        FetchError::TooManyRedirects => format!("more than {MAX_REDIRECTS} redirects"),
                        _ => "the site did not answer".into(),
                    });
                }
            }
        }
        Probe::Missing(format!("more than {MAX_REDIRECTS} redirects"))
    }
}

fn same_host(from: &WebUrl, to: &WebUrl) -> bool {
    from.host() == to.host()
}

/// The same host, or two hosts of one registrable domain (`acme.com` and `www.acme.com`).
fn same_site(from: &WebUrl, to: &WebUrl) -> bool {
    same_host(from, to) || from.registrable_domain().is_some_and(|domain| to.registrable_domain().as_deref() == Some(&domain))
}

/// The `content` of every `<meta name="{name}">` inside the document's `head`.
pub fn head_meta_contents(html: &str, name: &str) -> Vec<String> {
    let document = Html::parse_document(html);
    let Ok(metas) = Selector::parse("head meta[name]") else { return Vec::new() };
    document
        .select(&metas)
        .filter(|meta| meta.value().attr("name").is_some_and(|found| found.trim().eq_ignore_ascii_case(name)))
        .map(|meta| meta.value().attr("content").unwrap_or_default().to_owned())
        .collect()
}

#[async_trait]
impl claims::SiteProbe for ClaimSiteProbe {
    async fn meta_contents(&self, homepage: &WebUrl, name: &str) -> Probe<Vec<String>> {
        match self.fetch(homepage, MAX_PAGE_BYTES, same_site).await {
            Probe::Found((_, _, false)) => Probe::Missing("a page that is not HTML".into()),
            Probe::Found((_, text, true)) => Probe::Found(head_meta_contents(&text, name)),
            Probe::Missing(found) => Probe::Missing(found),
            Probe::Failed(why) => Probe::Failed(why),
        }
    }

    async fn file_body(&self, url: &WebUrl) -> Probe<String> {
        match self.fetch(url, MAX_FILE_BYTES, same_host).await {
            Probe::Found((_, text, _)) => Probe::Found(text),
            Probe::Missing(found) => Probe::Missing(found),
            Probe::Failed(why) => Probe::Failed(why),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_meta_tags_in_the_head_count_never_comments_scripts_or_the_body() {
        let html = r#"<!doctype html><html><head>
            <!-- <meta name="launchdir-verification" content="in-a-comment"> -->
            <script>document.write('<meta name="launchdir-verification" content="in-a-script">')</script>
            <meta name="Launchdir-Verification" content="right">
            <meta name="other" content="x">
            </head><body><meta name="launchdir-verification" content="in-the-body"></body></html>"#;
        assert_eq!(head_meta_contents(html, "launchdir-verification"), vec!["right".to_owned()]);
    }

    #[test]
    fn redirects_stay_on_the_host_or_its_registrable_domain() {
        let at = |address: &str| WebUrl::parse(address).unwrap();
        assert!(same_site(&at("https://acme.com/"), &at("https://www.acme.com/")));
        assert!(!same_site(&at("https://acme.com/"), &at("https://acme.net/")));
        assert!(!same_host(&at("https://acme.com/x"), &at("https://www.acme.com/x")));
        assert!(same_host(&at("http://127.0.0.1:9/x"), &at("http://127.0.0.1:9/y")));
    }
}
