//! What the tests need on this machine, found or installed and started before they run:
//! PostgreSQL answering at `LAUNCHDIR_TEST_POSTGRES` (and its `psql`), Redis answering at
//! 127.0.0.1:6379 (and `redis-server`, which two tests start on ports of their own), Debian's
//! Chromium and its driver for the browser tests, `npm` for their accessibility checker, and
//! `s3s-fs` (an S3-compatible server from crates.io) for the media store's S3 tests;
//! for `cargo xtask ci` also what the contract fuzzer and the MCP suites use (Python with
//! `venv`, `openssl`). Each step says what it does and is safe to run again: what is there is
//! left as it is. Packages come from Debian (`apt-get`), which needs root; without it, one
//! message names everything missing and the way forward.

use anyhow::{Context, bail};
use std::io::{Read, Write};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// What a run needs besides the Rust toolchain.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Needs {
    /// A PostgreSQL server (not with `--sqlite-only`).
    pub postgres: bool,
    /// Python with `venv` and `openssl`, for `cargo xtask ci`'s contract and MCP stages.
    pub ci_tools: bool,
}

/// Finds, installs and starts what `needs` asks for.
pub(crate) fn prepare(root: &Path, needs: Needs, postgres_url: &str) -> anyhow::Result<()> {
    let mut packages: Vec<&str> = Vec::new();
    let mut wanted = |missing: bool, names: &[&'static str]| {
        if missing {
            packages.extend(names);
        }
    };
    wanted(!on_path("redis-server"), &["redis-server"]);
    wanted(!on_path("chromium") || !on_path("chromedriver"), &["chromium", "chromium-driver"]);
    wanted(!on_path("npm"), &["npm"]);
    if needs.postgres {
        wanted(!on_path("psql"), &["postgresql-client"]);
        wanted(!postgres_answers(postgres_url) && cluster_version().is_none() && is_local(postgres_url), &["postgresql"]);
    }
    if needs.ci_tools {
        let venv = Command::new("python3").args(["-c", "import venv, ensurepip"]).stderr(Stdio::null()).status();
        wanted(!venv.is_ok_and(|status| status.success()), &["python3", "python3-venv"]);
        wanted(!on_path("openssl"), &["openssl"]);
    }
    if !packages.is_empty() {
        install(&packages, needs)?;
    }
    if needs.postgres && !postgres_answers(postgres_url) {
        start_postgres(postgres_url)?;
    }
    if !redis_answers() {
        start_redis(root)?;
    }
    install_s3_server()
}

/// The S3-compatible server the media store's tests start (`crates/media_store/tests`). Built
/// once per machine from crates.io (about 2 minutes), like cargo-deny.
const S3_SERVER: &str = "s3s-fs@0.14.1";

fn install_s3_server() -> anyhow::Result<()> {
    if on_path("s3s-fs") {
        return Ok(());
    }
    eprintln!("installing {S3_SERVER} for the media store's S3 tests (cargo install, once per machine)");
    let status = Command::new("cargo")
        .args(["install", S3_SERVER, "--features", "binary", "--locked", "--quiet"])
        .status()
        .context("cannot run cargo install")?;
    if !status.success() {
        bail!("cargo install {S3_SERVER} failed; the media store's S3 tests need it");
    }
    Ok(())
}

/// Whether `name` is a program on `PATH`.
pub(crate) fn on_path(name: &str) -> bool {
    find(name).is_some()
}

fn find(name: &str) -> Option<PathBuf> {
    let path = std::env::var_os("PATH")?;
    std::env::split_paths(&path).map(|dir| dir.join(name)).find(|candidate| candidate.is_file())
}

fn running_as_root() -> bool {
    std::fs::read_to_string("/proc/self/status").is_ok_and(|status| {
        status.lines().find_map(|line| line.strip_prefix("Uid:")).and_then(|ids| ids.split_whitespace().nth(1)) == Some("0")
    })
}

/// Installs Debian `packages`, or says what is missing and how to go on.
fn install(packages: &[&str], needs: Needs) -> anyhow::Result<()> {
    let list = packages.join(" ");
    if !running_as_root() || !on_path("apt-get") {
        let mut message = format!(
            "the tests need Debian packages that are not installed: {list}.\n\
             Install them (as root: apt-get install {list}) and run again; `cargo xtask test` installs them itself when run as root on Debian."
        );
        if needs.postgres && packages.iter().any(|package| package.starts_with("postgresql")) {
            message.push_str(
                "\nWithout PostgreSQL, `cargo xtask test --sqlite-only` runs every test on SQLite (set LAUNCHDIR_TEST_POSTGRES for a server elsewhere).",
            );
        }
        bail!(message);
    }
    eprintln!("== installing {list} (Debian packages, for the tests)");
    let apt = |args: &[&str]| {
        crate::run(Command::new("apt-get").args(args).env("DEBIAN_FRONTEND", "noninteractive"))
            .with_context(|| format!("cannot install {list} with apt-get"))
    };
    apt(&["update", "-qq"])?;
    let mut install = vec!["install", "-y", "-qq", "--no-install-recommends"];
    install.extend(packages);
    apt(&install)
}

fn postgres_answers(url: &str) -> bool {
    Command::new("psql")
        .args([&format!("{url}/postgres"), "-Atqc", "select 1"])
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status()
        .is_ok_and(|status| status.success())
}

/// Whether `url` names this machine (only a local server can be installed or started here).
fn is_local(url: &str) -> bool {
    ["@127.0.0.1", "@localhost", "@[::1]", "://127.0.0.1", "://localhost"].iter().any(|local| url.contains(local))
}

/// The version of the local Debian PostgreSQL cluster, if one is installed.
fn cluster_version() -> Option<String> {
    let mut versions: Vec<String> =
        std::fs::read_dir("/etc/postgresql").ok()?.flatten().map(|entry| entry.file_name().to_string_lossy().into_owned()).collect();
    versions.sort();
    versions.pop()
}

fn wait_for(what: &str, bound: Duration, ready: impl Fn() -> bool) -> anyhow::Result<()> {
    let started = Instant::now();
    while started.elapsed() < bound {
        if ready() {
            return Ok(());
        }
        std::thread::sleep(Duration::from_millis(250));
    }
    bail!("{what} did not answer within {} s", bound.as_secs())
}

/// Starts the local cluster. One this run installed gets trust authentication for local
/// connections, as the tests connect without a password (a cluster that was there is left
/// as it is configured).
fn start_postgres(url: &str) -> anyhow::Result<()> {
    if !is_local(url) {
        bail!("PostgreSQL does not answer at {url}, which is not on this machine: start it, or run `cargo xtask test --sqlite-only`");
    }
    let Some(version) = cluster_version() else {
        bail!("PostgreSQL does not answer at {url} and no local cluster is installed: run `cargo xtask test --sqlite-only`")
    };
    eprintln!("== PostgreSQL does not answer at {url}: starting the local cluster {version}/main");
    let hba = PathBuf::from(format!("/etc/postgresql/{version}/main/pg_hba.conf"));
    let trust = "# Added by `cargo xtask test`: the tests connect as postgres without a password.\nhost all all 127.0.0.1/32 trust\nhost all all ::1/128 trust\n";
    if let Ok(current) = std::fs::read_to_string(&hba)
        && !current.contains("Added by `cargo xtask test`")
        && !current.lines().any(|line| line.trim_start().starts_with("host") && line.contains("127.0.0.1/32") && line.contains("trust"))
        && fresh_cluster(&version)
    {
        std::fs::write(&hba, format!("{trust}{current}")).with_context(|| format!("cannot write {}", hba.display()))?;
    }
    crate::run(Command::new("pg_ctlcluster").args(["--skip-systemctl-redirect", &version, "main", "start"]))
        .or_else(|err| if postgres_answers(url) { Ok(()) } else { Err(err) })?;
    wait_for("PostgreSQL", Duration::from_secs(30), || postgres_answers(url))
}

/// Whether the cluster holds nothing but what `initdb` made (so changing its authentication
/// touches nobody's set-up): no database besides `postgres` and the templates.
fn fresh_cluster(version: &str) -> bool {
    let base = PathBuf::from(format!("/var/lib/postgresql/{version}/main/base"));
    std::fs::read_dir(base).map(|entries| entries.count() <= 3).unwrap_or(false)
}

/// Whether a Redis answers `PING` at 127.0.0.1:6379.
fn redis_answers() -> bool {
    let Ok(mut stream) = std::net::TcpStream::connect_timeout(&([127, 0, 0, 1], 6379).into(), Duration::from_secs(1)) else {
        return false;
    };
    let _ = stream.set_read_timeout(Some(Duration::from_secs(2)));
    let mut reply = [0u8; 5];
    stream.write_all(b"PING\r\n").is_ok() && stream.read_exact(&mut reply).is_ok() && &reply == b"+PONG"
}

/// Starts a Redis for the tests at 127.0.0.1:6379 that keeps nothing on disk, its files under
/// `target/redis/`. It goes on after the run, like a machine's own service, for the next run.
fn start_redis(root: &Path) -> anyhow::Result<()> {
    eprintln!("== Redis does not answer at 127.0.0.1:6379: starting one");
    let dir = root.join("target/redis");
    std::fs::create_dir_all(&dir)?;
    crate::run(
        Command::new("redis-server")
            .args(["--daemonize", "yes", "--bind", "127.0.0.1", "-::1", "--port", "6379", "--save", "", "--appendonly", "no", "--dir"])
            .arg(&dir)
            .arg("--logfile")
            .arg(dir.join("redis.log")),
    )?;
    wait_for("Redis", Duration::from_secs(30), redis_answers)
}
