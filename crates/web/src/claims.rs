//! The page behind an e-mail claim's link (`/claims/confirm?token=…`): it names the listing, the
//! claimant and the address, and verifies the claim only when **Confirm** is pressed. Opening
//! the link changes nothing, so a mail scanner that fetches it cannot verify anyone. The POST
//! carries the link's token (a secret no other site's form can know) and must come from this
//! site's own page (`Sec-Fetch-Site`, else `Origin`); nobody needs to be signed in, since the
//! link itself is the proof of the address.

use crate::{PageError, WebState, message};
use actix_web::http::StatusCode;
use actix_web::{HttpRequest, HttpResponse, web};
use askama::Template;
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

pub async fn confirm_page(state: web::Data<WebState>, query: web::Query<TokenForm>) -> Result<HttpResponse, PageError> {
    let linked = state.app.claims.link(&query.token).await?;
    let page = ConfirmPage {
        site_name: &state.app.site.name,
        claimant: linked.claimant_name,
        listing: linked.claim.listing_name.clone(),
        slug: linked.claim.listing_slug.to_string(),
        website: linked.claim.website.to_string(),
        email: linked.claim.email.as_ref().map(ToString::to_string).unwrap_or_default(),
        token: &query.token,
    };
    Ok(crate::html(StatusCode::OK, &page))
}

pub async fn confirm(state: web::Data<WebState>, request: HttpRequest, form: web::Form<TokenForm>) -> Result<HttpResponse, PageError> {
    if !crate::guard::same_site(&state, &request) {
        return Err(PageError::new(StatusCode::FORBIDDEN, "Not confirmed", "Confirm from the page the e-mailed link opens."));
    }
    let claim = state.app.claims.confirm_link(&form.token).await?;
    crate::known_writer(&request);
    let thanks = format!("Thank you. The claimant is now an owner of {} and can manage it from their account.", claim.listing_name);
    Ok(message(&state, StatusCode::OK, "The claim is confirmed", &thanks))
}
