//! The one way an HTML page is read: robots.txt first, for the address and again for every
//! address a redirect leads to (a same-origin redirect into a disallowed path included), then
//! the status and the content type. The site reader and the badge check both read pages through
//! here and only say what a failure means to them.

use crate::fetcher::{FetchError, Fetched, Hop, MAX_REDIRECTS, SafeFetcher};
use crate::robots::RobotsCache;
use kernel::WebUrl;

/// Why a page was not read.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum PageFailure {
    /// robots.txt of `origin` does not let our bot read the page; `redirected` when the page
    /// is the one the address redirected to.
    RobotsDisallowed {
        origin: String,
        redirected: bool,
    },
    /// The address (or one it redirected to) is one we never reach.
    Blocked(String),
    TooLarge(String),
    /// No answer, an error status, or too many redirects.
    Unreachable(String),
    /// Not HTML: the media type, or empty when none was given.
    NotHtml(String),
}

impl From<FetchError> for PageFailure {
    fn from(error: FetchError) -> Self {
        match error {
            FetchError::Blocked(what) => Self::Blocked(what),
            FetchError::TooLarge(_) => Self::TooLarge(error.to_string()),
            other => Self::Unreachable(other.to_string()),
        }
    }
}

impl PageFailure {
    /// A sentence for people (a badge check's detail, a log line).
    pub fn describe(&self) -> String {
        match self {
            Self::RobotsDisallowed { origin, redirected: false } => {
                format!("robots.txt of {origin} does not let LaunchdirBot read the page")
            }
            Self::RobotsDisallowed { origin, redirected: true } => {
                format!("robots.txt of {origin} does not let LaunchdirBot read the page the address redirects to")
            }
            Self::Blocked(what) => what.clone(),
            Self::TooLarge(what) | Self::Unreachable(what) => what.clone(),
            Self::NotHtml(media_type) if media_type.is_empty() => "the page is of no content type".into(),
            Self::NotHtml(media_type) => format!("the page is {media_type}"),
        }
    }
}

/// Reads the HTML page at `url` (at most `max_bytes`) as robots.txt allows (`fetch_allowed`).
pub async fn fetch_html(fetcher: &SafeFetcher, robots: &RobotsCache, url: &WebUrl, max_bytes: usize) -> Result<Fetched, PageFailure> {
    let fetched = fetch_allowed(fetcher, robots, url, max_bytes).await?;
    if !fetched.is_html() {
        return Err(PageFailure::NotHtml(fetched.media_type.clone()));
    }
    Ok(fetched)
}

/// Reads what `url` serves (at most `max_bytes`) as robots.txt allows: every hop of a redirect
/// chain is checked before it is requested, so a disallowed address is never fetched; an error
/// status is a failure.
pub async fn fetch_allowed(fetcher: &SafeFetcher, robots: &RobotsCache, url: &WebUrl, max_bytes: usize) -> Result<Fetched, PageFailure> {
    let deadline = fetcher.deadline();
    let mut current = url.clone();
    for hop in 0..=MAX_REDIRECTS {
        if !robots.allowed(&current).await? {
            return Err(PageFailure::RobotsDisallowed { origin: current.origin(), redirected: hop > 0 });
        }
        let fetched = match fetcher.get_hop(&current, max_bytes, deadline).await? {
            Hop::Redirect(next) => {
                current = next;
                continue;
            }
            Hop::Arrived(fetched) => fetched,
        };
        if !fetched.status.is_success() {
            return Err(PageFailure::Unreachable(format!("{url} answered {}", fetched.status)));
        }
        return Ok(fetched);
    }
    Err(FetchError::TooManyRedirects.into())
}
