//! Every registry entry agrees with its row: the spec's table of 41 operations, or the table of
//! our own beyond it; and the schemas are well formed.

use ops::{HttpMethod, registry};
use schemars::generate::SchemaSettings;
use std::collections::HashSet;

struct SpecRow {
    id: String,
    method: String,
    path: String,
    scope: Option<String>,
    idempotent: bool,
    success: u16,
}

fn spec_rows() -> Vec<SpecRow> {
    rows(include_str!("../../../../tests/data/spec-operations.tsv"))
}

/// The spec's rows, then ours.
fn all_rows() -> Vec<SpecRow> {
    let mut rows = spec_rows();
    rows.extend(self::rows(include_str!("../../../../tests/data/our-operations.tsv")));
    rows
}

fn rows(table: &str) -> Vec<SpecRow> {
    table
        .lines()
        .filter(|line| !line.starts_with('#') && !line.trim().is_empty())
        .map(|line| {
            let cols: Vec<&str> = line.split('\t').collect();
            assert_eq!(cols.len(), 6, "bad row: {line}");
            SpecRow {
                id: cols[0].into(),
                method: cols[1].into(),
                path: cols[2].into(),
                scope: (cols[3] != "-").then(|| cols[3].to_owned()),
                idempotent: cols[4] == "yes",
                success: cols[5].parse().unwrap(),
            }
        })
        .collect()
}

#[test]
fn spec_table_has_41_distinct_operations() {
    let rows = spec_rows();
    assert_eq!(rows.len(), 41);
    let ids: HashSet<_> = rows.iter().map(|r| r.id.as_str()).collect();
    assert_eq!(ids.len(), 41);
}

#[test]
fn every_registry_entry_matches_its_spec_row() {
    let rows = all_rows();
    for row in &rows {
        assert!(ops::find(&row.id).is_some(), "{} is in a table but not in the registry", row.id);
    }
    assert!(!registry().is_empty());
    for op in registry() {
        let spec = op.spec();
        let row = rows.iter().find(|row| row.id == spec.id).unwrap_or_else(|| panic!("{} is not an operation of the spec", spec.id));
        assert_eq!(spec.method.as_str(), row.method, "{}: method", spec.id);
        assert_eq!(spec.path, row.path, "{}: path", spec.id);
        assert_eq!(spec.scope.map(|s| s.as_str().to_owned()), row.scope, "{}: scope", spec.id);
        assert_eq!(spec.idempotent, row.idempotent, "{}: idempotent flag", spec.id);
        assert_eq!(spec.success_status, row.success, "{}: success status", spec.id);
        assert!(!spec.description.is_empty() && !spec.summary.is_empty(), "{}: needs a description", spec.id);
    }
}

#[test]
fn registry_ids_are_unique_and_in_spec_order() {
    let rows = all_rows();
    let positions: Vec<usize> =
        registry().iter().map(|op| rows.iter().position(|row| row.id == op.spec().id).expect("known operation")).collect();
    let mut sorted = positions.clone();
    sorted.sort_unstable();
    sorted.dedup();
    assert_eq!(positions, sorted, "registry order must follow the spec's tables, without repeats");
}

#[test]
fn the_six_foundation_operations_are_registered() {
    for id in ["get_site_info", "list_categories", "get_category", "list_products", "list_interview_questions", "get_account"] {
        assert!(ops::find(id).is_some(), "{id} is missing from the registry");
    }
}

#[test]
fn path_parameters_match_the_path_template() {
    for op in registry() {
        let spec = op.spec();
        let mut inputs = SchemaSettings::draft2020_12().into_generator();
        let mut outputs = SchemaSettings::draft2020_12().for_serialize().into_generator();
        let schemas = op.schemas(&mut inputs, &mut outputs);
        let template: HashSet<String> = spec
            .path
            .split('/')
            .filter_map(|segment| segment.strip_prefix('{').and_then(|s| s.strip_suffix('}')))
            .map(str::to_owned)
            .collect();
        let declared: HashSet<String> = schemas
            .path
            .as_ref()
            .and_then(|schema| schema.get("properties"))
            .and_then(|p| p.as_object())
            .map(|p| p.keys().cloned().collect())
            .unwrap_or_default();
        assert_eq!(template, declared, "{}: path parameters", spec.id);
        if spec.method == HttpMethod::Get {
            assert!(schemas.body.is_none(), "{}: a GET takes no body", spec.id);
        }
        let output = schemas.output.to_value();
        assert_eq!(output["type"], "object", "{}: every response is a JSON object", spec.id);
        assert!(output.get("$schema").is_some_and(|s| s.as_str().unwrap().contains("2020-12")), "{}: JSON Schema 2020-12", spec.id);
    }
}

#[test]
fn inputs_deny_unknown_properties() {
    for op in registry() {
        let mut inputs = SchemaSettings::draft2020_12().into_generator();
        let mut outputs = SchemaSettings::draft2020_12().into_generator();
        let schemas = op.schemas(&mut inputs, &mut outputs);
        for schema in [schemas.path, schemas.query, schemas.body].into_iter().flatten() {
            assert_eq!(schema.get("additionalProperties"), Some(&serde_json::Value::Bool(false)), "{}", op.spec().id);
        }
    }
}

#[test]
fn every_operation_counts_against_the_rate_limit_of_its_kind() {
    use ops::{HttpMethod, RateClass};
    for op in ops::registry() {
        let spec = op.spec();
        let expected = match (spec.id, spec.method) {
            ("submit_listing", _) => RateClass::SubmitListing,
            ("verify_claim", _) => RateClass::VerifyClaim,
            ("create_checkout", _) => RateClass::CreateCheckout,
            (_, HttpMethod::Get) => RateClass::Read,
            _ => RateClass::Write,
        };
        assert_eq!(spec.rate, expected, "{}", spec.id);
    }
}
