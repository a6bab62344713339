//! `list_categories` and `get_category`.

use crate::registry::{Input, Operation, OperationSpec};
use crate::wire::Pagination;
use crate::wire::SchemaOf;
use crate::{Caller, Context, InputPart, ListingServices, NoInput, OpError};
use async_trait::async_trait;
use garde::Validate;
use kernel::Slug;
use listings::{CategoryNode, CategoryRef, Faq, ListingSummary};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

pub struct ListCategories;

/// Query of `list_categories`.
#[derive(Debug, Deserialize, JsonSchema, Validate)]
#[serde(deny_unknown_fields)]
pub struct ListCategoriesQuery {
    /// Include categories without live listings.
    #[serde(default = "yes")]
    #[garde(skip)]
    pub include_empty: bool,
}

impl InputPart for ListCategoriesQuery {}

fn yes() -> bool {
    true
}

/// The category tree.
#[derive(Debug, Serialize, JsonSchema)]
pub struct CategoryTree {
    /// Top-level categories, each with its subcategories.
    #[schemars(with = "Vec<SchemaOf<CategoryNode>>")]
    pub items: Vec<CategoryNode>,
}

#[async_trait]
impl Operation for ListCategories {
    type Path = NoInput;
    type Query = ListCategoriesQuery;
    type Body = NoInput;
    type Output = CategoryTree;
    type Area = ListingServices;

    const SPEC: OperationSpec = OperationSpec {
        id: "list_categories",
        path: "/categories",
        summary: "The category tree",
        description: "Every category, top level with subcategories, with the number of live listings in each \
                      (a top-level count includes its subcategories, each listing once).",
        tag: "directory",
        ..OperationSpec::READ
    };

    async fn run(
        &self,
        listings: Context<'_, Self::Area>,
        _: &Caller,
        input: Input<NoInput, ListCategoriesQuery, NoInput>,
    ) -> Result<CategoryTree, OpError> {
        let items = listings.directory.category_tree(input.query.include_empty).await?;
        Ok(CategoryTree { items })
    }
}

pub struct GetCategory;

/// Path of `get_category`.
#[derive(Debug, Deserialize, JsonSchema, Validate)]
#[serde(deny_unknown_fields)]
pub struct CategorySlug {
    /// The category's slug.
    #[garde(skip)]
    #[schemars(with = "SchemaOf<Slug>")]
    pub slug: Slug,
}

impl InputPart for CategorySlug {}

/// The category itself.
#[derive(Debug, Serialize, JsonSchema)]
pub struct CategoryInfo {
    #[schemars(with = "SchemaOf<Slug>")]
    pub slug: Slug,
    pub name: String,
    pub description: String,
    #[schemars(with = "Vec<SchemaOf<Faq>>")]
    pub faqs: Vec<Faq>,
    /// Live listings in this category or its subcategories.
    pub live_listings: u64,
}

/// A category with its parent, subcategories and a page of its live listings, most voted first.
#[derive(Debug, Serialize, JsonSchema)]
pub struct CategoryDetail {
    pub category: CategoryInfo,
    #[schemars(with = "Option<SchemaOf<CategoryRef>>")]
    pub parent: Option<CategoryRef>,
    #[schemars(with = "Vec<SchemaOf<CategoryRef>>")]
    pub subcategories: Vec<CategoryRef>,
    /// Live listings of this category and its subcategories, most voted first.
    #[schemars(with = "Vec<SchemaOf<ListingSummary>>")]
    pub items: Vec<ListingSummary>,
    pub page: u32,
    pub per_page: u32,
    pub total: u64,
}

#[async_trait]
impl Operation for GetCategory {
    type Path = CategorySlug;
    type Query = Pagination;
    type Body = NoInput;
    type Output = CategoryDetail;
    type Area = ListingServices;

    const SPEC: OperationSpec = OperationSpec {
        id: "get_category",
        path: "/categories/{slug}",
        summary: "A category and its live listings",
        description: "A category's description and FAQs, its parent and subcategories, and its live listings \
                      (including those of its subcategories), most voted first, paginated. 404 for an unknown slug.",
        tag: "directory",
        not_found: true,
        ..OperationSpec::READ
    };

    async fn run(
        &self,
        listings: Context<'_, Self::Area>,
        _: &Caller,
        input: Input<CategorySlug, Pagination, NoInput>,
    ) -> Result<CategoryDetail, OpError> {
        let slug = &input.path.slug;
        let page =
            listings.directory.category_page(slug, input.query.page_request()).await.map_err(|err| OpError::from_category(err, slug))?;
        Ok(CategoryDetail {
            category: CategoryInfo {
                slug: page.category.slug,
                name: page.category.name,
                description: page.category.description,
                faqs: page.category.faqs,
                live_listings: page.live_listings,
            },
            parent: page.parent,
            subcategories: page.subcategories,
            items: page.listings.items,
            page: page.listings.page,
            per_page: page.listings.per_page,
            total: page.listings.total,
        })
    }
}
