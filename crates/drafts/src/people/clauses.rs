//! Clauses that name a founder in one stroke: "When I (Lena Vogt, CEO) started …", "joined me as
//! co-founder", "says Daniel Otieno, co-founder and CTO of Oriole", and the pronouns people add.

use super::{FounderMention, is_role, looks_like_name, name_before};

/// A text without the pronouns people give in brackets after their name ("Ines Duarte
/// (she/her), CEO and co-founder").
pub fn without_pronouns(text: &str) -> String {
    let mut out = text.to_owned();
    for pronouns in ["(she/her)", "(he/him)", "(they/them)", "(she/they)", "(he/they)"] {
        out = out.replace(&format!(" {pronouns}"), "");
    }
    out
}

/// "When I (Lena Vogt, CEO) started …": the name, and the role, a maker gives in brackets.
pub(super) fn named_in_brackets(sentence: &str) -> Option<FounderMention> {
    let at = sentence.find("I (")?;
    if sentence[..at].chars().next_back().is_some_and(char::is_alphanumeric) {
        return None;
    }
    let inner = sentence[at + 3..].split(')').next()?;
    let (name, role) = match inner.split_once(", ") {
        Some((name, role)) => (name.trim(), Some(role.trim())),
        None => (inner.trim(), None),
    };
    looks_like_name(name).then(|| FounderMention { name: name.to_owned(), title: role.filter(|r| is_role(r)).map(str::to_owned) })
}

/// Whether a lower-cased sentence says its subject joined as a co-founder ("joined me as
/// co-founder", "joined Nettlebox as a co-founder"), not another company.
pub(super) fn joined_as_cofounder(lower: &str, product_names: &[String]) -> bool {
    lower.match_indices("joined ").any(|(at, cue)| {
        let mut rest = &lower[at + cue.len()..];
        for object in ["me ", "us ", "the team ", "the company "] {
            rest = rest.strip_prefix(object).unwrap_or(rest);
        }
        if let Some(name) = product_names.iter().map(|name| name.to_lowercase()).find(|name| rest.starts_with(&format!("{name} "))) {
            rest = &rest[name.len() + 1..];
        }
        ["as co-founder", "as a co-founder", "as cofounder", "as a cofounder", "as my co-founder", "as our co-founder"]
            .iter()
            .any(|role| rest.starts_with(role))
    })
}

/// "Daniel Otieno, co-founder and CTO of Oriole": people a sentence names a founder of the
/// product itself, with that role.
pub(super) fn founders_of_this(sentence: &str, product_names: &[String]) -> Vec<FounderMention> {
    let lower = sentence.to_ascii_lowercase();
    let mut found = Vec::new();
    // "says Amara Nwosu, Foxglove's founder and CEO": the product's own founder.
    for name in product_names.iter().filter(|name| !name.is_empty()) {
        for possessive in [format!(", {name}'s "), format!(", {name}’s ")] {
            for (at, cue) in sentence.match_indices(possessive.as_str()) {
                let role = sentence[at + cue.len()..].split([',', '.', ';', '(']).next().unwrap_or("").trim();
                if !role.to_ascii_lowercase().contains("founder") || role.chars().count() > 40 {
                    continue;
                }
                let before: Vec<&str> = sentence[..at].split_whitespace().collect();
                let person = name_before(&before);
                if looks_like_name(&person) && !is_role(&person) {
                    found.push(FounderMention { name: person, title: Some(role.to_owned()) });
                }
            }
        }
    }
    for cue in [", co-founder", ", cofounder", ", founder"] {
        for (at, _) in lower.match_indices(cue) {
            let role_start = at + 2;
            let Some(of) = lower[role_start..].find(" of ") else { continue };
            let role = &sentence[role_start..role_start + of];
            let company = &lower[role_start + of + 4..];
            let ours = product_names.iter().any(|name| {
                let name = name.to_ascii_lowercase();
                !name.is_empty() && company.starts_with(&name) && !company[name.len()..].starts_with(|c: char| c.is_alphanumeric())
            });
            if !ours || role.chars().count() > 40 || role.contains(',') {
                continue;
            }
            let before: Vec<&str> = sentence[..at].split_whitespace().collect();
            let name = name_before(&before);
            if looks_like_name(&name) && !is_role(&name) {
                found.push(FounderMention { name, title: Some(role.trim().to_owned()) });
            }
        }
    }
    found
}
