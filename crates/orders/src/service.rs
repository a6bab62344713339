//! The order use cases: quote, checkout, the buyer's reads, and the checkout page's steps
//! (open with the token, change billing details and re-price, hand over to the provider).

use crate::catalog::{ProductRepository, WeekPolicy};
use crate::invoices::{DocumentPrinter, InvoiceRepository, Seller};
use crate::order::{Amounts, Billing, Order, OrderNumber, OrderStatus, Quote, VatSummary};
use crate::payments::{PaymentError, PaymentProvider, PaymentSession, ReturnUrls};
use crate::ports::{NewOrder, OrderRepository};
use crate::quote::{self, Facts, OrderRequest};
use crate::vat::{VatContext, VatNumberRegistry, VatPolicy, VatRateEntry, VatRateRepository, VatTreatment};
use kernel::{Cents, Clock, CountryCode, FieldError, PageRequest, Paged, RepoError, UserId, Week};
use listings::PurchaseService;
use std::collections::{HashMap, HashSet};
use std::sync::Arc;
use time::Duration;

/// How long a pending order waits for payment.
pub const ORDER_LIFETIME: Duration = Duration::hours(24);

/// Why an order use case refused.
#[derive(Debug, thiserror::Error)]
pub enum OrderError {
    /// Bad input, each failure naming its field.
    #[error("invalid order")]
    Invalid(Vec<FieldError>),
    /// No such order of this caller (or a wrong checkout token).
    #[error("no such order")]
    NotFound,
    /// The order is not pending any more: its status says what happened.
    #[error("the order is {0}, not pending")]
    NotPending(&'static str),
    #[error("the payment provider failed: {0}")]
    Provider(#[from] PaymentError),
    #[error(transparent)]
    Repo(#[from] RepoError),
}

/// The order use cases.
#[derive(Clone)]
pub struct OrdersService {
    pub(crate) orders: Arc<dyn OrderRepository>,
    products: Arc<dyn ProductRepository>,
    rates: Arc<dyn VatRateRepository>,
    registry: Option<Arc<dyn VatNumberRegistry>>,
    pub(crate) listings: PurchaseService,
    pub(crate) provider: Arc<dyn PaymentProvider>,
    pub(crate) clock: Arc<dyn Clock>,
    policy: WeekPolicy,
    seller: CountryCode,
    pub(crate) invoicing: Invoicing,
}

/// What issuing invoices and sending receipts needs.
#[derive(Clone)]
pub struct Invoicing {
    pub invoices: Arc<dyn InvoiceRepository>,
    pub printer: Arc<dyn DocumentPrinter>,
    /// The seller printed on every document.
    pub seller: Seller,
    pub mailer: Arc<dyn kernel::Mailer>,
    /// The site's address, for the links in receipts.
    pub site_url: String,
}

/// The ports and settings the order use cases run on.
pub struct OrdersDeps {
    pub orders: Arc<dyn OrderRepository>,
    pub products: Arc<dyn ProductRepository>,
    pub rates: Arc<dyn VatRateRepository>,
    /// VIES, where the network allows; none checks numbers offline only.
    pub registry: Option<Arc<dyn VatNumberRegistry>>,
    pub listings: PurchaseService,
    pub provider: Arc<dyn PaymentProvider>,
    pub clock: Arc<dyn Clock>,
    pub policy: WeekPolicy,
    /// The seller's country (a setting).
    pub seller: CountryCode,
    pub invoicing: Invoicing,
}

impl OrdersService {
    pub fn new(deps: OrdersDeps) -> Self {
        let OrdersDeps { orders, products, rates, registry, listings, provider, clock, policy, seller, invoicing } = deps;
        Self { orders, products, rates, registry, listings, provider, clock, policy, seller, invoicing }
    }

    pub fn seller_country(&self) -> &CountryCode {
        &self.seller
    }

    pub fn provider_name(&self) -> &'static str {
        self.provider.name()
    }

    /// Where the provider's payment page is, when not on this site.
    pub fn provider_page_origin(&self) -> Option<&str> {
        self.provider.page_origin()
    }

    /// Prices a request with VAT; saves nothing.
    pub async fn quote(&self, owner: UserId, request: &OrderRequest) -> Result<Quote, OrderError> {
        let facts = self.facts(owner, request).await?;
        let lines = quote::check(request, &facts).map_err(OrderError::Invalid)?;
        let billing = Billing { country: request.billing_country.clone(), vat_number: request.vat_number.clone(), ..Billing::default() };
        let net: Vec<Cents> = lines.iter().map(|line| line.amounts.subtotal).collect();
        let (vat, number_valid, amounts) = self.price(&billing, &net).await?;
        let lines = lines.into_iter().zip(amounts).map(|(line, amounts)| crate::order::Line { amounts, ..line }).collect::<Vec<_>>();
        let totals = Amounts::sum(lines.iter().map(|line| &line.amounts));
        Ok(Quote { lines, totals, vat, vat_number_valid: number_valid })
    }

    /// Creates a pending order from a request; the raw checkout token is returned once.
    pub async fn checkout(&self, owner: UserId, request: &OrderRequest) -> Result<(Order, String), OrderError> {
        let quote = self.quote(owner, request).await?;
        let now = self.clock.now();
        let token = kernel::secrets::random_token().map_err(RepoError::backend)?;
        let billing = Billing { country: request.billing_country.clone(), vat_number: request.vat_number.clone(), ..Billing::default() };
        // 50 random bits: a clash is rare, and the unique key turns one into another try.
        for _ in 0..3 {
            let new = NewOrder {
                number: OrderNumber::random().map_err(RepoError::backend)?,
                owner,
                lines: quote.lines.clone(),
                totals: quote.totals,
                vat: quote.vat.clone(),
                billing: billing.clone(),
                token_hash: kernel::secrets::sha256_hex(&token),
                created_at: now,
                expires_at: now + ORDER_LIFETIME,
            };
            match self.orders.insert(&new).await {
                Ok(order) => return Ok((order, token)),
                Err(RepoError::Duplicate(_)) => continue,
                Err(err) => return Err(err.into()),
            }
        }
        Err(RepoError::Duplicate("orders.number".into()).into())
    }

    /// A new checkout token for one of `owner`'s orders (the old one stops working); returned
    /// once, stored hashed.
    pub async fn renew_checkout_token(&self, owner: UserId, number: &str) -> Result<String, OrderError> {
        let order = self.get(owner, number).await?;
        let token = kernel::secrets::random_token().map_err(RepoError::backend)?;
        self.orders.set_token_hash(order.id, &kernel::secrets::sha256_hex(&token)).await?;
        Ok(token)
    }

    /// Every VAT rate, by country and date (administration).
    pub async fn vat_rates(&self) -> Result<Vec<VatRateEntry>, OrderError> {
        Ok(self.rates.list().await?)
    }

    /// Sets a country's rate from a date on (administration); quotes from that day use it.
    pub async fn set_vat_rate(&self, entry: &VatRateEntry) -> Result<(), OrderError> {
        Ok(self.rates.set(entry).await?)
    }

    pub async fn list(&self, owner: UserId, page: PageRequest) -> Result<Paged<Order>, OrderError> {
        Ok(self.orders.owned(owner, page).await?)
    }

    /// One of `owner`'s orders; someone else's is `NotFound`.
    pub async fn get(&self, owner: UserId, number: &str) -> Result<Order, OrderError> {
        let number = OrderNumber::parse(number).ok_or(OrderError::NotFound)?;
        match self.orders.by_number(&number).await? {
            Some((order, _)) if order.owner == owner => Ok(order),
            _ => Err(OrderError::NotFound),
        }
    }

    /// Any order, for the site team.
    pub async fn find(&self, number: &str) -> Result<Order, OrderError> {
        let number = OrderNumber::parse(number).ok_or(OrderError::NotFound)?;
        Ok(self.orders.by_number(&number).await?.ok_or(OrderError::NotFound)?.0)
    }

    pub async fn all(&self, status: Option<OrderStatus>, limit: u64) -> Result<Vec<Order>, OrderError> {
        Ok(self.orders.all(status, limit).await?)
    }

    /// The order behind a checkout link; a wrong token is `NotFound`, like an unknown number.
    pub async fn open_checkout(&self, number: &str, token: &str) -> Result<Order, OrderError> {
        let number = OrderNumber::parse(number).ok_or(OrderError::NotFound)?;
        let (order, token_hash) = self.orders.by_number(&number).await?.ok_or(OrderError::NotFound)?;
        if !kernel::secrets::hash_matches(token, &token_hash) {
            return Err(OrderError::NotFound);
        }
        Ok(order)
    }

    /// The checkout page's billing form: new details re-price the pending order, so the VAT
    /// shown is the VAT charged.
    pub async fn update_billing(&self, number: &str, token: &str, billing: Billing) -> Result<Order, OrderError> {
        let order = self.open_checkout(number, token).await?;
        if order.status != OrderStatus::Pending {
            return Err(OrderError::NotPending(order.status.as_str()));
        }
        let net: Vec<Cents> = order.lines.iter().map(|line| line.line.amounts.subtotal).collect();
        let (vat, _, amounts) = self.price(&billing, &net).await?;
        let totals = Amounts::sum(&amounts);
        // A payment session opened at the old price must not take a payment any more.
        if let Some(session) = &order.provider_session {
            self.provider.close_session(session).await?;
        }
        if !self.orders.reprice(order.id, &billing, &vat, &amounts, totals, self.clock.now()).await? {
            return Err(OrderError::NotPending("no longer pending"));
        }
        self.open_checkout(number, token).await
    }

    /// The buyer cancels a pending order on its checkout page; its open payment session is
    /// closed first, so it takes no payment (one that arrives anyway is refunded).
    pub async fn cancel(&self, number: &str, token: &str) -> Result<Order, OrderError> {
        let order = self.open_checkout(number, token).await?;
        if order.status != OrderStatus::Pending {
            return Err(OrderError::NotPending(order.status.as_str()));
        }
        if let Some(session) = &order.provider_session {
            self.provider.close_session(session).await?;
        }
        if !self
            .orders
            .transition(order.id, &[OrderStatus::Pending], OrderStatus::Canceled, Some("canceled by the buyer"), self.clock.now())
            .await?
        {
            return Err(OrderError::NotPending("no longer pending"));
        }
        self.open_checkout(number, token).await
    }

    /// Hands a pending order with a billing country over to the payment provider.
    pub async fn begin_payment(&self, number: &str, token: &str, urls: &ReturnUrls) -> Result<PaymentSession, OrderError> {
        let order = self.open_checkout(number, token).await?;
        if order.status != OrderStatus::Pending {
            return Err(OrderError::NotPending(order.status.as_str()));
        }
        if order.vat.treatment == VatTreatment::CountryNeeded {
            return Err(OrderError::Invalid(vec![FieldError::new("billing_country", "is needed before payment: it decides the VAT")]));
        }
        let session = self.provider.begin(&order, urls).await?;
        self.orders.set_session(order.id, self.provider.name(), &session.id, self.clock.now()).await?;
        Ok(session)
    }

    /// VAT for lines of `net` cents under `billing`: the summary, whether the number passed, and
    /// each line priced.
    async fn price(&self, billing: &Billing, net: &[Cents]) -> Result<(VatSummary, bool, Vec<Amounts>), RepoError> {
        let policy = VatPolicy { rates: self.rates.as_ref(), registry: self.registry.as_deref() };
        let context = VatContext { seller: &self.seller, buyer: billing.country.as_ref(), vat_number: billing.vat_number.as_deref() };
        let decision = policy.decide(context, self.clock.now().date()).await?;
        let amounts = net.iter().map(|subtotal| Amounts::of(*subtotal, decision.rate)).collect();
        Ok((VatSummary { rate: decision.rate, treatment: decision.treatment, check: decision.check }, decision.number_valid, amounts))
    }

    /// Everything the check of `request` reads, read once.
    async fn facts(&self, owner: UserId, request: &OrderRequest) -> Result<Facts, RepoError> {
        let products = self.products.list_active().await?;
        let mut listings = HashMap::new();
        for id in request.items.iter().filter_map(|item| item.listing_id).collect::<HashSet<_>>() {
            if let Some(facts) = self.listings.facts(owner, id).await? {
                listings.insert(id, facts);
            }
        }
        let slugs: Vec<String> =
            request.items.iter().flat_map(|item| item.categories.iter().flatten().cloned()).collect::<HashSet<_>>().into_iter().collect();
        let categories =
            if slugs.is_empty() { HashSet::new() } else { self.listings.existing_categories(&slugs).await?.into_iter().collect() };
        let current_week = Week::at(self.clock.now(), self.policy.launch_offset);
        let launches = request.items.iter().any(|item| crate::ProductKind::of(&item.product).launches() && item.week.is_some());
        let full_weeks = if launches { self.full_paid_weeks().await? } else { Vec::new() };
        Ok(Facts { products, listings, categories, current_week, policy: self.policy, full_weeks })
    }

    /// The weeks on offer for a paid launch whose places are all taken (a page shows them, not
    /// to be chosen). Two payments for a week's last place may both land: the place count is
    /// checked when the order is made, as the site's demand is far below it.
    pub async fn full_paid_weeks(&self) -> Result<Vec<Week>, RepoError> {
        let current = Week::at(self.clock.now(), self.policy.launch_offset);
        let offered = self.policy.weeks_for(crate::WeekRule::Optional, current);
        let booked = self.listings.paid_launches_booked(&offered).await?;
        Ok(booked.into_iter().filter(|(_, count)| *count >= self.policy.paid_launches_per_week).map(|(week, _)| week).collect())
    }
}
