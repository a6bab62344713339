//! Drafters on the fixture websites: what the extractive drafter fills (recall), that nothing it
//! proposes is unsupported, and that the grounding check drops what a model invents.

use drafter::{ExtractiveDrafter, OpenAiConfig, OpenAiDrafter};
use drafts::grounding::{CategoryRef, Proposal, ground};
use drafts::{Drafter, FieldName, FieldValue, SiteReader, SiteSnapshot};
use outbound_http::testing::{FixtureServer, Route};
use outbound_http::{AddressPolicy, CrawlingSiteReader, FetcherConfig, SafeFetcher};
use serde_json::{Value, json};
use std::collections::HashMap;
use std::path::PathBuf;
use std::time::Duration;

mod prose;

fn site(name: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../tests/fixtures/sites").join(name)
}

fn categories() -> Vec<CategoryRef> {
    [
        ("analytics", "Analytics", "Understand visitors, funnels and retention."),
        ("crm", "CRM", "Keep track of contacts, deals and pipelines."),
        ("invoicing", "Invoicing", "Send invoices and get paid on time."),
        ("accounting", "Accounting", "Bookkeeping, expenses and reports."),
        ("seo", "SEO", "Rank higher in search with audits, keywords and content."),
        ("design", "Design", "Tools for designers: interfaces, graphics, prototypes and assets."),
    ]
    .into_iter()
    .map(|(slug, name, description)| CategoryRef { slug: slug.into(), name: name.into(), description: description.into() })
    .collect()
}

async fn read(server: &FixtureServer) -> SiteSnapshot {
    let fetcher = SafeFetcher::new(FetcherConfig::new(
        outbound_http::user_agent("https://launch.example"),
        AddressPolicy { allow_private_networks: true, trusted: vec![] },
    ))
    .unwrap();
    CrawlingSiteReader::new(fetcher, outbound_http::BOT_TOKEN).read(&kernel::WebUrl::parse(&server.url("/")).unwrap(), 10).await.unwrap()
}

/// How a grounded proposal compares with the facts a fixture states (`_facts.json`).
#[derive(Debug)]
struct Score {
    stated: usize,
    filled: usize,
    /// Filled values the site does not state, or that differ from what it states.
    invented: Vec<String>,
}

fn matches(value: &FieldValue, expected: &Value) -> bool {
    match (value, expected) {
        (FieldValue::Text(text), Value::String(want)) if want.starts_with('/') => text.ends_with(want.as_str()),
        (FieldValue::Text(text), Value::String(want)) => text.contains(want.as_str()),
        (FieldValue::List(items), Value::Array(wants)) => wants.iter().all(|w| items.iter().any(|i| Some(i.as_str()) == w.as_str())),
        _ => false,
    }
}

/// The sites of the corpus with the share of their stated facts a draft must fill.
const CORPUS: &[(&str, f64)] = &[
    ("saas", 0.9),
    ("bare", 1.0),
    ("robots-private", 0.8),
    ("german", 0.8),
    ("testimonials", 0.9),
    ("partner-prices", 0.9),
    ("comparison", 0.9),
    ("roadmap", 0.9),
    ("copyright", 0.9),
    ("cookie-wall", 0.9),
    ("french-about", 0.9),
    ("team-page", 0.9),
    ("jsonld-disagrees", 0.9),
    ("german-founders", 0.9),
    ("founded-since", 0.9),
];

/// What a fixture states (`_facts.json` without its `_` keys) and the decoys it plants.
fn facts_of(name: &str) -> (serde_json::Map<String, Value>, Vec<Value>) {
    let mut facts: serde_json::Map<String, Value> =
        serde_json::from_str(&std::fs::read_to_string(site(name).join("_facts.json")).unwrap()).unwrap();
    let decoys = facts.remove("_decoys").and_then(|d| d.as_array().cloned()).unwrap_or_default();
    facts.retain(|key, _| !key.starts_with('_'));
    (facts, decoys)
}

fn score(proposal: &Proposal, facts: &serde_json::Map<String, Value>) -> Score {
    let mut score = Score { stated: facts.len(), filled: 0, invented: Vec::new() };
    for (field, proposed) in &proposal.fields {
        match facts.get(field.as_str()) {
            Some(expected) if matches(&proposed.value, expected) => score.filled += 1,
            _ => score.invented.push(format!("{field} = {:?}", proposed.value)),
        }
    }
    for (key, found) in [("faqs", proposal.faqs.len()), ("founders", proposal.founders.len()), ("company_socials", proposal.socials.len())]
    {
        match facts.get(key).and_then(Value::as_u64) {
            Some(expected) if found as u64 == expected => score.filled += 1,
            Some(_) | None if found == 0 => {}
            _ => score.invented.push(format!("{key}: {found}")),
        }
    }
    score
}

/// The decoys of a fixture that made it into a grounded proposal.
fn decoys_in(proposal: &Proposal, decoys: &[Value]) -> Vec<String> {
    let mut found = Vec::new();
    for decoy in decoys {
        let (field, value) = (decoy["field"].as_str().unwrap(), decoy["value"].as_str().unwrap());
        let present = match field {
            "founders" => proposal.founders.iter().any(|f| f.value.name == value),
            _ => {
                let field = FieldName::parse(field).unwrap();
                proposal.fields.get(&field).is_some_and(|p| match &p.value {
                    FieldValue::Text(text) => text.contains(value),
                    FieldValue::List(items) => items.iter().any(|item| item.contains(value)),
                })
            }
        };
        if present {
            found.push(format!("{field} = {value:?}"));
        }
    }
    found
}

#[tokio::test]
async fn the_extractive_drafter_fills_what_each_fixture_states_and_takes_no_decoy() {
    let mut report = Vec::new();
    for &(name, min_recall) in CORPUS {
        let server = FixtureServer::site(&site(name)).await;
        let snapshot = read(&server).await;
        let proposal = ExtractiveDrafter.draft(&snapshot, &categories()).await.unwrap();
        let (grounded, dropped) = ground(proposal, &snapshot, &categories());
        let (facts, decoys) = facts_of(name);
        let score = score(&grounded, &facts);
        let recall = score.filled as f64 / score.stated as f64;
        let taken = decoys_in(&grounded, &decoys);
        report.push(format!(
            "{name}: recall {}/{} = {recall:.2}, decoys {}/{}, invented {}, dropped by grounding {}",
            score.filled,
            score.stated,
            taken.len(),
            decoys.len(),
            score.invented.len(),
            dropped.len()
        ));
        assert!(taken.is_empty(), "{name} took decoys {taken:?}");
        assert!(score.invented.is_empty(), "{name} invented {:?}", score.invented);
        assert!(recall >= min_recall, "{name}: recall {recall:.2}; {:#?}", grounded.fields.keys().collect::<Vec<_>>());
        assert!(dropped.is_empty(), "{name}: the extractive drafter quotes what it takes, yet {dropped:?}");
        assert!(grounded.fields.values().all(|p| !p.evidence.is_empty()) && grounded.founders.iter().all(|f| !f.evidence.is_empty()));
        let everything = format!("{grounded:?}");
        assert!(!everything.contains("PLANTED") && !everything.contains("1987") && !everything.contains("Reykjavik"));
    }
    eprintln!("{}", report.join("\n"));
}

/// A proposal in the model's answer format, with each quote's kind.
fn as_model_answer(proposal: &Proposal) -> Value {
    let evidence = |items: &[drafts::Evidence]| -> Value {
        items.iter().map(|e| json!({"url": e.url, "quote": e.quote, "basis": e.basis.as_str()})).collect()
    };
    let fields: serde_json::Map<String, Value> = proposal
        .fields
        .iter()
        .map(|(field, p)| (field.as_str().to_owned(), json!({"value": p.value, "evidence": evidence(&p.evidence)})))
        .collect();
    let founders: Vec<Value> = proposal
        .founders
        .iter()
        .map(|f| json!({"name": f.value.name, "title": f.value.title, "evidence": evidence(&f.evidence)}))
        .collect();
    let faqs: Vec<Value> = proposal
        .faqs
        .iter()
        .map(|f| json!({"question": f.value.question, "answer": f.value.answer, "evidence": evidence(&f.evidence)}))
        .collect();
    let socials: Vec<Value> =
        proposal.socials.iter().map(|s| json!({"key": s.value.key, "url": s.value.url, "evidence": evidence(&s.evidence)})).collect();
    json!({"fields": fields, "founders": founders, "faqs": faqs, "socials": socials})
}

/// A decoy of a fixture as a model would propose it, with its verbatim quote and a plausible
/// kind of evidence.
fn decoy_as_model_answer(decoy: &Value, server: &FixtureServer) -> Value {
    let (field, value) = (decoy["field"].as_str().unwrap(), decoy["value"].as_str().unwrap());
    // One quote, or several (a name from one card and a founding role from another).
    let quotes = match &decoy["quote"] {
        Value::Array(quotes) => quotes.clone(),
        one => vec![one.clone()],
    };
    let url = server.url(decoy["page"].as_str().unwrap());
    let evidence: Value = quotes.iter().map(|quote| json!({"url": url, "quote": quote, "basis": decoy["basis"]})).collect();
    if field == "founders" {
        return json!({"founders": [{"name": value, "title": null, "evidence": evidence}]});
    }
    let value = match FieldName::parse(field).unwrap().kind() {
        drafts::FieldKind::List(_) => json!([value]),
        drafts::FieldKind::Text(_) => json!(value),
    };
    json!({"fields": {field: {"value": value, "evidence": evidence}}})
}

/// A model drafter whose endpoint is a fake model that answers `answer`, and that endpoint.
async fn fake_model(answer: &Value) -> (OpenAiDrafter, FixtureServer) {
    let completion = json!({"choices": [{"message": {"role": "assistant", "content": answer.to_string()}}]});
    let model_server = FixtureServer::start(HashMap::from([(
        "/v1/chat/completions".to_owned(),
        Route::new(200, "application/json", completion.to_string()),
    )]))
    .await;
    let drafter = OpenAiDrafter::new(OpenAiConfig {
        base_url: model_server.url("/v1"),
        model: "test-model".into(),
        api_key: Some("sk-test".into()),
        timeout: Duration::from_secs(10),
    })
    .unwrap();
    (drafter, model_server)
}

/// Drafts `snapshot` with the model drafter against a fake model that answers `answer`.
async fn model_draft(snapshot: &SiteSnapshot, answer: &Value) -> Proposal {
    let (drafter, _model) = fake_model(answer).await;
    drafter.draft(snapshot, &categories()).await.unwrap()
}

/// The model drafter over the corpus: a model that proposes what each site states (with the
/// kinds of evidence it rests on) keeps it; a model that proposes every decoy, each with its
/// verbatim quote and a plausible kind, gets none of them past the check.
#[tokio::test]
async fn the_model_drafter_keeps_stated_facts_and_no_decoy() {
    let mut report = Vec::new();
    for &(name, min_recall) in CORPUS {
        let server = FixtureServer::site(&site(name)).await;
        let snapshot = read(&server).await;
        let (facts, decoys) = facts_of(name);
        let truthful = as_model_answer(&ExtractiveDrafter.draft(&snapshot, &categories()).await.unwrap());
        let (grounded, dropped) = ground(model_draft(&snapshot, &truthful).await, &snapshot, &categories());
        let score = score(&grounded, &facts);
        let recall = score.filled as f64 / score.stated as f64;
        assert!(recall >= min_recall && dropped.is_empty(), "{name}: recall {recall:.2}, dropped {dropped:#?}");
        // Each decoy in an answer of its own.
        for decoy in &decoys {
            let answer = decoy_as_model_answer(decoy, &server);
            let (grounded, dropped) = ground(model_draft(&snapshot, &answer).await, &snapshot, &categories());
            let taken = decoys_in(&grounded, &decoys);
            assert!(taken.is_empty(), "{name}: the model drafter kept the decoy {taken:?}");
            // Refused for what it means, not because its quote is not on the page.
            assert_eq!(dropped.len(), 1, "{name}: {decoy} {dropped:#?}");
            let why = &dropped[0].why;
            assert!(
                !why.contains("is not on") && !why.contains("does not appear in its quotes") && !why.contains("wording"),
                "{name}: the decoy is not verbatim: {dropped:#?}"
            );
        }
        report.push(format!(
            "{name}: recall {}/{} = {recall:.2}, decoys refused {}/{}",
            score.filled,
            score.stated,
            decoys.len(),
            decoys.len()
        ));
    }
    eprintln!("{}", report.join("\n"));
}

#[tokio::test]
async fn values_a_model_invents_are_dropped() {
    let site_server = FixtureServer::site(&site("saas")).await;
    let snapshot = read(&site_server).await;
    let home = snapshot.pages[0].url.clone();
    let pricing = snapshot.pages.iter().find(|p| p.url.ends_with("/pricing")).unwrap().url.clone();
    let answer = json!({
        "fields": {
            // Grounded: kept.
            "tagline": {"value": "Privacy-first product analytics for small teams", "evidence": [{"url": home, "quote": "Privacy-first product analytics for small teams"}]},
            "pricing_summary": {"value": "Team: $29/month", "evidence": [{"url": pricing, "quote": "$29/month for up to 1,000,000 events.", "basis": "labelled_section"}, {"url": pricing, "quote": "Team", "basis": "labelled_section"}]},
            // Invented: a quote that is not on the page.
            "city": {"value": "Porto", "evidence": [{"url": home, "quote": "Our office is in Porto."}]},
            // Invented: a year that its quote does not contain.
            "founded_year": {"value": "2015", "evidence": [{"url": home, "quote": "Privacy-first product analytics for small teams"}]},
            // Invented: an e-mail address that is not in its quote.
            "contact_email": {"value": "sales@metricly.example", "evidence": [{"url": home, "quote": "Questions? Write to hello@metricly.example"}]},
            // Invented: a price that is not in its quote.
            "features": {"value": ["Funnels that show where visitors drop off", "Unlimited seats for $5"], "evidence": [{"url": home, "quote": "Add one script tag"}]},
            // Invented: a quote from a page that was never read.
            "country": {"value": "PT", "evidence": [{"url": "https://elsewhere.example/", "quote": "Portugal"}]},
            // Invented: no evidence.
            "stage": {"value": "growing", "evidence": []}
        },
        "founders": [{"name": "Joana Silva", "title": "CEO", "evidence": [{"url": home, "quote": "Joana Silva, CEO"}]}],
        "socials": [{"key": "github", "url": "https://github.com/metricly-invented", "evidence": [{"url": home, "quote": "https://github.com/metricly"}]}]
    });
    let (drafter, model_server) = fake_model(&answer).await;
    let proposal = drafter.draft(&snapshot, &categories()).await.unwrap();
    let (grounded, dropped) = ground(proposal, &snapshot, &categories());
    let kept: Vec<FieldName> = grounded.fields.keys().copied().collect();
    assert_eq!(kept, [FieldName::Tagline, FieldName::PricingSummary], "{dropped:#?}");
    // Every invented value is dropped: six fields, one list item, the founder and the social link.
    let what: Vec<&str> = dropped.iter().map(|d| d.what.as_str()).collect();
    for expected in
        ["city", "founded_year", "contact_email", "features[0]", "features[1]", "country", "stage", "founders[0]", "socials.github"]
    {
        assert!(what.contains(&expected), "{expected} not dropped: {what:?}");
    }
    let request = &model_server.received()[0];
    assert_eq!(request.method, "POST");
    let sent: Value = serde_json::from_str(&request.body).unwrap();
    assert_eq!(sent["model"], "test-model");
    assert!(sent["messages"][1]["content"].as_str().unwrap().contains("Privacy-first product analytics"));
}

/// The JavaScript-only fixture, read through headless Chromium (which `.ci/run` installs), is
/// drafted like any site; read without a browser it gives next to nothing and says why.
#[tokio::test]
async fn a_site_that_needs_javascript_is_drafted_through_chromium() {
    let server = FixtureServer::site(&site("js-only")).await;
    let browser = outbound_http::ChromiumRenderer::find_browser().expect("this test needs Chromium on PATH (.ci/run installs it)");
    let fetcher = SafeFetcher::new(FetcherConfig::new(
        outbound_http::user_agent("https://launch.example"),
        AddressPolicy { allow_private_networks: true, trusted: vec![] },
    ))
    .unwrap();
    let mut reader = CrawlingSiteReader::new(fetcher, outbound_http::BOT_TOKEN);
    reader.use_browser(browser).unwrap();
    let snapshot = reader.read(&kernel::WebUrl::parse(&server.url("/")).unwrap(), 10).await.unwrap();
    assert_eq!(snapshot.rendered.len(), 1);
    let (facts, decoys) = facts_of("js-only");
    for drafted in [ExtractiveDrafter.draft(&snapshot, &categories()).await.unwrap(), {
        let truthful = as_model_answer(&ExtractiveDrafter.draft(&snapshot, &categories()).await.unwrap());
        model_draft(&snapshot, &truthful).await
    }] {
        let (grounded, dropped) = ground(drafted, &snapshot, &categories());
        let score = score(&grounded, &facts);
        let recall = score.filled as f64 / score.stated as f64;
        assert!(recall >= 0.9 && score.invented.is_empty() && dropped.is_empty(), "recall {recall:.2}: {score:?} {dropped:?}");
        assert!(decoys_in(&grounded, &decoys).is_empty());
        eprintln!("js-only through Chromium: recall {}/{} = {recall:.2}", score.filled, score.stated);
    }

    let unrendered = read(&server).await;
    assert_eq!(unrendered.needs_javascript.len(), 1);
    let (grounded, _) = ground(ExtractiveDrafter.draft(&unrendered, &categories()).await.unwrap(), &unrendered, &categories());
    let score = score(&grounded, &facts);
    assert!(score.filled <= 1, "only the title's name: {grounded:#?}");
}

/// The prose corpus's figures (`cargo xtask bench --drafts`): per field, the facts the sites
/// state and the share drafted, the values that are wrong, and the decoys taken, for each half.
#[tokio::test]
#[ignore = "a measurement; run by `cargo xtask bench --drafts`"]
async fn measure_the_prose_corpus() {
    for half in prose::HALVES {
        let score = prose::measure(half).await;
        eprintln!("{}\n", prose::report(half, &score));
    }
}

/// Prints what the crawler read of one site and what the extractive drafter made of it
/// (`SITE=working/cinderpad cargo test -p drafter --test it show_one_site -- --ignored --nocapture`):
/// for people writing rules against the working half.
#[tokio::test]
#[ignore = "a tool for people writing rules; prints one site's draft"]
async fn show_one_site() {
    let Ok(name) = std::env::var("SITE") else { return };
    let server = FixtureServer::site(&site(&name)).await;
    let snapshot = read(&server).await;
    for page in &snapshot.pages {
        eprintln!("== {}", page.url);
        for block in &page.blocks {
            eprintln!(
                "  {:?} [{}] {:?}: {}",
                block.kind,
                block.role.as_str(),
                block.section,
                block.text.chars().take(120).collect::<String>()
            );
        }
    }
    let (grounded, dropped) =
        ground(ExtractiveDrafter.draft(&snapshot, &prose::categories()).await.unwrap(), &snapshot, &prose::categories());
    for (field, proposed) in &grounded.fields {
        eprintln!("{field}: {:?}", proposed.value);
    }
    eprintln!("founders: {:?}", grounded.founders.iter().map(|f| (&f.value.name, &f.value.title)).collect::<Vec<_>>());
    eprintln!("faqs: {:?}", grounded.faqs.iter().map(|f| &f.value.question).collect::<Vec<_>>());
    eprintln!("dropped: {dropped:#?}");
}

/// Working sites held below the 75 % bar, and why (each still counts toward the 90 %).
const BELOW_THE_BAR: &[(&str, &str)] = &[(
    "bluefinch",
    "its founders are named only in a footer line 'Made by Claire and Julien Morel', which is also how a web designer's credit \
     reads, and its year only as 'we opened the inscriptions on 14 March 2021'",
)];

/// The prose corpus's working half, which the rules are written against, holds its figures:
/// 90 % of the facts overall and 75 % on every site but those in [`BELOW_THE_BAR`], no decoy taken by either drafter, no value
/// lost on the model drafter's way or dropped by the grounding check. The held-out half is
/// measured (`cargo xtask bench --drafts`), and held to the floor it has reached so that no
/// rule change loses ground there unnoticed.
#[tokio::test]
async fn the_prose_corpus_holds_its_figures() {
    for (half, overall, every_site) in [("working", 0.90, 0.75), ("held-out", 0.89, 0.0)] {
        let score = prose::measure(half).await;
        let report = prose::report(half, &score);
        let (stated, found) = score.extractive.iter().map(|s| s.total()).fold((0, 0), |(s, f), t| (s + t.stated, f + t.found));
        assert!(found as f64 >= overall * stated as f64, "{half}: {found}/{stated}\n{report}");
        for site in &score.extractive {
            let total = site.total();
            // A working site below the bar on purpose, with why: what it leaves out would take a
            // rule that also reads decoys.
            let below_on_purpose = half == "working" && BELOW_THE_BAR.iter().any(|(name, _)| *name == site.site);
            assert!(
                below_on_purpose || total.found as f64 >= every_site * total.stated as f64,
                "{half}/{}: {total:?}\n{report}",
                site.site
            );
            if half == "working" {
                assert!(site.decoys_taken.is_empty(), "{half}/{}: {:?}", site.site, site.decoys_taken);
                assert!(!site.wrong.iter().any(|w| w.starts_with("dropped by grounding")), "{half}/{}: {:?}", site.site, site.wrong);
            }
        }
        if half == "working" {
            assert!(score.model_decoys_kept.is_empty() && score.model_lost.is_empty(), "{report}");
        }
    }
}
