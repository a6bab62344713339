//! The profile's lists and sections: features and USPs, media, FAQs and founders.

use super::*;

/// List items under a heading that matches one of `headings` (or on a page about them), in
/// blocks that may support `field`, and not on the roadmap.
fn list_under<'a>(site: &'a SiteSnapshot, field: FieldName, headings: &[&str], pages: &[&str]) -> Vec<(&'a Page, &'a TextBlock)> {
    let mut items = Vec::new();
    for (i, page) in site.pages.iter().enumerate() {
        let page_matches = i > 0 && {
            let path = page.url.to_lowercase();
            pages.iter().any(|p| path.contains(p))
        };
        for block in blocks_for(page, Subject::Field(field)) {
            if block.kind != BlockKind::ListItem
                || block.text.chars().count() > 200
                || block.text.chars().count() < 8
                || meaning::is_roadmap_text(&block.text)
            {
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
    let features = feature_items(site);
    if !features.is_empty() {
        proposal.fields.insert(
            FieldName::Features,
            Proposed {
                value: FieldValue::List(features.iter().map(|(_, item, _)| item.clone()).collect()),
                evidence: features.iter().map(|(page, item, basis)| evidence(page, item, *basis)).collect(),
            },
        );
    }
    let mut items = list_under(site, FieldName::Usps, USP_HEADINGS, &["why", "benefits", "vorteile"]);
    // A list already taken as features is not also a list of reasons.
    let taken: Vec<String> = proposal.fields.get(&FieldName::Features).map(|p| p.value.as_list().to_vec()).unwrap_or_default();
    items.retain(|(_, b)| !taken.contains(&b.text));
    items.truncate(10);
    if !items.is_empty() {
        proposal.fields.insert(
            FieldName::Usps,
            Proposed {
                value: FieldValue::List(items.iter().map(|(_, b)| b.text.clone()).collect()),
                evidence: items.iter().map(|(p, b)| evidence(p, &b.text, Basis::LabelledSection)).collect(),
            },
        );
    }
}

/// Whether a heading introduces what the product does ("Features", "What Birchbill can do",
/// "How it works", "Everything you need").
fn is_feature_heading(heading: &str) -> bool {
    let lower = format!(" {} ", heading.to_lowercase());
    // Not the pricing ("Pricing that works for you"), an FAQ, or a yes-or-no question ("Does it
    // work offline?"); "So what does it actually do?" introduces what it does.
    let yes_or_no = ["does ", "do ", "can ", "is ", "are ", "will ", "how much"].iter().any(|w| lower.trim_start().starts_with(w));
    let elsewhere = ["pricing", "price", "prices", "plans"].iter().any(|word| meaning::has_phrase(heading, word))
        || meaning::labels(Subject::Faq, heading);
    !yes_or_no && !elsewhere && FEATURE_HEADINGS.iter().any(|cue| lower.contains(cue))
}

/// What the product does: list items, and the sentences of paragraphs, under a heading that
/// introduces its features (or the sub-headings below one) on the homepage or a features page,
/// never a roadmap's, a question or a testimonial; at most ten.
fn feature_items(site: &SiteSnapshot) -> Vec<(&Page, String, Basis)> {
    let mut items: Vec<(&Page, String, Basis)> = Vec::new();
    let feature_pages = pages_about(site, &["feature", "funktionen", "fonctionnalit", "how-it-works", "product"]);
    // "What Thimbleway looks after", "Cormorant sends your requests", "How Pipistrelle gets
    // you talking": a heading that says what the product itself does.
    let names = meaning::product_names(site, None);
    let feature_heading = |heading: &str| {
        let lower = heading.to_lowercase();
        let verb_after = |rest: &str| rest.starts_with(' ') && rest.trim_start().split(' ').next().is_some_and(|w| w.ends_with('s'));
        is_feature_heading(heading)
            || names.iter().filter(|name| !name.is_empty()).any(|name| {
                let name = name.to_lowercase();
                lower.starts_with(&format!("what {name} "))
                    || lower.starts_with(&format!("how {name} "))
                    || lower.strip_prefix(name.as_str()).is_some_and(verb_after)
            })
    };
    for page in site.pages.first().into_iter().chain(feature_pages) {
        let whole_page = page.url != site.pages[0].url;
        let mut zone = whole_page;
        for block in &page.blocks {
            match block.kind {
                BlockKind::Heading(1) => zone = whole_page,
                BlockKind::Heading(2) => zone = whole_page || feature_heading(&block.text),
                _ => {}
            }
            let under_feature_heading = block.section.as_deref().is_some_and(feature_heading);
            if matches!(block.kind, BlockKind::Heading(_))
                || !(zone || under_feature_heading)
                || !block.role.can_support(Subject::Field(FieldName::Features))
                || meaning::about_people(&page.url)
            {
                continue;
            }
            let basis = if meaning::in_labelled_section(Subject::Field(FieldName::Features), page, block) {
                Basis::LabelledSection
            } else {
                Basis::PageText
            };
            let texts: Vec<&str> = match block.kind {
                BlockKind::ListItem => vec![block.text.as_str()],
                BlockKind::Paragraph => meaning::sentences(&block.text),
                _ => Vec::new(),
            };
            for text in texts.into_iter().filter_map(feature_clause) {
                let fits = (8..=200).contains(&text.chars().count());
                if fits
                    && !text.ends_with('?')
                    && !meaning::is_roadmap_text(text)
                    && !items.iter().any(|(_, item, _)| item == text)
                    && items.len() < 10
                {
                    items.push((page, text.to_owned(), basis));
                }
            }
        }
    }
    items
}

/// A feature's text: the sentence, or when it is longer than a feature may be, its longest
/// opening clause that fits ("Every ten minutes it measures soil moisture, light and
/// temperature" of a longer sentence).
fn feature_clause(sentence: &str) -> Option<&str> {
    if sentence.chars().count() <= 200 {
        return Some(sentence);
    }
    let cut =
        sentence.char_indices().take_while(|(at, _)| *at <= 200).filter(|(_, c)| matches!(c, ',' | ';' | ':')).map(|(at, _)| at).last()?;
    let clause = sentence[..cut].trim_end();
    (clause.chars().count() >= 40).then_some(clause)
}

/// Demo video and logo.
pub(super) fn media(site: &SiteSnapshot, proposal: &mut Proposal) {
    'video: for page in &site.pages {
        for url in page.embeds.iter().chain(page.links.iter().map(|l| &l.url)) {
            if url.starts_with("https://") && url.len() <= 500 && VIDEO_HOSTS.iter().any(|host| url.contains(host)) {
                proposal.fields.insert(FieldName::DemoVideoUrl, text(url, page, url, Basis::Metadata));
                break 'video;
            }
        }
    }
    let logo = json_ld(site, &["Organization", "Corporation", "LocalBusiness"]).find_map(|(page, o)| {
        string_at(o, "logo").or_else(|| string_at(&o["logo"], "url")).map(|logo| (page, logo.to_owned(), Basis::StructuredData))
    });
    let logo = logo.or_else(|| {
        site.pages.first().and_then(|home| {
            home.images
                .iter()
                .find(|image| image.hint.contains("logo") || image.alt.to_lowercase().contains("logo"))
                .map(|image| (home, image.url.clone(), Basis::Metadata))
        })
    });
    if let Some((page, url, basis)) = logo.filter(|(_, url, _)| url.starts_with("http") && url.len() <= 500) {
        proposal.fields.insert(FieldName::LogoUrl, text(&url, page, &url, basis));
    }
}

/// FAQs: JSON-LD `FAQPage`, then questions in `summary`/`dt`/headings followed by their answer.
pub(super) fn faqs(site: &SiteSnapshot, proposal: &mut Proposal) {
    let push = |proposal: &mut Proposal, page: &Page, question: &str, answer: &str, basis: Basis| {
        let fits = question.chars().count() <= 300 && answer.chars().count() <= 1500 && !answer.is_empty();
        if fits && proposal.faqs.len() < 10 && !proposal.faqs.iter().any(|f| f.value.question == question) {
            proposal.faqs.push(Proposed {
                value: Faq { question: question.to_owned(), answer: answer.to_owned() },
                evidence: vec![evidence(page, question, basis), evidence(page, answer, basis)],
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
                push(proposal, page, question, answer, Basis::StructuredData);
            }
        }
    }
    for page in &site.pages {
        // A question heading is an FAQ on an FAQ page or section, or among other questions; a
        // lone one ("So what does it actually do?") introduces the page's own text. A short
        // paragraph that is only a question (a bold question above its answer) is one too, on
        // those same terms.
        let asks = |block: &TextBlock| {
            block.text.ends_with('?')
                && match block.kind {
                    BlockKind::Term | BlockKind::Heading(2..=4) => true,
                    BlockKind::Paragraph | BlockKind::Other => {
                        block.text.chars().count() <= 200 && meaning::sentences(&block.text).len() == 1
                    }
                    _ => false,
                }
        };
        let questions = page.blocks.iter().filter(|block| asks(block)).count();
        for pair in page.blocks.windows(2) {
            let (question, answer) = (&pair[0], &pair[1]);
            let faq_place = questions >= 2 || meaning::in_labelled_section(Subject::Faq, page, question);
            let is_question = asks(question) && faq_place;
            let supported = pair.iter().all(|block| block.role.can_support(Subject::Faq));
            let answers = matches!(answer.kind, BlockKind::Paragraph | BlockKind::ListItem | BlockKind::Other) && !asks(answer);
            if is_question && supported && answers {
                push(proposal, page, &question.text, &answer.text, Basis::PageText);
            }
        }
        // A bold question and its answer in one paragraph ("<p><strong>Do I need an
        // account?</strong><br>No. …</p>"), on an FAQ page or section or among others like it.
        fn asked_and_answered(block: &TextBlock) -> Option<(&str, &str)> {
            if !matches!(block.kind, BlockKind::Paragraph | BlockKind::Other) || !block.role.can_support(Subject::Faq) {
                return None;
            }
            let sentences = meaning::sentences(&block.text);
            let question = *sentences.first()?;
            let answer = block.text[question.len()..].trim();
            let answered = question.ends_with('?') && sentences.len() >= 2 && !answer.is_empty() && !answer.ends_with('?');
            (answered && block.text.starts_with(question)).then_some((question, answer))
        }
        let labelled = |block: &TextBlock| meaning::in_labelled_section(Subject::Faq, page, block);
        let pairs = page.blocks.iter().filter(|block| asked_and_answered(block).is_some()).count();
        // Where a section is named for questions, a rhetorical question elsewhere on the page
        // ("Bigger than that? Drop us a line.") is not one of them.
        let any_labelled = page.blocks.iter().any(|block| asked_and_answered(block).is_some() && labelled(block));
        for block in &page.blocks {
            if let Some((question, answer)) = asked_and_answered(block)
                && (labelled(block) || !any_labelled && pairs >= 3)
            {
                push(proposal, page, question, answer, Basis::PageText);
            }
        }
    }
}

/// Founders, only where the site says this product's people founded it: JSON-LD `founder` or
/// a `Person` whose `jobTitle` is a founding one; "Name, Co-founder & CEO" lines and team
/// cards (a name, then its founding role) on a team or about page or section; "founded by
/// Name and Name" sentences that name the product or sit on such a page. Never a customer's
/// signature (`meaning`): its block cannot support a founder, and "founder of <another
/// company>" is not this product's.
pub(super) fn founders(site: &SiteSnapshot, proposal: &mut Proposal) {
    let names = meaning::product_names(site, proposal.fields.get(&FieldName::Name).and_then(|n| n.value.as_text()));
    // JSON-LD, object by object: an organisation's `founder` people, and people on their own
    // whose title is a founding one of no other company.
    for (page, object) in json_ld(site, &["Organization", "Corporation", "LocalBusiness", "Person"]) {
        let people: Vec<&Value> = if is_type(object, &["Person"]) {
            let title = string_at(object, "jobTitle").unwrap_or("");
            if meaning::names_founding_people(title) && !meaning::founder_of_another(title, &names) { vec![object] } else { Vec::new() }
        } else {
            match &object["founder"] {
                Value::Array(items) => items.iter().collect(),
                one @ Value::Object(_) => vec![one],
                _ => Vec::new(),
            }
        };
        for person in people {
            if let Some(name) = string_at(person, "name").filter(|n| n.chars().count() <= 160) {
                let title = string_at(person, "jobTitle").filter(|t| t.chars().count() <= 160);
                let mut quotes = vec![evidence(page, name, Basis::StructuredData)];
                quotes.extend(title.map(|t| evidence(page, t, Basis::StructuredData)));
                add_founder(proposal, name, title, quotes);
            }
        }
    }
    let subject = Subject::Founder;
    for page in &site.pages {
        let blocks: Vec<&TextBlock> = page.blocks.iter().collect();
        for (i, block) in blocks.iter().enumerate() {
            if !block.role.can_support(subject) || meaning::founder_of_another(&block.text, &names) {
                continue;
            }
            let basis = if meaning::in_labelled_section(subject, page, block) {
                Basis::LabelledSection
            } else if meaning::names_product(&block.text, &names) {
                Basis::NamesProduct
            } else {
                continue;
            };
            // "Name, Co-founder & CEO", "Ines Duarte (she/her), CEO and co-founder. Grew up …", and
            // a post's signature: "— Declan Foley, Founder & Lead Developer". The line is the
            // block's first sentence, without the pronouns a person gives in brackets.
            let unsigned = ["— ", "– "].iter().find_map(|dash| block.text.strip_prefix(dash)).unwrap_or(&block.text);
            let first = meaning::sentences(unsigned).first().copied().unwrap_or(unsigned).trim_end_matches('.');
            let line = people::without_pronouns(first);
            // "— Ruth Calloway Founder, Alderwood" (a signature's two lines run together): the
            // name ends where the role begins.
            let line = match line.split_once(", ") {
                Some((head, tail)) if !looks_like_name(head) || head.split_whitespace().any(people::is_role) => {
                    let words: Vec<&str> = head.split_whitespace().collect();
                    match words.iter().position(|word| people::is_role(word)) {
                        Some(at) if at >= 2 => format!("{}, {}, {tail}", words[..at].join(" "), words[at..].join(" ")),
                        _ => line,
                    }
                }
                _ => line,
            };
            // A byline's date is not a part of the role ("Posted by Noor Khalil, Co-Founder /
            // Design · 3 February 2025").
            let line = line.split(" · ").next().unwrap_or(&line).to_owned();
            if line.chars().count() <= 100
                && let Some((name, role)) = line
                    .split_once(", ")
                    .or_else(|| line.split_once(" - "))
                    .or_else(|| line.split_once(" – "))
                    .or_else(|| line.split_once(" — "))
                && let name = ["Hi, I'm ", "Hello, I'm ", "I'm ", "I’m ", "I am ", "My name is ", "Posted by ", "Written by ", "By "]
                    .iter()
                    .find_map(|me| name.strip_prefix(me))
                    .unwrap_or(name)
                && looks_like_name(name)
                && meaning::names_founding_people(role)
                && role.chars().count() <= 160
            {
                add_founder(proposal, name.trim(), Some(role.trim()), vec![evidence(page, &block.text, basis)]);
                continue;
            }
            // A team card: the name, then its role ("Co-founder & CEO", "I'm the founder and
            // only developer.").
            let card_role = |next: &TextBlock| {
                let first = meaning::sentences(&next.text).first().copied().unwrap_or(&next.text);
                let role = ["I'm the ", "I’m the ", "I am the "].iter().find_map(|me| first.strip_prefix(me)).unwrap_or(first);
                (role.chars().count() <= 100).then(|| role.trim_end_matches('.').to_owned())
            };
            if basis == Basis::LabelledSection
                && matches!(block.kind, BlockKind::Heading(2..=6) | BlockKind::Paragraph | BlockKind::Term | BlockKind::Other)
                && looks_like_name(&block.text)
                && let Some(next) = blocks.get(i + 1)
                && next.role.can_support(subject)
                && let Some(role) = card_role(next)
                && meaning::names_founding_people(&role)
                && !meaning::founder_of_another(&next.text, &names)
                && meaning::in_labelled_section(subject, page, next)
            {
                let quotes = vec![evidence(page, &block.text, basis), evidence(page, &next.text, Basis::LabelledSection)];
                add_founder(proposal, &block.text, Some(&role), quotes);
                continue;
            }
            // "founded by Name and Name", "gegründet von", "fondé par"
            for name in founded_by(&block.text) {
                add_founder(proposal, &name, None, vec![evidence(page, &block.text, basis)]);
            }
            // The sentences people write (`drafts::people`): "started by", "our founders, A
            // and B", "I'm Ben. I started it with my wife, Clara", "Aisha Bello (CEO)".
            for mention in people::founders_in(&block.text, &names) {
                add_founder(proposal, &mention.name, mention.title.as_deref(), vec![evidence(page, &block.text, basis)]);
            }
        }
    }
    founder_titles(site, &names, proposal);
}

/// Titles of founders found without one, from the sentences that give a role beside their name
/// ("Lotte Peeters, our CEO,", "Jana is CEO"), in blocks that may support a founder.
fn founder_titles(site: &SiteSnapshot, names: &[String], proposal: &mut Proposal) {
    for founder in proposal.founders.iter_mut().filter(|f| f.value.title.is_none()) {
        let found = site.pages.iter().find_map(|page| {
            page.blocks
                .iter()
                .filter(|block| block.role.can_support(Subject::Founder) && block.text.chars().count() <= 1500)
                .filter(|block| !meaning::founder_of_another(&block.text, names))
                .find_map(|block| {
                    let basis = if meaning::in_labelled_section(Subject::Founder, page, block) {
                        Basis::LabelledSection
                    } else if meaning::names_product(&block.text, names) {
                        Basis::NamesProduct
                    } else {
                        return None;
                    };
                    people::role_of(&founder.value.name, &block.text).map(|role| (role, evidence(page, &block.text, basis)))
                })
        });
        // A team card: the founder's name alone, then the role ("Claire Boudreau" / "Chief
        // Executive Officer").
        let found = found.or_else(|| {
            site.pages.iter().find_map(|page| {
                page.blocks.windows(2).find_map(|pair| {
                    let (card, role) = (&pair[0], &pair[1]);
                    let fits = card.text.trim() == founder.value.name
                        && role.role.can_support(Subject::Founder)
                        && role.text.chars().count() <= 60
                        && people::is_role(&role.text)
                        && meaning::in_labelled_section(Subject::Founder, page, role);
                    fits.then(|| (role.text.trim().to_owned(), evidence(page, &role.text, Basis::LabelledSection)))
                })
            })
        });
        if let Some((role, quote)) = found {
            founder.value.title = Some(role);
            if !founder.evidence.contains(&quote) {
                founder.evidence.push(quote);
            }
        }
    }
}

/// Words of headings that are capitalised like names but are not people.
const NOT_NAMES: &[&str] = &[
    "Our", "The", "Team", "Meet", "About", "Founders", "Founder", "Company", "People", "Unser", "Unsere", "Notre", "Équipe", "Story", "Us",
    "I'm", "I’m", "Hi", "Hello",
];

/// A person's name as `people::looks_like_name` reads one, and no heading word ("Meet The
/// Founders").
fn looks_like_name(text: &str) -> bool {
    people::looks_like_name(text) && !text.split_whitespace().any(|word| NOT_NAMES.contains(&word))
}

/// The people a sentence says founded something: the names after "by", "von", "par" or "por"
/// in a sentence with a founding word (the first place that is followed by names).
fn founded_by(text: &str) -> Vec<String> {
    let lower = text.to_lowercase();
    let places = meaning::founded_by_places(&lower);
    places
        .into_iter()
        .map(|at| {
            // Lower-casing may change byte lengths; the same place in `text` is found by
            // counting characters.
            let rest: String = text.chars().skip(lower[..at].chars().count()).collect();
            names_at_start(&rest)
        })
        .find(|names| !names.is_empty())
        .unwrap_or_default()
}

/// The names a text starts with: "Ines Duarte and Tomas Reis, two engineers" gives both.
fn names_at_start(text: &str) -> Vec<String> {
    let mut names = Vec::new();
    let mut current: Vec<&str> = Vec::new();
    for word in text.split_whitespace() {
        let bare = word.trim_end_matches([',', '.', ';', ':', ')']);
        if ["and", "und", "et", "y", "e", "&"].contains(&bare) {
            names.push(std::mem::take(&mut current));
            continue;
        }
        if !bare.chars().next().is_some_and(char::is_uppercase) {
            break;
        }
        current.push(bare);
        if bare.len() != word.len() {
            names.push(std::mem::take(&mut current));
            if word.ends_with(['.', ';', ':', ')']) {
                break;
            }
        }
    }
    names.push(current);
    names.into_iter().map(|words| words.join(" ")).filter(|name| looks_like_name(name)).collect()
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
    fn founded_by_reads_the_names_after_by() {
        assert_eq!(
            founded_by("Metricly was founded in 2019 in Lisbon by Ines Duarte and Tomas Reis, two engineers."),
            ["Ines Duarte", "Tomas Reis"]
        );
        assert_eq!(founded_by("Quillpad wurde 2021 von Lena Vogel gegründet."), ["Lena Vogel"]);
        assert_eq!(founded_by("Fondée par Camille Martin et Hugo Bernard en 2020."), ["Camille Martin", "Hugo Bernard"]);
        assert!(founded_by("Used by Acme and Brightline.").is_empty());
        assert_eq!(founded_by("Loved by teams everywhere; founded by Mara Lindqvist."), ["Mara Lindqvist"]);
        assert_eq!(founded_by("Loved by Acme Corp. Founded in 2020 by Mara Lindqvist."), ["Mara Lindqvist"]);
        assert!(founded_by("Quillpad was founded in 2019 and is backed by Sequoia Capital.").is_empty());
        assert!(looks_like_name("Mara Lindqvist") && looks_like_name("Jean-Luc O'Neil"));
        assert!(!looks_like_name("Our Team") && !looks_like_name("Meet The Founders") && !looks_like_name("Mara"));
    }
}
