//! Facts a site states about the company: its pricing, where it is, when it was founded, and
//! how to reach it.

use super::*;

/// Pricing model and summary: the sentences of the product's pricing pages (else of the
/// homepage) that state its own price or free tier (`drafts::prices`), never a partner's, a
/// provider's or a competitor's.
pub(super) fn pricing(site: &SiteSnapshot, proposal: &mut Proposal) {
    let subject = Subject::Field(FieldName::PricingSummary);
    let names = meaning::product_names(site, proposal.fields.get(&FieldName::Name).and_then(|n| n.value.as_text()));
    let mut pages: Vec<&Page> = pages_about(
        site,
        &["pricing", "price", "prices", "plans", "buy", "shop", "store", "membership", "preise", "tarif", "precios", "prezzi"],
    )
    .collect();
    pages.extend(site.pages.first());
    let mut lines: Vec<String> = Vec::new();
    let mut sentences: Vec<&str> = Vec::new();
    let mut quotes: Vec<Evidence> = Vec::new();
    // Each sentence taken, with the quote that holds it.
    let mut said_by: Vec<(&str, Evidence)> = Vec::new();
    for page in &pages {
        // A table that sets the product beside others ("Wicklow | none | 2 cents", "Remindly Pro |
        // €29 a month"): a price in a row another name begins is that one's.
        let cell = |block: &TextBlock| block.kind == BlockKind::ListItem;
        let compares = page.blocks.iter().any(|b| cell(b) && names.iter().any(|name| b.text.trim().eq_ignore_ascii_case(name)));
        let mut previous: Option<&TextBlock> = None;
        for block in blocks_for(page, subject) {
            let others_row = compares
                && cell(block)
                && previous.is_some_and(|before| {
                    cell(before)
                        && before.text.chars().count() <= 40
                        && !prices::states_price(&before.text)
                        && prices::names_another(&before.text, &names)
                });
            previous = Some(block);
            let labelled = meaning::in_labelled_section(subject, page, block);
            // A plan card's heading may be all it says of a free plan ("Starter — free").
            let free_card = labelled && prices::free_plan_card(&block.text);
            if matches!(block.kind, BlockKind::Heading(_)) && !free_card || block.text.chars().count() > 600 || others_row {
                continue;
            }
            let basis = if labelled { Basis::LabelledSection } else { Basis::NamesProduct };
            for sentence in prices::own_price_sentences(&block.text, labelled, &names) {
                // A free plan said again in a word or two ("There's a free plan." then "Free" in
                // the table) takes no second line: the paid plans after it need the room.
                let free_again = sentence.split_whitespace().count() <= 4
                    && !prices::states_price(sentence)
                    && prices::states_free_tier(sentence)
                    && sentences.iter().any(|taken| prices::states_free_tier(taken) && !prices::states_price(taken));
                if lines.len() >= 4 || sentences.contains(&sentence) || free_again {
                    continue;
                }
                let lower = sentence.to_lowercase();
                // A price card's plan: the heading above it ("Pro", then "$12/month").
                let plan = block.section.as_deref().filter(|s| s.chars().count() <= 40 && !lower.contains(&s.to_lowercase()));
                // A heading with numbers ("Team (up to 10 users)") would add amounts no price
                // sentence states.
                let plan = plan.filter(|p| {
                    !meaning::labels(Subject::Field(FieldName::PricingSummary), p) && !p.contains(|c: char| c.is_ascii_digit())
                });
                let said = prices::price_clause(sentence);
                match plan {
                    Some(plan) if labelled => {
                        lines.push(format!("{plan}: {said}"));
                        quotes.push(evidence(page, plan, Basis::LabelledSection));
                    }
                    _ => lines.push(said.to_owned()),
                }
                sentences.push(sentence);
                // Off the pricing, the block that names the product is the quote: the sentence
                // alone ("It's free, and it will stay free.") may not name it.
                let quote = if labelled { sentence } else { block.text.as_str() };
                let quote = evidence(page, quote, basis);
                if !quotes.contains(&quote) {
                    quotes.push(quote.clone());
                }
                said_by.push((sentence, quote));
            }
        }
        if !lines.is_empty() {
            break;
        }
    }
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
        proposal.fields.insert(FieldName::PricingSummary, Proposed { value: FieldValue::Text(summary), evidence: quotes.clone() });
    }
    if let Some((model, sentence)) = prices::pricing_model(&sentences)
        && let Some((_, quote)) = said_by.iter().find(|(said, _)| *said == sentence)
    {
        proposal.fields.insert(FieldName::PricingModel, Proposed { value: FieldValue::Text(model.into()), evidence: vec![quote.clone()] });
    }
}

/// Country and city: a JSON-LD postal address, else the sentences and address lines that say
/// where the company is (`drafts::places`), in page order.
pub(super) fn place(site: &SiteSnapshot, proposal: &mut Proposal) {
    for (page, object) in json_ld(site, &["Organization", "Corporation", "LocalBusiness", "PostalAddress"]) {
        let address = if is_type(object, &["PostalAddress"]) { object } else { &object["address"] };
        if let Some(raw) = string_at(address, "addressCountry").or_else(|| string_at(&address["addressCountry"], "name"))
            && let Some(country) = places::country_named(raw)
        {
            proposal.fields.entry(FieldName::Country).or_insert_with(|| text(country.code, page, raw, Basis::StructuredData));
        }
        if let Some(city) = string_at(address, "addressLocality").filter(|c| c.chars().count() <= 120) {
            proposal.fields.entry(FieldName::City).or_insert_with(|| text(city, page, city, Basis::StructuredData));
        }
    }
    let names = meaning::product_names(site, proposal.fields.get(&FieldName::Name).and_then(|n| n.value.as_text()));
    for page in &site.pages {
        for block in blocks_for(page, Subject::Field(FieldName::Country)) {
            if proposal.fields.contains_key(&FieldName::Country) && proposal.fields.contains_key(&FieldName::City) {
                return;
            }
            if block.text.chars().count() > 1500 {
                continue;
            }
            let mut found = places::company_places(&block.text, &names);
            found.extend(places::address_places(&block.text));
            for place in found {
                if let Some(code) = place.country {
                    proposal.fields.entry(FieldName::Country).or_insert_with(|| text(code, page, &block.text, Basis::PageText));
                }
                if let Some(city) = place.city.filter(|c| c.chars().count() <= 120) {
                    proposal.fields.entry(FieldName::City).or_insert_with(|| text(&city, page, &block.text, Basis::PageText));
                }
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
