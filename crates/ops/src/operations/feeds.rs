//! `list_launches`: the launch feeds.

use crate::registry::{Input, Operation, OperationSpec};
use crate::wire::SchemaOf;
use crate::wire::{paged_query, rfc3339};
use crate::{Caller, Context, ListingServices, NoInput, OpError};
use async_trait::async_trait;
use garde::Validate;
use kernel::Week;
use listings::{FeedMetric, ListingSummary, Section};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

/// A section of the launches feed.
#[derive(Debug, Clone, Copy, Default, Deserialize, Serialize, JsonSchema)]
#[serde(rename_all = "kebab-case")]
pub enum SectionParam {
    /// Live launches of today (launch time zone), most voted first.
    Today,
    /// This week's live launches, ranked by votes received this week.
    #[default]
    ThisWeek,
    /// Live listings by time-decayed votes (a vote's weight halves every 24 hours).
    Trending,
    /// Live listings by all votes.
    MostVoted,
    /// Live listings, latest launch first.
    Recent,
    /// Live listings by page views.
    MostViewed,
    /// Live listings by followers.
    MostFollowed,
    /// Scheduled launches (and those waiting for their badge), soonest week first.
    Upcoming,
}

impl SectionParam {
    fn section(self) -> Section {
        match self {
            Self::Today => Section::Today,
            Self::ThisWeek => Section::ThisWeek,
            Self::Trending => Section::Trending,
            Self::MostVoted => Section::MostVoted,
            Self::Recent => Section::Recent,
            Self::MostViewed => Section::MostViewed,
            Self::MostFollowed => Section::MostFollowed,
            Self::Upcoming => Section::Upcoming,
        }
    }
}

paged_query! {
    /// Query of `list_launches`.
    #[derive(Debug, Deserialize, JsonSchema, Validate)]
    #[serde(deny_unknown_fields)]
    pub struct LaunchesQuery {
        /// Which feed (default this-week).
        #[serde(default)]
        #[garde(skip)]
        pub section: SectionParam,
    }
}

/// What an item is ordered by.
#[derive(Debug, Serialize, JsonSchema)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum FeedMetricView {
    Votes {
        value: u64,
    },
    VotesInWeek {
        value: u64,
    },
    /// Sum over votes of 0.5^(age / 24 h).
    TrendingScore {
        value: f64,
    },
    Views {
        value: u64,
    },
    Follows {
        value: u64,
    },
    /// RFC 3339.
    LaunchedAt {
        value: String,
    },
    LaunchWeek {
        #[schemars(with = "SchemaOf<Week>")]
        value: Week,
    },
}

/// One item of a feed.
#[derive(Debug, Serialize, JsonSchema)]
pub struct FeedItemView {
    /// Position in the feed, continuing across pages.
    pub rank: u32,
    #[schemars(with = "SchemaOf<ListingSummary>")]
    pub listing: ListingSummary,
    pub metric: FeedMetricView,
}

/// A page of a feed.
#[derive(Debug, Serialize, JsonSchema)]
pub struct FeedView {
    pub section: SectionParam,
    pub items: Vec<FeedItemView>,
    pub page: u32,
    pub per_page: u32,
    pub total: u64,
}

pub struct ListLaunches;

#[async_trait]
impl Operation for ListLaunches {
    type Path = NoInput;
    type Query = LaunchesQuery;
    type Body = NoInput;
    type Output = FeedView;
    type Area = ListingServices;

    const SPEC: OperationSpec = OperationSpec {
        id: "list_launches",
        path: "/launches",
        summary: "Launch feeds",
        description: "One section of the launches feed: today, this-week (default), trending (time-decayed votes), \
                      most-voted, recent, most-viewed, most-followed, or upcoming (scheduled launches). Each item has \
                      its rank, the listing and the metric it is ordered by.",
        tag: "launches",
        ..OperationSpec::READ
    };

    async fn run(
        &self,
        listings: Context<'_, Self::Area>,
        _: &Caller,
        input: Input<NoInput, LaunchesQuery, NoInput>,
    ) -> Result<FeedView, OpError> {
        let query = input.query;
        let page = query.page_request();
        let feed = listings.feeds.section(query.section.section(), page).await?;
        let start = page.offset() as u32;
        Ok(FeedView {
            section: query.section,
            page: feed.page,
            per_page: feed.per_page,
            total: feed.total,
            items: feed
                .items
                .into_iter()
                .enumerate()
                .map(|(position, item)| FeedItemView {
                    rank: start + position as u32 + 1,
                    listing: item.listing,
                    metric: match item.metric {
                        FeedMetric::Votes(value) => FeedMetricView::Votes { value },
                        FeedMetric::VotesInWeek(value) => FeedMetricView::VotesInWeek { value },
                        FeedMetric::TrendingScore(value) => FeedMetricView::TrendingScore { value: (value * 1000.0).round() / 1000.0 },
                        FeedMetric::Views(value) => FeedMetricView::Views { value },
                        FeedMetric::Follows(value) => FeedMetricView::Follows { value },
                        FeedMetric::LaunchedAt(at) => FeedMetricView::LaunchedAt { value: rfc3339(at) },
                        FeedMetric::LaunchWeek(value) => FeedMetricView::LaunchWeek { value },
                    },
                })
                .collect(),
        })
    }
}
