#![doc = include_str!("../README.md")]

mod account;
mod admin;
mod checkout;
mod choices;
mod claims;
mod confirm;
mod dates;
mod guard;
mod invites;
mod invoices;
mod limits;
mod markdown;
mod mine;
mod oauth;
mod page_error;
mod pages;
mod payment_webhooks;
mod pictures;
mod reset;
mod site;
mod submit;

pub use site::{CARD_LOGO_PX, not_found, unknown_address, wants_html};

pub(crate) use guard::{PostedForm, SignedInPost};
pub(crate) use page_error::PageError;

use actix_web::cookie::{Cookie, SameSite};
use actix_web::middleware::from_fn;
use actix_web::{HttpMessage, HttpRequest, HttpResponse, web};
use askama::Template;

/// What the pages and the authorization server need.
#[derive(Clone)]
pub struct WebState {
    pub app: ops::App,
    /// Rate limits and the answer cache, shared with the API and the tool server.
    pub edge: http_edge::Edge,
    /// The site address, without a trailing slash; also the OAuth issuer.
    pub site_url: String,
    /// The application's answer for an address nothing serves, to a client that is not a
    /// browser (problem+json); the admin pages give it to anyone without the role, so they
    /// answer exactly as an unknown address does.
    pub api_not_found: fn() -> HttpResponse,
}

impl WebState {
    fn secure_cookies(&self) -> bool {
        self.site_url.starts_with("https://")
    }
}

/// Mounts the pages and the authorization server.
pub fn configure(state: WebState) -> impl Fn(&mut web::ServiceConfig) + Clone {
    let state = web::Data::new(state);
    move |cfg: &mut web::ServiceConfig| {
        // Every page and endpoint counts against the rate limits (`limits`).
        let resource = |path: &str| web::resource(path).wrap(from_fn(limits::limit));
        cfg.app_data(state.clone())
            .service(resource("/signin").route(web::get().to(pages::signin_page)).route(web::post().to(pages::signin)))
            .service(resource("/signup").route(web::get().to(pages::signup_page)).route(web::post().to(pages::signup)))
            .service(resource("/signout").route(web::post().to(pages::signout)))
            .service(resource("/account").route(web::get().to(account::show)))
            .service(resource("/account/keys").route(web::post().to(account::create_key)))
            .service(resource("/account/listings/{id}").route(web::get().to(mine::show)).route(web::post().to(mine::edit)))
            .service(resource("/account/invoices/{file}").route(web::get().to(invoices::mine)))
            .service(resource("/account/listings/{id}/updates").route(web::post().to(mine::post_update)))
            .service(resource("/account/listings/{id}/pictures").route(web::post().to(pictures::send)))
            .service(resource("/account/listings/{id}/gallery").route(web::post().to(pictures::arrange)))
            .service(resource("/account/keys/{id}/revoke").route(web::post().to(account::revoke_key)))
            .service(resource("/account/apps/disconnect").route(web::post().to(account::disconnect_app)))
            .service(resource("/invites/{token}").route(web::get().to(invites::show)).route(web::post().to(invites::accept)))
            .service(resource("/account/password").route(web::post().to(account::change_password)))
            .service(resource("/account/close").route(web::post().to(account::close)))
            .service(resource("/account/signout-everywhere").route(web::post().to(account::sign_out_everywhere)))
            .service(resource("/account/confirm").route(web::get().to(confirm::confirm_page)).route(web::post().to(confirm::confirm)))
            .service(resource("/claims/confirm").route(web::get().to(claims::confirm_page)).route(web::post().to(claims::confirm)))
            .service(resource("/account/confirm/resend").route(web::post().to(confirm::resend)))
            .service(resource("/account/reset").route(web::get().to(reset::request_page)).route(web::post().to(reset::request)))
            .service(resource("/account/reset/password").route(web::get().to(reset::password_page)).route(web::post().to(reset::password)))
            .service(resource("/.well-known/oauth-authorization-server").route(web::get().to(oauth::metadata)))
            .service(resource("/oauth/register").route(web::post().to(oauth::register)))
            .service(
                resource("/oauth/authorize").route(web::get().to(oauth::authorize_page)).route(web::post().to(oauth::authorize_decision)),
            )
            .service(resource("/oauth/token").route(web::post().to(oauth::token)))
            .service(resource("/oauth/revoke").route(web::post().to(oauth::revoke)))
            .service(resource("/checkout/{number}").route(web::get().to(checkout::show)))
            .service(resource("/checkout/{number}/billing").route(web::post().to(checkout::billing)))
            .service(resource("/checkout/{number}/pay").route(web::post().to(checkout::pay)))
            .service(resource("/checkout/{number}/cancel").route(web::post().to(checkout::cancel)))
            .service(
                resource("/payments/test/{session}")
                    .route(web::get().to(checkout::test_payment_page))
                    .route(web::post().to(checkout::test_payment)),
            )
            // Providers sign their webhooks; the signature is checked before anything is read or
            // written, and a provider's retries must not be refused by a per-address quota.
            .service(web::resource("/webhooks/payments/{provider}").route(web::post().to(payment_webhooks::webhook)))
            .configure(submit::configure)
            .configure(admin::configure)
            .configure(site::configure);
    }
}

/// The session cookie's name.
pub const SESSION_COOKIE: &str = "ld_session";
/// Set beside the session of an account with the admin role: the header then links `/admin`.
/// It decides nothing else (the admin pages check the session's role on every request).
pub const ADMIN_HINT_COOKIE: &str = "ld_admin";
/// The CSRF cookie of forms shown before a session exists (double submit).
const CSRF_COOKIE: &str = "ld_csrf";

fn random_token() -> String {
    // Without randomness no form can be protected; an empty token never matches a cookie.
    kernel::secrets::random_token().unwrap_or_default()
}

fn cookie<'a>(state: &WebState, name: &'a str, value: String) -> Cookie<'a> {
    Cookie::build(name, value).path("/").http_only(true).same_site(SameSite::Lax).secure(state.secure_cookies()).finish()
}

/// The signed-in session of a request, if any; the request is then a known writer's.
async fn session(state: &WebState, request: &HttpRequest) -> Option<accounts::signin::Session> {
    let token = request.cookie(SESSION_COOKIE)?.value().to_owned();
    let session = state.app.accounts.signin.session(&token).await.ok().flatten()?;
    known_writer(request);
    Some(session)
}

/// A page refused by the sign-in throttle: it says how long to wait, and so does `Retry-After`
/// (sign-in, and the account forms that ask for the password again).
pub(crate) fn with_retry_after(mut page: HttpResponse, seconds: u64) -> HttpResponse {
    page.headers_mut().insert(actix_web::http::header::RETRY_AFTER, seconds.into());
    page
}

/// The client address of `request`, as everything counted per client sees it (the server's
/// middleware records it, from the peer or a trusted proxy's `X-Forwarded-For`).
pub(crate) fn client_of(request: &HttpRequest) -> std::net::IpAddr {
    http_edge::ClientIp::or_peer(request.extensions().get().copied(), request.peer_addr())
}

/// Marks `request` as one whose success may have changed public reads (`http_edge::KnownWriter`).
fn known_writer(request: &HttpRequest) {
    request.extensions_mut().insert(http_edge::KnownWriter);
}

/// An HTML page whose forms post only to this site.
fn html(status: actix_web::http::StatusCode, page: &impl Template) -> HttpResponse {
    html_posting_to(status, page, None)
}

/// The form pages' policy: nothing loaded but our stylesheet, no `<base>`, and forms that go
/// only to this site, or also to `leads_to`'s origin where a form's answer sends the person on
/// (the OAuth consent to the app's redirect address, the checkout to the payment provider):
/// `form-action` covers the redirects that follow a post too.
fn form_page_policy(leads_to: Option<&str>) -> String {
    let origin = leads_to.and_then(|address| kernel::WebUrl::parse(address).ok()).map(|address| address.origin());
    let elsewhere = origin.map(|origin| format!(" {origin}")).unwrap_or_default();
    format!("default-src 'none'; style-src 'self'; form-action 'self'{elsewhere}; frame-ancestors 'none'; base-uri 'none'")
}

/// An HTML page whose forms post to this site, or lead on to `leads_to`'s origin.
fn html_posting_to(status: actix_web::http::StatusCode, page: &impl Template, leads_to: Option<&str>) -> HttpResponse {
    match page.render() {
        Ok(body) => HttpResponse::build(status)
            .content_type("text/html; charset=utf-8")
            .insert_header(("Cache-Control", "no-store"))
            .insert_header(("X-Frame-Options", "DENY"))
            .insert_header(("Content-Security-Policy", form_page_policy(leads_to)))
            .body(body),
        Err(err) => {
            tracing::error!(error = %err, "a page could not be rendered");
            HttpResponse::InternalServerError().finish()
        }
    }
}

#[derive(Template)]
#[template(path = "message.html")]
struct Message<'a> {
    site_name: &'a str,
    heading: &'a str,
    message: &'a str,
    /// A good outcome is a status message; anything else is announced as an alert.
    success: bool,
}

fn message(state: &WebState, status: actix_web::http::StatusCode, heading: &str, text: &str) -> HttpResponse {
    html(status, &Message { site_name: &state.app.site.name, heading, message: text, success: status.is_success() })
}

/// A form whose only field is the session's CSRF token (a button that changes something).
#[derive(Debug, serde::Deserialize)]
pub struct CsrfForm {
    #[serde(default)]
    pub(crate) csrf: String,
}

/// A wire value's name (`awaiting_badge`) in words.
fn words(value: impl serde::Serialize) -> String {
    serde_json::to_value(value).ok().and_then(|value| value.as_str().map(|text| text.replace('_', " "))).unwrap_or_default()
}

/// The message of the error about `field`, to show beside it on a form.
fn error_of<'a>(errors: &'a [kernel::FieldError], field: &str) -> Option<&'a str> {
    errors.iter().find(|error| error.field == field).map(|error| error.message.as_str())
}

/// `next` values are local paths only (no open redirects).
fn safe_next(next: &str) -> &str {
    // Browsers drop tabs and newlines and read `\` as `/`, so `/\t/evil.example` would be
    // `//evil.example`: any control character, backslash or leading `//` is refused.
    let local = next.starts_with('/') && !next.starts_with("//") && !next.chars().any(|c| c.is_control() || c == '\\');
    if local { next } else { "/" }
}

fn percent_encode(value: &str) -> String {
    serde_urlencoded::to_string([("v", value)]).map(|s| s.trim_start_matches("v=").to_owned()).unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::{form_page_policy, safe_next};

    #[test]
    fn form_pages_post_to_this_site_or_to_where_the_form_leads() {
        let own = form_page_policy(None);
        assert!(own.contains("form-action 'self';") && own.contains("base-uri 'none'"), "{own}");
        let consent = form_page_policy(Some("http://127.0.0.1:33418/callback?x=1"));
        assert!(consent.contains("form-action 'self' http://127.0.0.1:33418;"), "{consent}");
        let checkout = form_page_policy(Some("https://checkout.stripe.com"));
        assert!(checkout.contains("form-action 'self' https://checkout.stripe.com;"), "{checkout}");
        // Something that is no web address allows nothing more.
        assert!(form_page_policy(Some("javascript:alert(1)")).contains("form-action 'self';"));
    }

    #[test]
    fn next_is_a_local_path_only() {
        assert_eq!(safe_next("/oauth/authorize?x=1"), "/oauth/authorize?x=1");
        for bad in ["//evil.example", "/\\evil.example", "/\t/evil.example", "/\n/evil.example", "https://evil.example", "evil", ""] {
            assert_eq!(safe_next(bad), "/", "{bad:?}");
        }
    }
}
