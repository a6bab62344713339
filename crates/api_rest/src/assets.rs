//! Badge images: `GET /badges/{slug}/{kind}.svg?shape=&mode=&size=`, SVG with an ETag and
//! cache headers. Only badges the listing has earned are drawn.

use crate::RestState;
use crate::problem::{Problem, ProblemResponse, from_op_error, invalid};
use actix_web::http::header::{CACHE_CONTROL, ETAG, IF_NONE_MATCH};
use actix_web::{HttpRequest, HttpResponse, web};
use kernel::{FieldError, Slug};
use listings::{BadgeError, BadgeKind, BadgeStyle, Mode, Shape, Size, render_svg};
use ops::OpError;
use std::hash::{Hash, Hasher};

/// How long browsers and proxies may keep a badge image before asking again.
const MAX_AGE_SECONDS: u32 = 3600;

pub fn configure(cfg: &mut web::ServiceConfig) {
    cfg.route("/badges/{slug}/{file}", web::get().to(badge_image));
}

fn style_from_query(query: &str) -> Result<BadgeStyle, Vec<FieldError>> {
    let pairs: Vec<(String, String)> =
        serde_urlencoded::from_str(query).map_err(|_| vec![FieldError::new("query", "is not a valid query string")])?;
    let mut style = BadgeStyle::default();
    let mut errors = Vec::new();
    for (key, value) in pairs {
        let ok = match key.as_str() {
            "shape" => Shape::parse(&value).map(|shape| style.shape = shape).is_some(),
            "mode" => Mode::parse(&value).map(|mode| style.mode = mode).is_some(),
            "size" => Size::parse(&value).map(|size| style.size = size).is_some(),
            _ => {
                errors.push(FieldError::new(key, "is not a known field"));
                continue;
            }
        };
        if !ok {
            let allowed = match key.as_str() {
                "shape" => "standard, outline, pill, banner or square",
                "mode" => "light, dark or auto",
                _ => "s, m or l",
            };
            errors.push(FieldError::new(key, format!("must be {allowed}")));
        }
    }
    if errors.is_empty() { Ok(style) } else { Err(errors) }
}

async fn badge_image(request: HttpRequest, path: web::Path<(String, String)>, state: web::Data<RestState>) -> HttpResponse {
    let (slug, file) = path.into_inner();
    let not_found = || Problem::new(404, "not_found", "Not found", "this listing shows no such badge").response();
    let Ok(slug) = Slug::parse(&slug) else { return invalid(vec![FieldError::new("slug", "is not a valid slug")]) };
    let Some(kind) = file.strip_suffix(".svg").and_then(BadgeKind::parse) else { return not_found() };
    let style = match style_from_query(request.query_string()) {
        Ok(style) => style,
        Err(errors) => return invalid(errors),
    };
    let earned = match state.app.listings.badges.earned(&slug).await {
        Ok((_, earned)) => earned,
        Err(BadgeError::NotFound) => return not_found(),
        Err(err) => return from_op_error(OpError::internal(err)),
    };
    let Some(badge) = earned.iter().find(|badge| badge.kind == kind) else { return not_found() };
    let svg = render_svg(badge, &state.app.site.name, style);
    let mut hasher = std::collections::hash_map::DefaultHasher::new();
    svg.hash(&mut hasher);
    let etag = format!("\"{:016x}\"", hasher.finish());
    let cache = format!("public, max-age={MAX_AGE_SECONDS}");
    let matches = request
        .headers()
        .get(IF_NONE_MATCH)
        .and_then(|value| value.to_str().ok())
        .is_some_and(|value| value.split(',').any(|tag| tag.trim() == etag || tag.trim() == "*"));
    if matches {
        return HttpResponse::NotModified().insert_header((ETAG, etag)).insert_header((CACHE_CONTROL, cache)).finish();
    }
    HttpResponse::Ok()
        .content_type("image/svg+xml; charset=utf-8")
        .insert_header((ETAG, etag))
        .insert_header((CACHE_CONTROL, cache))
        .insert_header(("X-Content-Type-Options", "nosniff"))
        .body(svg)
}
