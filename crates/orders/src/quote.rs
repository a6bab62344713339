//! An order request checked against the price list, the buyer's listings and the weeks on
//! offer, then priced with VAT. Every rule of the spec's Order item table lives here; each
//! failure names its place (`items[2].week`), and all of them are reported at once.

use crate::catalog::{Product, WeekPolicy, WeekRule};
use crate::order::{Amounts, Line, ProductKind};
use kernel::{Cents, CountryCode, FieldError, ListingId, Week};
use listings::PurchaseFacts;
use serde_json::{Map, Value};
use std::collections::{HashMap, HashSet};

/// At most this many extra categories per order line.
pub const MAX_EXTRA_CATEGORIES: usize = 3;

/// One requested item, as parsed from the wire (shapes and bounds already checked).
#[derive(Debug, Clone, Default, PartialEq)]
pub struct ItemRequest {
    pub product: String,
    pub listing_id: Option<ListingId>,
    pub week: Option<String>,
    pub amount_cents: Option<i64>,
    pub categories: Option<Vec<String>>,
    pub options: Option<Map<String, Value>>,
}

/// An order request: `quote_order` and `create_checkout` take the same.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct OrderRequest {
    pub items: Vec<ItemRequest>,
    pub billing_country: Option<CountryCode>,
    pub vat_number: Option<String>,
}

/// What checking a request needs to know, gathered before the check so the check is pure.
#[derive(Debug, Clone)]
pub struct Facts {
    pub products: Vec<Product>,
    /// The buyer's listings named by the request (listings of others or unknown ids are absent).
    pub listings: HashMap<ListingId, PurchaseFacts>,
    /// Category slugs named by the request that exist.
    pub categories: HashSet<String>,
    pub current_week: Week,
    pub policy: WeekPolicy,
    /// Weeks whose paid launch places are all taken (read only when the request launches).
    pub full_weeks: Vec<Week>,
}

/// Checks every item; the lines (net amounts, VAT not applied yet) or every failure.
pub fn check(request: &OrderRequest, facts: &Facts) -> Result<Vec<Line>, Vec<FieldError>> {
    let mut errors = Vec::new();
    let mut lines = Vec::new();
    let mut seen: HashSet<(String, Option<ListingId>)> = HashSet::new();
    let in_order = InOrder::of(request);
    for (index, item) in request.items.iter().enumerate() {
        let at = |key: &str| format!("items[{index}].{key}");
        let before = errors.len();
        let Some(product) = facts.products.iter().find(|product| product.code == item.product) else {
            errors.push(FieldError::new(at("product"), "is not a product on sale: list_products names them"));
            continue;
        };
        let kind = ProductKind::of(&product.code);
        let listing = check_listing(item, product, kind, facts, &in_order, &at, &mut errors);
        let week = check_week(item, product, facts, &at, &mut errors);
        let amount = check_amount(item, product, kind, &at, &mut errors);
        let categories = check_categories(item, kind, listing, facts, &at, &mut errors);
        check_options(item, product, &at, &mut errors);
        if !seen.insert((product.code.clone(), item.listing_id)) {
            errors.push(FieldError::new(at("product"), "appears twice for the same listing in this order"));
        }
        if errors.len() > before {
            continue;
        }
        let net = amount.unwrap_or(product.price);
        lines.push(Line {
            product_code: product.code.clone(),
            product_name: product.name.clone(),
            listing_id: item.listing_id,
            week,
            amount,
            categories,
            options: item.options.clone().map(Value::Object),
            amounts: Amounts { subtotal: net, vat: Cents::new(0), total: net },
        });
    }
    if errors.is_empty() { Ok(lines) } else { Err(errors) }
}

/// Which listings the order launches, and which of those with the launch bundle.
struct InOrder {
    launched: HashSet<ListingId>,
    bundled: HashSet<ListingId>,
}

impl InOrder {
    fn of(request: &OrderRequest) -> Self {
        let listings_of = |wanted: &dyn Fn(ProductKind) -> bool| {
            request.items.iter().filter(|item| wanted(ProductKind::of(&item.product))).filter_map(|item| item.listing_id).collect()
        };
        Self { launched: listings_of(&ProductKind::launches), bundled: listings_of(&|kind| kind == ProductKind::LaunchBundle) }
    }
}

fn check_listing<'a>(
    item: &ItemRequest,
    product: &Product,
    kind: ProductKind,
    facts: &'a Facts,
    in_order: &InOrder,
    at: &dyn Fn(&str) -> String,
    errors: &mut Vec<FieldError>,
) -> Option<&'a PurchaseFacts> {
    let Some(id) = item.listing_id else {
        if product.needs_listing {
            errors.push(FieldError::new(at("listing_id"), format!("is required: {} is bought for one of your listings", product.code)));
        }
        return None;
    };
    if !product.needs_listing {
        errors.push(FieldError::new(at("listing_id"), format!("{} is not bought for a listing: leave listing_id out", product.code)));
        return None;
    }
    let Some(listing) = facts.listings.get(&id) else {
        errors.push(FieldError::new(at("listing_id"), "is not one of your listings"));
        return None;
    };
    let refusal = match kind {
        ProductKind::Launch | ProductKind::LaunchBundle if listing.status == listings::ListingStatus::Live => {
            Some("is live already: buy relaunch for a new launch".to_owned())
        }
        ProductKind::Launch | ProductKind::LaunchBundle if listing.paid_launch_booked() => {
            Some("has a paid launch booked already".to_owned())
        }
        // The bundle holds featured placement and an AI review: never sold twice in one order.
        ProductKind::Featured | ProductKind::AiReview if in_order.bundled.contains(&id) => {
            Some(format!("gets the launch bundle in this order, which includes {} already", product.code))
        }
        ProductKind::SkipQueue if in_order.launched.contains(&id) => {
            Some("gets a paid launch in this order: choose its week on the launch item instead of skip_queue".to_owned())
        }
        ProductKind::SkipQueue if !listing.in_free_queue() => {
            Some("is not in the free queue: skip_queue is for listings waiting for a free launch".to_owned())
        }
        ProductKind::Relaunch if listing.status != listings::ListingStatus::Live => {
            Some("has not launched yet: relaunch is for live listings".to_owned())
        }
        _ if listing.status == listings::ListingStatus::Archived => Some("is archived".to_owned()),
        _ => None,
    };
    if let Some(message) = refusal {
        errors.push(FieldError::new(at("listing_id"), message));
        return None;
    }
    Some(listing)
}

fn check_week(
    item: &ItemRequest,
    product: &Product,
    facts: &Facts,
    at: &dyn Fn(&str) -> String,
    errors: &mut Vec<FieldError>,
) -> Option<Week> {
    let offered = facts.policy.weeks_for(product.week_rule, facts.current_week);
    let Some(raw) = item.week.as_deref() else {
        if matches!(product.week_rule, WeekRule::Required | WeekRule::RequiredBeforeFreeQueue) {
            errors.push(FieldError::new(at("week"), format!("is required for {}: one of the weeks list_products shows", product.code)));
        }
        return None;
    };
    if product.week_rule == WeekRule::None {
        errors.push(FieldError::new(at("week"), format!("{} has no week: leave week out", product.code)));
        return None;
    }
    let Some(week) = Week::parse_date(raw) else {
        errors.push(FieldError::new(at("week"), "must be a Monday as YYYY-MM-DD"));
        return None;
    };
    if !offered.contains(&week) {
        let (first, last) =
            (offered.first().map(Week::to_string).unwrap_or_default(), offered.last().map(Week::to_string).unwrap_or_default());
        errors.push(FieldError::new(at("week"), format!("is not offered for {}: choose a Monday from {first} to {last}", product.code)));
        return None;
    }
    if ProductKind::of(&product.code).launches() && facts.full_weeks.contains(&week) {
        errors.push(FieldError::new(at("week"), "is full: every paid launch place of that week is taken; choose another week"));
        return None;
    }
    Some(week)
}

fn check_amount(
    item: &ItemRequest,
    product: &Product,
    kind: ProductKind,
    at: &dyn Fn(&str) -> String,
    errors: &mut Vec<FieldError>,
) -> Option<Cents> {
    let amount = item.amount_cents?;
    if kind != ProductKind::BillboardMin {
        errors.push(FieldError::new(at("amount_cents"), "is only for billboard_min"));
        return None;
    }
    if amount < product.price.get() {
        errors.push(FieldError::new(at("amount_cents"), format!("must be at least the current minimum, {} cents", product.price.get())));
        return None;
    }
    Some(Cents::new(amount))
}

fn check_categories(
    item: &ItemRequest,
    kind: ProductKind,
    listing: Option<&PurchaseFacts>,
    facts: &Facts,
    at: &dyn Fn(&str) -> String,
    errors: &mut Vec<FieldError>,
) -> Vec<String> {
    let Some(categories) = &item.categories else {
        if kind == ProductKind::ExtraCategories {
            errors.push(FieldError::new(at("categories"), format!("is required: 1 to {MAX_EXTRA_CATEGORIES} category slugs")));
        }
        return Vec::new();
    };
    if kind != ProductKind::ExtraCategories {
        errors.push(FieldError::new(at("categories"), "is only for extra_categories"));
        return Vec::new();
    }
    if categories.is_empty() || categories.len() > MAX_EXTRA_CATEGORIES {
        errors.push(FieldError::new(at("categories"), format!("must name 1 to {MAX_EXTRA_CATEGORIES} categories")));
        return Vec::new();
    }
    let mut unique = HashSet::new();
    for (position, slug) in categories.iter().enumerate() {
        let field = format!("{}[{position}]", at("categories"));
        let message = if !facts.categories.contains(slug) {
            Some("is not a category: list_categories names them")
        } else if !unique.insert(slug) {
            Some("is named twice")
        } else if listing.is_some_and(|listing| listing.primary_category.as_deref() == Some(slug)) {
            Some("is the listing's primary category")
        } else if listing.is_some_and(|listing| listing.categories.contains(slug)) {
            Some("is a category the listing is in already")
        } else {
            None
        };
        if let Some(message) = message {
            errors.push(FieldError::new(field, message));
        }
    }
    categories.clone()
}

/// Checks item options against the product's `options` object: each key one the product
/// declares, each value of the declared `type` and, where declared, one of its `enum`.
fn check_options(item: &ItemRequest, product: &Product, at: &dyn Fn(&str) -> String, errors: &mut Vec<FieldError>) {
    let Some(options) = item.options.as_ref().filter(|options| !options.is_empty()) else { return };
    let Some(Value::Object(allowed)) = &product.options else {
        errors.push(FieldError::new(at("options"), format!("{} has no options: leave options out", product.code)));
        return;
    };
    for (key, value) in options {
        let field = format!("{}.{key}", at("options"));
        let Some(rule) = allowed.get(key) else {
            let known: Vec<&str> = allowed.keys().map(String::as_str).collect();
            errors.push(FieldError::new(field, format!("is not an option of {}: allowed are {}", product.code, known.join(", "))));
            continue;
        };
        let type_ok = match rule.get("type").and_then(Value::as_str) {
            Some("string") => value.is_string(),
            Some("integer") => value.is_i64() || value.is_u64(),
            Some("number") => value.is_number(),
            Some("boolean") => value.is_boolean(),
            _ => true,
        };
        if !type_ok {
            errors.push(FieldError::new(field, format!("must be of type {}", rule["type"].as_str().unwrap_or("?"))));
            continue;
        }
        if let Some(choices) = rule.get("enum").and_then(Value::as_array).filter(|choices| !choices.contains(value)) {
            let names: Vec<String> =
                choices.iter().map(|choice| choice.as_str().map_or_else(|| choice.to_string(), str::to_owned)).collect();
            errors.push(FieldError::new(field, format!("must be one of {}", names.join(", "))));
        }
    }
}
