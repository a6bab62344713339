//! Social cards: the picture a link to a listing, a launch week or a founder shows on social
//! networks and in chat apps (`og:image`). A page names its card with the version of what the
//! card says (`/cards/listings/<slug>.png?v=<version>`), so a new vote count is a new address
//! that networks fetch again. The address runs the page's own operation, says the same
//! (`*_card` below, shared with the page), and answers with the card the media service keeps
//! under that name or draws now (`MediaService::card`).

use super::{Meta, caller, plural, run};
use crate::WebState;
use actix_web::http::StatusCode;
use actix_web::{HttpRequest, HttpResponse, web};
use listings::{ListingStatus, ListingSummary};
use media::SocialCard;
use ops::operations::founders::{FounderView, GetFounder};
use ops::operations::launches::{GetLaunchWeek, LaunchWeekView, Phase};
use ops::operations::listing::GetListing;
use ops::wire::ListingView;

/// A card names the version of what it says; crawlers keep one a day, then ask again.
const CARD_CACHE: &str = "public, max-age=86400";

impl Meta {
    /// Names the page's card: `path` is its address without the version (`/cards/...png`).
    pub fn with_card(mut self, state: &WebState, path: &str, card: &SocialCard) -> Self {
        let url = format!("{}{path}?v={}", state.site_url, card.version());
        self.image = Some(super::CardMeta { url, alt: card.described() });
        self
    }
}

pub(crate) fn listing_card(state: &WebState, listing: &ListingView) -> SocialCard {
    let mut facts = vec![format!("▲ {}", plural(listing.votes, "vote", "votes"))];
    match (listing.status, listing.launch_week) {
        (ListingStatus::Live, Some(week)) => facts.push(format!("Launched the week of {week}")),
        (ListingStatus::Scheduled, Some(week)) => facts.push(format!("Launches the week of {week}")),
        _ => {}
    }
    if let (Some(average), count @ 1..) = (listing.community_rating.average, listing.community_rating.count) {
        facts.push(format!("★ {average:.1} from {}", plural(count, "review", "reviews")));
    }
    SocialCard {
        site_name: state.app.site.name.clone(),
        kind: "Product".into(),
        title: listing.name.clone(),
        subtitle: listing.tagline.clone(),
        logos: listing.logo.iter().filter_map(|logo| kernel::ImageRef::parse(&logo.image).ok()).collect(),
        facts,
    }
}

pub(crate) fn week_card(state: &WebState, view: &LaunchWeekView) -> SocialCard {
    let top: Vec<&ListingSummary> = view.items.iter().take(SocialCard::MAX_LOGOS).map(|launch| &launch.listing).collect();
    let named: Vec<String> = top.iter().enumerate().map(|(i, listing)| format!("{}. {}", i + 1, listing.name)).collect();
    let votes: u64 = view.items.iter().filter_map(|launch| launch.votes_in_week).sum();
    let phase = match view.phase {
        Phase::Past => "Ranked by the week's votes",
        Phase::Current => "Voting now",
        Phase::Upcoming => "Coming up",
    };
    SocialCard {
        site_name: state.app.site.name.clone(),
        kind: "Launch week".into(),
        title: format!("Launches of the week of {}", view.week),
        subtitle: (!named.is_empty()).then(|| named.join("  ·  ")),
        logos: top.iter().filter_map(|listing| listing.logo).collect(),
        facts: vec![plural(view.items.len() as u64, "launch", "launches"), format!("▲ {}", plural(votes, "vote", "votes")), phase.into()],
    }
}

pub(crate) fn founder_card(state: &WebState, founder: &FounderView) -> SocialCard {
    let products: Vec<&str> = founder.companies.iter().map(|company| company.name.as_str()).collect();
    let mut facts = Vec::new();
    if !products.is_empty() {
        facts.push(format!("Founder of {}", products.join(", ")));
    }
    let votes: u64 = founder.companies.iter().map(|company| company.votes).sum();
    if votes > 0 {
        facts.push(format!("▲ {}", plural(votes, "vote", "votes")));
    }
    SocialCard {
        site_name: state.app.site.name.clone(),
        kind: "Founder".into(),
        title: founder.name.clone(),
        subtitle: founder.title.clone().or_else(|| founder.bio.clone()),
        // Their own picture when an owner set one, else their products' logos.
        logos: match founder.avatar.as_ref().and_then(|avatar| kernel::ImageRef::parse(&avatar.image).ok()) {
            Some(avatar) => vec![avatar],
            None => founder.companies.iter().filter_map(|company| company.logo).collect(),
        },
        facts,
    }
}

/// `/cards/listings/<slug>.png`
pub async fn listing(state: web::Data<WebState>, request: HttpRequest, file: web::Path<String>) -> HttpResponse {
    let Some(slug) = file.strip_suffix(".png") else { return not_found() };
    match run(GetListing, &state, &caller(&request), &[("slug", slug)], &[]).await {
        Ok(listing) => send(&state, &request, listing_card(&state, &listing)).await,
        Err(_) => not_found(),
    }
}

/// `/cards/weeks/<week>.png`
pub async fn week(state: web::Data<WebState>, request: HttpRequest, file: web::Path<String>) -> HttpResponse {
    let Some(week) = file.strip_suffix(".png") else { return not_found() };
    match run(GetLaunchWeek, &state, &caller(&request), &[("week", week)], &[]).await {
        Ok(view) => send(&state, &request, week_card(&state, &view)).await,
        Err(_) => not_found(),
    }
}

/// `/cards/founders/<slug>.png`
pub async fn founder(state: web::Data<WebState>, request: HttpRequest, file: web::Path<String>) -> HttpResponse {
    let Some(slug) = file.strip_suffix(".png") else { return not_found() };
    match run(GetFounder, &state, &caller(&request), &[("slug", slug)], &[]).await {
        Ok(founder) => send(&state, &request, founder_card(&state, &founder)).await,
        Err(_) => not_found(),
    }
}

async fn send(state: &WebState, request: &HttpRequest, card: SocialCard) -> HttpResponse {
    let name = card.image().object_name(kernel::ImageSize::Original);
    super::media::answer(request, state.app.media.card(card).await.map(Some), &name, CARD_CACHE)
}

fn not_found() -> HttpResponse {
    HttpResponse::build(StatusCode::NOT_FOUND).content_type("text/plain; charset=utf-8").body("There is no card at this address.\n")
}
