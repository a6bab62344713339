//! The year a site says the product was founded: the words people use for it, the sentences
//! that speak of the company rather than of a customer's or an advisor's company, and every
//! founding year the site states (JSON-LD `foundingDate` and text), which must agree.

use super::{Subject, names_product, product_names, sentences, structured_values};
use crate::model::{Basis, FieldName};
use crate::site::{BlockRole, Page, SiteSnapshot};

/// Founding words that name what was started right after them ("founded Northwind", "started
/// Birchbill", "we launched Amberpost in 2021"), unlike "since".
const FOUNDING_VERBS: &[&str] = &[
    "founded",
    "established",
    "started",
    "launched",
    "set up",
    "began",
    "begun",
    "created",
    "incorporated",
    "first version of",
    "registered in",
];

/// Other words that put a year next to a founding ("since 2021", "seit 2020", "dates back to
/// 2011", "Ironquill was born in 2016").
const FOUNDING_PHRASES: &[&str] = &[
    "since",
    "gegründet",
    "seit",
    "fondée",
    "fondé",
    "fundada",
    "fundado",
    "fondata",
    "fondato",
    "est.",
    "dates back to",
    "date back to",
    "opened our doors",
    "opened its doors",
    "opened their doors",
    "first line of code",
    "was born",
    "we opened in",
];

/// Every word that puts a year next to a founding: the verbs, then the other phrases.
pub fn founding_words() -> impl Iterator<Item = &'static str> {
    FOUNDING_VERBS.iter().chain(FOUNDING_PHRASES).copied()
}

/// Words of a clause about someone else's founding or history: a customer's, an advisor's, an
/// investor's, a partner's, a person's earlier company.
const NOT_OUR_HISTORY: &[&str] = &[
    "customer",
    "client",
    "advisor",
    "adviser",
    "investor",
    "partner",
    "in business since",
    "institution since",
    "previously",
    "before that",
    "director of",
    "worked at",
    "conference",
    "relaunched",
    "launched our ",
    "launched a ",
    "launched the ",
    "launched v",
    "started a ",
    "started the ",
    "started using",
    "started working",
    "started out as",
    "started his ",
    "started her ",
    // A person's working life: "I have worked on a cardiology ward since 2014".
    "worked on",
    "worked in",
    "worked as",
    "have worked",
    "has worked",
    "been working",
    // A user's history: "The first charity to use Ashgrove … has been helping families since 1987".
    "to use ",
    "full-time",
    "full time",
    // Where people have lived: "we have lived in England since 2009".
    "lived in",
    "living in",
    "moved to",
    "our board",
    "the board",
    "sat on",
];

/// How far from its founding word a year may stand ("founded in Lisbon in 2019").
const FOUNDING_YEAR_REACH: usize = 30;

/// Whether a sentence speaks of the company itself: in the first person, by one of the
/// product's names, or as "the company", "the business".
pub fn speaks_of_company(lower: &str, product_names: &[String]) -> bool {
    let words: Vec<&str> = lower.split(|c: char| !c.is_alphanumeric() && c != '\'' && c != '’').filter(|w| !w.is_empty()).collect();
    let first_person = words.iter().any(|w| {
        matches!(*w, "we" | "we're" | "we’re" | "we've" | "we’ve" | "our" | "us" | "i" | "i'm" | "i’m" | "my" | "i've" | "i’ve" | "ours")
    });
    first_person
        || ["the company", "the business", "this company"].iter().any(|phrase| lower.contains(phrase))
        || names_product(lower, product_names)
}

/// Whether a sentence names no one and nothing but, perhaps, the product and places
/// ("Serving bakeries since 2021.", "Founded in 2019 in Berlin, Germany."): no capitalised word
/// past its first, other than the product's names, places and months.
fn names_no_one(sentence: &str, product_names: &[String]) -> bool {
    const MONTHS: &[&str] =
        &["January", "February", "March", "April", "May", "June", "July", "August", "September", "October", "November", "December"];
    sentence.split_whitespace().skip(1).all(|word| {
        let bare = word.trim_matches(|c: char| !c.is_alphanumeric());
        !bare.chars().next().is_some_and(char::is_uppercase)
            || product_names.iter().any(|name| name.split_whitespace().any(|n| n == bare))
            || MONTHS.contains(&bare)
            || crate::places::country_named(bare).is_some()
            || !crate::places::cities_named(bare).is_empty()
    })
}

/// The year a text states the product (`product_names`) was founded: a year within reach of a
/// founding word in a sentence about the company, in a clause that is no one else's ("Carrow
/// Builders, a contractor in business since 1998", "our advisor, who founded Northwind in
/// 2009"), and where a founding verb's object is not another company ("founded Tradelane in
/// 2011"). Words match whole ("seit", not "Seite"; "est.", not "latest.").
pub fn founding_year_in<'a>(text: &'a str, product_names: &[String]) -> Option<&'a str> {
    let mut previous_names_product = false;
    sentences(text).into_iter().find_map(|sentence| {
        // "Gorsewick is an open-source tool … It is Apache-2.0 licensed and has been developed in
        // the open since 2015.": "it" is the product the sentence before began with.
        let lower = sentence.to_lowercase();
        let it = previous_names_product && ["it ", "it's ", "it’s "].iter().any(|start| lower.starts_with(start));
        previous_names_product = product_names.iter().any(|name| !name.is_empty() && lower.starts_with(&name.to_lowercase()));
        founding_year_of_sentence(sentence, product_names, it)
    })
}

/// How a story of the company opens without naming it: "It all began in 2017, when …".
const STORY_OPENINGS: &[&str] = &["it all began", "it all started", "it began", "it started", "this all began", "this all started"];

fn founding_year_of_sentence<'a>(sentence: &'a str, product_names: &[String], it_is_the_product: bool) -> Option<&'a str> {
    // ASCII lower case keeps every byte offset of `sentence` ("Gegründet" becomes
    // "gegründet"; the cues are lower case).
    let lower = sentence.to_ascii_lowercase();
    // A sentence without a subject that starts with a founding word ("Founded in 2019 by Mara
    // Lindqvist.") is the site speaking of itself, and so is a story's opening.
    let fragment = founding_words().any(|word| lower.starts_with(word)) || STORY_OPENINGS.iter().any(|opening| lower.starts_with(opening));
    let ours = fragment
        || it_is_the_product
        || speaks_of_company(&sentence.to_lowercase(), product_names)
        || names_no_one(sentence, product_names);
    if !ours {
        return None;
    }
    let years = years_in(sentence);
    for cue in founding_words() {
        for (at, _) in lower.match_indices(cue) {
            let end = at + cue.len();
            let before_ok = lower[..at].chars().next_back().is_none_or(|c| !c.is_alphanumeric());
            let after_ok = cue.ends_with('.') || lower[end..].chars().next().is_none_or(|c| !c.is_alphanumeric());
            if !(before_ok && after_ok) {
                continue;
            }
            // The clause the word stands in: from the last comma, semicolon or dash before it.
            // (A dash is three bytes: the clause starts after the whole character.)
            let clause_start =
                lower[..at].rfind([',', ';', '(', '—', '–']).map_or(0, |i| i + lower[i..].chars().next().map_or(1, char::len_utf8));
            let clause = &lower[clause_start..at];
            let apposition = clause_start > 0 && (clause.trim_start().starts_with("a ") || clause.trim_start().starts_with("an "));
            // "Notestand, which was founded in 2012": another's history.
            let relative = clause.trim_start().starts_with("who ") || clause.trim_start().starts_with("which ");
            // "a Hamburg fund that has backed software companies since 2009": what a relative
            // clause says of its noun.
            let described = [" that has ", " that have ", " that had "].iter().any(|that| clause.contains(that));
            if apposition || clause.contains(" who ") || relative || described {
                continue;
            }
            let clause_end = lower[end..].find([',', ';', ')']).map_or(lower.len(), |i| end + i);
            // Customers after the year are who came, not whose history it is ("opened its doors
            // in 2011 with eleven customers"): for them the clause ends at the year.
            let year_end = years.iter().find(|(y, _)| *y >= end).map_or(clause_end, |(y, _)| clause_end.min(y + 4));
            let theirs = |word: &&str| {
                let upto = if ["customer", "client"].contains(word) { year_end } else { clause_end };
                lower[clause_start..upto].contains(*word)
            };
            if NOT_OUR_HISTORY.iter().any(theirs) {
                continue;
            }
            // "founded Tradelane in 2011": a verb whose object is another name. "We launched dark
            // mode in 2022": a verb of starting whose object is not the product or company.
            // "Ironquill was born in 2016", never a person ("I was born in 1985").
            if cue == "was born" {
                let subject = lower[..at].trim_end();
                let ours = product_names.iter().any(|name| !name.is_empty() && subject.ends_with(&name.to_ascii_lowercase()))
                    || ["the company", "the idea", "the app", "the product", "the project", "the business"]
                        .iter()
                        .any(|s| subject.ends_with(s));
                if !ours {
                    continue;
                }
            }
            if FOUNDING_VERBS.contains(&cue) {
                let object = sentence[end..].trim_start();
                let the_product = product_names.iter().any(|name| object.starts_with(name.as_str()));
                let capitalised = object.chars().next().is_some_and(char::is_uppercase);
                if capitalised && !the_product {
                    continue;
                }
                let object_lower = object.to_lowercase();
                const SELF: &[&str] = &[
                    "in ",
                    "on ",
                    "back ",
                    "as ",
                    "it ",
                    "it,",
                    "this ",
                    "the company",
                    "the business",
                    "our company",
                    "our business",
                    "a company",
                    "building",
                    "working",
                    "out ",
                    "from ",
                    "with ",
                    "tinkering",
                    "hacking",
                    "coding",
                    "work on",
                ];
                let year_next = object.starts_with(|c: char| c.is_ascii_digit());
                let plain = !matches!(cue, "founded" | "established");
                if plain && !the_product && !year_next && !object.is_empty() && !SELF.iter().any(|w| object_lower.starts_with(w)) {
                    continue;
                }
            }
            // "in the spring of 2017", "in early 2019": a season or a month is not further away.
            let reach = |y: usize| {
                let between = &lower[end..y];
                let seasoned = ["spring of", "summer of", "autumn of", "fall of", "winter of", "early ", "late ", "middle of"]
                    .iter()
                    .any(|season| between.contains(season));
                y - end <= if seasoned { FOUNDING_YEAR_REACH + 20 } else { FOUNDING_YEAR_REACH }
            };
            if let Some((_, year)) = years.iter().find(|(y, _)| *y >= end && reach(*y)) {
                return Some(year);
            }
            // "founded by Maya Lindqvist and Tom Adeyemi in 2018": past the founders' names.
            if let Some(year) = year_after_founders(sentence, &lower, end, &years) {
                return Some(year);
            }
            // "In 2019, after two years of evenings and weekends, we launched Heathwick": the year
            // that opens the sentence.
            let opening = |y: usize| y == 3 && lower.starts_with("in ") && lower[7..].starts_with(',');
            if let Some((_, year)) = years.iter().rev().find(|(y, _)| *y + 4 <= at && (at - (*y + 4) <= FOUNDING_YEAR_REACH || opening(*y)))
            {
                return Some(year);
            }
        }
    }
    None
}

/// The year of "founded by <names> in <year>": after the cue (ending at `end`) come " by ",
/// names, and " in " right before the year, with nothing but names and "and" between.
fn year_after_founders<'a>(sentence: &str, lower: &str, end: usize, years: &[(usize, &'a str)]) -> Option<&'a str> {
    let rest = lower.get(end..)?;
    if !rest.starts_with(" by ") {
        return None;
    }
    years.iter().find_map(|&(at, year)| {
        let between = sentence.get(end + 4..at)?.strip_suffix(" in ")?;
        let people = between.split([',', '&']).flat_map(|part| part.split(" and ")).map(str::trim).filter(|part| !part.is_empty());
        let mut count = 0;
        for person in people {
            if !crate::people::looks_like_name(person) {
                return None;
            }
            count += 1;
        }
        (count > 0).then_some(year)
    })
}

/// Four-digit years (1800 to 2100) standing alone in a text, with their byte offsets.
pub fn years_in(text: &str) -> Vec<(usize, &str)> {
    text.char_indices()
        .filter_map(|(i, _)| text.get(i..i + 4).map(|year| (i, year)))
        .filter(|(i, year)| {
            year.bytes().all(|b| b.is_ascii_digit())
                && year.parse::<u16>().is_ok_and(|y| (1800..=2100).contains(&y))
                && !text[..*i].ends_with(|c: char| c.is_ascii_digit())
                && !text[i + 4..].starts_with(|c: char| c.is_ascii_digit())
        })
        .collect()
}

/// A founding year the site states, where, and the quote that states it.
#[derive(Debug, Clone)]
pub struct FoundingStatement<'a> {
    pub year: String,
    pub page: &'a Page,
    pub quote: String,
    pub basis: Basis,
}

/// Every founding year the site states: JSON-LD `foundingDate`, and text blocks that may
/// support it with a founding word next to a year. When they disagree, the year is unknown.
pub fn founding_statements(site: &SiteSnapshot) -> Vec<FoundingStatement<'_>> {
    let names = product_names(site, None);
    let mut found = Vec::new();
    for page in &site.pages {
        for value in structured_values(page) {
            if value.supports(Subject::Field(FieldName::FoundedYear))
                && value.role() == BlockRole::Content
                && let Some(year) = value.text.get(..4).filter(|y| y.parse::<u16>().is_ok_and(|y| (1800..=2100).contains(&y)))
            {
                found.push(FoundingStatement { year: year.to_owned(), page, quote: value.text.clone(), basis: Basis::StructuredData });
            }
        }
        for block in &page.blocks {
            if !block.role.can_support(Subject::Field(FieldName::FoundedYear)) {
                continue;
            }
            if let Some(year) = founding_year_in(&block.text, &names) {
                found.push(FoundingStatement { year: year.to_owned(), page, quote: block.text.clone(), basis: Basis::PageText });
            }
        }
    }
    found
}
