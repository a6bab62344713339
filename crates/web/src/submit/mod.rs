//! Submission in the browser: `/submit` takes a website address (signed in; a stranger is asked
//! to sign in first), `/submit/drafts/<id>` shows the draft's progress while the site is read and
//! drafted (the page's script polls `/submit/drafts/<id>/status`; without it, a link checks
//! again), then the editor (`editor`), and `launch` submits the draft and takes the free queue;
//! `paid` shapes a paid launch (week, extras, the price with VAT) and goes to its checkout.
//! Every step runs the operation the API runs (`submit_listing`, `get_draft`, `update_draft`,
//! `submit_draft`, `choose_free_listing`, `list_products`, `quote_order`, `create_checkout`,
//! `get_badges`) as the person, so a draft of someone else is 404 here too.

mod editor;
mod launch;
mod paid;

use crate::guard::as_person;
use crate::site::{Meta, page, run_with};
use crate::{PageError, SignedInPost};
use crate::{WebState, session, words};
use actix_web::http::StatusCode;
use actix_web::{HttpRequest, HttpResponse, web};
use askama::Template;
use drafts::DraftStatus;
use kernel::FieldError;
use ops::operations::drafts::{GetDraft, ListMyDrafts, SubmitListing};
use ops::operations::owner::ListMyListings;
use ops::wire::{DraftPath, DraftView};
use ops::{Caller, NoInput, OpError, Pagination};

pub(crate) use editor::{Sent as EditorSent, edit, editor_page};
pub(crate) use launch::{choose_free, launch_page};
pub(crate) use paid::{paid_page, quote, shape_paid};

/// Registers the submission pages (each counted by the rate limits).
pub(crate) fn configure(cfg: &mut web::ServiceConfig) {
    let resource = |path: &str| web::resource(path).wrap(actix_web::middleware::from_fn(crate::limits::limit));
    cfg.service(resource("/submit").route(web::get().to(start_page)).route(web::post().to(start)))
        .service(resource("/submit/drafts/{id}").route(web::get().to(draft_page)).route(web::post().to(edit)))
        .service(resource("/submit/drafts/{id}/status").route(web::get().to(status)))
        .service(resource("/submit/drafts/{id}/pictures").route(web::post().to(crate::pictures::send_to_draft)))
        .service(resource("/submit/drafts/{id}/launch").route(web::get().to(launch_page)))
        .service(resource("/submit/drafts/{id}/free").route(web::post().to(choose_free)))
        .service(resource("/submit/drafts/{id}/paid").route(web::get().to(paid_page)).route(web::post().to(shape_paid)))
        .service(resource("/submit/drafts/{id}/quote").route(web::post().to(quote)));
}

/// A draft of the person's, as `/submit` lists it.
struct DraftRow {
    id: String,
    name: String,
    status: String,
}

#[derive(Template)]
#[template(path = "site/submit.html")]
struct StartPage<'a> {
    site_name: &'a str,
    meta: Meta,
    api_base: &'a str,
    mcp: String,
    /// The session's CSRF token; `None` when not signed in.
    csrf: Option<String>,
    url: String,
    error: Option<String>,
    drafts: Vec<DraftRow>,
    /// A draft or listing of the person's for the same site, found before reading it again.
    existing: Option<Existing>,
}

/// What the person already has for a site they submit again.
struct Existing {
    /// "a draft" or "a listing".
    what: &'static str,
    name: String,
    href: String,
    domain: String,
}

async fn render_start(
    state: &WebState,
    request: &HttpRequest,
    status: StatusCode,
    url: &str,
    error: Option<String>,
    existing: Option<Existing>,
) -> HttpResponse {
    let session = session(state, request).await;
    let mut drafts = Vec::new();
    if let Some(session) = &session {
        let caller = as_person(session, request);
        match run_with(ListMyDrafts, state, &caller, NoInput {}, Pagination::first(20), NoInput {}).await {
            Ok(page) => {
                drafts = page
                    .items
                    .into_iter()
                    .map(|draft| DraftRow { name: draft.name.unwrap_or(draft.url), status: words(draft.status), id: draft.id })
                    .collect();
            }
            Err(err) => tracing::warn!(error = %err, "could not list the person's drafts"),
        }
    }
    let meta = Meta::new(
        state,
        "/submit",
        "Submit a product",
        "Submit a product: give its website address, check the draft we write from it, then launch free or paid.",
    );
    let start = StartPage {
        site_name: &state.app.site.name,
        meta,
        api_base: &state.app.site.base_url,
        mcp: format!("{}/mcp", state.site_url),
        csrf: session.map(|session| session.csrf_token),
        url: url.to_owned(),
        error,
        drafts,
        existing,
    };
    page(request, status, &start)
}

pub async fn start_page(state: web::Data<WebState>, request: HttpRequest) -> HttpResponse {
    render_start(&state, &request, StatusCode::OK, "", None, None).await
}

#[derive(Debug, serde::Deserialize)]
pub struct StartForm {
    #[serde(default)]
    csrf: String,
    #[serde(default)]
    url: String,
    /// "1" once the person chose to read a site again that they have a draft or listing of.
    #[serde(default)]
    again: String,
}

crate::guard::token_in_csrf_field!(StartForm);

/// The person's draft or listing of the same site as `url` (compared by the site's domain, so
/// `www.` and paths do not matter); drafts first, since a submitted draft made its listing.
async fn already_there(state: &WebState, caller: &Caller, url: &str) -> Option<Existing> {
    let domain = kernel::WebUrl::parse(url.trim()).ok()?.site_domain().to_owned();
    let same = |other: &str| kernel::WebUrl::parse(other).is_ok_and(|other| other.site_domain() == domain);
    let drafts = run_with(ListMyDrafts, state, caller, NoInput {}, Pagination::first(100), NoInput {}).await.ok()?;
    if let Some(draft) = drafts.items.into_iter().find(|draft| same(&draft.url)) {
        let name = draft.name.unwrap_or_else(|| domain.clone());
        return Some(Existing { what: "a draft", name, href: format!("/submit/drafts/{}", draft.id), domain });
    }
    let listings = run_with(ListMyListings, state, caller, NoInput {}, Pagination::first(100), NoInput {}).await.ok()?;
    let listing = listings.items.into_iter().find(|listing| same(&listing.url))?;
    Some(Existing { what: "a listing", name: listing.name, href: format!("/account/listings/{}", listing.id), domain })
}

pub async fn start(
    state: web::Data<WebState>,
    request: HttpRequest,
    SignedInPost { session, form, .. }: SignedInPost<StartForm>,
) -> Result<HttpResponse, PageError> {
    let caller = as_person(&session, &request);
    // The same site again: say so (with a link) before reading it into a second draft.
    if form.again != "1"
        && let Some(existing) = already_there(&state, &caller, &form.url).await
    {
        return Ok(render_start(&state, &request, StatusCode::OK, &form.url, None, Some(existing)).await);
    }
    let body = serde_json::json!({"url": form.url.trim()});
    match async { run_with(SubmitListing, &state, &caller, NoInput {}, NoInput {}, ops::parse_body(body)?).await }.await {
        Ok(draft) => Ok(see_other(&format!("/submit/drafts/{}", draft.id))),
        Err(OpError::Validation(errors)) => {
            let message = crate::error_of(&errors, "url").or_else(|| errors.first().map(|error| error.message.as_str()));
            Ok(render_start(&state, &request, StatusCode::BAD_REQUEST, &form.url, message.map(str::to_owned), None).await)
        }
        Err(error) => Err(error.into()),
    }
}

fn see_other(location: &str) -> HttpResponse {
    HttpResponse::SeeOther().insert_header(("Location", location.to_owned())).finish()
}

/// The signed-in person and their caller, or the way to sign in (coming back here).
async fn person(state: &WebState, request: &HttpRequest) -> Result<(accounts::signin::Session, Caller), PageError> {
    let session = crate::guard::signed_in(state, request).await?;
    let caller = as_person(&session, request);
    Ok((session, caller))
}

pub(crate) async fn draft_of(state: &WebState, caller: &Caller, id: &str) -> Result<DraftView, OpError> {
    run_with(GetDraft, state, caller, DraftPath { id: id.to_owned() }, NoInput {}, NoInput {}).await
}

/// Whether the draft is still being read or drafted (the page polls).
fn in_progress(draft: &DraftView) -> bool {
    matches!(draft.status, DraftStatus::Crawling | DraftStatus::Drafting) || !draft.regenerating.is_empty()
}

/// What the progress line says.
fn progress_message(draft: &DraftView) -> String {
    match draft.status {
        DraftStatus::Crawling => {
            format!("Reading your website: {} read so far.", crate::site::plural(draft.pages_read.len() as u64, "page", "pages"))
        }
        DraftStatus::Drafting => format!("Writing the draft from {}.", crate::site::plural(draft.pages_read.len() as u64, "page", "pages")),
        _ if !draft.regenerating.is_empty() => {
            format!(
                "Redrafting from your website: {}.",
                draft.regenerating.iter().map(|name| name.as_str().replace('_', " ")).collect::<Vec<_>>().join(", ")
            )
        }
        _ => "The draft is ready.".to_owned(),
    }
}

#[derive(Template)]
#[template(path = "site/draft_progress.html")]
struct ProgressPage<'a> {
    site_name: &'a str,
    meta: Meta,
    draft: DraftView,
    message: String,
}

pub async fn draft_page(state: web::Data<WebState>, request: HttpRequest, path: web::Path<String>) -> Result<HttpResponse, PageError> {
    let (session, caller) = person(&state, &request).await?;
    let draft = draft_of(&state, &caller, &path).await?;
    if matches!(draft.status, DraftStatus::Crawling | DraftStatus::Drafting | DraftStatus::Failed) {
        let meta = Meta::new(&state, request.path(), "Your draft", "Your product's draft.");
        let message = progress_message(&draft);
        return Ok(page(&request, StatusCode::OK, &ProgressPage { site_name: &state.app.site.name, meta, draft, message }));
    }
    let notice = match request.query_string() {
        "saved=1" => Some("Your changes are saved.".to_owned()),
        _ => None,
    };
    Ok(editor_page(&state, &request, &session, draft, StatusCode::OK, notice, editor::Sent::default()).await)
}

/// `/submit/drafts/<id>/status`: what the progress page's script polls.
pub async fn status(state: web::Data<WebState>, request: HttpRequest, path: web::Path<String>) -> Result<HttpResponse, PageError> {
    let (_, caller) = person(&state, &request).await?;
    let draft = draft_of(&state, &caller, &path).await?;
    Ok(HttpResponse::Ok()
        .insert_header(("Cache-Control", "no-store"))
        .json(serde_json::json!({"status": draft.status, "done": !in_progress(&draft), "message": progress_message(&draft)})))
}

/// The errors of `prefix` (`faqs`, `founders[1].name`, `fields.tagline`) in one line; a part of
/// it is named by its place as people count ("item 2, answer: ..."), so the person finds the line.
pub(crate) fn errors_under(errors: &[FieldError], prefix: &str) -> Option<String> {
    let found: Vec<String> = errors
        .iter()
        .filter_map(|error| {
            let rest = error.field.strip_prefix(prefix)?;
            if rest.is_empty() {
                return Some(error.message.clone());
            }
            if !rest.starts_with(['.', '[']) {
                return None;
            }
            let parts: Vec<String> = rest
                .split(['.', '['])
                .filter(|part| !part.is_empty())
                .map(|part| match part.strip_suffix(']').and_then(|index| index.parse::<usize>().ok()) {
                    Some(index) => format!("item {}", index + 1),
                    None => part.replace('_', " "),
                })
                .collect();
            Some(format!("{}: {}", parts.join(", "), error.message))
        })
        .collect();
    (!found.is_empty()).then(|| found.join("; "))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_part_of_a_field_is_named_as_people_count() {
        let errors = vec![
            FieldError::new("fields.categories[0]", "is not a category"),
            FieldError::new("faqs[1].answer", "is too long"),
            FieldError::new("fields.tagline", "is too long"),
            FieldError::new("fields.taglines", "is not this field"),
        ];
        assert_eq!(errors_under(&errors, "fields.categories").as_deref(), Some("item 1: is not a category"));
        assert_eq!(errors_under(&errors, "faqs").as_deref(), Some("item 2, answer: is too long"));
        assert_eq!(errors_under(&errors, "fields.tagline").as_deref(), Some("is too long"));
    }
}
