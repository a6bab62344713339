//! Whether a value says only what its quotes say: the numbers, e-mail addresses and links it
//! states must stand in them, and for most fields its words too.

use crate::model::{Evidence, FieldName};
use crate::site::fold_whitespace;

/// A fact a value states: a number (digits, thousands separators removed), an e-mail address
/// or a link (normalised).
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) enum Fact {
    Number(String),
    Email(String),
    Link(String),
}

/// The facts in a text.
pub(super) fn facts(text: &str) -> Vec<Fact> {
    let mut found = Vec::new();
    for word in text.split_whitespace() {
        let word = word.trim_matches(|c: char| matches!(c, '(' | ')' | '[' | ']' | '"' | '\'' | ',' | ';' | '<' | '>' | ':' | '!' | '?'));
        let lower = word.to_lowercase();
        let lower = lower.strip_prefix("mailto:").unwrap_or(&lower);
        if lower.starts_with("http://") || lower.starts_with("https://") || lower.starts_with("www.") {
            found.push(Fact::Link(normalise_link(lower)));
        } else if lower.contains('@') {
            found.push(Fact::Email(lower.split('?').next().unwrap_or("").trim_end_matches('.').to_owned()));
        }
    }
    found.extend(digit_runs(text).into_iter().map(Fact::Number));
    found
}

fn normalise_link(link: &str) -> String {
    let link = link.trim_end_matches(['.', ',', ';']);
    let link = link.strip_prefix("https://").or_else(|| link.strip_prefix("http://")).unwrap_or(link);
    let link = link.strip_prefix("www.").unwrap_or(link);
    link.trim_end_matches('/').to_owned()
}

/// Digit runs; a comma or a thin space between digits joins them (`1,000` is `1000`).
pub(super) fn digit_runs(text: &str) -> Vec<String> {
    let chars: Vec<char> = text.chars().collect();
    let mut runs = Vec::new();
    let mut current = String::new();
    for (i, c) in chars.iter().enumerate() {
        if c.is_ascii_digit() {
            current.push(*c);
        } else if matches!(c, ',' | '\u{202f}' | '\u{a0}') && !current.is_empty() && chars.get(i + 1).is_some_and(char::is_ascii_digit) {
            continue;
        } else if !current.is_empty() {
            runs.push(std::mem::take(&mut current));
        }
    }
    if !current.is_empty() {
        runs.push(current);
    }
    runs
}

/// Words of two letters or more, lower-cased.
pub(super) fn words(text: &str) -> Vec<String> {
    text.split(|c: char| !c.is_alphanumeric()).filter(|word| word.chars().count() >= 2).map(str::to_lowercase).collect()
}

/// Why `value` is not supported by `quotes`, or `None`.
pub(super) fn check_wording(value: &str, quotes: &[Evidence], wording: bool) -> Option<String> {
    let joined = quotes.iter().map(|e| fold_whitespace(&e.quote)).collect::<Vec<_>>().join(" ");
    let quote_facts = facts(&joined);
    for fact in facts(value) {
        if !quote_facts.contains(&fact) {
            let shown = match &fact {
                Fact::Number(text) | Fact::Email(text) | Fact::Link(text) => text.clone(),
            };
            return Some(format!("{shown:?} does not appear in its quotes"));
        }
    }
    if wording {
        let value_words = words(value);
        if !value_words.is_empty() {
            let quote_words = words(&joined);
            let supported = value_words.iter().filter(|word| quote_words.contains(word)).count();
            // Short values must be fully supported; longer ones may differ in one word in
            // five (a joined list, a changed inflection), never in a new claim.
            let enough = if value_words.len() <= 4 { supported == value_words.len() } else { supported * 5 >= value_words.len() * 4 };
            if !enough {
                return Some("its wording is not in its quotes".into());
            }
        }
    }
    None
}

/// Fields whose words must come from their quotes.
pub(super) fn needs_wording(field: FieldName) -> bool {
    !matches!(
        field,
        FieldName::Categories
            | FieldName::Country
            | FieldName::PricingModel
            | FieldName::ContactEmail
            | FieldName::DemoVideoUrl
            | FieldName::LogoUrl
            | FieldName::FoundedYear
    )
}
