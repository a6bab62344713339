//! robots.txt per RFC 9309: fetched through the safe fetcher, cached up to 24 hours per origin.
//! A 4xx answer allows everything. A 5xx answer or no answer at all means the file is
//! unreachable: nothing is read in that attempt (the caller fails as `unreachable`, not as
//! disallowed), and the answer is kept for minutes only, so a site's outage never locks it
//! out for the day; a new crawl forgets it at once and asks again. The
//! `robotstxt` crate is unmaintained and can panic on long lines with multi-byte characters, so
//! bodies are capped at 500 KiB, lines cut under 16 KB on a character boundary, and the matcher
//! runs inside `catch_unwind` (a panic there counts as "disallowed").

use crate::fetcher::{FetchError, SafeFetcher};
use kernel::WebUrl;
use std::collections::HashMap;
use std::sync::Mutex;
use std::time::{Duration, Instant};

/// The largest robots.txt body read (RFC 9309 asks for at least 500 KiB).
pub const MAX_ROBOTS_BYTES: usize = 500 * 1024;
/// How long a robots.txt answer is reused.
pub const CACHE_FOR: Duration = Duration::from_secs(24 * 60 * 60);
/// How long an unreachable robots.txt is remembered: long enough that the pages of one crawl
/// do not each wait for a dead server, short enough that the next try finds it back.
pub const UNREACHABLE_FOR: Duration = Duration::from_secs(2 * 60);
const MAX_LINE_BYTES: usize = 16 * 1000;

/// The rules of one origin.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Rules {
    AllowAll,
    DisallowAll,
    /// A robots.txt body, prepared for the matcher.
    File(String),
    /// No answer, or a 5xx one (RFC 9309 2.3.1.4): nothing may be read in this attempt.
    Unreachable(String),
}

impl Rules {
    /// Whether `agent` (a product token such as `LaunchdirBot`) may fetch `url`.
    pub fn allows(&self, agent: &str, url: &str) -> bool {
        match self {
            Self::AllowAll => true,
            Self::DisallowAll | Self::Unreachable(_) => false,
            Self::File(body) => {
                let body = body.clone();
                let agent = agent.to_owned();
                let url = url.to_owned();
                std::panic::catch_unwind(move || robotstxt::DefaultMatcher::default().one_agent_allowed_by_robots(&body, &agent, &url))
                    .unwrap_or(false)
            }
        }
    }
}

/// Caps the body and cuts over-long lines on a character boundary.
pub fn prepare(body: &str) -> String {
    let mut capped = &body[..floor_char_boundary(body, MAX_ROBOTS_BYTES)];
    if capped.len() < body.len() {
        // Drop the last, possibly cut, line.
        capped = capped.rsplit_once('\n').map_or("", |(head, _)| head);
    }
    capped.lines().map(|line| &line[..floor_char_boundary(line, MAX_LINE_BYTES)]).collect::<Vec<_>>().join("\n")
}

fn floor_char_boundary(text: &str, at: usize) -> usize {
    if at >= text.len() {
        return text.len();
    }
    (0..=at).rev().find(|i| text.is_char_boundary(*i)).unwrap_or(0)
}

/// Reads and caches robots.txt per origin.
pub struct RobotsCache {
    fetcher: SafeFetcher,
    /// The product token matched against `User-agent` lines.
    agent: String,
    entries: Mutex<HashMap<String, (Instant, Rules)>>,
    unreachable_for: Duration,
}

impl RobotsCache {
    pub fn new(fetcher: SafeFetcher, agent: &str) -> Self {
        Self { fetcher, agent: agent.to_owned(), entries: Mutex::new(HashMap::new()), unreachable_for: UNREACHABLE_FOR }
    }

    /// Remembers an unreachable robots.txt for `ttl` instead of `UNREACHABLE_FOR` (tests).
    pub fn remember_unreachable_for(mut self, ttl: Duration) -> Self {
        self.unreachable_for = ttl.min(UNREACHABLE_FOR);
        self
    }

    /// Whether our bot may fetch `url`. `Err` when the site's address is blocked (then nothing
    /// of it may be fetched at all) or its robots.txt is unreachable (then nothing of it may be
    /// fetched now).
    pub async fn allowed(&self, url: &WebUrl) -> Result<bool, FetchError> {
        match self.rules(url).await? {
            Rules::Unreachable(why) => Err(FetchError::Unreachable(format!("robots.txt of {} could not be read: {why}", url.origin()))),
            rules => Ok(rules.allows(&self.agent, url.as_str())),
        }
    }

    /// Forgets every unreachable robots.txt of `url`'s site (its origin, and every origin under
    /// the same registrable domain, where its homepage may redirect: `acme.com` to
    /// `www.acme.com`), so the next question asks again (a new crawl starts with this).
    pub fn forget_unreachable(&self, url: &WebUrl) {
        let site = url.registrable_domain();
        let same_site = |origin: &str| {
            origin == url.origin() || site.is_some() && WebUrl::parse(origin).ok().and_then(|other| other.registrable_domain()) == site
        };
        self.lock().retain(|origin, (_, rules)| !(matches!(rules, Rules::Unreachable(_)) && same_site(origin)));
    }

    fn fresh(&self, at: Instant, rules: &Rules) -> bool {
        let keep = if matches!(rules, Rules::Unreachable(_)) { self.unreachable_for } else { CACHE_FOR };
        at.elapsed() < keep
    }

    /// The rules of `url`'s origin, from the cache or freshly read.
    pub async fn rules(&self, url: &WebUrl) -> Result<Rules, FetchError> {
        let origin = url.origin();
        if let Some((at, rules)) = self.lock().get(&origin)
            && self.fresh(*at, rules)
        {
            return Ok(rules.clone());
        }
        let rules = self.fetch(url).await?;
        let mut entries = self.lock();
        if entries.len() > 10_000 {
            entries.retain(|_, (at, rules)| self.fresh(*at, rules));
        }
        entries.insert(origin, (Instant::now(), rules.clone()));
        Ok(rules)
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, HashMap<String, (Instant, Rules)>> {
        self.entries.lock().unwrap_or_else(|poisoned| poisoned.into_inner())
    }

    async fn fetch(&self, url: &WebUrl) -> Result<Rules, FetchError> {
        let robots_txt = url.join("/robots.txt").map_err(FetchError::BadUrl)?;
        Ok(match self.fetcher.get(&robots_txt, MAX_ROBOTS_BYTES).await {
            Ok(fetched) if fetched.status.is_success() => Rules::File(prepare(&fetched.text())),
            Ok(fetched) if fetched.status.is_client_error() => Rules::AllowAll,
            Ok(fetched) => Rules::Unreachable(format!("it answered {}", fetched.status)),
            // A blocked address is not a robots.txt answer: the caller learns the real reason.
            Err(blocked @ FetchError::Blocked(_)) => return Err(blocked),
            // A file larger than we read is an answer we cannot follow: the careful reading of it
            // is "disallowed", for as long as any answer.
            Err(FetchError::TooLarge(_)) => Rules::DisallowAll,
            // No answer, timed out, or redirected in circles: unreachable, for this attempt.
            Err(other) => Rules::Unreachable(other.to_string()),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::address::AddressPolicy;
    use crate::fetcher::FetcherConfig;
    use crate::testing::{FixtureServer, Route};

    fn cache(ttl: Duration) -> RobotsCache {
        let policy = AddressPolicy { allow_private_networks: true, trusted: vec![] };
        let fetcher = SafeFetcher::new(FetcherConfig::new("LaunchdirBot/1.0".into(), policy)).unwrap();
        RobotsCache::new(fetcher, "LaunchdirBot").remember_unreachable_for(ttl)
    }

    /// A new crawl asks again every robots.txt of the submitted site that was unreachable (its
    /// homepage may redirect to another of its hosts), and nobody else's, nor a real answer.
    #[tokio::test]
    async fn a_new_crawl_forgets_the_sites_unreachable_answers_and_nobody_elses() {
        let robots = cache(Duration::from_secs(60));
        let down = Rules::Unreachable("no answer".into());
        for origin in ["https://acme.example", "https://www.acme.example", "https://other.example"] {
            robots.lock().insert(origin.to_owned(), (Instant::now(), down.clone()));
        }
        robots.lock().insert("https://docs.acme.example".to_owned(), (Instant::now(), Rules::AllowAll));
        robots.forget_unreachable(&WebUrl::parse("https://acme.example/").unwrap());
        let mut left: Vec<String> = robots.lock().keys().cloned().collect();
        left.sort();
        assert_eq!(left, ["https://docs.acme.example", "https://other.example"]);
    }

    #[tokio::test]
    async fn an_unreachable_robots_txt_fails_the_attempt_and_is_forgotten_soon() {
        let site = FixtureServer::start(std::collections::HashMap::from([("/robots.txt".to_owned(), Route::hang_up())])).await;
        let robots = cache(Duration::from_millis(300));
        let page = site.web_url("/pricing");
        let refused = robots.allowed(&page).await.unwrap_err();
        assert!(matches!(&refused, FetchError::Unreachable(why) if why.contains("robots.txt")), "{refused:?}");
        // A 5xx answer is unreachable too.
        site.set_route("/robots.txt", Route::new(503, "text/plain", "down"));
        assert!(matches!(robots.allowed(&page).await, Err(FetchError::Unreachable(_))), "remembered for a moment");
        tokio::time::sleep(Duration::from_millis(400)).await;
        assert!(matches!(robots.allowed(&page).await, Err(FetchError::Unreachable(why)) if why.contains("503")));
        // Back up: read again once the short memory ends, and then kept like any answer.
        site.set_route("/robots.txt", Route::new(200, "text/plain", "User-agent: *\nDisallow: /private\n"));
        tokio::time::sleep(Duration::from_millis(400)).await;
        assert!(robots.allowed(&page).await.unwrap());
        assert!(!robots.allowed(&site.web_url("/private/x")).await.unwrap());
        site.set_route("/robots.txt", Route::new(200, "text/plain", "User-agent: *\nDisallow: /\n"));
        tokio::time::sleep(Duration::from_millis(400)).await;
        assert!(robots.allowed(&page).await.unwrap(), "a real answer is kept for the day");
        assert!(UNREACHABLE_FOR <= Duration::from_secs(5 * 60), "minutes at most");
        assert_eq!(site.requested_paths().len(), 3);
    }

    #[test]
    fn rules_match_our_agent_and_the_star_group() {
        let rules = Rules::File(prepare("User-agent: *\nDisallow: /private\n\nUser-agent: OtherBot\nDisallow: /\n"));
        assert!(rules.allows("LaunchdirBot", "https://a.example/"));
        assert!(rules.allows("LaunchdirBot", "https://a.example/pricing"));
        assert!(!rules.allows("LaunchdirBot", "https://a.example/private"));
        assert!(!rules.allows("LaunchdirBot", "https://a.example/private/x"));
        assert!(!rules.allows("OtherBot", "https://a.example/"));
        let ours = Rules::File(prepare("User-agent: LaunchdirBot\nDisallow: /\n\nUser-agent: *\nAllow: /\n"));
        assert!(!ours.allows("LaunchdirBot", "https://a.example/"));
        assert!(Rules::AllowAll.allows("LaunchdirBot", "https://a.example/x"));
        assert!(!Rules::DisallowAll.allows("LaunchdirBot", "https://a.example/"));
    }

    #[test]
    fn long_multibyte_lines_are_cut_safely() {
        let line = format!("Disallow: /{}\n", "é".repeat(20_000));
        let prepared = prepare(&format!("User-agent: *\n{line}Allow: /\n"));
        assert!(prepared.lines().all(|l| l.len() <= MAX_LINE_BYTES));
        let rules = Rules::File(prepared);
        // Whatever the matcher makes of it, it answers instead of taking the process down.
        let _ = rules.allows("LaunchdirBot", "https://a.example/");
        let huge = "# comment\n".repeat(100_000);
        assert!(prepare(&huge).len() <= MAX_ROBOTS_BYTES);
    }
}
