//! After the editor: `submit_draft` saves the draft as a listing (status draft, nothing charged),
//! then the person chooses the free queue (`choose_free_listing`: the week it is queued for and
//! the badge to put on the homepage, with its embed code) or a paid launch, shaped on its own
//! page (`paid`): a listing queued for free may still upgrade to one from here.

use super::{draft_of, person, see_other};
use crate::guard::as_person;
use crate::site::{Meta, page, run, run_with};
use crate::{CsrfForm, PageError, SignedInPost, WebState};
use accounts::signin::Session;
use actix_web::http::StatusCode;
use actix_web::{HttpRequest, HttpResponse, web};
use askama::Template;
use ops::NoInput;
use ops::operations::badges::{BadgeView, GetBadges};
use ops::operations::owner::{ChooseFreeListing, GetMyListing};
use ops::wire::ListingPath;
use ops::wire::MyListingView;

#[derive(Template)]
#[template(path = "site/draft_launch.html")]
struct LaunchPage<'a> {
    site_name: &'a str,
    meta: Meta,
    draft_id: String,
    csrf: String,
    listing: MyListingView,
    /// Once queued for free: the badges to put on the homepage.
    badges: Vec<BadgeView>,
}

async fn render(state: &WebState, request: &HttpRequest, id: &str) -> Result<HttpResponse, PageError> {
    let (session, caller) = person(state, request).await?;
    let draft = draft_of(state, &caller, id).await?;
    let Some(listing_id) = draft.listing_id else { return Ok(see_other(&format!("/submit/drafts/{}", draft.id))) };
    let listing = run_with(GetMyListing, state, &caller, ListingPath { listing_id }, NoInput {}, NoInput {}).await?;
    let queued = listing.owned.status == "awaiting_badge";
    let badges = if queued {
        match run(GetBadges, state, &caller, &[("slug", &listing.owned.slug)], &[]).await {
            Ok(badges) => badges.items,
            Err(err) => {
                tracing::warn!(error = %err, "could not read a queued listing's badges");
                Vec::new()
            }
        }
    } else {
        Vec::new()
    };
    let meta = Meta::new(state, request.path(), format!("Launch {}", listing.owned.name), "Choose how to launch.".to_owned());
    let launch = LaunchPage { site_name: &state.app.site.name, meta, draft_id: draft.id, csrf: session.csrf_token, listing, badges };
    Ok(page(request, StatusCode::OK, &launch))
}

pub async fn launch_page(state: web::Data<WebState>, request: HttpRequest, path: web::Path<String>) -> Result<HttpResponse, PageError> {
    render(&state, &request, &path).await
}

/// The person's caller and the listing their submitted draft made; a draft not submitted yet
/// goes back to its editor.
async fn listing_of(state: &WebState, request: &HttpRequest, session: &Session, id: &str) -> Result<(ops::Caller, i64), PageError> {
    let caller = as_person(session, request);
    let draft = draft_of(state, &caller, id).await?;
    let listing = draft.listing_id.ok_or_else(|| see_other(&format!("/submit/drafts/{}", draft.id)))?;
    Ok((caller, listing))
}

pub async fn choose_free(
    state: web::Data<WebState>,
    request: HttpRequest,
    path: web::Path<String>,
    SignedInPost { session, .. }: SignedInPost<CsrfForm>,
) -> Result<HttpResponse, PageError> {
    let (caller, listing) = listing_of(&state, &request, &session, &path).await?;
    run_with(ChooseFreeListing, &state, &caller, ListingPath { listing_id: listing }, NoInput {}, NoInput {}).await?;
    // Post, redirect, get: the launch page says where the queued launch stands, and reloading
    // it sends nothing again.
    Ok(see_other(&format!("/submit/drafts/{path}/launch")))
}
