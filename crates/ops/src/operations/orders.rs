//! The order operations: `quote_order`, `create_checkout`, `list_my_orders` and `get_order`.
//! The API never takes card details: checkout returns a link to the site's checkout page, where
//! the person enters billing details and pays themselves.

use crate::registry::{Input, Operation, OperationSpec};
use crate::wire::PageOf;
use crate::wire::SchemaOf;
use crate::wire::{Pagination, rfc3339};
use crate::{Caller, CommerceServices, Context, HttpMethod, InputPart, NoInput, OpError, RateClass};
use accounts::Scope;
use async_trait::async_trait;
use garde::Validate;
use kernel::{CountryCode, ListingId};
use orders::{Amounts, Line, Order, OrderLine, OrderRequest, OrderStatus, Quote, VatNumberCheck, VatTreatment};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

/// One item of an order request.
#[derive(Debug, Deserialize, JsonSchema, Validate)]
#[serde(deny_unknown_fields)]
pub struct OrderItemBody {
    /// A product code from `list_products` (`launch`, `skip_queue`, `featured`, ...).
    #[garde(length(chars, min = 1, max = 60))]
    pub product: String,
    /// The listing the product is for: required for products with `needs_listing`; one of yours.
    #[serde(default, deserialize_with = "crate::input::optional_whole_number")]
    #[garde(range(min = 1))]
    pub listing_id: Option<i64>,
    /// A Monday (`YYYY-MM-DD`) among the weeks `list_products` shows for the product. `launch`:
    /// optional, omit to go live at payment; `skip_queue` and `relaunch`: required.
    #[garde(length(chars, max = 10))]
    #[schemars(extend("format" = "date"))]
    pub week: Option<String>,
    /// `billboard_min` only: the amount in USD cents, at least the product's price.
    #[serde(default, deserialize_with = "crate::input::optional_whole_number")]
    #[garde(range(min = 1, max = 100_000_000))]
    pub amount_cents: Option<i64>,
    /// `extra_categories` only: 1 to 3 category slugs, not the listing's primary category.
    #[garde(length(max = 10))]
    pub categories: Option<Vec<String>>,
    /// For products whose `list_products` entry has `options`: values for those keys.
    #[garde(custom(at_most_20_properties))]
    #[schemars(extend("maxProperties" = 20))]
    pub options: Option<Map<String, Value>>,
}

fn country_code(country: &Option<String>, _: &()) -> garde::Result {
    match country {
        Some(country) => CountryCode::parse(country).map(drop).map_err(|err| garde::Error::new(err.0)),
        None => Ok(()),
    }
}

fn at_most_20_properties(options: &Option<Map<String, Value>>, _: &()) -> garde::Result {
    match options {
        Some(options) if options.len() > 20 => Err(garde::Error::new("at most 20 properties")),
        _ => Ok(()),
    }
}

/// An order request (`quote_order` and `create_checkout`).
#[derive(Debug, Deserialize, JsonSchema, Validate)]
#[serde(deny_unknown_fields)]
pub struct OrderRequestBody {
    /// 1 to 20 items.
    #[garde(length(min = 1, max = 20), dive)]
    pub items: Vec<OrderItemBody>,
    /// The buyer's country (ISO 3166 alpha-2), for the VAT preview. The checkout page asks for it
    /// before payment when it is left out.
    // Read as text and checked with the other fields, so one 400 names every bad field of the
    // body (a `CountryCode` here would stop the body's parsing at the first bad value).
    #[garde(custom(country_code))]
    #[schemars(with = "Option<SchemaOf<CountryCode>>")]
    pub billing_country: Option<String>,
    /// An EU VAT number (with its country prefix): an EU business in another member state than
    /// the seller's gets reverse charge when it is valid.
    #[garde(length(chars, max = 32))]
    pub vat_number: Option<String>,
}

impl InputPart for OrderRequestBody {}

impl OrderRequestBody {
    fn request(&self) -> OrderRequest {
        OrderRequest {
            items: self
                .items
                .iter()
                .map(|item| orders::ItemRequest {
                    product: item.product.clone(),
                    listing_id: item.listing_id.map(ListingId::new),
                    week: item.week.clone(),
                    amount_cents: item.amount_cents,
                    categories: item.categories.clone(),
                    options: item.options.clone(),
                })
                .collect(),
            // Checked by `country_code` before the operation runs.
            billing_country: self.billing_country.as_deref().and_then(|country| CountryCode::parse(country).ok()),
            vat_number: self.vat_number.clone().filter(|number| !number.trim().is_empty()),
        }
    }
}

/// `{number}`: one of the caller's orders.
#[derive(Debug, Deserialize, JsonSchema, Validate)]
#[serde(deny_unknown_fields)]
pub struct OrderPath {
    /// The order number (`LD-` and 10 characters).
    #[garde(length(chars, min = 1, max = 32))]
    pub number: String,
}

impl InputPart for OrderPath {}

/// A priced line.
#[derive(Debug, Serialize, JsonSchema)]
pub struct LineView {
    pub product: String,
    pub name: String,
    pub listing_id: Option<i64>,
    /// The launch week bought (a Monday), where the product has one.
    pub week: Option<String>,
    /// `billboard_min`: the amount chosen.
    pub amount_cents: Option<i64>,
    pub categories: Vec<String>,
    #[schemars(with = "Option<Map<String, Value>>")]
    pub options: Option<Value>,
    /// USD cents excluding VAT.
    pub subtotal_cents: i64,
    pub vat_cents: i64,
    /// `subtotal_cents` + `vat_cents`.
    pub total_cents: i64,
}

impl LineView {
    fn of(line: &Line) -> Self {
        Self {
            product: line.product_code.clone(),
            name: line.product_name.clone(),
            listing_id: line.listing_id.map(ListingId::get),
            week: line.week.map(|week| week.to_string()),
            amount_cents: line.amount.map(kernel::Cents::get),
            categories: line.categories.clone(),
            options: line.options.clone(),
            subtotal_cents: line.amounts.subtotal.get(),
            vat_cents: line.amounts.vat.get(),
            total_cents: line.amounts.total.get(),
        }
    }
}

/// The VAT of a quote or an order.
#[derive(Debug, Serialize, JsonSchema)]
pub struct VatView {
    /// The rate charged, in percent (19, 25.5; 0 for reverse charge and outside the EU).
    pub rate_percent: f64,
    /// Why: `domestic` (the seller's country), `eu_consumer` (the buyer country's rate),
    /// `reverse_charge`, `outside_scope` (outside the EU), `country_needed` (no billing country yet).
    #[schemars(with = "SchemaOf<VatTreatment>")]
    pub treatment: VatTreatment,
    pub reverse_charge: bool,
    /// Which check the VAT number got: `none` (none given), `checksum` (format and check digits,
    /// offline), `vies` (the EU's VIES service), `vies_unavailable` (VIES did not answer; the
    /// offline check decided).
    #[schemars(with = "SchemaOf<VatNumberCheck>")]
    pub vat_number_check: VatNumberCheck,
    /// The seller's country (`get_site_info` shows it too).
    pub seller_country: String,
}

impl VatView {
    fn of(vat: &orders::VatSummary, commerce: Context<'_, CommerceServices>) -> Self {
        Self {
            rate_percent: vat.rate.percent(),
            treatment: vat.treatment,
            reverse_charge: vat.treatment == VatTreatment::ReverseCharge,
            vat_number_check: vat.check,
            seller_country: commerce.orders.seller_country().to_string(),
        }
    }
}

/// A quote: prices with a VAT preview. Nothing was saved or charged.
#[derive(Debug, Serialize, JsonSchema)]
pub struct QuoteView {
    pub items: Vec<LineView>,
    /// Always `USD`.
    pub currency: &'static str,
    pub subtotal_cents: i64,
    pub vat_cents: i64,
    pub total_cents: i64,
    /// The VAT rate applied to every line, in percent.
    pub vat_rate: f64,
    pub reverse_charge: bool,
    #[schemars(with = "SchemaOf<VatNumberCheck>")]
    pub vat_number_check: VatNumberCheck,
    /// Whether the VAT number given passed its check (false when none was given).
    pub vat_number_valid: bool,
    pub vat: VatView,
}

fn totals(amounts: Amounts) -> (i64, i64, i64) {
    (amounts.subtotal.get(), amounts.vat.get(), amounts.total.get())
}

impl QuoteView {
    fn of(quote: &Quote, commerce: Context<'_, CommerceServices>) -> Self {
        let (subtotal_cents, vat_cents, total_cents) = totals(quote.totals);
        Self {
            items: quote.lines.iter().map(LineView::of).collect(),
            currency: Order::CURRENCY,
            subtotal_cents,
            vat_cents,
            total_cents,
            vat_rate: quote.vat.rate.percent(),
            reverse_charge: quote.vat.treatment == VatTreatment::ReverseCharge,
            vat_number_check: quote.vat.check,
            vat_number_valid: quote.vat_number_valid,
            vat: VatView::of(&quote.vat, commerce),
        }
    }
}

/// An order line with its fulfilment.
#[derive(Debug, Serialize, JsonSchema)]
pub struct OrderLineView {
    #[serde(flatten)]
    pub line: LineView,
    /// Whether what was bought has been done.
    pub fulfilled: bool,
    pub fulfilled_at: Option<String>,
    /// What fulfilment did ("scheduled for the week of ...", "live at once: the week ... had begun").
    pub outcome: Option<String>,
}

/// An order.
#[derive(Debug, Serialize, JsonSchema)]
pub struct OrderView {
    pub number: String,
    /// `pending` (waiting for payment, 24 hours), `paid`, `fulfilled`, `expired`, `canceled`,
    /// `refunded` or `needs_review` (a payment that did not match; the site team looks at it).
    #[schemars(with = "SchemaOf<OrderStatus>")]
    pub status: OrderStatus,
    /// Why the order is in its status, where there is more to say.
    pub status_reason: Option<String>,
    pub currency: &'static str,
    pub subtotal_cents: i64,
    pub vat_cents: i64,
    pub total_cents: i64,
    pub vat: VatView,
    pub billing_country: Option<String>,
    pub lines: Vec<OrderLineView>,
    pub created_at: String,
    /// When a pending order expires.
    pub expires_at: String,
    pub paid_at: Option<String>,
    pub refunded_at: Option<String>,
}

impl OrderView {
    fn of(order: &Order, commerce: Context<'_, CommerceServices>) -> Self {
        let (subtotal_cents, vat_cents, total_cents) = totals(order.totals);
        let line = |line: &OrderLine| OrderLineView {
            line: LineView::of(&line.line),
            fulfilled: line.fulfilled,
            fulfilled_at: line.fulfilled_at.map(rfc3339),
            outcome: line.outcome.clone().filter(|outcome| !outcome.is_empty()),
        };
        Self {
            number: order.number.to_string(),
            status: order.status,
            status_reason: order.status_reason.clone(),
            currency: Order::CURRENCY,
            subtotal_cents,
            vat_cents,
            total_cents,
            vat: VatView::of(&order.vat, commerce),
            billing_country: order.billing.country.as_ref().map(ToString::to_string),
            lines: order.lines.iter().map(line).collect(),
            created_at: rfc3339(order.created_at),
            expires_at: rfc3339(order.expires_at),
            paid_at: order.paid_at.map(rfc3339),
            refunded_at: order.refunded_at.map(rfc3339),
        }
    }
}

/// What `create_checkout` returns.
#[derive(Debug, Serialize, JsonSchema)]
pub struct CheckoutView {
    /// The secure page on the site where the person reviews the order, enters billing details
    /// and pays. Give it to the person; never ask them for card details.
    pub checkout_url: String,
    pub order: OrderView,
    pub next_step: String,
}

/// The checkout page of an order with its token.
fn checkout_url(commerce: Context<'_, CommerceServices>, number: &str, token: &str) -> String {
    format!("{}/checkout/{number}?t={token}", commerce.site.site_url)
}

/// What the order operations share.
const ORDERS_WRITE: OperationSpec = OperationSpec {
    method: HttpMethod::Post,
    scope: Some(Scope::OrdersWrite),
    tag: "orders",
    rate: RateClass::Write,
    ..OperationSpec::READ
};

const ORDERS_READ: OperationSpec = OperationSpec { scope: Some(Scope::AccountRead), tag: "orders", ..OperationSpec::READ };

pub struct QuoteOrder;

#[async_trait]
impl Operation for QuoteOrder {
    type Path = NoInput;
    type Query = NoInput;
    type Body = OrderRequestBody;
    type Output = QuoteView;
    type Area = CommerceServices;

    const SPEC: OperationSpec = OperationSpec {
        id: "quote_order",
        path: "/orders/quote",
        summary: "Price an order with a VAT preview",
        description: "Prices the items from the site's current price list (USD cents, excluding VAT) and previews VAT for \
                      the billing country and VAT number: per line and in total subtotal_cents, vat_cents and total_cents, \
                      the rate, reverse_charge, and which VAT-number check was made. Every item is checked (product, \
                      listing, week, amount, categories, options) and each problem names its place (items[2].week). \
                      Nothing is saved or charged.",
        ..ORDERS_WRITE
    };

    async fn run(
        &self,
        commerce: Context<'_, Self::Area>,
        caller: &Caller,
        input: Input<NoInput, NoInput, OrderRequestBody>,
    ) -> Result<QuoteView, OpError> {
        let quote = commerce.orders.quote(caller.user_id()?, &input.body.request()).await?;
        Ok(QuoteView::of(&quote, commerce))
    }
}

pub struct CreateCheckout;

#[async_trait]
impl Operation for CreateCheckout {
    type Path = NoInput;
    type Query = NoInput;
    type Body = OrderRequestBody;
    type Output = CheckoutView;
    type Area = CommerceServices;

    const SPEC: OperationSpec = OperationSpec {
        id: "create_checkout",
        path: "/orders/checkout",
        success_status: 201,
        idempotent: true,
        summary: "Create an order and its checkout link",
        description: "Checks and prices the items like quote_order, then creates a pending order and returns checkout_url: \
                      a secure page on the site where the person reviews the order, enters billing details and pays \
                      themselves (card, Apple Pay, Google Pay, and other methods where offered). Give the link to the \
                      person. Never ask the user for card details: this API never takes them. The order expires unpaid \
                      after 24 hours; read its status with get_order.",
        rate: RateClass::CreateCheckout,
        ..ORDERS_WRITE
    };

    /// The checkout link's token is a secret: the stored answer has the link without it.
    fn answer_to_store(body: &Value) -> Value {
        let mut stored = body.clone();
        if let Some(url) = stored["checkout_url"].as_str() {
            stored["checkout_url"] = Value::String(url.split("?t=").next().unwrap_or_default().to_owned());
        }
        stored
    }

    /// A replay issues a new token for the same order (the link of the first answer stops
    /// working): the order is never made twice, and no token is kept unhashed.
    async fn replay(&self, commerce: Context<'_, Self::Area>, caller: &Caller, mut stored: Value) -> Result<Value, OpError> {
        let number = stored["order"]["number"]
            .as_str()
            .ok_or_else(|| OpError::internal(kernel::RepoError::Backend("a stored checkout has no order number".into())))?
            .to_owned();
        let token = commerce.orders.renew_checkout_token(caller.user_id()?, &number).await?;
        stored["checkout_url"] = Value::String(checkout_url(commerce, &number, &token));
        Ok(stored)
    }

    async fn run(
        &self,
        commerce: Context<'_, Self::Area>,
        caller: &Caller,
        input: Input<NoInput, NoInput, OrderRequestBody>,
    ) -> Result<CheckoutView, OpError> {
        let (order, token) = commerce.orders.checkout(caller.user_id()?, &input.body.request()).await?;
        Ok(CheckoutView {
            checkout_url: checkout_url(commerce, order.number.as_str(), &token),
            next_step: format!(
                "Give checkout_url to the person: they pay on that page before {}. Then get_order {} shows the order paid, and each line fulfilled.",
                rfc3339(order.expires_at),
                order.number
            ),
            order: OrderView::of(&order, commerce),
        })
    }
}

pub struct ListMyOrders;

#[async_trait]
impl Operation for ListMyOrders {
    type Path = NoInput;
    type Query = Pagination;
    type Body = NoInput;
    type Output = PageOf<OrderView>;
    type Area = CommerceServices;

    const SPEC: OperationSpec = OperationSpec {
        id: "list_my_orders",
        path: "/orders",
        summary: "Your orders",
        description: "Your orders, newest first, with status, totals with VAT and lines.",
        ..ORDERS_READ
    };

    async fn run(
        &self,
        commerce: Context<'_, Self::Area>,
        caller: &Caller,
        input: Input<NoInput, Pagination, NoInput>,
    ) -> Result<PageOf<OrderView>, OpError> {
        let page = commerce.orders.list(caller.user_id()?, input.query.page_request()).await?;
        Ok(PageOf::from(page.map(|order| OrderView::of(&order, commerce))))
    }
}

pub struct GetOrder;

#[async_trait]
impl Operation for GetOrder {
    type Path = OrderPath;
    type Query = NoInput;
    type Body = NoInput;
    type Output = OrderView;
    type Area = CommerceServices;

    const SPEC: OperationSpec = OperationSpec {
        id: "get_order",
        path: "/orders/{number}",
        summary: "One of your orders",
        description: "Status, totals with VAT, payment time and lines, each with whether it was fulfilled and what was done. \
                      Someone else's order is 404.",
        not_found: true,
        ..ORDERS_READ
    };

    async fn run(
        &self,
        commerce: Context<'_, Self::Area>,
        caller: &Caller,
        input: Input<OrderPath, NoInput, NoInput>,
    ) -> Result<OrderView, OpError> {
        let order = commerce.orders.get(caller.user_id()?, &input.path.number).await?;
        Ok(OrderView::of(&order, commerce))
    }
}
