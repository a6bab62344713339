//! Project automation, run as `cargo xtask <command>`.
//!
//! - `ci`: what CI runs: format check, tidy, the tests' build linted by clippy with warnings
//!   denied, the OpenAPI check, tests on SQLite and PostgreSQL, the README's screenshots, the
//!   contract fuzzer, the MCP conformance suite, and a check that the run left no file in the
//!   tree; the time of each stage at the end.
//! - `test [--sqlite-only]`: the whole test suite, built once: every test binary on SQLite and
//!   those that can reach a database on PostgreSQL (`suite`), after finding or installing and
//!   starting what it needs (`machine`: PostgreSQL, Redis, Chromium and its driver, npm).
//! - `prepare [--sqlite-only] [--ci]`: only that preparation (with `--ci`, also what `ci` needs).
//! - `screenshots`: the README's pictures of the site (`docs/images/`), each page checked by axe
//!   first; `ci` makes them under `target/` and keeps nothing.
//! - `tidy`: dependency rules (domain crates never depend on frameworks or adapters).
//! - `openapi [--check]`: writes (or checks) `docs/openapi.json`, as `launchdir openapi` prints it.
//! - `conformance [--no-build]`: the official MCP conformance suite against `/mcp` (Node 22 and the
//!   suite are installed with npm into `target/conformance/`).
//! - `contract`: schemathesis against the REST API's OpenAPI document on a fresh demo server
//!   (installed with pip into `target/contract/`); fails on server errors, schema violations and
//!   refusals not in `tests/contract/allowed-refusals.toml`.
//! - `bench [--bulk N] [--sqlite-only | --postgres-only]`: the release build's size, start-up and
//!   idle memory, then every public read and page at N generated listings (default 20,000) on
//!   SQLite and PostgreSQL: first request after start, one-client p50/p99, req/s at 64
//!   connections as a share of `/healthz`'s, errors, memory; `bench --drafts`:
//!   submission by URL on the fixture websites (time to ready, recall, invented values);
//!   `bench --limits`: what the rate limiter costs (limits off, in memory, in Redis);
//!   `bench --long-tail [--binary B] [--data DIR]`: each public read and page loaded with one
//!   address over and over and with a different address every request, the answer cache off
//!   (also a part of the plain `bench`); `--data` keeps the seeded SQLite directory for reuse;
//!   `bench --pages`: every kind of page's req/s beside its API operation's and `/healthz`'s;
//!   `bench --compare BINARY`: the public reads of this build against another build, in one run;
//!   `bench --sign-in`: a plain read's median latency alone and during a spray of wrong passwords;
//!   `bench --orders`: `quote_order` and `get_order` latency beside `get_site_info`, one client;
//!   `bench --votes`: votes a second on the site beside `get_listing` and `/healthz`;
//!   `bench --mcp [--compare BINARY]`: `tools/call` against its REST twin for a kept-alive
//!   plain HTTP client, a new connection per call and the official MCP Python SDK.

mod bench;
mod conformance;
mod contract;
mod long_tail;
mod machine;
mod scale;
mod suite;
mod tidy;

use anyhow::{Context, bail};
use std::path::{Path, PathBuf};
use std::process::Command;

fn main() -> anyhow::Result<()> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let root = workspace_root();
    std::env::set_current_dir(&root)?;
    match args.first().map(String::as_str) {
        Some("ci") => ci(),
        Some("test") => test(args.iter().any(|a| a == "--sqlite-only")),
        Some("prepare") => machine::prepare(
            &root,
            machine::Needs { postgres: !args.iter().any(|a| a == "--sqlite-only"), ci_tools: args.iter().any(|a| a == "--ci") },
            &postgres_server_url(),
        ),
        Some("tidy") => tidy::check(&root),
        Some("screenshots") => screenshots(&root, Path::new("docs/images"), None),
        Some("openapi") => openapi(&root, args.iter().any(|a| a == "--check"), Built::NotYet),
        // `--no-build`: the server binary is current (`ci` runs the suite beside the contract).
        Some("conformance") => {
            conformance::run_suite(&root, if args.iter().any(|a| a == "--no-build") { Built::Already } else { Built::NotYet })
        }
        Some("contract") => contract::run_contract(&root, Built::NotYet),
        // tools/call against its REST twin for three kinds of client, in one run.
        Some("bench") if args.iter().any(|a| a == "--mcp") => {
            let other = args.iter().position(|a| a == "--compare").and_then(|i| args.get(i + 1)).map(PathBuf::from);
            bench::mcp_clients(&root, other.as_deref())
        }
        // Submission by URL on the fixture websites, over the HTTP API.
        Some("bench") if args.iter().any(|a| a == "--drafts") => {
            // Submit-to-ready times over the API, then the prose corpus's per-field figures.
            measurement("measure_drafting_on_the_fixtures")?;
            run(cargo().args([
                "test",
                "--release",
                "-p",
                "drafter",
                "--test",
                "it",
                "measure_the_prose_corpus",
                "--",
                "--ignored",
                "--nocapture",
            ]))
        }
        // quote_order and get_order beside get_site_info, one client, in one run.
        Some("bench") if args.iter().any(|a| a == "--orders") => measurement("measure_order_reads_against_site_info"),
        // Votes a second (page form posts, each a write) beside get_listing and /healthz.
        Some("bench") if args.iter().any(|a| a == "--votes") => measurement("measure_votes_per_second_beside_a_read"),
        // verify_claim per method (loopback DNS server and website) beside get_site_info, one client.
        Some("bench") if args.iter().any(|a| a == "--claims") => measurement("measure_claim_verification_against_site_info"),
        // A plain read's latency while wrong passwords are sprayed at /signin.
        Some("bench") if args.iter().any(|a| a == "--sign-in") => bench::sign_in_spray(&root),
        Some("bench") => {
            let bulk = args
                .iter()
                .position(|a| a == "--bulk")
                .and_then(|i| args.get(i + 1))
                .map_or(Ok(20_000), |n| n.parse())
                .context("--bulk takes a number")?;
            // get_listing with rate limits off, in memory and in Redis, in one run.
            let other =
                args.iter().position(|a| a == "--compare").map(|i| args.get(i + 1).map(PathBuf::from).context("--compare takes a binary"));
            match other {
                Some(other) => bench::compare(&root, &other?, bulk),
                None if args.iter().any(|a| a == "--limits") => bench::limits(&root, bulk),
                // Every kind of page beside its API operation and /healthz, in one run.
                None if args.iter().any(|a| a == "--pages") => bench::pages(&root, bulk),
                // One address over and over, and a different one every request with the cache off.
                None if args.iter().any(|a| a == "--long-tail") => {
                    let value_of = |flag: &str| args.iter().position(|a| a == flag).and_then(|i| args.get(i + 1)).map(PathBuf::from);
                    scale::run_long_tail(
                        &root,
                        bulk,
                        !args.iter().any(|a| a == "--postgres-only"),
                        !args.iter().any(|a| a == "--sqlite-only"),
                        value_of("--binary").as_deref(),
                        value_of("--data").as_deref(),
                    )
                }
                None => {
                    bench::footprint(&root)?;
                    let postgres_only = args.iter().any(|a| a == "--postgres-only");
                    let sqlite_only = args.iter().any(|a| a == "--sqlite-only");
                    scale::run(&root, bulk, !postgres_only, !sqlite_only)
                }
            }
        }
        _ => {
            eprintln!(
                "usage: cargo xtask <ci | test [--sqlite-only] | prepare [--sqlite-only] [--ci] | tidy | screenshots | openapi [--check] | bench [--bulk N] [--sqlite-only | --postgres-only | --limits | --pages | --compare BINARY | --long-tail [--binary B] [--data DIR]] | bench --drafts | bench --mcp [--compare BINARY] | bench --orders | bench --votes | bench --claims | bench --sign-in | conformance [--no-build] | contract>"
            );
            bail!("unknown command")
        }
    }
}

fn workspace_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).parent().expect("xtask lives in the workspace").to_path_buf()
}

/// Runs one of the server's ignored measurement tests in release mode, printing its figures.
fn measurement(test: &str) -> anyhow::Result<()> {
    run(cargo().args(["test", "--release", "-p", "launchdir", "--test", "it", test, "--", "--ignored", "--nocapture"]))
}

pub(crate) fn cargo() -> Command {
    Command::new(std::env::var("CARGO").unwrap_or_else(|_| "cargo".into()))
}

/// The server binary the debug build makes (`CARGO_TARGET_DIR` honoured).
pub(crate) fn server_binary(root: &Path) -> PathBuf {
    std::env::var_os("CARGO_TARGET_DIR").map_or_else(|| root.join("target"), PathBuf::from).join("debug/launchdir")
}

/// Builds the server binary for the contract and MCP stages, unless the run built it already:
/// `ci` builds every test first, which makes it with the whole workspace's features, and a
/// second build for the one package would compile its dependencies again with other ones.
pub(crate) fn build_server(built: Built) -> anyhow::Result<()> {
    match built {
        Built::Already => Ok(()),
        Built::NotYet => run(cargo().args(["build", "-p", "launchdir"])),
    }
}

/// Whether the server binary is built and current.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Built {
    Already,
    NotYet,
}

pub(crate) fn run(command: &mut Command) -> anyhow::Result<()> {
    eprintln!("$ {command:?}");
    let status = command.status().with_context(|| format!("cannot run {command:?}"))?;
    if !status.success() {
        bail!("{command:?} failed with {status}");
    }
    Ok(())
}

/// The stages of a CI run and how long each took, printed at the end whether the run passed or
/// not, so a slow stage shows itself.
#[derive(Default)]
struct Stages(Vec<(&'static str, std::time::Duration, bool)>);

impl Stages {
    fn run(&mut self, name: &'static str, stage: impl FnOnce() -> anyhow::Result<()>) -> anyhow::Result<()> {
        eprintln!("== stage: {name}");
        let started = std::time::Instant::now();
        let result = stage();
        self.0.push((name, started.elapsed(), result.is_ok()));
        result
    }

    fn print(&self) {
        let total: std::time::Duration = self.0.iter().map(|(_, took, _)| *took).sum();
        eprintln!("\n== CI stages (total {:.0} s)", total.as_secs_f64());
        for (name, took, passed) in &self.0 {
            eprintln!("{name:<28} {:>7.0} s  {}", took.as_secs_f64(), if *passed { "ok" } else { "FAILED" });
        }
    }
}

fn ci() -> anyhow::Result<()> {
    let root = workspace_root();
    let before = git_status(&root)?;
    let mut stages = Stages::default();
    let result = (|| {
        stages.run("prepare the machine", || {
            machine::prepare(&root, machine::Needs { postgres: true, ci_tools: true }, &postgres_server_url())
        })?;
        stages.run("format and layout", || {
            run(cargo().args(["fmt", "--all", "--", "--check"]))?;
            tidy::check(&root)
        })?;
        let mut binaries = Vec::new();
        stages.run("build the tests, with clippy", || {
            install_axe(&root)?;
            binaries = suite::build(&root, suite::Lints::Denied)?;
            Ok(())
        })?;
        stages.run("openapi document", || openapi(&root, true, Built::Already))?;
        stages.run("tests on SQLite and PostgreSQL", || tests_on_both(&root, &binaries))?;
        stages.run("screenshots, contract, MCP", || servers_side_by_side(&root, &binaries))?;
        stages.run("nothing generated left behind", || tree_as_before(&root, &before))
    })();
    stages.print();
    result
}

/// The README's screenshots (made, not kept) and the contract fuzzer, with the MCP conformance
/// suite beside them in a second process: each starts servers of its own and spends much of its
/// time waiting on them, so on two cores the three take little longer than the longest alone.
/// The suite prints into a log, shown when it ends.
fn servers_side_by_side(root: &Path, binaries: &[suite::TestBinary]) -> anyhow::Result<()> {
    let log_path = root.join("target/test-logs/conformance.log");
    std::fs::create_dir_all(log_path.parent().expect("a log has a directory"))?;
    let log = std::fs::File::create(&log_path).with_context(|| format!("cannot write {}", log_path.display()))?;
    eprintln!("== the MCP conformance suite runs beside this; it prints into {} and is shown at the end", log_path.display());
    let mut conformance = Command::new(std::env::current_exe()?)
        .args(["conformance", "--no-build"])
        .stdout(log.try_clone()?)
        .stderr(log)
        .spawn()
        .context("cannot start the conformance suite")?;
    let here =
        screenshots(root, Path::new("target/readme-images"), Some(binaries)).and_then(|()| contract::run_contract(root, Built::Already));
    let beside = conformance.wait()?;
    eprintln!("== the MCP conformance suite, as it printed ({})", log_path.display());
    std::io::copy(&mut std::fs::File::open(&log_path)?, &mut std::io::stderr())?;
    match (here, beside.success()) {
        (Ok(()), true) => Ok(()),
        (Ok(()), false) => bail!("the MCP conformance suite failed ({beside})"),
        (Err(here), true) => Err(here),
        (Err(here), false) => bail!("{here:#}; and the MCP conformance suite failed ({beside})"),
    }
}

/// `git status --porcelain` of the tree.
fn git_status(root: &Path) -> anyhow::Result<String> {
    let output = Command::new("git").args(["status", "--porcelain"]).current_dir(root).output().context("cannot run git status")?;
    if !output.status.success() {
        bail!("git status failed: {}", String::from_utf8_lossy(&output.stderr));
    }
    Ok(String::from_utf8_lossy(&output.stdout).into_owned())
}

/// The run left the tree as it found it (on a clean clone: clean): every file a test, a server
/// or a tool writes is under `target/` or ignored, so nothing generated gets committed.
fn tree_as_before(root: &Path, before: &str) -> anyhow::Result<()> {
    let after = git_status(root)?;
    if after != before {
        bail!("the run changed or left files in the tree (write them under target/, or ignore them):\nbefore:\n{before}\nafter:\n{after}");
    }
    eprintln!("the tree is as the run found it");
    Ok(())
}

/// The PostgreSQL server tests use; a fresh database is created in it for each run.
fn postgres_server_url() -> String {
    std::env::var("LAUNCHDIR_TEST_POSTGRES").unwrap_or_else(|_| "postgres://postgres@127.0.0.1:5432".into())
}

fn psql(server: &str, sql: &str) -> anyhow::Result<()> {
    let status = Command::new("psql")
        .args([&format!("{server}/postgres"), "-v", "ON_ERROR_STOP=1", "-q", "-c", sql])
        .status()
        .context("psql is needed to create the test database (Debian package postgresql-client)")?;
    if !status.success() {
        bail!("psql failed: {sql}");
    }
    Ok(())
}

/// The axe-core release the browser tests inject into pages (npm), pinned so checks do not
/// change under the tests.
const AXE_CORE: &str = "axe-core@4.14.1";

/// Installs axe-core under `target/browser` for the browser tests' accessibility checks.
fn install_axe(root: &Path) -> anyhow::Result<()> {
    let prefix = root.join("target/browser");
    if prefix.join("node_modules/axe-core/axe.min.js").exists() {
        return Ok(());
    }
    std::fs::create_dir_all(&prefix)?;
    run(Command::new("npm").args(["install", "--no-audit", "--no-fund", "--prefix"]).arg(&prefix).arg(AXE_CORE))
        .context("npm is needed to install axe-core for the browser tests")
}

fn test(sqlite_only: bool) -> anyhow::Result<()> {
    let root = workspace_root();
    machine::prepare(&root, machine::Needs { postgres: !sqlite_only, ci_tools: false }, &postgres_server_url())?;
    install_axe(&root)?;
    let binaries = suite::build(&root, suite::Lints::Off)?;
    if sqlite_only {
        return suite::run(&binaries, &suite::Backend::Sqlite, None);
    }
    tests_on_both(&root, &binaries)
}

/// Every binary on SQLite and, beside it, the PostgreSQL pass in a database made for this run
/// and dropped after it.
fn tests_on_both(root: &Path, binaries: &[suite::TestBinary]) -> anyhow::Result<()> {
    let server = postgres_server_url();
    let database = format!("launchdir_test_{}", std::process::id());
    eprintln!("== tests on SQLite, and on PostgreSQL ({server}/{database})");
    psql(&server, &format!("CREATE DATABASE {database}")).context("is PostgreSQL running? (see README)")?;
    let result = suite::run_side_by_side(root, binaries, &format!("{server}/{database}"));
    let dropped = psql(&server, &format!("DROP DATABASE IF EXISTS {database} WITH (FORCE)"));
    result?;
    dropped
}

/// The browser test behind the README's pictures (`apps/server/tests/it/readme.rs`).
const README_PICTURES_TEST: &str = "readme::the_readme_pictures_pages_that_pass_the_accessibility_check";

/// The README's screenshots, made from the demo data into `into` (relative to the workspace) by
/// the browser test that first checks each pictured page with axe. CI makes them under `target/`
/// and keeps nothing; `cargo xtask screenshots` writes `docs/images/`, which is committed.
fn screenshots(root: &Path, into: &Path, built: Option<&[suite::TestBinary]>) -> anyhow::Result<()> {
    let built_here;
    let binaries = match built {
        Some(binaries) => binaries,
        None => {
            machine::prepare(root, machine::Needs { postgres: false, ci_tools: false }, &postgres_server_url())?;
            install_axe(root)?;
            built_here = suite::build(root, suite::Lints::Off)?;
            &built_here
        }
    };
    suite::run_one(binaries, ("launchdir", "it"), README_PICTURES_TEST, &[("LAUNCHDIR_README_IMAGES", into)])?;
    eprintln!("the README's screenshots are in {}", root.join(into).display());
    Ok(())
}

/// Writes (or checks) `docs/openapi.json`: the server binary prints the document
/// (`launchdir openapi`), so xtask itself stays small and quick to build.
fn openapi(root: &Path, check: bool, built: Built) -> anyhow::Result<()> {
    build_server(built)?;
    let binary = server_binary(root);
    let output = Command::new(&binary).arg("openapi").output().with_context(|| format!("cannot run {}", binary.display()))?;
    if !output.status.success() {
        bail!("launchdir openapi failed: {}", String::from_utf8_lossy(&output.stderr));
    }
    let text = String::from_utf8(output.stdout).context("the OpenAPI document is not UTF-8")?;
    let path = root.join("docs/openapi.json");
    if check {
        let current = std::fs::read_to_string(&path).unwrap_or_default();
        if current != text {
            bail!("docs/openapi.json is out of date: run `cargo xtask openapi`");
        }
        eprintln!("docs/openapi.json is up to date");
    } else {
        std::fs::write(&path, text)?;
        eprintln!("wrote {}", path.display());
    }
    Ok(())
}
