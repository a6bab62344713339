//! The admin pages of moderation and the paid work: suspicious votes (discount), reviews (hide,
//! show), orders needing review and the site team's tasks (done).

use super::notice::{Notice, done};
use super::pages::{failed, list, log, row_choice};
use super::{Action, Admin, AdminPost, ListQuery, Row, has, page_of};
use crate::PageError;
use crate::dates::date_and_time;
use crate::{CsrfForm, WebState};
use actix_web::http::StatusCode;
use actix_web::{HttpRequest, HttpResponse, web};
use orders::OrderStatus;

pub async fn votes(
    state: web::Data<WebState>,
    request: HttpRequest,
    query: web::Query<ListQuery>,
    Admin(session): Admin,
) -> Result<HttpResponse, PageError> {
    let flagged = match state.app.listings.votes.suspicious(30, 5, time::Duration::minutes(10)).await {
        Ok(flagged) => flagged,
        Err(err) => return Err(failed(&err)),
    };
    let (shown, pager) = page_of(flagged, &query, "/admin/votes", |vote| {
        has(vote.listing.as_str(), &query.q) || has(vote.network.as_deref().unwrap_or(""), &query.q)
    });
    let marks = super::listing_marks_by_slug(&state, shown.iter().map(|vote| vote.listing.clone())).await;
    let rows = shown
        .into_iter()
        .map(|vote| {
            let state_words = match (vote.counted, vote.discounted_at) {
                (_, Some(_)) => "discounted",
                (true, None) => "counted",
                (false, None) => "not counted (young account)",
            };
            Row {
                listing: marks.get(&vote.listing).cloned(),
                cells: vec![
                    format!("#{}", vote.id),
                    vote.listing.to_string(),
                    date_and_time(vote.at),
                    format!("account {} since {}", vote.user, date_and_time(vote.account_created_at)),
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
    Ok(list(
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
    ))
}

pub async fn discount_vote(
    state: web::Data<WebState>,
    path: web::Path<i64>,
    AdminPost { session, .. }: AdminPost<CsrfForm>,
) -> Result<HttpResponse, PageError> {
    let id = path.into_inner();
    match state.app.listings.votes.discount(id).await {
        Ok(true) => {
            log(&state, &session, "vote.discount", &format!("vote {id}"), "counted -> discounted").await?;
            Ok(done("/admin/votes", Notice::VoteDiscounted, Some(id)))
        }
        Ok(false) => Err(PageError::new(StatusCode::NOT_FOUND, "No such vote", "No counted vote has this number.")),
        Err(err) => Err(failed(&err)),
    }
}

pub async fn reviews(
    state: web::Data<WebState>,
    request: HttpRequest,
    query: web::Query<ListQuery>,
    Admin(session): Admin,
) -> Result<HttpResponse, PageError> {
    // Bursts from one network first (as the votes page's rule: 5 accounts within 10 minutes, the
    // last 30 days), then the newest reviews.
    let (recent, bursts) =
        tokio::join!(state.app.listings.reviews.recent(1000), state.app.listings.reviews.bursts(30, 5, time::Duration::minutes(10)));
    let (recent, bursts) = match (recent, bursts) {
        (Ok(recent), Ok(bursts)) => (recent, bursts),
        (Err(err), _) | (_, Err(err)) => return Err(failed(&err)),
    };
    let in_bursts: std::collections::HashSet<i64> = bursts.iter().map(|record| record.review.id).collect();
    let listed: Vec<_> = bursts
        .into_iter()
        .map(|record| (record.listing, record.review, record.network))
        .chain(recent.into_iter().filter(|(_, review)| !in_bursts.contains(&review.id)).map(|(listing, review)| (listing, review, None)))
        .collect();
    let (shown, pager) = page_of(listed, &query, "/admin/reviews", |(listing, review, network)| {
        has(listing.as_str(), &query.q)
            || has(&review.body, &query.q)
            || has(&review.author, &query.q)
            || network.as_deref().is_some_and(|network| has(network, &query.q))
    });
    let marks = super::listing_marks_by_slug(&state, shown.iter().map(|(listing, _, _)| listing.clone())).await;
    let rows = shown
        .into_iter()
        .map(|(listing, review, network)| {
            let (choice, label) = if review.hidden { ("show", "Show again") } else { ("hide", "Hide") };
            let state_words = match (review.hidden, review.genuine) {
                (true, _) => "hidden",
                (false, true) => "counted",
                (false, false) => "shown, not counted",
            };
            let state_words = match network {
                Some(_) => format!("{state_words}; in a burst from one network"),
                None => state_words.to_owned(),
            };
            Row {
                listing: marks.get(&listing).cloned(),
                cells: vec![
                    format!("#{}", review.id),
                    listing.to_string(),
                    review.author,
                    format!("{}/5", review.rating),
                    review.body,
                    network.unwrap_or_default(),
                    state_words,
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
    let intro = "Bursts from one network first (5 or more accounts reviewing within 10 minutes, last 30 days), then the newest \
                 reviews. A hidden review leaves the page and the rating; its author still sees it, marked. A new account's review \
                 counts once the account is old enough.";
    Ok(list(
        &state,
        &request,
        &session,
        "Reviews",
        intro,
        vec!["Review", "Listing", "Author", "Rating", "Text", "Burst network", "State"],
        rows,
        Some(&query),
        Some(pager),
        None,
        StatusCode::OK,
    ))
}

pub async fn moderate_review(
    state: web::Data<WebState>,
    path: web::Path<(i64, String)>,
    AdminPost { session, .. }: AdminPost<CsrfForm>,
) -> Result<HttpResponse, PageError> {
    let (id, hide) = row_choice(path, "hide", "show")?;
    match state.app.listings.reviews.set_hidden(id, hide).await {
        Ok(Some(false)) => {
            Ok(done("/admin/reviews", if hide { Notice::ReviewAlreadyHidden } else { Notice::ReviewAlreadyShown }, Some(id)))
        }
        Ok(Some(true)) => {
            let (action, detail) = if hide { ("review.hide", "shown -> hidden") } else { ("review.show", "hidden -> shown") };
            log(&state, &session, action, &format!("review {id}"), detail).await?;
            Ok(done("/admin/reviews", if hide { Notice::ReviewHidden } else { Notice::ReviewShown }, Some(id)))
        }
        Ok(None) => Err(PageError::new(StatusCode::NOT_FOUND, "No such review", "No review has this number.")),
        Err(err) => Err(failed(&err)),
    }
}

// --- Orders and tasks -------------------------------------------------------------------------

pub async fn orders(
    state: web::Data<WebState>,
    request: HttpRequest,
    query: web::Query<ListQuery>,
    Admin(session): Admin,
) -> Result<HttpResponse, PageError> {
    let (tasks, orders) = tokio::join!(state.app.commerce.orders.tasks(false), state.app.commerce.orders.all(None, 1000));
    let (tasks, mut orders) = match (tasks, orders) {
        (Ok(tasks), Ok(orders)) => (tasks, orders),
        (Err(err), _) | (_, Err(err)) => return Err(failed(&err)),
    };
    // Every order, newest first, with those whose payment did not match ahead of the rest.
    orders.sort_by_key(|order| order.status != OrderStatus::NeedsReview);
    let mut rows: Vec<Row> = orders
        .into_iter()
        .map(|order| Row {
            listing: None,
            cells: vec![
                format!("order {}", order.number),
                order.status.as_str().replace('_', " "),
                order.status_reason.unwrap_or_else(|| format!("{} in all", order.totals.total)),
                date_and_time(order.created_at),
            ],
            actions: Vec::new(),
        })
        .collect();
    rows.extend(tasks.into_iter().map(|task| Row {
        listing: None,
        cells: vec![
            format!("task #{} of order {}", task.id, task.order_number),
            task.kind.clone(),
            task.listing_id.map(|id| format!("listing {id}")).unwrap_or_default(),
            if task.done {
                format!("done {}", task.done_at.map(date_and_time).unwrap_or_default())
            } else {
                format!("open since {}", date_and_time(task.created_at))
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
    let intro = "Every order, newest first, those whose payment did not match ahead of the rest; then the work paid lines ask of the site team, open first.";
    Ok(list(
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
    ))
}

pub async fn finish_task(
    state: web::Data<WebState>,
    path: web::Path<i64>,
    AdminPost { session, .. }: AdminPost<CsrfForm>,
) -> Result<HttpResponse, PageError> {
    let id = path.into_inner();
    match state.app.commerce.orders.finish_task(id).await {
        Ok((_, false)) => Ok(done("/admin/orders", Notice::TaskAlreadyDone, Some(id))),
        Ok((task, true)) => {
            let target = format!("task {} of order {}", task.id, task.order_number);
            log(&state, &session, "task.done", &target, &format!("{}: open -> done, line fulfilled", task.kind)).await?;
            Ok(done("/admin/orders", Notice::TaskDone, Some(id)))
        }
        Err(orders::OrderError::NotFound) => Err(PageError::new(StatusCode::NOT_FOUND, "No such task", "No task has this number.")),
        Err(err) => Err(failed(&err)),
    }
}

/// `/admin/invoices`: every invoice and credit note, newest first, each to open or download.
pub async fn invoices(
    state: web::Data<WebState>,
    request: HttpRequest,
    query: web::Query<ListQuery>,
    Admin(session): Admin,
) -> Result<HttpResponse, PageError> {
    let documents = state.app.commerce.orders.recent_documents(1000).await.map_err(|err| failed(&err))?;
    let rows: Vec<Row> = documents
        .iter()
        .map(|document| {
            let row = crate::invoices::DocumentRow::of(document);
            let link = |suffix: &str, label: &str, aria: String| Action {
                post: false,
                url: format!("/admin/invoices/{}{suffix}", row.number),
                label: label.into(),
                aria,
                input: None,
            };
            Row {
                listing: None,
                cells: vec![
                    format!("{} {}", row.title, row.number),
                    format!("order {}", row.order_number),
                    row.total.clone(),
                    row.issued.clone(),
                ],
                actions: vec![link("", "Open", format!("Open {}", row.number)), link(".pdf", "PDF", format!("{} as PDF", row.number))],
            }
        })
        .collect();
    let (shown, pager) = page_of(rows, &query, "/admin/invoices", |row| row.cells.iter().any(|cell| has(cell, &query.q)));
    let intro = "Every VAT invoice and credit note, newest first, as issued: each number follows the last of its series without gaps.";
    Ok(list(
        &state,
        &request,
        &session,
        "Invoices",
        intro,
        vec!["Document", "Order", "Total", "Issued"],
        shown,
        Some(&query),
        Some(pager),
        None,
        StatusCode::OK,
    ))
}
