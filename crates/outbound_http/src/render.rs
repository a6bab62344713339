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
}

/// Renders pages in headless Chromium behind the checking proxy.
pub struct ChromiumRenderer {
    binary: PathBuf,
    fetcher: SafeFetcher,
    robots: Arc<RobotsCache>,
    tls: tokio_rustls::TlsAcceptor,
    budget: RenderBudget,
}

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

    /// A renderer with `binary`, fetching through `fetcher` as `robots` allows.
    pub fn new(binary: PathBuf, fetcher: SafeFetcher, robots: Arc<RobotsCache>) -> Result<Self, String> {
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
        Ok(Self { binary, fetcher, robots, tls, budget: RenderBudget::default() })
    }

    pub fn with_budget(mut self, budget: RenderBudget) -> Self {
        self.budget = budget;
        self
    }

    /// Renders `url`: starts the proxy and the browser, lets the page's scripts run, and reads
    /// back the DOM.
    pub async fn render(&self, url: &WebUrl) -> Result<Rendered, RenderFailure> {
        let listener = TcpListener::bind(("127.0.0.1", 0)).await.map_err(|err| RenderFailure::Start(err.to_string()))?;
        let port = listener.local_addr().map_err(|err| RenderFailure::Start(err.to_string()))?.port();
        let proxy = Arc::new(Proxy {
            fetcher: self.fetcher.clone(),
            robots: self.robots.clone(),
            tls: self.tls.clone(),
            budget: self.budget,
            requests: AtomicUsize::new(0),
            bytes: AtomicUsize::new(0),
            log: Mutex::new(Vec::new()),
            deadline: tokio::time::Instant::now() + self.budget.time,
        });
        let serving = tokio::spawn(proxy.clone().serve(listener));
        let profile =
            std::env::temp_dir().join(format!("launchdir-render-{}-{}", std::process::id(), RENDERING.fetch_add(1, Ordering::Relaxed)));
        let result = self.run_browser(url, port, &profile).await;
        serving.abort();
        let _ = std::fs::remove_dir_all(&profile);
        let requests = std::mem::take(&mut *proxy.log.lock().unwrap_or_else(|poisoned| poisoned.into_inner()));
        result.map(|html| Rendered { html, requests })
    }

    async fn run_browser(&self, url: &WebUrl, port: u16, profile: &Path) -> Result<String, RenderFailure> {
        let mut command = tokio::process::Command::new(&self.binary);
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
                "--force-webrtc-ip-handling-policy=disable_non_proxied_udp",
                // The proxy ends HTTPS with its own certificate and checks the real one itself.
                "--ignore-certificate-errors",
                &format!("--user-agent={}", self.fetcher.user_agent()),
                &format!("--user-data-dir={}", profile.display()),
                &format!("--virtual-time-budget={}", self.budget.script_time.as_millis()),
                "--dump-dom",
            ])
            .arg(url.as_str())
            .stdin(std::process::Stdio::null())
            .stdout(std::process::Stdio::piped())
            .stderr(std::process::Stdio::null())
            .kill_on_drop(true);
        if running_as_root() {
            // Chromium's sandbox refuses to run as root; the proxy still decides what it reaches.
            command.arg("--no-sandbox");
        }
        let mut child = command.spawn().map_err(|err| RenderFailure::Start(format!("{}: {err}", self.binary.display())))?;
        let Some(stdout) = child.stdout.take() else { return Err(RenderFailure::Start("no output".into())) };
        let limit = self.budget.bytes;
        let read = async move {
            let mut dom = Vec::new();
            stdout.take(limit as u64 + 1).read_to_end(&mut dom).await.map(|_| dom)
        };
        let dom = match tokio::time::timeout(self.budget.time, read).await {
            Err(_) => return Err(RenderFailure::Timeout(self.budget.time.as_secs())),
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
        let Some((method, target)) = read_head(&mut stream).await else { return };
        if method == "CONNECT" {
            // `host:port`: answer, end the TLS ourselves, then read the one request inside.
            if stream.write_all(b"HTTP/1.1 200 Connection Established\r\n\r\n").await.is_err() {
                return;
            }
            let Ok(mut tls) = self.tls.accept(stream).await else { return };
            let Some((method, path)) = read_head(&mut tls).await else { return };
            let authority = target.strip_suffix(":443").unwrap_or(&target);
            let url = format!("https://{authority}{path}");
            self.answer(&mut tls, &method, &url).await;
            let _ = tls.shutdown().await;
        } else {
            // A plain-HTTP proxy request names the whole address.
            self.answer(&mut stream, &method, &target).await;
            let _ = stream.shutdown().await;
        }
    }

    fn note(&self, url: &str, passage: Passage) {
        self.log.lock().unwrap_or_else(|poisoned| poisoned.into_inner()).push((url.to_owned(), passage));
    }

    async fn answer<S: AsyncWrite + Unpin>(&self, out: &mut S, method: &str, address: &str) {
        let (status, content_type, body, location) = self.fetch(method, address).await;
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
    async fn fetch(&self, method: &str, address: &str) -> (String, Option<String>, Vec<u8>, Option<String>) {
        let refuse = |code: &str, why: &str| (code.to_owned(), Some("text/plain".to_owned()), why.as_bytes().to_vec(), None);
        if method != "GET" && method != "HEAD" {
            self.note(address, Passage::Refused(format!("{method} is not fetched")));
            return refuse("405 Method Not Allowed", "only GET and HEAD");
        }
        let Ok(url) = WebUrl::parse(address) else {
            self.note(address, Passage::Refused("not a web address".into()));
            return refuse("400 Bad Request", "not a web address");
        };
        if self.requests.fetch_add(1, Ordering::Relaxed) >= self.budget.requests {
            self.note(address, Passage::OverBudget);
            return refuse("429 Too Many Requests", "over the rendering's budget");
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
                self.bytes.fetch_add(fetched.body.len(), Ordering::Relaxed);
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

/// Reads a request head and returns its method and target; `None` for anything else.
async fn read_head<S: AsyncRead + Unpin>(stream: &mut S) -> Option<(String, String)> {
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
    Some((method, target))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn a_request_head_gives_its_method_and_target() {
        let mut head: &[u8] = b"GET http://a.example/x HTTP/1.1\r\nHost: a.example\r\n\r\n";
        assert_eq!(read_head(&mut head).await, Some(("GET".into(), "http://a.example/x".into())));
        let mut cut: &[u8] = b"GET / HTTP/1.1\r\nHost: a";
        assert_eq!(read_head(&mut cut).await, None);
    }
}
