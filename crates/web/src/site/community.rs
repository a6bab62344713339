//! Follows and reviews on a listing's page: both are forms for signed-in people, carrying the
//! session's CSRF token and coming from this site's pages, and both count against the `review`
//! limit (per account); a review also counts against `review_network` (per client address,
//! every account behind it together), as votes do, and keeps the client network it came from.
//! A review with a missing rating or text comes back on the listing's page with the problem
//! beside its field, and nothing is saved.

use super::listing::{ReviewDraft, render};
use super::voting::ButtonForm;
use crate::guard::admit;
use crate::{PageError, SignedInPost, WebState};
use actix_web::http::StatusCode;
use actix_web::http::header::LOCATION;
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

crate::guard::token_in_csrf_field!(ReviewForm);

/// The listing of the form's address, or the refusal that there is none.
fn listing_slug(slug: &str, back: &str) -> Result<Slug, PageError> {
    Slug::parse(slug)
        .map_err(|_| PageError::new(StatusCode::NOT_FOUND, "No such listing", "There is no listing at this address.").back_to(back))
}

/// The person as reviews and follows know them, with the client network the request came from.
fn member(session: &accounts::signin::Session, request: &HttpRequest) -> Member {
    Member {
        user: session.user.id,
        email_confirmed: session.user.email_confirmed_at.is_some(),
        network: kernel::client_network(crate::client_of(request)).to_string(),
    }
}

/// A review's or follow's refusal, on a page leading back to `back`.
fn refused(error: ReviewError, session: &accounts::signin::Session, back: &str) -> PageError {
    match error {
        ReviewError::NotConfirmed => PageError::confirm_first(session, "Following sends you e-mail, so it needs a confirmed address."),
        other => PageError::from(other),
    }
    .back_to(back)
}

pub async fn follow(
    state: web::Data<WebState>,
    request: HttpRequest,
    path: web::Path<String>,
    SignedInPost { session, form, back }: SignedInPost<ButtonForm>,
) -> Result<HttpResponse, PageError> {
    let slug = listing_slug(&path, &back)?;
    admit(&state, &request, &session, &[RateClass::Review]).await.map_err(|refused| refused.back_to(&back))?;
    let following = form.action != "unfollow";
    state
        .app
        .listings
        .reviews
        .set_following(member(&session, &request), &slug, following)
        .await
        .map_err(|error| refused(error, &session, &back))?;
    Ok(HttpResponse::SeeOther().insert_header((LOCATION, back)).finish())
}

pub async fn review(
    state: web::Data<WebState>,
    request: HttpRequest,
    path: web::Path<String>,
    SignedInPost { session, form, .. }: SignedInPost<ReviewForm>,
) -> Result<HttpResponse, PageError> {
    let back = format!("/listings/{}#reviews", path.as_str());
    let slug = listing_slug(&path, &back)?;
    // Per account first, then per network, as votes are counted.
    admit(&state, &request, &session, &[RateClass::Review, RateClass::ReviewNetwork]).await.map_err(|refused| refused.back_to(&back))?;
    let reviews = &state.app.listings.reviews;
    let outcome = if form.action == "delete" {
        reviews.delete(member(&session, &request), &slug).await.map(|_| ())
    } else {
        match ReviewText::parse(&form.rating, &form.body) {
            Ok(text) => reviews.save(member(&session, &request), &slug, &text).await.map(|_| ()),
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
    outcome.map_err(|error| refused(error, &session, &back))?;
    Ok(HttpResponse::SeeOther().insert_header((LOCATION, back)).finish())
}
