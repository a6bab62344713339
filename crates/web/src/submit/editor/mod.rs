//! The draft editor, in groups a maker reads top to bottom (the basics, where it belongs, what
//! it does, pricing, the company, pictures, more about you): each field with a plain label and
//! hint, its state in words and the quotes from the website behind it, a lock, and secondary
//! buttons to restore the drafted value or redraft it. Categories are picked from the category
//! tree (a main one and others; a filter box when the script runs), the country from a list.
//! Problems show at the top, each linked to its field, and beside the field. `form` turns what
//! the form sends into `update_draft` (and, with "Save and submit", `submit_draft`).

mod form;

pub(crate) use form::edit;

use super::{errors_under, in_progress, progress_message};
use crate::WebState;
use crate::choices::{self, CategoryChoice, CountryChoice};
use crate::site::{Meta, Picture, page};
use accounts::signin::Session;
use actix_web::http::StatusCode;
use actix_web::{HttpRequest, HttpResponse};
use askama::Template;
use drafts::{FieldKind, FieldName, FieldState, FieldValue};
use kernel::FieldError;
use ops::wire::DraftView;

/// What the form was sent with, and what was wrong, to show them again.
#[derive(Default)]
pub(crate) struct Sent {
    pub values: Vec<(String, String)>,
    pub errors: Vec<FieldError>,
}

impl Sent {
    fn value(&self, name: &str) -> Option<&str> {
        self.values.iter().find(|(key, _)| key == name).map(|(_, value)| value.as_str())
    }
}

/// A quote from the website and the page it is on.
struct Quote {
    text: String,
    url: String,
    /// What kind of evidence it is, in words.
    kind: &'static str,
}

/// How a field is written on the page.
#[derive(PartialEq, Eq)]
enum Input {
    Line,
    Area,
    /// The category picker: a main category and others.
    Categories,
    /// A list of countries.
    Country,
}

/// One of the 18 fields as the editor shows it.
struct FieldRow {
    name: &'static str,
    label: &'static str,
    /// The field as a sentence names it: "the tagline", "what sets it apart".
    noun: String,
    /// How to fill it in.
    hint: &'static str,
    value: String,
    input: Input,
    /// Whether it takes the whole row (the description, the picker, a value of several lines).
    wide: bool,
    /// The state in words.
    state: &'static str,
    locked: bool,
    /// Whether there is a drafted value to go back to.
    restorable: bool,
    quotes: Vec<Quote>,
    error: Option<String>,
}

/// A picture of the draft as the editor shows it: whether the listing gets it, its alt text and
/// its place are part of the editor's form.
struct PictureRow {
    /// Its place on the page (the form's names carry it).
    index: usize,
    /// Its place as people count.
    number: usize,
    image: String,
    picture: Picture,
    role: &'static str,
    alt: String,
    kept: bool,
    /// The page it was found on; `None` for an upload.
    from: Option<Quote>,
    error: Option<String>,
}

/// A section (FAQs, founders, ...) as a text area.
struct SectionRow {
    name: &'static str,
    label: &'static str,
    /// How to write it.
    hint: &'static str,
    value: String,
    state: &'static str,
    quotes: Vec<Quote>,
    error: Option<String>,
}

/// A category as the picker offers it, with whether the draft has it.
struct PickerRow {
    category: CategoryChoice,
    main: bool,
    other: bool,
}

/// The picker's rows for a categories value (slugs, the main one first).
fn picker_rows(categories: Vec<CategoryChoice>, value: &str) -> Vec<PickerRow> {
    let picked: Vec<&str> = value.lines().map(str::trim).filter(|line| !line.is_empty()).collect();
    categories
        .into_iter()
        .map(|category| PickerRow {
            main: picked.first() == Some(&category.slug.as_str()),
            other: picked.iter().skip(1).any(|slug| *slug == category.slug),
            category,
        })
        .collect()
}

/// A group of fields under one heading.
struct Group {
    id: &'static str,
    title: &'static str,
    hint: &'static str,
    fields: Vec<FieldRow>,
    /// The group the pictures are shown in.
    pictures: bool,
}

/// The groups, in the order a maker reads them.
const GROUPS: [(&str, &str, &str, &[FieldName]); 6] = [
    (
        "basics",
        "The basics",
        "What people see first, on cards and at the top of your page.",
        &[FieldName::Name, FieldName::Tagline, FieldName::ShortDescription, FieldName::Description],
    ),
    (
        "belongs",
        "Where it belongs",
        "How people find it: its categories, tags and stage.",
        &[FieldName::Categories, FieldName::Tags, FieldName::Keywords, FieldName::Stage],
    ),
    ("offers", "What it does", "", &[FieldName::Features, FieldName::Usps]),
    ("pricing", "Pricing", "", &[FieldName::PricingModel, FieldName::PricingSummary]),
    ("company", "The company", "", &[FieldName::Country, FieldName::City, FieldName::FoundedYear, FieldName::ContactEmail]),
    ("media", "Logo, pictures and video", "", &[FieldName::LogoUrl, FieldName::DemoVideoUrl]),
];

/// How to fill a field in, in words.
fn hint(name: FieldName) -> &'static str {
    match name {
        FieldName::Name => "",
        FieldName::Tagline => "One short line: what it is and for whom.",
        FieldName::ShortDescription => "A sentence or two, shown on cards and in search results.",
        FieldName::Description => "Everything else people should know; paragraphs are kept.",
        FieldName::Stage => "Such as idea, mvp, launched or growing.",
        FieldName::Categories => "The main category comes first on your page; add others where people would also look.",
        FieldName::Tags | FieldName::Features => "One a line.",
        FieldName::Keywords => "One a line: words people search for.",
        FieldName::Usps => "One a line: what it does better than the alternatives.",
        FieldName::PricingModel => "Such as free, freemium, paid or open source.",
        FieldName::PricingSummary => "Plans and prices as your pricing page states them.",
        FieldName::Country => "Where the company is based.",
        FieldName::City => "",
        FieldName::FoundedYear => "Four digits, such as 2023.",
        FieldName::ContactEmail => "Where people can write to the company.",
        FieldName::LogoUrl => "An https:// link to your logo; or add a picture below.",
        FieldName::DemoVideoUrl => "An https:// link to a video on YouTube or Vimeo.",
    }
}

/// A problem, linked from the summary at the top to the field it concerns.
pub(crate) struct Problem {
    pub anchor: String,
    pub message: String,
}

/// Where on the page an error's field is, its name in words, and the part of the field name
/// the words stand for (the rest names the item: "item 2, answer").
fn place_of(field: &str) -> (String, String, String) {
    let base = field.split(['.', '[']).next().unwrap_or(field);
    if let Some(rest) = field.strip_prefix("fields.") {
        let name = rest.split(['.', '[']).next().unwrap_or(rest);
        let prefix = format!("fields.{name}");
        return match FieldName::parse(name) {
            Some(FieldName::Categories) => ("category-main".to_owned(), "Categories".to_owned(), prefix),
            Some(known) => (format!("f-{name}"), known.label().to_owned(), prefix),
            None => ("editor".to_owned(), name.replace('_', " "), prefix),
        };
    }
    let (anchor, label, prefix) = match base {
        "story" if field.starts_with("story.why_started") => {
            ("s-why_started".to_owned(), "Why you started", "story.why_started".to_owned())
        }
        "faqs" => ("s-faqs".to_owned(), "Questions and answers", base.to_owned()),
        "founders" => ("s-founders".to_owned(), "Founders", base.to_owned()),
        "company_socials" => ("s-company_socials".to_owned(), "The company's profiles elsewhere", base.to_owned()),
        "story" => ("s-story".to_owned(), "Your story", base.to_owned()),
        "milestones" => ("s-milestones".to_owned(), "Milestones", base.to_owned()),
        "pictures" => {
            let index = field.trim_start_matches("pictures[").split(']').next().unwrap_or("0");
            (format!("alt-{index}"), "Pictures", format!("pictures[{index}]"))
        }
        "upload" => ("upload-file".to_owned(), "The picture added", base.to_owned()),
        _ => ("editor".to_owned(), "The draft", field.to_owned()),
    };
    (anchor, label.to_owned(), prefix)
}

#[derive(Template)]
#[template(path = "site/draft_editor.html")]
struct EditorPage<'a> {
    site_name: &'a str,
    meta: Meta,
    draft: DraftView,
    csrf: String,
    groups: Vec<Group>,
    sections: Vec<SectionRow>,
    /// The category picker's rows.
    picker: Vec<PickerRow>,
    countries: Vec<CountryChoice>,
    /// The fields still empty, in words.
    missing: Vec<String>,
    notice: Option<String>,
    /// Every problem, at the top of the page.
    problems: Vec<Problem>,
    /// While fields are redrafted: what the progress line says.
    progress: Option<String>,
    pictures: Vec<PictureRow>,
    /// What was wrong with a picture sent, and the alt text it came with.
    upload_error: Option<String>,
    upload_alt: String,
}

fn state_words(state: FieldState) -> &'static str {
    match state {
        FieldState::Ai => "drafted from your website",
        FieldState::NotFound => "not stated on your website",
        FieldState::Edited => "changed by you",
        FieldState::Manual => "written by you",
        FieldState::Override => "locked by you",
        FieldState::Deleted => "removed by you",
    }
}

fn quotes(evidence: &[drafts::Evidence]) -> Vec<Quote> {
    evidence.iter().map(|quote| Quote { text: quote.quote.clone(), url: quote.url.clone(), kind: quote.basis.describe() }).collect()
}

fn field_text(value: Option<&FieldValue>) -> String {
    match value {
        Some(FieldValue::Text(text)) => text.clone(),
        Some(FieldValue::List(items)) => items.join("\n"),
        None => String::new(),
    }
}

/// Text with every run of white space as one space: what a form box may have changed of a value
/// without the person changing it.
fn folded(text: &str) -> String {
    text.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// One line of a section's text: line breaks inside a value become spaces, so a bio or an
/// answer never splits into two items.
fn one_line(text: &str) -> String {
    text.lines().map(str::trim).filter(|line| !line.is_empty()).collect::<Vec<_>>().join(" ")
}

/// The sections as text, one item a line, in the order the editor shows them.
fn section_texts(draft: &DraftView) -> [(&'static str, String); 6] {
    let faqs = draft
        .faqs
        .value
        .iter()
        .map(|faq| format!("{}\n{}", one_line(&faq.question), one_line(&faq.answer)))
        .collect::<Vec<_>>()
        .join("\n\n");
    let founders = draft
        .founders
        .value
        .iter()
        .map(|founder| {
            let mut parts = vec![one_line(&founder.name)];
            if founder.title.is_some() || founder.bio.is_some() {
                parts.push(one_line(founder.title.as_deref().unwrap_or_default()));
            }
            if let Some(bio) = &founder.bio {
                parts.push(one_line(bio));
            }
            parts.join(" | ")
        })
        .collect::<Vec<_>>()
        .join("\n");
    let socials = draft.company_socials.value.iter().map(|(platform, link)| format!("{platform} {link}")).collect::<Vec<_>>().join("\n");
    let story = draft.story.value.story.clone().unwrap_or_default();
    let why = draft.story.value.why_started.clone().unwrap_or_default();
    let milestones = draft
        .milestones
        .value
        .iter()
        .map(|milestone| match &milestone.url {
            Some(url) => format!("{} | {} | {url}", milestone.date, milestone.title),
            None => format!("{} | {}", milestone.date, milestone.title),
        })
        .collect::<Vec<_>>()
        .join("\n");
    [
        ("faqs", faqs),
        ("founders", founders),
        ("company_socials", socials),
        ("story", story),
        ("why_started", why),
        ("milestones", milestones),
    ]
}

pub(crate) async fn editor_page(
    state: &WebState,
    request: &HttpRequest,
    session: &Session,
    draft: DraftView,
    status: StatusCode,
    notice: Option<String>,
    sent: Sent,
) -> HttpResponse {
    let field_row = |name: FieldName| {
        let shown = draft.fields.get(name.as_str());
        let field_state = shown.map_or(FieldState::NotFound, |field| field.state);
        let value = sent
            .value(&format!("f.{}", name.as_str()))
            .map_or_else(|| field_text(shown.and_then(|field| field.value.as_ref())), str::to_owned);
        let input = match name {
            FieldName::Categories => Input::Categories,
            FieldName::Country => Input::Country,
            // A value with line breaks needs a text area: a one-line box would drop them.
            _ if matches!(name.kind(), FieldKind::List(_)) || name == FieldName::Description || value.contains('\n') => Input::Area,
            _ => Input::Line,
        };
        FieldRow {
            name: name.as_str(),
            label: name.label(),
            noun: if name == FieldName::Usps { "what sets it apart".to_owned() } else { format!("the {}", name.label().to_lowercase()) },
            hint: hint(name),
            wide: input == Input::Categories
                || name == FieldName::Description
                || (input == Input::Area && !matches!(name.kind(), FieldKind::List(_))),
            value: if input == Input::Country { value.trim().to_uppercase() } else { value },
            input,
            state: state_words(field_state),
            locked: field_state == FieldState::Override,
            restorable: matches!(field_state, FieldState::Edited | FieldState::Deleted | FieldState::Override),
            quotes: shown.map(|field| quotes(&field.evidence)).unwrap_or_default(),
            error: errors_under(&sent.errors, &format!("fields.{}", name.as_str())),
        }
    };
    let categories_value = field_row(FieldName::Categories).value;
    let picker = picker_rows(choices::categories(state, &crate::site::caller(request)).await, &categories_value);
    let missing = draft
        .missing
        .iter()
        .map(|name| FieldName::parse(name).map_or_else(|| name.replace('_', " "), |known| known.label().to_lowercase()))
        .collect();
    let groups = GROUPS
        .iter()
        .map(|(id, title, hint, names)| Group {
            id,
            title,
            hint,
            fields: names.iter().map(|name| field_row(*name)).collect(),
            pictures: *id == "media",
        })
        .collect();
    let texts = section_texts(&draft);
    let text = |name: &str| {
        sent.value(name)
            .map_or_else(|| texts.iter().find(|(key, _)| *key == name).map(|(_, text)| text.clone()).unwrap_or_default(), str::to_owned)
    };
    // A section's box: its form name is also where its errors are named.
    let row = |name: &'static str, label: &'static str, hint: &'static str, state: FieldState, evidence: &[drafts::Evidence]| SectionRow {
        name,
        label,
        hint,
        value: text(name),
        state: state_words(state),
        quotes: quotes(evidence),
        error: errors_under(&sent.errors, name),
    };
    // The story's other parts than "why you started", which has a box of its own.
    let story_errors: Vec<_> = sent.errors.iter().filter(|error| !error.field.starts_with("story.why_started")).cloned().collect();
    let sections = vec![
        row(
            "faqs",
            "Questions and answers",
            "A question on one line, its answer on the next; a blank line between pairs.",
            draft.faqs.state,
            &draft.faqs.evidence,
        ),
        row(
            "founders",
            "Founders",
            "One a line: name | role | a short bio (role and bio optional).",
            draft.founders.state,
            &draft.founders.evidence,
        ),
        row(
            "company_socials",
            "The company's profiles elsewhere",
            "One a line: the platform, a space, the https link (github https://github.com/acme).",
            draft.company_socials.state,
            &draft.company_socials.evidence,
        ),
        SectionRow {
            error: errors_under(&story_errors, "story"),
            ..row("story", "Your story", "How the product came to be, in your words.", draft.story.state, &draft.story.evidence)
        },
        SectionRow {
            error: errors_under(&sent.errors, "story.why_started"),
            ..row("why_started", "Why you started", "", draft.story.state, &[])
        },
        row(
            "milestones",
            "Milestones",
            "One a line: YYYY-MM-DD | what happened | an https link (optional).",
            draft.milestones.state,
            &draft.milestones.evidence,
        ),
    ];
    let problems = sent
        .errors
        .iter()
        .map(|error| {
            let (anchor, label, prefix) = place_of(&error.field);
            let what = errors_under(std::slice::from_ref(error), &prefix).unwrap_or_else(|| error.message.clone());
            Problem { anchor, message: format!("{label}: {what}") }
        })
        .collect();
    let pictures = draft
        .pictures
        .iter()
        .enumerate()
        .filter_map(|(index, shown)| {
            let image = kernel::ImageRef::parse(&shown.image).ok()?;
            Some(PictureRow {
                index,
                number: index + 1,
                image: shown.image.clone(),
                picture: Picture::of(&image, 160.min(image.width())),
                role: match shown.role {
                    drafts::PictureRole::Logo => "Logo",
                    drafts::PictureRole::Screenshot => "Screenshot",
                },
                alt: sent.value(&format!("alt.{index}")).map_or_else(|| shown.alt.clone(), str::to_owned),
                kept: if sent.values.is_empty() { shown.kept } else { sent.value(&format!("keep.{index}")).is_some() },
                from: shown.evidence.as_ref().map(|quote| Quote {
                    text: quote.quote.clone(),
                    url: quote.url.clone(),
                    kind: quote.basis.describe(),
                }),
                error: errors_under(&sent.errors, &format!("pictures[{index}]")),
            })
        })
        .collect();
    let upload_error = errors_under(&sent.errors, "upload");
    let upload_alt = sent.value("upload_alt").unwrap_or_default().to_owned();
    let title = format!("Your draft of {}", field_text(draft.fields.get("name").and_then(|field| field.value.as_ref())));
    let meta = Meta::new(state, request.path(), title, "Check and edit your product's draft.".to_owned());
    let progress = in_progress(&draft).then(|| progress_message(&draft));
    let editor = EditorPage {
        site_name: &state.app.site.name,
        meta,
        csrf: session.csrf_token.clone(),
        groups,
        sections,
        picker,
        countries: choices::countries(),
        missing,
        notice,
        problems,
        progress,
        pictures,
        upload_error,
        upload_alt,
        draft,
    };
    page(request, status, &editor)
}
