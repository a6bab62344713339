//! Who founded the product, as sentences say it, and the roles they hold: "Birchbill was
//! started by Jana Dvořáková and Tomáš Novák", "Our founders, Lotte Peeters and Jonas Claes,
//! met …", "I'm Ben Hughes. I started Dapplewood with my wife, Clara Hughes", "Aisha Bello
//! (CEO)", "Lotte Peeters, our CEO,", "Jana is CEO". The extractive drafter takes founders and
//! titles by these rules, and the grounding check accepts a founder a sentence names so.

use crate::meaning::{self, names_product, sentences};

mod clauses;
mod roles;
pub use clauses::without_pronouns;
use clauses::{founders_of_this, joined_as_cofounder, named_in_brackets};
pub use roles::role_of;

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
    "md",
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
const FOUNDERS_ARE: &[&str] = &[
    "our founders, ",
    "our founders are ",
    "our founders ",
    "the founders, ",
    "the founders are ",
    "our co-founders, ",
    "our co-founders are ",
    // "Ivytrack co-founders Sam Reyes (CEO) and Ana Petrov (CTO) met …".
    "co-founders ",
    "cofounders ",
    "its founders, ",
    "its founders ",
    "founders: ",
    "co-founders: ",
    "founders — ",
    "founders – ",
    // "a two-person company: Eva Lind (design) and Pekka Salo (code)".
    "-person company: ",
    "person company: ",
    "our founder, ",
    // "…," said co-founder Tomás Rivera.
    "said co-founder ",
    "says co-founder ",
    "said founder ",
    "says founder ",
];

/// Founding words that may start a sentence without a subject ("Founded by Mara Lindqvist"),
/// unlike "made by" or "built by", which a footer says of a studio.
const FOUNDED_BY_ALONE: &[&str] = &["founded by", "co-founded by", "cofounded by", "started by"];

/// Last words of a company's name, which is never a person's ("Acme Studio", "Northwind Labs"),
/// besides its legal form (`places::LEGAL_FORMS`).
const COMPANY_WORDS: &[&str] = &[
    "Studio",
    "Studios",
    "Labs",
    "Lab",
    "Agency",
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

/// Words before a name that are not a part of it.
const HONORIFICS: &[&str] = &["Dr.", "Dr", "Prof.", "Prof", "Mr.", "Mrs.", "Ms.", "Mx."];

/// The lower-case words inside a family name: "Lucas van der Berg", "Pieter de Graaf", "Ana dos
/// Santos".
const NAME_PARTICLES: &[&str] =
    &["van", "von", "der", "den", "de", "da", "di", "del", "della", "dos", "das", "du", "ten", "ter", "bin", "ibn"];

/// A word of a name, a particle included.
fn name_part(word: &str) -> bool {
    name_word(word) || NAME_PARTICLES.contains(&word)
}

/// The words of a name read backwards from the end of `words`: capitalised words and the
/// particles between them, never a particle first ("Pieter de Graaf", not "de Graaf").
fn name_before(words: &[&str]) -> String {
    let mut taken: Vec<&str> = words.iter().rev().take_while(|word| name_part(word)).take(5).copied().collect();
    while taken.last().is_some_and(|word| !name_word(word)) {
        taken.pop();
    }
    taken.into_iter().rev().collect::<Vec<_>>().join(" ")
}

/// Two to four capitalised words, as a person's name is written, and any particles between them.
pub fn looks_like_name(text: &str) -> bool {
    let words: Vec<&str> = text.split_whitespace().collect();
    let capitalised = words.iter().filter(|word| name_word(word)).count();
    (2..=4).contains(&capitalised)
        && words.len() <= 6
        && text.chars().count() <= 60
        && words.first().is_some_and(|word| name_word(word))
        && words.last().is_some_and(|word| name_word(word))
        && words.iter().all(|word| name_part(word))
        && !words.last().is_some_and(|last| COMPANY_WORDS.contains(last) || crate::places::LEGAL_FORMS.contains(last))
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
        // "Marta Silva, Chief Product Officer,": the role is not a second person.
        if looks_like_name(&name) && !is_role(&name) {
            people.push(FounderMention { name, title });
        }
    };
    while let Some(word) = words.next() {
        // "Dr. Rachel Whitcombe": an honorific is not a part of the name.
        if current.is_empty() && HONORIFICS.contains(&word) {
            continue;
        }
        // "Amina Wekesa — CEO; Daniel Otieno — CTO": a role after a dash, to the next ';' or ','.
        if ["—", "–", "-"].contains(&word) && !current.is_empty() {
            let mut role_words = Vec::new();
            let mut ended = false;
            for next in words.by_ref() {
                role_words.push(next.trim_end_matches([',', ';', '.']));
                if next.ends_with([',', ';', '.']) {
                    ended = next.ends_with('.');
                    break;
                }
            }
            let role = role_words.join(" ");
            finish(&mut current, &mut people, is_role(&role).then_some(role));
            if ended {
                break;
            }
            continue;
        }
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
            // "Sofia and Marco Bellini": a first name before "and" shares the next surname.
            if current.len() == 1 && people.is_empty() && ["and", "&"].contains(&bare) {
                let rest: Vec<&str> = words.clone().take(3).collect();
                let next: Vec<&str> = rest.iter().map(|w| w.trim_end_matches([',', '.', ';', ':'])).take_while(|w| name_word(w)).collect();
                if next.len() == 2 {
                    let shared = format!("{} {}", current[0], next[1]);
                    current.clear();
                    if looks_like_name(&shared) {
                        people.push(FounderMention { name: shared, title: None });
                    }
                    continue;
                }
            }
            finish(&mut current, &mut people, None);
            continue;
        }
        // A particle goes on a name already begun ("Pieter de Graaf"), never starts one.
        let particle = NAME_PARTICLES.contains(&bare) && !current.is_empty();
        if !name_word(bare) && !particle {
            break;
        }
        current.push(bare);
        if bare.len() != word.len() {
            finish(&mut current, &mut people, None);
            if word.ends_with(['.', ';', ':', ')', '!']) {
                break;
            }
            // "Lucía Ferrer, who runs product, and Jordi Puig": past the clause about her.
            if word.ends_with(',') && words.peek().is_some_and(|next| ["who", "our", "the", "a", "an"].contains(next)) {
                for next in words.by_ref() {
                    if next.ends_with([',', ';', '.']) {
                        break;
                    }
                }
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
            let mut people = people_at_start(rest.trim_start());
            // "started by two former nurses, Aoife Byrne and Kemi Adebayo": past who they were.
            if people.is_empty()
                && let Some((descriptor, names)) = rest.trim_start().split_once(", ")
                && descriptor.split_whitespace().count() <= 5
                && descriptor.chars().all(|c| !c.is_uppercase())
            {
                people = people_at_start(names);
            }
            for person in people {
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
                .take_while(|w| name_part(w))
                .take(6)
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
            || lower.contains("founder") && names_product(&lower, product_names) && !meaning::founder_of_another(text, product_names)
    };
    let mut me: Option<String> = None;
    // "There are two of us who started this.": the next sentence names them.
    let mut named_next = false;
    // Who the sentence before began with, for a "she" or "he" in the next.
    let mut previous_subject: Option<FounderMention> = None;
    for sentence in &all {
        let lower = sentence.to_lowercase();
        if std::mem::take(&mut named_next) {
            for clause in sentence.split(';') {
                if let Some(person) = people_at_start(clause.trim()).into_iter().next() {
                    let title = person.title.clone().or_else(|| role_of(&person.name, clause));
                    add(FounderMention { name: person.name, title }, &mut found);
                }
            }
        }
        named_next = ["of us who started", "of us who founded", "of us started", "of us founded", "who started this", "who founded this"]
            .iter()
            .any(|cue| lower.contains(cue));
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
        // "Gorsewick's founder, Dr. Rachel Whitcombe, spent …": the product's own founder.
        // "We are Noor Khalil and Pieter de Graaf, the two people behind Fieldfare."
        let mut own_cues: Vec<String> = product_names
            .iter()
            .filter(|name| !name.is_empty())
            .flat_map(|name| {
                let name = name.to_lowercase();
                ["'s founder, ", "’s founder, ", "'s co-founder, ", "’s co-founder, ", "'s founders, ", "’s founders, "]
                    .map(|cue| format!("{name}{cue}"))
            })
            .collect();
        if names_product(sentence, product_names)
            && (lower.starts_with("we are ") || lower.starts_with("we're ") || lower.starts_with("we’re "))
        {
            own_cues.extend(["we are ", "we're ", "we’re "].map(str::to_owned));
        }
        let own_cues: Vec<&str> = own_cues.iter().map(String::as_str).collect();
        // "Our founders, Lotte Peeters and Jonas Claes, met at a print shop."
        for person in people_after(sentence, &lower, FOUNDERS_ARE)
            .into_iter()
            .chain(people_after(sentence, &lower, &own_cues))
            .filter(not_the_product)
        {
            let title = person.title.clone().or_else(|| role_of(&person.name, sentence));
            add(FounderMention { name: person.name, title }, &mut found);
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
        // "When I (Lena Vogt, CEO) started Nettlebox": the maker names themselves in brackets.
        if about_product
            && FOUNDED_WITH.iter().any(|verb| meaning::has_phrase(&lower, verb))
            && let Some(person) = named_in_brackets(sentence)
        {
            add(person, &mut found);
        }
        // "Marta Silva, Chief Product Officer, joined me as co-founder".
        if joined_as_cofounder(&lower, product_names)
            && let Some(person) = people_at_start(sentence).into_iter().next().filter(not_the_product)
        {
            let title = role_of(&person.name, sentence);
            add(FounderMention { name: person.name, title }, &mut found);
        }
        // "Nell Ashby, who co-founded Heathwick with Rivera": the person the clause describes.
        for cue in [", who co-founded ", ", who founded ", ", who started "] {
            let ours = |object: &str| {
                product_names.iter().any(|name| !name.is_empty() && object.starts_with(&name.to_lowercase()))
                    || ["the company", "the foundation", "the business", "it with", "it together"].iter().any(|us| object.starts_with(us))
            };
            if let Some(at) = lower.find(cue)
                && ours(&lower[at + cue.len()..])
                && let Some(person) = people_at_start(sentence).into_iter().next().filter(not_the_product)
                && sentence.find(person.name.as_str()).is_some_and(|start| start + person.name.len() == at)
            {
                add(person, &mut found);
            }
        }
        // "Nadia Sayeed leads engineering. She and Catherine started the company together": the
        // person the sentence before was about.
        if (lower.starts_with("she and ") || lower.starts_with("he and "))
            && FOUNDED_WITH.iter().any(|verb| meaning::has_phrase(&lower, verb))
            && let Some(previous) = previous_subject.take()
        {
            add(previous, &mut found);
        }
        previous_subject = people_at_start(sentence).into_iter().next().filter(not_the_product);
        // "I'm Ben Hughes." with the maker saying, in this text, that they made the product.
        if let Some(name) = introduced_as(sentence) {
            if maker_speaks {
                let title = role_of(&name, sentence).or_else(|| lower.contains("founder").then(|| "Founder".to_owned()));
                add(FounderMention { name: name.clone(), title }, &mut found);
            }
            me = Some(name);
        }
        // "Our executive director and co-founder is Adaeze Nwosu.": the role, then the name.
        if let Some(role) = lower.strip_prefix("our ").and_then(|rest| rest.split_once(" is ")).map(|(role, _)| role)
            && (role.contains("founder"))
            && role.split_whitespace().count() <= 6
            && let Some(at) = sentence.to_ascii_lowercase().find(" is ")
            && let Some(person) = people_at_start(sentence[at + 4..].trim_start()).into_iter().next()
        {
            let title = sentence[4..at].trim().to_owned();
            add(FounderMention { name: person.name, title: Some(title) }, &mut found);
        }
        // "says Daniel Otieno, co-founder and CTO of Oriole".
        for person in founders_of_this(sentence, product_names) {
            add(person, &mut found);
        }
        // "I started Driftwell with my sister Aoife Kelly", "Helen Marsh, our managing
        // director, set up the company in 2014 with Colin Ward".
        let founding_with = FOUNDED_WITH.iter().any(|verb| meaning::has_phrase(&lower, verb)) && lower.contains(" with ");
        // "She started it together with her brother, Luka Novak", right after the text named her
        // a founder.
        let pronoun = (lower.starts_with("she ") || lower.starts_with("he ")).then(|| found.last().cloned()).flatten();
        if founding_with && (about_product || pronoun.is_some()) {
            let first_person = lower.starts_with("i ") || lower.contains(" i ") || lower.starts_with("we ");
            let subject = if let Some(founder) = pronoun {
                Some(founder)
            } else if first_person {
                me.clone().map(|name| FounderMention { name, title: None })
            } else {
                people_at_start(sentence).into_iter().next()
            };
            if let Some(subject) = subject.filter(not_the_product) {
                add(FounderMention { name: subject.name, title: None }, &mut found);
            }
            // "I started it together with Lukas Brandt": a co-founder, even where the maker's
            // own name is on another paragraph.
            if first_person || !found.is_empty() {
                for person in people_after(sentence, &lower, &["with "]).into_iter().filter(not_the_product) {
                    let title = role_of(&person.name, sentence);
                    add(FounderMention { name: person.name, title: person.title.or(title) }, &mut found);
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

#[cfg(test)]
mod tests;
