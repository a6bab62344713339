//! The admin pages' shared parts (the list page, the log, the answers) and the pages of the
//! accounts domain: the index, owner edits, accounts and the audit log. Each page reads from the
//! owning domain's use case, and each change goes through it, is logged in the audit log, and
//! returns to its list with what it did.

use super::notice::{Notice, done};
use super::{Action, Admin, AdminPost, FreeForm, ListPage, ListQuery, Row, has, page_of};
use crate::PageError;
use crate::dates::date_and_time;
use crate::site::{Meta, Pager, page};
use crate::{CsrfForm, WebState};
use accounts::signin::Session;
use actix_web::http::StatusCode;
use actix_web::{HttpRequest, HttpResponse, web};
use kernel::{PageRequest, UserId};

pub(super) fn failed(err: &dyn std::fmt::Display) -> PageError {
    PageError::failed("an admin page failed", err)
}

/// Writes an admin action to the audit log; a failure to log is an error the admin sees.
pub(super) async fn log(state: &WebState, session: &Session, action: &str, target: &str, detail: &str) -> Result<(), PageError> {
    state.app.accounts.admin.record(&session.user, action, target, detail).await.map_err(|err| failed(&err))
}

#[allow(clippy::too_many_arguments)]
pub(super) fn list(
    state: &WebState,
    request: &HttpRequest,
    session: &Session,
    heading: &str,
    intro: &str,
    columns: Vec<&'static str>,
    rows: Vec<Row>,
    search: Option<&ListQuery>,
    pager: Option<Pager>,
    form: Option<FreeForm>,
    status: StatusCode,
) -> HttpResponse {
    let meta = Meta::new(state, request.path(), format!("Admin: {heading}"), intro.to_owned());
    let notice = search.and_then(|query| super::notice::shown(&query.done, query.of));
    let list = ListPage {
        site_name: &state.app.site.name,
        meta,
        path: request.path().to_owned(),
        heading: heading.to_owned(),
        intro: intro.to_owned(),
        csrf: session.csrf_token.clone(),
        columns,
        has_actions: rows.iter().any(|row| !row.actions.is_empty()),
        rows,
        search: search.map(|query| query.q.clone()),
        pager,
        notice,
        form,
    };
    page(request, status, &list)
}

pub async fn index(state: web::Data<WebState>, request: HttpRequest, Admin(session): Admin) -> Result<HttpResponse, PageError> {
    let sections = [
        ("/admin/prices", "Prices", "what each product costs before VAT"),
        ("/admin/vat-rates", "VAT rates", "the rate of each country from a date on"),
        ("/admin/edits", "Owner edits", "what owners changed, before and after"),
        ("/admin/votes", "Votes", "uncounted votes and bursts; discount one"),
        ("/admin/reviews", "Reviews", "hide a review from the site and the rating"),
        ("/admin/orders", "Orders and tasks", "every order (those needing review first), work to do for paid lines"),
        ("/admin/invoices", "Invoices", "every VAT invoice and credit note, as a page and a PDF"),
        ("/admin/claims", "Claims", "ownership claims, their proofs, and proofs that are gone"),
        ("/admin/users", "Accounts", "find and block accounts"),
        ("/admin/audit", "Audit log", "every admin action, who and when"),
    ];
    let rows = sections
        .iter()
        .map(|(url, name, what)| Row {
            listing: None,
            cells: vec![(*what).to_owned()],
            actions: vec![Action { post: false, url: (*url).to_owned(), label: (*name).to_owned(), aria: (*name).to_owned(), input: None }],
        })
        .collect();
    Ok(list(
        &state,
        &request,
        &session,
        "The site team's pages",
        "Everything here is logged.",
        vec!["What", "Page"],
        rows,
        None,
        None,
        None,
        StatusCode::OK,
    ))
}

// --- Owner edits ----------------------------------------------------------------------------

pub async fn edits(
    state: web::Data<WebState>,
    request: HttpRequest,
    query: web::Query<ListQuery>,
    Admin(session): Admin,
) -> Result<HttpResponse, PageError> {
    let versions = match state.app.listings.owners.versions(None, 1000).await {
        Ok(versions) => versions,
        Err(err) => return Err(failed(&err)),
    };
    let matches = |version: &listings::ListingVersion| {
        has(&version.listing_id.to_string(), &query.q)
            || version.editor_email.as_deref().is_some_and(|email| has(email, &query.q))
            || version.changed.iter().any(|key| has(key, &query.q))
    };
    let (shown, pager) = page_of(versions, &query, "/admin/edits", matches);
    let mut marks = super::listing_marks(&state, shown.iter().map(|version| version.listing_id)).await;
    let rows = shown
        .into_iter()
        .map(|version| {
            let (before, after) =
                (serde_json::to_value(&version.before).unwrap_or_default(), serde_json::to_value(&version.after).unwrap_or_default());
            let text = |value: &serde_json::Value| match value {
                serde_json::Value::String(text) => text.clone(),
                serde_json::Value::Null => "(blank)".to_owned(),
                other => other.to_string(),
            };
            let changes = version
                .changed
                .iter()
                .map(|key| format!("{key}: {} → {}", text(&before[key]), text(&after[key])))
                .collect::<Vec<_>>()
                .join("\n");
            Row {
                cells: vec![
                    format!("#{}", version.id),
                    version.listing_id.to_string(),
                    version.editor_email.unwrap_or_else(|| "a closed account".into()),
                    date_and_time(version.created_at),
                    changes,
                ],
                actions: Vec::new(),
                listing: marks.remove(&version.listing_id),
            }
        })
        .collect();
    let intro = "Owners' edits publish at once; each is kept with the copy before and after.";
    Ok(list(
        &state,
        &request,
        &session,
        "Owner edits",
        intro,
        vec!["Edit", "Listing", "By", "When", "Before → after"],
        rows,
        Some(&query),
        Some(pager),
        None,
        StatusCode::OK,
    ))
}

// --- Accounts and the audit log ---------------------------------------------------------------

/// The row and the choice of a `/{id}/{choice}` address: one of two words (`hide` or `show`) as
/// yes or no; any other word names no page.
pub(super) fn row_choice(path: web::Path<(i64, String)>, yes: &str, no: &str) -> Result<(i64, bool), PageError> {
    let (id, word) = path.into_inner();
    if word == yes || word == no {
        Ok((id, word == yes))
    } else {
        Err(PageError::not_found(format!("There is nothing to {word} here: the choices are {yes} and {no}.")))
    }
}

pub(super) fn page_request(query: &ListQuery) -> PageRequest {
    PageRequest::new(query.page.unwrap_or(1).clamp(1, PageRequest::MAX_PAGE), super::PER_PAGE).unwrap_or_default()
}

pub async fn users(
    state: web::Data<WebState>,
    request: HttpRequest,
    query: web::Query<ListQuery>,
    Admin(session): Admin,
) -> Result<HttpResponse, PageError> {
    let request_page = page_request(&query);
    let found = match state.app.accounts.admin.users(Some(&query.q), request_page).await {
        Ok(found) => found,
        Err(err) => return Err(failed(&err)),
    };
    let pager = Pager::new("/admin/users", &[("q", query.q.clone())], found.page, found.per_page, found.total);
    let rows = found
        .items
        .into_iter()
        .map(|user| {
            let (choice, label) = if user.blocked { ("unblock", "Unblock") } else { ("block", "Block") };
            let mut state_words = vec![if user.blocked { "blocked" } else { "active" }];
            if user.is_admin {
                state_words.push("admin");
            }
            if user.email_confirmed_at.is_some() {
                state_words.push("confirmed");
            }
            Row {
                listing: None,
                cells: vec![
                    user.id.to_string(),
                    user.email.to_string(),
                    user.display_name.clone(),
                    date_and_time(user.created_at),
                    state_words.join(", "),
                ],
                actions: if user.id == session.user.id {
                    Vec::new()
                } else {
                    vec![Action {
                        post: true,
                        url: format!("/admin/users/{}/{choice}", user.id),
                        label: label.into(),
                        aria: format!("{label} {}", user.email),
                        input: None,
                    }]
                },
            }
        })
        .collect();
    let intro = "A blocked account is refused everywhere: its sessions, API keys and OAuth tokens stop working at once.";
    Ok(list(
        &state,
        &request,
        &session,
        "Accounts",
        intro,
        vec!["Id", "E-mail", "Name", "Since", "State"],
        rows,
        Some(&query),
        Some(pager),
        None,
        StatusCode::OK,
    ))
}

pub async fn block_user(
    state: web::Data<WebState>,
    path: web::Path<(i64, String)>,
    AdminPost { session, .. }: AdminPost<CsrfForm>,
) -> Result<HttpResponse, PageError> {
    let (id, blocked) = row_choice(path, "block", "unblock")?;
    match state.app.accounts.admin.set_blocked(&session.user, UserId::new(id), blocked).await {
        Ok(true) => Ok(done("/admin/users", if blocked { Notice::AccountBlocked } else { Notice::AccountUnblocked }, Some(id))),
        Ok(false) => {
            Err(PageError::new(StatusCode::NOT_FOUND, "Nothing changed", "No other account has this number, or it was so already."))
        }
        Err(err) => Err(failed(&err)),
    }
}

pub async fn audit(
    state: web::Data<WebState>,
    request: HttpRequest,
    query: web::Query<ListQuery>,
    Admin(session): Admin,
) -> Result<HttpResponse, PageError> {
    let found = match state.app.accounts.admin.audit(Some(&query.q), page_request(&query)).await {
        Ok(found) => found,
        Err(err) => return Err(failed(&err)),
    };
    let pager = Pager::new("/admin/audit", &[("q", query.q.clone())], found.page, found.per_page, found.total);
    let rows = found
        .items
        .into_iter()
        .map(|entry| Row {
            cells: vec![date_and_time(entry.at), entry.actor_email, entry.action, entry.target, entry.detail],
            ..Row::default()
        })
        .collect();
    Ok(list(
        &state,
        &request,
        &session,
        "Audit log",
        "Every admin action, newest first.",
        vec!["When", "Who", "Action", "To what", "What changed"],
        rows,
        Some(&query),
        Some(pager),
        None,
        StatusCode::OK,
    ))
}
