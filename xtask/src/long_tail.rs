//! The long tail: each public read and page loaded two ways in one run, one address over and over
//! (what the answer cache serves) and a different address on every request with the answer cache
//! off (a random listing, page or pair of words: what search engines, visitors and agents send),
//! each as a share of `/healthz` measured on the same server. wrk changes the address with a Lua
//! script the run writes, so the load generator stays the one the other tables use.

use crate::bench::{Server, median, start_server};
use crate::scale::{Backend, Cores, Wrk, seed, wrk_with};
use anyhow::Context;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};

/// The long tail's load: the issue's figures were taken at 32 connections from one wrk thread.
const CONNECTIONS: u32 = 32;
const LOAD_SECONDS: u32 = 8;
/// Pages of a list a visitor or a crawler reaches: 1 to this.
const DEEPEST_PAGE: u32 = 50;

/// Words the generated and demo listings use; a search asks for two of them.
const WORDS: &[&str] = &[
    "teams",
    "remote",
    "privacy",
    "busywork",
    "small",
    "minutes",
    "product",
    "benchmark",
    "notes",
    "invoices",
    "default",
    "days",
    "analytics",
    "email",
    "design",
    "tracking",
    "open",
    "source",
    "fictional",
    "directory",
];

/// Each read and page, its address with placeholders: `{listing}` and `{other}` a generated
/// listing, `{founder}` a generated founder, `{page}` a page from 1 to `DEEPEST_PAGE`, `{words}`
/// two words. One address over and over fills each with its first value.
pub const TAIL: &[(&str, &str)] = &[
    ("get_site_info", "/api/v1/site"),
    ("list_categories", "/api/v1/categories"),
    ("get_listing", "/api/v1/listings/{listing}"),
    ("get_badges", "/api/v1/listings/{listing}/badges"),
    ("get_alternatives", "/api/v1/listings/{listing}/alternatives"),
    ("compare_listings", "/api/v1/compare?a={listing}&b={other}"),
    ("search_listings (words)", "/api/v1/listings?q={words}"),
    ("search_listings (sort=votes, page)", "/api/v1/listings?sort=votes&page={page}"),
    ("search_listings (sort=newest, page)", "/api/v1/listings?sort=newest&page={page}"),
    ("search_listings (sort=trending, page)", "/api/v1/listings?sort=trending&page={page}"),
    ("get_category (page)", "/api/v1/categories/productivity?page={page}"),
    ("list_launches trending (page)", "/api/v1/launches?section=trending&page={page}"),
    ("list_launches most-voted (page)", "/api/v1/launches?section=most-voted&page={page}"),
    ("get_launch_week this", "/api/v1/launches/weeks/this"),
    ("get_launch_week last", "/api/v1/launches/weeks/last"),
    ("get_leaderboard community-all-time (page)", "/api/v1/leaderboards/community-all-time?page={page}"),
    ("get_leaderboard community-weekly (page)", "/api/v1/leaderboards/community-weekly?week=last&page={page}"),
    ("get_leaderboard domain-rating (page)", "/api/v1/leaderboards/domain-rating?page={page}"),
    ("list_awards", "/api/v1/awards"),
    ("list_founders (page)", "/api/v1/founders?page={page}"),
    ("get_founder", "/api/v1/founders/{founder}"),
    ("list_blog_posts", "/api/v1/blog"),
    ("page: home", "/"),
    ("page: listing", "/listings/{listing}"),
    ("page: category (page)", "/categories/productivity?page={page}"),
    ("page: search", "/search?q={words}"),
    ("page: launches trending (page)", "/launches?section=trending&page={page}"),
    ("page: leaderboard (page)", "/leaderboards/community-all-time?page={page}"),
    ("page: founders (page)", "/founders?page={page}"),
    ("page: founder", "/founders/{founder}"),
    ("media: a logo, 128 px", "/media/{logo}"),
    // Each listing's card is drawn on its first request, then served kept: changing listings
    // measure the drawing.
    ("media: a listing's social card", "/cards/listings/{listing}.png"),
];

/// The Lua statements that give each placeholder a new value for every request: a random
/// generated listing (`other` always a different one), founder, page, or two words.
fn changing_values(bulk: usize) -> String {
    let listings = bulk.max(2);
    let founders = (bulk / 2).max(1);
    format!(
        "local n = math.random(0, {last})\n  \
         local listing = \"bulk-\" .. n\n  \
         local other = \"bulk-\" .. ((n + math.random(1, {last})) % {listings})\n  \
         local founder = \"bulk-founder-\" .. math.random(0, {last_founder})\n  \
         local page = math.random(1, {DEEPEST_PAGE})\n  \
         local words = pick() .. \"%20\" .. pick()\n  \
         local logo = logos[math.random(#logos)]\n",
        last = listings - 1,
        last_founder = founders - 1,
    )
}

/// The placeholders `changing_values` gives values to (`logo` from the seed's list of drawn
/// logos, `bulk-logos.txt` in the data directory).
const PLACEHOLDERS: &[&str] = &["listing", "other", "founder", "page", "words", "logo"];

/// The value a placeholder keeps when one address is loaded over and over.
fn fixed<'a>(placeholder: &str, logos: &'a [String]) -> &'a str {
    match placeholder {
        "listing" => "bulk-1",
        "other" => "bulk-2",
        "founder" => "bulk-founder-1",
        "page" => "1",
        "logo" => logos.first().map_or("none", String::as_str),
        _ => "remote%20teams",
    }
}

/// The template split at its placeholders: text, then placeholder names and text in turn.
fn parts(template: &str) -> Vec<(bool, &str)> {
    let mut parts = Vec::new();
    let mut rest = template;
    while let Some(open) = rest.find('{') {
        let close = rest[open..].find('}').map_or(rest.len(), |end| open + end);
        parts.push((false, &rest[..open]));
        parts.push((true, &rest[open + 1..close]));
        rest = rest.get(close + 1..).unwrap_or_default();
    }
    parts.push((false, rest));
    parts
}

/// The address with every placeholder at its first value.
pub fn one_address(template: &str, logos: &[String]) -> String {
    parts(template).into_iter().map(|(placeholder, text)| if placeholder { fixed(text, logos) } else { text }).collect()
}

/// A wrk script that asks for a different address on every request.
fn script(template: &str, bulk: usize, logos: &[String]) -> anyhow::Result<String> {
    let mut path = Vec::new();
    for (placeholder, text) in parts(template) {
        match placeholder {
            true if PLACEHOLDERS.contains(&text) => path.push(text.to_owned()),
            true => anyhow::bail!("unknown placeholder {{{text}}}"),
            false if text.is_empty() => {}
            false => path.push(format!("{text:?}")),
        }
    }
    let words: Vec<String> = WORDS.iter().map(|word| format!("{word:?}")).collect();
    let mut lua = String::new();
    writeln!(lua, "math.randomseed(os.time())")?;
    writeln!(lua, "local vocabulary = {{{}}}", words.join(", "))?;
    writeln!(lua, "local function pick() return vocabulary[math.random(#vocabulary)] end")?;
    let logos: Vec<String> = logos.iter().map(|logo| format!("{logo:?}")).collect();
    writeln!(lua, "local logos = {{{}}}", if logos.is_empty() { "\"none\"".to_owned() } else { logos.join(", ") })?;
    writeln!(lua, "request = function()")?;
    write!(lua, "  {}", changing_values(bulk))?;
    writeln!(lua, "  return wrk.format(nil, {})", path.join(" .. "))?;
    writeln!(lua, "end")?;
    Ok(lua)
}

/// One long-tail figure: one address with the cache on, changing addresses with it off.
struct Figure {
    one_address: Option<Wrk>,
    changing: Option<Wrk>,
}

/// Where the long tail is measured: which build, over which data.
pub struct Run<'a> {
    pub binary: &'a Path,
    pub scratch: &'a Path,
    pub bulk: usize,
    pub cores: &'a Cores,
}

/// Seeds (unless `data_dir` already holds a seeded directory of this size) and measures the
/// long tail on `backend`; prints its table.
pub fn measure(run: &Run<'_>, backend: &Backend, data_dir: Option<PathBuf>) -> anyhow::Result<()> {
    let settings = backend.settings();
    let (data_dir, seed_seconds) = match data_dir {
        Some(dir) if dir.join("seeded").exists() => (dir, None),
        dir => {
            backend.prepare()?;
            let dir = dir.unwrap_or_else(|| run.scratch.join(format!("tail-{}", backend.short_name())));
            let seconds = seed(run.binary, &dir, &settings, run.bulk)?;
            std::fs::write(dir.join("seeded"), run.bulk.to_string())?;
            (dir, Some(seconds))
        }
    };
    // The seed's drawn logos (their 128 px copies), for `/media/{logo}`.
    let logos: Vec<String> = std::fs::read_to_string(data_dir.join("bulk-logos.txt"))
        .unwrap_or_default()
        .lines()
        .filter(|line| !line.is_empty())
        .map(str::to_owned)
        .collect();
    let scripts = run.scratch.join("scripts");
    std::fs::create_dir_all(&scripts)?;
    let mut figures: Vec<Figure> = TAIL.iter().map(|_| Figure { one_address: None, changing: None }).collect();

    // One address over and over, the answer cache on (its default, one second).
    let (server, _) = start_server(run.binary, &data_dir, &settings, run.cores.server.as_deref())?;
    let mut cached_ceiling = vec![healthz(run, &server)?];
    for ((name, template), figure) in TAIL.iter().zip(&mut figures) {
        eprintln!("bench: {} {name}, one address", backend.name());
        figure.one_address = load(run, &server, name, &one_address(template, &logos), None).ok();
    }
    cached_ceiling.push(healthz(run, &server)?);
    drop(server);

    // A different address every request, the answer cache off.
    let mut uncached = settings.clone();
    uncached.push(("LAUNCHDIR_ANSWER_CACHE_MS".into(), "0".into()));
    let (server, _) = start_server(run.binary, &data_dir, &uncached, run.cores.server.as_deref())?;
    let mut uncached_ceiling = vec![healthz(run, &server)?];
    for (index, ((name, template), figure)) in TAIL.iter().zip(&mut figures).enumerate() {
        eprintln!("bench: {} {name}, changing addresses", backend.name());
        let file = scripts.join(format!("{index}.lua"));
        std::fs::write(&file, script(template, run.bulk, &logos)?)?;
        figure.changing = load(run, &server, name, "/", Some(&file)).ok();
    }
    uncached_ceiling.push(healthz(run, &server)?);
    drop(server);

    let cached = median(cached_ceiling);
    let ceiling = median(uncached_ceiling);
    println!("### The long tail: {}, {} generated listings", backend.name(), run.bulk);
    println!();
    if let Some(seconds) = seed_seconds {
        println!("(seeded in {seconds:.0} s)");
        println!();
    }
    println!(
        "| read | changing address, cache off: req/s | share of `/healthz` | p50 / p99 | errors | one address, cache on: req/s | share | p50 / p99 |"
    );
    println!("|---|---|---|---|---|---|---|---|");
    for ((name, _), figure) in TAIL.iter().zip(&figures) {
        let cell = |wrk: &Option<Wrk>, ceiling: f64| match wrk {
            Some(w) => (
                format!("{:.0}", w.requests_per_second),
                format!("{:.1} %", 100.0 * w.requests_per_second / ceiling),
                format!("{} / {}", w.p50, w.p99),
                if w.errors == 0 { "0".to_owned() } else { format!("{} of {}", w.errors, w.requests + w.errors) },
            ),
            None => ("failed".into(), "-".into(), "-".into(), "-".into()),
        };
        let (tail_rate, tail_share, tail_latency, errors) = cell(&figure.changing, ceiling);
        let (hot_rate, hot_share, hot_latency, _) = cell(&figure.one_address, cached);
        println!("| {name} | {tail_rate} | {tail_share} | {tail_latency} | {errors} | {hot_rate} | {hot_share} | {hot_latency} |");
    }
    println!();
    println!(
        "(`/healthz`: {ceiling:.0} req/s on the server with the answer cache off, {cached:.0} with it on, each the median of a load before and after; wrk -t1 -c{CONNECTIONS} -d{LOAD_SECONDS}s --timeout 5s; a changing address is a random generated listing or founder, a page from 1 to {DEEPEST_PAGE} or two random words; pages are sent with `Accept-Encoding: gzip`; rate limits off; {})",
        run.cores.note()
    );
    println!();
    Ok(())
}

fn healthz(run: &Run<'_>, server: &Server) -> anyhow::Result<f64> {
    Ok(wrk_with(run.cores, server.port, "/healthz", false, 1, CONNECTIONS, LOAD_SECONDS, None)?.requests_per_second)
}

fn load(run: &Run<'_>, server: &Server, name: &str, path: &str, script: Option<&Path>) -> anyhow::Result<Wrk> {
    let gzip = name.starts_with("page:");
    wrk_with(run.cores, server.port, path, gzip, 1, CONNECTIONS, LOAD_SECONDS, script).with_context(|| format!("loading {name}"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_template_becomes_one_address_and_a_script_that_changes_it() {
        assert_eq!(one_address("/api/v1/compare?a={listing}&b={other}", &[]), "/api/v1/compare?a=bulk-1&b=bulk-2");
        assert_eq!(one_address("/api/v1/site", &[]), "/api/v1/site");
        assert_eq!(one_address("/media/{logo}", &["ab-128.webp".to_owned()]), "/media/ab-128.webp");
        let lua = script("/api/v1/listings/{listing}/badges?page={page}", 1000, &[]).unwrap();
        assert!(lua.contains(r#"return wrk.format(nil, "/api/v1/listings/" .. listing .. "/badges?page=" .. page)"#), "{lua}");
        assert!(lua.contains("local n = math.random(0, 999)"), "{lua}");
        assert!(lua.contains("local other = \"bulk-\" .. ((n + math.random(1, 999)) % 1000)"), "{lua}");
        assert!(script("/x/{nothing}", 10, &[]).is_err());
        let lua = script("/media/{logo}", 10, &["ab-128.webp".to_owned(), "cd-128.webp".to_owned()]).unwrap();
        assert!(lua.contains(r#"local logos = {"ab-128.webp", "cd-128.webp"}"#), "{lua}");
    }
}
