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
    assert!(!fixture.requested_paths().contains(&"/blog".to_owned()), "the blog tells nothing about the product");
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
    let reader = CrawlingSiteReader::new(fetcher(testing_policy()), outbound_http::BOT_TOKEN).with_browser(browser()).unwrap();
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
