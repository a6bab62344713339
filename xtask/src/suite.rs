//! The test suite, built once and run per database: every test binary on SQLite, and on
//! PostgreSQL only the binaries of the packages that can reach a database.
//!
//! `cargo test` would run all 32 binaries twice and stop at the first that fails. Here the build
//! is one `cargo test --no-run`, whose messages name each binary and its package; a package can
//! reach a database only through SeaORM (`store_seaorm` is the one adapter that holds the
//! drivers), so the PostgreSQL pass takes the binaries of packages with a direct dependency on
//! `sea-orm`, read from `cargo metadata`. Nothing is listed by hand: a new package that uses the
//! database joins the PostgreSQL pass by depending on SeaORM.

use crate::cargo;
use anyhow::{Context, bail};
use serde_json::Value;
use std::collections::HashSet;
use std::io::{BufRead, Write};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// One test executable of the workspace, as `cargo test --no-run` reported it.
#[derive(Debug, Clone)]
pub struct TestBinary {
    pub executable: PathBuf,
    /// The package's name and the target's (`launchdir`, `it`), for messages.
    pub package: String,
    pub target: String,
    /// The package's directory: `cargo test` runs each binary there, and tests rely on it.
    pub package_dir: PathBuf,
    /// Whether the package depends on SeaORM, so its tests can touch a database.
    pub reaches_database: bool,
}

impl TestBinary {
    fn name(&self) -> String {
        format!("{} ({})", self.package, self.target)
    }

    /// The binary run as `cargo test` would run it: in its package's directory, on `backend`.
    fn command(&self, backend: &Backend) -> Command {
        let mut command = Command::new(&self.executable);
        command
            .current_dir(&self.package_dir)
            .env("LAUNCHDIR_TEST_DATABASE_URL", backend.url())
            .env("CARGO_MANIFEST_DIR", &self.package_dir)
            .env("CARGO_PKG_NAME", &self.package);
        command
    }
}

/// The database a pass runs on.
#[derive(Debug, Clone)]
pub enum Backend {
    Sqlite,
    /// A `postgres://` URL of a database made for this run.
    Postgres(String),
}

impl Backend {
    fn name(&self) -> &'static str {
        match self {
            Backend::Sqlite => "SQLite",
            Backend::Postgres(_) => "PostgreSQL",
        }
    }

    fn url(&self) -> &str {
        match self {
            Backend::Sqlite => "sqlite",
            Backend::Postgres(url) => url,
        }
    }

    /// PostgreSQL tests wait on round trips (seeding the demo directory is about 5,000 of them)
    /// far more than on the processor, so more tests at once hide the waiting: on two cores the
    /// server's end-to-end binary took 281 s with two threads and 147 s with six. SQLite runs in
    /// the process and keeps both cores busy with two (six made no difference).
    fn test_threads(&self) -> usize {
        match self {
            Backend::Sqlite => 2,
            Backend::Postgres(_) => 6,
        }
    }
}

/// Whether the build also runs clippy.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Lints {
    /// A plain build (`cargo xtask test`).
    Off,
    /// Clippy's lints on every workspace crate, warnings denied, in the same compilation (CI).
    Denied,
}

/// Builds every test target of the workspace once and lists the executables.
///
/// With `Lints::Denied` the workspace's crates are compiled by `clippy-driver` (what `cargo
/// clippy` does, through the same `RUSTC_WORKSPACE_WRAPPER` and `CLIPPY_ARGS`), so one
/// compilation both lints and builds: `cargo clippy` followed by the build compiled every
/// dependency twice (once checked, once built), a third of CI's time on two cores.
pub fn build(root: &Path, lints: Lints) -> anyhow::Result<Vec<TestBinary>> {
    let database_packages = packages_using_seaorm(root)?;
    let mut command = cargo();
    command.args(["test", "--workspace", "--all-targets", "--no-run", "--message-format=json-render-diagnostics"]);
    if lints == Lints::Denied {
        // cargo-clippy's own encoding of the arguments after `--`.
        command.env("RUSTC_WORKSPACE_WRAPPER", "clippy-driver").env("CLIPPY_ARGS", "-D__CLIPPY_HACKERY__warnings__CLIPPY_HACKERY__");
    }
    eprintln!("$ {command:?}");
    let mut child = command.stdout(Stdio::piped()).spawn().context("cannot run cargo test --no-run")?;
    let stdout = child.stdout.take().context("cargo's output")?;
    let mut binaries = Vec::new();
    for line in std::io::BufReader::new(stdout).lines() {
        let line = line?;
        let Ok(message) = serde_json::from_str::<Value>(&line) else { continue };
        let is_test = message["reason"] == "compiler-artifact" && message["profile"]["test"] == true;
        let Some(executable) = message["executable"].as_str().filter(|_| is_test) else { continue };
        let package_id = message["package_id"].as_str().unwrap_or_default();
        let manifest = PathBuf::from(message["manifest_path"].as_str().unwrap_or_default());
        binaries.push(TestBinary {
            executable: PathBuf::from(executable),
            package: package_name(package_id),
            target: message["target"]["name"].as_str().unwrap_or_default().to_owned(),
            package_dir: manifest.parent().map(Path::to_path_buf).unwrap_or_else(|| root.to_path_buf()),
            reaches_database: database_packages.contains(package_id),
        });
    }
    let status = child.wait()?;
    if !status.success() {
        bail!("building the tests failed ({status})");
    }
    if binaries.is_empty() {
        bail!("cargo test --no-run named no test binary");
    }
    binaries.sort_by(|a, b| (&a.package, &a.target).cmp(&(&b.package, &b.target)));
    Ok(binaries)
}

/// A package id's name: `path+file:///work/main/apps/server#launchdir@0.1.0` → `launchdir`, and
/// `path+file:///work/main/crates/store_seaorm#0.1.0` → `store_seaorm` (cargo leaves the name out
/// when it is the directory's).
fn package_name(id: &str) -> String {
    let (url, tail) = id.rsplit_once('#').unwrap_or((id, ""));
    match tail.split_once('@') {
        Some((name, _)) => name.to_owned(),
        None => url.rsplit('/').next().unwrap_or(url).to_owned(),
    }
}

/// The ids of the workspace's packages that depend on `sea-orm` themselves.
fn packages_using_seaorm(root: &Path) -> anyhow::Result<HashSet<String>> {
    let output = cargo()
        .args(["metadata", "--format-version", "1", "--no-deps"])
        .current_dir(root)
        .stderr(Stdio::inherit())
        .output()
        .context("cannot run cargo metadata")?;
    if !output.status.success() {
        bail!("cargo metadata failed");
    }
    let metadata: Value = serde_json::from_slice(&output.stdout).context("cargo metadata's output")?;
    let packages = metadata["packages"].as_array().context("cargo metadata lists no packages")?;
    Ok(packages
        .iter()
        .filter(|package| package["dependencies"].as_array().is_some_and(|deps| deps.iter().any(|dep| dep["name"] == "sea-orm")))
        .filter_map(|package| package["id"].as_str().map(str::to_owned))
        .collect())
}

/// Runs the binaries for `backend` (all on SQLite; those that reach a database on PostgreSQL),
/// each in its package's directory as `cargo test` would. Every binary runs even when one
/// fails; the failures are named at the end. With `log`, what the binaries and this pass print
/// goes to that file instead of the terminal.
pub fn run(binaries: &[TestBinary], backend: &Backend, log: Option<&Path>) -> anyhow::Result<()> {
    let mut out = Output::to(log)?;
    let chosen: Vec<&TestBinary> = binaries.iter().filter(|binary| matches!(backend, Backend::Sqlite) || binary.reaches_database).collect();
    let threads = std::env::var("RUST_TEST_THREADS").unwrap_or_else(|_| backend.test_threads().to_string());
    out.say(&format!("== {} test binaries on {} ({threads} tests at a time in each)", chosen.len(), backend.name()))?;
    let mut failed = Vec::new();
    let mut times: Vec<(String, Duration)> = Vec::new();
    for binary in chosen {
        let started = Instant::now();
        let mut command = binary.command(backend);
        command.env("RUST_TEST_THREADS", &threads);
        let status = out.run(&mut command).with_context(|| format!("cannot run {}", binary.executable.display()))?;
        times.push((binary.name(), started.elapsed()));
        if !status.success() {
            out.say(&format!("!! {} failed ({status})", binary.name()))?;
            failed.push(binary.name());
        }
    }
    times.sort_by_key(|(_, took)| std::cmp::Reverse(*took));
    let total: Duration = times.iter().map(|(_, took)| *took).sum();
    out.say(&format!("== {} in {:.0} s; the slowest:", backend.name(), total.as_secs_f64()))?;
    for (name, took) in times.iter().take(5) {
        out.say(&format!("   {:>6.1} s  {name}", took.as_secs_f64()))?;
    }
    if !failed.is_empty() {
        bail!("tests failed on {}: {}", backend.name(), failed.join(", "));
    }
    Ok(())
}

/// Where a pass prints: the terminal, or a log file.
enum Output {
    Terminal,
    Log(std::fs::File),
}

impl Output {
    fn to(log: Option<&Path>) -> anyhow::Result<Output> {
        let Some(path) = log else { return Ok(Output::Terminal) };
        if let Some(dir) = path.parent() {
            std::fs::create_dir_all(dir)?;
        }
        Ok(Output::Log(std::fs::File::create(path).with_context(|| format!("cannot write {}", path.display()))?))
    }

    fn say(&mut self, line: &str) -> anyhow::Result<()> {
        match self {
            Output::Terminal => eprintln!("{line}"),
            Output::Log(file) => writeln!(file, "{line}")?,
        }
        Ok(())
    }

    fn run(&mut self, command: &mut Command) -> std::io::Result<std::process::ExitStatus> {
        if let Output::Log(file) = self {
            command.stdout(file.try_clone()?).stderr(file.try_clone()?);
        }
        command.status()
    }
}

/// Both passes at once: SQLite's in the terminal, PostgreSQL's into `target/test-logs/`, shown
/// when both are done. PostgreSQL's tests wait on round trips far more than they use the
/// processor, and SQLite's pass left most of a core idle beside them: run one after the other
/// they took 299 s and 389 s of a CI run.
pub fn run_side_by_side(root: &Path, binaries: &[TestBinary], postgres_url: &str) -> anyhow::Result<()> {
    let log = root.join("target/test-logs/postgresql.log");
    let postgres = Backend::Postgres(postgres_url.to_owned());
    eprintln!("== the PostgreSQL pass runs beside this one; it prints into {} and is shown at the end", log.display());
    let (sqlite, postgres) = std::thread::scope(|scope| {
        let beside = scope.spawn(|| run(binaries, &postgres, Some(&log)));
        let sqlite = run(binaries, &Backend::Sqlite, None);
        let postgres = beside.join().unwrap_or_else(|_| Err(anyhow::anyhow!("the PostgreSQL pass panicked")));
        (sqlite, postgres)
    });
    eprintln!("== the PostgreSQL pass, as it printed ({})", log.display());
    let mut printed = std::fs::File::open(&log).with_context(|| format!("cannot read {}", log.display()))?;
    std::io::copy(&mut printed, &mut std::io::stderr())?;
    match (sqlite, postgres) {
        (Ok(()), Ok(())) => Ok(()),
        (Err(sqlite), Ok(())) => Err(sqlite),
        (Ok(()), Err(postgres)) => Err(postgres),
        (Err(sqlite), Err(postgres)) => bail!("{sqlite:#}; {postgres:#}"),
    }
}

/// Runs the one test named `test` (its full path) of `package`'s `target` binary on SQLite, with
/// `env` added.
pub fn run_one(binaries: &[TestBinary], (package, target): (&str, &str), test: &str, env: &[(&str, &Path)]) -> anyhow::Result<()> {
    let binary = binaries
        .iter()
        .find(|binary| binary.package == package && binary.target == target)
        .with_context(|| format!("no test binary {target} in {package}"))?;
    let mut command = binary.command(&Backend::Sqlite);
    command.args([test, "--exact"]).envs(env.iter().copied());
    eprintln!("$ {} {test} --exact", binary.executable.display());
    let status = command.status().with_context(|| format!("cannot run {}", binary.executable.display()))?;
    if !status.success() {
        bail!("{test} failed ({status})");
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_package_id_gives_its_name() {
        assert_eq!(package_name("path+file:///work/main/apps/server#launchdir@0.1.0"), "launchdir");
        assert_eq!(package_name("path+file:///work/main/crates/store_seaorm#0.1.0"), "store_seaorm");
    }

    /// The PostgreSQL pass takes the server, the store and the migrations, and no domain crate.
    #[test]
    fn the_packages_that_reach_a_database_are_those_that_use_seaorm() {
        let root = Path::new(env!("CARGO_MANIFEST_DIR")).parent().unwrap();
        let ids = packages_using_seaorm(root).unwrap();
        let mut names: Vec<String> = ids.iter().map(|id| package_name(id)).collect();
        names.sort();
        assert_eq!(names, ["launchdir", "migration", "store_seaorm"]);
    }
}
