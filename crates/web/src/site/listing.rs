//! A listing's page: the full profile `get_listing` returns, its badges, its alternatives, and
//! JSON-LD for search engines. What only its owners need (the badges' embed code, what the
//! website did not state, where its launch stands) is shown to its owners alone.

use super::showcase::{Person, Shot, Video};
use super::{Card, Meta, Picture, VoteButtons, caller, page, run, showcase, vote_buttons_for};
use crate::PageError;
use crate::WebState;
use actix_web::http::StatusCode;
use actix_web::{HttpRequest, HttpResponse, web};
use askama::Template;
use ops::operations::badges::{BadgeView, GetBadges};
use ops::operations::compare::GetAlternatives;
use ops::operations::listing::GetListing;
use ops::wire::ListingView;
use serde_json::json;

#[derive(Template)]
#[template(path = "site/listing.html")]
struct ListingPage<'a> {
    site_name: &'a str,
    meta: Meta,
    listing: ListingView,
    /// The logo we keep; the letter tile (`initial`) stands in without one.
    logo: Option<Picture>,
    initial: char,
    /// The gallery, where the media section is unlocked.
    gallery: Vec<Shot>,
    /// The demo video, behind its preview.
    video: Option<Video>,
    /// The founders with their pictures.
    founders: Vec<Person<FounderLine>>,
    status: &'static str,
    /// Whether the person looking owns the listing.
    owns: bool,
    /// Where the company is based, in words ("Porto, Portugal").
    based_in: Option<String>,
    badges: Vec<BadgeView>,
    /// Links that share the page on other sites: plain links, so nothing loads from them until
    /// the visitor follows one.
    share: Vec<(&'static str, String)>,
    alternatives: Vec<Card>,
    /// The rating as text (`4.50 out of 5 from 12 reviews`), `None` without genuine reviews.
    rating: Option<String>,
    /// The Domain Rating's trend in words.
    domain_trend: Option<String>,
    /// What the company's site did not say, in words (shown to owners).
    not_stated: Vec<&'static str>,
    /// Only live listings take votes.
    live: bool,
    /// Whether the person looking has voted for it.
    voted: bool,
    vote: VoteButtons,
    /// Whether the person looking follows it.
    following: bool,
    /// Whether the person looking has a confirmed e-mail address (their review counts).
    confirmed: bool,
    reviews: Vec<ReviewRow>,
    /// How many visible reviews there are (the page shows the newest).
    reviews_total: u64,
    /// The person's own review, when they wrote one.
    mine: Option<ReviewRow>,
    draft: ReviewDraft,
}

/// A founder as the listing page names them.
pub(crate) struct FounderLine {
    slug: String,
    name: String,
    title: Option<String>,
}

/// How wide a founder's picture is on a listing page, in CSS pixels.
const FOUNDER_AVATAR_PX: u32 = 28;

/// A review as the page lists it.
pub(crate) struct ReviewRow {
    author: String,
    rating: u8,
    body: String,
    /// `YYYY-MM-DD`.
    written: String,
    edited: bool,
    genuine: bool,
    hidden: bool,
}

impl ReviewRow {
    fn of(review: &listings::Review) -> Self {
        Self {
            author: review.author.clone(),
            rating: review.rating,
            body: review.body.clone(),
            written: review.written_at.date().to_string(),
            edited: review.edited_at.is_some(),
            genuine: review.genuine,
            hidden: review.hidden,
        }
    }
}

/// What the review form holds: the person's saved review, or what they sent with what was
/// wrong with it.
#[derive(Default)]
pub(crate) struct ReviewDraft {
    pub rating: String,
    pub body: String,
    pub rating_error: Option<String>,
    pub body_error: Option<String>,
}

impl ReviewDraft {
    /// The five choices, with whether each is the one chosen.
    fn stars(&self) -> Vec<(u8, bool)> {
        (1..=5).map(|stars: u8| (stars, self.rating == stars.to_string())).collect()
    }
}

impl ListingPage<'_> {
    /// The social profiles with a name people know.
    fn socials(&self) -> Vec<(&str, &str)> {
        self.listing.socials.iter().map(|(platform, url)| (kernel::SocialKey::label_of(platform), url.as_str())).collect()
    }
}

/// Where the page can be shared: X's and LinkedIn's own share pages, and an e-mail.
fn share_links(listing: &ListingView) -> Vec<(&'static str, String)> {
    let page = crate::percent_encode(&listing.page_url);
    let text = match &listing.tagline {
        Some(tagline) => format!("{}: {tagline}", listing.name),
        None => listing.name.clone(),
    };
    // A mail program reads `+` as itself, not as a space.
    let mail = |value: &str| crate::percent_encode(value).replace('+', "%20");
    vec![
        ("Share on X", format!("https://x.com/intent/post?text={}&url={page}", crate::percent_encode(&text))),
        ("Share on LinkedIn", format!("https://www.linkedin.com/sharing/share-offsite/?url={page}")),
        ("Share by e-mail", format!("mailto:?subject={}&body={}", mail(&text), mail(&listing.page_url))),
    ]
}

/// Where the listing's company is, in words: the city and the country's name.
fn based_in(listing: &ListingView) -> Option<String> {
    let country = listing.country.as_deref()?;
    let name = kernel::CountryCode::parse(country).ok().and_then(|code| code.name()).unwrap_or(country);
    Some(match &listing.city {
        Some(city) => format!("{city}, {name}"),
        None => name.to_owned(),
    })
}

/// Where the listing stands, in words for the person looking: only its owners hear about the
/// badge it waits for.
fn status_words(status: listings::ListingStatus, owns: bool) -> &'static str {
    match status {
        listings::ListingStatus::Live => "Live",
        listings::ListingStatus::Scheduled => "Scheduled to launch",
        listings::ListingStatus::AwaitingBadge if owns => "Waiting for the Launchdir badge on your homepage",
        listings::ListingStatus::AwaitingBadge => "Launching soon",
        listings::ListingStatus::Draft => "Draft",
        listings::ListingStatus::Archived => "Archived",
    }
}

/// JSON inside a `script` element: `<` is written as `\u003c`, so no text of the listing can
/// close the element.
pub(crate) fn script_json(value: &serde_json::Value) -> String {
    value.to_string().replace('<', "\\u003c").replace('>', "\\u003e").replace('&', "\\u0026")
}

fn json_ld(listing: &ListingView) -> String {
    let mut data = json!({
        "@context": "https://schema.org",
        "@type": "SoftwareApplication",
        "name": listing.name,
        "url": listing.page_url,
        "sameAs": listing.url,
    });
    if let Some(description) = listing.description.as_ref().or(listing.tagline.as_ref()) {
        data["description"] = json!(description);
    }
    if let Some(category) = listing.categories.iter().find(|c| c.primary) {
        data["applicationCategory"] = json!(category.name);
    }
    if let Some(year) = listing.founded_year {
        data["datePublished"] = json!(year.to_string());
    }
    if !listing.founders.is_empty() {
        data["author"] = listing.founders.iter().map(|f| json!({"@type": "Person", "name": f.name, "url": f.url})).collect();
    }
    // Only genuine reviews make a rating (search engines penalise self-serving ones).
    if let (Some(average), count @ 1..) = (listing.community_rating.average, listing.community_rating.count) {
        data["aggregateRating"] =
            json!({"@type": "AggregateRating", "ratingValue": average, "reviewCount": count, "bestRating": 5, "worstRating": 1});
    }
    script_json(&data)
}

pub async fn show(state: web::Data<WebState>, request: HttpRequest, path: web::Path<String>) -> Result<HttpResponse, PageError> {
    render(&state, &request, &path, None, StatusCode::OK).await
}

/// The listing's page; `draft` is a review form sent back with what was wrong with it.
pub(crate) async fn render(
    state: &WebState,
    request: &HttpRequest,
    slug: &str,
    draft: Option<ReviewDraft>,
    http_status: StatusCode,
) -> Result<HttpResponse, PageError> {
    let who = caller(request);
    let session = crate::session(state, request).await;
    let slug = [("slug", slug)];
    let (listing, badges, alternatives) = tokio::join!(
        run(GetListing, state, &who, &slug, &[]),
        run(GetBadges, state, &who, &slug, &[]),
        run(GetAlternatives, state, &who, &slug, &[]),
    );
    let (listing, badges, alternatives) = match (listing, badges, alternatives) {
        (Ok(listing), Ok(badges), Ok(alternatives)) => (listing, badges, alternatives),
        (Err(error), ..) | (_, Err(error), _) | (.., Err(error)) => return Err(PageError::from(error)),
    };
    let viewer = session.as_ref().map(|session| session.user.id);
    let reviews = match state.app.listings.reviews.of_listing(&listing.slug, viewer).await {
        Ok(reviews) => reviews,
        Err(err) => {
            // The page still shows; only the reviews are missing, so it is not kept.
            tracing::warn!(error = %err, "could not read a listing's reviews");
            super::kept::dont_keep(request);
            listings::ListingReviews::default()
        }
    };
    let mine = reviews.mine.as_ref().map(ReviewRow::of);
    let draft = draft.unwrap_or_else(|| match &reviews.mine {
        Some(review) => ReviewDraft { rating: review.rating.to_string(), body: review.body.clone(), ..Default::default() },
        None => ReviewDraft::default(),
    });
    let description = listing
        .short_description
        .clone()
        .or_else(|| listing.tagline.clone())
        .unwrap_or_else(|| format!("{} on {}", listing.name, state.app.site.name));
    let title = match &listing.tagline {
        Some(tagline) => format!("{}: {tagline}", listing.name),
        None => listing.name.clone(),
    };
    let card = super::cards::listing_card(state, &listing);
    let mut meta = Meta::new(state, &format!("/listings/{}", listing.slug), title, description).with_card(
        state,
        &format!("/cards/listings/{}.png", listing.slug),
        &card,
    );
    meta.og_type = "product";
    meta.json_ld = Some(json_ld(&listing));
    let rating = listing.community_rating.average.map(|average| {
        let count = listing.community_rating.count;
        format!("{average:.2} out of 5 from {}", super::plural(count, "review", "reviews"))
    });
    let domain_trend = listing.domain_rating.as_ref().map(|dr| match (dr.trend, dr.previous) {
        ("up", Some(before)) => format!("up from {before}"),
        ("down", Some(before)) => format!("down from {before}"),
        ("flat", _) => "unchanged".to_owned(),
        _ => "first reading".to_owned(),
    });
    let owns = reviews.viewer_owns;
    let share = share_links(&listing);
    let mut alternatives: Vec<Card> =
        alternatives.items.iter().map(|alt| Card::of(&alt.listing).noted(alt.approved.then(|| "named by the maker".to_owned()))).collect();
    // The listing itself rides along with its alternatives to learn whether it was voted for.
    let logo = showcase::logo(listing.logo.as_ref());
    let mut this = vec![Card::listing(&listing.slug, &listing.name, None, listing.tagline.as_deref(), listing.votes, listing.status)];
    let mut vote = vote_buttons_for(state, request, session.as_ref(), &mut [&mut this, &mut alternatives]).await;
    // A review sent back with its problems is answered at `/listings/<slug>/review`: the page's
    // other forms return to the listing itself.
    vote.back = format!("/listings/{}", listing.slug);
    let listing_page = ListingPage {
        following: reviews.following,
        confirmed: session.as_ref().is_some_and(|session| session.user.email_confirmed_at.is_some()),
        reviews: reviews.shown.iter().map(ReviewRow::of).collect(),
        reviews_total: reviews.total,
        mine,
        draft,
        live: this[0].live,
        voted: this[0].voted,
        vote,
        site_name: &state.app.site.name,
        meta,
        initial: this[0].initial,
        logo,
        gallery: showcase::gallery(listing.media.as_ref()),
        video: showcase::video(listing.demo_video_url.as_deref()),
        founders: listing
            .founders
            .iter()
            .map(|founder| {
                let line = FounderLine { slug: founder.slug.to_string(), name: founder.name.clone(), title: founder.title.clone() };
                Person::new(line, &founder.name, founder.avatar.as_ref(), FOUNDER_AVATAR_PX)
            })
            .collect(),
        status: status_words(listing.status, owns),
        owns,
        based_in: based_in(&listing),
        not_stated: listing
            .not_found_on_website
            .iter()
            .filter_map(|field| drafts::FieldName::parse(field))
            .map(drafts::FieldName::label)
            .collect(),
        listing,
        badges: badges.items,
        share,
        alternatives,
        rating,
        domain_trend,
    };
    Ok(page(request, http_status, &listing_page))
}
