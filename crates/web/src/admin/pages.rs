//! The admin pages: each reads from the owning domain's use case, and each change goes through
//! it, is logged in the audit log, and returns to its list with what it did.

use super::{Action, FreeForm, Input, ListPage, ListQuery, Row, admin, admin_post, has, page_of};
use crate::site::{Meta, Pager, page};
use crate::{WebState, message};
use accounts::signin::Session;
use actix_web::http::StatusCode;
use actix_web::{HttpRequest, HttpResponse, web};
use kernel::{Cents, CountryCode, PageRequest, UserId};
use orders::{OrderStatus, VatRate, VatRateEntry};
use serde::Deserialize;

fn day(at: time::OffsetDateTime) -> String {
    let at = at.to_offset(time::UtcOffset::UTC);
    format!("{} {:02}:{:02}", at.date(), at.hour(), at.minute())
}

/// Back to `path` with what was done, shown once.
fn done(path: &str, what: &str) -> HttpResponse {
    let query = serde_urlencoded::to_string([("done", what)]).unwrap_or_default();
    HttpResponse::SeeOther().insert_header(("Location", format!("{path}?{query}"))).finish()
}

fn failed(state: &WebState, err: &dyn std::fmt::Display) -> HttpResponse {
    tracing::error!(error = %err, "an admin page failed");
    message(state, StatusCode::INTERNAL_SERVER_ERROR, "Something went wrong", "Please try again in a moment.")
}

/// Writes an admin action to the audit log; a failure to log is an error the admin sees.
async fn log(state: &WebState, session: &Session, action: &str, target: &str, detail: &str) -> Result<(), HttpResponse> {
    state.app.admin.record(&session.user, action, target, detail).await.map_err(|err| failed(state, &err))
}

#[allow(clippy::too_many_arguments)]
fn list(
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
    let notice = search.map(|query| query.done.clone()).filter(|done| !done.is_empty());
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

pub async fn index(state: web::Data<WebState>, request: HttpRequest) -> HttpResponse {
    let session = match admin(&state, &request).await {
        Ok(session) => session,
        Err(answer) => return answer,
    };
    let sections = [
        ("/admin/prices", "Prices", "what each product costs before VAT"),
        ("/admin/vat-rates", "VAT rates", "the rate of each country from a date on"),
        ("/admin/edits", "Owner edits", "what owners changed, before and after"),
        ("/admin/votes", "Votes", "uncounted votes and bursts; discount one"),
        ("/admin/reviews", "Reviews", "hide a review from the site and the rating"),
        ("/admin/orders", "Orders and tasks", "orders needing review, work to do for paid lines"),
        ("/admin/users", "Accounts", "find and block accounts"),
        ("/admin/audit", "Audit log", "every admin action, who and when"),
    ];
    let rows = sections
        .iter()
        .map(|(url, name, what)| Row {
            cells: vec![(*what).to_owned()],
            actions: vec![Action { post: false, url: (*url).to_owned(), label: (*name).to_owned(), aria: (*name).to_owned(), input: None }],
        })
        .collect();
    list(
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
    )
}

// --- Prices and VAT rates ---------------------------------------------------------------------

async fn prices_page(
    state: &web::Data<WebState>,
    request: &HttpRequest,
    session: &Session,
    query: &ListQuery,
    problem: Option<(String, String)>,
) -> HttpResponse {
    let offers = match state.app.catalog.price_list().await {
        Ok(offers) => offers,
        Err(err) => return failed(state, &err),
    };
    let (shown, pager) =
        page_of(offers, query, "/admin/prices", |offer| has(&offer.product.code, &query.q) || has(&offer.product.name, &query.q));
    let rows = shown
        .into_iter()
        .map(|offer| {
            let product = offer.product;
            let error = problem.as_ref().filter(|(code, _)| *code == product.code).map(|(_, message)| message.clone());
            Row {
                cells: vec![product.code.clone(), product.name.clone(), product.price.to_string()],
                actions: vec![Action {
                    post: true,
                    url: format!("/admin/prices/{}", product.code),
                    label: "Set the price".into(),
                    aria: format!("Set the price of {}", product.name),
                    input: Some(Input {
                        id: format!("price-{}", product.code),
                        name: "cents",
                        label: format!("New price of {} (US cents, before VAT)", product.name),
                        value: product.price.get().to_string(),
                        error,
                    }),
                }],
            }
        })
        .collect();
    let status = if problem.is_some() { StatusCode::BAD_REQUEST } else { StatusCode::OK };
    let intro = "The next quote uses a new price; orders made before keep theirs.";
    list(state, request, session, "Prices", intro, vec!["Code", "Product", "Price"], rows, Some(query), Some(pager), None, status)
}

pub async fn prices(state: web::Data<WebState>, request: HttpRequest, query: web::Query<ListQuery>) -> HttpResponse {
    match admin(&state, &request).await {
        Ok(session) => prices_page(&state, &request, &session, &query, None).await,
        Err(answer) => answer,
    }
}

#[derive(Debug, Deserialize)]
pub struct PriceForm {
    #[serde(default)]
    csrf: String,
    #[serde(default)]
    cents: String,
}

pub async fn set_price(
    state: web::Data<WebState>,
    request: HttpRequest,
    path: web::Path<String>,
    form: web::Form<PriceForm>,
) -> HttpResponse {
    let session = match admin_post(&state, &request, &form.csrf).await {
        Ok(session) => session,
        Err(answer) => return answer,
    };
    let code = path.into_inner();
    let cents = match form.cents.trim().parse::<i64>() {
        Ok(cents @ 0..=100_000_000) => Cents::new(cents),
        _ => {
            let problem = (code, "a whole number of cents from 0 to 100000000".to_owned());
            return prices_page(&state, &request, &session, &ListQuery::default(), Some(problem)).await;
        }
    };
    let before = state.app.catalog.price_list().await.ok().and_then(|offers| offers.into_iter().find(|offer| offer.product.code == code));
    let Some(before) = before else {
        return message(&state, StatusCode::NOT_FOUND, "No such product", "There is no product with this code.");
    };
    if before.product.price == cents {
        return done("/admin/prices", &format!("{} costs {cents} already; nothing changed.", before.product.name));
    }
    match state.app.catalog.set_price(&code, cents).await {
        Ok(true) => {
            if let Err(answer) =
                log(&state, &session, "price.set", &format!("product {code}"), &format!("{} -> {cents}", before.product.price)).await
            {
                return answer;
            }
            done("/admin/prices", &format!("{} now costs {cents}.", before.product.name))
        }
        Ok(false) => message(&state, StatusCode::NOT_FOUND, "No such product", "There is no product with this code."),
        Err(err) => failed(&state, &err),
    }
}

async fn vat_page(
    state: &web::Data<WebState>,
    request: &HttpRequest,
    session: &Session,
    query: &ListQuery,
    sent: Option<(&VatForm, Vec<(&'static str, String)>)>,
) -> HttpResponse {
    let rates = match state.app.orders.vat_rates().await {
        Ok(rates) => rates,
        Err(err) => return failed(state, &err),
    };
    let (shown, pager) = page_of(rates, query, "/admin/vat-rates", |entry| has(entry.country.as_str(), &query.q));
    let rows = shown
        .into_iter()
        .map(|entry| Row {
            cells: vec![entry.country.to_string(), entry.rate.to_string(), entry.valid_from.to_string()],
            actions: Vec::new(),
        })
        .collect();
    let error = |name: &str| {
        sent.as_ref().and_then(|(_, errors)| errors.iter().find(|(field, _)| *field == name).map(|(_, message)| message.clone()))
    };
    let value = |pick: fn(&VatForm) -> &String| sent.as_ref().map(|(form, _)| pick(form).clone()).unwrap_or_default();
    let form = FreeForm {
        url: "/admin/vat-rates".into(),
        button: "Set the rate".into(),
        inputs: vec![
            Input {
                id: "vat-country".into(),
                name: "country",
                label: "Country (two letters)".into(),
                value: value(|form| &form.country),
                error: error("country"),
            },
            Input {
                id: "vat-percent".into(),
                name: "percent",
                label: "Rate in percent (25.5)".into(),
                value: value(|form| &form.percent),
                error: error("percent"),
            },
            Input {
                id: "vat-from".into(),
                name: "from",
                label: "From (YYYY-MM-DD)".into(),
                value: value(|form| &form.from),
                error: error("from"),
            },
        ],
    };
    let status = if sent.is_some() { StatusCode::BAD_REQUEST } else { StatusCode::OK };
    let intro = "A new rate applies from its date on; quotes before it keep the old one.";
    list(state, request, session, "VAT rates", intro, vec!["Country", "Rate", "From"], rows, Some(query), Some(pager), Some(form), status)
}

pub async fn vat_rates(state: web::Data<WebState>, request: HttpRequest, query: web::Query<ListQuery>) -> HttpResponse {
    match admin(&state, &request).await {
        Ok(session) => vat_page(&state, &request, &session, &query, None).await,
        Err(answer) => answer,
    }
}

#[derive(Debug, Deserialize)]
pub struct VatForm {
    #[serde(default)]
    csrf: String,
    #[serde(default)]
    country: String,
    #[serde(default)]
    percent: String,
    #[serde(default)]
    from: String,
}

pub async fn set_vat_rate(state: web::Data<WebState>, request: HttpRequest, form: web::Form<VatForm>) -> HttpResponse {
    let session = match admin_post(&state, &request, &form.csrf).await {
        Ok(session) => session,
        Err(answer) => return answer,
    };
    let mut errors: Vec<(&'static str, String)> = Vec::new();
    let country = CountryCode::parse(form.country.trim()).map_err(|err| errors.push(("country", err.0.to_string()))).ok();
    let rate = VatRate::parse_percent(form.percent.trim()).or_else(|| {
        errors.push(("percent", "a number from 0 to 100 with at most two decimals".to_owned()));
        None
    });
    let from = time::Date::parse(form.from.trim(), time::macros::format_description!("[year]-[month]-[day]"))
        .map_err(|_| errors.push(("from", "a date YYYY-MM-DD".to_owned())))
        .ok();
    let (Some(country), Some(rate), Some(valid_from)) = (country, rate, from) else {
        return vat_page(&state, &request, &session, &ListQuery::default(), Some((&form, errors))).await;
    };
    let entry = VatRateEntry { country: country.clone(), rate, valid_from };
    if let Err(err) = state.app.orders.set_vat_rate(&entry).await {
        return failed(&state, &err);
    }
    if let Err(answer) = log(&state, &session, "vat_rate.set", &format!("country {country}"), &format!("{rate} from {valid_from}")).await {
        return answer;
    }
    done("/admin/vat-rates", &format!("{country}: {rate} from {valid_from}."))
}

// --- Owner edits ----------------------------------------------------------------------------

pub async fn edits(state: web::Data<WebState>, request: HttpRequest, query: web::Query<ListQuery>) -> HttpResponse {
    let session = match admin(&state, &request).await {
        Ok(session) => session,
        Err(answer) => return answer,
    };
    let versions = match state.app.owners.versions(None, 1000).await {
        Ok(versions) => versions,
        Err(err) => return failed(&state, &err),
    };
    let matches = |version: &listings::ListingVersion| {
        has(&version.listing_id.to_string(), &query.q)
            || version.editor_email.as_deref().is_some_and(|email| has(email, &query.q))
            || version.changed.iter().any(|key| has(key, &query.q))
    };
    let (shown, pager) = page_of(versions, &query, "/admin/edits", matches);
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
                    day(version.created_at),
                    changes,
                ],
                actions: Vec::new(),
            }
        })
        .collect();
    let intro = "Owners' edits publish at once; each is kept with the copy before and after.";
    list(
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
    )
}

// --- Votes and reviews ------------------------------------------------------------------------

pub async fn votes(state: web::Data<WebState>, request: HttpRequest, query: web::Query<ListQuery>) -> HttpResponse {
    let session = match admin(&state, &request).await {
        Ok(session) => session,
        Err(answer) => return answer,
    };
    let flagged = match state.app.votes.suspicious(30, 5, time::Duration::minutes(10)).await {
        Ok(flagged) => flagged,
        Err(err) => return failed(&state, &err),
    };
    let (shown, pager) = page_of(flagged, &query, "/admin/votes", |vote| {
        has(vote.listing.as_str(), &query.q) || has(vote.network.as_deref().unwrap_or(""), &query.q)
    });
    let rows = shown
        .into_iter()
        .map(|vote| {
            let state_words = match (vote.counted, vote.discounted_at) {
                (_, Some(_)) => "discounted",
                (true, None) => "counted",
                (false, None) => "not counted (young account)",
            };
            Row {
                cells: vec![
                    format!("#{}", vote.id),
                    vote.listing.to_string(),
                    day(vote.at),
                    format!("account {} since {}", vote.user, day(vote.account_created_at)),
                    vote.network.unwrap_or_default(),
                    state_words.to_owned(),
                ],
                actions: if vote.counted {
                    vec![Action {
                        post: true,
                        url: format!("/admin/votes/{}/discount", vote.id),
                        label: "Discount".into(),
                        aria: format!("Discount vote {}", vote.id),
                        input: None,
                    }]
                } else {
                    Vec::new()
                },
            }
        })
        .collect();
    let intro = "Uncounted votes, bursts from one network and accounts made together, last 30 days.";
    list(
        &state,
        &request,
        &session,
        "Votes",
        intro,
        vec!["Vote", "Listing", "When", "Account", "Network", "State"],
        rows,
        Some(&query),
        Some(pager),
        None,
        StatusCode::OK,
    )
}

#[derive(Debug, Deserialize)]
pub struct CsrfForm {
    #[serde(default)]
    csrf: String,
}

pub async fn discount_vote(
    state: web::Data<WebState>,
    request: HttpRequest,
    path: web::Path<i64>,
    form: web::Form<CsrfForm>,
) -> HttpResponse {
    let session = match admin_post(&state, &request, &form.csrf).await {
        Ok(session) => session,
        Err(answer) => return answer,
    };
    let id = path.into_inner();
    match state.app.votes.discount(id).await {
        Ok(true) => {
            if let Err(answer) = log(&state, &session, "vote.discount", &format!("vote {id}"), "counted -> discounted").await {
                return answer;
            }
            done("/admin/votes", &format!("Vote {id} no longer counts."))
        }
        Ok(false) => message(&state, StatusCode::NOT_FOUND, "No such vote", "No counted vote has this number."),
        Err(err) => failed(&state, &err),
    }
}

pub async fn reviews(state: web::Data<WebState>, request: HttpRequest, query: web::Query<ListQuery>) -> HttpResponse {
    let session = match admin(&state, &request).await {
        Ok(session) => session,
        Err(answer) => return answer,
    };
    let recent = match state.app.reviews.recent(1000).await {
        Ok(recent) => recent,
        Err(err) => return failed(&state, &err),
    };
    let (shown, pager) = page_of(recent, &query, "/admin/reviews", |(listing, review)| {
        has(listing.as_str(), &query.q) || has(&review.body, &query.q) || has(&review.author, &query.q)
    });
    let rows = shown
        .into_iter()
        .map(|(listing, review)| {
            let (choice, label) = if review.hidden { ("show", "Show again") } else { ("hide", "Hide") };
            let state_words = match (review.hidden, review.genuine) {
                (true, _) => "hidden",
                (false, true) => "counted",
                (false, false) => "shown, not counted",
            };
            Row {
                cells: vec![
                    format!("#{}", review.id),
                    listing.to_string(),
                    review.author,
                    format!("{}/5", review.rating),
                    review.body,
                    state_words.to_owned(),
                ],
                actions: vec![Action {
                    post: true,
                    url: format!("/admin/reviews/{}/{choice}", review.id),
                    label: label.into(),
                    aria: format!("{label} review {}", review.id),
                    input: None,
                }],
            }
        })
        .collect();
    let intro = "A hidden review leaves the page and the rating; its author still sees it, marked.";
    list(
        &state,
        &request,
        &session,
        "Reviews",
        intro,
        vec!["Review", "Listing", "Author", "Rating", "Text", "State"],
        rows,
        Some(&query),
        Some(pager),
        None,
        StatusCode::OK,
    )
}

pub async fn moderate_review(
    state: web::Data<WebState>,
    request: HttpRequest,
    path: web::Path<(i64, String)>,
    form: web::Form<CsrfForm>,
) -> HttpResponse {
    let session = match admin_post(&state, &request, &form.csrf).await {
        Ok(session) => session,
        Err(answer) => return answer,
    };
    let (id, choice) = path.into_inner();
    let hide = match choice.as_str() {
        "hide" => true,
        "show" => false,
        _ => return crate::site::not_found(state, request).await,
    };
    match state.app.reviews.set_hidden(id, hide).await {
        Ok(Some(false)) => {
            done("/admin/reviews", &format!("Review {id} was {} already; nothing changed.", if hide { "hidden" } else { "shown" }))
        }
        Ok(Some(true)) => {
            let (action, detail) = if hide { ("review.hide", "shown -> hidden") } else { ("review.show", "hidden -> shown") };
            if let Err(answer) = log(&state, &session, action, &format!("review {id}"), detail).await {
                return answer;
            }
            done("/admin/reviews", &format!("Review {id} is {}.", if hide { "hidden" } else { "shown again" }))
        }
        Ok(None) => message(&state, StatusCode::NOT_FOUND, "No such review", "No review has this number."),
        Err(err) => failed(&state, &err),
    }
}

// --- Orders and tasks -------------------------------------------------------------------------

pub async fn orders(state: web::Data<WebState>, request: HttpRequest, query: web::Query<ListQuery>) -> HttpResponse {
    let session = match admin(&state, &request).await {
        Ok(session) => session,
        Err(answer) => return answer,
    };
    let (tasks, review) = tokio::join!(state.app.orders.tasks(false), state.app.orders.all(Some(OrderStatus::NeedsReview), 1000));
    let (tasks, review) = match (tasks, review) {
        (Ok(tasks), Ok(review)) => (tasks, review),
        (Err(err), _) | (_, Err(err)) => return failed(&state, &err),
    };
    let mut rows: Vec<Row> = review
        .into_iter()
        .map(|order| Row {
            cells: vec![
                format!("order {}", order.number),
                "needs review".into(),
                order.status_reason.unwrap_or_default(),
                day(order.created_at),
            ],
            actions: Vec::new(),
        })
        .collect();
    rows.extend(tasks.into_iter().map(|task| Row {
        cells: vec![
            format!("task #{} of order {}", task.id, task.order_number),
            task.kind.clone(),
            task.listing_id.map(|id| format!("listing {id}")).unwrap_or_default(),
            if task.done {
                format!("done {}", task.done_at.map(day).unwrap_or_default())
            } else {
                format!("open since {}", day(task.created_at))
            },
        ],
        actions: if task.done {
            Vec::new()
        } else {
            vec![Action {
                post: true,
                url: format!("/admin/tasks/{}/done", task.id),
                label: "Mark done".into(),
                aria: format!("Mark task {} done", task.id),
                input: None,
            }]
        },
    }));
    let (shown, pager) = page_of(rows, &query, "/admin/orders", |row| row.cells.iter().any(|cell| has(cell, &query.q)));
    let intro = "Orders whose payment did not match, then the work paid lines ask of the site team, open first.";
    list(
        &state,
        &request,
        &session,
        "Orders and tasks",
        intro,
        vec!["What", "Kind", "About", "State"],
        shown,
        Some(&query),
        Some(pager),
        None,
        StatusCode::OK,
    )
}

pub async fn finish_task(
    state: web::Data<WebState>,
    request: HttpRequest,
    path: web::Path<i64>,
    form: web::Form<CsrfForm>,
) -> HttpResponse {
    let session = match admin_post(&state, &request, &form.csrf).await {
        Ok(session) => session,
        Err(answer) => return answer,
    };
    let id = path.into_inner();
    match state.app.orders.finish_task(id).await {
        Ok((_, false)) => done("/admin/orders", &format!("Task {id} was done already; nothing changed.")),
        Ok((task, true)) => {
            let target = format!("task {} of order {}", task.id, task.order_number);
            if let Err(answer) = log(&state, &session, "task.done", &target, &format!("{}: open -> done, line fulfilled", task.kind)).await
            {
                return answer;
            }
            done("/admin/orders", &format!("Task {id} is done; its order line is fulfilled."))
        }
        Err(orders::OrderError::NotFound) => message(&state, StatusCode::NOT_FOUND, "No such task", "No task has this number."),
        Err(err) => failed(&state, &err),
    }
}

// --- Accounts and the audit log ---------------------------------------------------------------

fn page_request(query: &ListQuery) -> PageRequest {
    PageRequest::new(query.page.unwrap_or(1).clamp(1, PageRequest::MAX_PAGE), super::PER_PAGE).unwrap_or_default()
}

pub async fn users(state: web::Data<WebState>, request: HttpRequest, query: web::Query<ListQuery>) -> HttpResponse {
    let session = match admin(&state, &request).await {
        Ok(session) => session,
        Err(answer) => return answer,
    };
    let request_page = page_request(&query);
    let found = match state.app.admin.users(Some(&query.q), request_page).await {
        Ok(found) => found,
        Err(err) => return failed(&state, &err),
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
                cells: vec![
                    user.id.to_string(),
                    user.email.to_string(),
                    user.display_name.clone(),
                    day(user.created_at),
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
    list(
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
    )
}

pub async fn block_user(
    state: web::Data<WebState>,
    request: HttpRequest,
    path: web::Path<(i64, String)>,
    form: web::Form<CsrfForm>,
) -> HttpResponse {
    let session = match admin_post(&state, &request, &form.csrf).await {
        Ok(session) => session,
        Err(answer) => return answer,
    };
    let (id, choice) = path.into_inner();
    let blocked = match choice.as_str() {
        "block" => true,
        "unblock" => false,
        _ => return crate::site::not_found(state, request).await,
    };
    match state.app.admin.set_blocked(&session.user, UserId::new(id), blocked).await {
        Ok(true) => done("/admin/users", &format!("Account {id} is {}.", if blocked { "blocked" } else { "unblocked" })),
        Ok(false) => message(&state, StatusCode::NOT_FOUND, "Nothing changed", "No other account has this number, or it was so already."),
        Err(err) => failed(&state, &err),
    }
}

pub async fn audit(state: web::Data<WebState>, request: HttpRequest, query: web::Query<ListQuery>) -> HttpResponse {
    let session = match admin(&state, &request).await {
        Ok(session) => session,
        Err(answer) => return answer,
    };
    let found = match state.app.admin.audit(Some(&query.q), page_request(&query)).await {
        Ok(found) => found,
        Err(err) => return failed(&state, &err),
    };
    let pager = Pager::new("/admin/audit", &[("q", query.q.clone())], found.page, found.per_page, found.total);
    let rows = found
        .items
        .into_iter()
        .map(|entry| Row { cells: vec![day(entry.at), entry.actor_email, entry.action, entry.target, entry.detail], actions: Vec::new() })
        .collect();
    list(
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
    )
}
