//! `cargo xtask bench [--bulk N] [--sqlite-only | --postgres-only]`: the directory at size. For
//! each database (embedded SQLite, then PostgreSQL at `LAUNCHDIR_BENCH_POSTGRES`, default
//! `postgres://postgres@127.0.0.1:5432`, in a database made for the run), seeds the demo
//! directory plus N generated listings, starts the release build and measures: start-up to
//! ready, each public read's (and each page's) first request after the start, one-client
//! p50/p99, req/s at 64 connections as a share of `/healthz`'s in the same run, errors, and
//! resident memory before and after the load. A read that fails under load is recorded with
//! its errors and the run goes on, so one collapse never hides the others.

use crate::bench::{Server, median, start_server};
use anyhow::{Context, bail};
use std::io::{Read, Write};
use std::net::TcpStream;
use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

const CONNECTIONS: u32 = 64;
const LOAD_SECONDS: u32 = 10;
const ONE_CLIENT_SECONDS: u32 = 5;

/// The public reads (every GET of the registry that needs no sign-in) and the page twins of the
/// people's site. `{founder}` and `{post}` are filled in from the seeded directory.
const READS: &[(&str, &str)] = &[
    ("get_site_info", "/api/v1/site"),
    ("list_categories", "/api/v1/categories"),
    ("get_category", "/api/v1/categories/productivity"),
    ("search_listings (words)", "/api/v1/listings?q=remot%20teams"),
    ("search_listings (words, category)", "/api/v1/listings?q=teams&category=productivity"),
    ("search_listings (words, category, sort=votes)", "/api/v1/listings?q=teams&category=productivity&sort=votes"),
    ("search_listings (stage, country)", "/api/v1/listings?stage=launched&country=DE"),
    ("search_listings (sort=votes)", "/api/v1/listings?sort=votes"),
    ("search_listings (sort=newest, stage)", "/api/v1/listings?sort=newest&stage=launched"),
    ("search_listings (sort=trending)", "/api/v1/listings?sort=trending"),
    ("search_listings (sort=trending, stage)", "/api/v1/listings?sort=trending&stage=launched"),
    ("search_listings (sort=most_followed)", "/api/v1/listings?sort=most_followed"),
    ("get_listing", "/api/v1/listings/bulk-1"),
    ("get_badges", "/api/v1/listings/bulk-1/badges"),
    ("get_alternatives", "/api/v1/listings/bulk-1/alternatives"),
    ("compare_listings", "/api/v1/compare?a=bulk-1&b=bulk-2"),
    ("list_launches today", "/api/v1/launches?section=today"),
    ("list_launches this-week", "/api/v1/launches?section=this-week"),
    ("list_launches trending", "/api/v1/launches?section=trending"),
    ("list_launches most-voted", "/api/v1/launches?section=most-voted"),
    ("list_launches recent", "/api/v1/launches?section=recent"),
    ("list_launches most-viewed", "/api/v1/launches?section=most-viewed"),
    ("list_launches most-followed", "/api/v1/launches?section=most-followed"),
    ("list_launches upcoming", "/api/v1/launches?section=upcoming"),
    ("get_launch_week this", "/api/v1/launches/weeks/this"),
    ("get_launch_week last", "/api/v1/launches/weeks/last"),
    ("get_launch_week this (gzip)", "/api/v1/launches/weeks/this"),
    ("get_launch_week last (gzip)", "/api/v1/launches/weeks/last"),
    ("get_leaderboard community-weekly", "/api/v1/leaderboards/community-weekly?week=last"),
    ("get_leaderboard community-all-time", "/api/v1/leaderboards/community-all-time"),
    ("get_leaderboard billboard", "/api/v1/leaderboards/billboard"),
    ("get_leaderboard domain-rating", "/api/v1/leaderboards/domain-rating"),
    ("get_leaderboard revenue", "/api/v1/leaderboards/revenue"),
    ("list_awards", "/api/v1/awards"),
    ("list_founders", "/api/v1/founders"),
    ("get_founder", "/api/v1/founders/{founder}"),
    ("list_blog_posts", "/api/v1/blog"),
    ("get_blog_post", "/api/v1/blog/{post}"),
    ("list_products", "/api/v1/products"),
    ("list_interview_questions", "/api/v1/interview-questions"),
    ("page: home", "/"),
    ("page: launches trending", "/launches?section=trending"),
    ("page: launch week", "/launches/weeks/last"),
    ("page: listing", "/listings/bulk-1"),
    ("page: category", "/categories/productivity"),
    ("page: search", "/search?q=remot%20teams"),
    ("page: leaderboard", "/leaderboards/community-all-time"),
    ("page: founders", "/founders"),
];

/// Whether a read is sent with `Accept-Encoding: gzip`: the pages, as every browser sends it,
/// and the reads named so; the other reads without, as wrk and the first figures do.
fn sent_with_gzip(name: &str) -> bool {
    name.starts_with("page:") || name.ends_with("(gzip)")
}

/// What one read measured.
#[derive(Default)]
struct Figures {
    first_ms: Option<f64>,
    first_status: Option<u16>,
    one_client: Option<Wrk>,
    /// One client with the answer cache off: what building each answer costs.
    uncached: Option<Wrk>,
    loaded: Option<Wrk>,
}

/// What wrk printed: req/s, the latency percentiles and how many answers were errors.
#[derive(Clone)]
pub(crate) struct Wrk {
    pub(crate) requests_per_second: f64,
    pub(crate) p50: String,
    pub(crate) p99: String,
    pub(crate) requests: u64,
    pub(crate) errors: u64,
}

/// Where the load generator runs: on cores the server does not have when there are enough.
pub(crate) struct Cores {
    pub(crate) server: Option<String>,
    load: Option<String>,
}

impl Cores {
    pub(crate) fn detect() -> Self {
        let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
        if cores >= 4 {
            Self { server: Some("0,1".into()), load: Some(format!("2-{}", cores - 1)) }
        } else {
            Self { server: None, load: None }
        }
    }

    pub(crate) fn note(&self) -> String {
        match (&self.server, &self.load) {
            (Some(server), Some(load)) => format!("server pinned to cores {server} with taskset, wrk on cores {load}"),
            _ => format!(
                "this machine has {} cores: wrk shares them with the server, so every figure here is lower than on a machine where they are apart",
                std::thread::available_parallelism().map_or(1, |n| n.get())
            ),
        }
    }

    fn wrk(&self) -> Command {
        match &self.load {
            Some(load) => {
                let mut command = Command::new("taskset");
                command.args(["-c", load, "wrk"]);
                command
            }
            None => Command::new("wrk"),
        }
    }
}

/// One wrk run; `gzip` sends `Accept-Encoding: gzip`.
fn wrk(cores: &Cores, port: u16, path: &str, gzip: bool, threads: u32, connections: u32, seconds: u32) -> anyhow::Result<Wrk> {
    wrk_with(cores, port, path, gzip, threads, connections, seconds, None)
}

/// One wrk run, with `script` (Lua) choosing each request when given.
#[allow(clippy::too_many_arguments)]
pub(crate) fn wrk_with(
    cores: &Cores,
    port: u16,
    path: &str,
    gzip: bool,
    threads: u32,
    connections: u32,
    seconds: u32,
    script: Option<&Path>,
) -> anyhow::Result<Wrk> {
    let mut command = cores.wrk();
    if gzip {
        command.args(["-H", "Accept-Encoding: gzip"]);
    }
    if let Some(script) = script {
        command.arg("-s").arg(script);
    }
    let output = command
        .args([format!("-t{threads}"), format!("-c{connections}"), format!("-d{seconds}s"), "--timeout".into(), "5s".into()])
        .arg("--latency")
        .arg(format!("http://127.0.0.1:{port}{path}"))
        .output()
        .context("wrk is needed for the load figures: apt-get install wrk")?;
    let text = String::from_utf8_lossy(&output.stdout);
    let number_after = |prefix: &str| -> u64 {
        text.lines()
            .find_map(|line| line.trim().strip_prefix(prefix))
            .and_then(|rest| rest.trim().split(|c: char| !c.is_ascii_digit()).next())
            .and_then(|n| n.parse().ok())
            .unwrap_or(0)
    };
    let socket_errors: u64 = text
        .lines()
        .find_map(|line| line.trim().strip_prefix("Socket errors:"))
        .map(|rest| rest.split(',').filter_map(|part| part.split_whitespace().last()?.parse::<u64>().ok()).sum())
        .unwrap_or(0);
    let requests = text
        .lines()
        .find(|line| line.contains("requests in"))
        .and_then(|line| line.split_whitespace().next())
        .and_then(|n| n.parse().ok())
        .unwrap_or(0);
    let percentile = |label: &str| {
        text.lines()
            .find(|line| line.trim_start().starts_with(label))
            .and_then(|line| line.split_whitespace().last())
            .unwrap_or("-")
            .to_owned()
    };
    let requests_per_second = text
        .lines()
        .find_map(|line| line.strip_prefix("Requests/sec:"))
        .and_then(|value| value.trim().parse().ok())
        .with_context(|| format!("cannot read wrk's output:\n{text}"))?;
    Ok(Wrk {
        requests_per_second,
        p50: percentile("50%"),
        p99: percentile("99%"),
        requests,
        errors: number_after("Non-2xx or 3xx responses:") + socket_errors,
    })
}

/// Resident memory of a process in MiB, split as the kernel accounts it: anonymous (the heap:
/// caches, the connections' page and statement caches, an in-memory index), file-backed (the
/// binary and the memory-mapped search index) and shared (SQLite's WAL index).
struct Memory {
    total: f64,
    anonymous: f64,
    file: f64,
    shared: f64,
}

fn memory(pid: u32) -> anyhow::Result<Memory> {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status"))?;
    let field = |name: &str| -> f64 {
        status
            .lines()
            .find_map(|line| line.strip_prefix(name))
            .and_then(|rest| rest.split_whitespace().next())
            .and_then(|kib| kib.parse::<f64>().ok())
            .map_or(0.0, |kib| kib / 1024.0)
    };
    Ok(Memory { total: field("VmRSS:"), anonymous: field("RssAnon:"), file: field("RssFile:"), shared: field("RssShmem:") })
}

impl std::fmt::Display for Memory {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{:.0} MiB (anonymous {:.0}, file-backed {:.0}, shared {:.0})", self.total, self.anonymous, self.file, self.shared)
    }
}

/// One GET on a new connection: the status and the whole body, or why not.
fn get(port: u16, path: &str) -> anyhow::Result<(u16, String)> {
    let mut stream = TcpStream::connect(("127.0.0.1", port))?;
    stream.set_read_timeout(Some(Duration::from_secs(60)))?;
    write!(stream, "GET {path} HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n")?;
    let mut response = Vec::new();
    stream.read_to_end(&mut response)?;
    let text = String::from_utf8_lossy(&response).into_owned();
    let status = text.get(9..12).and_then(|s| s.parse().ok()).context("no status line")?;
    let body = text.split_once("\r\n\r\n").map(|(_, body)| body.to_owned()).unwrap_or_default();
    Ok((status, body))
}

/// The first item's slug of a list read, to address one of them.
fn first_slug(port: u16, path: &str) -> anyhow::Result<String> {
    let (status, body) = get(port, path)?;
    // The body may be chunked; the JSON starts at the first brace.
    let json = body.find('{').map(|start| &body[start..]).unwrap_or_default();
    let json = json.rfind('}').map(|end| &json[..=end]).unwrap_or_default();
    let value: serde_json::Value = serde_json::from_str(json).with_context(|| format!("{path} answered {status} without JSON"))?;
    value["items"][0]["slug"].as_str().map(str::to_owned).with_context(|| format!("{path} has no items to address"))
}

/// The database a run uses.
pub(crate) enum Backend {
    Sqlite,
    Postgres { server: String, database: String },
}

impl Backend {
    pub(crate) fn name(&self) -> &'static str {
        match self {
            Self::Sqlite => "SQLite (embedded)",
            Self::Postgres { .. } => "PostgreSQL",
        }
    }

    pub(crate) fn short_name(&self) -> &'static str {
        match self {
            Self::Sqlite => "sqlite",
            Self::Postgres { .. } => "postgres",
        }
    }

    pub(crate) fn settings(&self) -> Vec<(String, String)> {
        let mut settings = vec![("LAUNCHDIR_RATE_LIMITS_ENABLED".to_owned(), "false".to_owned())];
        if let Self::Postgres { server, database } = self {
            settings.push(("LAUNCHDIR_DATABASE_URL".into(), format!("{server}/{database}")));
            // An operator migrates PostgreSQL before serving; the bench's server does it itself.
            settings.push(("LAUNCHDIR_AUTO_MIGRATE".into(), "true".into()));
        }
        settings
    }

    pub(crate) fn prepare(&self) -> anyhow::Result<()> {
        if let Self::Postgres { server, database } = self {
            let status = Command::new("psql")
                .args([
                    server.as_str(),
                    "-q",
                    "-c",
                    &format!("DROP DATABASE IF EXISTS {database}"),
                    "-c",
                    &format!("CREATE DATABASE {database}"),
                ])
                .status()
                .context("psql is needed for the PostgreSQL run")?;
            if !status.success() {
                bail!("cannot create the database {database} at {server}");
            }
        }
        Ok(())
    }

    pub(crate) fn clean_up(&self) {
        if let Self::Postgres { server, database } = self {
            let _ = Command::new("psql").args([server.as_str(), "-q", "-c", &format!("DROP DATABASE IF EXISTS {database}")]).status();
        }
    }
}

pub(crate) fn seed(binary: &Path, data_dir: &Path, settings: &[(String, String)], bulk: usize) -> anyhow::Result<f64> {
    std::fs::create_dir_all(data_dir)?;
    // The first start migrates and seeds the demo directory.
    drop(start_server(binary, data_dir, settings, None)?);
    let seeded = Instant::now();
    let status = Command::new(binary)
        .args(["seed", "--demo", "--bulk-listings", &bulk.to_string()])
        .env("LAUNCHDIR_DATA_DIR", data_dir)
        .env("LAUNCHDIR_LOG_LEVEL", "warn")
        .envs(settings.iter().map(|(k, v)| (k.as_str(), v.as_str())))
        .stdout(Stdio::null())
        .status()?;
    if !status.success() {
        bail!("bulk seeding failed");
    }
    Ok(seeded.elapsed().as_secs_f64())
}

/// One database's whole run; prints its tables.
fn measure(binary: &Path, scratch: &Path, backend: &Backend, bulk: usize, cores: &Cores) -> anyhow::Result<()> {
    backend.prepare()?;
    let settings = backend.settings();
    let data_dir = scratch.join(backend.short_name());
    let seed_seconds = seed(binary, &data_dir, &settings, bulk)?;
    std::fs::write(data_dir.join("seeded"), bulk.to_string())?;
    // A first start to let the server bring what it keeps on disk up to date, then the start
    // that is measured: what an operator's restart costs.
    drop(start_server(binary, &data_dir, &settings, cores.server.as_deref())?);
    let (server, start_up) = start_server(binary, &data_dir, &settings, cores.server.as_deref())?;
    let ready_memory = memory(server.child.id())?;
    let reads = resolve(&server)?;
    let mut figures: Vec<Figures> = reads.iter().map(|_| Figures::default()).collect();
    for ((name, path), figure) in reads.iter().zip(&mut figures) {
        // A "(gzip)" row's twin has just been asked for: its answer is kept, not a first one.
        if name.ends_with("(gzip)") {
            continue;
        }
        let started = Instant::now();
        let answer = get(server.port, path);
        figure.first_ms = Some(started.elapsed().as_secs_f64() * 1000.0);
        figure.first_status = answer.ok().map(|(status, _)| status);
    }
    let mut healthz = vec![wrk(cores, server.port, "/healthz", false, 2, CONNECTIONS, LOAD_SECONDS)?];
    for ((name, path), figure) in reads.iter().zip(&mut figures) {
        eprintln!("bench: {} {name}", backend.name());
        let gzip = sent_with_gzip(name);
        figure.one_client = wrk(cores, server.port, path, gzip, 1, 1, ONE_CLIENT_SECONDS).ok();
        figure.loaded = wrk(cores, server.port, path, gzip, 2, CONNECTIONS, LOAD_SECONDS).ok();
    }
    healthz.push(wrk(cores, server.port, "/healthz", false, 2, CONNECTIONS, LOAD_SECONDS)?);
    let loaded_memory = memory(server.child.id())?;
    drop(server);
    // Every answer built anew: a restart with the answer cache off, one client per read.
    let mut uncached_settings = settings.clone();
    uncached_settings.push(("LAUNCHDIR_ANSWER_CACHE_MS".into(), "0".into()));
    let (server, _) = start_server(binary, &data_dir, &uncached_settings, cores.server.as_deref())?;
    for ((name, path), figure) in reads.iter().zip(&mut figures) {
        eprintln!("bench: {} {name} (answer cache off)", backend.name());
        figure.uncached = wrk(cores, server.port, path, sent_with_gzip(name), 1, 1, ONE_CLIENT_SECONDS).ok();
    }
    drop(server);

    let ceiling = median(healthz.iter().map(|h| h.requests_per_second).collect());
    println!("### {}, {} listings", backend.name(), bulk + 320);
    println!();
    println!("| figure | value |");
    println!("|---|---|");
    println!("| seeding {bulk} generated listings (`seed --demo --bulk-listings`) | {seed_seconds:.1} s |");
    println!("| start-up to ready (a restart on the seeded directory) | {:.0} ms |", start_up.as_secs_f64() * 1000.0);
    println!("| memory when ready (RSS) | {ready_memory} |");
    println!("| memory after the load runs (RSS) | {loaded_memory} |");
    println!(
        "| `GET /healthz` at {CONNECTIONS} connections (before / after the reads) | {:.0} / {:.0} req/s |",
        healthz[0].requests_per_second, healthz[1].requests_per_second
    );
    println!();
    println!(
        "| read | request | req/s ({CONNECTIONS} conn.) | share of `/healthz` | p50 / p99 ({CONNECTIONS} conn.) | errors | one client p50 / p99 | one client, answer cache off | first request after start |"
    );
    println!("|---|---|---|---|---|---|---|---|---|");
    for ((name, path), figure) in reads.iter().zip(&figures) {
        let loaded = figure.loaded.as_ref().map_or("failed".to_owned(), |w| format!("{:.0}", w.requests_per_second));
        let share = figure.loaded.as_ref().map_or("-".to_owned(), |w| format!("{:.1} %", 100.0 * w.requests_per_second / ceiling));
        let latency = figure.loaded.as_ref().map_or("-".to_owned(), |w| format!("{} / {}", w.p50, w.p99));
        let errors = figure
            .loaded
            .as_ref()
            .map_or("-".to_owned(), |w| if w.errors == 0 { "0".to_owned() } else { format!("{} of {}", w.errors, w.requests + w.errors) });
        let one = figure.one_client.as_ref().map_or("failed".to_owned(), |w| format!("{} / {}", w.p50, w.p99));
        let uncached = figure.uncached.as_ref().map_or("failed".to_owned(), |w| format!("{} / {}", w.p50, w.p99));
        let first = match (figure.first_ms, figure.first_status) {
            (Some(ms), Some(status)) if (200..300).contains(&status) => format!("{ms:.1} ms"),
            (Some(ms), Some(status)) => format!("{ms:.1} ms (answered {status})"),
            (Some(ms), None) => format!("no answer after {ms:.0} ms"),
            _ => "-".to_owned(),
        };
        println!("| {name} | `GET {path}` | {loaded} | {share} | {latency} | {errors} | {one} | {uncached} | {first} |");
    }
    println!();
    println!(
        "(`/healthz` ceiling: {ceiling:.0} req/s, the median of its loads before and after; wrk -t2 -c{CONNECTIONS} -d{LOAD_SECONDS}s --timeout 5s; one client: wrk -t1 -c1 -d{ONE_CLIENT_SECONDS}s; the first request after start and the last column build every answer, the others may be served from the answer cache (`answer_cache_ms`, 1 s; pages for visitors without a session too); pages and the reads marked (gzip) are sent with `Accept-Encoding: gzip`, the others without; rate limits off; {})",
        cores.note()
    );
    println!();
    // The same directory's long tail, in the same run.
    let run = crate::long_tail::Run { binary, scratch, bulk, cores };
    crate::long_tail::measure(&run, backend, Some(data_dir))?;
    backend.clean_up();
    Ok(())
}

/// The reads with their placeholders filled from the running server.
fn resolve(server: &Server) -> anyhow::Result<Vec<(String, String)>> {
    let founder = first_slug(server.port, "/api/v1/founders?per_page=1")?;
    let post = first_slug(server.port, "/api/v1/blog?per_page=1")?;
    Ok(READS.iter().map(|(name, path)| ((*name).to_owned(), path.replace("{founder}", &founder).replace("{post}", &post))).collect())
}

/// The databases a run measures: SQLite, PostgreSQL at `LAUNCHDIR_BENCH_POSTGRES` (default
/// `postgres://postgres@127.0.0.1:5432`, in a database made for the run), or both.
fn backends(sqlite: bool, postgres: bool) -> Vec<Backend> {
    let mut backends = Vec::new();
    if sqlite {
        backends.push(Backend::Sqlite);
    }
    if postgres {
        let server = std::env::var("LAUNCHDIR_BENCH_POSTGRES").unwrap_or_else(|_| "postgres://postgres@127.0.0.1:5432".into());
        backends.push(Backend::Postgres { server, database: format!("launchdir_bench_{}", std::process::id()) });
    }
    backends
}

/// `bench --long-tail`: only the long-tail table, of `binary` when given (else this release
/// build), over the directory kept in `data_dir` when given (seeded there on first use, SQLite).
pub fn run_long_tail(
    root: &Path,
    bulk: usize,
    sqlite: bool,
    postgres: bool,
    binary: Option<&Path>,
    data_dir: Option<&Path>,
) -> anyhow::Result<()> {
    let binary = match binary {
        Some(binary) => binary.to_owned(),
        None => {
            crate::run(crate::cargo().args(["build", "--release", "-p", "launchdir"]))?;
            root.join("target/release/launchdir")
        }
    };
    let scratch = std::env::temp_dir().join(format!("launchdir-bench-tail-{}", std::process::id()));
    let cores = Cores::detect();
    let run = crate::long_tail::Run { binary: &binary, scratch: &scratch, bulk, cores: &cores };
    let backends = backends(sqlite, postgres);
    let outcome = backends.iter().try_for_each(|backend| {
        let kept = data_dir.filter(|_| matches!(backend, Backend::Sqlite)).map(Path::to_path_buf);
        crate::long_tail::measure(&run, backend, kept)
    });
    for backend in &backends {
        backend.clean_up();
    }
    std::fs::remove_dir_all(&scratch).ok();
    outcome
}

pub fn run(root: &Path, bulk: usize, sqlite: bool, postgres: bool) -> anyhow::Result<()> {
    crate::run(crate::cargo().args(["build", "--release", "-p", "launchdir"]))?;
    let binary = root.join("target/release/launchdir");
    let scratch = std::env::temp_dir().join(format!("launchdir-bench-scale-{}", std::process::id()));
    let cores = Cores::detect();
    let backends = backends(sqlite, postgres);
    let outcome = backends.iter().try_for_each(|backend| measure(&binary, &scratch, backend, bulk, &cores));
    for backend in &backends {
        backend.clean_up();
    }
    std::fs::remove_dir_all(&scratch).ok();
    outcome
}
