//! The grounding check every drafter's proposal passes through, so nothing invented reaches a
//! draft. A value survives only when
//! - it has at least one quote, and every quote is verbatim text (whitespace folded) of a page
//!   that was read, found on that page;
//! - every number, year, e-mail address and link in the value appears in its own quotes;
//! - most of its words (four letters or more) appear in its quotes, so a quote cannot stand
//!   behind a paraphrase that says something else;
//! - fields with a closed vocabulary (categories, country, pricing model) hold a known value that
//!   their quotes name.

use crate::meaning::{self, StructuredValue, Subject};
use crate::model::{Basis, DraftFounder, DraftSeo, Evidence, FieldName, FieldValue, Proposed};
use crate::people;
use crate::places;
use crate::prices::{self, PRICING_MODELS};
use crate::site::{BlockRole, Page, SiteSnapshot, fold_whitespace};
use kernel::Faq;
use std::collections::{BTreeMap, HashMap};

/// A category a drafter may choose, with the description the directory gives it.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct CategoryRef {
    pub slug: String,
    pub name: String,
    pub description: String,
}

/// Words of category descriptions that say nothing of a category's topic.
const NOT_TOPICS: &[&str] = &[
    "with", "your", "their", "them", "that", "this", "from", "into", "more", "other", "others", "tools", "tool", "apps", "make", "find",
    "keep", "every", "than", "over", "what", "when", "where", "which", "while", "about", "help", "helps", "products", "product",
    "software", "online", "create", "content", "team", "teams", "time", "work", "start", "easy", "simple", "better",
    // Words of a category's description that any product's page says ("faster", "before they
    // ship").
    "faster", "before", "catch", "ship", "carry", "own", "take", "sell",
];

impl CategoryRef {
    /// The stems of the words a text about this category uses: the first five letters of each
    /// word of four letters or more of its name and description, but for words that say
    /// nothing of a topic ("with", "tools").
    pub fn stems(&self) -> Vec<String> {
        let name = self.name.to_lowercase();
        let description = self.description.to_lowercase();
        // Every word of the name ("AI", "ML Ops"); the description's words of four letters or
        // more that say something of a topic.
        let name_words = name.split(|c: char| !c.is_alphanumeric()).filter(|word| word.chars().count() >= 2);
        let description_words =
            description.split(|c: char| !c.is_alphanumeric()).filter(|word| word.chars().count() >= 4 && !NOT_TOPICS.contains(word));
        let mut stems: Vec<String> = name_words.chain(description_words).map(|word| word.chars().take(5).collect()).collect();
        stems.sort();
        stems.dedup();
        stems
    }
}

/// A social link a drafter found: platform key and address.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SocialLink {
    pub key: String,
    pub url: String,
}

/// What a drafter proposes; everything passes `ground` before it reaches a draft.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Proposal {
    pub fields: BTreeMap<FieldName, Proposed<FieldValue>>,
    pub faqs: Vec<Proposed<Faq>>,
    pub founders: Vec<Proposed<DraftFounder>>,
    pub socials: Vec<Proposed<SocialLink>>,
    pub seo_title: Option<Proposed<String>>,
    pub seo_meta: Option<Proposed<String>>,
}

/// A value the check dropped, and why.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Dropped {
    /// `name`, `features[2]`, `faqs[0]`, `socials.x`, ...
    pub what: String,
    pub why: String,
}

/// Where a text of a page sits.
enum Place {
    /// The page's `blocks[i]`.
    Block(usize),
    Structured(StructuredValue),
    /// The title, meta tags, OpenGraph, or a link, image, frame or icon.
    Metadata,
}

/// A text of a page a quote may come from, whitespace folded.
struct Source {
    text: String,
    place: Place,
}

/// The texts of every page read, each with its place, and the names the product goes by.
struct Corpus<'a> {
    pages: HashMap<&'a str, (&'a Page, Vec<Source>)>,
    product_names: Vec<String>,
}

fn sources_of(page: &Page) -> Vec<Source> {
    let mut sources: Vec<Source> =
        page.blocks.iter().enumerate().map(|(i, block)| Source { text: fold_whitespace(&block.text), place: Place::Block(i) }).collect();
    sources.extend(
        meaning::structured_values(page)
            .into_iter()
            .map(|value| Source { text: fold_whitespace(&value.text), place: Place::Structured(value) }),
    );
    let metadata = page
        .title
        .iter()
        .chain(&page.meta_description)
        .chain(&page.meta_keywords)
        .chain(page.open_graph.values())
        // Addresses only: a link's text or an image's description sits in a block too, whose
        // role must decide (a roadmap item written as a link is still on the roadmap).
        .chain(page.links.iter().map(|link| &link.url))
        .chain(page.images.iter().map(|image| &image.url))
        .chain(&page.embeds)
        .chain(&page.icons);
    sources.extend(metadata.map(|text| Source { text: fold_whitespace(text), place: Place::Metadata }));
    sources.retain(|source| !source.text.is_empty());
    sources
}

impl<'a> Corpus<'a> {
    /// The pages of `snapshot`; the product goes by `drafted` (the proposal's name) too, as the
    /// drafter's rules read it.
    fn of(snapshot: &'a SiteSnapshot, drafted: Option<&str>) -> Self {
        let pages = snapshot.pages.iter().map(|page| (page.url.as_str(), (page, sources_of(page)))).collect();
        Self { pages, product_names: meaning::product_names(snapshot, drafted) }
    }

    /// Why the evidence fails for `subject`, or `None` when every quote is verbatim text of its
    /// page, sits in a block that may support `subject`, and is the kind of evidence it claims
    /// to be (a kind `subject` accepts).
    fn check_quotes(&self, evidence: &[Evidence], subject: Subject) -> Option<String> {
        if evidence.is_empty() {
            return Some("no quote from the website supports it".into());
        }
        for item in evidence {
            let quote = fold_whitespace(&item.quote);
            if quote.is_empty() {
                return Some("a quote is empty".into());
            }
            let Some((page, sources)) = self.pages.get(item.url.as_str()) else {
                return Some(format!("quotes a page that was not read ({})", item.url));
            };
            let mut holders = sources.iter().filter(|source| contains_on_boundaries(&source.text, &quote)).peekable();
            if holders.peek().is_none() {
                return Some(format!("the quote {:?} is not on {}", shorten(&quote), item.url));
            }
            let mut why = None;
            if !holders.any(|source| match self.fits(page, source, item.basis, subject) {
                Ok(()) => true,
                Err(reason) => {
                    why.get_or_insert(reason);
                    false
                }
            }) {
                return why.map(|reason| format!("the quote {:?} {reason}", shorten(&quote)));
            }
            if let Some(accepted) = meaning::accepted_bases(subject)
                && !accepted.contains(&item.basis)
            {
                let kinds: Vec<&str> = accepted.iter().map(|basis| basis.as_str()).collect();
                return Some(format!("{subject} needs evidence of the kinds {}, not {}", kinds.join(", "), item.basis.as_str()));
            }
        }
        None
    }

    /// Whether the blocks the founder's quotes sit in say that the person (`founder`: name,
    /// title and bio joined) founded this product: one block naming the person with a founding
    /// word ("Ines Duarte, Co-founder & CEO", "founded in 2019 by Ines Duarte"), or a team card
    /// (a block with the name, the next one its founding role, both quoted). Never when a block
    /// makes the person the founder of another company. Each quote is judged by the whole block
    /// it sits in, so a cut quote ("Sam Altmanson, founder") cannot drop what follows ("of
    /// Northwind Ventures").
    fn founding_statement(&self, founder: &str, evidence: &[Evidence]) -> bool {
        let mut held: Vec<(&Page, usize)> = Vec::new();
        for item in evidence {
            let quote = fold_whitespace(&item.quote);
            let Some((page, sources)) = self.pages.get(item.url.as_str()) else { return false };
            for source in sources {
                if let Place::Block(i) = source.place
                    && contains_on_boundaries(&source.text, &quote)
                {
                    held.push((page, i));
                }
            }
        }
        let another = |text: &str| meaning::founder_of_another(text, &self.product_names);
        if held.iter().any(|(page, i)| another(&page.blocks[*i].text)) {
            return false;
        }
        // The person's name: the founder's text up to its title.
        let name: Vec<String> = founder.split_whitespace().take(2).map(str::to_lowercase).collect();
        let names_person = |text: &str| {
            let text = text.to_lowercase();
            !name.is_empty() && name.iter().all(|word| text.contains(word.as_str()))
        };
        held.iter().any(|(page, i)| {
            let block = &page.blocks[*i].text;
            let card = held.iter().any(|(other, j)| {
                other.url == page.url
                    && *j == i + 1
                    && meaning::names_founding_people(&page.blocks[*j].text)
                    && !another(&page.blocks[*j].text)
            });
            let said = people::founders_in(block, &self.product_names).iter().any(|mention| founder.starts_with(&mention.name));
            said || names_person(block) && (meaning::names_founding_people(block) || card)
        })
    }

    /// Whether the quote's place on `page` may support `subject` as evidence of kind `basis`.
    fn fits(&self, page: &Page, source: &Source, basis: Basis, subject: Subject) -> Result<(), String> {
        let role = match &source.place {
            Place::Block(i) => page.blocks[*i].role,
            Place::Structured(value) => value.role(),
            Place::Metadata => BlockRole::Content,
        };
        if !role.can_support(subject) {
            return Err(format!("sits in a {} block of the page, which cannot support {subject}", role.as_str()));
        }
        if matches!(source.place, Place::Block(_)) && meaning::about_people(&page.url) && !meaning::people_page_supports(subject) {
            return Err(format!("sits on a page about the company's people, which cannot support {subject}"));
        }
        let fits = match (&source.place, basis) {
            (Place::Structured(value), Basis::StructuredData) => value.supports(subject),
            (Place::Metadata, Basis::Metadata | Basis::PageText) => true,
            (Place::Block(i), Basis::LabelledSection) => meaning::in_labelled_section(subject, page, &page.blocks[*i]),
            (Place::Block(i), Basis::NamesProduct) => meaning::names_product(&page.blocks[*i].text, &self.product_names),
            (Place::Block(_), Basis::PageText) => true,
            _ => false,
        };
        if fits { Ok(()) } else { Err(format!("is not {} evidence of {subject} on the page", basis.as_str())) }
    }
}

/// Why a value is wrong in meaning though its quotes are verbatim, or `None`: a founder must be
/// said to have founded this product, a founding year must stand next to a founding word (and
/// the site must not state another), a paid pricing model must come from the product's own
/// pricing, and a roadmap item is not a feature.
fn check_meaning(subject: Subject, value: &str, evidence: &[Evidence], corpus: &Corpus, snapshot: &SiteSnapshot) -> Option<String> {
    let structured = evidence.iter().all(|e| e.basis == Basis::StructuredData);
    match subject {
        Subject::Founder => (!structured && !corpus.founding_statement(value, evidence))
            .then(|| "no block its quotes sit in says this person founded the product".into()),
        Subject::Field(FieldName::FoundedYear) => {
            let stated = structured
                || evidence.iter().any(|e| meaning::founding_year_in(&fold_whitespace(&e.quote), &corpus.product_names) == Some(value));
            if !stated {
                return Some(format!("no quote says the company was founded in {value}"));
            }
            let mut years: Vec<String> = meaning::founding_statements(snapshot).into_iter().map(|s| s.year).collect();
            years.sort();
            years.dedup();
            (years.len() > 1).then(|| format!("the site states more than one founding year ({})", years.join(", ")))
        }
        Subject::Field(FieldName::PricingModel) => {
            // "Free" and "open source" may be said anywhere the product speaks; a price plan
            // only in the product's own price sentences (never a partner's or a competitor's).
            let paid = !matches!(value, "free" | "open_source" | "contact_sales" | "free_trial");
            let own_pricing = structured || evidence.iter().all(|e| own_price_quote(e, corpus, snapshot));
            (paid && !own_pricing).then(|| "a paid pricing model needs evidence from the product's own pricing".into())
        }
        Subject::Field(FieldName::PricingSummary) if !structured => {
            // Every amount must stand in a sentence that states the product's own price.
            let own: Vec<String> = evidence
                .iter()
                .map(|e| (in_its_sentences(e, snapshot), e.basis == Basis::LabelledSection))
                .collect::<Vec<_>>()
                .iter()
                .flat_map(|(quote, labelled)| {
                    prices::own_price_sentences(quote, *labelled, &corpus.product_names).into_iter().map(str::to_owned)
                })
                .collect();
            if own.is_empty() {
                return Some("no quote states the product's own price".into());
            }
            let own_amounts: Vec<String> = own.iter().flat_map(|sentence| digit_runs(sentence)).collect();
            digit_runs(value)
                .into_iter()
                .find(|amount| !own_amounts.contains(amount))
                .map(|amount| format!("{amount} is not the product's own price: only someone else's sentence states it"))
        }
        Subject::Field(field @ (FieldName::Country | FieldName::City)) if !structured => {
            // The place must be the company's: said of it in a sentence, or an address line;
            // never a customer's, a partner's or a job's.
            let said = evidence.iter().any(|e| {
                let quote = fold_whitespace(&e.quote);
                let mut said = places::company_places(&quote, &corpus.product_names);
                said.extend(places::address_places(&quote));
                said.iter().any(|place| match field {
                    FieldName::Country => place.country == Some(value),
                    _ => place.city.as_deref().is_some_and(|city| city.eq_ignore_ascii_case(value)),
                })
            });
            (!said).then(|| format!("no quote says the company is in {value}"))
        }
        Subject::Field(FieldName::Categories) if !structured => {
            // What the product does, as its homepage or features page says it (or a sentence
            // naming it): never an FAQ's question or a person's biography.
            let home = snapshot.pages.first().map(|page| page.url.as_str());
            let describes = evidence.iter().any(|e| {
                let quote = fold_whitespace(&e.quote);
                let path = meaning::page_path(&e.url);
                let place = Some(e.url.as_str()) == home
                    || ["feature", "how-it-works", "product"].iter().any(|word| path.contains(word))
                    || meaning::names_product(&quote, &corpus.product_names);
                place && !quote.trim_end().ends_with('?') && !meaning::is_biography(&quote)
            });
            (!describes).then(|| "its quotes are not the product's own description of what it does".into())
        }
        Subject::Field(FieldName::Features | FieldName::Usps) => {
            meaning::is_roadmap_text(value).then(|| "it is on the roadmap, not in the product yet".into())
        }
        _ => None,
    }
}

/// Whether a quote states the product's own price: a sentence of its pricing, or one that names
/// it, that is no competitor's, partner's or provider's.
fn own_price_quote(evidence: &Evidence, corpus: &Corpus, snapshot: &SiteSnapshot) -> bool {
    let sentences = in_its_sentences(evidence, snapshot);
    matches!(evidence.basis, Basis::LabelledSection | Basis::NamesProduct)
        && !prices::own_price_sentences(&sentences, evidence.basis == Basis::LabelledSection, &corpus.product_names).is_empty()
}

/// A quote with the rest of the sentences it is part of on its page: a price quoted without
/// its sentence's "With a classic monitoring service," is still someone else's.
fn in_its_sentences(evidence: &Evidence, snapshot: &SiteSnapshot) -> String {
    let quote = fold_whitespace(&evidence.quote);
    let blocks = snapshot.pages.iter().filter(|page| page.url == evidence.url).flat_map(|page| &page.blocks);
    for block in blocks {
        let text = fold_whitespace(&block.text);
        let Some(start) = text.find(quote.as_str()) else { continue };
        let end = start + quote.len();
        let covering: Vec<&str> = meaning::sentences(&text)
            .into_iter()
            .filter(|sentence| {
                let at = sentence.as_ptr() as usize - text.as_ptr() as usize;
                at < end && at + sentence.len() > start
            })
            .collect();
        if !covering.is_empty() {
            return covering.join(" ");
        }
    }
    quote
}

/// Whether `needle` occurs in `text` without cutting a word or number at either end
/// (`$29` is not a quote of `$299`).
fn contains_on_boundaries(text: &str, needle: &str) -> bool {
    let starts_alnum = needle.chars().next().is_some_and(char::is_alphanumeric);
    let ends_alnum = needle.chars().next_back().is_some_and(char::is_alphanumeric);
    text.match_indices(needle).any(|(at, _)| {
        let before_ok = !starts_alnum || text[..at].chars().next_back().is_none_or(|c| !c.is_alphanumeric());
        let after_ok = !ends_alnum || text[at + needle.len()..].chars().next().is_none_or(|c| !c.is_alphanumeric());
        before_ok && after_ok
    })
}

fn shorten(text: &str) -> String {
    let mut short: String = text.chars().take(60).collect();
    if short.len() < text.len() {
        short.push('…');
    }
    short
}

/// Checks a field's value against its closed vocabulary, if it has one.
fn check_vocabulary(field: FieldName, value: &str, evidence: &[Evidence], categories: &[CategoryRef]) -> Option<String> {
    let quotes = evidence.iter().map(|e| e.quote.to_lowercase()).collect::<Vec<_>>().join(" ");
    match field {
        FieldName::Categories => {
            let Some(category) = categories.iter().find(|c| c.slug == value || c.name.eq_ignore_ascii_case(value)) else {
                return Some(format!("{value:?} is not a category of this directory"));
            };
            // Its name, or two words of its name or description ("help desk" and "live chat"
            // for Customer Support), as the drafter chooses categories.
            let quote_words = words(&quotes);
            let stems = category.stems().iter().filter(|stem| quote_words.iter().any(|word| word.starts_with(stem.as_str()))).count();
            let named = meaning::has_phrase(&quotes, &category.name) || stems >= 2;
            (!named).then(|| format!("no quote names the category {:?} or what it is about", category.name))
        }
        FieldName::Country => {
            let Some(country) = places::country(value) else {
                return Some(format!("{value:?} is not a country code we know"));
            };
            let joined = evidence.iter().map(|e| e.quote.as_str()).collect::<Vec<_>>().join(" ");
            let words: Vec<&str> = joined.split(|c: char| !c.is_alphanumeric() && c != '-').collect();
            // By its code, a name or an adjective ("a Dutch company"), or by a city that can
            // only be in it ("based in Porto").
            let mut said = places::company_places(&fold_whitespace(&joined), &[]);
            said.extend(places::address_places(&fold_whitespace(&joined)));
            let named = words.contains(&country.code)
                || country.names.iter().chain(country.adjectives).any(|name| meaning::has_phrase(&joined, name))
                || words.iter().any(|word| places::country_of_city(word) == Some(country.code))
                || said.iter().any(|place| place.country == Some(country.code));
            (!named).then(|| format!("no quote names the country {value}"))
        }
        FieldName::PricingModel => {
            if !PRICING_MODELS.iter().any(|(model, _)| *model == value) {
                return Some(format!("{value:?} is not a pricing model we name"));
            }
            // The words the drafter's rules read the model by ("free for 14 days" is a trial).
            let said = prices::cue_of(value, &quotes)
                || (value == "free_trial" && prices::free_for_a_while(&quotes))
                || (value == "freemium" && evidence.iter().any(|e| prices::names_free_plan(&e.quote)))
                || (value == "one_time" && evidence.iter().any(|e| prices::paid_once(&e.quote)));
            (!said).then(|| format!("no quote says the pricing is {value}"))
        }
        FieldName::FoundedYear => {
            let ok = value.len() == 4 && value.parse::<u16>().is_ok_and(|year| (1800..=2100).contains(&year));
            (!ok).then(|| format!("{value:?} is not a year"))
        }
        FieldName::ContactEmail => (!value.contains('@')).then(|| format!("{value:?} is not an e-mail address")),
        FieldName::DemoVideoUrl | FieldName::LogoUrl => {
            (!(value.starts_with("https://") || value.starts_with("http://"))).then(|| format!("{value:?} is not a link"))
        }
        _ => None,
    }
}

/// Runs the check; returns what survives and what was dropped.
pub fn ground(proposal: Proposal, snapshot: &SiteSnapshot, categories: &[CategoryRef]) -> (Proposal, Vec<Dropped>) {
    let drafted_name = proposal.fields.get(&FieldName::Name).and_then(|name| name.value.as_text()).map(str::to_owned);
    let corpus = Corpus::of(snapshot, drafted_name.as_deref());
    let mut dropped = Vec::new();
    let mut kept = Proposal::default();
    let mut drop = |what: String, why: String| dropped.push(Dropped { what, why });

    for (field, proposed) in proposal.fields {
        let subject = Subject::Field(field);
        if let Some(why) = corpus.check_quotes(&proposed.evidence, subject) {
            drop(field.as_str().into(), why);
            continue;
        }
        let check = |value: &str| {
            check_vocabulary(field, value, &proposed.evidence, categories)
                .or_else(|| check_wording(value, &proposed.evidence, needs_wording(field)))
                .or_else(|| check_meaning(subject, value, &proposed.evidence, &corpus, snapshot))
        };
        // A category may be proposed by name; the draft keeps its slug.
        let as_slug = |item: String| match field {
            FieldName::Categories => {
                categories.iter().find(|c| c.slug == item || c.name.eq_ignore_ascii_case(&item)).map_or(item, |c| c.slug.clone())
            }
            _ => item,
        };
        match proposed.value {
            FieldValue::Text(text) => match check(&text) {
                Some(why) => drop(field.as_str().into(), why),
                None if text.trim().is_empty() => drop(field.as_str().into(), "it is empty".into()),
                None => {
                    kept.fields.insert(field, Proposed { value: FieldValue::Text(text), evidence: proposed.evidence });
                }
            },
            FieldValue::List(items) => {
                let mut survivors = Vec::new();
                for (i, item) in items.into_iter().enumerate() {
                    match check(&item) {
                        Some(why) => drop(format!("{field}[{i}]"), why),
                        None if !item.trim().is_empty() && !survivors.contains(&as_slug(item.clone())) => survivors.push(as_slug(item)),
                        None => {}
                    }
                }
                if !survivors.is_empty() {
                    kept.fields.insert(field, Proposed { value: FieldValue::List(survivors), evidence: proposed.evidence });
                }
            }
        }
    }

    for (i, faq) in proposal.faqs.into_iter().enumerate() {
        let why = corpus
            .check_quotes(&faq.evidence, Subject::Faq)
            .or_else(|| check_wording(&format!("{} {}", faq.value.question, faq.value.answer), &faq.evidence, true));
        match why {
            Some(why) => drop(format!("faqs[{i}]"), why),
            None => kept.faqs.push(faq),
        }
    }
    for (i, founder) in proposal.founders.into_iter().enumerate() {
        let text = [Some(founder.value.name.as_str()), founder.value.title.as_deref(), founder.value.bio.as_deref()]
            .into_iter()
            .flatten()
            .collect::<Vec<_>>()
            .join(" ");
        let fits = founder.value.name.chars().count() <= 160
            && founder.value.title.as_ref().is_none_or(|t| t.chars().count() <= 160)
            && founder.value.bio.as_ref().is_none_or(|b| b.chars().count() <= 3000);
        let why = if fits { None } else { Some("longer than a founder's name (160), title (160) or bio (3000) may be".to_owned()) }
            .or_else(|| corpus.check_quotes(&founder.evidence, Subject::Founder))
            .or_else(|| check_wording(&text, &founder.evidence, true))
            .or_else(|| check_meaning(Subject::Founder, &text, &founder.evidence, &corpus, snapshot));
        match why {
            Some(why) => drop(format!("founders[{i}]"), why),
            None => kept.founders.push(founder),
        }
    }
    for social in proposal.socials {
        let link_ok = social.value.url.starts_with("https://") && social.value.url.chars().count() <= 500;
        let why = if link_ok { None } else { Some("a social link must be an https:// link of at most 500 characters".to_owned()) }
            .or_else(|| corpus.check_quotes(&social.evidence, Subject::Social))
            .or_else(|| check_wording(&social.value.url, &social.evidence, false));
        match why {
            Some(why) => drop(format!("socials.{}", social.value.key), why),
            None => kept.socials.push(social),
        }
    }
    for (name, seo) in [("seo.title", proposal.seo_title), ("seo.meta", proposal.seo_meta)] {
        let Some(seo) = seo else { continue };
        let why = corpus.check_quotes(&seo.evidence, Subject::Seo).or_else(|| check_wording(&seo.value, &seo.evidence, true));
        match why {
            Some(why) => drop(name.into(), why),
            None if name == "seo.title" => kept.seo_title = Some(seo),
            None => kept.seo_meta = Some(seo),
        }
    }
    (kept, dropped)
}

/// The SEO section a grounded proposal fills.
pub fn seo_of(proposal: &Proposal) -> Option<(DraftSeo, Vec<Evidence>)> {
    if proposal.seo_title.is_none() && proposal.seo_meta.is_none() {
        return None;
    }
    let mut evidence = Vec::new();
    let seo = DraftSeo {
        title: proposal.seo_title.as_ref().map(|p| {
            evidence.extend(p.evidence.iter().cloned());
            p.value.clone()
        }),
        meta: proposal.seo_meta.as_ref().map(|p| {
            evidence.extend(p.evidence.iter().cloned());
            p.value.clone()
        }),
    };
    Some((seo, evidence))
}

#[cfg(test)]
mod tests;
mod wording;

#[cfg(test)]
use wording::{Fact, facts};
use wording::{check_wording, digit_runs, needs_wording, words};
