//! Facts a site states about the company: its pricing, where it is, when it was founded, and
//! how to reach it.

use super::*;

/// Whether a text states a price: a currency next to a number.
fn states_price(text: &str) -> bool {
    let lower = text.to_lowercase();
    let has_digit = lower.chars().any(|c| c.is_ascii_digit());
    has_digit && (["$", "€", "£", "¥", "usd", "eur", "gbp", " euro", "dollar", "chf"].iter().any(|c| lower.contains(c)))
}

/// Pricing model and summary, from pricing pages (else the homepage).
pub(super) fn pricing(site: &SiteSnapshot, proposal: &mut Proposal) {
    // The product's own pricing only: a pricing page, or a section headed for it; never a
    // partner's or a competitor's price (`meaning`).
    let subject = Subject::Field(FieldName::PricingSummary);
    let mut pages: Vec<&Page> = pages_about(site, &["pricing", "prices", "plans", "preise", "tarif", "precios", "prezzi"]).collect();
    pages.extend(site.pages.first());
    let mut lines: Vec<String> = Vec::new();
    let mut quotes: Vec<Evidence> = Vec::new();
    let mut cue_quotes: Vec<(String, Evidence)> = Vec::new();
    for page in &pages {
        for block in blocks_for(page, subject) {
            if matches!(block.kind, BlockKind::Heading(_))
                || block.text.chars().count() > 300
                || !meaning::in_labelled_section(subject, page, block)
            {
                continue;
            }
            let lower = block.text.to_lowercase();
            for (model, cues) in PRICING_MODELS {
                if cues.iter().any(|cue| lower.contains(cue)) && !cue_quotes.iter().any(|(m, _)| m == model) {
                    cue_quotes.push(((*model).to_owned(), evidence(page, &block.text, Basis::LabelledSection)));
                }
            }
            if (states_price(&block.text) || lower.contains("free forever") || lower.contains("free plan")) && lines.len() < 4 {
                let plan = block.section.as_deref().filter(|s| s.chars().count() <= 40 && !lower.contains(&s.to_lowercase()));
                let plan = plan.filter(|p| !["pricing", "preise", "prices", "plans", "tarifs"].contains(&p.to_lowercase().as_str()));
                match plan {
                    Some(plan) => {
                        lines.push(format!("{plan}: {}", block.text));
                        quotes.push(evidence(page, plan, Basis::LabelledSection));
                    }
                    None => lines.push(block.text.clone()),
                }
                quotes.push(evidence(page, &block.text, Basis::LabelledSection));
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
pub(super) fn place(site: &SiteSnapshot, proposal: &mut Proposal) {
    for (page, object) in json_ld(site, &["Organization", "Corporation", "LocalBusiness", "PostalAddress"]) {
        let address = if is_type(object, &["PostalAddress"]) { object } else { &object["address"] };
        if let Some(raw) = string_at(address, "addressCountry").or_else(|| string_at(&address["addressCountry"], "name"))
            && let Some(code) = country_of(raw)
        {
            proposal.fields.entry(FieldName::Country).or_insert_with(|| text(code, page, raw, Basis::StructuredData));
        }
        if let Some(city) = string_at(address, "addressLocality").filter(|c| c.chars().count() <= 120) {
            proposal.fields.entry(FieldName::City).or_insert_with(|| text(city, page, city, Basis::StructuredData));
        }
    }
    if proposal.fields.contains_key(&FieldName::Country) && proposal.fields.contains_key(&FieldName::City) {
        return;
    }
    for page in &site.pages {
        for block in blocks_for(page, Subject::Field(FieldName::Country)) {
            if block.text.chars().count() > 200 {
                continue;
            }
            let parts: Vec<&str> = block.text.split(',').map(str::trim).collect();
            if parts.len() < 2 {
                continue;
            }
            let Some(code) = country_of(parts[parts.len() - 1]) else { continue };
            proposal.fields.entry(FieldName::Country).or_insert_with(|| text(code, page, &block.text, Basis::PageText));
            let city = parts[parts.len() - 2];
            let city = ["Made in ", "Based in ", "Headquartered in ", "Located in ", "Sitz in "]
                .iter()
                .find_map(|prefix| city.strip_prefix(prefix))
                .unwrap_or(city)
                .trim_start_matches(|c: char| c.is_ascii_digit() || c == ' ' || c == '-');
            let words = city.split_whitespace().count();
            if (1..=3).contains(&words) && city.chars().next().is_some_and(char::is_uppercase) && !city.chars().any(|c| c.is_ascii_digit())
            {
                proposal.fields.entry(FieldName::City).or_insert_with(|| text(city, page, &block.text, Basis::PageText));
            }
        }
    }
}

/// The founding year: what JSON-LD `foundingDate` and the text ("founded in 2019", "since
/// 2021") state, when they agree; a site that states two years leaves it blank.
pub(super) fn founded(site: &SiteSnapshot, proposal: &mut Proposal) {
    let statements = meaning::founding_statements(site);
    let Some(first) = statements.first() else { return };
    if statements.iter().all(|statement| statement.year == first.year) {
        proposal.fields.insert(FieldName::FoundedYear, text(&first.year, first.page, &first.quote, first.basis));
    }
}

/// The contact address: a `mailto:` link, else an address in the text, else JSON-LD.
pub(super) fn contact(site: &SiteSnapshot, proposal: &mut Proposal) {
    for page in &site.pages {
        for link in &page.links {
            if let Some(address) = link.url.strip_prefix("mailto:") {
                let address = address.split('?').next().unwrap_or("").trim();
                if kernel::Email::parse(address).is_ok() {
                    proposal.fields.insert(FieldName::ContactEmail, text(address, page, &link.url, Basis::Metadata));
                    return;
                }
            }
        }
    }
    for page in &site.pages {
        for block in blocks_for(page, Subject::Field(FieldName::ContactEmail)) {
            for word in block.text.split_whitespace() {
                let word =
                    word.trim_matches(|c: char| !c.is_alphanumeric() && c != '@' && c != '.' && c != '-' && c != '_').trim_end_matches('.');
                if word.contains('@') && kernel::Email::parse(word).is_ok() {
                    proposal.fields.insert(FieldName::ContactEmail, text(word, page, &block.text, Basis::PageText));
                    return;
                }
            }
        }
    }
    if let Some((page, address)) =
        json_ld(site, &["Organization", "Corporation", "LocalBusiness"]).find_map(|(p, o)| string_at(o, "email").map(|e| (p, e)))
        && kernel::Email::parse(address.trim_start_matches("mailto:")).is_ok()
    {
        proposal.fields.insert(FieldName::ContactEmail, text(address.trim_start_matches("mailto:"), page, address, Basis::StructuredData));
    }
}
