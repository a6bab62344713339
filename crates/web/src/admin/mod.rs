//! The site team's pages under `/admin`, for accounts with the admin role. Anyone else gets the
//! ordinary 404 page on every admin address (their existence is not advertised). Every page
//! lists with paging and a search box; every change is a POST with the session's CSRF token from
//! this site, counted by the rate limits, goes through the owning domain's use case (prices and
//! VAT rates, votes, reviews, tasks, claims, accounts) and is written to the audit log with who did it,
//! what changed and when (`/admin/audit`).

mod catalog;
mod claims;
mod moderation;
mod notice;
mod pages;

use crate::site::{Meta, Pager};
use crate::{PageError, WebState, session};
use accounts::signin::Session;
use actix_web::dev::Payload;
use actix_web::{FromRequest, HttpMessage, HttpRequest, HttpResponse, web};
use askama::Template;

/// Registers the admin pages in one scope whose gate runs before anything else: to anyone
/// without the admin role every address under `/admin` (any method, any input) answers exactly as
/// an unknown address does, with no rate-limit headers, no 405 and no extractor's error.
pub(crate) fn configure(cfg: &mut web::ServiceConfig) {
    let resource = |path: &str| web::resource(path).wrap(actix_web::middleware::from_fn(crate::limits::limit));
    cfg.service(
        web::scope("/admin")
            .wrap(actix_web::middleware::from_fn(gate))
            .service(resource("").route(web::get().to(pages::index)))
            .service(resource("/prices").route(web::get().to(catalog::prices)))
            .service(resource("/prices/{code}").route(web::post().to(catalog::set_price)))
            .service(resource("/vat-rates").route(web::get().to(catalog::vat_rates)).route(web::post().to(catalog::set_vat_rate)))
            .service(resource("/edits").route(web::get().to(pages::edits)))
            .service(resource("/votes").route(web::get().to(moderation::votes)))
            .service(resource("/votes/{id}/discount").route(web::post().to(moderation::discount_vote)))
            .service(resource("/reviews").route(web::get().to(moderation::reviews)))
            .service(resource("/reviews/{id}/{choice}").route(web::post().to(moderation::moderate_review)))
            .service(resource("/orders").route(web::get().to(moderation::orders)))
            .service(resource("/tasks/{id}/done").route(web::post().to(moderation::finish_task)))
            .service(resource("/invoices").route(web::get().to(moderation::invoices)))
            .service(resource("/invoices/{file}").route(web::get().to(crate::invoices::any)))
            .service(resource("/claims").route(web::get().to(claims::claims)))
            .service(resource("/claims/{id}/recheck").route(web::post().to(claims::recheck)))
            .service(resource("/users").route(web::get().to(pages::users)))
            .service(resource("/users/{id}/{choice}").route(web::post().to(pages::block_user)))
            .service(resource("/audit").route(web::get().to(pages::audit)))
            .default_service(web::to(crate::site::unknown_address)),
    );
}

/// Lets an admin through; answers everyone else as an unknown address.
async fn gate(
    request: actix_web::dev::ServiceRequest,
    next: actix_web::middleware::Next<impl actix_web::body::MessageBody + 'static>,
) -> Result<actix_web::dev::ServiceResponse<actix_web::body::BoxBody>, actix_web::Error> {
    let state = request.app_data::<web::Data<WebState>>().cloned();
    let admin = match &state {
        Some(state) => session(state, request.request()).await.filter(|session| session.user.is_admin),
        None => None,
    };
    if let Some(session) = admin {
        // The handlers take it from here (`Admin`, `AdminPost`): one session lookup a request.
        request.extensions_mut().insert(Admin(session));
        return next.call(request).await.map(actix_web::dev::ServiceResponse::map_into_boxed_body);
    }
    let (http, _) = request.into_parts();
    let answer = match state {
        Some(state) => crate::site::unknown_address(state, http.clone()).await,
        None => HttpResponse::NotFound().finish(),
    };
    Ok(actix_web::dev::ServiceResponse::new(http, answer))
}

/// The admin a request under `/admin` is from: the gate found the session and let it through.
/// Handlers take it as an argument. Only the admin scope mounts them, behind the gate; were one
/// mounted elsewhere, a request without the gate's session would get a bare 404.
#[derive(Clone)]
pub(crate) struct Admin(pub Session);

impl FromRequest for Admin {
    type Error = PageError;
    type Future = std::future::Ready<Result<Self, Self::Error>>;

    fn from_request(request: &HttpRequest, _: &mut Payload) -> Self::Future {
        std::future::ready(request.extensions().get::<Admin>().cloned().ok_or_else(|| HttpResponse::NotFound().finish().into()))
    }
}

/// An admin's form post: the admin role (`Admin`), the form's token, this site. A form that
/// expired or came from elsewhere changes nothing and says so (403).
pub(crate) struct AdminPost<T> {
    pub session: Session,
    pub form: T,
}

impl<T: crate::PostedForm> FromRequest for AdminPost<T> {
    type Error = PageError;
    type Future = futures_util::future::LocalBoxFuture<'static, Result<Self, Self::Error>>;

    fn from_request(request: &HttpRequest, payload: &mut Payload) -> Self::Future {
        let admin = Admin::from_request(request, payload).into_inner();
        let form = web::Form::<T>::from_request(request, payload);
        let request = request.clone();
        Box::pin(async move {
            let Admin(session) = admin?;
            let form = form.await.map_err(HttpResponse::from_error)?.into_inner();
            let state = request.app_data::<web::Data<WebState>>().cloned().ok_or_else(|| HttpResponse::NotFound().finish())?;
            crate::guard::own_form(&state, &request, &session, form.csrf(), request.path())?;
            Ok(AdminPost { session, form })
        })
    }
}

/// A button (or a small form) on a row.
pub(crate) struct Action {
    /// A form posting to `url` (with the CSRF token), or a plain link when `false`.
    pub post: bool,
    pub url: String,
    /// What the button says; `aria` names it fully (`Discount vote 12`).
    pub label: String,
    pub aria: String,
    /// One labelled input sent with the button (a new price), when the action takes one.
    pub input: Option<Input>,
}

pub(crate) struct Input {
    pub id: String,
    pub name: &'static str,
    pub label: String,
    pub value: String,
    pub error: Option<String>,
}

/// The listings rows are about, as cards (logo, name, address), by id. A listing that cannot be
/// read leaves its row with the plain cell, and the list still shows.
pub(crate) async fn listing_marks(
    state: &WebState,
    ids: impl Iterator<Item = kernel::ListingId>,
) -> std::collections::HashMap<kernel::ListingId, crate::site::Card> {
    let ids: Vec<kernel::ListingId> = ids.collect();
    cards_of(state.app.listings.feeds.summaries(&ids).await)
}

/// [`listing_marks`] by slug, for lists that name listings so (votes, reviews).
pub(crate) async fn listing_marks_by_slug(
    state: &WebState,
    slugs: impl Iterator<Item = kernel::Slug>,
) -> std::collections::HashMap<kernel::Slug, crate::site::Card> {
    let slugs: Vec<kernel::Slug> = slugs.collect();
    cards_of(state.app.listings.feeds.summaries_by_slug(&slugs).await)
}

fn cards_of<K: std::hash::Hash + Eq>(
    found: Result<std::collections::HashMap<K, listings::ListingSummary>, kernel::RepoError>,
) -> std::collections::HashMap<K, crate::site::Card> {
    match found {
        Ok(found) => found.into_iter().map(|(key, listing)| (key, crate::site::Card::of(&listing))).collect(),
        Err(error) => {
            tracing::warn!(%error, "the listings of an admin list could not be read");
            std::collections::HashMap::new()
        }
    }
}

#[derive(Default)]
pub(crate) struct Row {
    pub cells: Vec<String>,
    pub actions: Vec<Action>,
    /// The listing the row is about: shown in the second column by its logo (or letter tile)
    /// and name, linking to its page, in place of `cells[1]`.
    pub listing: Option<crate::site::Card>,
}

/// A form above the list (a new VAT rate).
pub(crate) struct FreeForm {
    pub url: String,
    pub button: String,
    pub inputs: Vec<Input>,
}

#[derive(Template)]
#[template(path = "admin/list.html")]
pub(crate) struct ListPage<'a> {
    pub site_name: &'a str,
    pub meta: Meta,
    /// This list's address, for the search form.
    pub path: String,
    pub heading: String,
    pub intro: String,
    pub csrf: String,
    pub columns: Vec<&'static str>,
    pub rows: Vec<Row>,
    /// Whether any row has actions (the table then has a column for them).
    pub has_actions: bool,
    /// The search box's value; `None` for a list without one.
    pub search: Option<String>,
    pub pager: Option<Pager>,
    pub notice: Option<String>,
    pub form: Option<FreeForm>,
}

/// `?q=` and `?page=` of a list.
#[derive(Debug, Default, serde::Deserialize)]
pub struct ListQuery {
    #[serde(default)]
    pub q: String,
    #[serde(default)]
    pub page: Option<u32>,
    /// What the last change did, shown once (`?done=`): a code of `notice::Notice`.
    #[serde(default)]
    pub done: String,
    /// The row that notice names.
    #[serde(default)]
    pub of: Option<i64>,
}

pub(crate) const PER_PAGE: u32 = 25;

/// One page of `items` that match `q` (a list the domain hands over whole, bounded by it).
pub(crate) fn page_of<T>(items: Vec<T>, query: &ListQuery, path: &str, matches: impl Fn(&T) -> bool) -> (Vec<T>, Pager) {
    let found: Vec<T> = items.into_iter().filter(|item| query.q.trim().is_empty() || matches(item)).collect();
    let page = query.page.unwrap_or(1).clamp(1, kernel::PageRequest::MAX_PAGE);
    let pager = Pager::new(path, &[("q", query.q.clone())], page, PER_PAGE, found.len() as u64);
    let shown = found.into_iter().skip(((page - 1) * PER_PAGE) as usize).take(PER_PAGE as usize).collect();
    (shown, pager)
}

/// Whether `text` contains `q`, ignoring case.
pub(crate) fn has(text: &str, q: &str) -> bool {
    text.to_lowercase().contains(&q.trim().to_lowercase())
}
