//! Votes on the site: the upvote button on every card and listing page posts here. Only a
//! signed-in person with a confirmed e-mail address votes; the form carries the session's CSRF
//! token and must come from this site (`Origin`, `Sec-Fetch-Site`); each vote and withdrawal
//! counts against the per-account and per-address vote limits. The answer returns to the page
//! the button was on.

use crate::guard::admit;
use crate::{PageError, SignedInPost, WebState};
use actix_web::http::StatusCode;
use actix_web::http::header::LOCATION;
use actix_web::{HttpRequest, HttpResponse, web};
use kernel::Slug;
use listings::{VoteError, Voter};
use ops::RateClass;
use serde::Deserialize;

/// The form of a toggle button on a page (upvote, follow).
#[derive(Debug, Deserialize)]
pub struct ButtonForm {
    #[serde(default)]
    pub(super) csrf: String,
    /// The page to return to.
    #[serde(default)]
    pub(super) back: String,
    /// What the button showed when it was pressed (`vote` or `withdraw`, `follow` or
    /// `unfollow`), so a stale second tab never undoes what the person meant to do.
    #[serde(default)]
    pub(super) action: String,
}

impl crate::PostedForm for ButtonForm {
    fn csrf(&self) -> &str {
        &self.csrf
    }

    fn back(&self) -> Option<&str> {
        Some(&self.back)
    }
}

/// Whether the vote came from the page's script, which takes the new state as JSON.
fn wants_json(request: &HttpRequest) -> bool {
    request
        .headers()
        .get(actix_web::http::header::ACCEPT)
        .and_then(|value| value.to_str().ok())
        .is_some_and(|accept| accept.starts_with("application/json"))
}

pub async fn vote(
    state: web::Data<WebState>,
    request: HttpRequest,
    path: web::Path<String>,
    SignedInPost { session, form, back }: SignedInPost<ButtonForm>,
) -> Result<HttpResponse, PageError> {
    let no_listing = || PageError::new(StatusCode::NOT_FOUND, "No such listing", "There is no listing at this address.").back_to(&back);
    let slug = Slug::parse(path.as_str()).map_err(|_| no_listing())?;
    admit(&state, &request, &session, &[RateClass::Vote, RateClass::VoteNetwork]).await.map_err(|refused| refused.back_to(&back))?;
    let voter = Voter {
        user: session.user.id,
        account_created_at: session.user.created_at,
        email_confirmed: session.user.email_confirmed_at.is_some(),
        network: kernel::client_network(crate::client_of(&request)).to_string(),
    };
    let outcome = match form.action.as_str() {
        "withdraw" => state.app.listings.votes.withdraw(&voter, &slug).await,
        _ => state.app.listings.votes.vote(&voter, &slug).await,
    };
    match outcome {
        // The page's script asks for the new state, to update the button in place.
        Ok(state) if wants_json(&request) => {
            Ok(HttpResponse::Ok().json(serde_json::json!({"voted": state.voted, "votes": state.votes, "counted": state.counted})))
        }
        Ok(_) => Ok(HttpResponse::SeeOther().insert_header((LOCATION, back)).finish()),
        Err(VoteError::NotConfirmed) => {
            Err(PageError::confirm_first(&session, "Votes come from people with a confirmed e-mail address.").back_to(&back))
        }
        Err(error) => Err(PageError::from(error).back_to(&back)),
    }
}
