//! The role a text gives a person beside their name: "Aisha Bello (CEO)", "Lotte Peeters, our CEO,",
//! "Jana is CEO", "our CTO, Anna Berg", "Nadia Sayeed leads engineering".

use super::is_role;

/// The role a text gives `name` (or its first name): "Aisha Bello (CEO)", "Lotte Peeters, our
/// CEO,", "Jana is CEO", "Camille Roux, the founder".
pub fn role_of(name: &str, text: &str) -> Option<String> {
    let first = name.split_whitespace().next().unwrap_or(name);
    for who in [name, first] {
        for (at, _) in text.match_indices(who) {
            let rest = &text[at + who.len()..];
            if rest.chars().next().is_some_and(char::is_alphanumeric) {
                continue;
            }
            let candidates = [
                rest.strip_prefix(" (").and_then(|r| r.split(')').next()),
                // "Anna Berg, CEO, …", "Anna Berg — Founder & CEO", "Anna Berg, co-founder and CTO".
                rest.strip_prefix(", ")
                    .or_else(|| rest.strip_prefix(" — "))
                    .or_else(|| rest.strip_prefix(" – "))
                    .or_else(|| rest.strip_prefix(" - "))
                    .and_then(|r| r.split([',', ';', '.', '(']).next())
                    .filter(|role| {
                        !role.starts_with("our ") && !role.starts_with("the ") && !role.contains(" and her ") && !role.contains(" and his ")
                    }),
                rest.strip_prefix(", our ").or_else(|| rest.strip_prefix(", the ")).and_then(|r| r.split([',', ';', '.', '(']).next()),
                // "Lukas Brandt, who is our Co-founder & COO".
                rest.strip_prefix(", who is our ")
                    .or_else(|| rest.strip_prefix(", who is the "))
                    .or_else(|| rest.strip_prefix(", who is "))
                    .and_then(|r| r.split([',', ';', '.', '(']).next())
                    .map(|r| r.split(" and ").next().unwrap_or(r)),
                // "my name is Katrin Vogel, I am founder and CEO of Mapleward".
                rest.strip_prefix(", i am ")
                    .or_else(|| rest.strip_prefix(", I am "))
                    .or_else(|| rest.strip_prefix(", I'm "))
                    .or_else(|| rest.strip_prefix(" and I am "))
                    .or_else(|| rest.strip_prefix(" and I'm "))
                    .and_then(|r| r.split([',', ';', '.', '(']).next())
                    .map(|r| r.split(" of ").next().unwrap_or(r))
                    .map(|r| r.strip_prefix("the ").or_else(|| r.strip_prefix("a ")).unwrap_or(r)),
                rest.strip_prefix(" is our ")
                    .or_else(|| rest.strip_prefix(" is the "))
                    .or_else(|| rest.strip_prefix(" is "))
                    .and_then(|r| r.split([',', ';', '.', '(']).next())
                    .map(|r| r.split(" and ").next().unwrap_or(r)),
            ];
            for role in candidates.into_iter().flatten() {
                let role = role.trim();
                if is_role(role) && role.split_whitespace().count() <= 5 {
                    return Some(role.to_owned());
                }
            }
            // "Nadia Sayeed leads engineering", "Kemi runs the product": the part they lead, in
            // the site's words.
            for verb in [" leads ", " runs the "] {
                if let Some(led) = rest.strip_prefix(verb).and_then(|r| r.split([',', ';', '.', '(', ':']).next())
                    && (1..=2).contains(&led.split_whitespace().count())
                    && led.chars().all(|c| !c.is_uppercase())
                {
                    return Some(format!("{}{}", verb.trim_start(), led.trim_end()));
                }
            }
        }
    }
    // "our CTO, Anna Berg", "CEO Anna Berg": the role just before the name.
    for (at, _) in text.match_indices(name) {
        let before = text[..at].trim_end();
        // "Gorsewick's founder, Dr. Rachel Whitcombe": the honorific is not a part of the role.
        let before = super::HONORIFICS.iter().find_map(|h| before.strip_suffix(h)).unwrap_or(before);
        let before = before.trim_end().trim_end_matches(',').trim_end();
        let words: Vec<&str> = before.split_whitespace().collect();
        for take in (1..=3).rev() {
            if words.len() >= take {
                let role = words[words.len() - take..].join(" ");
                let role = role.trim_start_matches(|c: char| !c.is_alphanumeric());
                if is_role(role) && role.chars().next().is_some_and(char::is_uppercase) {
                    return Some(role.to_owned());
                }
            }
        }
    }
    None
}
