//! What a quote can be evidence of. A verbatim quote is necessary, not sufficient: a customer's
//! signature under a testimonial is on the page, yet its "founder" is not the product's. These
//! rules say which blocks of a page may support which values, which kinds of evidence
//! founders, pricing and the founding year need, the words that say someone founded the
//! product, and the founding years a site states. The extractive drafter picks its values by
//! them, and the grounding check enforces them on every drafter.

use crate::model::{Basis, FieldName};
use crate::site::{BlockRole, Page, SiteSnapshot, TextBlock};
use serde_json::Value;

/// What a value is: a profile field, or an item of a section.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Subject {
    Field(FieldName),
    Founder,
    Faq,
    Social,
    Seo,
}

impl std::fmt::Display for Subject {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Self::Field(field) => write!(f, "{}", field.as_str()),
            Self::Founder => f.write_str("a founder"),
            Self::Faq => f.write_str("an FAQ"),
            Self::Social => f.write_str("a social link"),
            Self::Seo => f.write_str("the SEO text"),
        }
    }
}

impl BlockRole {
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Content => "content",
            Self::Footer => "footer",
            Self::Testimonial => "testimonial",
            Self::Partner => "partner or integration",
            Self::Comparison => "comparison",
            Self::Roadmap => "roadmap",
            Self::Copyright => "copyright",
            Self::CookieBanner => "cookie banner",
        }
    }

    /// Whether text in a block of this role may be evidence of `subject`.
    pub fn can_support(self, subject: Subject) -> bool {
        use FieldName as F;
        match self {
            Self::Content => true,
            // Contact details, the address, the socials and a "founded by" line live in
            // footers; what the product is and costs does not.
            Self::Footer => match subject {
                Subject::Field(field) => matches!(
                    field,
                    F::Name
                        | F::Country
                        | F::City
                        | F::ContactEmail
                        | F::FoundedYear
                        | F::Keywords
                        | F::Categories
                        | F::Tags
                        | F::LogoUrl
                        | F::DemoVideoUrl
                ),
                Subject::Founder | Subject::Social => true,
                Subject::Faq | Subject::Seo => false,
            },
            // An integration is a feature of the product; the partner's price, place or
            // people are not the product's.
            Self::Partner => matches!(subject, Subject::Field(F::Features | F::Keywords | F::Tags | F::Categories)),
            // An FAQ's answer may say what is coming or how the product compares ("TikTok is on
            // the roadmap."): it is still the site's answer to its question.
            Self::Comparison | Self::Roadmap => matches!(subject, Subject::Field(F::Keywords | F::Tags | F::Categories) | Subject::Faq),
            // "© 2024 Acme · Berlin, Germany · hello@acme.example": its year is no founding year.
            Self::Copyright => matches!(subject, Subject::Field(F::Name | F::Country | F::City | F::ContactEmail)),
            Self::Testimonial | Self::CookieBanner => false,
        }
    }
}

/// The kinds of evidence `subject` accepts, or `None` when any kind will do.
pub fn accepted_bases(subject: Subject) -> Option<&'static [Basis]> {
    match subject {
        Subject::Founder => Some(&[Basis::StructuredData, Basis::LabelledSection, Basis::NamesProduct]),
        Subject::Field(FieldName::PricingSummary) => Some(&[Basis::StructuredData, Basis::LabelledSection, Basis::NamesProduct]),
        _ => None,
    }
}

/// Words of a heading or a page address that label a section as being about `subject`, each
/// matched as whole words ("team" is not "teams", "story" not "history"); empty when any
/// heading labels it.
pub fn topic_words(subject: Subject) -> &'static [&'static str] {
    use FieldName as F;
    match subject {
        Subject::Founder => &[
            "about",
            "team",
            "our founders",
            "the founders",
            "meet the founders",
            "founding team",
            "leadership",
            "people",
            "company",
            "story",
            "über uns",
            "ueber uns",
            "uber uns",
            "wer wir sind",
            "unser team",
            "à propos",
            "a propos",
            "équipe",
            "equipe",
            "qui sommes nous",
            "sobre",
            "nosotros",
            "chi siamo",
        ],
        Subject::Field(F::PricingSummary | F::PricingModel) => &[
            "pricing",
            "price",
            "prices",
            "plans",
            "buy",
            "shop",
            "store",
            "membership",
            "purchase",
            "preise",
            "preis",
            "tarif",
            "tarifs",
            "tarife",
            "precios",
            "prezzi",
            "prix",
            "kosten",
        ],
        Subject::Field(F::Features) => &[
            "feature",
            "features",
            "funktionen",
            "fonctionnalités",
            "fonctionnalites",
            "funciones",
            "what you get",
            "capabilities",
            "integrations",
        ],
        Subject::Field(F::Usps) => &["why", "benefits", "vorteile", "warum", "pourquoi", "por qué", "advantages"],
        Subject::Faq => &["faq", "faqs", "questions", "fragen", "help", "hilfe"],
        _ => &[],
    }
}

/// The words of a text, lower-cased, split at anything not a letter or digit.
fn word_list(text: &str) -> Vec<String> {
    text.to_lowercase().split(|c: char| !c.is_alphanumeric()).filter(|w| !w.is_empty()).map(str::to_owned).collect()
}

/// Whether `phrase` occurs in `text` as whole words.
pub fn has_phrase(text: &str, phrase: &str) -> bool {
    let (text, phrase) = (word_list(text), word_list(phrase));
    !phrase.is_empty() && text.windows(phrase.len()).any(|window| window == phrase.as_slice())
}

/// Whether a section (a heading, or a page's address) is labelled for `subject`.
pub fn labels(subject: Subject, label: &str) -> bool {
    let words = topic_words(subject);
    (words.is_empty() && !label.trim().is_empty()) || words.iter().any(|word| has_phrase(label, word))
}

/// The path of a page's address, lower-cased, without the leading slash.
pub fn page_path(url: &str) -> String {
    url.split_once("://").map_or("", |(_, rest)| rest).split_once('/').map_or("", |(_, path)| path).to_lowercase()
}

/// Whether a page is about the company's people (a team, careers or jobs page): its roles and
/// titles ("Head of Design") say nothing of what the product is or does.
pub fn about_people(url: &str) -> bool {
    let path = page_path(url);
    let parts: Vec<&str> = path.split(['/', '-', '_', '.']).collect();
    // `/pricing/team` is a plan, not the team.
    parts.iter().any(|part| ["team", "people", "founders", "careers", "jobs", "karriere", "equipe", "équipe"].contains(part))
        && !parts.iter().any(|part| ["pricing", "plans", "preise", "tarifs"].contains(part))
}

/// Whether text of a page about people may support `subject`: founders, the place and contact
/// details, not what the product is, does or costs.
pub fn people_page_supports(subject: Subject) -> bool {
    use FieldName as F;
    match subject {
        Subject::Founder | Subject::Social => true,
        Subject::Field(field) => matches!(field, F::Name | F::Country | F::City | F::ContactEmail | F::FoundedYear | F::LogoUrl),
        Subject::Faq | Subject::Seo => false,
    }
}

/// Whether `block` on `page` sits under a heading, or on a page, labelled for `subject`.
pub fn in_labelled_section(subject: Subject, page: &Page, block: &TextBlock) -> bool {
    let path = page_path(&page.url);
    block.section.as_deref().is_some_and(|section| labels(subject, section)) || (!path.is_empty() && labels(subject, &path))
}

/// Whether `text` says that people founded something ("founder", "founded by",
/// "gegründet von", "fondé par", ...).
pub fn names_founding_people(text: &str) -> bool {
    let lower = text.to_lowercase();
    const ROLE: &[&str] = &["founder", "gründer", "fondateur", "fondatrice", "fundador", "fundadora", "fondatore"];
    ROLE.iter().any(|word| lower.contains(word)) || !founded_by_places(&lower).is_empty()
}

/// Where, in a lower-cased text, the names of who founded something begin: right after a "by"
/// (von, par, por, da) that follows a founding word in the same clause, within a few words
/// ("founded in 2019 in Lisbon by …"), or, in German, a "von" before "gegründet". "Founded in
/// 2019 and backed by Sequoia" names no founder.
pub fn founded_by_places(lower: &str) -> Vec<usize> {
    const FOUNDED: &[&str] = &["founded", "fondé", "fondée", "fundada", "fundado", "fondata", "fondato", "gegründet"];
    const BY: &[&str] = &[" by ", " von ", " par ", " por ", " da "];
    const NOT_FOUNDING: &[&str] = &["backed", "funded", "invested", "used", "loved", "trusted", "supported", "acquired", "owned", "run "];
    let founded: Vec<(usize, usize)> =
        FOUNDED.iter().flat_map(|word| lower.match_indices(word).map(|(at, w)| (at, at + w.len()))).collect();
    let mut places: Vec<usize> = BY
        .iter()
        .flat_map(|by| lower.match_indices(by).map(move |(at, b)| (at, at + b.len())))
        .filter(|(by_start, by_end)| {
            founded.iter().any(|(word_start, word_end)| {
                let between = if word_end <= by_start {
                    &lower[*word_end..*by_start]
                } else if by_end <= word_start && lower[*word_start..].starts_with("gegründet") {
                    // "von Lena Vogel gegründet": the names sit between.
                    ""
                } else {
                    return false;
                };
                between.chars().count() <= 40
                    && !between.contains(['.', ';', '!', '?'])
                    && !NOT_FOUNDING.iter().any(|word| between.contains(word))
            })
        })
        .map(|(_, by_end)| by_end)
        .collect();
    places.sort_unstable();
    places.dedup();
    places
}

/// Whether `text` makes someone the founder of another company than the product ("CEO and
/// founder of Brightline", "Founder & CEO at Brightline", "Gründerin der Bäckerei Huber"): a
/// founding word followed closely (a few words, no comma) by "of", "at", "@", "von", "der",
/// "de" and a name that is not one of the product's.
pub fn founder_of_another(text: &str, product_names: &[String]) -> bool {
    let lower = text.to_lowercase();
    const FOUNDING: &[&str] = &["founder", "gründer", "fondateur", "fondatrice", "fundador", "fundadora", "fondatore"];
    const OF: &[&str] = &[" of ", " at ", " @ ", " von ", " der ", " de ", " du ", " del "];
    FOUNDING.iter().any(|word| {
        lower.match_indices(word).any(|(at, _)| {
            let sentence = lower[at..].split(['.', ';', '!', '?', '\n']).next().unwrap_or("");
            OF.iter().any(|of| {
                sentence.match_indices(of).any(|(of_at, _)| {
                    // "founder of", "Founder & CEO at": the company follows the role closely;
                    // "our founders, A and B, met at a print shop" names no company.
                    let between = &sentence[word.len().min(of_at)..of_at];
                    let rest = sentence[of_at + of.len()..].trim_start();
                    // "Co-Founder & Head of Machine Learning": the "of" is the second role's.
                    let role_of = ["head", "director", "vp", "vice president", "chief", "lead"].iter().any(|role| between.ends_with(role));
                    between.chars().count() <= 20
                        && !role_of
                        && !between.contains(',')
                        && !product_names.iter().any(|name| starts_with_name(rest, name))
                })
            })
        })
    })
}

/// Whether `text` (lower-cased) starts with `name` as a whole word.
fn starts_with_name(text: &str, name: &str) -> bool {
    let name = name.to_lowercase();
    !name.is_empty() && text.starts_with(&name) && text[name.len()..].chars().next().is_none_or(|c| !c.is_alphanumeric())
}

/// Words of a sentence about a person's past: their biography says what they did before,
/// not what the product is.
const BIOGRAPHY: &[&str] = &[
    "before this",
    "before that",
    "before, i",
    "before, we",
    "before joining",
    "previously",
    "worked as",
    "worked at",
    "worked for",
    "worked six",
    "worked five",
    "years as",
    "years at",
    "years designing",
    "years building",
    "years on",
    "spent years",
    "spent a decade",
    "used to work",
    "led engineering",
    "background in",
    "my career",
    "his career",
    "her career",
    "their career",
];

/// Whether a text is about a person's past rather than the product ("Before this I spent
/// eight years as a developer on a personal-finance app").
pub fn is_biography(text: &str) -> bool {
    let lower = text.to_lowercase();
    BIOGRAPHY.iter().any(|cue| lower.contains(cue))
}

/// Abbreviations whose full stop ends no sentence.
const ABBREVIATIONS: &[&str] =
    &["e.g.", "i.e.", "etc.", "ltd.", "inc.", "co.", "dr.", "mr.", "mrs.", "ms.", "st.", "vs.", "no.", "approx.", "u.s.", "est.", "prof."];

/// The sentences of a text, each a verbatim slice of it: cut after `.`, `!` or `?` (and a
/// closing quote or bracket) followed by a space, unless the full stop ends an abbreviation
/// or an initial ("J. Smith").
pub fn sentences(text: &str) -> Vec<&str> {
    let mut found = Vec::new();
    let mut start = 0;
    let bytes = text.as_bytes();
    for (at, c) in text.char_indices() {
        if !matches!(c, '.' | '!' | '?') {
            continue;
        }
        let mut end = at + 1;
        while end < bytes.len() && matches!(bytes[end], b'"' | b'\'' | b')') {
            end += 1;
        }
        if end < bytes.len() && bytes[end] != b' ' {
            continue;
        }
        let sentence = &text[start..end];
        if c == '.' {
            let last_word = sentence.rsplit(' ').next().unwrap_or("").to_lowercase();
            let initial = last_word.chars().count() == 2 && last_word.starts_with(char::is_alphabetic);
            if ABBREVIATIONS.contains(&last_word.as_str()) || initial {
                continue;
            }
        }
        if !sentence.trim().is_empty() {
            found.push(sentence.trim());
        }
        start = end;
    }
    if !text[start..].trim().is_empty() {
        found.push(text[start..].trim());
    }
    found
}

/// Whether a list item or sentence says the thing is not there yet.
pub fn is_roadmap_text(text: &str) -> bool {
    let lower = text.to_lowercase();
    [
        "coming soon",
        "(soon)",
        "on our roadmap",
        "on the roadmap",
        "planned for",
        "not yet available",
        "demnächst",
        "bald verfügbar",
        "bientôt",
        "prochainement",
    ]
    .iter()
    .any(|cue| lower.contains(cue))
}

/// A JSON-LD value with the keys and types above it (`Organization`, `founder`, `name`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StructuredValue {
    pub text: String,
    pub path: Vec<String>,
}

impl StructuredValue {
    /// Reviews and ratings are someone else's words.
    pub fn role(&self) -> BlockRole {
        let review =
            self.path.iter().any(|key| matches!(key.as_str(), "review" | "reviews" | "Review" | "aggregateRating" | "AggregateRating"));
        if review { BlockRole::Testimonial } else { BlockRole::Content }
    }

    /// Whether this value is structured evidence of `subject` (a founder's name or title, an
    /// offer, the founding date).
    pub fn supports(&self, subject: Subject) -> bool {
        let has = |keys: &[&str]| self.path.iter().any(|key| keys.contains(&key.as_str()));
        match subject {
            // The founder's own name or title: right under `founder` (or a founding `Person`),
            // with nothing but type names between (not `founder.worksFor.name`).
            Subject::Founder => self.path.iter().rposition(|key| key == "founder" || key == "founders").is_some_and(|at| {
                let below = &self.path[at + 1..];
                below.split_last().is_some_and(|(last, types)| {
                    matches!(last.as_str(), "name" | "jobTitle") && types.iter().all(|key| key.starts_with(char::is_uppercase))
                })
            }),
            Subject::Field(FieldName::PricingSummary | FieldName::PricingModel) => {
                has(&["offers", "Offer", "AggregateOffer", "priceSpecification", "UnitPriceSpecification"])
            }
            Subject::Field(FieldName::FoundedYear) => self.path.last().is_some_and(|key| key == "foundingDate"),
            _ => true,
        }
    }
}

/// Every value of a page's JSON-LD, with its path. A `Person` whose `jobTitle` names a
/// founding role counts as under `founder`.
pub fn structured_values(page: &Page) -> Vec<StructuredValue> {
    let mut values = Vec::new();
    for object in &page.json_ld {
        walk(object, &mut Vec::new(), &mut values);
    }
    values
}

fn walk(value: &Value, path: &mut Vec<String>, into: &mut Vec<StructuredValue>) {
    match value {
        Value::String(text) => into.push(StructuredValue { text: text.clone(), path: path.clone() }),
        Value::Number(number) => into.push(StructuredValue { text: number.to_string(), path: path.clone() }),
        Value::Array(items) => items.iter().for_each(|item| walk(item, path, into)),
        Value::Object(map) => {
            let depth = path.len();
            match map.get("@type") {
                Some(Value::String(kind)) => path.push(kind.clone()),
                Some(Value::Array(kinds)) => path.extend(kinds.iter().filter_map(Value::as_str).map(str::to_owned)),
                _ => {}
            }
            // "Founder of Brightline" founded something else.
            let founding_person = map
                .get("jobTitle")
                .and_then(Value::as_str)
                .is_some_and(|title| names_founding_people(title) && !founder_of_another(title, &[]))
                && path.iter().any(|kind| kind == "Person");
            if founding_person && !path.iter().any(|key| key == "founder") {
                path.push("founder".into());
            }
            for (key, item) in map {
                path.push(key.clone());
                walk(item, path, into);
                path.pop();
            }
            path.truncate(depth);
        }
        _ => {}
    }
}

/// The names the product goes by on its site: the drafted name, `og:site_name`, the JSON-LD
/// organisation's or application's name and the homepage title up to its separator.
pub fn product_names(site: &SiteSnapshot, drafted: Option<&str>) -> Vec<String> {
    let mut names: Vec<String> = drafted.into_iter().map(str::to_owned).collect();
    if let Some(home) = site.pages.first() {
        names.extend(home.open_graph.get("og:site_name").cloned());
        if let Some(title) = &home.title {
            let cut = [" | ", " - ", " – ", " — ", ": ", " · "].iter().filter_map(|sep| title.find(sep)).min().unwrap_or(title.len());
            let first = title[..cut].trim();
            // "Home | Acme": a page's name, not the product's.
            if !["home", "homepage", "welcome", "start", "startseite", "accueil"].contains(&first.to_lowercase().as_str()) {
                names.push(first.to_owned());
            }
        }
    }
    for page in &site.pages {
        for object in &page.json_ld {
            let organisation =
                ["Organization", "Corporation", "LocalBusiness", "SoftwareApplication", "WebApplication", "MobileApplication", "Product"]
                    .iter()
                    .any(|kind| match &object["@type"] {
                        Value::String(one) => one == kind,
                        Value::Array(many) => many.iter().any(|one| one.as_str() == Some(kind)),
                        _ => false,
                    });
            if organisation && let Some(name) = object["name"].as_str() {
                names.push(name.trim().to_owned());
            }
        }
    }
    names.retain(|name| !name.is_empty() && name.chars().count() <= 80);
    names.sort();
    names.dedup();
    names
}

/// Whether `text` names one of the product's names as a whole word.
pub fn names_product(text: &str, product_names: &[String]) -> bool {
    let lower = text.to_lowercase();
    product_names.iter().any(|name| {
        let name = name.to_lowercase();
        lower.match_indices(&name).any(|(at, _)| {
            let before = lower[..at].chars().next_back().is_none_or(|c| !c.is_alphanumeric());
            let after = lower[at + name.len()..].chars().next().is_none_or(|c| !c.is_alphanumeric());
            before && after
        })
    })
}

mod founding;
mod roles;
#[cfg(test)]
mod tests;

pub use founding::{FoundingStatement, founding_statements, founding_words, founding_year_in, speaks_of_company, years_in};
pub use roles::{is_founders_signature, role_of_heading, role_of_label, role_of_text};
