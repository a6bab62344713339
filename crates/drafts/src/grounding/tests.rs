//! Tests of `grounding`.

use super::*;
use crate::site::{BlockKind, TextBlock};

const HOME: &str = "https://acme.example/";

fn snapshot() -> SiteSnapshot {
    let block = |text: &str| TextBlock { kind: BlockKind::Paragraph, text: text.into(), section: None, role: BlockRole::Content };
    SiteSnapshot {
        home_url: HOME.into(),
        pages: vec![Page {
            url: HOME.into(),
            title: Some("Acme Analytics - Privacy-first product analytics".into()),
            blocks: vec![
                block("Founded in 2019 in Berlin, Germany."),
                TextBlock { section: Some("Pricing".into()), ..block("Pro plan: $29/month. Free plan for hobby projects.") },
                block("Write to hello@acme.example for a demo."),
                block("Analytics for developer tools."),
            ],
            ..Page::default()
        }],
        ..SiteSnapshot::default()
    }
}

fn text(field: FieldName, value: &str, quote: &str) -> (FieldName, Proposed<FieldValue>) {
    text_as(field, value, quote, Basis::PageText)
}

fn text_as(field: FieldName, value: &str, quote: &str, basis: Basis) -> (FieldName, Proposed<FieldValue>) {
    (field, Proposed { value: FieldValue::Text(value.into()), evidence: vec![Evidence::new(HOME, quote, basis)] })
}

fn categories() -> Vec<CategoryRef> {
    vec![CategoryRef { slug: "analytics".into(), name: "Analytics".into(), ..CategoryRef::default() }]
}

#[test]
fn grounded_values_survive() {
    let proposal = Proposal {
        fields: BTreeMap::from([
            text(FieldName::Name, "Acme Analytics", "Acme Analytics - Privacy-first product analytics"),
            text(FieldName::FoundedYear, "2019", "Founded in 2019 in Berlin, Germany."),
            text(FieldName::Country, "DE", "Founded in 2019 in Berlin, Germany."),
            text(FieldName::City, "Berlin", "Founded   in 2019 in Berlin,\n Germany."),
            text(FieldName::ContactEmail, "hello@acme.example", "Write to hello@acme.example for a demo."),
            text_as(FieldName::PricingModel, "freemium", "Pro plan: $29/month. Free plan for hobby projects.", Basis::LabelledSection),
            text_as(
                FieldName::PricingSummary,
                "Pro plan: $29/month",
                "Pro plan: $29/month. Free plan for hobby projects.",
                Basis::LabelledSection,
            ),
            text(FieldName::Categories, "analytics", "Analytics for developer tools."),
        ]),
        ..Proposal::default()
    };
    let (kept, dropped) = ground(proposal, &snapshot(), &categories());
    assert!(dropped.is_empty(), "{dropped:?}");
    assert_eq!(kept.fields.len(), 8);
}

#[test]
fn invented_values_are_dropped() {
    let proposal = Proposal {
        fields: BTreeMap::from([
            // A quote that is not on the page.
            text(FieldName::Name, "Acme", "Acme, the best analytics"),
            // A year that is not in its quote.
            text(FieldName::FoundedYear, "2015", "Founded in 2019 in Berlin, Germany."),
            // A price that is not in its quote.
            text(FieldName::PricingSummary, "Pro plan: $49/month", "Pro plan: $29/month. Free plan for hobby projects."),
            // An e-mail that is not in its quote.
            text(FieldName::ContactEmail, "sales@acme.example", "Write to hello@acme.example for a demo."),
            // Words that are not in the quote.
            text(FieldName::Tagline, "The leading enterprise platform", "Analytics for developer tools."),
            // A country the quote does not name.
            text(FieldName::Country, "FR", "Founded in 2019 in Berlin, Germany."),
            // A category that does not exist.
            text(FieldName::Categories, "crm", "Analytics for developer tools."),
            // A page that was not read.
            (
                FieldName::City,
                Proposed {
                    value: FieldValue::Text("Berlin".into()),
                    evidence: vec![Evidence::new("https://acme.example/private", "Berlin", Basis::PageText)],
                },
            ),
            // No evidence at all.
            (FieldName::Stage, Proposed { value: FieldValue::Text("growing".into()), evidence: vec![] }),
            // A quote that cuts a number of the page.
            text(FieldName::Usps, "Pro plan: $2", "Pro plan: $2"),
            // A short value whose words are not in the quote.
            text(FieldName::Keywords, "Tom Lee", "Analytics for developer tools."),
            // An e-mail address inside a longer one.
            text(FieldName::ShortDescription, "lo@acme.example", "Write to hello@acme.example for a demo."),
        ]),
        ..Proposal::default()
    };
    let (kept, dropped) = ground(proposal, &snapshot(), &categories());
    assert!(kept.fields.is_empty(), "{:?}", kept.fields);
    assert_eq!(dropped.len(), 12, "{dropped:?}");
}

/// Verbatim quotes that say something else than the value: a customer's signature, a
/// partner's price, a copyright year, a roadmap item, a year the site contradicts.
#[test]
fn quotes_from_blocks_that_are_not_about_the_product_are_refused() {
    let block = |text: &str, section: Option<&str>, role: BlockRole| TextBlock {
        kind: BlockKind::Paragraph,
        text: text.into(),
        section: section.map(str::to_owned),
        role,
    };
    let mut site = snapshot();
    site.pages[0].blocks = vec![
        block("Quillpad saved us hours. — Dana Reyes, CEO and founder of Brightline", Some("Loved by teams"), BlockRole::Testimonial),
        block("Dana Reyes, founder of Brightline", None, BlockRole::Content),
        block("Shopify plans start at $39/month.", Some("Integrations"), BlockRole::Partner),
        block("Xero costs $15/month and syncs every hour.", None, BlockRole::Content),
        block("© 2014 Acme Analytics Ltd.", None, BlockRole::Copyright),
        block("Offline mode", Some("Coming soon"), BlockRole::Roadmap),
        block("Calendar sync (coming soon)", Some("Features"), BlockRole::Content),
        block("Mara Lindqvist, Co-founder & CEO", Some("Team"), BlockRole::Content),
        block("Founded in 2019 by Mara Lindqvist.", None, BlockRole::Content),
    ];
    let founder = |name: &str, title: Option<&str>, quote: &str, basis: Basis| Proposed {
        value: DraftFounder { name: name.into(), title: title.map(str::to_owned), bio: None },
        evidence: vec![Evidence::new(HOME, quote, basis)],
    };
    let list = |field: FieldName, item: &str, basis: Basis| {
        (field, Proposed { value: FieldValue::List(vec![item.into()]), evidence: vec![Evidence::new(HOME, item, basis)] })
    };
    let proposal = Proposal {
        fields: BTreeMap::from([
            text_as(
                FieldName::PricingSummary,
                "Shopify plans start at $39/month.",
                "Shopify plans start at $39/month.",
                Basis::LabelledSection,
            ),
            text_as(FieldName::PricingModel, "subscription", "Xero costs $15/month and syncs every hour.", Basis::PageText),
            text_as(FieldName::FoundedYear, "2014", "© 2014 Acme Analytics Ltd.", Basis::PageText),
            list(FieldName::Features, "Offline mode", Basis::LabelledSection),
            list(FieldName::Usps, "Calendar sync (coming soon)", Basis::PageText),
        ]),
        founders: vec![
            founder(
                "Dana Reyes",
                Some("CEO and founder of Brightline"),
                "— Dana Reyes, CEO and founder of Brightline",
                Basis::NamesProduct,
            ),
            founder("Dana Reyes", None, "Dana Reyes, founder of Brightline", Basis::PageText),
            founder("Dana Reyes", None, "Dana Reyes, founder of Brightline", Basis::LabelledSection),
        ],
        ..Proposal::default()
    };
    let (kept, dropped) = ground(proposal, &site, &[]);
    assert!(kept.fields.is_empty() && kept.founders.is_empty(), "{kept:#?}");
    let why: BTreeMap<&str, &str> = dropped.iter().map(|d| (d.what.as_str(), d.why.as_str())).collect();
    assert!(why["pricing_summary"].contains("partner or integration block"), "{why:?}");
    assert!(why["pricing_model"].contains("own pricing"), "{why:?}");
    assert!(why["founded_year"].contains("copyright block"), "{why:?}");
    assert!(why["features"].contains("roadmap block"), "{why:?}");
    assert!(why["usps[0]"].contains("roadmap, not in the product"), "{why:?}");
    assert_eq!(dropped.iter().filter(|d| d.what.starts_with("founders")).count(), 3, "{dropped:#?}");

    // The product's own founder and year pass, until the site states another year.
    let proposal = Proposal {
        fields: BTreeMap::from([text_as(FieldName::FoundedYear, "2019", "Founded in 2019 by Mara Lindqvist.", Basis::PageText)]),
        founders: vec![founder("Mara Lindqvist", Some("Co-founder & CEO"), "Mara Lindqvist, Co-founder & CEO", Basis::LabelledSection)],
        ..Proposal::default()
    };
    let (kept, dropped) = ground(proposal.clone(), &site, &[]);
    assert!(dropped.is_empty(), "{dropped:#?}");
    assert_eq!((kept.fields.len(), kept.founders.len()), (1, 1));
    site.pages[0].json_ld = vec![serde_json::json!({"@type": "Organization", "foundingDate": "2012"})];
    let (_, dropped) = ground(proposal, &site, &[]);
    assert!(dropped[0].why.contains("more than one founding year (2012, 2019)"), "{dropped:?}");
}

#[test]
fn list_items_are_checked_one_by_one() {
    let proposal = Proposal {
        fields: BTreeMap::from([(
            FieldName::Features,
            Proposed {
                value: FieldValue::List(vec!["Pro plan: $29/month".into(), "Pro plan: $99/month".into()]),
                evidence: vec![Evidence::new(HOME, "Pro plan: $29/month.", Basis::PageText)],
            },
        )]),
        ..Proposal::default()
    };
    let (kept, dropped) = ground(proposal, &snapshot(), &[]);
    assert_eq!(kept.fields[&FieldName::Features].value, FieldValue::List(vec!["Pro plan: $29/month".into()]));
    assert_eq!(dropped[0].what, "features[1]");
}

#[test]
fn facts_and_digit_runs() {
    assert_eq!(digit_runs("1,000 users since 2019, $29.99"), vec!["1000", "2019", "29", "99"]);
    assert!(facts("see https://www.acme.example/docs/ now").contains(&Fact::Link("acme.example/docs".into())));
    assert!(facts("write to mailto:Hi@Acme.example.").contains(&Fact::Email("hi@acme.example".into())));
    assert!(contains_on_boundaries("Pro plan: $29/month", "$29/month"));
    assert!(!contains_on_boundaries("Pro plan: $299/month", "Pro plan: $29"));
    assert!(!contains_on_boundaries("Indiana", "India"));
}
