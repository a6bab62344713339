//! Leaderboards and awards, founders, the blog, and the pages about submitting and the API.

use super::browse::{all_but_page, param, params};
use super::showcase::Person;
use super::{Card, Meta, Pager, VoteButtons, caller, page, plural, run, vote_buttons};

/// How wide a founder's picture is on their page, in CSS pixels.
const FOUNDER_PAGE_AVATAR_PX: u32 = 96;
use crate::PageError;
use crate::WebState;
use crate::markdown::{to_safe_html, to_safe_html_below_title};
use actix_web::http::StatusCode;
use actix_web::{HttpRequest, HttpResponse, web};
use askama::Template;
use kernel::Cents;
use listings::Board;
use ops::operations::blog::{BlogPostItem, GetBlogPost, ListBlogPosts};
use ops::operations::founders::{FounderItem, FounderView, GetFounder, ListFounders};
use ops::operations::rankings::{GetLeaderboard, ListAwards, MetricView, Trend};

/// A board's heading and what it ranks by, as the index and the board's page say it.
fn board_words(board: Board) -> (&'static str, &'static str) {
    match board {
        Board::CommunityWeekly => ("Community: this week", "Live products ranked by the community votes they received this week."),
        Board::CommunityAllTime => ("Community: all time", "Live products ranked by all the community votes they ever received."),
        Board::Billboard => (
            "Billboard",
            "A paid ranking: places are bought, ordered by the money each product contributed. It is not a measure of quality or popularity.",
        ),
        Board::DomainRating => ("Domain Rating", "Live products ranked by Domain Rating, a third-party measure of a website's authority."),
        Board::Revenue => ("Revenue", "Live products ranked by monthly revenue, verified where the maker connected a payment provider."),
    }
}

/// A board in the index.
struct BoardLink {
    slug: &'static str,
    title: &'static str,
    about: &'static str,
    paid: bool,
}

#[derive(Template)]
#[template(path = "site/leaderboards.html")]
struct LeaderboardsPage<'a> {
    site_name: &'a str,
    meta: Meta,
    boards: Vec<BoardLink>,
}

pub async fn leaderboards(state: web::Data<WebState>, request: HttpRequest) -> Result<HttpResponse, PageError> {
    let boards = Board::ALL
        .iter()
        .map(|board| {
            let (title, about) = board_words(*board);
            BoardLink { slug: board.as_str(), title, about, paid: board.is_paid() }
        })
        .collect();
    let meta = Meta::new(
        &state,
        "/leaderboards",
        "Leaderboards",
        "Five separate rankings: community votes this week and of all time, Domain Rating, revenue, and the paid billboard.",
    );
    Ok(page(&request, StatusCode::OK, &LeaderboardsPage { site_name: &state.app.site.name, meta, boards }))
}

fn metric_text(metric: &MetricView) -> String {
    match metric {
        MetricView::VotesInWeek { value } => format!("{} this week", plural(*value, "vote", "votes")),
        MetricView::Votes { value } => plural(*value, "vote", "votes"),
        MetricView::ContributedCents { value } => format!("{} contributed", Cents::new(*value)),
        MetricView::DomainRating { value, previous, trend } => match (trend, previous) {
            (Trend::Up, Some(before)) => format!("Domain Rating {value}, up from {before}"),
            (Trend::Down, Some(before)) => format!("Domain Rating {value}, down from {before}"),
            (Trend::Flat, _) => format!("Domain Rating {value}, unchanged"),
            _ => format!("Domain Rating {value}, first reading"),
        },
        MetricView::MonthlyRevenueCents { value, verified } => {
            format!("{} a month{}", Cents::new(*value), if *verified { ", verified" } else { ", as reported by the maker" })
        }
    }
}

#[derive(Template)]
#[template(path = "site/leaderboard.html")]
struct LeaderboardPage<'a> {
    site_name: &'a str,
    meta: Meta,
    title: &'static str,
    about: &'static str,
    paid: bool,
    disclosure: Option<&'static str>,
    week: Option<String>,
    cards: Vec<Card>,
    pager: Pager,
    vote: VoteButtons,
}

pub async fn leaderboard(state: web::Data<WebState>, request: HttpRequest, path: web::Path<String>) -> Result<HttpResponse, PageError> {
    let query = params(&request, &["week", "page", "per_page"]);
    let view = run(GetLeaderboard, &state, &caller(&request), &[("board", path.as_str())], &query).await?;
    let Some(board) = Board::parse(view.board) else {
        return Err(PageError::from(ops::OpError::NotFound("no such leaderboard".into())));
    };
    let (title, about) = board_words(board);
    let base = format!("/leaderboards/{}", view.board);
    let pager = Pager::new(&base, &all_but_page(&query), view.page, view.per_page, view.total);
    let title_text = if view.paid { format!("{title} (paid ranking)") } else { format!("{title} leaderboard") };
    let meta = Meta::new(&state, &base, title_text, about).paged(&state, &pager);
    let mut cards = view
        .items
        .iter()
        .map(|item| {
            let mut card = Card::of(&item.listing).ranked(Some(item.rank)).noted(Some(metric_text(&item.metric)));
            card.paid = item.paid;
            card
        })
        .collect();
    let vote = vote_buttons(&state, &request, &mut [&mut cards]).await;
    let board_page = LeaderboardPage {
        site_name: &state.app.site.name,
        meta,
        title,
        about,
        paid: view.paid,
        disclosure: view.disclosure,
        week: view.week.map(|week| week.to_string()),
        cards,
        pager,
        vote,
    };
    Ok(page(&request, StatusCode::OK, &board_page))
}

#[derive(Template)]
#[template(path = "site/awards.html")]
struct AwardsPage<'a> {
    site_name: &'a str,
    meta: Meta,
    cards: Vec<Card>,
    pager: Pager,
    vote: VoteButtons,
}

pub async fn awards(state: web::Data<WebState>, request: HttpRequest) -> Result<HttpResponse, PageError> {
    let query = params(&request, &["listing", "page", "per_page"]);
    let list = run(ListAwards, &state, &caller(&request), &[], &query).await?;
    let pager = Pager::new("/awards", &all_but_page(&query), list.page, list.per_page, list.total);
    let meta = Meta::new(
        &state,
        "/awards",
        "Launch of the Week awards",
        "The top three launches of every finished week, by the community votes they received that week.",
    )
    .paged(&state, &pager);
    let mut cards = list
        .items
        .iter()
        .map(|award| {
            Card::of(&award.listing).ranked(Some(award.rank)).noted(Some(format!(
                "{}, week of {} ({} that week)",
                award.title,
                award.week,
                plural(award.votes_in_week, "vote", "votes")
            )))
        })
        .collect();
    let vote = vote_buttons(&state, &request, &mut [&mut cards]).await;
    Ok(page(&request, StatusCode::OK, &AwardsPage { site_name: &state.app.site.name, meta, cards, pager, vote }))
}

#[derive(Template)]
#[template(path = "site/founders.html")]
struct FoundersPage<'a> {
    site_name: &'a str,
    meta: Meta,
    q: String,
    founders: Vec<Person<FounderItem>>,
    total: u64,
    pager: Pager,
}

pub async fn founders(state: web::Data<WebState>, request: HttpRequest) -> Result<HttpResponse, PageError> {
    let query = params(&request, &["q", "country", "page", "per_page"]);
    let list = run(ListFounders, &state, &caller(&request), &[], &query).await?;
    let pager = Pager::new("/founders", &all_but_page(&query), list.page, list.per_page, list.total);
    let meta =
        Meta::new(&state, "/founders", "Founders", "The people who make the products in the directory, with the companies they founded.")
            .paged(&state, &pager);
    let q = param(&query, "q").to_owned();
    Ok(page(
        &request,
        StatusCode::OK,
        &FoundersPage {
            site_name: &state.app.site.name,
            meta,
            q,
            founders: list
                .items
                .into_iter()
                .map(|founder| {
                    let (name, avatar) = (founder.name.clone(), founder.avatar.clone());
                    Person::new(founder, &name, avatar.as_ref(), super::CARD_LOGO_PX)
                })
                .collect(),
            total: list.total,
            pager,
        },
    ))
}

#[derive(Template)]
#[template(path = "site/founder.html")]
struct FounderPage<'a> {
    site_name: &'a str,
    meta: Meta,
    /// The founder's picture, or their initial.
    face: Person<()>,
    founder: FounderView,
    companies: Vec<Card>,
    vote: VoteButtons,
}

pub async fn founder(state: web::Data<WebState>, request: HttpRequest, path: web::Path<String>) -> Result<HttpResponse, PageError> {
    let founder = run(GetFounder, &state, &caller(&request), &[("slug", path.as_str())], &[]).await?;
    let description = founder.bio.clone().unwrap_or_else(|| match &founder.title {
        Some(title) => format!("{}, {title}.", founder.name),
        None => format!("{} and the products they founded.", founder.name),
    });
    let card = super::cards::founder_card(&state, &founder);
    let mut meta = Meta::new(&state, &format!("/founders/{}", founder.slug), founder.name.clone(), description).with_card(
        &state,
        &format!("/cards/founders/{}.png", founder.slug),
        &card,
    );
    meta.og_type = "profile";
    let mut companies = founder.companies.iter().map(Card::of).collect();
    let vote = vote_buttons(&state, &request, &mut [&mut companies]).await;
    let face = Person::new((), &founder.name, founder.avatar.as_ref(), FOUNDER_PAGE_AVATAR_PX);
    Ok(page(&request, StatusCode::OK, &FounderPage { site_name: &state.app.site.name, meta, face, founder, companies, vote }))
}

#[derive(Template)]
#[template(path = "site/blog.html")]
struct BlogPage<'a> {
    site_name: &'a str,
    meta: Meta,
    q: String,
    posts: Vec<BlogPostItem>,
    pager: Pager,
}

pub async fn blog(state: web::Data<WebState>, request: HttpRequest) -> Result<HttpResponse, PageError> {
    let query = params(&request, &["q", "page", "per_page"]);
    let list = run(ListBlogPosts, &state, &caller(&request), &[], &query).await?;
    let pager = Pager::new("/blog", &all_but_page(&query), list.page, list.per_page, list.total);
    let meta =
        Meta::new(&state, "/blog", "Blog", format!("News, guides and founder stories from {}.", state.app.site.name)).paged(&state, &pager);
    let q = param(&query, "q").to_owned();
    Ok(page(&request, StatusCode::OK, &BlogPage { site_name: &state.app.site.name, meta, q, posts: list.items, pager }))
}

#[derive(Template)]
#[template(path = "site/blog_post.html")]
struct BlogPostPage<'a> {
    site_name: &'a str,
    meta: Meta,
    post: BlogPostItem,
    body: String,
    faqs: Vec<kernel::Faq>,
}

pub async fn blog_post(state: web::Data<WebState>, request: HttpRequest, path: web::Path<String>) -> Result<HttpResponse, PageError> {
    let view = run(GetBlogPost, &state, &caller(&request), &[("slug", path.as_str())], &[]).await?;
    let mut meta = Meta::new(&state, &format!("/blog/{}", view.post.slug), view.post.title.clone(), view.post.summary.clone());
    meta.og_type = "article";
    let json_ld = serde_json::json!({
        "@context": "https://schema.org",
        "@type": "BlogPosting",
        "headline": view.post.title,
        "description": view.post.summary,
        "datePublished": view.post.published_at,
        "dateModified": view.updated_at,
        "author": {"@type": "Person", "name": view.post.author_name},
        "url": view.post.url,
    });
    meta.json_ld = Some(super::listing::script_json(&json_ld));
    let body = to_safe_html_below_title(&view.body_markdown);
    Ok(page(&request, StatusCode::OK, &BlogPostPage { site_name: &state.app.site.name, meta, post: view.post, body, faqs: view.faqs }))
}

#[derive(Template)]
#[template(path = "site/docs.html")]
struct DocsPage<'a> {
    site_name: &'a str,
    meta: Meta,
    openapi: String,
    mcp: String,
    body: String,
}

/// The API conventions (`docs/api.md`), rendered once: the text is part of the binary.
static API_DOCS: std::sync::LazyLock<String> = std::sync::LazyLock::new(|| to_safe_html(include_str!("../../../../docs/api.md")));

pub async fn api_docs(state: web::Data<WebState>, request: HttpRequest) -> Result<HttpResponse, PageError> {
    let meta = Meta::new(
        &state,
        "/docs/api",
        "API documentation",
        "How to use the REST API and the MCP tool server: authentication, errors, paging, limits and every operation.",
    );
    let docs = DocsPage {
        site_name: &state.app.site.name,
        meta,
        openapi: format!("{}/openapi.json", state.app.site.base_url),
        mcp: format!("{}/mcp", state.site_url),
        body: API_DOCS.clone(),
    };
    Ok(page(&request, StatusCode::OK, &docs))
}
