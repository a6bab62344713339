//! Client ID metadata documents for the OAuth server, read through the safe fetcher (so a
//! `client_id` URL on a private address is refused like any other) and cached: an authorization
//! and the token request that follows it read the document once, and nobody can make us fetch
//! an address on every request. Why a document could not be read is logged here, never told to
//! the caller (it would name what a host resolves to).

use crate::fetcher::SafeFetcher;
use async_trait::async_trait;
use std::collections::HashMap;
use std::sync::Mutex;
use std::time::{Duration, Instant};

/// The largest client metadata document read.
const MAX_DOCUMENT_BYTES: usize = 64 * 1024;
/// The longest a document is reused, whatever its `Cache-Control` says.
pub const MAX_CACHE_FOR: Duration = Duration::from_secs(60 * 60);
/// How long a document without `Cache-Control` is reused.
pub const DEFAULT_CACHE_FOR: Duration = Duration::from_secs(5 * 60);
/// How long a failure is remembered: a client fixing its document waits this long at most.
pub const FAILURE_CACHE_FOR: Duration = Duration::from_secs(30);
/// Documents kept; the oldest go first.
const MAX_ENTRIES: usize = 1_000;

type Answer = Result<serde_json::Value, String>;

pub struct ClientMetadataFetcher {
    fetcher: SafeFetcher,
    cache: Mutex<HashMap<String, (Instant, Duration, Answer)>>,
}

impl ClientMetadataFetcher {
    pub fn new(fetcher: SafeFetcher) -> Self {
        Self { fetcher, cache: Mutex::new(HashMap::new()) }
    }

    fn cached(&self, url: &str) -> Option<Answer> {
        let cache = self.cache.lock().unwrap_or_else(|p| p.into_inner());
        cache.get(url).filter(|(at, keep, _)| at.elapsed() < *keep).map(|(_, _, answer)| answer.clone())
    }

    fn remember(&self, url: &str, keep: Duration, answer: &Answer) {
        if keep.is_zero() {
            return;
        }
        let mut cache = self.cache.lock().unwrap_or_else(|p| p.into_inner());
        if cache.len() >= MAX_ENTRIES {
            cache.retain(|_, (at, keep, _)| at.elapsed() < *keep);
            if cache.len() >= MAX_ENTRIES
                && let Some(oldest) = cache.iter().min_by_key(|(_, (at, _, _))| *at).map(|(key, _)| key.clone())
            {
                cache.remove(&oldest);
            }
        }
        cache.insert(url.to_owned(), (Instant::now(), keep, answer.clone()));
    }

    /// Reads the document: its JSON and how long it may be reused.
    async fn read(&self, url: &kernel::WebUrl) -> (Answer, Duration) {
        let fetched = match self.fetcher.get(url, MAX_DOCUMENT_BYTES).await {
            Ok(fetched) => fetched,
            Err(err) => return (Err(err.to_string()), FAILURE_CACHE_FOR),
        };
        if !fetched.status.is_success() {
            return (Err(format!("it answered {}", fetched.status)), FAILURE_CACHE_FOR);
        }
        if !(fetched.media_type == "application/json" || fetched.media_type.ends_with("+json")) {
            return (Err(format!("it is not JSON ({})", fetched.media_type)), FAILURE_CACHE_FOR);
        }
        match serde_json::from_slice(&fetched.body) {
            Ok(document) => (Ok(document), cache_for(fetched.cache_control.as_deref())),
            Err(err) => (Err(format!("it is not valid JSON: {err}")), FAILURE_CACHE_FOR),
        }
    }
}

/// How long a document may be reused by its `Cache-Control`: `no-store` and `no-cache` mean
/// not at all, `max-age` is followed up to an hour, and no header means five minutes.
pub fn cache_for(cache_control: Option<&str>) -> Duration {
    let Some(header) = cache_control else { return DEFAULT_CACHE_FOR };
    let mut max_age = None;
    for directive in header.split(',').map(|d| d.trim().to_ascii_lowercase()) {
        if directive == "no-store" || directive == "no-cache" {
            return Duration::ZERO;
        }
        if let Some(seconds) = directive.strip_prefix("max-age=") {
            max_age = Some(seconds.trim_matches('"').parse::<u64>().map_or(Duration::ZERO, Duration::from_secs));
        }
    }
    max_age.unwrap_or(DEFAULT_CACHE_FOR).min(MAX_CACHE_FOR)
}

#[async_trait]
impl accounts::oauth::ClientMetadataSource for ClientMetadataFetcher {
    async fn fetch(&self, url: &kernel::WebUrl) -> Result<serde_json::Value, String> {
        if let Some(answer) = self.cached(url.as_str()) {
            return answer;
        }
        let (answer, keep) = self.read(url).await;
        if let Err(why) = &answer {
            tracing::info!(client_id = %url, reason = %why, "a client metadata document could not be read");
        }
        self.remember(url.as_str(), keep, &answer);
        answer
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cache_control_is_followed_up_to_an_hour() {
        assert_eq!(cache_for(None), DEFAULT_CACHE_FOR);
        assert_eq!(cache_for(Some("public, max-age=60")), Duration::from_secs(60));
        assert_eq!(cache_for(Some("max-age=86400")), MAX_CACHE_FOR);
        assert_eq!(cache_for(Some("no-store")), Duration::ZERO);
        assert_eq!(cache_for(Some("max-age=600, no-cache")), Duration::ZERO);
        assert_eq!(cache_for(Some("max-age=soon")), Duration::ZERO);
    }
}
