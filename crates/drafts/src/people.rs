//! Who founded the product, as sentences say it, and the roles they hold: "Birchbill was
//! started by Jana Dvořáková and Tomáš Novák", "Our founders, Lotte Peeters and Jonas Claes,
//! met …", "I'm Ben Hughes. I started Dapplewood with my wife, Clara Hughes", "Aisha Bello
//! (CEO)", "Lotte Peeters, our CEO,", "Jana is CEO". The extractive drafter takes founders and
//! titles by these rules, and the grounding check accepts a founder a sentence names so.

use crate::meaning::{self, names_product, sentences};

/// A person a text says founded the product, with the role it gives them.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FounderMention {
    pub name: String,
    pub title: Option<String>,
}

/// Words of a role ("CEO", "Managing Director", "Head of Design", "Founder").
const ROLE_WORDS: &[&str] = &[
    "ceo",
    "cto",
    "coo",
    "cfo",
    "cpo",
    "cmo",
    "founder",
    "co-founder",
    "cofounder",
    "director",
    "head of",
    "chief",
    "president",
    "lead ",
    "engineer",
    "designer",
    "developer",
    "managing",
    "owner",
];

/// Whether a short text is a role.
pub fn is_role(text: &str) -> bool {
    // Whole words: "cto" is not in "doctor", nor "coo" in "cool".
    text.chars().count() <= 60 && ROLE_WORDS.iter().any(|word| meaning::has_phrase(text, word.trim()))
}

/// Words that start the people after a founding verb ("started by", "made by", "co-founded
/// by").
const FOUNDED_BY: &[&str] = &[
    "founded by",
    "co-founded by",
    "cofounded by",
    "started by",
    "set up by",
    "made by",
    "built by",
    "created by",
    "run by",
    "launched by",
];

/// Words that start a list of founders ("our founders, A and B,").
const FOUNDERS_ARE: &[&str] =
    &["our founders, ", "our founders are ", "the founders, ", "the founders are ", "our co-founders, ", "our co-founders are "];

/// Founding words that may start a sentence without a subject ("Founded by Mara Lindqvist"),
/// unlike "made by" or "built by", which a footer says of a studio.
const FOUNDED_BY_ALONE: &[&str] = &["founded by", "co-founded by", "cofounded by", "started by"];

/// Last words of a company's name, which is never a person's ("Acme Studio", "Northwind Labs").
const COMPANY_WORDS: &[&str] = &[
    "Studio",
    "Studios",
    "Ltd",
    "Inc",
    "Labs",
    "Lab",
    "Agency",
    "GmbH",
    "LLC",
    "Co",
    "Software",
    "Group",
    "Partners",
    "Ventures",
    "Capital",
    "Media",
    "Digital",
    "Technologies",
    "Systems",
    "Solutions",
    "AG",
    "SA",
    "BV",
    "AB",
    "Oy",
    "AS",
];

/// Relatives and companions a maker names a co-founder by ("with my sister Aoife Kelly").
const RELATIONS: &[&str] = &[
    "my",
    "her",
    "his",
    "our",
    "their",
    "sister",
    "brother",
    "wife",
    "husband",
    "partner",
    "friend",
    "co-founder",
    "cofounder",
    "cousin",
    "father",
    "mother",
    "dad",
    "mum",
    "mom",
    "son",
    "daughter",
    "colleague",
    "old",
    "best",
    "university",
    "school",
    "former",
];

/// The first-person verbs a maker says they made the product with.
const MAKER_VERBS: &[&str] = &[
    "i started",
    "i founded",
    "i co-founded",
    "i built",
    "i build",
    "i launched",
    "i made",
    "i make",
    "i created",
    "i run",
    "i set up",
    "i began",
    "i write",
    "i'm building",
    "i am building",
    "i've been building",
];

/// Founding verbs a founder's sentence uses with "with" for a co-founder ("set up the company
/// in 2014 with Colin Ward").
const FOUNDED_WITH: &[&str] = &["started", "founded", "co-founded", "set up", "built", "launched", "created", "began", "run"];

/// Whether `word` (already stripped of punctuation) is a capitalised word of a name: not an
/// acronym ("CSS").
fn name_word(word: &str) -> bool {
    word.chars().next().is_some_and(char::is_uppercase)
        && word.chars().skip(1).any(char::is_lowercase)
        && word.chars().all(|c| c.is_alphabetic() || c == '-' || c == '\'' || c == '’')
        && !["I", "The", "Our", "We", "And", "But", "When", "Then", "Today", "Hi", "Hello", "Co-founder", "Founder", "CEO", "CTO"]
            .contains(&word)
}

/// Two to four capitalised words, as a person's name is written.
pub fn looks_like_name(text: &str) -> bool {
    let words: Vec<&str> = text.split_whitespace().collect();
    (2..=4).contains(&words.len())
        && text.chars().count() <= 60
        && words.iter().all(|word| name_word(word))
        && !words.last().is_some_and(|last| COMPANY_WORDS.contains(last))
}

/// The people a text starts with: "Ines Duarte and Tomas Reis, two engineers", "Marta
/// Zielińska (CEO) and her brother Piotr Zieliński", "Lotte Peeters and Jonas Claes, met …".
fn people_at_start(text: &str) -> Vec<FounderMention> {
    let mut people = Vec::new();
    let mut current: Vec<&str> = Vec::new();
    let mut words = text.split_whitespace().peekable();
    let finish = |current: &mut Vec<&str>, people: &mut Vec<FounderMention>, title: Option<String>| {
        let name = current.join(" ");
        current.clear();
        if looks_like_name(&name) {
            people.push(FounderMention { name, title });
        }
    };
    while let Some(word) = words.next() {
        // "(CEO)" after a name.
        if let Some(role) = word.strip_prefix('(') {
            let mut role_words = vec![role];
            let mut closed = role.contains(')');
            while !closed {
                let Some(next) = words.next() else { break };
                closed = next.contains(')');
                role_words.push(next);
            }
            let role = role_words.join(" ");
            let ends_sentence = role.ends_with(['.', ';']);
            let role = role.split(')').next().unwrap_or("").trim().to_owned();
            finish(&mut current, &mut people, is_role(&role).then_some(role));
            if ends_sentence {
                break;
            }
            continue;
        }
        let bare = word.trim_end_matches([',', '.', ';', ':', ')', '!']);
        let lower = bare.to_lowercase();
        if ["and", "&", "und", "et", "y", "e"].contains(&bare) || (current.is_empty() && RELATIONS.contains(&lower.as_str())) {
            finish(&mut current, &mut people, None);
            continue;
        }
        if !name_word(bare) {
            break;
        }
        current.push(bare);
        if bare.len() != word.len() {
            finish(&mut current, &mut people, None);
            if word.ends_with(['.', ';', ':', ')', '!']) {
                break;
            }
        }
    }
    finish(&mut current, &mut people, None);
    people
}

/// The people a sentence names after one of `cues` (lower-cased offsets of `lower`).
fn people_after(sentence: &str, lower: &str, cues: &[&str]) -> Vec<FounderMention> {
    let mut found = Vec::new();
    for cue in cues {
        for (at, _) in lower.match_indices(cue) {
            if lower[..at].chars().next_back().is_some_and(char::is_alphanumeric) {
                continue;
            }
            // Lower-casing may change byte lengths; the same place in `sentence` is found by
            // counting characters.
            let skip = lower[..at + cue.len()].chars().count();
            let rest: String = sentence.chars().skip(skip).collect();
            for person in people_at_start(rest.trim_start()) {
                if !found.iter().any(|f: &FounderMention| f.name == person.name) {
                    found.push(person);
                }
            }
        }
    }
    found
}

/// The name a maker gives themselves: "I'm Ben Hughes", "I am Inês Carvalho", "My name is …".
fn introduced_as(sentence: &str) -> Option<String> {
    let lower = sentence.to_lowercase();
    for cue in ["i'm ", "i’m ", "i am ", "my name is ", "this is "] {
        if let Some(at) = lower.find(cue)
            && !lower[..at].chars().next_back().is_some_and(char::is_alphanumeric)
        {
            let skip = lower[..at + cue.len()].chars().count();
            let rest: String = sentence.chars().skip(skip).collect();
            let words: Vec<&str> = rest
                .split_whitespace()
                .map(|w| w.trim_end_matches([',', '.', ';', ':', '!']))
                .take_while(|w| name_word(w))
                .take(4)
                .collect();
            let name = words.join(" ");
            if looks_like_name(&name) {
                return Some(name);
            }
        }
    }
    None
}

/// The founders a text names, sentence by sentence, with a role when the sentence gives one.
/// `product_names` tie a sentence to the product: founding verbs count only in a sentence
/// that names it, says "the company", or speaks in the first person.
pub fn founders_in(text: &str, product_names: &[String]) -> Vec<FounderMention> {
    let mut found: Vec<FounderMention> = Vec::new();
    let add = |person: FounderMention, found: &mut Vec<FounderMention>| match found.iter_mut().find(|f| f.name == person.name) {
        Some(known) if known.title.is_none() => known.title = person.title,
        Some(_) => {}
        None => found.push(person),
    };
    let all = sentences(text);
    let maker_speaks = {
        let lower = text.to_lowercase();
        MAKER_VERBS.iter().any(|verb| lower.contains(verb)) && names_product(&lower, product_names)
            || lower.contains("founder of") && names_product(&lower, product_names)
    };
    let mut me: Option<String> = None;
    for sentence in &all {
        let lower = sentence.to_lowercase();
        // "Dana Reyes, founder of Brightline": a founder of something else.
        let of_another = meaning::founder_of_another(sentence, product_names) && !FOUNDERS_ARE.iter().any(|cue| lower.contains(cue));
        if of_another {
            continue;
        }
        let about_product = names_product(sentence, product_names)
            || meaning::speaks_of_company(&lower, product_names)
            || FOUNDED_BY_ALONE.iter().any(|cue| lower.starts_with(cue));
        // A person is never the product ("Acme Notes was built with privacy in mind").
        let not_the_product = |person: &FounderMention| !person.name.split_whitespace().any(|word| names_product(word, product_names));
        // "Birchbill was started by Jana Dvořáková and Tomáš Novák."
        if about_product {
            for person in people_after(sentence, &lower, FOUNDED_BY).into_iter().filter(not_the_product) {
                add(person, &mut found);
            }
        }
        // "Our founders, Lotte Peeters and Jonas Claes, met at a print shop."
        for person in people_after(sentence, &lower, FOUNDERS_ARE).into_iter().filter(not_the_product) {
            add(person, &mut found);
        }
        // "Anna Berg and Jonas Lind founded Xanthe in 2023": the people a sentence about the
        // product starts with, right before a founding verb.
        if about_product {
            let leading: Vec<FounderMention> = people_at_start(sentence).into_iter().filter(not_the_product).collect();
            let last = leading.last().map(|person| person.name.clone());
            if let Some(last) = last
                && let Some(at) = sentence.find(last.as_str())
            {
                let after = sentence[at + last.len()..].trim_start_matches([',', ' ', ')']).to_lowercase();
                let after =
                    after.strip_prefix('(').map_or(after.as_str(), |rest| rest.split_once(')').map_or(rest, |(_, r)| r)).trim_start();
                let verbs = ["founded ", "co-founded ", "cofounded ", "started ", "built ", "launched ", "created ", "set up "];
                let verb = verbs.iter().any(|verb| {
                    after.starts_with(verb)
                        || after.strip_prefix("have ").or_else(|| after.strip_prefix("had ")).is_some_and(|a| a.starts_with(verb))
                });
                if verb {
                    for person in leading {
                        add(person, &mut found);
                    }
                }
            }
        }
        // "I'm Ben Hughes." with the maker saying, in this text, that they made the product.
        if let Some(name) = introduced_as(sentence) {
            if maker_speaks {
                let title = lower.contains("founder").then(|| "Founder".to_owned());
                add(FounderMention { name: name.clone(), title }, &mut found);
            }
            me = Some(name);
        }
        // "I started Driftwell with my sister Aoife Kelly", "Helen Marsh, our managing
        // director, set up the company in 2014 with Colin Ward".
        let founding_with = FOUNDED_WITH.iter().any(|verb| meaning::has_phrase(&lower, verb)) && lower.contains(" with ");
        if founding_with && about_product {
            let first_person = lower.starts_with("i ") || lower.contains(" i ") || lower.starts_with("we ");
            let subject = if first_person {
                me.clone().map(|name| FounderMention { name, title: None })
            } else {
                people_at_start(sentence).into_iter().next()
            };
            if let Some(subject) = subject.filter(not_the_product) {
                add(FounderMention { name: subject.name, title: None }, &mut found);
                for person in people_after(sentence, &lower, &["with "]).into_iter().filter(not_the_product) {
                    add(person, &mut found);
                }
            }
        }
        // "Bramblecast started in 2021, when Aisha Bello (CEO) and Marc Tremblay (CTO) …": people
        // given founding roles in a sentence about the product's start.
        if about_product && FOUNDED_WITH.iter().any(|verb| meaning::has_phrase(&lower, verb)) {
            for person in people_after(sentence, &lower, &["when ", "after "]).into_iter().filter(not_the_product) {
                if person.title.is_some() {
                    add(person, &mut found);
                }
            }
        }
    }
    found
}

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
        }
    }
    // "our CTO, Anna Berg", "CEO Anna Berg": the role just before the name.
    for (at, _) in text.match_indices(name) {
        let before = text[..at].trim_end().trim_end_matches(',').trim_end();
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

#[cfg(test)]
mod tests {
    use super::*;

    fn names(text: &str) -> Vec<(String, Option<String>)> {
        let product = ["Birchbill".to_owned()];
        founders_in(text, &product).into_iter().map(|f| (f.name, f.title)).collect()
    }

    fn person(name: &str, title: Option<&str>) -> (String, Option<String>) {
        (name.to_owned(), title.map(str::to_owned))
    }

    #[test]
    fn founders_are_read_from_the_sentences_people_write() {
        assert_eq!(
            names("Birchbill was started by Jana Dvořáková and Tomáš Novák. Jana is CEO."),
            [person("Jana Dvořáková", None), person("Tomáš Novák", None)]
        );
        assert_eq!(
            names("Birchbill is made by Marta Zielińska (CEO) and her brother Piotr Zieliński, who writes the code."),
            [person("Marta Zielińska", Some("CEO")), person("Piotr Zieliński", None)]
        );
        assert_eq!(
            names("Our founders, Lotte Peeters and Jonas Claes, met while working at a print shop."),
            [person("Lotte Peeters", None), person("Jonas Claes", None)]
        );
        assert_eq!(
            names("Hi, I'm Ben Hughes. I started Birchbill with my wife, Clara Hughes, and we've built it together."),
            [person("Ben Hughes", None), person("Clara Hughes", None)]
        );
        assert_eq!(
            names("Helen Marsh, our managing director, set up the company in 2014 with Colin Ward, who had run sites."),
            [person("Helen Marsh", None), person("Colin Ward", None)]
        );
        assert_eq!(
            names("Olá! I am Inês Carvalho, founder of Birchbill and the support team."),
            [person("Inês Carvalho", Some("Founder"))]
        );
        assert_eq!(
            names("Anna Berg and Jonas Lind founded Birchbill in 2023 after years of invoicing by hand."),
            [person("Anna Berg", None), person("Jonas Lind", None)]
        );
        assert!(names("Anna Berg and Jonas Lind use Birchbill every day.").is_empty());
        assert_eq!(
            names("Birchbill started in 2021, when Aisha Bello (CEO) and Marc Tremblay (CTO) got tired of guessing."),
            [person("Aisha Bello", Some("CEO")), person("Marc Tremblay", Some("CTO"))]
        );
    }

    #[test]
    fn other_people_are_not_founders() {
        assert!(names("Backed by Sam Altmanson, founder of Northwind Ventures.").is_empty());
        assert!(names("Our advisor Daniel Koh founded Tradelane in 2011.").is_empty());
        assert!(names("Loved by Acme Corp and Brightline.").is_empty());
        assert!(names("I'm Tom Hartley and I love trees.").is_empty());
        assert!(names("Birchbill Notes was built with privacy in mind.").is_empty());
        assert!(names("Hi, I'm Ben Hughes. I built Birchbill with Vue and Tailwind CSS.").iter().all(|(name, _)| name == "Ben Hughes"));
        assert!(names("Made by Acme Studio.").is_empty());
        assert!(names("Join 2,000 Founders Using Birchbill.").is_empty());
    }

    #[test]
    fn roles_are_read_beside_a_name() {
        let text =
            "Birchbill started in 2021 when Aisha Bello (CEO) joined. Lotte Peeters, our CEO, started it. Jana is CEO and Tomáš codes.";
        assert_eq!(role_of("Aisha Bello", text).as_deref(), Some("CEO"));
        assert_eq!(role_of("Lotte Peeters", text).as_deref(), Some("CEO"));
        assert_eq!(role_of("Jana Dvořáková", text).as_deref(), Some("CEO"));
        assert_eq!(role_of("Tomáš Novák", text), None);
        assert_eq!(role_of("Ben Hughes", "Ben is back in October."), None);
        assert_eq!(role_of("Anna Berg", "Anna Berg, CEO, started it in 2019.").as_deref(), Some("CEO"));
        assert_eq!(role_of("Anna Berg", "Anna Berg — Founder & CEO").as_deref(), Some("Founder & CEO"));
        assert_eq!(role_of("Anna Berg", "Say hello to our CTO, Anna Berg.").as_deref(), Some("CTO"));
        assert_eq!(role_of("Anna Berg", "Anna Berg, who lives in Oslo, plays chess."), None);
        assert_eq!(role_of("Helen Marsh", "Helen Marsh, our managing director, set up the company").as_deref(), Some("managing director"));
    }
}
