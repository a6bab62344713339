//! The public pages: each runs the same operations as its API twin (`ops::run_typed`), in one
//! concurrent round (then, for a signed-in viewer, one read of their votes), and renders their
//! typed output with askama. No page reads a repository.

mod browse;
mod cards;
mod community;
mod findable;
mod kept;
mod listing;
mod media;
mod people;
mod showcase;
mod suggestions;
mod voting;

pub(crate) use showcase::Person;

use crate::{PageError, WebState};
use actix_web::http::StatusCode;
use actix_web::http::header::{CACHE_CONTROL, ETAG, IF_NONE_MATCH};
use actix_web::middleware::from_fn;
use actix_web::web::Bytes;
use actix_web::{HttpRequest, HttpResponse, web};
use askama::Template;
use http_edge::KeptBody;
use listings::ListingSummary;
use ops::{Caller, OpError, Operation};

/// Mounts the public pages, the sitemaps, `robots.txt` and the feeds.
pub(crate) fn configure(cfg: &mut web::ServiceConfig) {
    let page = |path: &str| web::resource(path).wrap(from_fn(crate::limits::limit));
    // Pages the same for every visitor without a session, kept for them (`kept`). The rate
    // limit wraps the keeping: a kept page still counts against it.
    let kept = |path: &str| web::resource(path).wrap(from_fn(kept::keep)).wrap(from_fn(crate::limits::limit));
    // The feeds first: `/blog/feed.atom` must not reach `/blog/{slug}`.
    cfg.service(page("/launches/feed.atom").route(web::get().to(findable::launches_feed)))
        .service(page("/blog/feed.atom").route(web::get().to(findable::blog_feed)))
        .service(page("/robots.txt").route(web::get().to(findable::robots)))
        .service(page("/sitemap.xml").route(web::get().to(findable::sitemap_index)))
        .service(page("/sitemaps/{file}").route(web::get().to(findable::sitemap)))
        .service(web::resource("/assets/site.css").route(web::get().to(stylesheet)))
        .service(web::resource("/assets/site.js").route(web::get().to(script)))
        .service(web::resource("/media/{name}").route(web::get().to(media::object)).route(web::head().to(media::object)))
        .service(page("/cards/listings/{file}").route(web::get().to(cards::listing)))
        .service(page("/cards/weeks/{file}").route(web::get().to(cards::week)))
        .service(page("/cards/founders/{file}").route(web::get().to(cards::founder)))
        .service(kept("/").route(web::get().to(browse::home)))
        .service(kept("/launches").route(web::get().to(browse::launches)))
        .service(kept("/launches/weeks/{week}").route(web::get().to(browse::week)))
        .service(kept("/categories").route(web::get().to(browse::categories)))
        .service(kept("/categories/{slug}").route(web::get().to(browse::category)))
        .service(kept("/search").route(web::get().to(browse::search)))
        .service(page("/search/suggestions").route(web::get().to(suggestions::suggestions)))
        .service(
            web::resource("/listings/{slug}")
                .wrap(from_fn(kept::keep_counting_views))
                .wrap(from_fn(crate::limits::limit))
                .route(web::get().to(listing::show)),
        )
        .service(kept("/leaderboards").route(web::get().to(people::leaderboards)))
        .service(kept("/leaderboards/{board}").route(web::get().to(people::leaderboard)))
        .service(kept("/awards").route(web::get().to(people::awards)))
        .service(kept("/founders").route(web::get().to(people::founders)))
        .service(kept("/founders/{slug}").route(web::get().to(people::founder)))
        .service(kept("/blog").route(web::get().to(people::blog)))
        .service(kept("/blog/{slug}").route(web::get().to(people::blog_post)))
        .service(kept("/docs/api").route(web::get().to(people::api_docs)))
        .service(page("/listings/{slug}/vote").route(web::post().to(voting::vote)))
        .service(page("/listings/{slug}/follow").route(web::post().to(community::follow)))
        .service(page("/listings/{slug}/review").route(web::post().to(community::review)));
}

/// What the layout shows about a page: its title, description, canonical address, OpenGraph
/// type, and the neighbours of a paged list.
pub(crate) struct Meta {
    pub title: String,
    pub description: String,
    /// Absolute.
    pub canonical: String,
    /// `website`, `article` or `product`.
    pub og_type: &'static str,
    pub prev: Option<String>,
    pub next: Option<String>,
    /// The page's JSON-LD, already made safe to sit inside a `script` element.
    pub json_ld: Option<String>,
    /// The page's social card (`og:image`), for listings, weeks and founders.
    pub image: Option<CardMeta>,
}

/// A page's social card: its absolute address and what it shows.
pub(crate) struct CardMeta {
    pub url: String,
    pub alt: String,
}

impl Meta {
    pub fn new(state: &WebState, path: &str, title: impl Into<String>, description: impl Into<String>) -> Self {
        Self {
            title: title.into(),
            description: description.into(),
            canonical: format!("{}{path}", state.site_url),
            og_type: "website",
            prev: None,
            next: None,
            json_ld: None,
            image: None,
        }
    }

    /// Sets the previous and next links of a paged list (`path` carries the other parameters).
    pub fn paged(mut self, state: &WebState, pager: &Pager) -> Self {
        self.prev = pager.prev.as_ref().map(|path| format!("{}{path}", state.site_url));
        self.next = pager.next.as_ref().map(|path| format!("{}{path}", state.site_url));
        if pager.page > 1 {
            self.canonical = format!("{}{}", state.site_url, pager.this);
        }
        self
    }
}

/// The previous and next pages of a list, as local paths.
pub(crate) struct Pager {
    pub page: u32,
    pub pages: u64,
    pub this: String,
    pub prev: Option<String>,
    pub next: Option<String>,
}

impl Pager {
    /// `params` are the list's other query parameters, kept on every page link.
    pub fn new(path: &str, params: &[(&str, String)], page: u32, per_page: u32, total: u64) -> Self {
        let pages = total.div_ceil(u64::from(per_page.max(1))).max(1);
        let link = |page: u32| {
            let mut pairs: Vec<(&str, String)> = params.iter().filter(|(_, value)| !value.is_empty()).cloned().collect();
            if page > 1 {
                pairs.push(("page", page.to_string()));
            }
            let query = serde_urlencoded::to_string(&pairs).unwrap_or_default();
            if query.is_empty() { path.to_owned() } else { format!("{path}?{query}") }
        };
        Self {
            page,
            pages,
            this: link(page),
            // Past the end, "previous" leads to the last page that has items.
            prev: (page > 1).then(|| link((page - 1).min(u32::try_from(pages).unwrap_or(u32::MAX)))),
            next: (u64::from(page) < pages).then(|| link(page + 1)),
        }
    }
}

/// A kept image as an `img` shows it: the copy that fills its box on a dense screen as `src`,
/// every copy in `srcset`, and the size of the box, so nothing moves as it loads.
#[derive(Clone)]
pub(crate) struct Picture {
    pub src: String,
    pub srcset: String,
    pub width: u32,
    pub height: u32,
}

impl Picture {
    /// `image` in a box `css_px` wide (its height by the image's aspect ratio).
    pub fn of(image: &kernel::ImageRef, css_px: u32) -> Self {
        Self {
            src: image.path(image.size_for(css_px)),
            srcset: image.srcset(),
            width: css_px,
            height: kernel::scaled_height(image.width(), image.height(), css_px),
        }
    }

    /// A logo in a square box `css_px` wide: the picture is fitted inside it (`object-fit`).
    pub fn logo(image: &kernel::ImageRef, css_px: u32) -> Self {
        Self { height: css_px, ..Self::of(image, css_px) }
    }
}

/// How wide a card's logo is, in CSS pixels (`design/site.md`).
pub const CARD_LOGO_PX: u32 = 48;

/// A listing as the lists show it.
#[derive(Clone)]
pub(crate) struct Card {
    pub rank: Option<u32>,
    pub slug: String,
    pub name: String,
    /// The logo we keep; the letter tile (`initial`) stands in without one.
    pub logo: Option<Picture>,
    pub initial: char,
    pub tagline: String,
    /// All-time community votes, as `get_listing` counts them.
    pub votes: u64,
    /// What the list ranks it by, when that is not the votes (`12 votes this week`).
    pub note: Option<String>,
    /// A billboard place: money bought it.
    pub paid: bool,
    /// Whether the person looking has voted for it.
    pub voted: bool,
    /// Only live listings take votes.
    pub live: bool,
}

impl Card {
    pub fn of(listing: &ListingSummary) -> Self {
        Self::listing(&listing.slug, &listing.name, listing.logo.as_ref(), listing.tagline.as_deref(), listing.votes, listing.status)
    }

    pub fn listing(
        slug: &kernel::Slug,
        name: &str,
        logo: Option<&kernel::ImageRef>,
        tagline: Option<&str>,
        votes: u64,
        status: listings::ListingStatus,
    ) -> Self {
        Self {
            rank: None,
            slug: slug.to_string(),
            name: name.to_owned(),
            logo: logo.map(|logo| Picture::logo(logo, CARD_LOGO_PX)),
            initial: name.chars().find(|c| c.is_alphanumeric()).map_or('·', |c| c.to_ascii_uppercase()),
            tagline: tagline.unwrap_or_default().to_owned(),
            votes,
            note: None,
            paid: false,
            voted: false,
            live: status == listings::ListingStatus::Live,
        }
    }

    pub fn ranked(mut self, rank: Option<u32>) -> Self {
        self.rank = rank;
        self
    }

    pub fn noted(mut self, note: Option<String>) -> Self {
        self.note = note;
        self
    }
}

/// What the upvote buttons of a page need: who is looking and where to return.
pub(crate) struct VoteButtons {
    pub signed_in: bool,
    /// The session's CSRF token (empty when signed out).
    pub csrf: String,
    /// This page, to come back to after a vote.
    pub back: String,
}

/// The upvote buttons of a page: for a signed-in person, which of the page's listings they
/// voted for (one query, after the page's operations).
pub(crate) async fn vote_buttons(state: &WebState, request: &HttpRequest, lists: &mut [&mut Vec<Card>]) -> VoteButtons {
    let session = crate::session(state, request).await;
    vote_buttons_for(state, request, session.as_ref(), lists).await
}

/// [`vote_buttons`] for a page that has read the session already.
pub(crate) async fn vote_buttons_for(
    state: &WebState,
    request: &HttpRequest,
    session: Option<&accounts::signin::Session>,
    lists: &mut [&mut Vec<Card>],
) -> VoteButtons {
    let back = match request.query_string() {
        "" => request.path().to_owned(),
        query => format!("{}?{query}", request.path()),
    };
    let Some(session) = session else {
        return VoteButtons { signed_in: false, csrf: String::new(), back };
    };
    let slugs: Vec<kernel::Slug> =
        lists.iter().flat_map(|cards| cards.iter()).filter_map(|card| kernel::Slug::parse(&card.slug).ok()).collect();
    match state.app.listings.votes.voted_among(session.user.id, &slugs).await {
        Ok(voted) => {
            for card in lists.iter_mut().flat_map(|cards| cards.iter_mut()) {
                card.voted = voted.iter().any(|slug| slug.as_str() == card.slug);
            }
        }
        // The page still shows; only the pressed state is missing.
        Err(err) => tracing::warn!(error = %err, "could not read the viewer's votes"),
    }
    VoteButtons { signed_in: true, csrf: session.csrf_token.clone(), back }
}

/// `1 vote`, `12 votes`.
pub(crate) fn plural(count: u64, one: &str, many: &str) -> String {
    format!("{count} {}", if count == 1 { one } else { many })
}

/// The caller a page runs its operations as: anonymous, counted by its address.
pub(crate) fn caller(request: &HttpRequest) -> Caller {
    let client = crate::client_of(request);
    Caller { principal: None, client: Some(client) }
}

/// Runs an operation for a page with path and query parameters given as text, exactly as the
/// REST API would. The input is read at once, so the future borrows only the state and caller.
pub(crate) fn run<'a, T: Operation>(
    op: T,
    state: &'a WebState,
    caller: &'a Caller,
    path: &[(&str, &str)],
    query: &[(&str, String)],
) -> impl Future<Output = Result<T::Output, OpError>> + use<'a, T> {
    let path = path.iter().map(|(name, value)| ((*name).to_owned(), (*value).to_owned())).collect();
    let query = query.iter().filter(|(_, value)| !value.is_empty()).map(|(name, value)| ((*name).to_owned(), value.clone())).collect();
    let raw = ops::params::raw_input(&op, path, query);
    async move { ops::run_typed(&op, &state.app, caller, raw?).await }
}

/// Runs an operation on values the page holds typed already (an id it read, a page size it
/// chose, a body it built: `ops::parse_body`), checked as the API checks them (`ops::run_input`).
pub(crate) async fn run_with<T: Operation>(
    op: T,
    state: &WebState,
    caller: &Caller,
    path: T::Path,
    query: T::Query,
    body: T::Body,
) -> Result<T::Output, OpError> {
    ops::run_input(&op, &state.app, caller, ops::Input { path, query, body }).await
}

/// The header's account link, as `base.html` writes it.
const ACCOUNT_LINK: &str = r#"<a class="account-link" href="/account">Your account</a>"#;

/// The one part of a public page that depends on who looks: without a session cookie, the
/// header offers to sign in (coming back here) instead of "Your account". The page's own
/// structs stay the viewer-free views of their operations; a stale cookie still reads "Your
/// account", whose page then asks to sign in.
fn with_account_link(request: &HttpRequest, body: String) -> String {
    if request.cookie(crate::SESSION_COOKIE).is_some() {
        if request.cookie(crate::ADMIN_HINT_COOKIE).is_some() {
            return body.replacen(ACCOUNT_LINK, &format!(r#"{ACCOUNT_LINK} <a class="account-link" href="/admin">Admin</a>"#), 1);
        }
        return body;
    }
    let back = match request.query_string() {
        "" => request.path().to_owned(),
        query => format!("{}?{query}", request.path()),
    };
    let sign_in = format!(r#"<a class="account-link" href="/signin?next={}">Sign in</a>"#, crate::percent_encode(&back));
    body.replacen(ACCOUNT_LINK, &sign_in, 1)
}

/// A rendered page, with an ETag so a browser's revalidation costs no body. Pages are never
/// shared-cached: they change with every vote, and show the viewer's own votes.
pub(crate) fn page(request: &HttpRequest, status: StatusCode, template: &impl Template) -> HttpResponse {
    match template.render() {
        Ok(body) => match kept::hand_over(request, status, with_account_link(request, body)) {
            Some(body) => respond(request, status, HTML, body),
            // The keeping middleware answers, with the page as it keeps it.
            None => HttpResponse::Ok().finish(),
        },
        Err(err) => {
            tracing::error!(error = %err, "a page could not be rendered");
            HttpResponse::InternalServerError().finish()
        }
    }
}

/// The media type of a page.
const HTML: &str = "text/html; charset=utf-8";

/// Whether the client takes gzip (`http_edge::encoding::accepts_gzip`).
fn takes_gzip(request: &HttpRequest) -> bool {
    http_edge::encoding::accepts_gzip(
        request.headers().get_all(actix_web::http::header::ACCEPT_ENCODING).filter_map(|value| value.to_str().ok()),
    )
}

/// A text answer of the site (a page, a sitemap, a feed) with its validators and headers,
/// gzip-compressed for clients that take it.
pub(crate) fn respond(request: &HttpRequest, status: StatusCode, content_type: &str, body: String) -> HttpResponse {
    let plain = Bytes::from(body);
    let tag = http_edge::encoding::content_tag(&plain);
    // Compressed only for a client that takes it, and only when it is sent.
    answer(request, status, content_type, tag, plain, |plain| http_edge::encoding::gzip_if_smaller(plain))
}

/// [`respond`] for a kept page, compressed and tagged once when it was kept.
pub(crate) fn respond_body(request: &HttpRequest, status: StatusCode, content_type: &str, body: &KeptBody) -> HttpResponse {
    let packed = body.gzip.clone();
    answer(request, status, content_type, body.tag, body.plain.clone(), move |_: &Bytes| packed)
}

/// The headers every page answer carries; a 304 when the browser's copy is current. The ETag
/// is weak: the plain and the compressed answer are the same page.
fn answer(
    request: &HttpRequest,
    status: StatusCode,
    content_type: &str,
    tag: u64,
    plain: Bytes,
    gzip: impl FnOnce(&Bytes) -> Option<Bytes>,
) -> HttpResponse {
    let etag = format!("W/\"{tag:016x}\"");
    let fresh = status == StatusCode::OK
        && request
            .headers()
            .get(IF_NONE_MATCH)
            .and_then(|value| value.to_str().ok())
            .is_some_and(|value| value.split(',').any(|tag| tag.trim().trim_start_matches("W/") == etag.trim_start_matches("W/")));
    let mut response = if fresh { HttpResponse::NotModified() } else { HttpResponse::build(status) };
    response
        .insert_header((ETAG, etag))
        .insert_header((CACHE_CONTROL, "private, no-cache"))
        .insert_header((actix_web::http::header::VARY, "Accept-Encoding, Cookie"))
        .insert_header(("X-Frame-Options", "DENY"))
        .insert_header((
            "Content-Security-Policy",
            // Frames only from the video players a listing's demo may play in, and only once the
            // visitor presses its preview (our script makes the frame then).
            "default-src 'none'; script-src 'self'; connect-src 'self'; style-src 'self'; img-src 'self' data:; frame-src https://www.youtube-nocookie.com https://player.vimeo.com https://www.loom.com; form-action 'self'; frame-ancestors 'none'; base-uri 'none'",
        ));
    if fresh {
        return response.finish();
    }
    response.content_type(content_type.to_owned());
    match takes_gzip(request).then(|| gzip(&plain)).flatten() {
        Some(packed) => response.insert_header((actix_web::http::header::CONTENT_ENCODING, "gzip")).body(packed),
        None => response.body(plain),
    }
}

/// The site's one stylesheet and one script, part of the binary.
const STYLESHEET: &str = include_str!("../../assets/site.css");
const SCRIPT: &str = include_str!("../../assets/site.js");

/// `/assets/site.css`: cached by browsers for an hour, then revalidated by its ETag. Not rate
/// limited: every page needs it, and it costs next to nothing.
async fn stylesheet(request: HttpRequest) -> HttpResponse {
    static TAG: std::sync::LazyLock<String> =
        std::sync::LazyLock::new(|| format!("\"{:016x}\"", http_edge::encoding::content_tag(STYLESHEET.as_bytes())));
    asset(&request, &TAG, "text/css; charset=utf-8", STYLESHEET)
}

/// `/assets/site.js`, as the stylesheet.
async fn script(request: HttpRequest) -> HttpResponse {
    static TAG: std::sync::LazyLock<String> =
        std::sync::LazyLock::new(|| format!("\"{:016x}\"", http_edge::encoding::content_tag(SCRIPT.as_bytes())));
    asset(&request, &TAG, "text/javascript; charset=utf-8", SCRIPT)
}

fn asset(request: &HttpRequest, tag: &str, content_type: &str, body: &'static str) -> HttpResponse {
    let fresh = request
        .headers()
        .get(IF_NONE_MATCH)
        .and_then(|value| value.to_str().ok())
        .is_some_and(|value| value.split(',').any(|candidate| candidate.trim() == tag));
    let mut response = if fresh { HttpResponse::NotModified() } else { HttpResponse::Ok() };
    response.insert_header((ETAG, tag)).insert_header((CACHE_CONTROL, "public, max-age=3600"));
    if fresh { response.finish() } else { response.content_type(content_type.to_owned()).body(body) }
}

/// Whether a request for an unknown address comes from a browser (which gets the page for
/// people) rather than an API client (which gets problem+json).
pub fn wants_html(request: &HttpRequest) -> bool {
    let path = request.path();
    if path.starts_with("/api/") || path == "/mcp" || path.starts_with("/mcp/") || path.starts_with("/oauth/") {
        return false;
    }
    request
        .headers()
        .get(actix_web::http::header::ACCEPT)
        .and_then(|value| value.to_str().ok())
        .is_some_and(|accept| accept.split(',').any(|range| range.trim().starts_with("text/html")))
}

/// What an address nothing serves answers: the page for people to a browser, problem+json to
/// an API client.
pub async fn unknown_address(state: web::Data<WebState>, request: HttpRequest) -> HttpResponse {
    if wants_html(&request) { not_found(state, request).await } else { (state.api_not_found)() }
}

/// The 404 page for people.
pub async fn not_found(state: web::Data<WebState>, request: HttpRequest) -> HttpResponse {
    crate::page_error::answer(&state, &request, &PageError::not_found(format!("There is no page at {}.", request.path())))
}

#[cfg(test)]
mod tests {
    use super::*;
    use actix_web::test::TestRequest;

    #[test]
    fn gzip_is_used_when_accepted_and_not_when_refused() {
        let with = |value: &str| takes_gzip(&TestRequest::default().insert_header(("Accept-Encoding", value)).to_http_request());
        assert!(with("gzip, deflate, br"));
        assert!(with("br;q=1.0, gzip;q=0.8"));
        assert!(!with("gzip;q=0"));
        assert!(!with("br, deflate"));
        assert!(!takes_gzip(&TestRequest::default().to_http_request()));
    }
}
