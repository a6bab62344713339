//! Each schema declared here against the value serde writes: the same keys, the same names.

use super::SchemaOf;
use drafts::{Basis, DraftStatus, FieldName, FieldState};
use kernel::{Slug, WebUrl, Week};
use listings::ListingStatus;
use schemars::JsonSchema;
use serde::Serialize;
use serde_json::Value;
use std::collections::BTreeSet;

fn slug(raw: &str) -> Slug {
    Slug::parse(raw).unwrap()
}

fn schema_of<T>() -> Value
where
    SchemaOf<T>: JsonSchema,
{
    serde_json::to_value(schemars::schema_for!(SchemaOf<T>)).unwrap()
}

/// The keys `value` is written with, and the properties its schema declares, side by side.
fn keys_and_properties<T: Serialize>(value: &T) -> (BTreeSet<String>, BTreeSet<String>)
where
    SchemaOf<T>: JsonSchema,
{
    let written = serde_json::to_value(value).unwrap();
    let keys = written.as_object().expect("an object").keys().cloned().collect();
    let schema = schema_of::<T>();
    let properties = schema["properties"].as_object().expect("properties").keys().cloned().collect();
    (keys, properties)
}

macro_rules! same_keys {
    ($($value:expr),+ $(,)?) => {$(
        let (keys, properties) = keys_and_properties(&$value);
        assert_eq!(keys, properties, "{}", stringify!($value));
    )+};
}

#[test]
fn every_read_model_is_described_with_the_keys_it_is_written_with() {
    let evidence = drafts::Evidence::new("https://acme.example/", "Acme notes", Basis::PageText);
    let text = || Some("text".to_owned());
    same_keys!(
        listings::ListingSummary {
            id: kernel::ListingId::new(1),
            slug: slug("acme"),
            name: "Acme".into(),
            url: "https://acme.example/".into(),
            tagline: text(),
            logo: Some(kernel::ImageRef::new([1; 32], kernel::ImageFormat::Webp, 96, 96)),
            votes: 3,
            primary_category: Some(slug("productivity")),
            launch_week: Week::parse_date("2026-11-23"),
            status: ListingStatus::Live,
        },
        listings::CategoryNode { slug: slug("a"), name: "A".into(), description: "d".into(), live_listings: 1, subcategories: vec![] },
        listings::CategoryRef { slug: slug("a"), name: "A".into(), live_listings: 1 },
        listings::SiteCounts { live_listings: 1, categories: 2 },
        listings::CompanyRef { slug: slug("a"), name: "A".into() },
        listings::Link { label: "Docs".into(), url: "https://acme.example/docs".into() },
        kernel::Faq { question: "Q?".into(), answer: "A.".into() },
        kernel::Story::default(),
        content::InterviewQuestion { id: 1, position: 1, question: "Why?".into(), hint: text() },
        evidence.clone(),
        drafts::DraftFounder { name: "Anna Berg".into(), title: text(), bio: text() },
        drafts::DraftMilestone { date: "2026-01-01".into(), title: "Launch".into(), description: text(), url: text() },
        drafts::DraftSeo { title: text(), meta: text() },
        drafts::Competitor {
            url: WebUrl::parse("https://rival.example/").unwrap(),
            status: "ready".into(),
            failure_reason: None,
            comparison: vec![],
        },
        drafts::ComparisonRow { field: "city".into(), ours: text(), theirs: text(), evidence: vec![evidence] },
    );
}

#[test]
fn a_listing_card_keeps_its_internal_id_off_the_wire() {
    let properties = schema_of::<listings::ListingSummary>()["properties"].clone();
    assert!(properties.get("id").is_none());
    assert_eq!(properties["status"]["$ref"], "#/$defs/ListingStatus");
}

#[test]
fn a_field_value_is_text_or_a_list_as_written() {
    let schema = schema_of::<drafts::FieldValue>();
    let kinds: Vec<&str> = schema["anyOf"].as_array().unwrap().iter().map(|branch| branch["type"].as_str().unwrap()).collect();
    assert_eq!(kinds, ["string", "array"]);
    assert!(serde_json::to_value(drafts::FieldValue::Text("a".into())).unwrap().is_string());
    assert!(serde_json::to_value(drafts::FieldValue::List(vec!["a".into()])).unwrap().is_array());
}

/// The names a closed set's schema lists, in order.
fn names_of<T>() -> Vec<String>
where
    SchemaOf<T>: JsonSchema,
{
    let schema = schema_of::<T>();
    match schema.get("enum") {
        Some(names) => names.as_array().unwrap().iter().map(|name| name.as_str().unwrap().to_owned()).collect(),
        None => schema["oneOf"].as_array().unwrap().iter().map(|branch| branch["const"].as_str().unwrap().to_owned()).collect(),
    }
}

#[test]
fn closed_sets_list_the_names_the_domains_write_and_parse() {
    assert_eq!(names_of::<FieldName>(), FieldName::ALL.map(|name| name.as_str().to_owned()));
    assert_eq!(names_of::<Basis>(), Basis::ALL.map(|basis| basis.as_str().to_owned()));
    assert_eq!(names_of::<accounts::Scope>(), accounts::Scope::ALL.map(|scope| scope.as_str().to_owned()));
    assert_eq!(names_of::<orders::OrderStatus>(), orders::OrderStatus::ALL.map(|status| status.as_str().to_owned()));
    for name in names_of::<ListingStatus>() {
        assert_eq!(ListingStatus::parse(&name).map(ListingStatus::as_str), Some(name.as_str()));
    }
    for name in names_of::<DraftStatus>() {
        assert_eq!(DraftStatus::parse(&name).map(DraftStatus::as_str), Some(name.as_str()));
    }
    assert_eq!(names_of::<FieldState>(), ["ai", "not_found", "edited", "manual", "override", "deleted"]);
    assert_eq!(names_of::<orders::VatNumberCheck>(), ["none", "checksum", "vies", "vies_unavailable"]);
}

#[test]
fn kernel_values_are_inlined_with_their_bounds() {
    let slug = schema_of::<Slug>();
    assert_eq!(slug["maxLength"], Slug::MAX_LEN);
    assert!(!<SchemaOf<Slug> as JsonSchema>::schema_name().is_empty());
    assert!(<SchemaOf<Slug> as JsonSchema>::inline_schema());
    assert_eq!(schema_of::<kernel::Email>()["pattern"], kernel::Email::PATTERN);
    assert_eq!(schema_of::<kernel::ListingId>()["minimum"], 1);
}
