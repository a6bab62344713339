//! The prose corpus (`tests/fixtures/sites/PROSE.md`): small product sites that state their
//! facts in sentences, in a working half the rules are written against and a held-out half
//! they are measured on. Scores a grounded draft per field: facts stated, found, and values
//! drafted that are wrong or that the site does not state; and the planted decoys taken.

use super::{as_model_answer, decoy_as_model_answer, model_draft, read, site};
use drafter::ExtractiveDrafter;
use drafts::grounding::{CategoryRef, Proposal, ground};
use drafts::{Drafter, FieldName, FieldValue};
use outbound_http::testing::FixtureServer;
use serde_json::{Map, Value};
use std::collections::BTreeMap;

/// The two halves, in the order they are reported.
pub const HALVES: [&str; 2] = ["working", "held-out"];

/// The sites of a half, by folder name.
pub fn sites(half: &str) -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(site(half))
        .unwrap()
        .flatten()
        .filter(|entry| entry.path().is_dir())
        .map(|entry| entry.file_name().to_string_lossy().into_owned())
        .filter(|name| !name.starts_with('_'))
        .collect();
    names.sort();
    names
}

/// The demo directory's subcategories, which the corpus's facts name (`PROSE.md`).
pub fn categories() -> Vec<CategoryRef> {
    [
        ("api-tools", "API Tools", "Design, mock, document and monitor APIs."),
        ("code-review", "Code Review", "Review pull requests faster and catch bugs before they ship."),
        ("testing-qa", "Testing & QA", "Automated tests, test management and quality assurance."),
        ("devops-hosting", "DevOps & Hosting", "Deploy, host and observe applications."),
        ("note-taking", "Note Taking", "Capture, organise and find notes and ideas."),
        ("task-management", "Task Management", "To-do lists, projects and team task boards."),
        ("calendars-scheduling", "Calendars & Scheduling", "Book meetings and plan time."),
        ("focus-time-tracking", "Focus & Time Tracking", "Track time and protect deep work."),
        ("ai-writing", "AI Writing", "Draft, edit and summarise text with AI help."),
        ("ai-agents", "AI Agents", "Agents that carry out multi-step tasks on their own."),
        ("ai-image-video", "AI Image & Video", "Generate and edit images and video."),
        ("ml-ops", "ML Ops", "Train, evaluate, deploy and monitor models."),
        ("email-marketing", "Email Marketing", "Newsletters, campaigns and automations."),
        ("seo", "SEO", "Rank higher in search with audits, keywords and content."),
        ("social-media", "Social Media", "Schedule posts and grow audiences."),
        ("analytics", "Analytics", "Understand visitors, funnels and retention."),
        ("ui-design", "UI Design", "Design interfaces and design systems."),
        ("prototyping", "Prototyping", "Clickable prototypes and user flows."),
        ("design-assets", "Design Assets", "Icons, illustrations, fonts and mock-ups."),
        ("invoicing", "Invoicing", "Send invoices and get paid on time."),
        ("accounting", "Accounting", "Bookkeeping, expenses and reports."),
        ("personal-finance", "Personal Finance", "Budgets, savings and spending insight."),
        ("crm", "CRM", "Keep track of contacts, deals and pipelines."),
        ("customer-support", "Customer Support", "Help desks, live chat and knowledge bases."),
        ("lead-generation", "Lead Generation", "Find and qualify prospects."),
        ("online-courses", "Online Courses", "Create, sell and take courses."),
        ("language-learning", "Language Learning", "Learn and practise languages."),
        ("wearables", "Wearables", "Watches, rings and other devices worn on the body."),
        ("smart-home", "Smart Home", "Connected devices for the home."),
    ]
    .into_iter()
    .map(|(slug, name, description)| CategoryRef { slug: slug.into(), name: name.into(), description: description.into() })
    .collect()
}

/// One field's count over some sites.
#[derive(Debug, Default, Clone, Copy)]
pub struct Tally {
    /// Facts the sites state.
    pub stated: usize,
    /// Of those, found in the draft.
    pub found: usize,
    /// Values drafted that differ from what the site states, or that it does not state.
    pub wrong: usize,
}

impl Tally {
    fn add(&mut self, other: Tally) {
        self.stated += other.stated;
        self.found += other.found;
        self.wrong += other.wrong;
    }
}

/// How one draft compares with its site's `_facts.json`.
#[derive(Debug, Default)]
pub struct SiteScore {
    pub site: String,
    pub fields: BTreeMap<&'static str, Tally>,
    /// What was wrong, for the report.
    pub wrong: Vec<String>,
    /// The fields of facts stated and not found.
    pub missed: Vec<&'static str>,
    pub decoys: usize,
    pub decoys_taken: Vec<String>,
}

impl SiteScore {
    pub fn total(&self) -> Tally {
        let mut total = Tally::default();
        self.fields.values().for_each(|tally| total.add(*tally));
        total
    }
}

/// The fields scored, in the report's order. The others (tagline, keywords, ...) are not in
/// the corpus's facts.
const FIELDS: [&str; 14] = [
    "name",
    "short_description",
    "description",
    "categories",
    "pricing_model",
    "pricing_summary",
    "country",
    "city",
    "founded_year",
    "features",
    "faqs",
    "founders",
    "founder_titles",
    "contact_email",
];

/// The fields whose value is one text.
const TEXT_FIELDS: [&str; 9] =
    ["name", "short_description", "description", "pricing_model", "pricing_summary", "country", "city", "founded_year", "contact_email"];

/// Fields a site lists whenever it states them: a value drafted for one it does not list is
/// one the site does not state.
const LISTED_WHEN_STATED: [&str; 6] = ["pricing_model", "pricing_summary", "country", "city", "founded_year", "contact_email"];

fn lower(text: &str) -> String {
    text.to_lowercase()
}

fn text_of(proposal: &Proposal, field: &str) -> Option<String> {
    let field = FieldName::parse(field)?;
    proposal.fields.get(&field).and_then(|p| p.value.as_text()).map(str::to_owned)
}

fn list_of(proposal: &Proposal, field: &str) -> Vec<String> {
    let Some(field) = FieldName::parse(field) else { return Vec::new() };
    proposal.fields.get(&field).map(|p| p.value.as_list().to_vec()).unwrap_or_default()
}

/// Whether a drafted text is the stated one, by the rule of `PROSE.md` for its field.
fn text_matches(field: &str, drafted: &str, stated: &Value) -> bool {
    match (field, stated) {
        ("short_description" | "description", Value::String(want)) => drafted.contains(want.as_str()),
        ("pricing_summary", Value::Array(wants)) => wants.iter().all(|w| w.as_str().is_some_and(|w| lower(drafted).contains(&lower(w)))),
        ("pricing_summary", Value::String(want)) => lower(drafted).contains(&lower(want)),
        ("name" | "pricing_model" | "founded_year", Value::String(want)) => drafted.trim() == want,
        (_, Value::String(want)) => drafted.trim().eq_ignore_ascii_case(want),
        _ => false,
    }
}

/// A category decoy's value as a slug ("Lead generation" -> `lead-generation`).
fn slug_of(value: &str) -> String {
    lower(value).split_whitespace().collect::<Vec<_>>().join("-")
}

pub fn score(site_name: &str, grounded: &Proposal, facts: &Map<String, Value>, decoys: &[Value]) -> SiteScore {
    let mut score = SiteScore { site: site_name.to_owned(), decoys: decoys.len(), ..SiteScore::default() };
    let mut tally = |field: &'static str, stated: bool, found: bool, wrong: Option<String>| {
        let entry = score.fields.entry(field).or_default();
        entry.stated += usize::from(stated);
        entry.found += usize::from(found);
        if stated && !found {
            score.missed.push(field);
        }
        if let Some(wrong) = wrong {
            entry.wrong += 1;
            score.wrong.push(wrong);
        }
    };
    for field in TEXT_FIELDS {
        let drafted = text_of(grounded, field);
        match (facts.get(field), drafted) {
            (Some(stated), Some(drafted)) if text_matches(field, &drafted, stated) => tally(field, true, true, None),
            (Some(stated), Some(drafted)) => tally(field, true, false, Some(format!("{field} = {drafted:?}, stated {stated}"))),
            (Some(_), None) => tally(field, true, false, None),
            (None, Some(drafted)) if LISTED_WHEN_STATED.contains(&field) => {
                tally(field, false, false, Some(format!("{field} = {drafted:?}, not stated")))
            }
            (None, _) => {}
        }
    }
    // Categories: every stated one, and none the site does not support.
    let drafted = list_of(grounded, "categories");
    if let Some(Value::Array(stated)) = facts.get("categories") {
        let stated: Vec<&str> = stated.iter().filter_map(Value::as_str).collect();
        tally("categories", true, stated.iter().all(|s| drafted.iter().any(|d| d == s)), None);
        for extra in drafted.iter().filter(|d| !stated.contains(&d.as_str())) {
            tally("categories", false, false, Some(format!("category {extra}, stated {stated:?}")));
        }
    }
    if let Some(Value::Array(wants)) = facts.get("features") {
        let drafted = list_of(grounded, "features");
        let found = wants.iter().filter_map(Value::as_str).all(|w| drafted.iter().any(|d| lower(d).contains(&lower(w))));
        tally("features", true, found, None);
    }
    let faqs = grounded.faqs.len();
    match facts.get("faqs").and_then(Value::as_u64) {
        Some(want) => {
            tally("faqs", true, faqs as u64 == want, (faqs > 0 && faqs as u64 != want).then(|| format!("faqs: {faqs}, stated {want}")))
        }
        None if faqs > 0 => tally("faqs", false, false, Some(format!("faqs: {faqs}, none stated"))),
        None => {}
    }
    let stated: Vec<&Value> = facts.get("founders").and_then(Value::as_array).map(|f| f.iter().collect()).unwrap_or_default();
    for founder in &stated {
        let name = founder["name"].as_str().unwrap_or_default();
        let drafted = grounded.founders.iter().find(|f| f.value.name == name);
        tally("founders", true, drafted.is_some(), None);
        let drafted_title = drafted.and_then(|f| f.value.title.clone());
        match (founder["title"].as_str(), drafted_title) {
            (Some(want), Some(got)) if lower(&got).contains(&lower(want)) => tally("founder_titles", true, true, None),
            (Some(want), Some(got)) => tally("founder_titles", true, false, Some(format!("{name}'s title {got:?}, stated {want:?}"))),
            (Some(_), None) => tally("founder_titles", true, false, None),
            (None, Some(got)) => tally("founder_titles", false, false, Some(format!("{name}'s title {got:?}, none stated"))),
            (None, None) => {}
        }
    }
    for founder in &grounded.founders {
        if !stated.iter().any(|s| s["name"].as_str() == Some(founder.value.name.as_str())) {
            tally("founders", false, false, Some(format!("founder {:?}, not stated", founder.value.name)));
        }
    }
    score.decoys_taken = decoys_taken(grounded, decoys);
    score
}

/// The decoys of a site that made it into a grounded draft.
pub fn decoys_taken(grounded: &Proposal, decoys: &[Value]) -> Vec<String> {
    let mut taken = Vec::new();
    for decoy in decoys {
        let (field, value) = (decoy["field"].as_str().unwrap_or_default(), decoy["value"].as_str().unwrap_or_default());
        let present = match field {
            "founders" => grounded.founders.iter().any(|f| f.value.name == value),
            "categories" => list_of(grounded, "categories").contains(&slug_of(value)),
            "country" => text_of(grounded, field).is_some_and(|got| got.eq_ignore_ascii_case(value)),
            _ => match FieldName::parse(field).and_then(|f| grounded.fields.get(&f)) {
                Some(proposed) => match &proposed.value {
                    FieldValue::Text(text) => text.contains(value),
                    FieldValue::List(items) => items.iter().any(|item| item.contains(value)),
                },
                None => false,
            },
        };
        if present {
            taken.push(format!("{field} = {value:?}"));
        }
    }
    taken
}

/// A site's facts and decoys.
pub fn facts_of(path: &str) -> (Map<String, Value>, Vec<Value>) {
    let mut facts: Map<String, Value> = serde_json::from_str(&std::fs::read_to_string(site(path).join("_facts.json")).unwrap()).unwrap();
    let decoys = facts.remove("_decoys").and_then(|d| d.as_array().cloned()).unwrap_or_default();
    facts.retain(|key, _| !key.starts_with('_'));
    (facts, decoys)
}

/// A decoy as a model would propose it: categories by their slug, so what refuses it is the
/// meaning check and not the list of categories.
fn decoy_for_model(decoy: &Value) -> Value {
    let mut decoy = decoy.clone();
    if decoy["field"] == "categories"
        && let Some(value) = decoy["value"].as_str()
    {
        decoy["value"] = Value::String(slug_of(value));
    }
    decoy
}

/// One half drafted by the extractive drafter, and by the model drafter (a fake model that
/// answers the extractive draft, then each decoy on its own with its verbatim quote).
pub struct HalfScore {
    pub extractive: Vec<SiteScore>,
    /// Sites where the model drafter's draft of the extractive answer lost a value, and why.
    pub model_lost: Vec<String>,
    /// Decoys the model drafter kept, of `model_decoys` proposed.
    pub model_decoys_kept: Vec<String>,
    pub model_decoys: usize,
}

pub async fn measure(half: &str) -> HalfScore {
    let categories = categories();
    let mut result = HalfScore { extractive: Vec::new(), model_lost: Vec::new(), model_decoys_kept: Vec::new(), model_decoys: 0 };
    for name in sites(half) {
        let path = format!("{half}/{name}");
        let server = FixtureServer::site(&site(&path)).await;
        let snapshot = read(&server).await;
        let (facts, decoys) = facts_of(&path);
        let drafted = ExtractiveDrafter.draft(&snapshot, &categories).await.unwrap();
        let (grounded, dropped) = ground(drafted, &snapshot, &categories);
        let mut score = score(&name, &grounded, &facts, &decoys);
        score.wrong.extend(dropped.iter().map(|d| format!("dropped by grounding: {} ({})", d.what, d.why)));
        // The same draft through the model drafter keeps every value.
        let (through_model, lost) = ground(model_draft(&snapshot, &as_model_answer(&grounded)).await, &snapshot, &categories);
        if !lost.is_empty() || through_model.fields.len() != grounded.fields.len() {
            result.model_lost.push(format!("{name}: {lost:?}"));
        }
        for decoy in &decoys {
            let answer = decoy_as_model_answer(&decoy_for_model(decoy), &server);
            let (kept, _) = ground(model_draft(&snapshot, &answer).await, &snapshot, &categories);
            result.model_decoys += 1;
            result.model_decoys_kept.extend(decoys_taken(&kept, std::slice::from_ref(decoy)).into_iter().map(|d| format!("{name}: {d}")));
        }
        result.extractive.push(score);
    }
    result
}

/// The per-field table, the per-site recall and what went wrong, as the closing notes and
/// `docs/performance.md` show them.
pub fn report(half: &str, score: &HalfScore) -> String {
    let mut fields: BTreeMap<&str, Tally> = BTreeMap::new();
    let mut total = Tally::default();
    let mut lines = vec![format!("## {half} half: {} sites\n", score.extractive.len())];
    for site in &score.extractive {
        for (field, tally) in &site.fields {
            fields.entry(field).or_default().add(*tally);
        }
        total.add(site.total());
    }
    let percent =
        |part: usize, whole: usize| if whole == 0 { "-".to_owned() } else { format!("{:.0} %", part as f64 * 100.0 / whole as f64) };
    lines.push("| field | stated | found | recall | wrong |".into());
    lines.push("|---|---|---|---|---|".into());
    for field in FIELDS {
        if let Some(t) = fields.get(field) {
            lines.push(format!("| {field} | {} | {} | {} | {} |", t.stated, t.found, percent(t.found, t.stated), t.wrong));
        }
    }
    lines.push(format!(
        "| **all** | {} | {} | {} | {} (precision {}) |",
        total.stated,
        total.found,
        percent(total.found, total.stated),
        total.wrong,
        percent(total.found, total.found + total.wrong)
    ));
    let decoys: usize = score.extractive.iter().map(|s| s.decoys).sum();
    let taken: Vec<String> = score.extractive.iter().flat_map(|s| s.decoys_taken.iter().map(move |d| format!("{}: {d}", s.site))).collect();
    lines.push(format!("\nDecoys taken by the extractive drafter: {} of {decoys} {taken:?}", taken.len()));
    lines.push(format!(
        "Model drafter: decoys kept {} of {} {:?}; values lost on the way {:?}",
        score.model_decoys_kept.len(),
        score.model_decoys,
        score.model_decoys_kept,
        score.model_lost
    ));
    let under: Vec<String> = score
        .extractive
        .iter()
        .map(|s| (s, s.total()))
        .filter(|(_, t)| t.stated > 0 && (t.found as f64) < 0.75 * t.stated as f64)
        .map(|(s, t)| format!("{} {}/{}", s.site, t.found, t.stated))
        .collect();
    lines.push(format!("Sites under 75 %: {} {under:?}", under.len()));
    lines.push("\nPer site:".into());
    for site in &score.extractive {
        let t = site.total();
        lines.push(format!(
            "- {}: {}/{} = {}; missed {:?}; wrong {:?}",
            site.site,
            t.found,
            t.stated,
            percent(t.found, t.stated),
            site.missed,
            site.wrong
        ));
    }
    lines.join("\n")
}
