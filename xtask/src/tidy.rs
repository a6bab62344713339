//! The dependency rules of `docs/ARCHITECTURE.md`: a domain crate depends on the kernel, other
//! domain crates and plain libraries, never on a framework, a database or HTTP driver, or an
//! adapter crate.

use anyhow::{Context, bail};
use serde_json::Value;
use std::path::Path;
use std::process::Command;

/// The domain crates.
pub const DOMAIN_CRATES: &[&str] = &["kernel", "accounts", "listings", "drafts", "claims", "orders", "content"];

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
];

/// Checks one domain crate's normal dependencies; `workspace_crates` are the names of all
/// crates in the workspace (anything that is not a domain crate is an adapter or app).
pub fn violations(krate: &str, dependencies: &[&str], workspace_crates: &[&str]) -> Vec<String> {
    dependencies
        .iter()
        .filter_map(|dep| {
            if FORBIDDEN_PREFIXES.iter().any(|prefix| dep.starts_with(prefix)) {
                Some(format!("{krate} depends on {dep}, a framework or driver: domain crates own ports, adapters implement them"))
            } else if workspace_crates.contains(dep) && !DOMAIN_CRATES.contains(dep) {
                Some(format!("{krate} depends on {dep}, which is not a domain crate"))
            } else {
                None
            }
        })
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
        if !DOMAIN_CRATES.contains(&name) {
            continue;
        }
        let deps: Vec<&str> = package["dependencies"]
            .as_array()
            .into_iter()
            .flatten()
            .filter(|dep| dep["kind"].is_null()) // normal dependencies; dev and build ones may test with anything
            .filter_map(|dep| dep["name"].as_str())
            .collect();
        problems.extend(violations(name, &deps, &names));
    }
    if problems.is_empty() {
        eprintln!("tidy: domain crates depend on no framework or adapter");
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
        for bad in ["actix-web", "sea-orm", "reqwest", "sqlx", "tantivy"] {
            assert_eq!(violations("listings", &["serde", bad], WORKSPACE).len(), 1, "{bad} must be refused");
        }
        for adapter in ["store_seaorm", "api_rest", "ops", "launchdir"] {
            assert_eq!(violations("accounts", &["kernel", adapter], WORKSPACE).len(), 1, "{adapter} must be refused");
        }
    }

    #[test]
    fn plain_libraries_and_domain_crates_are_fine() {
        assert!(
            violations("listings", &["kernel", "accounts", "serde", "garde", "time", "uuid", "thiserror", "schemars"], WORKSPACE)
                .is_empty()
        );
    }

    #[test]
    fn this_workspace_keeps_the_rules() {
        check(&crate::workspace_root()).expect("the workspace itself must pass tidy");
    }
}
