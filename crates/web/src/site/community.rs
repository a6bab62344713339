//! Follows and reviews on a listing's page: both are forms for signed-in people, carrying the
//! session's CSRF token and coming from this site's pages, and both count against the `review`
//! limit (per account); a review also counts against `review_network` (per client address,
//! every account behind it together), as votes do, and keeps the client network it came from.
//! A review with a missing rating or text comes back on the listing's page with the problem
//! beside its field, and nothing is saved.

use super::listing::{ReviewDraft, render};
use super::voting::{ButtonForm, refused};
use crate::{WebState, safe_next, session};
use actix_web::http::StatusCode;
use actix_web::http::header::{LOCATION, RETRY_AFTER};
use actix_web::{HttpRequest, HttpResponse, web};
use kernel::Slug;
use listings::{Member, ReviewError, ReviewText};
use ops::RateClass;
use serde::Deserialize;

#[derive(Debug, Deserialize)]
pub struct ReviewForm {
    #[serde(default)]
    csrf: String,
    #[serde(default)]
    rating: String,
    #[serde(default)]
    body: String,
    /// `save` or `delete`.
    #[serde(default)]
    action: String,
}

/// The checks every form here starts with: signed in, the form's own token from this site, a
/// listing address, and within the `review` limit (and, for a review, `review_network`). `Err`
/// is the answer to send instead.
async fn admitted(
    state: &WebState,
    request: &HttpRequest,
    csrf: &str,
    slug: &str,
    back: &str,
    per_network: bool,
) -> Result<(accounts::signin::Session, Slug), HttpResponse> {
    let Some(session) = session(state, request).await else {
        let next = crate::percent_encode(back);
        return Err(HttpResponse::SeeOther().insert_header((LOCATION, format!("/signin?next={next}"))).finish());
    };
    if !crate::signed_form_ok(state, request, &session, csrf) {
        let detail = "The form expired or came from another site. Go back, reload the page and try again.".to_owned();
        return Err(refused(state, request, StatusCode::FORBIDDEN, "Not saved", detail, None, back));
    }
    let Ok(slug) = Slug::parse(slug) else {
        return Err(refused(
            state,
            request,
            StatusCode::NOT_FOUND,
            "No such listing",
            "There is no listing at this address.".into(),
            None,
            back,
        ));
    };
    let client = crate::client_of(request);
    // Per account first, then (a review) per network, as votes are counted.
    let mut classes = vec![(RateClass::Review, Some(session.user.id))];
    if per_network {
        classes.push((RateClass::ReviewNetwork, None));
    }
    for (class, principal) in classes {
        if let Err(limited) = state.edge.limits.check(class, principal, client).await {
            let wait = limited.0.retry_after.unwrap_or(60);
            let detail = match class {
                RateClass::ReviewNetwork => {
                    format!("Many reviews came from your network in a short time. Please wait {wait} seconds, then try again.")
                }
                _ => format!("You have changed a lot in a short time. Please wait {wait} seconds, then try again."),
            };
            let mut response = refused(state, request, StatusCode::TOO_MANY_REQUESTS, "Please wait a moment", detail, None, back);
            response.headers_mut().insert(RETRY_AFTER, wait.into());
            return Err(response);
        }
    }
    Ok((session, slug))
}

/// The client address the request came from (the peer, or behind a trusted proxy the address it
/// names).
fn member(session: &accounts::signin::Session, request: &HttpRequest) -> Member {
    Member {
        user: session.user.id,
        email_confirmed: session.user.email_confirmed_at.is_some(),
        network: kernel::client_network(crate::client_of(request)).to_string(),
    }
}

fn failed(state: &WebState, request: &HttpRequest, error: ReviewError, session: &accounts::signin::Session, back: &str) -> HttpResponse {
    match error {
        ReviewError::NotConfirmed => {
            let detail = format!(
                "Following sends you e-mail, so it needs a confirmed address. Open the link we e-mailed to {} when you signed up, or ask for a new one below.",
                session.user.email
            );
            refused(
                state,
                request,
                StatusCode::FORBIDDEN,
                "Confirm your e-mail address first",
                detail,
                Some(session.csrf_token.clone()),
                back,
            )
        }
        ReviewError::NotLive | ReviewError::Invalid(_) => {
            refused(state, request, StatusCode::NOT_FOUND, "Not open", "Only live listings take reviews and followers.".into(), None, back)
        }
        ReviewError::Repo(err) => {
            tracing::error!(error = %err, "a review or follow could not be saved");
            let detail = "Please try again in a moment.".into();
            refused(state, request, StatusCode::INTERNAL_SERVER_ERROR, "Something went wrong", detail, None, back)
        }
    }
}

pub async fn follow(
    state: web::Data<WebState>,
    request: HttpRequest,
    path: web::Path<String>,
    form: web::Form<ButtonForm>,
) -> HttpResponse {
    let back = safe_next(&form.back).to_owned();
    let (session, slug) = match admitted(&state, &request, &form.csrf, &path, &back, false).await {
        Ok(admitted) => admitted,
        Err(answer) => return answer,
    };
    match state.app.listings.reviews.set_following(member(&session, &request), &slug, form.action != "unfollow").await {
        Ok(()) => HttpResponse::SeeOther().insert_header((LOCATION, back)).finish(),
        Err(error) => failed(&state, &request, error, &session, &back),
    }
}

pub async fn review(
    state: web::Data<WebState>,
    request: HttpRequest,
    path: web::Path<String>,
    form: web::Form<ReviewForm>,
) -> HttpResponse {
    let back = format!("/listings/{}#reviews", path.as_str());
    let (session, slug) = match admitted(&state, &request, &form.csrf, &path, &back, true).await {
        Ok(admitted) => admitted,
        Err(answer) => return answer,
    };
    let outcome = if form.action == "delete" {
        state.app.listings.reviews.delete(member(&session, &request), &slug).await.map(|_| ())
    } else {
        match ReviewText::parse(&form.rating, &form.body) {
            Ok(text) => state.app.listings.reviews.save(member(&session, &request), &slug, &text).await.map(|_| ()),
            Err(ReviewError::Invalid(problems)) => {
                // Back on the listing's page with what was sent and each problem beside its field.
                let mut draft = ReviewDraft { rating: form.rating.clone(), body: form.body.clone(), ..Default::default() };
                for problem in problems {
                    match problem.field {
                        "rating" => draft.rating_error = Some(problem.message.to_owned()),
                        _ => draft.body_error = Some(problem.message.to_owned()),
                    }
                }
                return render(&state, &request, slug.as_str(), Some(draft), StatusCode::BAD_REQUEST).await;
            }
            Err(other) => Err(other),
        }
    };
    match outcome {
        Ok(()) => HttpResponse::SeeOther().insert_header((LOCATION, back)).finish(),
        Err(error) => failed(&state, &request, error, &session, &back),
    }
}
