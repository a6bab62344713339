//! Where a company is: countries by code, name and adjective; cities from GeoNames' gazetteer
//! (`data/cities.tsv`, CC BY 4.0, see `data/LICENSE-GEONAMES.md`); and the sentences that say a
//! place is the company's ("based in Porto", "a small team in Kraków", "we're a Dutch company",
//! an address line) rather than a customer's, a partner's or a job's. The extractive drafter
//! takes places by these rules and the grounding check holds every drafter's places to them.

use std::collections::HashMap;
use std::sync::LazyLock;

/// A country: its ISO 3166 code, the names a page may use for it, and its adjectives.
pub struct Country {
    pub code: &'static str,
    pub names: &'static [&'static str],
    pub adjectives: &'static [&'static str],
}

macro_rules! countries {
    ($($code:literal: [$($name:literal),*] [$($adjective:literal),*];)*) => {
        &[$(Country { code: $code, names: &[$($name),*], adjectives: &[$($adjective),*] }),*]
    };
}

/// The countries a draft may name.
pub const COUNTRIES: &[Country] = countries! {
    "US": ["United States", "USA", "U.S.", "US", "America"] ["American"];
    "GB": ["United Kingdom", "UK", "U.K.", "England", "Scotland", "Wales", "Northern Ireland", "Great Britain", "Britain"] ["British", "English", "Scottish", "Welsh"];
    "DE": ["Germany", "Deutschland"] ["German"];
    "FR": ["France"] ["French"];
    "ES": ["Spain", "España"] ["Spanish"];
    "IT": ["Italy", "Italia"] ["Italian"];
    "NL": ["Netherlands", "The Netherlands", "Nederland", "Holland"] ["Dutch"];
    "BE": ["Belgium", "België", "Belgique"] ["Belgian"];
    "LU": ["Luxembourg"] ["Luxembourgish"];
    "AT": ["Austria", "Österreich"] ["Austrian"];
    "CH": ["Switzerland", "Schweiz", "Suisse"] ["Swiss"];
    "PT": ["Portugal"] ["Portuguese"];
    "IE": ["Ireland"] ["Irish"];
    "IS": ["Iceland"] ["Icelandic"];
    "SE": ["Sweden", "Sverige"] ["Swedish"];
    "NO": ["Norway", "Norge"] ["Norwegian"];
    "DK": ["Denmark", "Danmark"] ["Danish"];
    "FI": ["Finland", "Suomi"] ["Finnish"];
    "PL": ["Poland", "Polska"] ["Polish"];
    "CZ": ["Czechia", "Czech Republic", "Česko"] ["Czech"];
    "SK": ["Slovakia"] ["Slovak"];
    "SI": ["Slovenia"] ["Slovenian"];
    "HR": ["Croatia"] ["Croatian"];
    "EE": ["Estonia", "Eesti"] ["Estonian"];
    "LT": ["Lithuania"] ["Lithuanian"];
    "LV": ["Latvia"] ["Latvian"];
    "GR": ["Greece"] ["Greek"];
    "RO": ["Romania", "România"] ["Romanian"];
    "BG": ["Bulgaria"] ["Bulgarian"];
    "HU": ["Hungary", "Magyarország"] ["Hungarian"];
    "RS": ["Serbia"] ["Serbian"];
    "UA": ["Ukraine"] ["Ukrainian"];
    "CA": ["Canada"] ["Canadian"];
    "MX": ["Mexico", "México"] ["Mexican"];
    "BR": ["Brazil", "Brasil"] ["Brazilian"];
    "AR": ["Argentina"] ["Argentinian", "Argentine"];
    "CL": ["Chile"] ["Chilean"];
    "CO": ["Colombia"] ["Colombian"];
    "AU": ["Australia"] ["Australian"];
    "NZ": ["New Zealand"] ["New Zealand"];
    "IN": ["India"] ["Indian"];
    "JP": ["Japan", "日本"] ["Japanese"];
    "CN": ["China", "中国"] ["Chinese"];
    "KR": ["South Korea", "Korea"] ["Korean", "South Korean"];
    "TW": ["Taiwan"] ["Taiwanese"];
    "SG": ["Singapore"] ["Singaporean"];
    "IL": ["Israel"] ["Israeli"];
    "AE": ["United Arab Emirates", "UAE"] ["Emirati"];
    "ZA": ["South Africa"] ["South African"];
    "NG": ["Nigeria"] ["Nigerian"];
    "KE": ["Kenya"] ["Kenyan"];
    "EG": ["Egypt"] ["Egyptian"];
    "TR": ["Turkey", "Türkiye"] ["Turkish"];
};

/// The country a name or code stands for ("Portugal", "PT", "the Netherlands").
pub fn country_named(text: &str) -> Option<&'static Country> {
    let text = text.trim().trim_end_matches('.');
    let text = text.strip_prefix("the ").unwrap_or(text);
    COUNTRIES.iter().find(|country| country.code == text || country.names.iter().any(|name| name.eq_ignore_ascii_case(text)))
}

/// A country by its code.
pub fn country(code: &str) -> Option<&'static Country> {
    COUNTRIES.iter().find(|country| country.code.eq_ignore_ascii_case(code))
}

/// A city of the gazetteer.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct City {
    pub name: &'static str,
    pub country: &'static str,
    pub population: u32,
}

/// The gazetteer by lower-cased name, each name's cities largest first.
static CITIES: LazyLock<HashMap<String, Vec<City>>> = LazyLock::new(|| {
    let mut cities: HashMap<String, Vec<City>> = HashMap::new();
    for line in include_str!("../data/cities.tsv").lines().filter(|line| !line.starts_with('#')) {
        let mut fields = line.split('\t');
        if let (Some(name), Some(country), Some(population)) = (fields.next(), fields.next(), fields.next()) {
            let city = City { name, country, population: population.parse().unwrap_or(0) };
            cities.entry(name.to_lowercase()).or_default().push(city);
        }
    }
    for named in cities.values_mut() {
        named.sort_by_key(|city| std::cmp::Reverse(city.population));
    }
    cities
});

/// English names of cities the gazetteer (GeoNames' `name`) spells otherwise, lower case:
/// the English name, then the gazetteer's. Most large cities are in it under their English
/// name already ("Munich", "Vienna", "Lisbon"); these are the ones that are not.
const ENGLISH_NAMES: &[(&str, &str)] = &[
    ("cologne", "köln"),
    ("ghent", "gent"),
    ("bruges", "brugge"),
    ("seville", "sevilla"),
    ("frankfurt", "frankfurt am main"),
    ("bangalore", "bengaluru"),
    ("marrakech", "marrakesh"),
    ("kiev", "kyiv"),
    ("saigon", "ho chi minh city"),
];

/// The cities of this name, largest first.
pub fn cities_named(name: &str) -> &'static [City] {
    let key = name.trim().to_lowercase();
    // "Aarhus", "Aalborg": the spelling of before 1948 for the gazetteer's "Århus".
    let key = match CITIES.contains_key(&key) {
        false if key.starts_with("aa") => format!("å{}", &key[2..]),
        false => ENGLISH_NAMES.iter().find(|(english, _)| *english == key).map_or(key, |(_, local)| (*local).to_owned()),
        true => key,
    };
    CITIES.get(&key).map_or(&[], Vec::as_slice)
}

/// The country a city's name points to on its own: the only one, or the largest city's when
/// it is ten times the next city of that name elsewhere ("Porto" is in Portugal; "Valencia"
/// could be in Spain or Venezuela, so it says nothing).
pub fn country_of_city(name: &str) -> Option<&'static str> {
    let cities = cities_named(name);
    let first = cities.first()?;
    let rival = cities.iter().find(|city| city.country != first.country);
    match rival {
        None => Some(first.country),
        Some(rival) if u64::from(first.population) >= 10 * u64::from(rival.population) => Some(first.country),
        Some(_) => None,
    }
}

/// A place a text says the company is in.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CompanyPlace {
    /// The city as the text spells it.
    pub city: Option<String>,
    /// The country's code: named in the text, or the only country the city can be in.
    pub country: Option<&'static str>,
}

/// A city named in the possessive before a part of it ("Cologne's Ehrenfeld", "Berlin’s
/// Kreuzberg"), with its country when the gazetteer knows it in one country only.
fn city_before_quarter(text: &str) -> Option<CompanyPlace> {
    let word = text.split_whitespace().next()?;
    let city = word.strip_suffix("'s").or_else(|| word.strip_suffix("’s"))?;
    let known = cities_named(city);
    if known.is_empty() {
        return None;
    }
    Some(CompanyPlace { city: Some(city.to_owned()), country: country_of_city(city) })
}

/// Words that put a place after them as where the company works from.
const PLACE_CUES: &[&str] = &[
    "founded in",
    "started in",
    "established in",
    "set up in",
    "based in",
    "based out of",
    "made in",
    "made with care in",
    "made with love in",
    "handmade in",
    "crafted in",
    "built in",
    "designed in",
    "developed in",
    "headquartered in",
    "headquarters in",
    "headquarters are in",
    "head office in",
    "head office is in",
    "hq in",
    "hq is in",
    "run from",
    "run out of",
    "located in",
    "office in",
    "offices in",
    "office is in",
    "office close to",
    "office near",
    "team in",
    "studio in",
    "registered in",
    "we are in",
    "we're in",
    "we live in",
    "i live in",
    "work from",
    "working from",
    "operating from",
    "company in",
    "company from",
    "startup in",
    "startup from",
    "business in",
    "shop in",
    "made on",
    "person in",
    "we sit in",
    "headquarters:",
    "hq:",
    "based between",
    "operate from",
    "from",
];

/// Words of a sentence about someone else's place: a customer's, a partner's, an investor's, a
/// job's or an event's.
const NOT_OURS: &[&str] = &[
    // "Our QA engineer works remote from Bilbao": one person's place, not the company's.
    "works remote",
    "remote from",
    "remotely from",
    "works from",
    "lives in",
    "our developer",
    "our designer",
    "our engineer",
    "customer",
    "client",
    "partner",
    "investor",
    "backed by",
    "advisor",
    "adviser",
    "hiring",
    "we look for",
    "we're looking for",
    "we are looking for",
    "looking for a",
    "job",
    "position",
    "vacanc",
    "apply",
    "candidate",
    "conference",
    "meetup",
    "event",
    "talk at",
    "users in",
    "teams in",
    "used by",
    "loved by",
    "trusted by",
    "ships to",
    "shipping to",
    "deliver to",
    "available in",
    "school in",
    "university",
    "invest",
    "server",
    "hosted",
    "hosting",
    "data cent",
];

/// The capitalised words a text starts with (a place's name: "Kraków", "New York", "São
/// Paulo"), at most three, and what follows them.
fn place_name_at(text: &str) -> Option<(&str, &str)> {
    let mut end = 0;
    let mut words = 0;
    for (at, word) in word_starts(text) {
        let bare = word.trim_end_matches(|c: char| !c.is_alphanumeric());
        let capital = bare.chars().next().is_some_and(char::is_uppercase);
        let connector = words > 0 && matches!(bare, "de" | "del" | "do" | "da" | "am" | "an" | "upon" | "on");
        if !(capital || connector) || bare.is_empty() || !bare.chars().all(|c| c.is_alphabetic() || c == '-' || c == '\'') {
            break;
        }
        if !capital {
            // A connector joins only when a capitalised word follows ("Frankfurt am Main",
            // not "Berlin on a mission").
            let next = text[at + word.len()..].trim_start();
            if !next.chars().next().is_some_and(char::is_uppercase) {
                break;
            }
        }
        end = at + bare.len();
        words += 1;
        if bare.len() != word.len() || words == 3 {
            break;
        }
    }
    let name = text[..end].trim_end_matches([' ', '-']);
    (words > 0 && !name.is_empty()).then(|| (name, &text[end..]))
}

/// The words of a text with their byte offsets.
fn word_starts(text: &str) -> impl Iterator<Item = (usize, &str)> {
    text.split(' ').scan(0usize, |at, word| {
        let start = *at;
        *at += word.len() + 1;
        Some((start, word))
    })
}

/// Reads "Porto", "Leeds, UK", "Austin, Texas", "Portugal" at the start of `text`.
fn place_at(text: &str) -> Option<CompanyPlace> {
    let text = text.trim_start();
    let text = text.strip_prefix("the ").unwrap_or(text);
    // "a small office close to the Brno main square", "the heart of Ghent".
    let (first, rest) = place_name_at(text)?;
    if let Some(country) = country_named(first) {
        return Some(CompanyPlace { city: None, country: Some(country.code) });
    }
    let after_second = rest.strip_prefix(", ").and_then(place_name_at);
    let second = after_second.map(|(name, _)| name);
    // "Halifax, Nova Scotia, Canada": the region, then the country.
    let third = after_second.and_then(|(_, rest)| rest.strip_prefix(", ")).and_then(place_name_at).map(|(name, _)| name);
    let named_country = second.and_then(country_named).or_else(|| third.and_then(country_named));
    let in_gazetteer = !cities_named(first).is_empty();
    if !in_gazetteer && named_country.is_none() {
        return None;
    }
    let country = match named_country {
        Some(country) => Some(country.code),
        // "Austin, Texas", "London, Ontario": a region the gazetteer does not know, so the
        // country is told only when every city of that name is in one country.
        None if second.is_some() => {
            let cities = cities_named(first);
            cities.first().map(|city| city.country).filter(|country| cities.iter().all(|city| city.country == *country))
        }
        None => country_of_city(first),
    };
    Some(CompanyPlace { city: Some(first.to_owned()), country })
}

/// The places a text says the company is in: sentences in which the company (first person,
/// its name) is said to be based, made, run, or to have an office or team in a place, and
/// sentences that call it a company of a country ("a Dutch company"). Sentences about
/// customers, partners, investors, jobs or events say nothing of the company's place.
pub fn company_places(text: &str, names: &[String]) -> Vec<CompanyPlace> {
    let mut places = Vec::new();
    for sentence in crate::meaning::sentences(text) {
        // ASCII lower case keeps every byte offset of `sentence` (the cues are ASCII).
        let lower = sentence.to_ascii_lowercase();
        // A sentence without a subject that starts with a cue ("Made in Leeds.", "Founded in
        // 2019 in Berlin.") is the site speaking of itself.
        let fragment = PLACE_CUES.iter().any(|cue| lower.starts_with(cue)) || lower.starts_with("made by ");
        // "From a hospice shop in Harrogate to a rowing club for veterans, most of our charities
        // …": a range of examples, the customers'.
        let examples = lower.starts_with("from ") && lower.contains(" to ");
        if examples
            || NOT_OURS.iter().any(|cue| lower.contains(cue))
            || !(fragment || crate::meaning::speaks_of_company(&sentence.to_lowercase(), names))
        {
            continue;
        }
        for cue in PLACE_CUES {
            for (at, _) in lower.match_indices(cue) {
                let before_ok = lower[..at].chars().next_back().is_none_or(|c| !c.is_alphanumeric());
                let after = at + cue.len();
                if !before_ok || !sentence[after..].starts_with(' ') || describes_another(sentence, at, names) {
                    continue;
                }
                // "an office close to the Brno main square", "the heart of Ghent".
                let rest = sentence[after..].trim_start();
                // "founded in 2019 in Berlin": the year, then the place.
                let bytes = rest.as_bytes();
                let year_first = bytes.len() >= 8 && bytes[..4].iter().all(u8::is_ascii_digit) && &bytes[4..8] == b" in ";
                let rest = if year_first { &rest[8..] } else { rest };
                let rest = ["the heart of ", "the centre of ", "the center of ", "a small town near ", "the ", "a "]
                    .iter()
                    .find_map(|skip| rest.strip_prefix(skip))
                    .unwrap_or(rest);
                // "made in a small studio on the Isle of Skye, Scotland", "a room above a bakery
                // in Turku, Finland": the place the clause ends in, else the country that ends it.
                let place = place_at(rest).or_else(|| {
                    // Only a short clause that follows a cue naming where the company is.
                    if *cue == "from" || describes_another(sentence, at, names) {
                        return None;
                    }
                    let clause = rest.split(['.', ';', '(']).next().unwrap_or(rest);
                    // "from a former print shop in Cologne's Ehrenfeld": a city's quarter.
                    let first = clause.split(',').next().unwrap_or(clause);
                    if let Some(city) = first.rfind(" in ").and_then(|at| city_before_quarter(&first[at + 4..])) {
                        return Some(city);
                    }
                    if clause.chars().count() > 60 {
                        return None;
                    }
                    clause.rfind(" in ").and_then(|at| place_at(&clause[at + 4..])).or_else(|| {
                        let (_, last) = clause.rsplit_once(", ")?;
                        country_named(last.trim()).map(|country| CompanyPlace { city: None, country: Some(country.code) })
                    })
                });
                if let Some(place) = place
                    && !places.contains(&place)
                {
                    places.push(place);
                }
            }
        }
        // "a small team of six persons in Valencia", "made with a lot of coffee in Valencia".
        // "Made by Claire and Julien Morel, in Nantes, France."
        for (cue, reach, commas) in [("team of ", 30, false), ("made with ", 30, false), ("made by ", 40, true)] {
            for (at, _) in lower.match_indices(cue) {
                let start = at + cue.len();
                let Some(gap) = lower[start..].find(" in ").filter(|gap| *gap <= reach) else { continue };
                if lower[start..start + gap].contains(['.', ';']) || !commas && lower[start..start + gap].contains(',') {
                    continue;
                }
                if let Some(place) = place_at(sentence[start + gap + 4..].trim_start())
                    && !places.contains(&place)
                {
                    places.push(place);
                }
            }
        }
        // "We're a Dutch company", "an independent Swiss studio".
        for country in COUNTRIES {
            for adjective in country.adjectives {
                let adjective = adjective.to_lowercase();
                for (at, _) in lower.match_indices(&adjective) {
                    let before_ok = lower[..at].chars().next_back().is_none_or(|c| !c.is_alphanumeric())
                        && !["latin ", "north ", "south ", "native ", "northern ", "southern "].iter().any(|w| lower[..at].ends_with(w));
                    let after = &lower[at + adjective.len()..];
                    let noun = after.trim_start().split(|c: char| !c.is_alphabetic()).next().unwrap_or("");
                    let company =
                        ["company", "startup", "start-up", "team", "business", "studio", "firm", "agency", "product", "company's"];
                    let place = CompanyPlace { city: None, country: Some(country.code) };
                    if before_ok && after.starts_with(' ') && company.contains(&noun) && !places.contains(&place) {
                        places.push(place);
                    }
                }
            }
        }
    }
    places
}

/// The legal forms a company's name ends with ("Kingfisherly GmbH", "Acme Ltd"): never a
/// person's name, and before a city in a footer, the company's own address.
pub const LEGAL_FORMS: &[&str] = &[
    "GmbH", "Ltd", "Ltd.", "AB", "Oy", "SAS", "SARL", "Sàrl", "BV", "B.V.", "AS", "ApS", "Inc", "Inc.", "LLC", "S.L.", "SRL", "s.r.o.",
    "AG", "SA",
];

/// Whether the clause before `at` describes a name that is not the product's ("Patel & Sons,
/// a tailoring shop in Leicester"): an apposition after another name.
fn describes_another(sentence: &str, at: usize, names: &[String]) -> bool {
    let Some(comma) = sentence[..at].rfind(", ") else { return false };
    let clause = sentence[comma + 2..at].to_ascii_lowercase();
    if !(clause.starts_with("a ") || clause.starts_with("an ")) {
        return false;
    }
    let before = sentence[..comma].split(',').next_back().unwrap_or("").trim();
    let named = before.split_whitespace().next_back().is_some_and(|word| word.chars().next().is_some_and(char::is_uppercase));
    named && !crate::meaning::names_product(before, names)
}

/// Places of an address line: a short line whose part before a country names a city
/// ("Bristol, England", "© 2024 Brightlog Ltd · Ghent, Belgium", "Rua das Flores 12, 4050-262
/// Porto, Portugal"), each part of a line joined by `·`, `|` or `•` read alone.
pub fn address_places(text: &str) -> Vec<CompanyPlace> {
    let mut places = Vec::new();
    let sentences = crate::meaning::sentences(text);
    if text.chars().count() > 200 || sentences.len() > 1 {
        // An imprint's paragraph: "Quartzline GmbH, Neubaugasse 12/4, 1070 Vienna, Austria.
        // Commercial register …": its sentences, each a line of its own.
        for sentence in sentences.into_iter().filter(|sentence| sentence.chars().count() <= 200 && sentence.len() < text.len()) {
            for place in address_places(sentence) {
                if !places.contains(&place) {
                    places.push(place);
                }
            }
        }
        return places;
    }
    let lower = text.to_lowercase();
    if NOT_OURS.iter().any(|cue| lower.contains(cue)) {
        return places;
    }
    // "Kingfisherly GmbH · Hamburg": a company's legal name, then a city of one country.
    let segments: Vec<&str> = text.split(['·', '|', '•']).map(str::trim).collect();
    for pair in segments.windows(2) {
        if pair[0].split_whitespace().next_back().is_some_and(|last| LEGAL_FORMS.contains(&last))
            && let Some(country) = country_of_city(pair[1])
        {
            places.push(CompanyPlace { city: Some(pair[1].to_owned()), country: Some(country) });
        }
    }
    // "Nørregade 10 8000 Aarhus C Denmark": an address block's lines run together; the city is
    // the word after the postcode, when the gazetteer knows it.
    if text.chars().count() <= 120
        && let Some((rest, country)) = COUNTRIES.iter().find_map(|country| {
            country.names.iter().find_map(|name| text.trim_end_matches('.').strip_suffix(name).map(|rest| (rest, country.code)))
        })
    {
        let words: Vec<&str> = rest.split_whitespace().collect();
        for pair in words.windows(2) {
            let postcode = pair[0].len() >= 4 && pair[0].chars().all(|c| c.is_ascii_digit() || c == '-');
            let city = pair[1].trim_end_matches(',');
            if postcode && cities_named(city).iter().any(|known| known.country == country) {
                let place = CompanyPlace { city: Some(city.to_owned()), country: Some(country) };
                if !places.contains(&place) {
                    places.push(place);
                }
            }
        }
    }
    // Each part of a line, and the line itself with its dots for commas ("Brindlepad Sàrl ·
    // Avenue de Sévelin 20 · 1004 Lausanne · Switzerland").
    let dotted = text.replace(['·', '|', '•'], ",");
    for part in text.split(['·', '|', '•', '\n']).chain(std::iter::once(dotted.as_str())) {
        let pieces: Vec<&str> = part.split(',').map(str::trim).filter(|piece| !piece.is_empty()).collect();
        if pieces.len() < 2 {
            continue;
        }
        let Some(country) = country_named(pieces[pieces.len() - 1].trim_end_matches('.')) else { continue };
        // "Limerick, V94 X2K7, Ireland": a postcode of its own stands between city and country.
        let postcode = |piece: &str| piece.split_whitespace().all(|word| word.chars().any(|c| c.is_ascii_digit()));
        let mut city = pieces[pieces.len() - 2];
        if postcode(city) && pieces.len() >= 3 {
            city = pieces[pieces.len() - 3];
        }
        // "1004 Lausanne", "Nottingham NG1 1PS": the city without its postcode.
        let city = city.trim_start_matches(|c: char| c.is_ascii_digit() || c == ' ' || c == '-');
        let city = city.split_whitespace().take_while(|word| !word.chars().any(|c| c.is_ascii_digit())).collect::<Vec<_>>().join(" ");
        let city = city.as_str();
        let city = ["Made in ", "Based in ", "Headquartered in ", "Located in ", "Sitz in "]
            .iter()
            .find_map(|prefix| city.strip_prefix(prefix))
            .unwrap_or(city)
            .trim_start_matches(|c: char| c.is_ascii_digit() || c == ' ' || c == '-');
        // "Adelaide SA 5000", "Austin TX 78701": the city without its state's code.
        let city = match city.rsplit_once(' ') {
            Some((name, state))
                if (2..=3).contains(&state.len()) && state.chars().all(|c| c.is_ascii_uppercase()) && !cities_named(name).is_empty() =>
            {
                name
            }
            _ => city,
        };
        // A part that is an address: the piece before the country is a place's name, not a
        // sentence that ends in one ("our servers run in Frankfurt, Germany").
        let words = city.split_whitespace().count();
        let looks_like_city =
            (1..=3).contains(&words) && city.chars().next().is_some_and(char::is_uppercase) && !city.chars().any(|c| c.is_ascii_digit());
        if !looks_like_city {
            continue;
        }
        let city = Some(city.to_owned());
        let place = CompanyPlace { city, country: Some(country.code) };
        if !places.contains(&place) {
            places.push(place);
        }
    }
    places
}

#[cfg(test)]
mod tests;
