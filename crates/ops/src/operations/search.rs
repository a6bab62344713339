//! `search_listings`.

use crate::registry::{Input, Operation, OperationSpec};
use crate::wire::SchemaOf;
use crate::wire::paged_query;
use crate::{Caller, Context, ListingServices, NoInput, OpError};
use async_trait::async_trait;
use garde::Validate;
use kernel::{CountryCode, Slug};
use listings::{ListingSummary, SearchRequest, SortBy};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

/// live (default) or upcoming (scheduled, or waiting for its badge).
#[derive(Debug, Clone, Copy, Default, Deserialize, Serialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum StatusParam {
    #[default]
    Live,
    Upcoming,
}

/// How results are ordered.
#[derive(Debug, Clone, Copy, Default, Deserialize, Serialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum SortParam {
    /// Best text match first; without `q`, most voted first.
    #[default]
    Relevance,
    Newest,
    Votes,
    Trending,
    MostViewed,
    MostFollowed,
}

paged_query! {
    /// Query of `search_listings`.
    #[derive(Debug, Deserialize, JsonSchema, Validate)]
    #[serde(deny_unknown_fields)]
    pub struct SearchQuery {
        /// Words to find in names, taglines, descriptions and keywords (typo tolerant; the last word
        /// also matches as a prefix). Empty browses.
        #[garde(length(chars, max = 200))]
        pub q: Option<String>,
        /// A category slug; its subcategories are included.
        #[garde(skip)]
        #[schemars(with = "Option<SchemaOf<Slug>>")]
        pub category: Option<Slug>,
        /// idea, mvp, launched, growing, ...
        #[garde(skip)]
        #[schemars(with = "Option<SchemaOf<Slug>>")]
        pub stage: Option<Slug>,
        #[garde(skip)]
        #[schemars(with = "Option<SchemaOf<CountryCode>>")]
        pub country: Option<CountryCode>,
        #[garde(length(chars, min = 1, max = 40))]
        pub pricing_model: Option<String>,
        /// The product's domain, e.g. quillflow.example (a leading www. is ignored).
        #[garde(length(chars, min = 1, max = 253))]
        pub domain: Option<String>,
        #[serde(default)]
        #[garde(skip)]
        pub status: StatusParam,
        #[serde(default)]
        #[garde(skip)]
        pub sort: SortParam,
    }
}

/// Matching listings.
#[derive(Debug, Serialize, JsonSchema)]
pub struct SearchResults {
    #[schemars(with = "Vec<SchemaOf<ListingSummary>>")]
    pub items: Vec<ListingSummary>,
    pub page: u32,
    pub per_page: u32,
    pub total: u64,
    /// When a word of `q` is held by no listing and a close spelling is: `q`'s words with it
    /// corrected ("prodcutivity" -> "productivity"), to offer as "did you mean". Otherwise null.
    pub did_you_mean: Option<String>,
}

pub struct SearchListings;

#[async_trait]
impl Operation for SearchListings {
    type Path = NoInput;
    type Query = SearchQuery;
    type Body = NoInput;
    type Output = SearchResults;
    type Area = ListingServices;

    const SPEC: OperationSpec = OperationSpec {
        id: "search_listings",
        path: "/listings",
        summary: "Search listings",
        description: "Full-text search over names, taglines, descriptions, keywords and the names of the listings' categories, \
                      typo tolerant (one typo in words of 4+ letters, two in words of 8+, a swap of two letters counting \
                      as one; the last word also matches as a prefix); a name match outranks a description match. \
                      did_you_mean offers q spelt as the directory spells it when a word of q is found nowhere. Filters: category (with its subcategories), stage, country, pricing_model, domain, \
                      status (live or upcoming). Sorts: relevance, newest, votes, trending, most_viewed, most_followed. An \
                      empty q browses. An unknown category is 400.",
        tag: "directory",
        ..OperationSpec::READ
    };

    async fn run(
        &self,
        listings: Context<'_, Self::Area>,
        _: &Caller,
        input: Input<NoInput, SearchQuery, NoInput>,
    ) -> Result<SearchResults, OpError> {
        let query = input.query;
        let page = query.page_request();
        let request = SearchRequest {
            q: query.q,
            category: query.category,
            stage: query.stage.map(|s| s.to_string()),
            country: query.country,
            pricing_model: query.pricing_model,
            domain: query.domain,
            upcoming: matches!(query.status, StatusParam::Upcoming),
            sort: match query.sort {
                SortParam::Relevance => SortBy::Relevance,
                SortParam::Newest => SortBy::Newest,
                SortParam::Votes => SortBy::Votes,
                SortParam::Trending => SortBy::Trending,
                SortParam::MostViewed => SortBy::MostViewed,
                SortParam::MostFollowed => SortBy::MostFollowed,
            },
            page,
        };
        let results = listings.search.search(&request).await?;
        let did_you_mean = match request.q.as_deref().map(str::trim).filter(|words| !words.is_empty()) {
            // A walk of the index's dictionary, in memory: an offer it cannot make leaves the
            // answer without one.
            Some(words) => {
                listings.search.did_you_mean(words).await.inspect_err(|error| tracing::warn!(%error, "no spelling offered")).ok().flatten()
            }
            None => None,
        };
        Ok(SearchResults { page: results.page, per_page: results.per_page, total: results.total, items: results.items, did_you_mean })
    }
}
