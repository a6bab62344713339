//! The draft editor: each of the 18 fields with its value, its state in words and the quotes
//! from the website behind it (a person sees why a value is there), a lock, and buttons to
//! restore the drafted value or redraft it from the website; then FAQs, founders, the company's
//! links, the story and milestones as plain text, one item a line. Saving sends `update_draft`
//! only what changed, so untouched drafted values keep their state and quotes.

use super::{draft_of, errors_under, in_progress, progress_message, see_other};
use crate::WebState;
use crate::site::{Meta, Picture, page, run_with};
use crate::{PageError, SignedInPost};
use accounts::signin::Session;
use actix_web::http::StatusCode;
use actix_web::{HttpRequest, HttpResponse, web};
use askama::Template;
use drafts::{FieldKind, FieldName, FieldState, FieldValue};
use kernel::FieldError;
use ops::operations::drafts::UpdateDraft;
use ops::wire::{DraftPath, DraftView};
use ops::{NoInput, OpError};
use serde_json::{Map, Value, json};

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

/// One of the 18 fields as the editor shows it.
struct FieldRow {
    name: &'static str,
    label: &'static str,
    value: String,
    multiline: bool,
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

#[derive(Template)]
#[template(path = "site/draft_editor.html")]
struct EditorPage<'a> {
    site_name: &'a str,
    meta: Meta,
    draft: DraftView,
    csrf: String,
    fields: Vec<FieldRow>,
    sections: Vec<SectionRow>,
    notice: Option<String>,
    /// Errors of the whole draft (a submission refused for a missing category).
    problems: Vec<String>,
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

pub(crate) fn editor_page(
    state: &WebState,
    request: &HttpRequest,
    session: &Session,
    draft: DraftView,
    status: StatusCode,
    notice: Option<String>,
    sent: Sent,
) -> HttpResponse {
    let fields = FieldName::ALL
        .iter()
        .map(|name| {
            let shown = draft.fields.get(name.as_str());
            let field_state = shown.map_or(FieldState::NotFound, |field| field.state);
            FieldRow {
                name: name.as_str(),
                label: name.label(),
                value: sent
                    .value(&format!("f.{}", name.as_str()))
                    .map_or_else(|| field_text(shown.and_then(|field| field.value.as_ref())), str::to_owned),
                // A value with line breaks needs a text area: a one-line box would drop them.
                multiline: matches!(name.kind(), FieldKind::List(_))
                    || *name == FieldName::Description
                    || field_text(shown.and_then(|field| field.value.as_ref())).contains('\n'),
                state: state_words(field_state),
                locked: field_state == FieldState::Override,
                restorable: matches!(field_state, FieldState::Edited | FieldState::Deleted | FieldState::Override),
                quotes: shown.map(|field| quotes(&field.evidence)).unwrap_or_default(),
                error: errors_under(&sent.errors, &format!("fields.{}", name.as_str())),
            }
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
    let handled = |field: &str| {
        ["fields", "faqs", "founders", "company_socials", "story", "milestones", "pictures", "upload"]
            .iter()
            .any(|prefix| field == *prefix || field.starts_with(&format!("{prefix}.")) || field.starts_with(&format!("{prefix}[")))
    };
    let problems =
        sent.errors.iter().filter(|error| !handled(&error.field)).map(|error| format!("{}: {}", error.field, error.message)).collect();
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
        fields,
        sections,
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

/// The pictures as the form sends them, in the places the person gave them (ties keep the
/// page's order): each with its place on the page, its image, whether it is kept, its alt text.
fn pictures_sent(form: &[(String, String)]) -> Vec<(usize, String, bool, String)> {
    let value = |name: String| form.iter().find(|(key, _)| *key == name).map(|(_, value)| value.clone());
    let mut rows: Vec<(u32, usize, String, bool, String)> = form
        .iter()
        .filter_map(|(key, image)| key.strip_prefix("pic.")?.parse::<usize>().ok().map(|index| (index, image.clone())))
        .map(|(index, image)| {
            let place = value(format!("order.{index}")).and_then(|place| place.trim().parse().ok()).unwrap_or(u32::MAX);
            (place, index, image, value(format!("keep.{index}")).is_some(), value(format!("alt.{index}")).unwrap_or_default())
        })
        .collect();
    rows.sort_by_key(|(place, index, ..)| (*place, *index));
    rows.into_iter().map(|(_, index, image, kept, alt)| (index, image, kept, alt)).collect()
}

/// The `update_draft` body of what the form changed.
fn changes(draft: &DraftView, form: &[(String, String)]) -> Map<String, Value> {
    let sent = |name: &str| form.iter().find(|(key, _)| key == name).map(|(_, value)| value.replace("\r\n", "\n"));
    let all = |name: &str| form.iter().filter(|(key, _)| key == name).map(|(_, value)| value.clone()).collect::<Vec<_>>();
    let (restore, regenerate) = (all("restore"), all("regenerate"));
    let mut body = Map::new();
    let mut fields = Map::new();
    for name in FieldName::ALL {
        let key = name.as_str();
        let Some(text) = sent(&format!("f.{key}")) else { continue };
        let current = draft.fields.get(key);
        let current_text = field_text(current.and_then(|field| field.value.as_ref()));
        // A field being restored or redrafted takes that, not the text in its box.
        if folded(&text) == folded(&current_text) || restore.iter().chain(&regenerate).any(|chosen| chosen == key) {
            continue;
        }
        let value = match name.kind() {
            _ if text.trim().is_empty() => Value::Null,
            FieldKind::List(_) => Value::from(text.lines().map(str::trim).filter(|line| !line.is_empty()).collect::<Vec<_>>()),
            FieldKind::Text(_) => Value::from(text.trim()),
        };
        fields.insert(key.to_owned(), value);
    }
    if !fields.is_empty() {
        body.insert("fields".into(), Value::Object(fields));
    }
    let locks: Vec<String> =
        all("lock").into_iter().filter(|name| draft.fields.get(name).is_some_and(|field| field.state != FieldState::Override)).collect();
    for (key, names) in [("lock_fields", locks), ("restore", restore), ("regenerate", regenerate)] {
        if !names.is_empty() {
            body.insert(key.into(), json!(names));
        }
    }
    let texts = section_texts(draft);
    let changed = |name: &str| {
        let now = texts.iter().find(|(key, _)| *key == name).map(|(_, text)| text.trim().to_owned()).unwrap_or_default();
        sent(name).map(|text| text.trim().to_owned()).filter(|text| *text != now)
    };
    if let Some(text) = changed("faqs") {
        // Pairs are separated by a line with nothing but white space on it.
        let mut blocks: Vec<Vec<&str>> = vec![Vec::new()];
        for line in text.lines() {
            match (line.trim().is_empty(), blocks.last_mut()) {
                (true, Some(block)) if !block.is_empty() => blocks.push(Vec::new()),
                (false, Some(block)) => block.push(line.trim()),
                _ => {}
            }
        }
        let faqs: Vec<Value> = blocks
            .into_iter()
            .filter(|block| !block.is_empty())
            .map(|block| json!({"question": block[0], "answer": block[1..].join("\n")}))
            .collect();
        body.insert("faqs".into(), Value::from(faqs));
    }
    if let Some(text) = changed("founders") {
        let founders: Vec<Value> = text
            .lines()
            .map(str::trim)
            .filter(|line| !line.is_empty())
            .map(|line| {
                let mut parts = line.splitn(3, '|').map(str::trim);
                let name = parts.next().unwrap_or_default();
                let optional = |part: Option<&str>| part.filter(|text| !text.is_empty()).map(str::to_owned);
                json!({"name": name, "title": optional(parts.next()), "bio": optional(parts.next())})
            })
            .collect();
        body.insert("founders".into(), Value::from(founders));
    }
    if let Some(text) = changed("company_socials") {
        let mut socials = Map::new();
        for line in text.lines().map(str::trim).filter(|line| !line.is_empty()) {
            let (platform, link) = line.split_once(char::is_whitespace).unwrap_or((line, ""));
            socials.insert(platform.to_ascii_lowercase(), Value::from(link.trim()));
        }
        body.insert("company_socials".into(), Value::Object(socials));
    }
    let (story, why) = (changed("story"), changed("why_started"));
    if story.is_some() || why.is_some() {
        let mut whole = serde_json::to_value(&draft.story.value).unwrap_or_else(|_| json!({}));
        let blank_to_null = |text: String| if text.is_empty() { Value::Null } else { Value::from(text) };
        if let Some(text) = story {
            whole["story"] = blank_to_null(text);
        }
        if let Some(text) = why {
            whole["why_started"] = blank_to_null(text);
        }
        body.insert("story".into(), whole);
    }
    let pictures = pictures_sent(form);
    let now: Vec<(String, bool, String)> = draft.pictures.iter().map(|p| (p.image.clone(), p.kept, p.alt.clone())).collect();
    let then: Vec<(String, bool, String)> =
        pictures.iter().map(|(_, image, kept, alt)| (image.clone(), *kept, alt.trim().to_owned())).collect();
    if !pictures.is_empty() && now != then {
        let list: Vec<Value> =
            pictures.iter().map(|(_, image, kept, alt)| json!({"image": image, "kept": kept, "alt": alt.trim()})).collect();
        body.insert("pictures".into(), Value::from(list));
    }
    if let Some(text) = changed("milestones") {
        let milestones: Vec<Value> = text
            .lines()
            .map(str::trim)
            .filter(|line| !line.is_empty())
            .enumerate()
            .map(|(position, line)| {
                let mut parts = line.splitn(3, '|').map(str::trim);
                let (date, title) = (parts.next().unwrap_or_default(), parts.next().unwrap_or_default());
                // The description is not edited here: a milestone keeps its own, found by its
                // date and title, else by its place (a title corrected keeps it too).
                let known = draft
                    .milestones
                    .value
                    .iter()
                    .find(|milestone| milestone.date == date && milestone.title == title)
                    .or_else(|| draft.milestones.value.get(position));
                json!({
                    "date": date,
                    "title": title,
                    "url": parts.next().filter(|url| !url.is_empty()),
                    "description": known.and_then(|milestone| milestone.description.clone()),
                })
            })
            .collect();
        body.insert("milestones".into(), Value::from(milestones));
    }
    body
}

pub async fn edit(
    state: web::Data<WebState>,
    request: HttpRequest,
    path: web::Path<String>,
    SignedInPost { session, form, .. }: SignedInPost<Vec<(String, String)>>,
) -> Result<HttpResponse, PageError> {
    let caller = crate::guard::as_person(&session, &request);
    let draft = draft_of(&state, &caller, &path).await?;
    let body = changes(&draft, &form);
    if body.is_empty() {
        return Ok(see_other(&format!("/submit/drafts/{}?saved=1", draft.id)));
    }
    let path = DraftPath { id: draft.id.clone() };
    match async { run_with(UpdateDraft, &state, &caller, path, NoInput {}, ops::parse_body(Value::Object(body))?).await }.await {
        Ok(updated) => Ok(see_other(&format!("/submit/drafts/{}?saved=1", updated.id))),
        Err(OpError::Validation(mut errors)) => {
            // `pictures[k]` counts in the order sent: named by the place on the page instead.
            let places: Vec<usize> = pictures_sent(&form).into_iter().map(|(index, ..)| index).collect();
            for error in &mut errors {
                let Some(rest) = error.field.strip_prefix("pictures[") else { continue };
                let Some((sent_at, tail)) = rest.split_once(']') else { continue };
                if let Some(index) = sent_at.parse::<usize>().ok().and_then(|at| places.get(at)) {
                    error.field = format!("pictures[{index}]{tail}");
                }
            }
            let sent = Sent { values: form, errors };
            Ok(editor_page(&state, &request, &session, draft, StatusCode::BAD_REQUEST, None, sent))
        }
        Err(error) => Err(error.into()),
    }
}
