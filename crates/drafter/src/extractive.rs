//! `ExtractiveDrafter`: drafts without a model. Every value is text the site states (a title,
//! a heading, a paragraph, a list item, a meta tag, a JSON-LD value or a link), and its quote is
//! that text, so the grounding check has nothing to drop unless extraction went wrong.

use async_trait::async_trait;
use drafts::grounding::{COUNTRIES, CategoryRef, PRICING_MODELS, Proposal, SocialLink};
use drafts::site::{BlockKind, Page, SiteSnapshot, TextBlock};
use drafts::{DraftFounder, Drafter, DrafterError, Evidence, FieldName, FieldValue, Proposed};
use kernel::{Faq, SocialKey};
use serde_json::Value;

#[derive(Debug, Default, Clone, Copy)]
pub struct ExtractiveDrafter;

#[async_trait]
impl Drafter for ExtractiveDrafter {
    async fn draft(&self, site: &SiteSnapshot, categories: &[CategoryRef]) -> Result<Proposal, DrafterError> {
        Ok(draft(site, categories))
    }
}

/// Title separators, between a product's name and its tagline.
const SEPARATORS: &[&str] = &[" | ", " - ", " – ", " — ", ": ", " · "];
/// Words that say when a company was founded.
const FOUNDED: &[&str] = &["founded", "established", "since", "gegründet", "seit", "fondée", "fondé", "fundada", "fundado", "fondata"];
/// Headings above feature lists.
const FEATURE_HEADINGS: &[&str] = &["feature", "funktionen", "fonctionnalit", "funciones", "what you get", "capabilities"];
/// Headings above lists of reasons to choose the product.
const USP_HEADINGS: &[&str] = &["why", "benefit", "vorteile", "warum", "pourquoi", "por qué", "advantages"];
/// Words in a role that make a person a founder.
const FOUNDER_ROLES: &[&str] = &["founder", "ceo", "cto", "gründer", "fondateur", "fundador"];
/// Video hosts a demo may live on.
const VIDEO_HOSTS: &[&str] = &[
    "youtube.com/embed/",
    "youtube.com/watch",
    "youtu.be/",
    "vimeo.com/",
    "player.vimeo.com/",
    "loom.com/share/",
    "loom.com/embed/",
    "wistia.com/",
    "wistia.net/",
];

fn evidence(page: &Page, quote: &str) -> Evidence {
    Evidence { url: page.url.clone(), quote: quote.to_owned() }
}

fn text(value: &str, page: &Page, quote: &str) -> Proposed<FieldValue> {
    Proposed { value: FieldValue::Text(value.to_owned()), evidence: vec![evidence(page, quote)] }
}

/// JSON-LD objects of a type, across pages, with their page.
fn json_ld<'a>(site: &'a SiteSnapshot, types: &'a [&str]) -> impl Iterator<Item = (&'a Page, &'a Value)> + 'a {
    site.pages
        .iter()
        .flat_map(move |page| page.json_ld.iter().filter(move |object| is_type(object, types)).map(move |object| (page, object)))
}

fn is_type(object: &Value, types: &[&str]) -> bool {
    match &object["@type"] {
        Value::String(kind) => types.contains(&kind.as_str()),
        Value::Array(kinds) => kinds.iter().any(|k| k.as_str().is_some_and(|k| types.contains(&k))),
        _ => false,
    }
}

fn string_at<'a>(object: &'a Value, key: &str) -> Option<&'a str> {
    object.get(key).and_then(Value::as_str).map(str::trim).filter(|s| !s.is_empty())
}

/// Pages whose address names one of `words` (`/pricing`, `/preise`, ...).
fn pages_about<'a>(site: &'a SiteSnapshot, words: &'a [&str]) -> impl Iterator<Item = &'a Page> + 'a {
    site.pages.iter().skip(1).filter(move |page| {
        let path = page.url.split_once("://").map_or("", |(_, rest)| rest).split_once('/').map_or("", |(_, path)| path).to_lowercase();
        words.iter().any(|word| path.contains(word))
    })
}

/// Writes a proposal from what the site says.
pub fn draft(site: &SiteSnapshot, categories: &[CategoryRef]) -> Proposal {
    let mut proposal = Proposal::default();
    let Some(home) = site.pages.first() else { return proposal };
    let organizations =
        ["Organization", "Corporation", "LocalBusiness", "SoftwareApplication", "WebApplication", "MobileApplication", "Product"];

    // Name: og:site_name, else a JSON-LD name, else the title up to its separator.
    let name = if let Some(site_name) = home.open_graph.get("og:site_name").filter(|n| n.chars().count() <= 80) {
        Some(text(site_name, home, site_name))
    } else if let Some((page, name)) = json_ld(site, &organizations).find_map(|(page, o)| string_at(o, "name").map(|n| (page, n))) {
        Some(text(name, page, name))
    } else {
        home.title.as_deref().map(|title| {
            let name = split_title(title).0;
            text(name, home, title)
        })
    };
    let name_text = name.as_ref().and_then(|n| n.value.as_text().map(str::to_owned)).unwrap_or_default();
    if let Some(name) = name.filter(|n| n.value.as_text().is_some_and(|t| t.chars().count() <= 500)) {
        proposal.fields.insert(FieldName::Name, name);
    }

    // Tagline: the homepage's first h1 when it is not just the name, else the title after it.
    let h1 = home.blocks.iter().find(|b| b.kind == BlockKind::Heading(1)).map(|b| b.text.as_str());
    let tagline = match h1 {
        Some(h1) if !h1.eq_ignore_ascii_case(&name_text) && h1.chars().count() <= 200 => Some(text(h1, home, h1)),
        _ => {
            home.title.as_deref().and_then(|title| split_title(title).1.filter(|t| t.chars().count() <= 200).map(|t| text(t, home, title)))
        }
    };
    if let Some(tagline) = tagline {
        proposal.fields.insert(FieldName::Tagline, tagline);
    }

    // Short description: the meta description, else og:description.
    let short = home.meta_description.as_deref().or_else(|| home.open_graph.get("og:description").map(String::as_str));
    if let Some(short) = short.filter(|s| s.chars().count() <= 500) {
        proposal.fields.insert(FieldName::ShortDescription, text(short, home, short));
    }

    // Description: substantial paragraphs of the homepage, then of an about page.
    let mut paragraphs: Vec<Evidence> = Vec::new();
    let about_pages: Vec<&Page> =
        pages_about(site, &["about", "ueber-uns", "uber-uns", "über-uns", "a-propos", "company", "story"]).collect();
    for (page, limit) in std::iter::once((home, 3)).chain(about_pages.iter().map(|page| (*page, 2))) {
        let found = page.blocks.iter().filter(|b| b.kind == BlockKind::Paragraph && b.text.chars().count() >= 60).take(limit);
        for block in found {
            if !paragraphs.iter().any(|e| e.quote == block.text) {
                paragraphs.push(evidence(page, &block.text));
            }
        }
    }
    if !paragraphs.is_empty() {
        let description: String =
            paragraphs.iter().map(|e| e.quote.as_str()).collect::<Vec<_>>().join("\n\n").chars().take(20_000).collect();
        proposal.fields.insert(FieldName::Description, Proposed { value: FieldValue::Text(description), evidence: paragraphs });
    }

    categorise(site, categories, &mut proposal);

    // Tags: JSON-LD application categories.
    let tags: Vec<(String, Evidence)> = json_ld(site, &organizations)
        .filter_map(|(page, o)| string_at(o, "applicationCategory").map(|c| (c.to_owned(), evidence(page, c))))
        .filter(|(tag, _)| tag.chars().count() <= 200)
        .collect();
    if !tags.is_empty() {
        proposal.fields.insert(
            FieldName::Tags,
            Proposed {
                value: FieldValue::List(tags.iter().map(|(t, _)| t.clone()).take(20).collect()),
                evidence: tags.into_iter().map(|(_, e)| e).collect(),
            },
        );
    }

    pricing(site, &mut proposal);
    place(site, &mut proposal);
    founded(site, &mut proposal);
    lists(site, &mut proposal);

    // Keywords: the meta keywords.
    if let Some(keywords) = &home.meta_keywords {
        let items: Vec<String> =
            keywords.split(',').map(str::trim).filter(|k| !k.is_empty() && k.chars().count() <= 200).take(20).map(str::to_owned).collect();
        if !items.is_empty() {
            proposal
                .fields
                .insert(FieldName::Keywords, Proposed { value: FieldValue::List(items), evidence: vec![evidence(home, keywords)] });
        }
    }

    contact(site, &mut proposal);
    media(site, &mut proposal);
    faqs(site, &mut proposal);
    founders(site, &mut proposal);

    // Socials: the first link to each platform.
    for page in &site.pages {
        for link in &page.links {
            let host = link.url.split_once("://").map_or("", |(_, rest)| rest).split(['/', '?']).next().unwrap_or("");
            if let Some(key) = SocialKey::of_host(host)
                && link.url.starts_with("https://")
                && link.url.len() <= 500
                && !proposal.socials.iter().any(|s| s.value.key == key.as_str())
            {
                proposal.socials.push(Proposed {
                    value: SocialLink { key: key.as_str().to_owned(), url: link.url.clone() },
                    evidence: vec![evidence(page, &link.url)],
                });
            }
        }
    }

    // SEO: the homepage's title and meta description, cut to 70 and 170 characters.
    if let Some(title) = &home.title {
        proposal.seo_title = Some(Proposed { value: cut_words(title, 70), evidence: vec![evidence(home, title)] });
    }
    if let Some(meta) = &home.meta_description {
        proposal.seo_meta = Some(Proposed { value: cut_words(meta, 170), evidence: vec![evidence(home, meta)] });
    }
    proposal
}

/// `Name | Tagline` -> (`Name`, `Some("Tagline")`).
fn split_title(title: &str) -> (&str, Option<&str>) {
    let cut = SEPARATORS.iter().filter_map(|sep| title.find(sep).map(|at| (at, sep.len()))).min_by_key(|(at, _)| *at);
    match cut {
        Some((at, len)) if at > 0 => (title[..at].trim(), Some(title[at + len..].trim()).filter(|t| !t.is_empty())),
        _ => (title.trim(), None),
    }
}

/// At most `max` characters, cut at a word boundary.
fn cut_words(text: &str, max: usize) -> String {
    if text.chars().count() <= max {
        return text.to_owned();
    }
    let mut out = String::new();
    for word in text.split_whitespace() {
        if out.chars().count() + word.chars().count() + usize::from(!out.is_empty()) > max {
            break;
        }
        if !out.is_empty() {
            out.push(' ');
        }
        out.push_str(word);
    }
    out
}

/// Whether `text` contains `phrase` as whole words, ignoring case.
fn contains_phrase(text: &str, phrase: &str) -> bool {
    let text = text.to_lowercase();
    let phrase = phrase.to_lowercase();
    let mut start = 0;
    while let Some(at) = text[start..].find(&phrase) {
        let begin = start + at;
        let end = begin + phrase.len();
        let before = text[..begin].chars().next_back().is_none_or(|c| !c.is_alphanumeric());
        let after = text[end..].chars().next().is_none_or(|c| !c.is_alphanumeric());
        if before && after {
            return true;
        }
        start = begin + phrase.len().max(1);
        while !text.is_char_boundary(start) {
            start += 1;
        }
    }
    false
}

/// Categories whose names the site uses most, up to three.
fn categorise(site: &SiteSnapshot, categories: &[CategoryRef], proposal: &mut Proposal) {
    let mut scored: Vec<(usize, &CategoryRef, Vec<Evidence>)> = Vec::new();
    for category in categories {
        let mut hits = 0;
        let mut quotes = Vec::new();
        for page in &site.pages {
            let texts = page.title.iter().chain(page.meta_description.iter()).chain(page.blocks.iter().map(|b| &b.text));
            for text in texts {
                if contains_phrase(text, &category.name) {
                    hits += 1;
                    if quotes.len() < 2 && text.chars().count() <= 500 {
                        quotes.push(evidence(page, text));
                    }
                }
            }
        }
        if hits > 0 && !quotes.is_empty() {
            scored.push((hits, category, quotes));
        }
    }
    scored.sort_by(|a, b| b.0.cmp(&a.0).then_with(|| a.1.slug.cmp(&b.1.slug)));
    scored.truncate(3);
    if !scored.is_empty() {
        proposal.fields.insert(
            FieldName::Categories,
            Proposed {
                value: FieldValue::List(scored.iter().map(|(_, c, _)| c.slug.clone()).collect()),
                evidence: scored.into_iter().flat_map(|(_, _, quotes)| quotes).collect(),
            },
        );
    }
}

/// Whether a text states a price: a currency next to a number.
fn states_price(text: &str) -> bool {
    let lower = text.to_lowercase();
    let has_digit = lower.chars().any(|c| c.is_ascii_digit());
    has_digit && (["$", "€", "£", "¥", "usd", "eur", "gbp", " euro", "dollar", "chf"].iter().any(|c| lower.contains(c)))
}

/// Pricing model and summary, from pricing pages (else the homepage).
fn pricing(site: &SiteSnapshot, proposal: &mut Proposal) {
    let mut pages: Vec<&Page> = pages_about(site, &["pricing", "prices", "plans", "preise", "tarif", "precios", "prezzi"]).collect();
    pages.extend(site.pages.first());
    let mut lines: Vec<String> = Vec::new();
    let mut quotes: Vec<Evidence> = Vec::new();
    let mut cue_quotes: Vec<(String, Evidence)> = Vec::new();
    for page in &pages {
        for block in &page.blocks {
            if matches!(block.kind, BlockKind::Heading(_)) || block.text.chars().count() > 300 {
                continue;
            }
            let lower = block.text.to_lowercase();
            for (model, cues) in PRICING_MODELS {
                if cues.iter().any(|cue| lower.contains(cue)) && !cue_quotes.iter().any(|(m, _)| m == model) {
                    cue_quotes.push(((*model).to_owned(), evidence(page, &block.text)));
                }
            }
            if (states_price(&block.text) || lower.contains("free forever") || lower.contains("free plan")) && lines.len() < 4 {
                let plan = block.section.as_deref().filter(|s| s.chars().count() <= 40 && !lower.contains(&s.to_lowercase()));
                let plan = plan.filter(|p| !["pricing", "preise", "prices", "plans", "tarifs"].contains(&p.to_lowercase().as_str()));
                match plan {
                    Some(plan) => {
                        lines.push(format!("{plan}: {}", block.text));
                        quotes.push(evidence(page, plan));
                    }
                    None => lines.push(block.text.clone()),
                }
                quotes.push(evidence(page, &block.text));
            }
        }
        if !lines.is_empty() {
            break;
        }
    }
    if !lines.is_empty() {
        let mut summary = String::new();
        for line in &lines {
            if summary.chars().count() + line.chars().count() + 1 > 500 {
                break;
            }
            if !summary.is_empty() {
                summary.push(' ');
            }
            summary.push_str(line);
        }
        if !summary.is_empty() {
            proposal.fields.insert(FieldName::PricingSummary, Proposed { value: FieldValue::Text(summary), evidence: quotes });
        }
    }
    let has = |model: &str| cue_quotes.iter().find(|(m, _)| m == model).map(|(_, e)| e.clone());
    let paid = lines.iter().any(|line| states_price(line) && !line.to_lowercase().starts_with("free"));
    let model = if let Some(free) = has("freemium").filter(|_| paid) {
        Some(("freemium", free))
    } else if let Some(open) = has("open_source") {
        Some(("open_source", open))
    } else if let Some(once) = has("one_time") {
        Some(("one_time", once))
    } else if let Some(recurring) = has("subscription") {
        Some(("subscription", recurring))
    } else {
        has("usage_based").map(|usage| ("usage_based", usage))
    };
    if let Some((model, quote)) = model {
        proposal.fields.insert(FieldName::PricingModel, Proposed { value: FieldValue::Text(model.into()), evidence: vec![quote] });
    }
}

/// The country of a name or code.
fn country_of(text: &str) -> Option<&'static str> {
    let text = text.trim().trim_end_matches('.');
    COUNTRIES
        .iter()
        .find(|(code, names)| code.eq_ignore_ascii_case(text) || names.iter().any(|n| n.eq_ignore_ascii_case(text)))
        .map(|(code, _)| *code)
}

/// Country and city: a JSON-LD postal address, else an address-like line ending in a country.
fn place(site: &SiteSnapshot, proposal: &mut Proposal) {
    for (page, object) in json_ld(site, &["Organization", "Corporation", "LocalBusiness", "PostalAddress"]) {
        let address = if is_type(object, &["PostalAddress"]) { object } else { &object["address"] };
        if let Some(raw) = string_at(address, "addressCountry").or_else(|| string_at(&address["addressCountry"], "name"))
            && let Some(code) = country_of(raw)
        {
            proposal.fields.entry(FieldName::Country).or_insert_with(|| text(code, page, raw));
        }
        if let Some(city) = string_at(address, "addressLocality").filter(|c| c.chars().count() <= 120) {
            proposal.fields.entry(FieldName::City).or_insert_with(|| text(city, page, city));
        }
    }
    if proposal.fields.contains_key(&FieldName::Country) && proposal.fields.contains_key(&FieldName::City) {
        return;
    }
    for page in &site.pages {
        for block in &page.blocks {
            if block.text.chars().count() > 200 {
                continue;
            }
            let parts: Vec<&str> = block.text.split(',').map(str::trim).collect();
            if parts.len() < 2 {
                continue;
            }
            let Some(code) = country_of(parts[parts.len() - 1]) else { continue };
            proposal.fields.entry(FieldName::Country).or_insert_with(|| text(code, page, &block.text));
            let city = parts[parts.len() - 2];
            let city = ["Made in ", "Based in ", "Headquartered in ", "Located in ", "Sitz in "]
                .iter()
                .find_map(|prefix| city.strip_prefix(prefix))
                .unwrap_or(city)
                .trim_start_matches(|c: char| c.is_ascii_digit() || c == ' ' || c == '-');
            let words = city.split_whitespace().count();
            if (1..=3).contains(&words) && city.chars().next().is_some_and(char::is_uppercase) && !city.chars().any(|c| c.is_ascii_digit())
            {
                proposal.fields.entry(FieldName::City).or_insert_with(|| text(city, page, &block.text));
            }
        }
    }
}

/// The founding year: JSON-LD `foundingDate`, else a year next to a word like "founded".
fn founded(site: &SiteSnapshot, proposal: &mut Proposal) {
    if let Some((page, date)) =
        json_ld(site, &["Organization", "Corporation", "LocalBusiness"]).find_map(|(p, o)| string_at(o, "foundingDate").map(|d| (p, d)))
        && let Some(year) = date.get(..4).filter(|y| y.parse::<u16>().is_ok_and(|y| (1800..=2100).contains(&y)))
    {
        proposal.fields.insert(FieldName::FoundedYear, text(year, page, date));
        return;
    }
    for page in &site.pages {
        for block in &page.blocks {
            let lower = block.text.to_lowercase();
            let Some(cue) = FOUNDED.iter().filter_map(|cue| lower.find(cue)).min() else { continue };
            let years: Vec<(usize, &str)> = block
                .text
                .char_indices()
                .filter(|(i, _)| block.text.is_char_boundary(*i))
                .filter_map(|(i, _)| block.text.get(i..i + 4).map(|y| (i, y)))
                .filter(|(i, y)| {
                    y.bytes().all(|b| b.is_ascii_digit())
                        && y.parse::<u16>().is_ok_and(|y| (1800..=2100).contains(&y))
                        && !block.text[..*i].ends_with(|c: char| c.is_ascii_digit())
                        && !block.text[i + 4..].starts_with(|c: char| c.is_ascii_digit())
                })
                .collect();
            if let Some((_, year)) = years.iter().min_by_key(|(i, _)| i.abs_diff(cue)) {
                proposal.fields.insert(FieldName::FoundedYear, text(year, page, &block.text));
                return;
            }
        }
    }
}

/// List items under a heading that matches one of `headings` (or on a page about them).
fn list_under<'a>(site: &'a SiteSnapshot, headings: &[&str], pages: &[&str]) -> Vec<(&'a Page, &'a TextBlock)> {
    let mut items = Vec::new();
    for (i, page) in site.pages.iter().enumerate() {
        let page_matches = i > 0 && {
            let path = page.url.to_lowercase();
            pages.iter().any(|p| path.contains(p))
        };
        for block in &page.blocks {
            if block.kind != BlockKind::ListItem || block.text.chars().count() > 200 || block.text.chars().count() < 8 {
                continue;
            }
            let heading = block.section.as_deref().unwrap_or("").to_lowercase();
            if page_matches || headings.iter().any(|h| heading.contains(h)) {
                items.push((page, block));
            }
        }
    }
    items
}

fn lists(site: &SiteSnapshot, proposal: &mut Proposal) {
    for (field, headings, pages) in [
        (FieldName::Features, FEATURE_HEADINGS, &["feature", "funktionen", "fonctionnalit"][..]),
        (FieldName::Usps, USP_HEADINGS, &["why", "benefits", "vorteile"][..]),
    ] {
        let mut items = list_under(site, headings, pages);
        if field == FieldName::Usps {
            // A list already taken as features is not also a list of reasons.
            let taken: Vec<String> = proposal.fields.get(&FieldName::Features).map(|p| p.value.as_list().to_vec()).unwrap_or_default();
            items.retain(|(_, b)| !taken.contains(&b.text));
        }
        items.truncate(10);
        if !items.is_empty() {
            proposal.fields.insert(
                field,
                Proposed {
                    value: FieldValue::List(items.iter().map(|(_, b)| b.text.clone()).collect()),
                    evidence: items.iter().map(|(p, b)| evidence(p, &b.text)).collect(),
                },
            );
        }
    }
}

/// The contact address: a `mailto:` link, else an address in the text, else JSON-LD.
fn contact(site: &SiteSnapshot, proposal: &mut Proposal) {
    for page in &site.pages {
        for link in &page.links {
            if let Some(address) = link.url.strip_prefix("mailto:") {
                let address = address.split('?').next().unwrap_or("").trim();
                if kernel::Email::parse(address).is_ok() {
                    proposal.fields.insert(FieldName::ContactEmail, text(address, page, &link.url));
                    return;
                }
            }
        }
    }
    for page in &site.pages {
        for block in &page.blocks {
            for word in block.text.split_whitespace() {
                let word =
                    word.trim_matches(|c: char| !c.is_alphanumeric() && c != '@' && c != '.' && c != '-' && c != '_').trim_end_matches('.');
                if word.contains('@') && kernel::Email::parse(word).is_ok() {
                    proposal.fields.insert(FieldName::ContactEmail, text(word, page, &block.text));
                    return;
                }
            }
        }
    }
    if let Some((page, address)) =
        json_ld(site, &["Organization", "Corporation", "LocalBusiness"]).find_map(|(p, o)| string_at(o, "email").map(|e| (p, e)))
        && kernel::Email::parse(address.trim_start_matches("mailto:")).is_ok()
    {
        proposal.fields.insert(FieldName::ContactEmail, text(address.trim_start_matches("mailto:"), page, address));
    }
}

/// Demo video and logo.
fn media(site: &SiteSnapshot, proposal: &mut Proposal) {
    'video: for page in &site.pages {
        for url in page.embeds.iter().chain(page.links.iter().map(|l| &l.url)) {
            if url.starts_with("https://") && url.len() <= 500 && VIDEO_HOSTS.iter().any(|host| url.contains(host)) {
                proposal.fields.insert(FieldName::DemoVideoUrl, text(url, page, url));
                break 'video;
            }
        }
    }
    let logo = json_ld(site, &["Organization", "Corporation", "LocalBusiness"])
        .find_map(|(page, o)| string_at(o, "logo").or_else(|| string_at(&o["logo"], "url")).map(|logo| (page, logo.to_owned())));
    let logo = logo.or_else(|| {
        site.pages.first().and_then(|home| {
            home.images
                .iter()
                .find(|image| image.hint.contains("logo") || image.alt.to_lowercase().contains("logo"))
                .map(|image| (home, image.url.clone()))
        })
    });
    if let Some((page, url)) = logo.filter(|(_, url)| url.starts_with("http") && url.len() <= 500) {
        proposal.fields.insert(FieldName::LogoUrl, text(&url, page, &url));
    }
}

/// FAQs: JSON-LD `FAQPage`, then questions in `summary`/`dt`/headings followed by their answer.
fn faqs(site: &SiteSnapshot, proposal: &mut Proposal) {
    let push = |proposal: &mut Proposal, page: &Page, question: &str, answer: &str| {
        let fits = question.chars().count() <= 300 && answer.chars().count() <= 1500 && !answer.is_empty();
        if fits && proposal.faqs.len() < 10 && !proposal.faqs.iter().any(|f| f.value.question == question) {
            proposal.faqs.push(Proposed {
                value: Faq { question: question.to_owned(), answer: answer.to_owned() },
                evidence: vec![evidence(page, question), evidence(page, answer)],
            });
        }
    };
    for (page, object) in json_ld(site, &["FAQPage"]) {
        let entities = match &object["mainEntity"] {
            Value::Array(items) => items.iter().collect::<Vec<_>>(),
            one @ Value::Object(_) => vec![one],
            _ => Vec::new(),
        };
        for entity in entities {
            if let (Some(question), Some(answer)) = (string_at(entity, "name"), string_at(&entity["acceptedAnswer"], "text")) {
                push(proposal, page, question, answer);
            }
        }
    }
    for page in &site.pages {
        for pair in page.blocks.windows(2) {
            let (question, answer) = (&pair[0], &pair[1]);
            let is_question = matches!(question.kind, BlockKind::Term | BlockKind::Heading(2..=4)) && question.text.ends_with('?');
            if is_question && matches!(answer.kind, BlockKind::Paragraph | BlockKind::ListItem | BlockKind::Other) {
                push(proposal, page, &question.text, &answer.text);
            }
        }
    }
}

/// Founders: JSON-LD `founder`, then "Name, Co-founder & CEO" lines.
fn founders(site: &SiteSnapshot, proposal: &mut Proposal) {
    for (page, object) in json_ld(site, &["Organization", "Corporation", "LocalBusiness"]) {
        let people = match &object["founder"] {
            Value::Array(items) => items.iter().collect::<Vec<_>>(),
            one @ Value::Object(_) => vec![one],
            _ => Vec::new(),
        };
        for person in people {
            if let Some(name) = string_at(person, "name").filter(|n| n.chars().count() <= 160) {
                let title = string_at(person, "jobTitle").filter(|t| t.chars().count() <= 160);
                let mut quotes = vec![evidence(page, name)];
                quotes.extend(title.map(|t| evidence(page, t)));
                add_founder(proposal, name, title, quotes);
            }
        }
    }
    for page in &site.pages {
        for block in &page.blocks {
            if block.text.chars().count() > 100 {
                continue;
            }
            let Some((name, role)) =
                block.text.split_once(", ").or_else(|| block.text.split_once(" - ")).or_else(|| block.text.split_once(" – "))
            else {
                continue;
            };
            let role_lower = role.to_lowercase();
            let name_words = name.split_whitespace().count();
            let looks_like_name =
                (2..=4).contains(&name_words) && name.split_whitespace().all(|w| w.chars().next().is_some_and(char::is_uppercase));
            if looks_like_name && FOUNDER_ROLES.iter().any(|r| role_lower.contains(r)) && role.chars().count() <= 160 {
                add_founder(proposal, name.trim(), Some(role.trim()), vec![evidence(page, &block.text)]);
            }
        }
    }
}

fn add_founder(proposal: &mut Proposal, name: &str, title: Option<&str>, quotes: Vec<Evidence>) {
    if proposal.founders.len() >= 6 || proposal.founders.iter().any(|f| f.value.name.eq_ignore_ascii_case(name)) {
        return;
    }
    proposal
        .founders
        .push(Proposed { value: DraftFounder { name: name.to_owned(), title: title.map(str::to_owned), bio: None }, evidence: quotes });
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn titles_split_at_the_first_separator() {
        assert_eq!(split_title("Metricly - Privacy-first analytics"), ("Metricly", Some("Privacy-first analytics")));
        assert_eq!(split_title("Shelfwise | Inventory | Books"), ("Shelfwise", Some("Inventory | Books")));
        assert_eq!(split_title("Quillnote"), ("Quillnote", None));
    }

    #[test]
    fn a_founding_date_with_multibyte_characters_does_not_panic() {
        let page = Page {
            url: "https://a.example/".into(),
            json_ld: vec![serde_json::json!({"@type": "Organization", "foundingDate": "201€"})],
            ..Page::default()
        };
        let site = SiteSnapshot { home_url: page.url.clone(), pages: vec![page], skipped: vec![] };
        assert!(!draft(&site, &[]).fields.contains_key(&FieldName::FoundedYear));
    }

    #[test]
    fn phrases_match_whole_words() {
        assert!(contains_phrase("Privacy-first product analytics", "Analytics"));
        assert!(!contains_phrase("Psychoanalytics", "Analytics"));
        assert!(contains_phrase("Testing & QA tools", "Testing & QA"));
        assert_eq!(cut_words("one two three four", 9), "one two");
    }
}
