//! What the editor's form sends, turned into `update_draft`: only what changed (a drafted value
//! left alone keeps its state and quotes), the category picker's choices as one list, the
//! sections' lines as their items, and the pictures in the places the person gave them. "Save
//! and submit" saves first, then runs `submit_draft`, so nothing typed is lost.

use super::{Sent, editor_page, field_text, folded, section_texts};
use crate::site::run_with;
use crate::submit::{draft_of, see_other};
use crate::{PageError, SignedInPost, WebState};
use actix_web::http::StatusCode;
use actix_web::{HttpRequest, HttpResponse, web};
use drafts::{FieldKind, FieldName, FieldState};
use ops::operations::drafts::{SubmitDraft, UpdateDraft};
use ops::wire::{DraftPath, DraftView};
use ops::{NoInput, OpError};
use serde_json::{Map, Value, json};

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

/// The category picker's choices as the `f.categories` box would send them: the main category
/// first (the listing's primary), then the others ticked. Without the picker on the page (an
/// older form), the form is left as it is.
fn with_picked_categories(mut form: Vec<(String, String)>) -> Vec<(String, String)> {
    if !form.iter().any(|(key, _)| key == "categories_shown") {
        return form;
    }
    let main = form.iter().find(|(key, _)| key == "category_main").map(|(_, slug)| slug.trim().to_owned()).filter(|slug| !slug.is_empty());
    let mut picked: Vec<String> = main.into_iter().collect();
    for (_, slug) in form.iter().filter(|(key, _)| key == "category") {
        if !slug.trim().is_empty() && !picked.iter().any(|known| known == slug.trim()) {
            picked.push(slug.trim().to_owned());
        }
    }
    form.retain(|(key, _)| key != "f.categories");
    form.push(("f.categories".to_owned(), picked.join("\n")));
    form
}

/// `POST /submit/drafts/<id>`: saves what changed; with "Save and submit", then submits the
/// draft as a listing and goes on to choosing how to launch. Whatever is refused comes back in
/// the editor, at the top and beside its field, with everything as typed.
pub async fn edit(
    state: web::Data<WebState>,
    request: HttpRequest,
    path: web::Path<String>,
    SignedInPost { session, form, .. }: SignedInPost<Vec<(String, String)>>,
) -> Result<HttpResponse, PageError> {
    let caller = crate::guard::as_person(&session, &request);
    let draft = draft_of(&state, &caller, &path).await?;
    let form = with_picked_categories(form);
    let submitting = form.iter().any(|(key, value)| key == "action" && value == "submit");
    let body = changes(&draft, &form);
    let saved = if body.is_empty() {
        draft
    } else {
        let path = DraftPath { id: draft.id.clone() };
        match async { run_with(UpdateDraft, &state, &caller, path, NoInput {}, ops::parse_body(Value::Object(body))?).await }.await {
            Ok(updated) => updated,
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
                return Ok(editor_page(&state, &request, &session, draft, StatusCode::BAD_REQUEST, None, sent).await);
            }
            Err(error) => return Err(error.into()),
        }
    };
    if !submitting {
        return Ok(see_other(&format!("/submit/drafts/{}?saved=1", saved.id)));
    }
    match run_with(SubmitDraft, &state, &caller, DraftPath { id: saved.id.clone() }, NoInput {}, NoInput {}).await {
        Ok(submitted) => Ok(see_other(&format!("/submit/drafts/{}/launch", submitted.draft.id))),
        Err(OpError::Validation(errors)) => {
            // Saved, but not ready: what the listing still needs, beside its field.
            let notice = Some("Your changes are saved, but the draft cannot be submitted yet: see below.".to_owned());
            let draft = draft_of(&state, &caller, &saved.id).await?;
            Ok(editor_page(&state, &request, &session, draft, StatusCode::BAD_REQUEST, notice, Sent { values: Vec::new(), errors }).await)
        }
        Err(error) => Err(error.into()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_picker_sends_the_main_category_first() {
        let pairs = |items: &[(&str, &str)]| items.iter().map(|(k, v)| ((*k).to_owned(), (*v).to_owned())).collect::<Vec<_>>();
        let form = with_picked_categories(pairs(&[
            ("categories_shown", "1"),
            ("category", "note-taking"),
            ("category_main", "productivity"),
            ("category", "productivity"),
            ("f.categories", "stale"),
        ]));
        let sent: Vec<&str> = form.iter().filter(|(key, _)| key == "f.categories").map(|(_, value)| value.as_str()).collect();
        assert_eq!(sent, ["productivity\nnote-taking"]);
        let untouched = with_picked_categories(pairs(&[("f.categories", "design")]));
        assert_eq!(untouched, pairs(&[("f.categories", "design")]));
    }
}
