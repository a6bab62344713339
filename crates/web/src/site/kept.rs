//! Public pages kept for visitors without a session. Such a page is the same for every one of
//! them (it shows no viewer's votes), so it is kept in the answer cache beside the answers it
//! shows, for as long and under the same rules (`answer_cache_ms`; a write this server takes
//! forgets it), with its gzip twin and tag: most visitors then cost a lookup, not a round of
//! operations and a render. A signed-in person's page is always built afresh.

use super::{HTML, caller, respond, respond_body};
use crate::{SESSION_COOKIE, WebState};
use actix_web::body::{EitherBody, MessageBody};
use actix_web::dev::{ServiceRequest, ServiceResponse};
use actix_web::http::{Method, StatusCode};
use actix_web::middleware::Next;
use actix_web::web::Bytes;
use actix_web::{Error, HttpMessage, HttpRequest, web};
use std::cell::{Cell, RefCell};

/// Marks a request whose page the middleware would keep: `page` hands its HTML over instead of
/// answering.
struct Keeping;

/// The HTML a page handed over.
struct Rendered(String);

/// The page read its query, and every parameter was one it knows, each once.
struct QueryRead;

/// The page is not to be kept (it could not show everything).
struct DontKeep;

/// Says the page read its query string, and whether it held only parameters the page knows.
/// A page with a query is kept only then: `/?utm_source=...` tails would each be an entry of
/// their own for the same page.
pub(crate) fn query_read(request: &HttpRequest, only_known: bool) {
    if only_known {
        request.extensions_mut().insert(QueryRead);
    } else {
        dont_keep(request);
    }
}

/// Asks that this request's page not be kept: it is served, but built again for the next
/// visitor (a page that could not show a part of itself).
pub(crate) fn dont_keep(request: &HttpRequest) {
    request.extensions_mut().insert(DontKeep);
}

/// Hands a rendered page to the keeping middleware when it asked for one and the page is a 200:
/// `None` then, and the middleware answers with it. Otherwise the body comes back, to be
/// answered as it is.
pub(crate) fn hand_over(request: &HttpRequest, status: StatusCode, body: String) -> Option<String> {
    if status != StatusCode::OK || !request.extensions().contains::<Keeping>() {
        return Some(body);
    }
    request.extensions_mut().insert(Rendered(body));
    None
}

/// What reading a page does besides answering, done also when it comes from the cache.
#[derive(Clone, Copy)]
enum Besides {
    Nothing,
    /// A listing's page counts a view, as `get_listing` does.
    CountView,
}

/// Keeps the pages of the resource it wraps.
pub(crate) async fn keep(
    request: ServiceRequest,
    next: Next<impl MessageBody + 'static>,
) -> Result<ServiceResponse<impl MessageBody>, Error> {
    keep_page(request, next, Besides::Nothing).await
}

/// [`keep`] for the listing page, whose every reading counts a view.
pub(crate) async fn keep_counting_views(
    request: ServiceRequest,
    next: Next<impl MessageBody + 'static>,
) -> Result<ServiceResponse<impl MessageBody>, Error> {
    keep_page(request, next, Besides::CountView).await
}

/// Why a page was not kept: it was not a 200 page (a refusal, a redirect), it is not to be
/// kept (its HTML, with the request), or it failed.
enum NotKept<B> {
    Answered(ServiceResponse<B>),
    Unkept(HttpRequest, String),
    Failed(Error),
}

async fn keep_page<B: MessageBody + 'static>(
    request: ServiceRequest,
    next: Next<B>,
    besides: Besides,
) -> Result<ServiceResponse<EitherBody<B>>, Error> {
    let state = request.app_data::<web::Data<WebState>>().cloned();
    let anonymous = request.method() == Method::GET && request.cookie(SESSION_COOKIE).is_none();
    let Some(state) = state.filter(|state| anonymous && state.edge.answers.is_on()) else {
        return next.call(request).await.map(ServiceResponse::map_into_left_body);
    };
    let key = format!("page\n{}\n{}", request.path(), request.query_string());
    // The request goes to the page when it is built, and comes back with its answer; a kept
    // page answers with the request as it came.
    let parts = RefCell::new(Some(request.into_parts()));
    let returned = RefCell::new(None::<HttpRequest>);
    let built = Cell::new(false);
    let kept = state
        .edge
        .answers
        .get_or_build(key, || async {
            built.set(true);
            let (http, payload) = parts.borrow_mut().take().expect("the request is taken once");
            http.extensions_mut().insert(Keeping);
            let response = next.call(ServiceRequest::from_parts(http, payload)).await.map_err(NotKept::Failed)?;
            let rendered = response.request().extensions_mut().remove::<Rendered>();
            let Some(Rendered(html)) = rendered else {
                return Err(NotKept::Answered(response));
            };
            let (http, response) = response.into_parts();
            let keepable = {
                let marks = http.extensions();
                !marks.contains::<DontKeep>() && (http.query_string().is_empty() || marks.contains::<QueryRead>())
            };
            drop(response);
            if !keepable {
                return Err(NotKept::Unkept(http, html));
            }
            *returned.borrow_mut() = Some(http);
            Ok(Bytes::from(html))
        })
        .await;
    match kept {
        Ok(body) => {
            let http = returned.take().or_else(|| parts.take().map(|(http, _)| http)).expect("the request is here");
            if !built.get() {
                besides.run(&state, &http);
            }
            let response = respond_body(&http, StatusCode::OK, HTML, &body);
            Ok(ServiceResponse::new(http, response).map_into_right_body())
        }
        Err(NotKept::Answered(response)) => Ok(response.map_into_left_body()),
        Err(NotKept::Unkept(http, html)) => {
            let response = respond(&http, StatusCode::OK, HTML, html);
            Ok(ServiceResponse::new(http, response).map_into_right_body())
        }
        Err(NotKept::Failed(error)) => Err(error),
    }
}

impl Besides {
    fn run(self, state: &WebState, request: &HttpRequest) {
        match self {
            Self::Nothing => {}
            Self::CountView => {
                let slug = request.match_info().get("slug").unwrap_or_default().to_owned();
                if let Ok(input) = ops::params::raw_input(&ops::operations::listing::GetListing, vec![("slug".into(), slug)], Vec::new()) {
                    ops::Operation::answered_from_cache(
                        &ops::operations::listing::GetListing,
                        ops::Context::of(&state.app),
                        &caller(request),
                        &input,
                    );
                }
            }
        }
    }
}
