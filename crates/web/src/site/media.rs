//! `/media/<hash>-<size>.<ext>`: kept images from our own origin. An object's name is the hash of
//! its bytes, so it never changes: browsers and proxies keep it a year without asking again, and
//! its name is its `ETag`. Not rate limited: a page shows dozens, and each costs a file read (a
//! scaled copy not made yet is made once, on its first request).

use crate::WebState;
use actix_web::http::header::{CACHE_CONTROL, CONTENT_SECURITY_POLICY, ETAG, IF_NONE_MATCH, RETRY_AFTER};
use actix_web::{HttpRequest, HttpResponse, web};
use media::{MediaError, Served};

pub(crate) async fn object(state: web::Data<WebState>, request: HttpRequest, name: web::Path<String>) -> HttpResponse {
    answer(&request, state.app.media.serve(&name).await, &name, "public, max-age=31536000, immutable")
}

/// Answers with a kept object (an image, a social card) named `name`: its `ETag` is its name,
/// so a browser that has it gets 304.
pub(crate) fn answer(request: &HttpRequest, served: Result<Option<Served>, MediaError>, name: &str, cache: &'static str) -> HttpResponse {
    let tag = format!("\"{name}\"");
    let fresh = request
        .headers()
        .get(IF_NONE_MATCH)
        .and_then(|value| value.to_str().ok())
        .is_some_and(|value| value.split(',').any(|candidate| candidate.trim() == tag));
    match served {
        Ok(Some(served)) => {
            let mut response = if fresh { HttpResponse::NotModified() } else { HttpResponse::Ok() };
            response
                .insert_header((ETAG, tag))
                .insert_header((CACHE_CONTROL, cache))
                // Should a browser ever open one as a document, it runs and loads nothing.
                .insert_header((CONTENT_SECURITY_POLICY, "default-src 'none'; sandbox"));
            if fresh { response.finish() } else { response.content_type(served.content_type).body(served.bytes) }
        }
        Ok(None) => HttpResponse::NotFound().content_type("text/plain; charset=utf-8").body("There is no image at this address.\n"),
        Err(error @ MediaError::Store(_)) => {
            tracing::error!(%error, object = %name, "a kept image could not be read");
            HttpResponse::ServiceUnavailable()
                .insert_header((RETRY_AFTER, "5"))
                .content_type("text/plain; charset=utf-8")
                .body("The image cannot be read just now; try again in a moment.\n")
        }
        Err(error) => {
            tracing::error!(%error, object = %name, "a kept image is damaged or could not be drawn");
            HttpResponse::InternalServerError().content_type("text/plain; charset=utf-8").body("This image is damaged.\n")
        }
    }
}
