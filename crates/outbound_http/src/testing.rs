//! `FixtureServer`: a small HTTP/1.1 server on loopback that serves fixture websites (or canned
//! answers) to tests, and records every request it received.

use std::collections::HashMap;
use std::net::SocketAddr;
use std::path::Path;
use std::sync::{Arc, Mutex};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpListener;

/// A canned answer.
#[derive(Debug, Clone)]
pub struct Route {
    pub status: u16,
    pub headers: Vec<(String, String)>,
    pub body: Vec<u8>,
}

impl Route {
    pub fn new(status: u16, content_type: &str, body: impl Into<Vec<u8>>) -> Self {
        Self { status, headers: vec![("Content-Type".into(), content_type.into())], body: body.into() }
    }

    /// Closes the connection without an answer (a network error to the client).
    pub fn hang_up() -> Self {
        Self { status: 0, headers: Vec::new(), body: Vec::new() }
    }

    pub fn redirect(to: &str) -> Self {
        Self { status: 302, headers: vec![("Location".into(), to.into())], body: Vec::new() }
    }
}

/// A request the server received.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Received {
    pub method: String,
    /// Path and query.
    pub target: String,
    /// Header names in lower case, with their values.
    pub headers: Vec<(String, String)>,
    pub body: String,
}

impl Received {
    /// The value of header `name` (case-insensitive).
    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers.iter().find(|(key, _)| key.eq_ignore_ascii_case(name)).map(|(_, value)| value.as_str())
    }
}

pub struct FixtureServer {
    addr: SocketAddr,
    received: Arc<Mutex<Vec<Received>>>,
    routes: Arc<Mutex<HashMap<String, Route>>>,
    /// `true` while answers are held back (`hold`), to see what a client shows meanwhile.
    held: Arc<tokio::sync::watch::Sender<bool>>,
    task: tokio::task::JoinHandle<()>,
}

impl Drop for FixtureServer {
    fn drop(&mut self) {
        self.task.abort();
    }
}

impl FixtureServer {
    /// Serves `routes` (path and query to answer, or the path alone for any query); anything
    /// else is a 404.
    pub async fn start(routes: HashMap<String, Route>) -> Self {
        let listener = TcpListener::bind("127.0.0.1:0").await.expect("bind a loopback port");
        let addr = listener.local_addr().expect("local address");
        let received = Arc::new(Mutex::new(Vec::new()));
        let routes = Arc::new(Mutex::new(routes));
        let served = routes.clone();
        let log = received.clone();
        let held = Arc::new(tokio::sync::watch::Sender::new(false));
        let gate = held.clone();
        let task = tokio::spawn(async move {
            while let Ok((mut stream, _)) = listener.accept().await {
                let routes = served.clone();
                let log = log.clone();
                let mut open = gate.subscribe();
                tokio::spawn(async move {
                    let Some(request) = read_request(&mut stream).await else { return };
                    // Held: the request waits (it is already read) until `release`.
                    let _ = open.wait_for(|held| !held).await;
                    // The exact path and query first, then the path alone (queries that vary).
                    let path = request.target.split('?').next().unwrap_or_default().to_owned();
                    let route = {
                        let routes = routes.lock().unwrap_or_else(|p| p.into_inner());
                        routes.get(&request.target).or_else(|| routes.get(&path)).cloned()
                    }
                    .unwrap_or_else(|| Route::new(404, "text/plain", "not found"));
                    log.lock().unwrap_or_else(|p| p.into_inner()).push(request);
                    if route.status == 0 {
                        let _ = stream.shutdown().await;
                        return;
                    }
                    let mut head =
                        format!("HTTP/1.1 {} Fixture\r\nContent-Length: {}\r\nConnection: close\r\n", route.status, route.body.len());
                    for (name, value) in &route.headers {
                        head.push_str(&format!("{name}: {value}\r\n"));
                    }
                    head.push_str("\r\n");
                    let _ = stream.write_all(head.as_bytes()).await;
                    let _ = stream.write_all(&route.body).await;
                    let _ = stream.shutdown().await;
                });
            }
        });
        Self { addr, received, routes, held, task }
    }

    /// Holds every answer back until `release`: a slow site, to see what a client shows while
    /// it waits.
    pub fn hold(&self) {
        self.held.send_replace(true);
    }

    pub fn release(&self) {
        self.held.send_replace(false);
    }

    /// Serves a fixture site from a directory: `index.html` at `/`, `name.html` at `/name`,
    /// other files at their own name. An optional `_site.txt` sets the HTML content type
    /// (`content-type: ...`) and redirects (`redirect /from -> target`).
    pub async fn site(dir: &Path) -> Self {
        let mut routes = HashMap::new();
        let mut html_type = "text/html; charset=utf-8".to_owned();
        let mut redirects = Vec::new();
        if let Ok(config) = std::fs::read_to_string(dir.join("_site.txt")) {
            for line in config.lines() {
                if let Some(value) = line.strip_prefix("content-type:") {
                    html_type = value.trim().to_owned();
                } else if let Some(rule) = line.strip_prefix("redirect ")
                    && let Some((from, to)) = rule.split_once("->")
                {
                    redirects.push((from.trim().to_owned(), to.trim().to_owned()));
                }
            }
        }
        let mut entries: Vec<_> = std::fs::read_dir(dir).expect("read the fixture site").flatten().collect();
        entries.sort_by_key(|entry| entry.file_name());
        for entry in entries {
            let name = entry.file_name().to_string_lossy().into_owned();
            if name.starts_with('_') {
                continue;
            }
            let body = std::fs::read(entry.path()).expect("read a fixture file");
            let (path, content_type) = match name.as_str() {
                "index.html" => ("/".to_owned(), html_type.clone()),
                html if html.ends_with(".html") => (format!("/{}", html.trim_end_matches(".html")), html_type.clone()),
                "robots.txt" => ("/robots.txt".to_owned(), "text/plain".to_owned()),
                other if other.ends_with(".json") => (format!("/{other}"), "application/json".to_owned()),
                other if other.ends_with(".png") => (format!("/{other}"), "image/png".to_owned()),
                other if other.ends_with(".js") => (format!("/{other}"), "text/javascript".to_owned()),
                other => (format!("/{other}"), "application/octet-stream".to_owned()),
            };
            routes.insert(path, Route::new(200, &content_type, body));
        }
        for (from, to) in redirects {
            routes.insert(from, Route::redirect(&to));
        }
        Self::start(routes).await
    }

    /// Serves `route` at `path` from now on (a site that changes between two visits).
    pub fn set_route(&self, path: &str, route: Route) {
        self.routes.lock().unwrap_or_else(|p| p.into_inner()).insert(path.to_owned(), route);
    }

    pub fn addr(&self) -> SocketAddr {
        self.addr
    }

    /// `http://127.0.0.1:<port><path>`.
    pub fn url(&self, path: &str) -> String {
        format!("http://{}{path}", self.addr)
    }

    /// The address of `path`, as the fetcher and the readers take it.
    pub fn web_url(&self, path: &str) -> kernel::WebUrl {
        kernel::WebUrl::parse(&self.url(path)).expect("a fixture address is a web address")
    }

    /// Every request received so far.
    pub fn received(&self) -> Vec<Received> {
        self.received.lock().unwrap_or_else(|p| p.into_inner()).clone()
    }

    /// Paths requested so far.
    pub fn requested_paths(&self) -> Vec<String> {
        self.received().into_iter().map(|r| r.target).collect()
    }
}

async fn read_request(stream: &mut tokio::net::TcpStream) -> Option<Received> {
    let mut data = Vec::new();
    let mut buffer = [0u8; 8192];
    let header_end = loop {
        let read = stream.read(&mut buffer).await.ok()?;
        if read == 0 {
            return None;
        }
        data.extend_from_slice(&buffer[..read]);
        if let Some(end) = data.windows(4).position(|w| w == b"\r\n\r\n") {
            break end + 4;
        }
        if data.len() > 1 << 20 {
            return None;
        }
    };
    let head = String::from_utf8_lossy(&data[..header_end]).into_owned();
    let mut lines = head.lines();
    let mut request_line = lines.next()?.split_whitespace();
    let method = request_line.next()?.to_owned();
    let target = request_line.next()?.to_owned();
    let headers: Vec<(String, String)> = lines
        .filter_map(|line| line.split_once(':'))
        .map(|(name, value)| (name.trim().to_ascii_lowercase(), value.trim().to_owned()))
        .collect();
    let length = headers.iter().find(|(name, _)| name == "content-length").and_then(|(_, value)| value.parse::<usize>().ok()).unwrap_or(0);
    while data.len() < header_end + length {
        let read = stream.read(&mut buffer).await.ok()?;
        if read == 0 {
            break;
        }
        data.extend_from_slice(&buffer[..read]);
    }
    let body = String::from_utf8_lossy(&data[header_end..]).into_owned();
    Some(Received { method, target, headers, body })
}
