//! What a maker's forms offer to choose from, as the pickers show it: the category tree (for the
//! editor's categories and the extra categories of a paid launch) and the countries (for the VAT
//! of a quote), each with the value the form sends and the words a person reads.

use crate::WebState;
use crate::site::run;
use ops::Caller;
use ops::operations::categories::ListCategories;

/// One category a picker offers.
pub(crate) struct CategoryChoice {
    pub slug: String,
    /// "Productivity" or, for a subcategory, "Productivity › Note taking".
    pub label: String,
}

/// Every category, top level first then its subcategories, each named with its parent. Empty
/// categories are offered too: a new product may be the first in its category.
pub(crate) async fn categories(state: &WebState, caller: &Caller) -> Vec<CategoryChoice> {
    let tree = match run(ListCategories, state, caller, &[], &[("include_empty", "true".to_owned())]).await {
        Ok(tree) => tree.items,
        Err(err) => {
            tracing::warn!(error = %err, "could not read the category tree for a picker");
            return Vec::new();
        }
    };
    let mut choices = Vec::new();
    for top in tree {
        choices.push(CategoryChoice { slug: top.slug.to_string(), label: top.name.clone() });
        for sub in top.subcategories {
            choices.push(CategoryChoice { slug: sub.slug.to_string(), label: format!("{} › {}", top.name, sub.name) });
        }
    }
    choices
}

/// One country a picker offers.
pub(crate) struct CountryChoice {
    pub code: &'static str,
    pub name: &'static str,
}

/// Every country, by name.
pub(crate) fn countries() -> Vec<CountryChoice> {
    kernel::CountryCode::all_by_name().into_iter().map(|(code, name)| CountryChoice { code, name }).collect()
}
