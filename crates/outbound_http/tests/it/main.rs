//! The safe fetcher, robots.txt and the site reader against servers on loopback.

use drafts::{ReadFailure, SiteReader};
use outbound_http::testing::{FixtureServer, Route};
use outbound_http::{AddressPolicy, CrawlingSiteReader, FetchError, FetcherConfig, SafeFetcher};
use std::collections::HashMap;
use std::path::PathBuf;

fn fetcher(policy: AddressPolicy) -> SafeFetcher {
    SafeFetcher::new(FetcherConfig::new(outbound_http::user_agent("https://launch.example"), policy)).unwrap()
}

fn testing_policy() -> AddressPolicy {
    AddressPolicy { allow_private_networks: true, trusted: vec![] }
}

fn site(name: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../tests/fixtures/sites").join(name)
}

async fn server(routes: &[(&str, Route)]) -> FixtureServer {
    FixtureServer::start(routes.iter().map(|(path, route)| ((*path).to_owned(), route.clone())).collect::<HashMap<_, _>>()).await
}

#[tokio::test]
async fn the_production_default_refuses_private_and_reserved_addresses() {
    let fixture = server(&[("/", Route::new(200, "text/html", "<title>x</title>"))]).await;
    let port = fixture.addr().port();
    let production = fetcher(AddressPolicy::production());
    for url in [
        format!("http://127.0.0.1:{port}/"),
        "http://10.0.0.1/".to_owned(),
        "http://169.254.169.254/latest/meta-data/".to_owned(),
        format!("http://[::1]:{port}/"),
        format!("http://[::ffff:127.0.0.1]:{port}/"),
        // A name that resolves to a private address is refused inside the resolver.
        format!("http://localhost:{port}/"),
    ] {
        let err = production.get(&kernel::WebUrl::parse(&url).unwrap(), 1024).await.unwrap_err();
        assert!(matches!(err, FetchError::Blocked(_)), "{url}: {err:?}");
    }
    assert!(fixture.received().is_empty(), "nothing reached the server");
}

#[tokio::test]
async fn a_redirect_to_a_private_address_is_refused() {
    let target = server(&[("/secret", Route::new(200, "text/plain", "secret"))]).await;
    let start = server(&[
        ("/", Route::redirect(&format!("http://127.0.0.1:{}/secret", target.addr().port()))),
        ("/meta", Route::redirect("http://169.254.169.254/latest/meta-data/")),
        ("/named", Route::redirect(&format!("http://localhost:{}/secret", target.addr().port()))),
    ])
    .await;
    // Production rules, except that the first server is trusted so the redirect can be seen.
    let production = fetcher(AddressPolicy { allow_private_networks: false, trusted: vec![start.addr()] });
    for path in ["/", "/named"] {
        let err = production.get(&start.web_url(path), 1024).await.unwrap_err();
        assert!(matches!(err, FetchError::Blocked(_)), "{path}: {err:?}");
    }
    // Cloud metadata stays refused even where private networks are allowed.
    let err = fetcher(testing_policy()).get(&start.web_url("/meta"), 1024).await.unwrap_err();
    assert!(matches!(err, FetchError::Blocked(_)), "{err:?}");
    assert!(target.received().is_empty());
}

#[tokio::test]
async fn redirects_are_followed_at_most_five_times() {
    let mut routes = Vec::new();
    for hop in 0..7 {
        routes.push((format!("/r{hop}"), Route::redirect(&format!("/r{}", hop + 1))));
    }
    routes.push(("/r7".to_owned(), Route::new(200, "text/html", "end")));
    let routes: Vec<(&str, Route)> = routes.iter().map(|(p, r)| (p.as_str(), r.clone())).collect();
    let fixture = server(&routes).await;
    let fetcher = fetcher(testing_policy());
    assert_eq!(fetcher.get(&fixture.web_url("/r2"), 1024).await.unwrap().body, b"end");
    assert_eq!(fetcher.get(&fixture.web_url("/r0"), 1024).await.unwrap_err(), FetchError::TooManyRedirects);
}

#[tokio::test]
async fn bodies_are_capped_and_decoded() {
    let big = vec![b'a'; 3 * 1024 * 1024];
    let latin = "<p>Gr\u{fc}\u{df}e aus M\u{fc}nchen</p>".chars().map(|c| c as u8).collect::<Vec<u8>>();
    let fixture = server(&[
        ("/big", Route::new(200, "text/html", big)),
        ("/latin", Route::new(200, "text/html; charset=iso-8859-1", latin.clone())),
        ("/sniffed", Route::new(200, "text/html", [b"<meta charset=\"windows-1252\">".to_vec(), latin].concat())),
    ])
    .await;
    let fetcher = fetcher(testing_policy());
    assert_eq!(fetcher.get(&fixture.web_url("/big"), 2 * 1024 * 1024).await.unwrap_err(), FetchError::TooLarge(2 * 1024 * 1024));
    assert!(fetcher.get(&fixture.web_url("/latin"), 1024).await.unwrap().text().contains("Grüße aus München"));
    assert!(fetcher.get(&fixture.web_url("/sniffed"), 1024).await.unwrap().text().contains("Grüße aus München"));
}

#[tokio::test]
async fn robots_answers_decide_what_is_read() {
    let reader = |fixture: &FixtureServer| {
        let _ = fixture;
        CrawlingSiteReader::new(fetcher(testing_policy()), outbound_http::BOT_TOKEN)
    };
    // 5xx: robots.txt is unreachable (RFC 9309 2.3.1.4), so nothing is read in this attempt,
    // and the draft says the site could not be reached rather than that it refused us.
    let failing =
        server(&[("/robots.txt", Route::new(503, "text/plain", "down")), ("/", Route::new(200, "text/html", "<title>A</title>"))]).await;
    let failure = reader(&failing).read(&failing.web_url("/"), 10).await.unwrap_err();
    assert!(matches!(&failure, ReadFailure::Unreachable(why) if why.contains("robots.txt") && why.contains("503")), "{failure:?}");
    assert!(!failing.requested_paths().contains(&"/".to_owned()));
    // The site is back: a new crawl by the same reader (a person submitting again a moment
    // later) asks robots.txt again instead of failing from the remembered outage.
    let same_reader = reader(&failing);
    assert!(matches!(same_reader.read(&failing.web_url("/"), 10).await, Err(ReadFailure::Unreachable(_))));
    failing.set_route("/robots.txt", Route::new(404, "text/plain", ""));
    let snapshot = same_reader.read(&failing.web_url("/"), 10).await.unwrap();
    assert_eq!(snapshot.pages[0].title.as_deref(), Some("A"));
    // 4xx: everything is allowed.
    let missing = server(&[("/", Route::new(200, "text/html", "<title>B</title>"))]).await;
    let snapshot = reader(&missing).read(&missing.web_url("/"), 10).await.unwrap();
    assert_eq!(snapshot.pages[0].title.as_deref(), Some("B"));
    // Not HTML.
    let pdf = server(&[("/", Route::new(200, "application/pdf", "%PDF"))]).await;
    assert!(matches!(reader(&pdf).read(&pdf.web_url("/"), 10).await.unwrap_err(), ReadFailure::NotHtml(_)));
    // An error page.
    let gone = server(&[("/", Route::new(500, "text/html", "oops")), ("/robots.txt", Route::new(404, "text/plain", ""))]).await;
    assert!(matches!(reader(&gone).read(&gone.web_url("/"), 10).await.unwrap_err(), ReadFailure::Unreachable(_)));
    // Our user agent names the bot and links to its page.
    let ua = fetcher(testing_policy()).user_agent().to_owned();
    assert!(ua.starts_with("LaunchdirBot/") && ua.contains("(+https://launch.example/bot)"), "{ua}");
}

#[tokio::test]
async fn robots_disallowed_pages_are_never_fetched() {
    let fixture = FixtureServer::site(&site("robots-private")).await;
    let reader = CrawlingSiteReader::new(fetcher(testing_policy()), outbound_http::BOT_TOKEN);
    let snapshot = reader.read(&fixture.web_url("/"), 10).await.unwrap();
    let paths = fixture.requested_paths();
    assert!(paths.contains(&"/pricing".to_owned()), "{paths:?}");
    assert!(!paths.iter().any(|p| p.starts_with("/private")), "{paths:?}");
    assert_eq!(snapshot.skipped.len(), 2, "{:?}", snapshot.skipped);
    assert!(!serde_json::to_string(&snapshot).unwrap().contains("PLANTED"));
    // robots.txt was read once for the whole site.
    assert_eq!(paths.iter().filter(|p| *p == "/robots.txt").count(), 1);

    let everything = FixtureServer::site(&site("disallow-all")).await;
    assert_eq!(reader.read(&everything.web_url("/"), 10).await.unwrap_err(), ReadFailure::RobotsDisallowed);
    assert_eq!(everything.requested_paths(), ["/robots.txt"]);
}

#[tokio::test]
async fn the_reader_reads_informative_pages_of_a_site() {
    let fixture = FixtureServer::site(&site("saas")).await;
    let reader = CrawlingSiteReader::new(fetcher(testing_policy()), outbound_http::BOT_TOKEN);
    let snapshot = reader.read(&fixture.web_url("/"), 10).await.unwrap();
    let paths: Vec<String> = snapshot.pages.iter().map(|p| p.url.trim_start_matches(&fixture.url("")).to_owned()).collect();
    assert_eq!(paths, ["/", "/pricing", "/about", "/features", "/faq"]);
    // The blog is asked for last, after every page named for a topic: a small site's post is
    // often where its maker says who started it and when (issue 48's prose corpus). This one is
    // missing, and a missing page is left out.
    assert_eq!(fixture.requested_paths().iter().filter(|path| *path == "/blog").count(), 1);
    let home = &snapshot.pages[0];
    assert!(home.blocks.iter().all(|b| !b.text.contains("Founded in 1990")), "scripts are not text");
    assert_eq!(home.json_ld.len(), 2);

    let redirect = FixtureServer::site(&site("redirect-private")).await;
    assert!(matches!(reader.read(&redirect.web_url("/"), 10).await.unwrap_err(), ReadFailure::BlockedAddress(_)));
}

#[tokio::test]
async fn client_metadata_documents_are_read_once_while_fresh() {
    use accounts::oauth::ClientMetadataSource;
    let document = |cache: &str| {
        let mut route = Route::new(200, "application/json", r#"{"client_id": "x", "redirect_uris": []}"#);
        route.headers.push(("Cache-Control".into(), cache.into()));
        route
    };
    let fixture = server(&[
        ("/cached.json", document("max-age=60")),
        ("/uncached.json", document("no-store")),
        ("/missing.json", Route::new(404, "text/plain", "gone")),
    ])
    .await;
    let source = outbound_http::ClientMetadataFetcher::new(fetcher(testing_policy()));
    for path in ["/cached.json", "/uncached.json", "/missing.json"] {
        for _ in 0..3 {
            let _ = source.fetch(&fixture.web_url(path)).await;
        }
    }
    let asked = |path: &str| fixture.requested_paths().iter().filter(|p| *p == path).count();
    assert_eq!(asked("/cached.json"), 1, "fresh for a minute");
    assert_eq!(asked("/uncached.json"), 3, "no-store is never reused");
    assert_eq!(asked("/missing.json"), 1, "a failure is remembered for a moment too");
}

/// Debian's Chromium, which `.ci/run` installs for the browser tests.
fn browser() -> PathBuf {
    outbound_http::ChromiumRenderer::find_browser().expect("these tests need Chromium on PATH (apt-get install chromium; .ci/run does)")
}

#[tokio::test]
async fn a_site_that_needs_javascript_is_read_as_a_browser_shows_it() {
    let fixture = FixtureServer::site(&site("js-only")).await;
    let home = fixture.url("/");
    // Without a browser: read as served, and said to need JavaScript.
    let served =
        CrawlingSiteReader::new(fetcher(testing_policy()), outbound_http::BOT_TOKEN).read(&fixture.web_url("/"), 10).await.unwrap();
    assert_eq!(served.needs_javascript, std::slice::from_ref(&home));
    assert!(served.rendered.is_empty() && served.pages[0].blocks.is_empty(), "{:?}", served.pages[0].blocks);
    // With one: the page after its scripts ran, the data they fetched included.
    let mut reader = CrawlingSiteReader::new(fetcher(testing_policy()), outbound_http::BOT_TOKEN);
    reader.use_browser(browser()).unwrap();
    let snapshot = reader.read(&fixture.web_url("/"), 10).await.unwrap();
    assert_eq!(snapshot.rendered, [home]);
    assert!(snapshot.needs_javascript.is_empty());
    let texts: Vec<&str> = snapshot.pages[0].blocks.iter().map(|b| b.text.as_str()).collect();
    assert!(texts.contains(&"Invoices that chase themselves"), "{texts:?}");
    assert!(texts.contains(&"Billwise was founded in 2021 by Ana Costa, a freelance designer tired of chasing clients."), "{texts:?}");
    let paths = fixture.requested_paths();
    assert!(paths.contains(&"/app.js".to_owned()) && paths.contains(&"/company.json".to_owned()), "{paths:?}");
}

/// A rendered page's scripts go through the same checks as the crawler: a private address, a
/// cloud metadata address and a path robots.txt disallows are never reached.
#[tokio::test]
async fn a_rendered_pages_scripts_reach_nothing_the_crawler_would_not() {
    use outbound_http::render::Passage;
    let secret = server(&[("/secret", Route::new(200, "text/plain", "PLANTED secret"))]).await;
    let page = format!(
        r#"<!doctype html><html><head><title>Trapdoor</title></head><body><div id="out"></div><script>
        var out = document.getElementById("out");
        function show(what, text) {{ var p = document.createElement("p"); p.textContent = what + ": " + text; out.appendChild(p); }}
        fetch("{secret}").then(function (r) {{ return r.text(); }}).then(function (t) {{ show("private", t); }}, function () {{ show("private", "refused"); }});
        fetch("/private/data.json").then(function (r) {{ return r.text(); }}).then(function (t) {{ show("disallowed", t); }}, function () {{ show("disallowed", "refused"); }});
        fetch("/open.json").then(function (r) {{ return r.text(); }}).then(function (t) {{ show("open", t); }});
        var image = new Image(); image.src = "http://169.254.169.254/latest/meta-data/";
        fetch("https://10.1.2.3/tunnelled?x=1").catch(function () {{}});
        </script></body></html>"#,
        secret = secret.url("/secret")
    );
    let site = server(&[
        ("/", Route::new(200, "text/html", page)),
        ("/robots.txt", Route::new(200, "text/plain", "User-agent: *\nDisallow: /private\n")),
        ("/private/data.json", Route::new(200, "application/json", "\"PLANTED disallowed\"")),
        ("/open.json", Route::new(200, "application/json", "\"fine\"")),
    ])
    .await;
    // Production rules, but for the one fixture site on loopback.
    let fetcher = fetcher(AddressPolicy { allow_private_networks: false, trusted: vec![site.addr()] });
    let robots = std::sync::Arc::new(outbound_http::RobotsCache::new(fetcher.clone(), outbound_http::BOT_TOKEN));
    let renderer = outbound_http::ChromiumRenderer::new(browser(), fetcher, robots).unwrap();
    let rendered = renderer.render(&site.web_url("/")).await.unwrap();
    assert!(rendered.html.contains("open: \"fine\""), "{}", rendered.html);
    assert!(!rendered.html.contains("PLANTED"), "{}", rendered.html);
    assert!(secret.received().is_empty(), "the private address was reached");
    assert!(!site.requested_paths().iter().any(|p| p.starts_with("/private")), "{:?}", site.requested_paths());
    let passage = |url: &str| rendered.requests.iter().find(|(asked, _)| asked.starts_with(url)).map(|(_, passage)| passage.clone());
    assert!(matches!(passage(&secret.url("/secret")), Some(Passage::Blocked(_))), "{:#?}", rendered.requests);
    assert_eq!(passage(&site.url("/private/data.json")), Some(Passage::Disallowed), "{:#?}", rendered.requests);
    assert!(matches!(passage("http://169.254.169.254/"), Some(Passage::Blocked(_))), "{:#?}", rendered.requests);
    assert_eq!(passage(&site.url("/open.json")), Some(Passage::Fetched));
    // HTTPS comes as a tunnel; the proxy ends it and sees the whole address.
    assert!(matches!(passage("https://10.1.2.3/tunnelled?x=1"), Some(Passage::Blocked(_))), "{:#?}", rendered.requests);

    // A page that goes to another site is not read as this site's: the navigation is refused and
    // the rendering fails (the page is then read as served).
    let leaving = server(&[
        (
            "/",
            Route::new(200, "text/html", r#"<title>Away</title><script>location.href = "http://elsewhere.example/their-page";</script>"#),
        ),
        ("/robots.txt", Route::new(404, "text/plain", "")),
    ])
    .await;
    let fetcher = self::fetcher(AddressPolicy { allow_private_networks: false, trusted: vec![leaving.addr()] });
    let robots = std::sync::Arc::new(outbound_http::RobotsCache::new(fetcher.clone(), outbound_http::BOT_TOKEN));
    let renderer = outbound_http::ChromiumRenderer::new(browser(), fetcher, robots).unwrap();
    assert_eq!(renderer.render(&leaving.web_url("/")).await.unwrap_err(), outbound_http::render::RenderFailure::LostPage);
}

/// What the test saw of one browser's network namespace while it ran: its interfaces, the TCP
/// connections in it (local and remote `ip:port`, in `/proc/net/tcp`'s hexadecimal), and the
/// proxy port its browser was told.
#[derive(Debug, Default)]
struct BrowserNetwork {
    interfaces: std::collections::BTreeSet<String>,
    connections: std::collections::BTreeSet<(String, String)>,
    proxy_ports: std::collections::BTreeSet<u16>,
}

/// Looks at every process this test binary's renderers started (their profile directory names
/// this process; other tests render at the same time) and notes, per network namespace, where
/// their sockets can go.
fn look_at_browsers(seen: &mut std::collections::BTreeMap<String, BrowserNetwork>) {
    let ours = format!("launchdir-render-{}-", std::process::id());
    let Ok(processes) = std::fs::read_dir("/proc") else { return };
    for process in processes.flatten() {
        let dir = process.path();
        let Ok(cmdline) = std::fs::read(dir.join("cmdline")) else { continue };
        let cmdline = String::from_utf8_lossy(&cmdline).replace('\0', " ");
        if !cmdline.contains(&ours) {
            continue;
        }
        let Ok(namespace) = std::fs::read_link(dir.join("ns/net")) else { continue };
        let network = seen.entry(namespace.display().to_string()).or_default();
        if let Some(port) = cmdline.split("--proxy-server=http://127.0.0.1:").nth(1).and_then(|rest| rest.split(' ').next()) {
            network.proxy_ports.extend(port.parse::<u16>().ok());
        }
        if let Ok(dev) = std::fs::read_to_string(dir.join("net/dev")) {
            network.interfaces.extend(dev.lines().skip(2).filter_map(|line| line.split(':').next()).map(|name| name.trim().to_owned()));
        }
        for table in ["net/tcp", "net/tcp6"] {
            let Ok(sockets) = std::fs::read_to_string(dir.join(table)) else { continue };
            for line in sockets.lines().skip(1) {
                let fields: Vec<&str> = line.split_whitespace().collect();
                // State 0A is LISTEN: no peer.
                if fields.len() > 3 && fields[3] != "0A" {
                    network.connections.insert((fields[1].to_owned(), fields[2].to_owned()));
                }
            }
        }
    }
}

/// WebRTC cannot go around the proxy: a page that opens a peer connection with a STUN server
/// and an injected ICE candidate on a loopback address (and a private one) sends nothing
/// there, because the browser runs in a network namespace whose only interface is its own
/// loopback and whose only listener is the proxy; the rendering still completes.
#[tokio::test]
async fn webrtc_reaches_no_address_and_the_browser_reaches_only_the_proxy() {
    let listener = tokio::net::UdpSocket::bind("127.0.0.5:0").await.expect("127.0.0.5 is on the host's loopback");
    let udp = listener.local_addr().unwrap();
    let page = format!(
        r#"<!doctype html><html><head><title>Peer</title></head><body><p id="out">waiting</p><script>
        var out = document.getElementById("out");
        try {{
          var pc = new RTCPeerConnection({{ iceServers: [{{ urls: "stun:{udp}" }}, {{ urls: "stun:10.9.8.7:3478" }}, {{ urls: "stun:169.254.169.254:3478" }}] }});
          pc.createDataChannel("x");
          pc.createOffer().then(function (offer) {{ return pc.setLocalDescription(offer); }}).then(function () {{
            var sdp = pc.localDescription.sdp.replace(/a=setup:actpass/g, "a=setup:active")
              .replace(/a=ice-ufrag:\S+/, "a=ice-ufrag:PAGECHOSEN").replace(/a=ice-pwd:\S+/, "a=ice-pwd:pagechosenpasswordpagechosen");
            return pc.setRemoteDescription({{ type: "answer", sdp: sdp }});
          }}).then(function () {{
            return pc.addIceCandidate({{ candidate: "candidate:1 1 udp 2122260223 {ip} {port} typ host", sdpMid: "0", sdpMLineIndex: 0 }});
          }}).then(function () {{ out.textContent = "peer connection opened"; }}, function (e) {{ out.textContent = "peer connection refused: " + e; }});
        }} catch (e) {{ out.textContent = "no peer connection: " + e; }}
        </script></body></html>"#,
        ip = udp.ip(),
        port = udp.port()
    );
    let site = server(&[("/", Route::new(200, "text/html", page)), ("/robots.txt", Route::new(404, "text/plain", ""))]).await;
    let fetcher = fetcher(AddressPolicy { allow_private_networks: false, trusted: vec![site.addr()] });
    let robots = std::sync::Arc::new(outbound_http::RobotsCache::new(fetcher.clone(), outbound_http::BOT_TOKEN));
    let renderer = outbound_http::ChromiumRenderer::new(browser(), fetcher, robots).expect("the tests run where browsers can be enclosed");

    let watching = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(true));
    let watcher = {
        let watching = watching.clone();
        tokio::task::spawn_blocking(move || {
            let mut seen = std::collections::BTreeMap::new();
            while watching.load(std::sync::atomic::Ordering::Relaxed) {
                look_at_browsers(&mut seen);
                std::thread::sleep(std::time::Duration::from_millis(20));
            }
            seen
        })
    };
    let rendered = renderer.render(&site.web_url("/")).await;
    // ICE checks go on for a while: listen a little longer than the browser lived.
    let mut packet = [0u8; 2048];
    let received = tokio::time::timeout(std::time::Duration::from_secs(2), listener.recv_from(&mut packet)).await;
    watching.store(false, std::sync::atomic::Ordering::Relaxed);
    let seen = watcher.await.unwrap();

    let rendered = rendered.expect("the rendering completes");
    assert!(rendered.html.contains("peer connection opened"), "{}", rendered.html);
    assert!(received.is_err(), "the loopback listener received a packet from {:?}", received.map(|r| r.map(|(_, from)| from)));

    // The browsers' sockets: each in a namespace that is not this process's, with no interface
    // but its loopback, and every TCP connection in it to or from its own proxy's port.
    let ours = std::fs::read_link("/proc/self/ns/net").unwrap().display().to_string();
    assert!(!seen.is_empty(), "the browser was not seen running");
    assert!(!seen.contains_key(&ours), "a browser ran in this process's network namespace: {seen:?}");
    let mut proxied = 0;
    for (namespace, network) in &seen {
        assert_eq!(network.interfaces.iter().map(String::as_str).collect::<Vec<_>>(), ["lo"], "{namespace}: {network:?}");
        assert!(network.proxy_ports.len() <= 1, "one browser, told one proxy, per namespace: {namespace}: {network:?}");
        // (A namespace seen only through the browser's helper processes names no proxy.)
        let Some(port) = network.proxy_ports.first() else { continue };
        let proxy = format!("0100007F:{port:04X}");
        for (local, remote) in &network.connections {
            assert!(
                local == &proxy || remote == &proxy,
                "{namespace}: a socket {local} -> {remote} is not the proxy's ({proxy}): {network:?}"
            );
        }
        proxied += network.connections.len();
    }
    assert!(proxied > 0, "no browser was seen connected to its proxy: {seen:?}");
}
