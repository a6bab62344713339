//! Who may change something from a page, in one place: a signed-in person's form post carries
//! the session's CSRF token and comes from this site's own pages (`SignedInPost`), runs
//! operations as the person with every scope (`as_person`), and counts against rate classes as
//! operations do (`admit`, through the same `Edge::admit`).

use crate::page_error::PageError;
use crate::{WebState, safe_next, session};
use accounts::signin::Session;
use accounts::{Credential, Principal, Scopes};
use actix_web::{FromRequest, HttpRequest, HttpResponse, web};
use ops::{Caller, RateClass};

/// A form posted from this site's own pages: it carries the session's CSRF token.
pub(crate) trait PostedForm: serde::de::DeserializeOwned + 'static {
    fn csrf(&self) -> &str;

    /// The page the form was on, where signing in and the refusal's link lead back to, when the
    /// form says (a button shown on many pages); otherwise the address decides (`back_of`).
    fn back(&self) -> Option<&str> {
        None
    }
}

/// `PostedForm` for form types whose token is their `csrf` field.
macro_rules! token_in_csrf_field {
    ($($form:ty),+) => {
        $(impl crate::PostedForm for $form {
            fn csrf(&self) -> &str {
                &self.csrf
            }
        })+
    };
}
pub(crate) use token_in_csrf_field;

token_in_csrf_field!(crate::CsrfForm);

/// A form whose fields are read as pairs (several values for one name).
impl PostedForm for Vec<(String, String)> {
    fn csrf(&self) -> &str {
        self.iter().find(|(key, _)| key == "csrf").map_or("", |(_, value)| value.as_str())
    }
}

/// A signed-in person's form post from this site, with the session's CSRF token. Without a
/// session it answers with the way to sign in, coming back to `back`; a stale form or one from
/// another site changes nothing and says so (403).
pub(crate) struct SignedInPost<T> {
    pub session: Session,
    pub form: T,
    /// The page the person came from (a local path).
    pub back: String,
}

impl<T: PostedForm> FromRequest for SignedInPost<T> {
    type Error = PageError;
    type Future = futures_util::future::LocalBoxFuture<'static, Result<Self, Self::Error>>;

    fn from_request(request: &HttpRequest, payload: &mut actix_web::dev::Payload) -> Self::Future {
        let form = web::Form::<T>::from_request(request, payload);
        let request = request.clone();
        Box::pin(async move {
            let form = form.await.map_err(HttpResponse::from_error)?.into_inner();
            let state = request.app_data::<web::Data<WebState>>().cloned().ok_or_else(|| HttpResponse::NotFound().finish())?;
            let back = form.back().map_or_else(|| back_of(&request), |back| safe_next(back).to_owned());
            let session = checked_back(&state, &request, form.csrf(), &back).await?;
            Ok(SignedInPost { session, form, back })
        })
    }
}

/// Where a post to `request`'s address comes from: the submission's page for `/submit/drafts/<id>/...`,
/// the listing's page for `/listings/<slug>/...`, the account page for the others.
fn back_of(request: &HttpRequest) -> String {
    let path = request.path();
    if path.starts_with("/submit") || path.starts_with("/listings/") {
        let depth = if path.starts_with("/submit") { 4 } else { 3 };
        return path.split('/').take(depth).collect::<Vec<_>>().join("/");
    }
    "/account".to_owned()
}

/// The signed-in session of a form post from this site with its CSRF token; else the way to sign
/// in (coming back to `back`) or the stale form's refusal.
pub(crate) async fn checked_back(state: &WebState, request: &HttpRequest, csrf: &str, back: &str) -> Result<Session, PageError> {
    let Some(session) = session(state, request).await else {
        return Err(PageError::from(sign_in_first(back)));
    };
    own_form(state, request, &session, csrf, back)?;
    Ok(session)
}

/// Whether a signed-in form post may change something: it carries the session's CSRF token and
/// comes from this site's own pages (`Sec-Fetch-Site`, else `Origin`); else the stale form's
/// refusal, leading back to `back`.
pub(crate) fn own_form(state: &WebState, request: &HttpRequest, session: &Session, csrf: &str, back: &str) -> Result<(), PageError> {
    if same_site(state, request) && !csrf.is_empty() && csrf == session.csrf_token {
        Ok(())
    } else {
        Err(PageError::stale_form().back_to(back))
    }
}

/// The way to sign in, coming back to `back`.
pub(crate) fn sign_in_first(back: &str) -> HttpResponse {
    let next = crate::percent_encode(back);
    HttpResponse::SeeOther().insert_header(("Location", format!("/signin?next={next}"))).finish()
}

/// The signed-in person of a page that needs one, or the way to sign in (coming back here).
pub(crate) async fn signed_in(state: &WebState, request: &HttpRequest) -> Result<Session, PageError> {
    session(state, request).await.ok_or_else(|| PageError::from(sign_in_first(request.path())))
}

/// The caller the pages run operations as: the signed-in person, with every scope.
pub(crate) fn as_person(session: &Session, request: &HttpRequest) -> Caller {
    let client = crate::client_of(request);
    let principal = Principal { user: session.user.clone(), credential: Credential::SiteSession, scopes: Scopes::all() };
    Caller { principal: Some(principal), client: Some(client) }
}

/// Counts a person's action against `classes` as an operation is counted (`Edge::admit`); the
/// first spent budget refuses it with how long to wait, in the words of what was counted.
pub(crate) async fn admit(state: &WebState, request: &HttpRequest, session: &Session, classes: &[RateClass]) -> Result<(), PageError> {
    let admission = state.edge.admit(classes, Ok(as_person(session, request)), crate::client_of(request)).await;
    match admission.caller {
        Ok(_) => Ok(()),
        Err(error) => {
            let wait = error.retry_after().unwrap_or(60);
            Err(PageError::too_many(admission.rate.map(|rate| rate.policy), wait))
        }
    }
}

/// Whether the request comes from one of this site's own pages: a browser says so in
/// `Sec-Fetch-Site`, or at least in `Origin`; a request with neither (an old browser) relies on
/// the CSRF token alone.
pub(crate) fn same_site(state: &WebState, request: &HttpRequest) -> bool {
    let header = |name: &str| request.headers().get(name).and_then(|value| value.to_str().ok());
    if let Some(site) = header("sec-fetch-site") {
        return site == "same-origin";
    }
    match header("origin") {
        Some(origin) => origin.trim_end_matches('/') == site_origin(&state.site_url),
        None => true,
    }
}

/// `https://launch.example` of `https://launch.example/anything`.
fn site_origin(site_url: &str) -> &str {
    let after_scheme = site_url.find("://").map_or(0, |i| i + 3);
    match site_url[after_scheme..].find('/') {
        Some(slash) => &site_url[..after_scheme + slash],
        None => site_url,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use actix_web::test::TestRequest;

    #[test]
    fn the_origin_of_the_site_address() {
        assert_eq!(site_origin("https://launch.example"), "https://launch.example");
        assert_eq!(site_origin("https://launch.example/dir"), "https://launch.example");
        assert_eq!(site_origin("http://127.0.0.1:8080"), "http://127.0.0.1:8080");
    }

    #[test]
    fn a_post_leads_back_to_the_page_it_came_from() {
        let back = |path: &str| back_of(&TestRequest::post().uri(path).to_http_request());
        assert_eq!(back("/submit/drafts/d1/free"), "/submit/drafts/d1");
        assert_eq!(back("/submit"), "/submit");
        assert_eq!(back("/listings/acme/review"), "/listings/acme");
        assert_eq!(back("/account/keys"), "/account");
        assert_eq!(back("/invites/t1"), "/account");
    }
}
