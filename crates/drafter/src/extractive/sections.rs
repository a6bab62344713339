//! The profile's lists and sections: features and USPs, media, FAQs and founders.

use super::*;

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

pub(super) fn lists(site: &SiteSnapshot, proposal: &mut Proposal) {
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

/// Demo video and logo.
pub(super) fn media(site: &SiteSnapshot, proposal: &mut Proposal) {
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
pub(super) fn faqs(site: &SiteSnapshot, proposal: &mut Proposal) {
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
pub(super) fn founders(site: &SiteSnapshot, proposal: &mut Proposal) {
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
