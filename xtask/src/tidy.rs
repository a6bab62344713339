//! The dependency rules of `docs/ARCHITECTURE.md`: a domain crate depends on the kernel, the
//! domain crates it names and plain libraries, never on a framework, a database or HTTP driver,
//! a schema library (wire shapes live in `ops::wire`) or an adapter crate; and every crate of the workspace depends only on the workspace crates
//! its line of [`ALLOWED`] names, so an arrow that runs the wrong way fails CI.

use anyhow::{Context, bail};
use serde_json::Value;
use std::path::Path;
use std::process::Command;

/// The domain crates.
pub const DOMAIN_CRATES: &[&str] = &["kernel", "accounts", "listings", "drafts", "claims", "orders", "content", "media"];

/// Every workspace crate and the workspace crates it may depend on (normal dependencies; tests
/// may use anything). `*`: the binary, which wires everything. A new crate gets a line here.
pub const ALLOWED: &[(&str, &[&str])] = &[
    // The shared vocabulary, and the domains: each owns its model, use cases and ports.
    ("kernel", &[]),
    ("accounts", &["kernel"]),
    ("listings", &["kernel"]),
    ("content", &["kernel"]),
    ("media", &["kernel"]),
    ("drafts", &["kernel", "listings", "media"]),
    ("claims", &["kernel", "listings"]),
    ("orders", &["kernel", "listings"]),
    // The operations, over the domains; the HTTP edge every transport shares, over them.
    ("ops", &["kernel", "accounts", "listings", "content", "drafts", "claims", "orders", "media"]),
    ("http_edge", &["kernel", "ops"]),
    // Driving adapters: transports.
    ("api_rest", &["kernel", "accounts", "listings", "ops", "http_edge"]),
    ("api_mcp", &["kernel", "accounts", "ops", "http_edge"]),
    ("web", &["kernel", "accounts", "listings", "drafts", "claims", "orders", "media", "ops", "http_edge"]),
    // Driven adapters: each implements ports of the domains it names.
    ("store_seaorm", &["kernel", "accounts", "listings", "content", "drafts", "claims", "orders", "migration"]),
    ("search_tantivy", &["kernel", "listings"]),
    ("outbound_http", &["kernel", "accounts", "listings", "drafts", "claims"]),
    ("drafter", &["kernel", "drafts"]),
    ("dns_txt", &["kernel", "claims"]),
    ("mail_smtp", &["kernel"]),
    ("ratelimit", &["kernel"]),
    ("passwords_argon2", &["accounts"]),
    ("payments", &["kernel", "orders", "outbound_http"]),
    ("media_image", &["kernel", "media"]),
    ("media_store", &["kernel", "media", "outbound_http"]),
    ("invoice_pdf", &["kernel", "orders"]),
    ("migration", &[]),
    ("xtask", &[]),
    ("launchdir", &["*"]),
];

/// Crates a domain crate must never depend on (prefix match).
const FORBIDDEN_PREFIXES: &[&str] = &[
    "actix",
    "sea-orm",
    "sea-query",
    "sqlx",
    "reqwest",
    "hyper",
    "axum",
    "tantivy",
    "lettre",
    "html5ever",
    "scraper",
    "hickory",
    "rmcp",
    "askama",
    "oauth2",
    "tokio",
    "robotstxt",
    // JSON Schemas are wire shapes: `ops::wire` declares them, for the domains' types too.
    "schemars",
];

/// Checks one domain crate's normal dependencies; `workspace_crates` are the names of all
/// crates in the workspace (anything that is not a domain crate is an adapter or app).
pub fn violations(krate: &str, dependencies: &[&str], workspace_crates: &[&str]) -> Vec<String> {
    dependencies
        .iter()
        .filter_map(|dep| {
            if FORBIDDEN_PREFIXES.iter().any(|prefix| dep.starts_with(prefix)) {
                Some(format!(
                    "{krate} depends on {dep}, a framework, driver or schema library: domain crates own ports, adapters implement \
                     them, and wire shapes live in ops::wire"
                ))
            } else if workspace_crates.contains(dep) && !DOMAIN_CRATES.contains(dep) {
                Some(format!("{krate} depends on {dep}, which is not a domain crate"))
            } else {
                None
            }
        })
        .collect()
}

/// Checks any crate's workspace dependencies against its line of `allowed`.
pub fn arrows(krate: &str, dependencies: &[&str], workspace_crates: &[&str], allowed: &[(&str, &[&str])]) -> Vec<String> {
    let Some((_, may)) = allowed.iter().find(|(name, _)| *name == krate) else {
        return vec![format!("{krate} has no line in tidy's ALLOWED: say which workspace crates it may depend on")];
    };
    if may.contains(&"*") {
        return Vec::new();
    }
    dependencies
        .iter()
        .filter(|dep| workspace_crates.contains(dep) && !may.contains(dep))
        .map(|dep| format!("{krate} depends on {dep}, which its line of tidy's ALLOWED does not name (see docs/ARCHITECTURE.md)"))
        .collect()
}

pub fn check(root: &Path) -> anyhow::Result<()> {
    let output = Command::new(std::env::var("CARGO").unwrap_or_else(|_| "cargo".into()))
        .args(["metadata", "--format-version", "1", "--no-deps", "--offline"])
        .current_dir(root)
        .output()
        .context("cannot run cargo metadata")?;
    if !output.status.success() {
        bail!("cargo metadata failed: {}", String::from_utf8_lossy(&output.stderr));
    }
    let metadata: Value = serde_json::from_slice(&output.stdout)?;
    let packages = metadata["packages"].as_array().context("no packages in cargo metadata")?;
    let names: Vec<&str> = packages.iter().filter_map(|p| p["name"].as_str()).collect();
    let mut problems = Vec::new();
    for package in packages {
        let name = package["name"].as_str().unwrap_or_default();
        let deps: Vec<&str> = package["dependencies"]
            .as_array()
            .into_iter()
            .flatten()
            .filter(|dep| dep["kind"].is_null()) // normal dependencies; dev and build ones may test with anything
            .filter_map(|dep| dep["name"].as_str())
            .collect();
        problems.extend(arrows(name, &deps, &names, ALLOWED));
        if DOMAIN_CRATES.contains(&name) {
            problems.extend(violations(name, &deps, &names));
        }
    }
    if problems.is_empty() {
        eprintln!("tidy: every crate depends only on the workspace crates its line allows; domain crates on no framework or adapter");
        Ok(())
    } else {
        for problem in &problems {
            eprintln!("tidy: {problem}");
        }
        bail!("{} dependency rule violations", problems.len())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const WORKSPACE: &[&str] = &["kernel", "listings", "accounts", "store_seaorm", "api_rest", "ops", "launchdir"];

    #[test]
    fn frameworks_and_adapters_are_refused() {
        for bad in ["actix-web", "sea-orm", "reqwest", "sqlx", "tantivy", "schemars"] {
            assert_eq!(violations("listings", &["serde", bad], WORKSPACE).len(), 1, "{bad} must be refused");
        }
        for adapter in ["store_seaorm", "api_rest", "ops", "launchdir"] {
            assert_eq!(violations("accounts", &["kernel", adapter], WORKSPACE).len(), 1, "{adapter} must be refused");
        }
    }

    #[test]
    fn plain_libraries_and_domain_crates_are_fine() {
        assert!(violations("listings", &["kernel", "accounts", "serde", "garde", "time", "uuid", "thiserror"], WORKSPACE).is_empty());
    }

    #[test]
    fn an_arrow_the_allow_list_does_not_name_is_refused() {
        // The operations must not reach into an adapter, nor a domain into the operations.
        assert_eq!(arrows("ops", &["kernel", "listings", "store_seaorm"], WORKSPACE, ALLOWED).len(), 1);
        assert_eq!(arrows("listings", &["kernel", "ops"], WORKSPACE, ALLOWED).len(), 1);
        assert_eq!(arrows("listings", &["kernel", "accounts"], WORKSPACE, ALLOWED).len(), 1, "listings names no other domain");
        assert!(arrows("api_rest", &["ops", "kernel", "serde"], WORKSPACE, ALLOWED).is_empty(), "plain libraries are not counted");
        assert!(arrows("launchdir", &["store_seaorm", "api_rest", "ops"], WORKSPACE, ALLOWED).is_empty());
        assert_eq!(arrows("newcomer", &["kernel"], WORKSPACE, ALLOWED).len(), 1, "a crate without a line is named");
    }

    #[test]
    fn this_workspace_keeps_the_rules() {
        check(&crate::workspace_root()).expect("the workspace itself must pass tidy");
    }
}
