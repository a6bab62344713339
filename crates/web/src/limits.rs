//! The rate limits in front of the pages and the authorization server's endpoints: the same
//! limiter as the API's, per client address. Sign-in and sign-up attempts count against
//! `sign_in`, client registrations against `oauth_register`, other form posts and token requests
//! against `write`, pages and metadata against `read_anonymous`.

use crate::{PageError, WebState};
use actix_web::body::{BoxBody, MessageBody};
use actix_web::dev::{ServiceRequest, ServiceResponse};
use actix_web::http::Method;
use actix_web::http::header::RETRY_AFTER;
use actix_web::middleware::Next;
use actix_web::{HttpMessage, HttpRequest, HttpResponse, web};
use ops::{OpError, RateClass};

/// What a request to the site counts against.
fn class_of(method: &Method, path: &str) -> RateClass {
    match (method, path) {
        // Resets count with sign-in attempts: each sends an e-mail or hashes a password.
        (&Method::POST, "/signin" | "/signup" | "/account/reset" | "/account/reset/password") => RateClass::SignIn,
        (&Method::POST, "/oauth/register") => RateClass::OAuthRegister,
        (&Method::POST, _) => RateClass::Write,
        _ => RateClass::Read,
    }
}

/// The answer to a request over its budget: problem+json for the OAuth endpoints (machines read
/// them), a page for people.
fn refused(state: &WebState, request: &HttpRequest, path: &str, class: RateClass, retry_after: u32) -> HttpResponse {
    if path.starts_with("/oauth/") || path.starts_with("/.well-known/") {
        let mut response = HttpResponse::TooManyRequests()
            .content_type("application/problem+json")
            .json(ops::Problem::of(&OpError::RateLimited { retry_after }));
        response.headers_mut().insert(RETRY_AFTER, retry_after.into());
        return response;
    }
    crate::page_error::answer(state, request, &PageError::too_many(Some(class), retry_after))
}

/// The middleware on every page and OAuth endpoint; it also renders a handler's refusal as its
/// page (`page_error::rendered`).
pub async fn limit(request: ServiceRequest, next: Next<impl MessageBody + 'static>) -> Result<ServiceResponse<BoxBody>, actix_web::Error> {
    let Some(state) = request.app_data::<web::Data<WebState>>().cloned() else {
        return next.call(request).await.map(ServiceResponse::map_into_boxed_body);
    };
    let client = http_edge::ClientIp::or_peer(request.extensions().get().copied(), request.peer_addr());
    // The route's own pattern, not the path as sent: `/sign%69n` reaches `/signin` and must
    // count as a sign-in attempt.
    let route = request.match_pattern().unwrap_or_else(|| request.path().to_owned());
    let class = class_of(request.method(), &route);
    match state.edge.limits.check(class, None, client).await {
        Ok(rate) => {
            let mut response = crate::page_error::rendered(&state, next.call(request).await?.map_into_boxed_body());
            if let Some(rate) = rate {
                response.response_mut().extensions_mut().insert(rate);
            }
            Ok(response)
        }
        Err(limited) => {
            let mut response = refused(&state, request.request(), &route, class, limited.0.retry_after.unwrap_or(1));
            response.extensions_mut().insert(limited.0);
            Ok(request.into_response(response))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sign_in_attempts_registrations_and_posts_have_their_budgets() {
        assert_eq!(class_of(&Method::POST, "/signin"), RateClass::SignIn);
        assert_eq!(class_of(&Method::POST, "/signup"), RateClass::SignIn);
        assert_eq!(class_of(&Method::POST, "/account/reset"), RateClass::SignIn);
        assert_eq!(class_of(&Method::POST, "/account/reset/password"), RateClass::SignIn);
        assert_eq!(class_of(&Method::POST, "/oauth/register"), RateClass::OAuthRegister);
        assert_eq!(class_of(&Method::POST, "/oauth/token"), RateClass::Write);
        assert_eq!(class_of(&Method::POST, "/oauth/authorize"), RateClass::Write);
        assert_eq!(class_of(&Method::GET, "/signin"), RateClass::Read);
        assert_eq!(class_of(&Method::GET, "/.well-known/oauth-authorization-server"), RateClass::Read);
    }
}
