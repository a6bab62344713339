//! The page behind an e-mail claim's link (`/claims/confirm?token=…`): it names the listing, the
//! claimant and the address, and verifies the claim only when **Confirm** is pressed. Opening
//! the link changes nothing, so a mail scanner that fetches it cannot verify anyone. The POST
//! carries the link's token (a secret no other site's form can know) and must come from this
//! site's own page (`Sec-Fetch-Site`, else `Origin`); nobody needs to be signed in, since the
//! link itself is the proof of the address.

use crate::{WebState, message};
use actix_web::http::StatusCode;
use actix_web::{HttpRequest, HttpResponse, web};
use askama::Template;
use claims::LinkError;
use serde::Deserialize;

#[derive(Template)]
#[template(path = "claim_confirm.html")]
struct ConfirmPage<'a> {
    site_name: &'a str,
    claimant: String,
    listing: String,
    slug: String,
    website: String,
    email: String,
    token: &'a str,
}

#[derive(Debug, Deserialize)]
pub struct TokenForm {
    #[serde(default)]
    token: String,
}

fn refused(state: &WebState, error: &LinkError) -> HttpResponse {
    match error {
        LinkError::Unknown => message(
            state,
            StatusCode::NOT_FOUND,
            "This link does not work",
            "It names no claim: it may have been copied incompletely, or a newer link replaced it.",
        ),
        LinkError::Expired => message(
            state,
            StatusCode::GONE,
            "This link has expired",
            "A claim's link works for 48 hours, and a claim waits 14 days. Ask for the claim again to get a new link.",
        ),
        LinkError::Used(_) => {
            message(state, StatusCode::GONE, "This claim is verified already", "Its link has been used; nothing more to do.")
        }
        LinkError::Repo(err) => {
            tracing::error!(error = %err, "a claim's link could not be read");
            message(state, StatusCode::INTERNAL_SERVER_ERROR, "Something went wrong", "Please try the link again in a moment.")
        }
    }
}

pub async fn confirm_page(state: web::Data<WebState>, query: web::Query<TokenForm>) -> HttpResponse {
    match state.app.claims.link(&query.token).await {
        Ok(linked) => crate::html(
            StatusCode::OK,
            &ConfirmPage {
                site_name: &state.app.site.name,
                claimant: linked.claimant_name,
                listing: linked.claim.listing_name.clone(),
                slug: linked.claim.listing_slug.to_string(),
                website: linked.claim.website.to_string(),
                email: linked.claim.email.as_ref().map(ToString::to_string).unwrap_or_default(),
                token: &query.token,
            },
        ),
        Err(error) => refused(&state, &error),
    }
}

pub async fn confirm(state: web::Data<WebState>, request: HttpRequest, form: web::Form<TokenForm>) -> HttpResponse {
    if !crate::site::same_site(&state, &request) {
        return message(&state, StatusCode::FORBIDDEN, "Not confirmed", "Confirm from the page the e-mailed link opens.");
    }
    match state.app.claims.confirm_link(&form.token).await {
        Ok(claim) => {
            crate::known_writer(&request);
            message(
                &state,
                StatusCode::OK,
                "The claim is confirmed",
                &format!("Thank you. The claimant is now an owner of {} and can manage it from their account.", claim.listing_name),
            )
        }
        Err(error) => refused(&state, &error),
    }
}
