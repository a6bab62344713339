//! `/search/suggestions?q=`: a few products and categories for what someone is typing in a
//! search box, as JSON for the site's own script, which offers them in the box's list
//! (`/assets/site.js`). The search form works the same without it. Products come from
//! `search_listings` (relevance, the last word a prefix), so no paid placement reaches them;
//! categories are those whose name has a word starting with one of the typed words.

use super::browse::{param, params};
use super::{caller, run};
use crate::PageError;
use crate::WebState;
use actix_web::{HttpRequest, HttpResponse, web};
use listings::CategoryNode;
use ops::operations::categories::ListCategories;
use ops::operations::search::SearchListings;
use serde::Serialize;

/// How many products and categories one answer offers.
const PRODUCTS: usize = 5;
const CATEGORIES: usize = 3;
/// Fewer letters than this are not worth a round trip.
const MIN_CHARS: usize = 2;

#[derive(Serialize)]
struct Suggestion {
    /// What the box is filled with when it is chosen.
    label: String,
    /// `product` or `category`.
    kind: &'static str,
    /// The suggestion's own page.
    url: String,
}

#[derive(Serialize)]
struct Suggestions {
    suggestions: Vec<Suggestion>,
}

pub async fn suggestions(state: web::Data<WebState>, request: HttpRequest) -> Result<HttpResponse, PageError> {
    let query = params(&request, &["q"]);
    let typed = param(&query, "q").trim();
    let mut suggestions = Vec::new();
    if typed.chars().count() >= MIN_CHARS {
        let who = caller(&request);
        let asked = [("q", typed.to_owned()), ("per_page", PRODUCTS.to_string())];
        let (products, tree) = tokio::join!(run(SearchListings, &state, &who, &[], &asked), run(ListCategories, &state, &who, &[], &[]));
        // A q the search refuses (too long) is refused here too, naming the field.
        let products = match products {
            Ok(products) => products,
            Err(error @ ops::OpError::Validation(_)) => {
                let problem = ops::Problem::of(&error);
                return Ok(HttpResponse::BadRequest().content_type("application/problem+json").json(problem));
            }
            Err(error) => return Err(error.into()),
        };
        suggestions.extend(products.items.iter().map(|listing| Suggestion {
            label: listing.name.clone(),
            kind: "product",
            url: format!("/listings/{}", listing.slug),
        }));
        let words: Vec<String> = typed.split_whitespace().map(str::to_lowercase).collect();
        let mut categories = Vec::new();
        let tree = tree.map_err(PageError::from)?;
        flatten(&tree.items, &mut categories);
        suggestions.extend(
            categories
                .into_iter()
                .filter(|category| {
                    category.name.split_whitespace().any(|word| words.iter().any(|typed| word.to_lowercase().starts_with(typed)))
                })
                .take(CATEGORIES)
                .map(|category| Suggestion {
                    label: category.name.clone(),
                    kind: "category",
                    url: format!("/categories/{}", category.slug),
                }),
        );
    }
    Ok(HttpResponse::Ok().insert_header(("Cache-Control", "public, max-age=60")).json(Suggestions { suggestions }))
}

/// Every category of the tree, parents before their subcategories.
fn flatten<'a>(nodes: &'a [CategoryNode], out: &mut Vec<&'a CategoryNode>) {
    for node in nodes {
        out.push(node);
        flatten(&node.subcategories, out);
    }
}
