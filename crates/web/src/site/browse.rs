//! Browsing the directory: the home page, the launch feeds and weeks, the categories and search.

use super::{Card, Meta, Pager, VoteButtons, caller, page, plural, run, run_with, vote_buttons};
use crate::PageError;
use crate::WebState;
use actix_web::http::StatusCode;
use actix_web::{HttpRequest, HttpResponse, web};
use askama::Template;
use kernel::FieldError;
use listings::CategoryNode;
use ops::NoInput;
use ops::operations::categories::{GetCategory, ListCategories};
use ops::operations::feeds::{FeedMetricView, FeedView, LaunchesQuery, ListLaunches, SectionParam};
use ops::operations::launches::{GetLaunchWeek, Phase};
use ops::operations::rankings::{AwardsQuery, ListAwards};
use ops::operations::search::SearchListings;

/// The eight sections of the launches feed: the operation's value, its name in addresses and
/// the heading people read.
pub(crate) const SECTIONS: [(SectionParam, &str, &str); 8] = [
    (SectionParam::Today, "today", "Launching today"),
    (SectionParam::ThisWeek, "this-week", "This week"),
    (SectionParam::Trending, "trending", "Trending"),
    (SectionParam::MostVoted, "most-voted", "Most voted"),
    (SectionParam::Recent, "recent", "Recently launched"),
    (SectionParam::MostViewed, "most-viewed", "Most viewed"),
    (SectionParam::MostFollowed, "most-followed", "Most followed"),
    (SectionParam::Upcoming, "upcoming", "Upcoming"),
];

/// The first `per_page` launches of a section, as the page asks for them (`list_launches`).
fn first_of(section: SectionParam, per_page: u32) -> LaunchesQuery {
    LaunchesQuery { section, page: 1, per_page }
}

/// The query parameters of a page the operation knows, as sent; anything else (a campaign tag)
/// is left out rather than refused, since people share links with such tails.
pub(crate) fn params(request: &HttpRequest, known: &[&'static str]) -> Vec<(&'static str, String)> {
    let pairs: Vec<(String, String)> = serde_urlencoded::from_str(request.query_string()).unwrap_or_default();
    // Only a query of known names, each once, is its page's own address worth keeping.
    let plain = pairs.iter().enumerate().all(|(i, (key, _))| known.contains(&key.as_str()) && pairs[..i].iter().all(|(k, _)| k != key));
    super::kept::query_read(request, plain);
    known.iter().filter_map(|name| pairs.iter().rev().find(|(key, _)| key == name).map(|(_, value)| (*name, value.clone()))).collect()
}

/// The parameters a list's page links keep: all but `page`.
pub(crate) fn all_but_page(params: &[(&'static str, String)]) -> Vec<(&'static str, String)> {
    params.iter().filter(|(name, _)| *name != "page").cloned().collect()
}

pub(crate) fn param<'a>(params: &'a [(&str, String)], name: &str) -> &'a str {
    params.iter().find(|(key, _)| *key == name).map_or("", |(_, value)| value.as_str())
}

/// What a feed's card says beside its vote button, `votes` being the count the button shows.
fn feed_note(metric: &FeedMetricView, votes: u64) -> Option<String> {
    match metric {
        FeedMetricView::Votes { .. } => None,
        // A listing of this week has all its votes this week: the button says it once (and a
        // second copy went stale when the button counted a vote in place).
        FeedMetricView::VotesInWeek { value } if *value == votes => None,
        FeedMetricView::VotesInWeek { value } => Some(format!("{} this week", plural(*value, "vote", "votes"))),
        FeedMetricView::TrendingScore { value } => Some(format!("trending score {value:.1}")),
        FeedMetricView::Views { value } => Some(plural(*value, "view", "views")),
        FeedMetricView::Follows { value } => Some(plural(*value, "follower", "followers")),
        FeedMetricView::LaunchedAt { value } => Some(format!("launched {}", crate::dates::long_date_of(value))),
        FeedMetricView::LaunchWeek { value } => Some(format!("launches the week of {}", crate::dates::long_day(value.monday()))),
    }
}

fn feed_cards(feed: FeedView) -> Vec<Card> {
    feed.items
        .into_iter()
        .map(|item| Card::of(&item.listing).ranked(Some(item.rank)).noted(feed_note(&item.metric, item.listing.votes)))
        .collect()
}

/// One section of a page: a heading, the cards, and where the rest is.
pub(crate) struct Section {
    pub title: &'static str,
    pub more: String,
    pub cards: Vec<Card>,
    pub empty: &'static str,
}

#[derive(Template)]
#[template(path = "site/home.html")]
struct HomePage<'a> {
    site_name: &'a str,
    meta: Meta,
    this_week: Section,
    trending: Section,
    upcoming: Section,
    winners: Vec<Card>,
    vote: VoteButtons,
}

pub async fn home(state: web::Data<WebState>, request: HttpRequest) -> Result<HttpResponse, PageError> {
    let who = caller(&request);
    let section =
        |section: SectionParam, per_page: u32| run_with(ListLaunches, &state, &who, NoInput {}, first_of(section, per_page), NoInput {});
    let (this_week, trending, upcoming, winners) = tokio::join!(
        section(SectionParam::ThisWeek, 10),
        section(SectionParam::Trending, 5),
        section(SectionParam::Upcoming, 5),
        run_with(ListAwards, &state, &who, NoInput {}, AwardsQuery { listing: None, page: 1, per_page: 3 }, NoInput {}),
    );
    let (this_week, trending, upcoming, winners) = match (this_week, trending, upcoming, winners) {
        (Ok(a), Ok(b), Ok(c), Ok(d)) => (a, b, c, d),
        (Err(error), ..) | (_, Err(error), ..) | (_, _, Err(error), _) | (.., Err(error)) => return Err(PageError::from(error)),
    };
    let name = &state.app.site.name;
    let meta = Meta::new(
        &state,
        "/",
        "This week's product launches",
        "New products launching this week, ranked by the community's votes, with what is trending, what launches next and the latest Launch of the Week winners.",
    );
    let section = |title, more: &str, feed, empty| Section { title, more: more.to_owned(), cards: feed_cards(feed), empty };
    let mut home = HomePage {
        site_name: name,
        meta,
        vote: VoteButtons { signed_in: false, csrf: String::new(), back: String::new() },
        this_week: section("This week's launches", "/launches?section=this-week", this_week, "Nothing has launched this week yet."),
        trending: section("Trending", "/launches?section=trending", trending, "Nothing is trending right now."),
        upcoming: section("Upcoming", "/launches?section=upcoming", upcoming, "No launches are scheduled yet."),
        winners: winners
            .items
            .into_iter()
            .map(|award| Card::of(&award.listing).ranked(Some(award.rank)).noted(Some(format!("{}, week of {}", award.title, award.week))))
            .collect(),
    };
    home.vote = vote_buttons(
        &state,
        &request,
        &mut [&mut home.this_week.cards, &mut home.trending.cards, &mut home.upcoming.cards, &mut home.winners],
    )
    .await;
    Ok(page(&request, StatusCode::OK, &home))
}

#[derive(Template)]
#[template(path = "site/launches.html")]
struct LaunchesPage<'a> {
    site_name: &'a str,
    meta: Meta,
    /// Every section's name and heading, for the section links.
    sections: &'static [(SectionParam, &'static str, &'static str)],
    /// The section shown on its own, if one was chosen.
    current: &'static str,
    shown: Vec<Section>,
    pager: Option<Pager>,
    vote: VoteButtons,
}

pub async fn launches(state: web::Data<WebState>, request: HttpRequest) -> Result<HttpResponse, PageError> {
    let who = caller(&request);
    let query = params(&request, &["section", "page", "per_page"]);
    let chosen = param(&query, "section");
    if chosen.is_empty() {
        // The overview: every section's first five, in one round.
        let feeds = futures_util::future::join_all(
            SECTIONS.iter().map(|(section, _, _)| run_with(ListLaunches, &state, &who, NoInput {}, first_of(*section, 5), NoInput {})),
        )
        .await;
        let mut shown = Vec::new();
        for ((_, name, title), feed) in SECTIONS.iter().zip(feeds) {
            match feed {
                Ok(feed) => shown.push(Section {
                    title,
                    more: format!("/launches?section={name}"),
                    cards: feed_cards(feed),
                    empty: "Nothing here yet.",
                }),
                Err(error) => return Err(PageError::from(error)),
            }
        }
        let meta = Meta::new(
            &state,
            "/launches",
            "Launches",
            "Every launch feed: today, this week, trending, most voted, recent, most viewed, most followed and upcoming.",
        );
        let mut lists: Vec<&mut Vec<Card>> = shown.iter_mut().map(|section| &mut section.cards).collect();
        let vote = vote_buttons(&state, &request, &mut lists).await;
        let launches = LaunchesPage { site_name: &state.app.site.name, meta, sections: &SECTIONS, current: "", shown, pager: None, vote };
        return Ok(page(&request, StatusCode::OK, &launches));
    }
    let Some((_, name, title)) = SECTIONS.iter().find(|(_, name, _)| *name == chosen) else {
        let known: Vec<&str> = SECTIONS.iter().map(|(_, name, _)| *name).collect();
        return Err(PageError::from(ops::OpError::Validation(vec![FieldError::new(
            "section",
            format!("must be one of {}", known.join(", ")),
        )])));
    };
    let feed = run(ListLaunches, &state, &who, &[], &query).await?;
    let pager = Pager::new(
        "/launches",
        &[("section", (*name).to_owned()), ("per_page", param(&query, "per_page").to_owned())],
        feed.page,
        feed.per_page,
        feed.total,
    );
    let meta = Meta::new(
        &state,
        &format!("/launches?section={name}"),
        format!("{title}: launches"),
        format!("Launches: {}.", title.to_lowercase()),
    )
    .paged(&state, &pager);
    let mut shown = vec![Section { title, more: String::new(), cards: feed_cards(feed), empty: "Nothing here yet." }];
    let vote = vote_buttons(&state, &request, &mut [&mut shown[0].cards]).await;
    let launches =
        LaunchesPage { site_name: &state.app.site.name, meta, sections: &SECTIONS, current: name, shown, pager: Some(pager), vote };
    Ok(page(&request, StatusCode::OK, &launches))
}

#[derive(Template)]
#[template(path = "site/week.html")]
struct WeekPage<'a> {
    site_name: &'a str,
    meta: Meta,
    week: String,
    phase: &'static str,
    timezone: String,
    cards: Vec<Card>,
    previous: Option<String>,
    next: Option<String>,
    vote: VoteButtons,
}

pub async fn week(state: web::Data<WebState>, request: HttpRequest, path: web::Path<String>) -> Result<HttpResponse, PageError> {
    let view = run(GetLaunchWeek, &state, &caller(&request), &[("week", path.as_str())], &[]).await?;
    let phase = match view.phase {
        Phase::Past => "past",
        Phase::Current => "current",
        Phase::Upcoming => "upcoming",
    };
    let week = view.week.to_string();
    let mut meta = Meta::new(
        &state,
        &format!("/launches/weeks/{week}"),
        format!("Launches of the week of {week}"),
        format!("The products launching in the week starting Monday {week}, ranked by the votes they received that week."),
    )
    .with_card(&state, &format!("/cards/weeks/{week}.png"), &super::cards::week_card(&state, &view));
    meta.prev = view.previous_week.map(|w| format!("{}/launches/weeks/{w}", state.site_url));
    meta.next = view.next_week.map(|w| format!("{}/launches/weeks/{w}", state.site_url));
    let mut cards = view
        .items
        .iter()
        .map(|item| {
            Card::of(&item.listing)
                .ranked(item.rank)
                .noted(item.votes_in_week.map(|votes| format!("{} this week", plural(votes, "vote", "votes"))))
        })
        .collect();
    let vote = vote_buttons(&state, &request, &mut [&mut cards]).await;
    let week_page = WeekPage {
        site_name: &state.app.site.name,
        meta,
        week,
        phase,
        timezone: view.launch_timezone,
        cards,
        previous: view.previous_week.map(|w| w.to_string()),
        next: view.next_week.map(|w| w.to_string()),
        vote,
    };
    Ok(page(&request, StatusCode::OK, &week_page))
}

#[derive(Template)]
#[template(path = "site/categories.html")]
struct CategoriesPage<'a> {
    site_name: &'a str,
    meta: Meta,
    tree: Vec<CategoryNode>,
}

pub async fn categories(state: web::Data<WebState>, request: HttpRequest) -> Result<HttpResponse, PageError> {
    let tree = match run(ListCategories, &state, &caller(&request), &[], &[]).await {
        Ok(tree) => tree.items,
        Err(error) => return Err(PageError::from(error)),
    };
    let meta = Meta::new(
        &state,
        "/categories",
        "Categories",
        "Every category of the directory with its subcategories and how many live products each has.",
    );
    Ok(page(&request, StatusCode::OK, &CategoriesPage { site_name: &state.app.site.name, meta, tree }))
}

#[derive(Template)]
#[template(path = "site/category.html")]
struct CategoryPage<'a> {
    site_name: &'a str,
    meta: Meta,
    detail: ops::operations::categories::CategoryDetail,
    cards: Vec<Card>,
    pager: Pager,
    vote: VoteButtons,
}

pub async fn category(state: web::Data<WebState>, request: HttpRequest, path: web::Path<String>) -> Result<HttpResponse, PageError> {
    let query = params(&request, &["page", "per_page"]);
    let mut detail = run(GetCategory, &state, &caller(&request), &[("slug", path.as_str())], &query).await?;
    let base = format!("/categories/{}", detail.category.slug);
    let start = (detail.page.saturating_sub(1)) * detail.per_page;
    let mut cards = std::mem::take(&mut detail.items)
        .iter()
        .enumerate()
        .map(|(position, listing)| Card::of(listing).ranked(Some(start + position as u32 + 1)))
        .collect();
    let pager = Pager::new(&base, &[("per_page", param(&query, "per_page").to_owned())], detail.page, detail.per_page, detail.total);
    let description = if detail.category.description.is_empty() {
        format!("The best {} products, ranked by community votes.", detail.category.name)
    } else {
        detail.category.description.clone()
    };
    let meta = Meta::new(&state, &base, format!("{}: products", detail.category.name), description).paged(&state, &pager);
    let vote = vote_buttons(&state, &request, &mut [&mut cards]).await;
    Ok(page(&request, StatusCode::OK, &CategoryPage { site_name: &state.app.site.name, meta, detail, cards, pager, vote }))
}

/// A choice in a select list.
pub(crate) struct Choice {
    pub value: String,
    pub label: String,
    pub selected: bool,
}

#[derive(Template)]
#[template(path = "site/search.html")]
struct SearchPage<'a> {
    site_name: &'a str,
    meta: Meta,
    q: String,
    categories: Vec<Choice>,
    sorts: Vec<Choice>,
    statuses: Vec<Choice>,
    stage: String,
    country: String,
    pricing_model: String,
    domain: String,
    /// Errors by field, shown beside the field they concern.
    errors: Vec<FieldError>,
    searched: bool,
    total: u64,
    cards: Vec<Card>,
    pager: Option<Pager>,
    vote: VoteButtons,
    /// The words with a misspelt one corrected, and the search of them (the filters kept).
    did_you_mean: Option<(String, String)>,
}

impl SearchPage<'_> {
    fn error_of(&self, field: &str) -> Option<&str> {
        self.errors.iter().find(|error| error.field == field).map(|error| error.message.as_str())
    }

    /// Errors about fields the form does not show (a bad page number in a shared link).
    fn other_errors(&self) -> Vec<&FieldError> {
        const SHOWN: [&str; 8] = ["q", "category", "stage", "country", "pricing_model", "domain", "sort", "status"];
        self.errors.iter().filter(|error| !SHOWN.contains(&error.field.as_str())).collect()
    }
}

fn flatten(nodes: &[CategoryNode], depth: usize, chosen: &str, out: &mut Vec<Choice>) {
    for node in nodes {
        let label = format!("{}{}", "\u{2014} ".repeat(depth), node.name);
        out.push(Choice { value: node.slug.to_string(), label, selected: node.slug.as_str() == chosen });
        flatten(&node.subcategories, depth + 1, chosen, out);
    }
}

const FILTERS: [&str; 10] = ["q", "category", "stage", "country", "pricing_model", "domain", "status", "sort", "page", "per_page"];

pub async fn search(state: web::Data<WebState>, request: HttpRequest) -> Result<HttpResponse, PageError> {
    let who = caller(&request);
    let query = params(&request, &FILTERS);
    let searched = query.iter().any(|(_, value)| !value.is_empty());
    let (results, tree) = tokio::join!(
        async { if searched { Some(run(SearchListings, &state, &who, &[], &query).await) } else { None } },
        run(ListCategories, &state, &who, &[], &[]),
    );
    let tree = match tree {
        Ok(tree) => tree.items,
        Err(error) => return Err(PageError::from(error)),
    };
    let (status, errors, results) = match results {
        None => (StatusCode::OK, Vec::new(), None),
        Some(Ok(results)) => (StatusCode::OK, Vec::new(), Some(results)),
        Some(Err(ops::OpError::Validation(errors))) => (StatusCode::BAD_REQUEST, errors, None),
        Some(Err(error)) => return Err(PageError::from(error)),
    };
    let chosen = |name| param(&query, name).to_owned();
    let mut categories = vec![Choice { value: String::new(), label: "Any category".into(), selected: chosen("category").is_empty() }];
    flatten(&tree, 0, param(&query, "category"), &mut categories);
    let options = |pairs: &[(&str, &str)], current: &str| -> Vec<Choice> {
        pairs.iter().map(|(value, label)| Choice { value: (*value).into(), label: (*label).into(), selected: *value == current }).collect()
    };
    let sorts = options(
        &[
            ("relevance", "Best match"),
            ("votes", "Most votes"),
            ("trending", "Trending"),
            ("newest", "Newest"),
            ("most_viewed", "Most viewed"),
            ("most_followed", "Most followed"),
        ],
        param(&query, "sort"),
    );
    let statuses = options(&[("live", "Live"), ("upcoming", "Upcoming")], param(&query, "status"));
    let q = chosen("q");
    let title = if q.is_empty() { "Search".to_owned() } else { format!("Search: {q}") };
    let mut meta = Meta::new(
        &state,
        "/search",
        title,
        "Search the directory by name, tagline, description, keyword or category, with filters for category, stage, country and pricing.",
    );
    // The corrected words, linked to their search with the same filters.
    let did_you_mean = results.as_ref().and_then(|results| results.did_you_mean.clone()).map(|words| {
        let pairs: Vec<(&str, String)> =
            all_but_page(&query).into_iter().map(|(name, value)| (name, if name == "q" { words.clone() } else { value })).collect();
        (words, format!("/search?{}", serde_urlencoded::to_string(pairs).unwrap_or_default()))
    });
    let (total, mut cards, pager) = match results {
        Some(results) => {
            let pager = Pager::new("/search", &all_but_page(&query), results.page, results.per_page, results.total);
            meta = meta.paged(&state, &pager);
            meta.canonical = format!("{}{}", state.site_url, pager.this);
            let start = (results.page.saturating_sub(1)) * results.per_page;
            let cards = results.items.iter().enumerate().map(|(i, listing)| Card::of(listing).ranked(Some(start + i as u32 + 1))).collect();
            (results.total, cards, Some(pager))
        }
        None => (0, Vec::new(), None),
    };
    let vote = vote_buttons(&state, &request, &mut [&mut cards]).await;
    let search_page = SearchPage {
        vote,
        site_name: &state.app.site.name,
        meta,
        q,
        categories,
        sorts,
        statuses,
        stage: chosen("stage"),
        country: chosen("country"),
        pricing_model: chosen("pricing_model"),
        domain: chosen("domain"),
        errors,
        searched,
        total,
        cards,
        pager,
        did_you_mean,
    };
    Ok(page(&request, status, &search_page))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_card_says_its_votes_once() {
        let this_week = FeedMetricView::VotesInWeek { value: 393 };
        assert_eq!(feed_note(&this_week, 393), None, "all its votes are this week's: the button says it");
        assert_eq!(feed_note(&this_week, 1200).as_deref(), Some("393 votes this week"), "an older listing's week differs");
    }
}
