//! Pages that show their content only with JavaScript, rendered in headless Chromium (Debian's
//! `chromium`). The browser never reaches the network itself: it is told to send every request
//! to a proxy in this process (loopback included) and to resolve no name, and the proxy fetches
//! each address with the safe fetcher after robots.txt allows it. HTTPS reaches the proxy as a
//! tunnel, which the proxy ends with a throwaway certificate the browser is told to accept, so
//! it sees every address the browser asks for; its own requests onwards verify certificates as
//! usual. Only GET and HEAD pass. A budget caps the time, the requests and the bytes of one
//! rendering. The result is the DOM after the scripts ran, read like any page.

use crate::fetcher::{FetchError, Hop, SafeFetcher};
use crate::robots::RobotsCache;
use kernel::WebUrl;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;
use tokio::io::{AsyncRead, AsyncReadExt, AsyncWrite, AsyncWriteExt};
use tokio::net::{TcpListener, TcpStream};
use tokio::task::JoinSet;

/// What one rendering may use.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RenderBudget {
    /// From starting the browser to having its DOM.
    pub time: Duration,
    /// How long the page's scripts may run (Chromium's virtual time budget).
    pub script_time: Duration,
    /// Requests the page may make, itself included.
    pub requests: usize,
    /// Bytes of all responses together, and the largest DOM read back.
    pub bytes: usize,
}

impl Default for RenderBudget {
    fn default() -> Self {
        Self { time: Duration::from_secs(20), script_time: Duration::from_secs(5), requests: 60, bytes: 8 * 1024 * 1024 }
    }
}

/// What the proxy did with one request of the browser.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Passage {
    Fetched,
    /// robots.txt does not let our bot fetch it.
    Disallowed,
    /// The address is one we never reach (a private network, say).
    Blocked(String),
    /// Over the rendering's budget of requests or bytes.
    OverBudget,
    /// Not GET or HEAD, or not a web address.
    Refused(String),
    Failed(String),
}

/// A page as the browser left it.
#[derive(Debug, Clone)]
pub struct Rendered {
    /// The serialised DOM.
    pub html: String,
    /// Every request the browser made, in order, with what the proxy did.
    pub requests: Vec<(String, Passage)>,
}

/// Why a page could not be rendered.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum RenderFailure {
    #[error("the browser could not be started: {0}")]
    Start(String),
    #[error("the page took longer than {0} seconds to render")]
    Timeout(u64),
    #[error("the rendered page is larger than the limit")]
    TooLarge,
    #[error("the browser gave no page: {0}")]
    Empty(String),
    /// The page navigated away from the site, or to a page that could not be fetched.
    #[error("the page navigated where it may not, or to a page that could not be read")]
    LostPage,
}

/// Renders pages in headless Chromium behind the checking proxy.
pub struct ChromiumRenderer {
    binary: PathBuf,
    fetcher: SafeFetcher,
    robots: Arc<RobotsCache>,
    tls: tokio_rustls::TlsAcceptor,
    budget: RenderBudget,
    /// Browsers running at once, whatever the number of job workers.
    browsers: tokio::sync::Semaphore,
}

/// Browsers one renderer runs at once (each takes a core and a few hundred MiB).
pub const MAX_BROWSERS: usize = 2;
/// Requests of one rendering kept in its log.
const MAX_LOGGED: usize = 200;

/// Distinguishes the profile directories of renderings running at once.
static RENDERING: AtomicU64 = AtomicU64::new(0);

impl ChromiumRenderer {
    /// The Chromium on this machine, if any: `chromium` (Debian), `chromium-browser`,
    /// `google-chrome`, looked for on `PATH`.
    pub fn find_browser() -> Option<PathBuf> {
        let path = std::env::var_os("PATH")?;
        ["chromium", "chromium-browser", "google-chrome"]
            .iter()
            .flat_map(|name| std::env::split_paths(&path).map(move |dir| dir.join(name)))
            .find(|candidate| candidate.is_file())
    }

    /// A renderer with `binary`, fetching through `fetcher` as `robots` allows. `Err` says why
    /// there can be none here: above all, when this machine cannot give the browser a network
    /// namespace of its own (`crate::enclosure`), for a browser is never run outside one.
    pub fn new(binary: PathBuf, fetcher: SafeFetcher, robots: Arc<RobotsCache>) -> Result<Self, String> {
        crate::enclosure::check()?;
        crate::install_crypto_provider();
        // The proxy's certificate: made anew for each process, never stored, accepted only by
        // the browser we start (`--ignore-certificate-errors`).
        let certified = rcgen::generate_simple_self_signed(vec!["launchdir-render-proxy".to_owned()]).map_err(|err| err.to_string())?;
        let key = rustls::pki_types::PrivateKeyDer::Pkcs8(certified.signing_key.serialize_der().into());
        let mut config = rustls::ServerConfig::builder_with_provider(Arc::new(rustls::crypto::ring::default_provider()))
            .with_safe_default_protocol_versions()
            .map_err(|err| err.to_string())?
            .with_no_client_auth()
            .with_single_cert(vec![certified.cert.der().clone()], key)
            .map_err(|err| err.to_string())?;
        // One request per connection, in HTTP/1.1.
        config.alpn_protocols = vec![b"http/1.1".to_vec()];
        let tls = tokio_rustls::TlsAcceptor::from(Arc::new(config));
        Ok(Self { binary, fetcher, robots, tls, budget: RenderBudget::default(), browsers: tokio::sync::Semaphore::new(MAX_BROWSERS) })
    }

    pub fn with_budget(mut self, budget: RenderBudget) -> Self {
        self.budget = budget;
        self
    }

    /// Renders `url`: starts the proxy and the browser, lets the page's scripts run, and reads
    /// back the DOM.
    pub async fn render(&self, url: &WebUrl) -> Result<Rendered, RenderFailure> {
        self.render_within(url, self.budget.time).await
    }

    /// Renders `url` in at most `time` (and the budget's time), waiting for a free browser
    /// within it. Dropping the future stops the proxy and the browser and removes the profile.
    pub async fn render_within(&self, url: &WebUrl, time: Duration) -> Result<Rendered, RenderFailure> {
        let time = time.min(self.budget.time);
        let started = tokio::time::Instant::now();
        let _browser = tokio::time::timeout(time, self.browsers.acquire())
            .await
            .map_err(|_| RenderFailure::Timeout(time.as_secs()))?
            .map_err(|err| RenderFailure::Start(err.to_string()))?;
        let time = time.saturating_sub(started.elapsed());
        let profile = fresh_profile_dir().map_err(|err| RenderFailure::Start(format!("the browser's profile directory: {err}")))?;
        // Removes the profile however the rest ends; the proxy joins it once it serves.
        let mut cleanup = Cleanup { serving: None, profile };
        let command = self.browser_command(url, &cleanup.profile);
        let binary = self.binary.clone();
        let (listener, child) = crate::enclosure::enclosed(move |port| {
            let mut command = command(port);
            command.spawn().map_err(|err| format!("{}: {err}", binary.display()))
        })
        .await
        .map_err(RenderFailure::Start)?;
        let proxy = Arc::new(Proxy {
            fetcher: self.fetcher.clone(),
            robots: self.robots.clone(),
            tls: self.tls.clone(),
            budget: self.budget,
            requests: AtomicUsize::new(0),
            bytes: AtomicUsize::new(0),
            log: Mutex::new(Vec::new()),
            deadline: tokio::time::Instant::now() + time,
            origin: url.origin(),
            lost_page: std::sync::atomic::AtomicBool::new(false),
        });
        cleanup.serving = Some(tokio::spawn(proxy.clone().serve(listener)));
        let result = self.read_dom(child, time).await;
        drop(cleanup);
        let requests = std::mem::take(&mut *proxy.log.lock().unwrap_or_else(|poisoned| poisoned.into_inner()));
        if proxy.lost_page.load(Ordering::Relaxed) {
            return Err(RenderFailure::LostPage);
        }
        result.map(|html| Rendered { html, requests })
    }

    /// The browser's command line, given the proxy's port (known once its namespace exists).
    fn browser_command(&self, url: &WebUrl, profile: &Path) -> impl FnOnce(u16) -> tokio::process::Command + Send + 'static {
        let binary = self.binary.clone();
        let user_agent = self.fetcher.user_agent().to_owned();
        let profile = profile.to_owned();
        let script_time = self.budget.script_time.as_millis();
        let url = url.as_str().to_owned();
        move |port| {
            let mut command = tokio::process::Command::new(binary);
            command
                .args([
                    "--headless",
                    "--disable-gpu",
                    "--disable-quic",
                    "--no-first-run",
                    "--disable-background-networking",
                    "--disable-component-update",
                    "--disable-sync",
                    "--disable-extensions",
                    "--disable-default-apps",
                    "--mute-audio",
                    // Every request to the proxy, loopback's too; no name resolved by the browser.
                    &format!("--proxy-server=http://127.0.0.1:{port}"),
                    "--proxy-bypass-list=<-loopback>",
                    "--host-resolver-rules=MAP * ~NOTFOUND , EXCLUDE 127.0.0.1",
                    // WebRTC, the one path around a proxy, as a second layer behind the
                    // namespace: UDP only through a proxy, and there is none for UDP. (Chromium
                    // 156 ignores the `--force-` spelling of this switch; this one holds.)
                    "--webrtc-ip-handling-policy=disable_non_proxied_udp",
                    // The proxy ends HTTPS with its own certificate and checks the real one itself.
                    "--ignore-certificate-errors",
                    &format!("--user-agent={user_agent}"),
                    &format!("--user-data-dir={}", profile.display()),
                    &format!("--virtual-time-budget={script_time}"),
                    "--dump-dom",
                ])
                .arg(url)
                .stdin(std::process::Stdio::null())
                .stdout(std::process::Stdio::piped())
                .stderr(std::process::Stdio::null())
                .kill_on_drop(true);
            if running_as_root() {
                // Chromium's sandbox refuses to run as root; the namespace and the proxy still
                // decide what it reaches.
                command.arg("--no-sandbox");
            }
            command
        }
    }

    /// Reads the DOM the browser prints, within `time` and the budget's bytes.
    async fn read_dom(&self, mut child: tokio::process::Child, time: Duration) -> Result<String, RenderFailure> {
        let Some(stdout) = child.stdout.take() else { return Err(RenderFailure::Start("no output".into())) };
        let limit = self.budget.bytes;
        let read = async move {
            let mut dom = Vec::new();
            stdout.take(limit as u64 + 1).read_to_end(&mut dom).await.map(|_| dom)
        };
        let dom = match tokio::time::timeout(time, read).await {
            Err(_) => return Err(RenderFailure::Timeout(time.as_secs())),
            Ok(Err(err)) => return Err(RenderFailure::Empty(err.to_string())),
            Ok(Ok(dom)) => dom,
        };
        let _ = child.kill().await;
        if dom.len() > limit {
            return Err(RenderFailure::TooLarge);
        }
        let html = String::from_utf8_lossy(&dom).into_owned();
        if html.trim().is_empty() {
            return Err(RenderFailure::Empty("the browser printed nothing".into()));
        }
        Ok(html)
    }
}

/// Stops a rendering's proxy and removes its browser profile, however the rendering ends
/// (finished, failed, or dropped when the crawl ran out of time).
struct Cleanup {
    serving: Option<tokio::task::JoinHandle<()>>,
    profile: PathBuf,
}

impl Drop for Cleanup {
    fn drop(&mut self) {
        if let Some(serving) = &self.serving {
            serving.abort();
        }
        let _ = std::fs::remove_dir_all(&self.profile);
    }
}

/// A new, empty profile directory only this user can enter. Creating it fails rather than
/// reuse one that exists, so nobody can plant a profile (a service worker, say) in advance.
fn fresh_profile_dir() -> std::io::Result<PathBuf> {
    use std::os::unix::fs::DirBuilderExt;
    let nanos = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map_or(0, |d| d.subsec_nanos());
    let path = std::env::temp_dir().join(format!(
        "launchdir-render-{}-{}-{nanos:09}",
        std::process::id(),
        RENDERING.fetch_add(1, Ordering::Relaxed)
    ));
    std::fs::DirBuilder::new().mode(0o700).create(&path)?;
    Ok(path)
}

/// Whether this process runs as root (Linux: the effective uid in `/proc/self/status`).
fn running_as_root() -> bool {
    std::fs::read_to_string("/proc/self/status").is_ok_and(|status| {
        status.lines().find_map(|line| line.strip_prefix("Uid:")).and_then(|ids| ids.split_whitespace().nth(1)) == Some("0")
    })
}

/// The proxy of one rendering.
struct Proxy {
    fetcher: SafeFetcher,
    robots: Arc<RobotsCache>,
    tls: tokio_rustls::TlsAcceptor,
    budget: RenderBudget,
    requests: AtomicUsize,
    bytes: AtomicUsize,
    log: Mutex<Vec<(String, Passage)>>,
    deadline: tokio::time::Instant,
    /// The rendered page's origin: the browser may not navigate away from it.
    origin: String,
    /// A navigation was refused or failed, so the page shown is not the site's.
    lost_page: std::sync::atomic::AtomicBool,
}

/// The largest request head the browser may send.
const MAX_HEAD: usize = 32 * 1024;

impl Proxy {
    async fn serve(self: Arc<Self>, listener: TcpListener) {
        // Dropping the set (when the rendering ends) stops every connection.
        let mut connections = JoinSet::new();
        while let Ok((stream, peer)) = listener.accept().await {
            if !peer.ip().is_loopback() {
                continue;
            }
            connections.spawn(self.clone().connection(stream));
            while connections.try_join_next().is_some() {}
        }
    }

    async fn connection(self: Arc<Self>, mut stream: TcpStream) {
        let Some(head) = read_head(&mut stream).await else { return };
        if head.method == "CONNECT" {
            // `host:port`: answer, end the TLS ourselves, then read the one request inside.
            if stream.write_all(b"HTTP/1.1 200 Connection Established\r\n\r\n").await.is_err() {
                return;
            }
            let Ok(mut tls) = self.tls.accept(stream).await else { return };
            let Some(inner) = read_head(&mut tls).await else { return };
            let authority = head.target.strip_suffix(":443").unwrap_or(&head.target);
            // Inside a tunnel a request names a path; anything else is no web address.
            let url = if inner.target.starts_with('/') { format!("https://{authority}{}", inner.target) } else { String::new() };
            self.answer(&mut tls, &inner, &url).await;
            let _ = tls.shutdown().await;
        } else {
            // A plain-HTTP proxy request names the whole address.
            let target = head.target.clone();
            self.answer(&mut stream, &head, &target).await;
            let _ = stream.shutdown().await;
        }
    }

    fn note(&self, url: &str, passage: Passage) {
        let mut log = self.log.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
        if log.len() < MAX_LOGGED {
            log.push((url.chars().take(300).collect(), passage));
        }
    }

    async fn answer<S: AsyncWrite + Unpin>(&self, out: &mut S, head: &RequestHead, address: &str) {
        let method = head.method.as_str();
        let (status, content_type, body, location) = self.fetch(head, address).await;
        if head.navigates() && !(status.starts_with('2') || status.starts_with('3')) {
            // The browser now shows our refusal or an error, not the site: the rendering fails.
            self.lost_page.store(true, Ordering::Relaxed);
        }
        let mut head = format!("HTTP/1.1 {status}\r\nContent-Length: {}\r\nConnection: close\r\n", body.len());
        if let Some(content_type) = content_type {
            head.push_str(&format!("Content-Type: {content_type}\r\n"));
        }
        if let Some(location) = location {
            head.push_str(&format!("Location: {location}\r\n"));
        }
        head.push_str("\r\n");
        let _ = out.write_all(head.as_bytes()).await;
        if method != "HEAD" {
            let _ = out.write_all(&body).await;
        }
        let _ = out.flush().await;
    }

    /// The answer to one request: status line text, content type, body, redirect target.
    async fn fetch(&self, head: &RequestHead, address: &str) -> (String, Option<String>, Vec<u8>, Option<String>) {
        let refuse = |code: &str, why: &str| (code.to_owned(), Some("text/plain".to_owned()), why.as_bytes().to_vec(), None);
        // Every request counts, refused ones too.
        if self.requests.fetch_add(1, Ordering::Relaxed) >= self.budget.requests {
            self.note(address, Passage::OverBudget);
            return refuse("429 Too Many Requests", "over the rendering's budget");
        }
        let method = head.method.as_str();
        if method != "GET" && method != "HEAD" {
            self.note(address, Passage::Refused(format!("{method} is not fetched")));
            return refuse("405 Method Not Allowed", "only GET and HEAD");
        }
        let Ok(url) = WebUrl::parse(address) else {
            self.note(address, Passage::Refused("not a web address".into()));
            return refuse("400 Bad Request", "not a web address");
        };
        // The page may load from anywhere the checks allow, but not become another site's page.
        if head.navigates() && url.origin() != self.origin {
            self.note(address, Passage::Refused("navigation away from the site".into()));
            return refuse("403 Forbidden", "navigation away from the site");
        }
        match self.robots.allowed(&url).await {
            Ok(true) => {}
            Ok(false) => {
                self.note(address, Passage::Disallowed);
                return refuse("403 Forbidden", "robots.txt does not allow it");
            }
            Err(FetchError::Blocked(why)) => {
                self.note(address, Passage::Blocked(why));
                return refuse("403 Forbidden", "a blocked address");
            }
            Err(err) => {
                self.note(address, Passage::Failed(err.to_string()));
                return refuse("502 Bad Gateway", "robots.txt could not be read");
            }
        }
        let left = self.budget.bytes.saturating_sub(self.bytes.load(Ordering::Relaxed));
        match self.fetcher.get_hop(&url, left.min(crate::reader::MAX_PAGE_BYTES), self.deadline).await {
            Ok(Hop::Redirect(next)) => {
                self.note(address, Passage::Fetched);
                ("302 Found".to_owned(), None, Vec::new(), Some(next.to_string()))
            }
            Ok(Hop::Arrived(fetched)) => {
                // Counted as it arrives; past the budget, nothing more is handed over.
                if self.bytes.fetch_add(fetched.body.len(), Ordering::Relaxed) + fetched.body.len() > self.budget.bytes {
                    self.note(address, Passage::OverBudget);
                    return refuse("502 Bad Gateway", "over the rendering's budget");
                }
                self.note(address, Passage::Fetched);
                let content_type = (!fetched.media_type.is_empty()).then(|| match &fetched.charset {
                    Some(charset) => format!("{}; charset={charset}", fetched.media_type),
                    None => fetched.media_type.clone(),
                });
                let status = format!("{} {}", fetched.status.as_u16(), fetched.status.canonical_reason().unwrap_or("Status"));
                (status, content_type, fetched.body, None)
            }
            Err(FetchError::Blocked(why)) => {
                self.note(address, Passage::Blocked(why));
                refuse("403 Forbidden", "a blocked address")
            }
            Err(FetchError::TooLarge(_)) => {
                self.note(address, Passage::OverBudget);
                refuse("502 Bad Gateway", "larger than the rendering's budget")
            }
            Err(err) => {
                self.note(address, Passage::Failed(err.to_string()));
                refuse("502 Bad Gateway", "could not be fetched")
            }
        }
    }
}

/// The first line and the headers of a request that matter here.
#[derive(Debug, Clone, PartialEq, Eq)]
struct RequestHead {
    method: String,
    target: String,
    /// `Sec-Fetch-Mode`, lower-cased.
    fetch_mode: String,
    /// `Upgrade-Insecure-Requests: 1`.
    upgrade_insecure: bool,
}

impl RequestHead {
    /// A navigation (of the page, or of a frame in it). Chromium sends `Sec-Fetch-*` only to
    /// secure origins; to a plain-HTTP one a navigation shows by `Upgrade-Insecure-Requests`,
    /// which only navigations carry.
    fn navigates(&self) -> bool {
        if self.fetch_mode.is_empty() { self.upgrade_insecure } else { self.fetch_mode == "navigate" }
    }
}

/// Reads a request head; `None` for anything else.
async fn read_head<S: AsyncRead + Unpin>(stream: &mut S) -> Option<RequestHead> {
    let mut head = Vec::with_capacity(1024);
    let mut byte = [0u8; 1024];
    while !head.windows(4).any(|window| window == b"\r\n\r\n") {
        let read = stream.read(&mut byte).await.ok()?;
        if read == 0 || head.len() + read > MAX_HEAD {
            return None;
        }
        head.extend_from_slice(&byte[..read]);
    }
    let text = String::from_utf8_lossy(&head);
    let mut first = text.lines().next()?.split_whitespace();
    let (method, target) = (first.next()?.to_owned(), first.next()?.to_owned());
    let header = |name: &str| {
        text.lines()
            .skip(1)
            .find_map(|line| {
                line.split_once(':').filter(|(key, _)| key.trim().eq_ignore_ascii_case(name)).map(|(_, v)| v.trim().to_lowercase())
            })
            .unwrap_or_default()
    };
    Some(RequestHead { method, target, fetch_mode: header("sec-fetch-mode"), upgrade_insecure: header("upgrade-insecure-requests") == "1" })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn a_request_head_gives_its_method_and_target() {
        let mut head: &[u8] = b"GET http://a.example/x HTTP/1.1\r\nHost: a.example\r\nSec-Fetch-Mode: Navigate\r\n\r\n";
        let read = read_head(&mut head).await.unwrap();
        assert_eq!((read.method.as_str(), read.target.as_str()), ("GET", "http://a.example/x"));
        assert!(read.navigates());
        let mut insecure: &[u8] = b"GET http://a.example/ HTTP/1.1\r\nupgrade-insecure-requests: 1\r\n\r\n";
        assert!(read_head(&mut insecure).await.unwrap().navigates());
        let mut script: &[u8] = b"GET http://a.example/app.js HTTP/1.1\r\nAccept: */*\r\n\r\n";
        assert!(!read_head(&mut script).await.unwrap().navigates());
        let mut cut: &[u8] = b"GET / HTTP/1.1\r\nHost: a";
        assert_eq!(read_head(&mut cut).await, None);
    }
}
