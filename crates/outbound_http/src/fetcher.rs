//! `SafeFetcher`: the one way Launchdir fetches an address someone else chose (websites, robots.txt,
//! badge checks, claim files, OAuth client metadata).

use crate::address::AddressPolicy;
use futures_util::future::BoxFuture;
use kernel::WebUrl;
use reqwest::dns::{Addrs, Name, Resolve, Resolving};
use reqwest::header::{CONTENT_LENGTH, CONTENT_TYPE, LOCATION};
use reqwest::{StatusCode, Url};
use std::net::{IpAddr, SocketAddr};
use std::sync::{Arc, Once};
use std::time::Duration;

/// Redirects followed per request.
pub const MAX_REDIRECTS: usize = 5;

/// Installs the `ring` crypto provider for rustls once per process. Every client is built after
/// it (reqwest is built without a provider of its own, so aws-lc is never compiled).
pub fn install_crypto_provider() {
    static ONCE: Once = Once::new();
    ONCE.call_once(|| {
        // Another part of the process may have installed one already; either is fine.
        let _ = rustls::crypto::ring::default_provider().install_default();
    });
}

/// How the fetcher behaves.
#[derive(Debug, Clone)]
pub struct FetcherConfig {
    /// The `User-Agent` header: names the bot and links to a page about it.
    pub user_agent: String,
    pub policy: AddressPolicy,
    pub connect_timeout: Duration,
    /// For one request, redirects included.
    pub request_timeout: Duration,
}

impl FetcherConfig {
    pub fn new(user_agent: String, policy: AddressPolicy) -> Self {
        Self { user_agent, policy, connect_timeout: Duration::from_secs(5), request_timeout: Duration::from_secs(15) }
    }
}

/// Why a fetch failed.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum FetchError {
    #[error("not an http(s) address: {0}")]
    BadUrl(String),
    #[error("blocked address: {0}")]
    Blocked(String),
    #[error("unreachable: {0}")]
    Unreachable(String),
    #[error("more than {MAX_REDIRECTS} redirects")]
    TooManyRedirects,
    #[error("the body is larger than {0} bytes")]
    TooLarge(usize),
    #[error("timed out")]
    Timeout,
}

/// A fetched response.
#[derive(Debug, Clone)]
pub struct Fetched {
    /// The address after redirects.
    pub url: WebUrl,
    pub status: StatusCode,
    /// The media type, lower-cased, without parameters (`text/html`).
    pub media_type: String,
    /// The `charset` parameter, if any.
    pub charset: Option<String>,
    /// The `Cache-Control` header, as sent.
    pub cache_control: Option<String>,
    pub body: Vec<u8>,
}

impl Fetched {
    pub fn is_html(&self) -> bool {
        matches!(self.media_type.as_str(), "text/html" | "application/xhtml+xml")
    }

    /// The body as text: the declared charset, else a `<meta charset>` in the first KiB, else
    /// UTF-8 (a byte-order mark wins over both).
    pub fn text(&self) -> String {
        let declared = self.charset.as_deref().and_then(|label| encoding_rs::Encoding::for_label(label.as_bytes()));
        let sniffed = || if self.is_html() { sniff_meta_charset(&self.body) } else { None };
        let encoding = declared.or_else(sniffed).unwrap_or(encoding_rs::UTF_8);
        let (text, _, _) = encoding.decode(&self.body);
        text.into_owned()
    }
}

/// Finds `<meta charset="...">` or `<meta http-equiv=Content-Type content="...charset=...">`.
fn sniff_meta_charset(body: &[u8]) -> Option<&'static encoding_rs::Encoding> {
    let head = String::from_utf8_lossy(&body[..body.len().min(1024)]).to_ascii_lowercase();
    let at = head.find("charset=")?;
    let label: String = head[at + 8..]
        .trim_start_matches(['"', '\''])
        .chars()
        .take_while(|c| c.is_ascii_alphanumeric() || *c == '-' || *c == '_')
        .collect();
    encoding_rs::Encoding::for_label(label.as_bytes())
}

/// Resolves names and refuses any answer that includes an address the policy forbids. reqwest
/// connects to the addresses returned here, so what was checked is what is reached.
struct CheckingResolver {
    policy: AddressPolicy,
}

/// The resolver's refusal, found again in reqwest's error chain.
#[derive(Debug)]
struct BlockedAddress(String);

impl std::fmt::Display for BlockedAddress {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for BlockedAddress {}

impl Resolve for CheckingResolver {
    fn resolve(&self, name: Name) -> Resolving {
        let policy = self.policy.clone();
        let host = name.as_str().to_owned();
        let lookup: BoxFuture<'static, Result<Addrs, Box<dyn std::error::Error + Send + Sync>>> = Box::pin(async move {
            type BoxError = Box<dyn std::error::Error + Send + Sync>;
            let addrs: Vec<SocketAddr> =
                tokio::net::lookup_host((host.as_str(), 0)).await.map_err(|err| Box::new(err) as BoxError)?.collect();
            if addrs.is_empty() {
                return Err(BoxError::from(format!("{host} has no address")));
            }
            for addr in &addrs {
                // Names never use the trusted list (it holds exact IP and port pairs for bare-IP
                // addresses): a name resolving to a private address is refused.
                if let Err(reason) = policy.check(*addr) {
                    return Err(Box::new(BlockedAddress(format!("{host} resolves to {reason}"))) as BoxError);
                }
            }
            Ok(Box::new(addrs.into_iter()) as Addrs)
        });
        lookup
    }
}

/// The fetcher. Cheap to clone.
#[derive(Clone)]
pub struct SafeFetcher {
    client: reqwest::Client,
    config: Arc<FetcherConfig>,
}

impl SafeFetcher {
    pub fn new(config: FetcherConfig) -> Result<Self, reqwest::Error> {
        install_crypto_provider();
        let client = reqwest::Client::builder()
            .user_agent(config.user_agent.clone())
            .redirect(reqwest::redirect::Policy::none())
            // Proxies would connect on our behalf to addresses we never checked.
            .no_proxy()
            .dns_resolver(Arc::new(CheckingResolver { policy: config.policy.clone() }))
            .connect_timeout(config.connect_timeout)
            .timeout(config.request_timeout)
            .pool_max_idle_per_host(2)
            .build()?;
        Ok(Self { client, config: Arc::new(config) })
    }

    pub fn user_agent(&self) -> &str {
        &self.config.user_agent
    }

    /// Checks an address before a request: scheme, credentials, and a bare IP host.
    fn check_url(&self, url: &Url) -> Result<(), FetchError> {
        if !matches!(url.scheme(), "http" | "https") {
            return Err(FetchError::BadUrl(url.to_string()));
        }
        if !url.username().is_empty() || url.password().is_some() {
            return Err(FetchError::BadUrl("addresses with credentials are not fetched".into()));
        }
        let port = url.port_or_known_default().unwrap_or(80);
        let ip: Option<IpAddr> = match url.host() {
            Some(url::Host::Ipv4(ip)) => Some(IpAddr::V4(ip)),
            Some(url::Host::Ipv6(ip)) => Some(IpAddr::V6(ip)),
            Some(url::Host::Domain(_)) => None,
            None => return Err(FetchError::BadUrl(url.to_string())),
        };
        if let Some(ip) = ip {
            self.config.policy.check(SocketAddr::new(ip, port)).map_err(FetchError::Blocked)?;
        }
        Ok(())
    }

    /// When a request started now must be done: its redirects share the budget.
    pub fn deadline(&self) -> tokio::time::Instant {
        tokio::time::Instant::now() + self.config.request_timeout
    }

    /// GETs `url`, following up to five redirects (each checked again), reading at most
    /// `max_bytes` of body. Any status is returned; the caller decides what it means.
    pub async fn get(&self, url: &WebUrl, max_bytes: usize) -> Result<Fetched, FetchError> {
        let deadline = self.deadline();
        let mut current = url.clone();
        for _ in 0..=MAX_REDIRECTS {
            match self.get_hop(&current, max_bytes, deadline).await? {
                Hop::Redirect(next) => current = next,
                Hop::Arrived(fetched) => return Ok(fetched),
            }
        }
        Err(FetchError::TooManyRedirects)
    }

    /// One request without following a redirect: the redirect's target (checked like any
    /// address) or the answer. For callers that must judge every hop themselves (robots.txt).
    pub async fn get_hop(&self, url: &WebUrl, max_bytes: usize, deadline: tokio::time::Instant) -> Result<Hop, FetchError> {
        let current = url.url();
        self.check_url(current)?;
        let send = self.client.get(current.clone()).send();
        let response = match tokio::time::timeout_at(deadline, send).await {
            Err(_) => return Err(FetchError::Timeout),
            Ok(Err(err)) => return Err(classify_error(&err)),
            Ok(Ok(response)) => response,
        };
        if response.status().is_redirection()
            && let Some(location) = response.headers().get(LOCATION)
        {
            let location = location.to_str().map_err(|_| FetchError::Unreachable("a redirect with an unreadable Location".into()))?;
            // A redirect's target is a web address like any other: the same checks apply.
            let next = current.join(location).map_err(|_| FetchError::BadUrl(location.to_owned()))?;
            let next = WebUrl::parse(next.as_str()).map_err(|why| FetchError::BadUrl(format!("{next}: {why}")))?;
            self.check_url(next.url())?;
            return Ok(Hop::Redirect(next));
        }
        let fetched = tokio::time::timeout_at(deadline, read(response, max_bytes)).await.map_err(|_| FetchError::Timeout)??;
        Ok(Hop::Arrived(fetched))
    }
}

/// What one request gave.
#[derive(Debug, Clone)]
pub enum Hop {
    /// A redirect to this address (not yet requested).
    Redirect(WebUrl),
    Arrived(Fetched),
}

async fn read(mut response: reqwest::Response, max_bytes: usize) -> Result<Fetched, FetchError> {
    let declared = response.headers().get(CONTENT_LENGTH).and_then(|v| v.to_str().ok()).and_then(|v| v.parse::<u64>().ok());
    if declared.is_some_and(|length| length > max_bytes as u64) {
        return Err(FetchError::TooLarge(max_bytes));
    }
    let content_type = response.headers().get(CONTENT_TYPE).and_then(|v| v.to_str().ok()).unwrap_or("").to_owned();
    let mut parts = content_type.split(';');
    let media_type = parts.next().unwrap_or("").trim().to_ascii_lowercase();
    let charset = parts
        .filter_map(|part| part.trim().split_once('='))
        .find(|(key, _)| key.trim().eq_ignore_ascii_case("charset"))
        .map(|(_, value)| value.trim().trim_matches('"').to_owned());
    let cache_control = response.headers().get(reqwest::header::CACHE_CONTROL).and_then(|v| v.to_str().ok()).map(str::to_owned);
    let url = WebUrl::parse(response.url().as_str()).map_err(FetchError::BadUrl)?;
    let status = response.status();
    let mut body = Vec::new();
    while let Some(chunk) = response.chunk().await.map_err(|err| classify_error(&err))? {
        if body.len() + chunk.len() > max_bytes {
            return Err(FetchError::TooLarge(max_bytes));
        }
        body.extend_from_slice(&chunk);
    }
    Ok(Fetched { url, status, media_type, charset, cache_control, body })
}

/// Finds the resolver's refusal in reqwest's error chain; anything else is unreachable.
fn classify_error(err: &reqwest::Error) -> FetchError {
    let mut source: Option<&(dyn std::error::Error + 'static)> = Some(err);
    while let Some(current) = source {
        if let Some(blocked) = current.downcast_ref::<BlockedAddress>() {
            return FetchError::Blocked(blocked.0.clone());
        }
        source = current.source();
    }
    if err.is_timeout() {
        return FetchError::Timeout;
    }
    let mut chain = err.to_string();
    let mut source = std::error::Error::source(err);
    while let Some(next) = source {
        chain.push_str(": ");
        chain.push_str(&next.to_string());
        source = next.source();
    }
    FetchError::Unreachable(chain)
}
