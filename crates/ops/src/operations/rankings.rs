//! `get_leaderboard` and `list_awards`.

use crate::registry::{Input, Operation, OperationSpec};
use crate::wire::SchemaOf;
use crate::wire::paged_query;
use crate::{Caller, Context, InputPart, ListingServices, NoInput, OpError};
use async_trait::async_trait;
use garde::Validate;
use kernel::{Slug, Week};
use listings::{Board, ListingSummary, Metric, WeekRef};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

/// Shown on every billboard item: the billboard is bought, never earned.
pub const BILLBOARD_DISCLOSURE: &str =
    "Paid placement: the billboard ranks listings by the money contributed to it, not by votes or quality.";

pub struct GetLeaderboard;

/// Path of `get_leaderboard`.
#[derive(Debug, Deserialize, JsonSchema, Validate)]
#[serde(deny_unknown_fields)]
pub struct BoardPath {
    /// community-weekly, community-all-time, billboard, domain-rating or revenue.
    #[garde(skip)]
    #[schemars(with = "SchemaOf<Slug>")]
    pub board: Slug,
}

impl InputPart for BoardPath {}

paged_query! {
    /// Query of `get_leaderboard`.
    #[derive(Debug, Deserialize, JsonSchema, Validate)]
    #[serde(deny_unknown_fields)]
    pub struct BoardQuery {
        /// Only for community-weekly: this, last, or a date YYYY-MM-DD (default this).
        #[garde(length(max = 10))]
        #[schemars(schema_with = "board_week_schema")]
        pub week: Option<String>,
    }
}

fn board_week_schema(_: &mut schemars::SchemaGenerator) -> schemars::Schema {
    schemars::json_schema!({
        "anyOf": [{"type": "string", "enum": ["this", "last"]}, {"type": "string", "format": "date"}],
        "description": "this, last, or a date YYYY-MM-DD (snapped to its Monday)",
    })
}

/// Which way a Domain Rating moved since the previous reading.
#[derive(Debug, Serialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum Trend {
    Up,
    Down,
    Flat,
    /// Rated once only.
    New,
}

/// What an item is ranked by.
#[derive(Debug, Serialize, JsonSchema)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum MetricView {
    /// Community votes received in the week.
    VotesInWeek { value: u64 },
    /// Community votes, all time.
    Votes { value: u64 },
    /// Money contributed to the billboard, USD cents.
    ContributedCents { value: i64 },
    /// Domain Rating (0 to 100, a third-party domain authority metric) with its trend.
    DomainRating { value: i32, previous: Option<i32>, trend: Trend },
    /// Monthly revenue in USD cents; `verified` when checked against a payment provider,
    /// otherwise as reported by the owner.
    MonthlyRevenueCents { value: i64, verified: bool },
}

impl From<Metric> for MetricView {
    fn from(metric: Metric) -> Self {
        match metric {
            Metric::VotesInWeek(value) => Self::VotesInWeek { value },
            Metric::Votes(value) => Self::Votes { value },
            Metric::ContributedCents(value) => Self::ContributedCents { value },
            Metric::DomainRating { value, previous } => Self::DomainRating {
                value,
                previous,
                trend: match previous {
                    None => Trend::New,
                    Some(before) if value > before => Trend::Up,
                    Some(before) if value < before => Trend::Down,
                    Some(_) => Trend::Flat,
                },
            },
            Metric::MonthlyRevenueCents { value, verified } => Self::MonthlyRevenueCents { value, verified },
        }
    }
}

/// One place on a board.
#[derive(Debug, Serialize, JsonSchema)]
pub struct BoardItem {
    pub rank: u32,
    #[schemars(with = "SchemaOf<ListingSummary>")]
    pub listing: ListingSummary,
    pub metric: MetricView,
    /// True on the billboard: this place was bought.
    pub paid: bool,
    /// On paid items: what the ranking means.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub disclosure: Option<&'static str>,
}

/// A page of a leaderboard.
#[derive(Debug, Serialize, JsonSchema)]
pub struct LeaderboardView {
    pub board: &'static str,
    /// True for the billboard, a paid ranking.
    pub paid: bool,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub disclosure: Option<&'static str>,
    /// The week of the community-weekly board.
    #[schemars(with = "Option<SchemaOf<Week>>")]
    pub week: Option<Week>,
    pub items: Vec<BoardItem>,
    pub page: u32,
    pub per_page: u32,
    pub total: u64,
}

#[async_trait]
impl Operation for GetLeaderboard {
    type Path = BoardPath;
    type Query = BoardQuery;
    type Body = NoInput;
    type Output = LeaderboardView;
    type Area = ListingServices;

    const SPEC: OperationSpec = OperationSpec {
        id: "get_leaderboard",
        path: "/leaderboards/{board}",
        summary: "A leaderboard",
        description: "One of five separate rankings of live listings, each item with rank, listing and metric: \
                      community-weekly (votes received in a week; `week` = this, last or a date), community-all-time \
                      (votes), billboard (a PAID ranking by money contributed: every item is marked paid with a \
                      disclosure), domain-rating (a third-party domain authority metric, with its trend) and revenue \
                      (monthly revenue). `week` on another board is 400; an unknown board is 404.",
        tag: "launches",
        not_found: true,
        ..OperationSpec::READ
    };

    async fn run(
        &self,
        listings: Context<'_, Self::Area>,
        _: &Caller,
        input: Input<BoardPath, BoardQuery, NoInput>,
    ) -> Result<LeaderboardView, OpError> {
        let board = Board::parse(input.path.board.as_str()).ok_or_else(|| {
            let known: Vec<&str> = Board::ALL.iter().map(|b| b.as_str()).collect();
            OpError::NotFound(format!("no leaderboard is called {}; the boards are {}", input.path.board, known.join(", ")))
        })?;
        let week = match input.query.week.as_deref() {
            None => None,
            Some(raw) => match WeekRef::parse(raw) {
                Some(WeekRef::Next) | None => return Err(OpError::field("week", "must be this, last or a date YYYY-MM-DD")),
                Some(week) => Some(week),
            },
        };
        let page = input.query.page_request();
        let leaderboard = listings.leaderboards.board(board, week, page).await?;
        let paid = board.is_paid();
        let disclosure = paid.then_some(BILLBOARD_DISCLOSURE);
        Ok(LeaderboardView {
            board: board.as_str(),
            paid,
            disclosure,
            week: leaderboard.week,
            page: leaderboard.entries.page,
            per_page: leaderboard.entries.per_page,
            total: leaderboard.entries.total,
            items: leaderboard
                .entries
                .items
                .into_iter()
                .map(|entry| BoardItem { rank: entry.rank, listing: entry.listing, metric: entry.metric.into(), paid, disclosure })
                .collect(),
        })
    }
}

pub struct ListAwards;

paged_query! {
    /// Query of `list_awards`.
    #[derive(Debug, Deserialize, JsonSchema, Validate)]
    #[serde(deny_unknown_fields)]
    pub struct AwardsQuery {
        /// Only the awards of the listing with this slug.
        #[garde(skip)]
        #[schemars(with = "Option<SchemaOf<Slug>>")]
        pub listing: Option<Slug>,
    }
}

/// An award.
#[derive(Debug, Serialize, JsonSchema)]
pub struct AwardView {
    /// The week's Monday.
    #[schemars(with = "SchemaOf<Week>")]
    pub week: Week,
    /// 1, 2 or 3.
    pub rank: u32,
    /// "Launch of the Week #1".
    pub title: String,
    /// Community votes the listing received in that week.
    pub votes_in_week: u64,
    #[schemars(with = "SchemaOf<ListingSummary>")]
    pub listing: ListingSummary,
}

/// Awards, newest week first.
#[derive(Debug, Serialize, JsonSchema)]
pub struct AwardList {
    pub items: Vec<AwardView>,
    pub page: u32,
    pub per_page: u32,
    pub total: u64,
}

#[async_trait]
impl Operation for ListAwards {
    type Path = NoInput;
    type Query = AwardsQuery;
    type Body = NoInput;
    type Output = AwardList;
    type Area = ListingServices;

    const SPEC: OperationSpec = OperationSpec {
        id: "list_awards",
        path: "/awards",
        summary: "Launch of the Week awards",
        description: "Launch of the Week #1 to #3 of every finished week, newest week first, with the winning listing. \
                      Awards follow community votes only and are fixed when the week ends. `listing` keeps one \
                      listing's awards (an unknown slug is 400).",
        tag: "launches",
        ..OperationSpec::READ
    };

    async fn run(
        &self,
        listings: Context<'_, Self::Area>,
        _: &Caller,
        input: Input<NoInput, AwardsQuery, NoInput>,
    ) -> Result<AwardList, OpError> {
        let page = input.query.page_request();
        let awards = listings.awards.list(input.query.listing.as_ref(), page).await?;
        Ok(AwardList {
            page: awards.page,
            per_page: awards.per_page,
            total: awards.total,
            items: awards
                .items
                .into_iter()
                .map(|award| AwardView {
                    week: award.week,
                    rank: award.rank,
                    title: format!("Launch of the Week #{}", award.rank),
                    votes_in_week: award.votes,
                    listing: award.listing,
                })
                .collect(),
        })
    }
}
