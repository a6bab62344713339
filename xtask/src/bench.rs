//! `cargo xtask bench`: the release binary's size, start-up to ready and idle memory on the
//! demo directory (then `scale` measures the directory at size), and the comparisons beside it
//! (`--limits`, `--pages`, `--compare`, `--sign-in`). Prints Markdown tables for
//! `docs/performance.md`. Figures are medians.

use crate::cargo;
use anyhow::{Context, bail};
use std::io::{Read, Write};
use std::net::{TcpListener, TcpStream};
use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

const LOAD_SECONDS: u32 = 10;
const CONNECTIONS: u32 = 64;
const ROUNDS: usize = 3;

pub(crate) struct Server {
    pub(crate) child: Child,
    pub(crate) port: u16,
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = Command::new("kill").arg("-TERM").arg(self.child.id().to_string()).status();
        let _ = self.child.wait();
    }
}

fn free_port() -> anyhow::Result<u16> {
    Ok(TcpListener::bind("127.0.0.1:0")?.local_addr()?.port())
}

/// A bare HTTP/1.1 GET, so the benchmark needs no HTTP client crate.
pub(crate) fn http_status(port: u16, path: &str) -> Option<u16> {
    let mut stream = TcpStream::connect(("127.0.0.1", port)).ok()?;
    stream.set_read_timeout(Some(Duration::from_secs(2))).ok()?;
    write!(stream, "GET {path} HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n").ok()?;
    let mut head = [0u8; 12];
    stream.read_exact(&mut head).ok()?;
    std::str::from_utf8(&head[9..12]).ok()?.parse().ok()
}

/// The main figures are measured without rate limits (64 connections from one address would
/// spend any realistic quota in a second); `bench --limits` measures what the limiter costs.
/// Rate limits off, and the answer cache too: these runs compare what operations cost to run.
const LIMITS_OFF: &[(&str, &str)] = &[("LAUNCHDIR_RATE_LIMITS_ENABLED", "false"), ("LAUNCHDIR_ANSWER_CACHE_MS", "0")];

/// Servers that share one data directory (`--limits`, `--compare`) keep their search index in
/// memory, as every node but one must: the index on disk takes a lock for one process.
const INDEX_IN_MEMORY: (&str, &str) = ("LAUNCHDIR_SEARCH_INDEX_ON_DISK", "false");

/// The status line and headers of a GET.
fn http_head(port: u16, path: &str) -> anyhow::Result<String> {
    let mut stream = TcpStream::connect(("127.0.0.1", port))?;
    stream.set_read_timeout(Some(Duration::from_secs(5)))?;
    write!(stream, "GET {path} HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n")?;
    let mut response = Vec::new();
    stream.read_to_end(&mut response)?;
    let text = String::from_utf8_lossy(&response);
    Ok(text.split("\r\n\r\n").next().unwrap_or_default().to_owned())
}

fn start(binary: &Path, data_dir: &Path) -> anyhow::Result<(Server, Duration)> {
    start_with(binary, data_dir, LIMITS_OFF)
}

fn start_with(binary: &Path, data_dir: &Path, settings: &[(&str, &str)]) -> anyhow::Result<(Server, Duration)> {
    let owned: Vec<(String, String)> = settings.iter().map(|(k, v)| ((*k).to_owned(), (*v).to_owned())).collect();
    start_server(binary, data_dir, &owned, None)
}

/// Starts `binary` on `data_dir` with these settings (pinned to `cores` with taskset when
/// given) and waits until it is ready; returns the time that took.
pub(crate) fn start_server(
    binary: &Path,
    data_dir: &Path,
    settings: &[(String, String)],
    cores: Option<&str>,
) -> anyhow::Result<(Server, Duration)> {
    let port = free_port()?;
    let started = Instant::now();
    let mut command = match cores {
        Some(cores) => {
            let mut taskset = Command::new("taskset");
            taskset.args(["-c", cores]).arg(binary);
            taskset
        }
        None => Command::new(binary),
    };
    let child = command
        .env("LAUNCHDIR_BIND", format!("127.0.0.1:{port}"))
        .env("LAUNCHDIR_DATA_DIR", data_dir)
        .env("LAUNCHDIR_LOG_LEVEL", "warn")
        .envs(settings.iter().map(|(k, v)| (k.as_str(), v.as_str())))
        .stdout(Stdio::null())
        .stderr(Stdio::inherit())
        .spawn()
        .context("cannot start the release binary")?;
    let server = Server { child, port };
    while started.elapsed() < Duration::from_secs(120) {
        if http_status(port, "/readyz") == Some(200) {
            return Ok((server, started.elapsed()));
        }
        std::thread::sleep(Duration::from_millis(5));
    }
    bail!("the server did not become ready within 120 s")
}

fn rss_kib(pid: u32) -> anyhow::Result<u64> {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status"))?;
    status
        .lines()
        .find_map(|line| line.strip_prefix("VmRSS:"))
        .and_then(|rest| rest.split_whitespace().next())
        .and_then(|kib| kib.parse().ok())
        .context("no VmRSS in /proc")
}

struct Load {
    requests_per_second: f64,
    latency: String,
}

fn wrk(port: u16, path: &str) -> anyhow::Result<Load> {
    wrk_for(port, path, LOAD_SECONDS, &[])
}

/// `wrk` for `seconds`, sending `headers` (`Accept-Encoding: gzip`) with every request.
fn wrk_for(port: u16, path: &str, seconds: u32, headers: &[&str]) -> anyhow::Result<Load> {
    let mut args = vec!["-t2".to_owned(), format!("-c{CONNECTIONS}"), format!("-d{seconds}s"), "--latency".to_owned()];
    for header in headers {
        args.extend(["-H".to_owned(), (*header).to_owned()]);
    }
    args.push(format!("http://127.0.0.1:{port}{path}"));
    let output = Command::new("wrk").args(&args).output().context("wrk is needed for the load figures: apt-get install wrk")?;
    let text = String::from_utf8_lossy(&output.stdout);
    if text.contains("Non-2xx") {
        bail!("{path} answered errors under load:\n{text}");
    }
    let requests_per_second = text
        .lines()
        .find_map(|line| line.strip_prefix("Requests/sec:"))
        .and_then(|value| value.trim().parse().ok())
        .with_context(|| format!("cannot read wrk's output:\n{text}"))?;
    let p50 = text.lines().find(|line| line.trim_start().starts_with("50%")).map(|l| l.split_whitespace().last().unwrap_or("").to_owned());
    let p99 = text.lines().find(|line| line.trim_start().starts_with("99%")).map(|l| l.split_whitespace().last().unwrap_or("").to_owned());
    Ok(Load { requests_per_second, latency: format!("p50 {} / p99 {}", p50.unwrap_or_default(), p99.unwrap_or_default()) })
}

pub(crate) fn median(mut values: Vec<f64>) -> f64 {
    values.sort_by(f64::total_cmp);
    values[values.len() / 2]
}

/// The reads loaded, by operation.
const ENDPOINTS: &[(&str, &str)] = &[
    ("get_site_info", "/api/v1/site"),
    ("get_category", "/api/v1/categories/productivity"),
    ("search_listings (q, typo)", "/api/v1/listings?q=remot%20teams"),
    ("search_listings (browse, votes)", "/api/v1/listings?sort=votes"),
    ("get_listing", "/api/v1/listings/bulk-1"),
    ("list_launches (trending)", "/api/v1/launches?section=trending"),
    ("get_leaderboard (all time)", "/api/v1/leaderboards/community-all-time"),
];

/// A data directory with the demo directory plus `bulk` generated listings; returns the seconds
/// the bulk seeding took.
fn seed_bulk(binary: &Path, data_dir: &Path, bulk: usize) -> anyhow::Result<f64> {
    std::fs::create_dir_all(data_dir)?;
    drop(start(binary, data_dir)?);
    let seeded = std::time::Instant::now();
    let status = Command::new(binary)
        .args(["seed", "--demo", "--bulk-listings", &bulk.to_string()])
        .env("LAUNCHDIR_DATA_DIR", data_dir)
        .env("LAUNCHDIR_LOG_LEVEL", "warn")
        .stdout(Stdio::null())
        .status()?;
    if !status.success() {
        bail!("bulk seeding failed");
    }
    Ok(seeded.elapsed().as_secs_f64())
}

/// Size, start-up and idle memory on the demo directory.
pub fn footprint(root: &Path) -> anyhow::Result<()> {
    crate::run(cargo().args(["build", "--release", "-p", "launchdir"]))?;
    let binary = root.join("target/release/launchdir");
    let size = std::fs::metadata(&binary)?.len();
    let scratch = std::env::temp_dir().join(format!("launchdir-bench-{}", std::process::id()));

    let mut first_starts = Vec::new();
    let mut warm_starts = Vec::new();
    let mut idle = Vec::new();
    for round in 0..ROUNDS {
        let data_dir = scratch.join(format!("round-{round}"));
        std::fs::create_dir_all(&data_dir)?;
        let (server, first) = start(&binary, &data_dir)?;
        first_starts.push(first.as_secs_f64() * 1000.0);
        drop(server);
        let (server, warm) = start(&binary, &data_dir)?;
        warm_starts.push(warm.as_secs_f64() * 1000.0);
        std::thread::sleep(Duration::from_secs(2));
        idle.push(rss_kib(server.child.id())? as f64 / 1024.0);
    }

    std::fs::remove_dir_all(&scratch).ok();

    println!("| figure | value |");
    println!("|---|---|");
    println!("| release binary size | {:.1} MiB |", size as f64 / 1024.0 / 1024.0);
    println!("| start-up to ready, first start (migrate + seed demo) | {:.0} ms (median of {ROUNDS}) |", median(first_starts));
    println!("| start-up to ready, existing database | {:.0} ms (median of {ROUNDS}) |", median(warm_starts));
    println!("| idle memory (RSS, 2 s after ready) | {:.1} MiB (median of {ROUNDS}) |", median(idle));
    println!();
    Ok(())
}

/// Each kind of page beside the operation its content comes from: the page runs that
/// operation (and, for some, one or two more in the same round) and renders HTML.
const PAGES: &[(&str, &str, &str)] = &[
    ("home (4 feeds)", "/", "/api/v1/launches?section=this-week"),
    ("launches section", "/launches?section=trending", "/api/v1/launches?section=trending"),
    ("launch week", "/launches/weeks/last", "/api/v1/launches/weeks/last"),
    ("listing (+ badges, alternatives)", "/listings/bulk-1", "/api/v1/listings/bulk-1"),
    ("categories", "/categories", "/api/v1/categories"),
    ("category", "/categories/productivity", "/api/v1/categories/productivity"),
    ("search (+ categories)", "/search?q=remot%20teams", "/api/v1/listings?q=remot%20teams"),
    ("leaderboard", "/leaderboards/community-all-time", "/api/v1/leaderboards/community-all-time"),
    ("awards", "/awards", "/api/v1/awards"),
    ("blog", "/blog", "/api/v1/blog"),
];

/// How long each load of `bench --pages` lasts: 21 addresses, a warm-up and three rounds.
const PAGE_LOAD_SECONDS: u32 = 5;

/// `bench --pages`: every kind of page's req/s beside its API operation's and `/healthz`'s, in
/// one run on one server, rounds interleaved so drift touches all alike; gzip accepted, as
/// browsers do.
pub fn pages(root: &Path, bulk: usize) -> anyhow::Result<()> {
    crate::run(cargo().args(["build", "--release", "-p", "launchdir"]))?;
    let binary = root.join("target/release/launchdir");
    let scratch = std::env::temp_dir().join(format!("launchdir-bench-pages-{}", std::process::id()));
    let data_dir = scratch.join("load");
    seed_bulk(&binary, &data_dir, bulk)?;
    let (server, _) = start(&binary, &data_dir)?;
    let gzip = ["Accept-Encoding: gzip"];
    let mut paths: Vec<&str> = vec!["/healthz"];
    for (_, page, api) in PAGES {
        paths.extend([*page, *api]);
    }
    let mut rounds: Vec<Vec<f64>> = vec![Vec::new(); paths.len()];
    let mut latency: Vec<String> = vec![String::new(); paths.len()];
    for round in 0..=ROUNDS {
        for (index, path) in paths.iter().enumerate() {
            let load = wrk_for(server.port, path, PAGE_LOAD_SECONDS, &gzip)?;
            // Round 0 warms every address up.
            if round > 0 {
                rounds[index].push(load.requests_per_second);
                latency[index] = load.latency;
            }
        }
    }
    drop(server);
    std::fs::remove_dir_all(&scratch).ok();
    let medians: Vec<f64> = rounds.into_iter().map(median).collect();
    let healthz = medians[0];
    println!("| page | page req/s | API req/s | page / API | page / `/healthz` | page latency (last round) |");
    println!("|---|---|---|---|---|---|");
    for (index, (name, page, api)) in PAGES.iter().enumerate() {
        let (page_rps, api_rps) = (medians[1 + 2 * index], medians[2 + 2 * index]);
        println!(
            "| {name}: `{page}` beside `{api}` | {page_rps:.0} | {api_rps:.0} | {:.2} | {:.3} | {} |",
            page_rps / api_rps,
            page_rps / healthz,
            latency[1 + 2 * index]
        );
    }
    println!();
    println!(
        "(`/healthz` {healthz:.0} req/s; {CONNECTIONS} connections, {PAGE_LOAD_SECONDS} s per load, median of {ROUNDS} rounds after a warm-up round, {bulk} generated listings, rate limits off)"
    );
    Ok(())
}

/// `bench --limits`: what the rate limiter costs. Three servers on one data directory (limits
/// off, counted in memory, counted in Redis at `LAUNCHDIR_BENCH_REDIS`, default
/// `redis://127.0.0.1:6379`), quotas too large to refuse anything, loaded in turn round by round
/// so drift on the shared machine touches all three alike. Reports `get_listing` and `/healthz`
/// req/s (median of the rounds) and the ratios.
pub fn limits(root: &Path, bulk: usize) -> anyhow::Result<()> {
    crate::run(cargo().args(["build", "--release", "-p", "launchdir"]))?;
    let binary = root.join("target/release/launchdir");
    let scratch = std::env::temp_dir().join(format!("launchdir-bench-limits-{}", std::process::id()));
    let data_dir = scratch.join("load");
    seed_bulk(&binary, &data_dir, bulk)?;
    let redis = std::env::var("LAUNCHDIR_BENCH_REDIS").unwrap_or_else(|_| "redis://127.0.0.1:6379".into());
    let huge = ("LAUNCHDIR_RATE_LIMITS_READ_ANONYMOUS", "4000000000/minute");
    let uncached = LIMITS_OFF[1];
    let configurations: [(&str, Vec<(&str, &str)>); 3] = [
        ("limits off", vec![LIMITS_OFF[0], uncached, INDEX_IN_MEMORY]),
        ("in memory", vec![huge, uncached, INDEX_IN_MEMORY]),
        ("in Redis", vec![huge, uncached, INDEX_IN_MEMORY, ("LAUNCHDIR_REDIS_URL", redis.as_str())]),
    ];
    let mut servers = Vec::new();
    for (_, settings) in &configurations {
        servers.push(start_with(&binary, &data_dir, settings)?.0);
    }
    // Each server counts (or not) as configured: its answers carry the headers, or none.
    for ((name, _), server) in configurations.iter().zip(&servers) {
        let counted = http_head(server.port, "/api/v1/listings/bulk-1")?.to_ascii_lowercase().contains("\nratelimit:");
        if counted != (*name != "limits off") {
            bail!("the server with {name} answers {} RateLimit headers", if counted { "with" } else { "without" });
        }
    }
    let paths = [("/healthz", "/healthz"), ("get_listing", "/api/v1/listings/bulk-1")];
    let mut rps = vec![vec![Vec::new(); paths.len()]; configurations.len()];
    for round in 0..=ROUNDS {
        for (c, server) in servers.iter().enumerate() {
            for (p, (_, path)) in paths.iter().enumerate() {
                let load = wrk(server.port, path)?;
                // Round 0 warms each server up.
                if round > 0 {
                    rps[c][p].push(load.requests_per_second);
                }
            }
        }
    }
    drop(servers);
    std::fs::remove_dir_all(&scratch).ok();
    println!("| configuration | `/healthz` req/s | `get_listing` req/s | `get_listing` / `/healthz` | `get_listing` against limits off |");
    println!("|---|---|---|---|---|");
    let medians: Vec<(f64, f64)> = rps.iter().map(|by_path| (median(by_path[0].clone()), median(by_path[1].clone()))).collect();
    let off = medians[0].1;
    for ((name, _), (health, listing)) in configurations.iter().zip(&medians) {
        println!("| {name} | {health:.0} | {listing:.0} | {:.3} | {:.3} |", listing / health, listing / off);
    }
    println!();
    println!(
        "({CONNECTIONS} connections, {LOAD_SECONDS} s per load, median of {ROUNDS} rounds after a warm-up round, {bulk} generated listings)"
    );
    Ok(())
}

/// `bench --compare OTHER`: the public reads of this build against another build of
/// `launchdir` (say, the release binary of an earlier commit, built into another target
/// directory), both serving one data directory, loaded endpoint by endpoint and round by round
/// in turn (who goes first alternating), so the machine's drift touches both alike. Reports each endpoint's req/s (median of
/// the rounds) for both and the ratio. Both run without rate limits (an earlier build ignores
/// the setting).
pub fn compare(root: &Path, other: &Path, bulk: usize) -> anyhow::Result<()> {
    crate::run(cargo().args(["build", "--release", "-p", "launchdir"]))?;
    let binary = root.join("target/release/launchdir");
    let other = std::fs::canonicalize(other).with_context(|| format!("no binary at {}", other.display()))?;
    let scratch = std::env::temp_dir().join(format!("launchdir-bench-compare-{}", std::process::id()));
    let data_dir = scratch.join("load");
    seed_bulk(&binary, &data_dir, bulk)?;
    let shared = [LIMITS_OFF[0], LIMITS_OFF[1], INDEX_IN_MEMORY];
    let (this_server, _) = start_with(&binary, &data_dir, &shared)?;
    let (other_server, _) = start_with(&other, &data_dir, &shared)?;
    let mut table = Vec::new();
    for (name, path) in [("/healthz", "/healthz")].iter().chain(ENDPOINTS) {
        let mut this_rounds = Vec::new();
        let mut other_rounds = Vec::new();
        for round in 0..=ROUNDS {
            // Who goes first alternates, so neither always loads a machine the other just warmed.
            let (this, that) = if round % 2 == 0 {
                (wrk(this_server.port, path)?, wrk(other_server.port, path)?)
            } else {
                let that = wrk(other_server.port, path)?;
                (wrk(this_server.port, path)?, that)
            };
            // Round 0 warms both up.
            if round > 0 {
                this_rounds.push(this.requests_per_second);
                other_rounds.push(that.requests_per_second);
            }
        }
        table.push((*name, median(other_rounds), median(this_rounds)));
    }
    drop((this_server, other_server));
    std::fs::remove_dir_all(&scratch).ok();
    println!("| read | req/s, {} | req/s, this build | this / other |", other.display());
    println!("|---|---|---|---|");
    for (name, other, this) in table {
        println!("| {name} | {other:.0} | {this:.0} | {:.2} |", this / other);
    }
    println!();
    println!(
        "({CONNECTIONS} connections, {LOAD_SECONDS} s per load, median of {ROUNDS} rounds after a warm-up round, {bulk} generated listings)"
    );
    Ok(())
}

/// wrk's script for `bench --sign-in`: wrong passwords, each from another client address (the
/// benchmark is the trusted proxy), so the throttle never stops one and every attempt hashes.
const SIGN_IN_SPRAY: &str = r#"
counter = 0
request = function()
  counter = counter + 1
  local client = string.format("10.%d.%d.%d", (counter / 65536) % 256, (counter / 256) % 256, counter % 256)
  local headers = {}
  headers["Content-Type"] = "application/x-www-form-urlencoded"
  headers["Cookie"] = "ld_csrf=bench"
  headers["X-Forwarded-For"] = client
  return wrk.format("POST", "/signin", headers, "csrf=bench&next=%2F&email=someone%40example.com&password=not+the+password")
end
"#;

/// Reads' median latency in milliseconds from wrk's `--latency` table.
fn p50_ms(latency: &str) -> f64 {
    let value = latency.strip_prefix("p50 ").and_then(|rest| rest.split(' ').next()).unwrap_or_default();
    let (number, scale) = if let Some(ms) = value.strip_suffix("ms") {
        (ms, 1.0)
    } else if let Some(us) = value.strip_suffix("us") {
        (us, 0.001)
    } else if let Some(s) = value.strip_suffix('s') {
        (s, 1000.0)
    } else {
        (value, f64::NAN)
    };
    number.parse::<f64>().map_or(f64::NAN, |n| n * scale)
}

/// `bench --sign-in`: what a spray of wrong passwords does to everyone else. A plain read
/// (`get_site_info`, 8 connections) is loaded alone and then while 8 other connections post
/// wrong passwords from ever new addresses, round by round; reports the read's median latency
/// both ways (median of the rounds) and the sign-ins answered per second.
/// `bench --mcp [--compare OTHER]`: what `tools/call` costs against its REST twin for three kinds
/// of client (a kept-alive plain HTTP client, a new connection per call, the official MCP Python
/// SDK), in both protocol eras, on the release build with the demo data, rate limits and the
/// answer cache off (`tests/mcp_client/bench_clients.py`). With `--compare`, the same against
/// another build, one server at a time.
pub fn mcp_clients(root: &Path, other: Option<&Path>) -> anyhow::Result<()> {
    crate::run(cargo().args(["build", "--release", "-p", "launchdir"]))?;
    let python = crate::conformance::python_sdk(root)?;
    let script = root.join("tests/mcp_client/bench_clients.py");
    let this = root.join("target/release/launchdir");
    let mut builds = vec![(this.as_path(), "this build")];
    if let Some(other) = other {
        builds.push((other, "the other build"));
    }
    for (binary, label) in builds {
        let scratch = std::env::temp_dir().join(format!("launchdir-bench-mcp-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&scratch);
        let (server, _) = start(binary, &scratch.join("data"))?;
        let status = Command::new(&python)
            .arg(&script)
            .arg(format!("http://127.0.0.1:{}", server.port))
            .arg(format!("{label} ({})", binary.display()))
            .status()?;
        drop(server);
        let _ = std::fs::remove_dir_all(&scratch);
        if !status.success() {
            bail!("the MCP client bench failed against {}", binary.display());
        }
    }
    Ok(())
}

pub fn sign_in_spray(root: &Path) -> anyhow::Result<()> {
    crate::run(cargo().args(["build", "--release", "-p", "launchdir"]))?;
    let binary = root.join("target/release/launchdir");
    let scratch = std::env::temp_dir().join(format!("launchdir-bench-sign-in-{}", std::process::id()));
    let script = scratch.join("spray.lua");
    std::fs::create_dir_all(&scratch)?;
    std::fs::write(&script, SIGN_IN_SPRAY)?;
    let settings = [LIMITS_OFF[0], ("LAUNCHDIR_TRUSTED_PROXIES", "127.0.0.1")];
    let (server, _) = start_with(&binary, &scratch.join("data"), &settings)?;
    let read = |port: u16| -> anyhow::Result<f64> {
        let output =
            Command::new("wrk").args(["-t1", "-c8", "-d8s", "--latency", &format!("http://127.0.0.1:{port}/api/v1/site")]).output()?;
        let text = String::from_utf8_lossy(&output.stdout);
        let p50 = text.lines().find(|line| line.trim_start().starts_with("50%")).and_then(|l| l.split_whitespace().last()).unwrap_or("");
        Ok(p50_ms(&format!("p50 {p50}")))
    };
    let (mut alone, mut sprayed, mut sign_ins) = (Vec::new(), Vec::new(), Vec::new());
    for round in 0..=ROUNDS {
        let quiet = read(server.port)?;
        let spray = Command::new("wrk")
            .args(["-t1", "-c8", "-d10s", "-s"])
            .arg(&script)
            .arg(format!("http://127.0.0.1:{}/", server.port))
            .stdout(Stdio::piped())
            .spawn()
            .context("wrk is needed: apt-get install wrk")?;
        std::thread::sleep(Duration::from_secs(1));
        let busy = read(server.port)?;
        let output = spray.wait_with_output()?;
        let text = String::from_utf8_lossy(&output.stdout);
        let per_second =
            text.lines().find_map(|line| line.strip_prefix("Requests/sec:")).and_then(|v| v.trim().parse().ok()).unwrap_or(f64::NAN);
        // Round 0 warms the server up.
        if round > 0 {
            alone.push(quiet);
            sprayed.push(busy);
            sign_ins.push(per_second);
        }
    }
    drop(server);
    std::fs::remove_dir_all(&scratch).ok();
    let (alone, sprayed) = (median(alone), median(sprayed));
    println!("| `get_site_info` p50 alone | p50 during the spray | ratio | wrong sign-ins answered per second |");
    println!("|---|---|---|---|");
    println!("| {alone:.2} ms | {sprayed:.2} ms | {:.1} | {:.0} |", sprayed / alone, median(sign_ins));
    println!();
    println!("(8 connections reading, 8 spraying from a new address each time, median of {ROUNDS} rounds after a warm-up round)");
    Ok(())
}
