//! `ExtractiveDrafter`: drafts without a model. Every value is text the site states (a title,
//! a heading, a paragraph, a list item, a meta tag, a JSON-LD value or a link), and its quote is
//! that text, so the grounding check has nothing to drop unless extraction went wrong.

use async_trait::async_trait;
use drafts::grounding::{CategoryRef, Proposal, SocialLink};
use drafts::meaning::{self, Subject};
use drafts::site::{BlockKind, BlockRole, Page, SiteSnapshot, TextBlock};
use drafts::{Basis, DraftFounder, Drafter, DrafterError, Evidence, FieldName, FieldValue, Proposed};
use drafts::{people, places, prices};
use kernel::{Faq, SocialKey};
use serde_json::Value;

mod facts;
mod sections;

use facts::{contact, founded, place, pricing};
use sections::{faqs, founders, lists, media};

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
/// Headings above feature lists.
const FEATURE_HEADINGS: &[&str] = &[
    "feature",
    "funktionen",
    "fonctionnalit",
    "funciones",
    "what you get",
    "capabilities",
    "everything you need",
    "how it works",
    " works ",
    " does ",
    "can do",
    "provides",
    "what's inside",
    "what’s inside",
    "you can do",
    " helps ",
    "functions",
    "what's included",
    "what’s included",
    "highlights",
];
/// Headings above lists of reasons to choose the product.
const USP_HEADINGS: &[&str] = &["why", "benefit", "vorteile", "warum", "pourquoi", "por qué", "advantages"];
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

fn evidence(page: &Page, quote: &str, basis: Basis) -> Evidence {
    Evidence::new(page.url.clone(), quote, basis)
}

fn text(value: &str, page: &Page, quote: &str, basis: Basis) -> Proposed<FieldValue> {
    Proposed { value: FieldValue::Text(value.to_owned()), evidence: vec![evidence(page, quote, basis)] }
}

/// The blocks of a page that may be evidence of `subject` (not a testimonial's, a partner's,
/// a competitor's or the roadmap's, nor a team page's roles, as `meaning` rules).
fn blocks_for(page: &Page, subject: Subject) -> impl Iterator<Item = &TextBlock> + '_ {
    let people = meaning::about_people(&page.url) && !meaning::people_page_supports(subject);
    page.blocks.iter().filter(move |block| !people && block.role.can_support(subject))
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
        let path = meaning::page_path(&page.url);
        words.iter().any(|word| path.contains(word))
    })
}

/// A name the title or metadata write in lower case ("zettelkraft — notes for …") as the
/// site's sentences write it, when they capitalise it more often than not ("Zettelkraft is
/// free"), quoted from the first block that does.
fn as_the_text_writes_it(site: &SiteSnapshot, name: Proposed<FieldValue>) -> Proposed<FieldValue> {
    let Some(lower) = name.value.as_text().filter(|n| !n.chars().any(char::is_uppercase) && !n.contains(' ')) else { return name };
    let capitalised: String = lower.chars().take(1).flat_map(char::to_uppercase).chain(lower.chars().skip(1)).collect();
    let mut counts = (0, 0);
    let mut first: Option<(&Page, &TextBlock)> = None;
    for page in &site.pages {
        for block in page.blocks.iter().filter(|block| block.role == BlockRole::Content) {
            for word in block.text.split(|c: char| !c.is_alphanumeric()) {
                if word == lower {
                    counts.0 += 1;
                } else if word == capitalised {
                    counts.1 += 1;
                    first.get_or_insert((page, block));
                }
            }
        }
    }
    match first {
        Some((page, block)) if counts.1 > counts.0 => text(&capitalised, page, &block.text, Basis::NamesProduct),
        _ => name,
    }
}

/// Writes a proposal from what the site says.
pub fn draft(site: &SiteSnapshot, categories: &[CategoryRef]) -> Proposal {
    let mut proposal = Proposal::default();
    let Some(home) = site.pages.first() else { return proposal };
    let organizations =
        ["Organization", "Corporation", "LocalBusiness", "SoftwareApplication", "WebApplication", "MobileApplication", "Product"];

    // Name: og:site_name, else a JSON-LD name, else the title up to its separator.
    let name = if let Some(site_name) = home.open_graph.get("og:site_name").filter(|n| n.chars().count() <= 80) {
        Some(text(site_name, home, site_name, Basis::Metadata))
    } else if let Some((page, name)) = json_ld(site, &organizations).find_map(|(page, o)| string_at(o, "name").map(|n| (page, n))) {
        Some(text(name, page, name, Basis::StructuredData))
    } else {
        home.title.as_deref().map(|title| {
            let name = split_title(title).0;
            text(name, home, title, Basis::Metadata)
        })
    };
    let name = name.map(|name| as_the_text_writes_it(site, name));
    let name_text = name.as_ref().and_then(|n| n.value.as_text().map(str::to_owned)).unwrap_or_default();
    if let Some(name) = name.filter(|n| n.value.as_text().is_some_and(|t| t.chars().count() <= 500)) {
        proposal.fields.insert(FieldName::Name, name);
    }

    // Tagline: the homepage's first h1 when it is not just the name, else the title after it.
    let h1 = blocks_for(home, Subject::Field(FieldName::Tagline)).find(|b| b.kind == BlockKind::Heading(1)).map(|b| b.text.as_str());
    let tagline = match h1 {
        Some(h1) if !h1.eq_ignore_ascii_case(&name_text) && h1.chars().count() <= 200 => Some(text(h1, home, h1, Basis::PageText)),
        _ => home
            .title
            .as_deref()
            .and_then(|title| split_title(title).1.filter(|t| t.chars().count() <= 200).map(|t| text(t, home, title, Basis::Metadata))),
    };
    if let Some(tagline) = tagline {
        proposal.fields.insert(FieldName::Tagline, tagline);
    }

    // Short description: the meta description, else og:description; but a meta description
    // that sells ("… £129, no subscription.") gives way to the homepage's first sentence
    // that says what the product is ("Mistlebrook is a small sensor that …").
    let short = home.meta_description.as_deref().or_else(|| home.open_graph.get("og:description").map(String::as_str));
    let names = meaning::product_names(site, Some(&name_text));
    let says_what_it_is = blocks_for(home, Subject::Field(FieldName::ShortDescription))
        .filter(|block| block.kind == BlockKind::Paragraph)
        .filter_map(|block| meaning::sentences(&block.text).first().copied())
        .find(|sentence| {
            // "Wicklow is …", "Wicklow texts your clients …": the name, then what it is or does.
            let starts_with_name = names.iter().any(|name| {
                let rest = sentence.get(name.len()..).unwrap_or("");
                !name.is_empty()
                    && sentence.starts_with(name.as_str())
                    && rest.starts_with(' ')
                    && rest.trim_start().chars().next().is_some_and(char::is_lowercase)
            });
            // "Saltmarsh doesn't play bird calls itself.": what it is not is no description.
            let denies = names.iter().filter(|name| !name.is_empty()).any(|name| {
                let rest = sentence.get(name.len()..).unwrap_or("").trim_start().to_lowercase();
                ["doesn't", "doesn’t", "does not", "isn't", "isn’t", "is not", "won't", "won’t", "will not", "never", "can't", "cannot"]
                    .iter()
                    .any(|no| rest.starts_with(no))
            });
            starts_with_name && !denies && (30..=300).contains(&sentence.chars().count()) && !prices::states_price(sentence)
        });
    // "Saltmarsh: a field notebook for birders and coastal walkers. £6, once.": a hero line or
    // meta description that names the product, then says what it is, then sells. What it is,
    // as a sentence of its own.
    let after_name = |line: &str| -> Option<String> {
        let rest = names
            .iter()
            .filter(|name| !name.is_empty())
            .find_map(|name| [": ", " — ", " – "].iter().find_map(|separator| line.strip_prefix(name.as_str())?.strip_prefix(separator)))?;
        let first = meaning::sentences(rest).first().copied()?;
        let lower_start = first.chars().next().is_some_and(char::is_lowercase);
        if !lower_start || !(20..=300).contains(&first.chars().count()) || prices::states_price(first) {
            return None;
        }
        let mut sentence: String = first.chars().take(1).flat_map(char::to_uppercase).chain(first.chars().skip(1)).collect();
        if !sentence.ends_with(['.', '!']) {
            sentence.push('.');
        }
        Some(sentence)
    };
    let named_hero = h1
        .and_then(|h1| after_name(h1).map(|said| (said, h1, Basis::PageText)))
        .or_else(|| short.and_then(|short| after_name(short).map(|said| (said, short, Basis::Metadata))));
    // A meta description that sells or never names the product ("Fewer empty chairs.") is a
    // slogan, not a description.
    let slogan = |short: &str| {
        let opens_with_name = names.iter().any(|name| !name.is_empty() && short.starts_with(name.as_str()));
        prices::states_price(short) || !meaning::names_product(short, &names) || !opens_with_name
    };
    match (short.filter(|s| s.chars().count() <= 500), says_what_it_is) {
        (Some(short), Some(sentence)) if slogan(short) => {
            proposal.fields.insert(FieldName::ShortDescription, text(sentence, home, sentence, Basis::PageText));
        }
        (short, None) if short.is_none_or(slogan) && named_hero.is_some() => {
            if let Some((said, line, basis)) = named_hero {
                proposal.fields.insert(FieldName::ShortDescription, text(&said, home, line, basis));
            }
        }
        (Some(short), _) => {
            proposal.fields.insert(FieldName::ShortDescription, text(short, home, short, Basis::Metadata));
        }
        _ => {}
    }

    // Description: substantial paragraphs of the homepage, then of an about page; never an
    // FAQ's answer (a paragraph in an FAQ section or right after a question) or a
    // testimonial's words (`blocks_for` leaves those out by their role).
    let mut paragraphs: Vec<Evidence> = Vec::new();
    let about_pages: Vec<&Page> =
        pages_about(site, &["about", "ueber-uns", "uber-uns", "über-uns", "a-propos", "company", "story"]).collect();
    for (page, limit) in std::iter::once((home, 3)).chain(about_pages.iter().map(|page| (*page, 2))) {
        let answers: Vec<&str> =
            page.blocks.windows(2).filter(|pair| pair[0].text.ends_with('?')).map(|pair| pair[1].text.as_str()).collect();
        let found = blocks_for(page, Subject::Field(FieldName::Description))
            .filter(|b| b.kind == BlockKind::Paragraph && b.text.chars().count() >= 60)
            .filter(|b| !b.section.as_deref().is_some_and(|section| meaning::labels(Subject::Faq, section) && !section.trim().is_empty()))
            .filter(|b| !answers.contains(&b.text.as_str()))
            .take(limit);
        for block in found {
            if !paragraphs.iter().any(|e| e.quote == block.text) {
                paragraphs.push(evidence(page, &block.text, Basis::PageText));
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
        .filter_map(|(page, o)| string_at(o, "applicationCategory").map(|c| (c.to_owned(), evidence(page, c, Basis::StructuredData))))
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
            proposal.fields.insert(
                FieldName::Keywords,
                Proposed { value: FieldValue::List(items), evidence: vec![evidence(home, keywords, Basis::Metadata)] },
            );
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
                    evidence: vec![evidence(page, &link.url, Basis::Metadata)],
                });
            }
        }
    }

    // SEO: the homepage's title and meta description, cut to 70 and 170 characters.
    if let Some(title) = &home.title {
        proposal.seo_title = Some(Proposed { value: cut_words(title, 70), evidence: vec![evidence(home, title, Basis::Metadata)] });
    }
    if let Some(meta) = &home.meta_description {
        proposal.seo_meta = Some(Proposed { value: cut_words(meta, 170), evidence: vec![evidence(home, meta, Basis::Metadata)] });
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

/// What the product says it is and does: the homepage's title, meta description, and the
/// sentences of its content and of a features page, without FAQs, questions, testimonials or
/// anyone's biography, each with its page and kind of evidence.
fn product_texts(site: &SiteSnapshot) -> Vec<(&Page, String, Basis)> {
    let Some(home) = site.pages.first() else { return Vec::new() };
    let mut texts: Vec<(&Page, String, Basis)> =
        home.title.iter().chain(home.meta_description.iter()).map(|text| (home, text.clone(), Basis::Metadata)).collect();
    for page in std::iter::once(home).chain(pages_about(site, &["feature", "how-it-works", "product"])) {
        for block in &page.blocks {
            let faq = block.section.as_deref().is_some_and(|section| meaning::labels(Subject::Faq, section) && !section.trim().is_empty());
            if block.role != drafts::site::BlockRole::Content || faq || block.text.chars().count() > 1500 {
                continue;
            }
            for sentence in meaning::sentences(&block.text) {
                if !sentence.ends_with('?') && !meaning::is_biography(sentence) && sentence.chars().count() <= 500 {
                    texts.push((page, sentence.to_owned(), Basis::PageText));
                }
            }
        }
    }
    texts
}

/// Whether a category's name stands in a text for another tool the product works with ("Export
/// to CSV, or straight to your invoicing program", "syncs with your CRM"), not for its topic.
fn names_a_tool_it_works_with(text: &str, name: &str) -> bool {
    let lower = text.to_lowercase();
    let name = name.to_lowercase();
    lower.match_indices(&name).any(|(at, _)| {
        let before = lower[..at].trim_end();
        let after = lower[at + name.len()..].trim_start();
        let yours = before.ends_with(" your") || before.ends_with(" existing");
        let tool = ["program", "software", "tool", "app", "system", "platform", "provider"].iter().any(|t| after.starts_with(t));
        yours && (tool || before.ends_with("with your") || before.ends_with("to your"))
    })
}

/// The lower-cased words of a text.
fn words_of(text: &str) -> Vec<String> {
    text.to_lowercase().split(|c: char| !c.is_alphanumeric()).filter(|w| !w.is_empty()).map(str::to_owned).collect()
}

/// The categories whose topic the product's own words are most about, up to two: each of its
/// texts scores a category for its name (three) and for each word stem of its name and
/// description it uses, a stem shared by many categories counting less. A category needs its
/// name, or two of its stems, among the product's words: one word in common ("tracks each
/// parcel") is not a topic.
fn categorise(site: &SiteSnapshot, categories: &[CategoryRef], proposal: &mut Proposal) {
    const ENOUGH: f64 = 1.5;
    let texts = product_texts(site);
    let names = meaning::product_names(site, None);
    let stems: Vec<Vec<String>> = categories.iter().map(CategoryRef::stems).collect();
    let mut shared: std::collections::HashMap<&str, usize> = std::collections::HashMap::new();
    for stem in stems.iter().flatten() {
        *shared.entry(stem.as_str()).or_default() += 1;
    }
    let words: Vec<Vec<String>> = texts.iter().map(|(_, text, _)| words_of(text)).collect();
    let mut scored: Vec<(f64, &CategoryRef, Vec<Evidence>)> = Vec::new();
    for (category, stems) in categories.iter().zip(&stems) {
        let mut score = 0.0;
        // Each text that scores, with what it matched ("" for the name).
        let mut hits: Vec<(f64, usize, Vec<&str>)> = Vec::new();
        for (i, (_, text, _)) in texts.iter().enumerate() {
            let mut matched: Vec<&str> = Vec::new();
            let mut hit = 0.0;
            if contains_phrase(text, &category.name) && !names_a_tool_it_works_with(text, &category.name) {
                hit += 3.0;
                matched.push("");
            }
            for stem in stems {
                if words[i].iter().any(|word| word.starts_with(stem.as_str())) {
                    hit += 1.0 / shared[stem.as_str()] as f64;
                    matched.push(stem);
                }
            }
            // The page's title and description, and sentences that name the product, say what it
            // is; other sentences only touch on it.
            let names_it = meaning::names_product(&texts[i].1, &names);
            let weight = if texts[i].2 == Basis::Metadata || names_it { 2.0 } else { 1.0 };
            let hit = hit * weight;
            if hit > 0.0 {
                score += hit;
                hits.push((hit, i, matched));
            }
        }
        let topic = |covered: &[&str]| covered.contains(&"") || covered.len() >= 2;
        let mut all: Vec<&str> = hits.iter().flat_map(|(_, _, matched)| matched.iter().copied()).collect();
        all.sort_unstable();
        all.dedup();
        if score >= ENOUGH && topic(&all) {
            // The strongest texts, then as few more as show what the grounding check asks:
            // the name, or two of the category's words.
            hits.sort_by(|a, b| b.0.total_cmp(&a.0));
            let mut covered: Vec<&str> = Vec::new();
            let mut quotes = Vec::new();
            for (_, i, matched) in &hits {
                let adds = matched.iter().any(|m| !covered.contains(m));
                if quotes.len() < 2 && (quotes.is_empty() || adds) || !topic(&covered) && adds && quotes.len() < 4 {
                    quotes.push(evidence(texts[*i].0, &texts[*i].1, texts[*i].2));
                    covered.extend(matched.iter().copied());
                    covered.sort_unstable();
                    covered.dedup();
                }
                if quotes.len() >= 2 && topic(&covered) {
                    break;
                }
            }
            scored.push((score, category, quotes));
        }
    }
    scored.sort_by(|a, b| b.0.total_cmp(&a.0).then_with(|| a.1.slug.cmp(&b.1.slug)));
    let best = scored.first().map_or(0.0, |(score, _, _)| *score);
    scored.retain(|(score, _, _)| *score >= best * 0.75);
    scored.truncate(2);
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

#[cfg(test)]
mod tests;
