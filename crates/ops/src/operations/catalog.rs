//! `list_products`: the price list, from the database.

use crate::registry::{Input, Operation, OperationSpec};
use crate::wire::SchemaOf;
use crate::{Caller, CommerceServices, Context, NoInput, OpError};
use async_trait::async_trait;
use kernel::Week;
use orders::WeekRule;
use schemars::JsonSchema;
use serde::Serialize;

pub struct ListProducts;

/// Every product on sale.
#[derive(Debug, Serialize, JsonSchema)]
pub struct ProductList {
    pub items: Vec<ProductView>,
    /// Always `USD`.
    pub currency: &'static str,
    /// Prices exclude VAT; `quote_order` previews it.
    pub prices_include_vat: bool,
}

/// A product with its current price.
#[derive(Debug, Serialize, JsonSchema)]
pub struct ProductView {
    pub code: String,
    pub name: String,
    pub description: String,
    /// Current price in USD cents, excluding VAT. For `billboard_min`, the minimum amount.
    pub price_cents: i64,
    /// An order item with this product must name a `listing_id`.
    pub needs_listing: bool,
    /// Whether an order item may (`optional`) or must (`required`, `required_before_free_queue`)
    /// carry a `week`.
    #[schemars(with = "SchemaOf<WeekRule>")]
    pub week_rule: WeekRule,
    /// The Mondays that may be chosen as `week` right now (empty when `week_rule` is `none`).
    #[schemars(with = "Vec<SchemaOf<Week>>")]
    pub weeks: Vec<Week>,
    /// Allowed option keys and values, for products that have options.
    #[schemars(with = "Option<serde_json::Map<String, serde_json::Value>>")]
    pub options: Option<serde_json::Value>,
}

#[async_trait]
impl Operation for ListProducts {
    type Path = NoInput;
    type Query = NoInput;
    type Body = NoInput;
    type Output = ProductList;
    type Area = CommerceServices;

    const SPEC: OperationSpec = OperationSpec {
        id: "list_products",
        path: "/products",
        summary: "Products and prices",
        description: "Every purchasable product with its current price in USD cents (excluding VAT), whether it needs \
                      a listing, the launch weeks that may be chosen, and its options where it has them. Prices are \
                      set by the site's administrator: read them here, never hard-code them.",
        tag: "orders",
        ..OperationSpec::READ
    };

    async fn run(
        &self,
        commerce: Context<'_, Self::Area>,
        _: &Caller,
        _: Input<NoInput, NoInput, NoInput>,
    ) -> Result<ProductList, OpError> {
        let offers = commerce.catalog.price_list().await?;
        let items = offers
            .into_iter()
            .map(|offer| ProductView {
                code: offer.product.code,
                name: offer.product.name,
                description: offer.product.description,
                price_cents: offer.product.price.get(),
                needs_listing: offer.product.needs_listing,
                week_rule: offer.product.week_rule,
                weeks: offer.weeks,
                options: offer.product.options,
            })
            .collect();
        Ok(ProductList { items, currency: "USD", prices_include_vat: false })
    }
}
