//! robots.txt per RFC 9309: fetched through the safe fetcher, cached up to 24 hours per origin.
//! A 4xx answer allows everything; a 5xx answer or no answer disallows everything. The
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
const MAX_LINE_BYTES: usize = 16 * 1000;

/// The rules of one origin.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Rules {
    AllowAll,
    DisallowAll,
    /// A robots.txt body, prepared for the matcher.
    File(String),
}

impl Rules {
    /// Whether `agent` (a product token such as `LaunchdirBot`) may fetch `url`.
    pub fn allows(&self, agent: &str, url: &str) -> bool {
        match self {
            Self::AllowAll => true,
            Self::DisallowAll => false,
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
}

impl RobotsCache {
    pub fn new(fetcher: SafeFetcher, agent: &str) -> Self {
        Self { fetcher, agent: agent.to_owned(), entries: Mutex::new(HashMap::new()) }
    }

    /// Whether our bot may fetch `url`. `Err` only when the site's address is blocked (then
    /// nothing of it may be fetched at all).
    pub async fn allowed(&self, url: &WebUrl) -> Result<bool, FetchError> {
        let rules = self.rules(url).await?;
        Ok(rules.allows(&self.agent, url.as_str()))
    }

    /// The rules of `url`'s origin, from the cache or freshly read.
    pub async fn rules(&self, url: &WebUrl) -> Result<Rules, FetchError> {
        let origin = url.origin();
        if let Some((at, rules)) = self.lock().get(&origin)
            && at.elapsed() < CACHE_FOR
        {
            return Ok(rules.clone());
        }
        let rules = self.fetch(url).await?;
        let mut entries = self.lock();
        if entries.len() > 10_000 {
            entries.retain(|_, (at, _)| at.elapsed() < CACHE_FOR);
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
            Ok(_) => Rules::DisallowAll,
            // A blocked address is not a robots.txt answer: the caller learns the real reason.
            Err(blocked @ FetchError::Blocked(_)) => return Err(blocked),
            // Larger than we read, unreachable or timed out: the careful reading is "disallowed".
            Err(_) => Rules::DisallowAll,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

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
