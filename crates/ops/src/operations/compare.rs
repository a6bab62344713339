//! `get_alternatives` and `compare_listings`.

use crate::registry::{Input, Operation, OperationSpec};
use crate::wire::ListingSlug;
use crate::wire::SchemaOf;
use crate::{Caller, Context, InputPart, ListingServices, NoInput, OpError};
use async_trait::async_trait;
use garde::Validate;
use kernel::Slug;
use listings::{Cell, ListingSummary};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

/// An alternative to a listing.
#[derive(Debug, Serialize, JsonSchema)]
pub struct AlternativeView {
    #[schemars(with = "SchemaOf<ListingSummary>")]
    pub listing: ListingSummary,
    /// Named and approved by the listing's owner (shown first).
    pub approved: bool,
}

/// Alternatives to a listing.
#[derive(Debug, Serialize, JsonSchema)]
pub struct AlternativeList {
    /// The listing the alternatives are for.
    #[schemars(with = "SchemaOf<ListingSummary>")]
    pub listing: ListingSummary,
    /// Owner-approved first, then other live listings of the same primary category, most
    /// voted first; at most 20.
    pub items: Vec<AlternativeView>,
}

pub struct GetAlternatives;

#[async_trait]
impl Operation for GetAlternatives {
    type Path = ListingSlug;
    type Query = NoInput;
    type Body = NoInput;
    type Output = AlternativeList;
    type Area = ListingServices;

    const SPEC: OperationSpec = OperationSpec {
        id: "get_alternatives",
        path: "/listings/{slug}/alternatives",
        summary: "Alternatives to a listing",
        description: "Alternatives the listing's owner approved first (`approved: true`), then other live listings in the \
                      same primary category, most voted first; at most 20. 404 for an unknown or unpublished listing.",
        tag: "directory",
        not_found: true,
        ..OperationSpec::READ
    };

    async fn run(
        &self,
        listings: Context<'_, Self::Area>,
        _: &Caller,
        input: Input<ListingSlug, NoInput, NoInput>,
    ) -> Result<AlternativeList, OpError> {
        let (listing, alternatives) =
            listings.compare.alternatives(&input.path.slug).await.map_err(|err| OpError::from_alternatives(err, &input.path.slug))?;
        Ok(AlternativeList {
            listing,
            items: alternatives.into_iter().map(|alt| AlternativeView { listing: alt.listing, approved: alt.approved }).collect(),
        })
    }
}

/// Query of `compare_listings`.
#[derive(Debug, Deserialize, JsonSchema, Validate)]
#[serde(deny_unknown_fields)]
pub struct CompareQuery {
    /// The first live listing's slug.
    #[garde(skip)]
    #[schemars(with = "SchemaOf<Slug>")]
    pub a: Slug,
    /// The second live listing's slug.
    #[garde(skip)]
    #[schemars(with = "SchemaOf<Slug>")]
    pub b: Slug,
}

impl InputPart for CompareQuery {}

/// A fact's value: text, a number, or a list of texts.
#[derive(Debug, Serialize, JsonSchema)]
#[serde(untagged)]
pub enum CellView {
    Text(String),
    Number(f64),
    List(Vec<String>),
}

/// One fact for both listings; a null side does not state it.
#[derive(Debug, Serialize, JsonSchema)]
pub struct RowView {
    pub key: &'static str,
    pub label: &'static str,
    pub a: Option<CellView>,
    pub b: Option<CellView>,
}

/// Two listings side by side.
#[derive(Debug, Serialize, JsonSchema)]
pub struct ComparisonView {
    #[schemars(with = "SchemaOf<ListingSummary>")]
    pub a: ListingSummary,
    #[schemars(with = "SchemaOf<ListingSummary>")]
    pub b: ListingSummary,
    pub rows: Vec<RowView>,
}

fn cell(value: Option<Cell>) -> Option<CellView> {
    value.map(|cell| match cell {
        Cell::Text(text) => CellView::Text(text),
        Cell::Number(number) => CellView::Number(number),
        Cell::List(items) => CellView::List(items),
    })
}

pub struct CompareListings;

#[async_trait]
impl Operation for CompareListings {
    type Path = NoInput;
    type Query = CompareQuery;
    type Body = NoInput;
    type Output = ComparisonView;
    type Area = ListingServices;

    const SPEC: OperationSpec = OperationSpec {
        id: "compare_listings",
        path: "/compare",
        summary: "Two listings side by side",
        description: "Two live listings compared fact by fact (category, pricing, stage, founding year, place, features, \
                      reasons to choose, demo, community rating, Domain Rating, votes, followers). A null cell means that \
                      listing does not state the fact; a row whose two cells are null is a fact neither states. An unknown \
                      or not live `a` or `b` is 400 naming it; `a` equal to `b` is 400.",
        tag: "directory",
        ..OperationSpec::READ
    };

    async fn run(
        &self,
        listings: Context<'_, Self::Area>,
        _: &Caller,
        input: Input<NoInput, CompareQuery, NoInput>,
    ) -> Result<ComparisonView, OpError> {
        let comparison = listings.compare.compare(&input.query.a, &input.query.b).await?;
        Ok(ComparisonView {
            a: comparison.a,
            b: comparison.b,
            rows: comparison
                .rows
                .into_iter()
                .map(|row| RowView { key: row.key, label: row.label, a: cell(row.a), b: cell(row.b) })
                .collect(),
        })
    }
}
