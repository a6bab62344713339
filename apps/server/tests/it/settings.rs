//! The settings table of `docs/configuration.md` against the settings' declarations: each
//! declared setting has one row with its key, variable, default and meaning, and no row documents
//! anything else.

use launchdir_server::settings::{Declaration, Kind, Settings};

const CONFIGURATION: &str = include_str!(concat!(env!("CARGO_MANIFEST_DIR"), "/../../docs/configuration.md"));

/// The cells of each row of the table in the "Settings" section, header first.
fn documented_rows() -> Vec<Vec<String>> {
    let section = CONFIGURATION.split_once("\n## Settings\n").expect("a Settings section").1;
    let section = section.split_once("\n## ").map_or(section, |(section, _)| section);
    let lines: Vec<&str> = section.lines().collect();
    let start = lines.iter().position(|line| line.starts_with('|')).expect("a table");
    let end = start + lines[start..].iter().take_while(|line| line.starts_with('|')).count();
    // A blank line inside the table would make Markdown show two tables, the second without header.
    assert!(!lines[end..].iter().any(|line| line.starts_with('|')), "the configuration table is one table, without blank lines");
    lines[start..end]
        .iter()
        .filter(|line| !line.starts_with("|---"))
        .map(|line| line.trim_start_matches('|').trim_end_matches('|').split('|').map(|cell| cell.trim().to_owned()).collect())
        .collect()
}

/// The row the table should have for `declared`.
fn declared_row(declared: &Declaration) -> Vec<String> {
    let env = match (declared.env, declared.kind) {
        (None, _) => "(file only)".to_owned(),
        (Some(var), Kind::List) => format!("`{var}` (comma-separated)"),
        (Some(var), _) => format!("`{var}`"),
    };
    vec![format!("`{}`", declared.key()), env, declared.default_text(), declared.meaning.to_owned()]
}

#[test]
fn the_configuration_table_matches_the_declarations() {
    let mut documented = documented_rows();
    assert_eq!(documented.remove(0), ["key", "environment", "default", "meaning"]);
    let declared: Vec<Vec<String>> = Settings::declarations().iter().map(declared_row).collect();
    for row in &declared {
        let found: Vec<_> = documented.iter().filter(|documented| documented[0] == row[0]).collect();
        assert_eq!(found, [row], "the configuration table's row for {}", row[0]);
    }
    for row in &documented {
        assert!(declared.iter().any(|declared| declared[0] == row[0]), "docs/configuration.md documents {}, which is not declared", row[0]);
    }
    let keys = |rows: &[Vec<String>]| rows.iter().map(|row| row[0].clone()).collect::<Vec<_>>();
    assert_eq!(keys(&documented), keys(&declared), "docs/configuration.md lists the settings in declaration order");
}
