//! The extractive drafter's own choices: titles, names, descriptions, structured people, phrases.

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
    let site = SiteSnapshot { home_url: page.url.clone(), pages: vec![page], ..SiteSnapshot::default() };
    assert!(!draft(&site, &[]).fields.contains_key(&FieldName::FoundedYear));
}

/// A `Person` whose `jobTitle` is a founding one is a founder; one with another title, or
/// one who wrote a review, is not.
#[test]
fn structured_people_are_founders_only_by_a_founding_title() {
    let page = Page {
        url: "https://a.example/".into(),
        json_ld: vec![
            serde_json::json!({"@type": "Person", "name": "Mara Lindqvist", "jobTitle": "Co-founder"}),
            serde_json::json!({"@type": "Person", "name": "Jonas Berg", "jobTitle": "Head of Sales"}),
            serde_json::json!({"@type": "Product", "name": "Quillpad", "review": {"@type": "Review", "author": {"@type": "Person", "name": "Dana Reyes", "jobTitle": "Founder of Brightline"}}}),
        ],
        ..Page::default()
    };
    let site = SiteSnapshot { home_url: page.url.clone(), pages: vec![page], ..SiteSnapshot::default() };
    let (grounded, dropped) = drafts::ground(draft(&site, &[]), &site, &[]);
    let names: Vec<&str> = grounded.founders.iter().map(|f| f.value.name.as_str()).collect();
    assert_eq!(names, ["Mara Lindqvist"], "{dropped:?}");
    assert_eq!(grounded.founders[0].value.title.as_deref(), Some("Co-founder"));
}

/// The description is the product's own words: an FAQ's answer stays out of it.
#[test]
fn the_description_leaves_out_faq_answers() {
    use drafts::site::{BlockRole, TextBlock};
    let block = |kind, text: &str, section: Option<&str>| TextBlock {
        kind,
        text: text.into(),
        section: section.map(str::to_owned),
        role: BlockRole::Content,
    };
    let page = Page {
        url: "https://a.example/".into(),
        title: Some("Quillpad".into()),
        blocks: vec![
            block(BlockKind::Heading(1), "Quillpad", None),
            block(
                BlockKind::Paragraph,
                "Quillpad keeps the notes of every meeting in one searchable place for your team.",
                Some("Quillpad"),
            ),
            block(BlockKind::Heading(2), "Questions", None),
            block(BlockKind::Paragraph, "Can I export my notes?", Some("Questions")),
            block(
                BlockKind::Paragraph,
                "Yes, every note exports as Markdown or PDF whenever you like, with its attachments.",
                Some("Questions"),
            ),
        ],
        ..Page::default()
    };
    let site = SiteSnapshot { home_url: page.url.clone(), pages: vec![page], ..SiteSnapshot::default() };
    let drafted = draft(&site, &[]);
    let description = drafted.fields[&FieldName::Description].value.as_text().unwrap().to_owned();
    assert!(description.contains("searchable place") && !description.contains("Markdown"), "{description}");
}

#[test]
fn phrases_match_whole_words() {
    assert!(contains_phrase("Privacy-first product analytics", "Analytics"));
    assert!(!contains_phrase("Psychoanalytics", "Analytics"));
    assert!(contains_phrase("Testing & QA tools", "Testing & QA"));
    assert_eq!(cut_words("one two three four", 9), "one two");
}

/// A page of content blocks, the first a level-one heading.
fn page_of(url: &str, title: &str, meta: Option<&str>, blocks: &[(BlockKind, &str)]) -> Page {
    use drafts::site::TextBlock;
    Page {
        url: url.into(),
        title: Some(title.into()),
        meta_description: meta.map(str::to_owned),
        blocks: blocks
            .iter()
            .map(|(kind, text)| TextBlock { kind: *kind, text: (*text).into(), section: None, role: BlockRole::Content })
            .collect(),
        ..Page::default()
    }
}

fn text_of(proposal: &Proposal, field: FieldName) -> Option<String> {
    proposal.fields.get(&field).and_then(|f| f.value.as_text()).map(str::to_owned)
}

/// A name the title writes in lower case is written as the sentences write it, when they
/// capitalise it more often than not; a name the site writes in lower case stays so.
#[test]
fn a_lower_case_title_name_is_written_as_the_sentences_write_it() {
    let capitalised = page_of(
        "https://z.example/",
        "zettelkraft — notes that link themselves",
        None,
        &[(BlockKind::Paragraph, "Zettelkraft links your notes. Zettelkraft is free and open source.")],
    );
    let site = SiteSnapshot { home_url: capitalised.url.clone(), pages: vec![capitalised], ..SiteSnapshot::default() };
    assert_eq!(text_of(&draft(&site, &[]), FieldName::Name).as_deref(), Some("Zettelkraft"));
    let lower = page_of("https://z.example/", "zettelkraft — notes", None, &[(BlockKind::Paragraph, "zettelkraft links your notes.")]);
    let site = SiteSnapshot { home_url: lower.url.clone(), pages: vec![lower], ..SiteSnapshot::default() };
    assert_eq!(text_of(&draft(&site, &[]), FieldName::Name).as_deref(), Some("zettelkraft"));
}

/// "Name: what it is. Price." gives what it is, as a sentence; a sentence saying what the
/// product is not is no description.
#[test]
fn a_hero_line_naming_the_product_gives_the_short_description() {
    let page = page_of(
        "https://s.example/",
        "Saltmarsh",
        Some("Saltmarsh: a field notebook for birders and coastal walkers. £6, once."),
        &[
            (BlockKind::Heading(1), "Saltmarsh: a field notebook for birders and coastal walkers. £6, once."),
            (BlockKind::Paragraph, "Saltmarsh doesn't play bird calls itself. It keeps what you saw."),
        ],
    );
    let site = SiteSnapshot { home_url: page.url.clone(), pages: vec![page], ..SiteSnapshot::default() };
    assert_eq!(
        text_of(&draft(&site, &[]), FieldName::ShortDescription).as_deref(),
        Some("A field notebook for birders and coastal walkers.")
    );
}

/// A free plan said again in a word (the table's "Free") leaves room for the paid plans, and a
/// plan named after the product ("Bittern Full") is the product's own.
#[test]
fn a_free_plan_said_twice_leaves_room_for_the_paid_plans() {
    let home = page_of("https://f.example/", "Fieldfare", None, &[(BlockKind::Paragraph, "Fieldfare sends your posts as a newsletter.")]);
    let pricing = page_of(
        "https://f.example/pricing",
        "Pricing",
        None,
        &[
            (BlockKind::Heading(1), "Pricing"),
            (BlockKind::Paragraph, "There's a free plan."),
            (BlockKind::Paragraph, "If fewer than 500 people read your newsletter, Fieldfare costs nothing."),
            (BlockKind::ListItem, "Free"),
            (BlockKind::ListItem, "$9 a month"),
            (BlockKind::ListItem, "Fieldfare Full: $24 a month"),
        ],
    );
    let site = SiteSnapshot { home_url: home.url.clone(), pages: vec![home, pricing], ..SiteSnapshot::default() };
    let summary = text_of(&draft(&site, &[]), FieldName::PricingSummary).unwrap_or_default();
    assert!(summary.contains("$9") && summary.contains("$24") && summary.to_lowercase().contains("free"), "{summary}");
}
