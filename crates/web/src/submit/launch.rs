//! After the editor: `submit_draft` saves the draft as a listing (status draft, nothing charged),
//! then the person chooses the free queue (`choose_free_listing`: the week it is queued for and
//! the badge to put on the homepage, with its embed code) or a paid launch (`create_checkout`
//! for the `launch` product, then the checkout page of the order).

use super::editor::{Sent, editor_page};
use super::{draft_of, person, refused, see_other};
use crate::SignedInPost;
use crate::site::{Meta, page, run, run_with_body};
use crate::{CsrfForm, WebState, account::checked_back};
use actix_web::http::StatusCode;
use actix_web::{HttpRequest, HttpResponse, web};
use askama::Template;
use ops::OpError;
use ops::operations::badges::{BadgeView, GetBadges};
use ops::operations::drafts::SubmitDraft;
use ops::operations::orders::CreateCheckout;
use ops::operations::owner::{ChooseFreeListing, GetMyListing};
use ops::wire::MyListingView;

pub async fn submit_draft(
    state: web::Data<WebState>,
    request: HttpRequest,
    path: web::Path<String>,
    SignedInPost { session, .. }: SignedInPost<CsrfForm>,
) -> HttpResponse {
    let caller = crate::mine::as_person(&session, &request);
    match run(SubmitDraft, &state, &caller, &[("id", path.as_str())], &[]).await {
        Ok(submitted) => see_other(&format!("/submit/drafts/{}/launch", submitted.draft.id)),
        Err(OpError::Validation(errors)) => match draft_of(&state, &caller, &path).await {
            // What the listing still needs, beside its field in the editor.
            Ok(draft) => editor_page(&state, &request, &session, draft, StatusCode::BAD_REQUEST, None, Sent { values: Vec::new(), errors }),
            Err(error) => refused(&state, &request, error),
        },
        Err(error) => refused(&state, &request, error),
    }
}

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
    /// What happens next, once queued.
    next_step: Option<String>,
}

async fn render(state: &WebState, request: &HttpRequest, id: &str, next_step: Option<String>) -> HttpResponse {
    let (session, caller) = match person(state, request).await {
        Ok(person) => person,
        Err(answer) => return answer,
    };
    let draft = match draft_of(state, &caller, id).await {
        Ok(draft) => draft,
        Err(error) => return refused(state, request, error),
    };
    let Some(listing_id) = draft.listing_id else { return see_other(&format!("/submit/drafts/{}", draft.id)) };
    let listing = match run(GetMyListing, state, &caller, &[("listing_id", &listing_id.to_string())], &[]).await {
        Ok(listing) => listing,
        Err(error) => return refused(state, request, error),
    };
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
    let launch =
        LaunchPage { site_name: &state.app.site.name, meta, draft_id: draft.id, csrf: session.csrf_token, listing, badges, next_step };
    page(request, StatusCode::OK, &launch)
}

pub async fn launch_page(state: web::Data<WebState>, request: HttpRequest, path: web::Path<String>) -> HttpResponse {
    render(&state, &request, &path, None).await
}

/// The listing a submitted draft made, for the person sending the form.
async fn listing_of(state: &WebState, request: &HttpRequest, id: &str, csrf: &str) -> Result<(ops::Caller, i64), HttpResponse> {
    let session = checked_back(state, request, csrf, &super::draft_back(request)).await?;
    let caller = crate::mine::as_person(&session, request);
    let draft = draft_of(state, &caller, id).await.map_err(|error| refused(state, request, error))?;
    let listing = draft.listing_id.ok_or_else(|| see_other(&format!("/submit/drafts/{}", draft.id)))?;
    Ok((caller, listing))
}

pub async fn choose_free(
    state: web::Data<WebState>,
    request: HttpRequest,
    path: web::Path<String>,
    form: web::Form<CsrfForm>,
) -> HttpResponse {
    let (caller, listing) = match listing_of(&state, &request, &path, &form.csrf).await {
        Ok(found) => found,
        Err(answer) => return answer,
    };
    match run(ChooseFreeListing, &state, &caller, &[("listing_id", &listing.to_string())], &[]).await {
        Ok(queued) => render(&state, &request, &path, Some(queued.next_step)).await,
        Err(error) => refused(&state, &request, error),
    }
}

pub async fn choose_paid(
    state: web::Data<WebState>,
    request: HttpRequest,
    path: web::Path<String>,
    form: web::Form<CsrfForm>,
) -> HttpResponse {
    let (caller, listing) = match listing_of(&state, &request, &path, &form.csrf).await {
        Ok(found) => found,
        Err(answer) => return answer,
    };
    let items = serde_json::json!({"items": [{"product": "launch", "listing_id": listing}]});
    match run_with_body(CreateCheckout, &state, &caller, &[], items).await {
        // The checkout page is on this site: go to its path, whatever address the site has.
        Ok(created) => {
            let path = created.checkout_url.find("/checkout/").map_or(created.checkout_url.as_str(), |at| &created.checkout_url[at..]);
            see_other(path)
        }
        Err(error) => refused(&state, &request, error),
    }
}
