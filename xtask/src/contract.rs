//! `cargo xtask contract`: the contract fuzzer. Runs schemathesis (every check, a fixed seed, a
//! bounded number of examples per operation; `tests/contract/`) against a fresh demo server with
//! an API key, then `tests/contract/judge.py` fails the run on any server error, any response
//! that breaks its schema, and any schema-valid request refused for a reason not listed in
//! `tests/contract/allowed-refusals.toml`. Installs schemathesis with pip into
//! `target/contract/venv` when it is missing.

use crate::conformance::{Server, demo_server, wait_for};
use crate::run;
use anyhow::{Context, bail};
use std::net::TcpListener;
use std::path::Path;
use std::process::{Command, Stdio};

const SCHEMATHESIS: &str = "schemathesis==4.32.5";

pub fn run_contract(root: &Path, built: crate::Built) -> anyhow::Result<()> {
    let dir = root.join("target/contract");
    let venv = dir.join("venv");
    let python = venv.join("bin/python");
    if !venv.join("bin/schemathesis").exists() {
        run(Command::new("python3").args(["-m", "venv"]).arg(&venv))
            .context("cannot create a Python virtual environment (Debian: python3-venv)")?;
        run(Command::new(&python).args(["-m", "pip", "install", "--quiet", "--disable-pip-version-check", SCHEMATHESIS]))
            .context("cannot install schemathesis with pip")?;
    }
    crate::build_server(built)?;
    let binary = crate::server_binary(root);
    let port = TcpListener::bind("127.0.0.1:0")?.local_addr()?.port();
    let data = dir.join(format!("data-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&data);
    let cli =
        |args: &[&str]| Command::new(&binary).args(args).env("LAUNCHDIR_DATA_DIR", &data).env("LAUNCHDIR_LOG_LEVEL", "error").output();
    let child = demo_server(root, port, &data).spawn().context("cannot start the server")?;
    let _server = Server::new(child);
    wait_for(port)?;
    let created = cli(&["user", "create", "--email", "contract@example.com", "--name", "Contract"])?;
    if !created.status.success() {
        bail!("cannot create the contract user: {}", String::from_utf8_lossy(&created.stderr));
    }
    let key = cli(&["api-key", "create", "--email", "contract@example.com"])?;
    let key = String::from_utf8(key.stdout)?.lines().last().unwrap_or_default().trim().to_owned();
    if key.is_empty() {
        bail!("cannot create the contract API key");
    }
    let reports = dir.join("report");
    let _ = std::fs::remove_dir_all(&reports);
    let contract = root.join("tests/contract");
    // The exit status is the judge's to give: schemathesis fails on allowed refusals too.
    let _ = Command::new(venv.join("bin/schemathesis"))
        .arg("--config-file")
        .arg(contract.join("schemathesis.toml"))
        .args(["run", &format!("http://127.0.0.1:{port}/api/v1/openapi.json")])
        .args(["-H", &format!("Authorization: Bearer {key}")])
        .args(["--checks", "all", "--continue-on-failure", "--no-color", "--report", "ndjson,junit", "--report-dir"])
        .arg(&reports)
        .current_dir(&contract)
        .stdout(Stdio::null())
        .status()
        .context("cannot run schemathesis")?;
    let report = std::fs::read_dir(&reports)?
        .flatten()
        .map(|entry| entry.path())
        .find(|path| path.extension().is_some_and(|ext| ext == "ndjson"))
        .context("schemathesis wrote no report")?;
    let judged = Command::new(&python).arg(contract.join("judge.py")).arg(&report).arg(contract.join("allowed-refusals.toml")).status()?;
    let _ = std::fs::remove_dir_all(&data);
    if !judged.success() {
        bail!("the contract run found failures (the JUnit report is in {})", reports.display());
    }
    Ok(())
}
