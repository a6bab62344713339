//! The product catalogue: what can be bought, at what price, and which weeks may be chosen.

use async_trait::async_trait;
use kernel::{Cents, Clock, RepoError, Week};
use serde::Serialize;
use std::sync::Arc;
use time::UtcOffset;

/// Whether and from which window a product lets the buyer choose a launch week.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum WeekRule {
    /// The product has nothing to do with a week.
    None,
    /// A week may be chosen among the paid weeks; without one the product takes effect at once.
    Optional,
    /// A week must be chosen among the paid weeks.
    Required,
    /// A week must be chosen before the free queue begins (skip the queue).
    RequiredBeforeFreeQueue,
}

impl WeekRule {
    pub fn as_str(self) -> &'static str {
        match self {
            Self::None => "none",
            Self::Optional => "optional",
            Self::Required => "required",
            Self::RequiredBeforeFreeQueue => "required_before_free_queue",
        }
    }

    pub fn parse(raw: &str) -> Option<Self> {
        [Self::None, Self::Optional, Self::Required, Self::RequiredBeforeFreeQueue].into_iter().find(|rule| rule.as_str() == raw)
    }
}

/// A product as the administrator set it up.
#[derive(Debug, Clone, PartialEq)]
pub struct Product {
    pub code: String,
    pub name: String,
    pub description: String,
    pub price: Cents,
    pub needs_listing: bool,
    pub week_rule: WeekRule,
    /// A JSON object describing the allowed option keys and values, for products that have them.
    pub options: Option<serde_json::Value>,
}

/// A product with the weeks a buyer may choose right now.
#[derive(Debug, Clone, PartialEq)]
pub struct ProductOffer {
    pub product: Product,
    pub weeks: Vec<Week>,
}

/// Where products are kept.
#[async_trait]
pub trait ProductRepository: Send + Sync {
    /// Products on sale, in display order.
    async fn list_active(&self) -> Result<Vec<Product>, RepoError>;
    /// Sets the price of product `code`; false when there is no such product.
    async fn set_price(&self, code: &str, price: Cents) -> Result<bool, RepoError>;
}

/// Which weeks are open for choosing (site settings).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct WeekPolicy {
    /// Offset of the launch time zone from UTC.
    pub launch_offset: UtcOffset,
    /// How many weeks ahead a paid launch may be booked (counting next week as 1).
    pub paid_weeks_ahead: u32,
    /// The free queue starts this many weeks ahead; skipping it means a week before that.
    pub free_queue_min_weeks: u32,
    /// Paid launches a week holds; a full week is not sold.
    pub paid_launches_per_week: u32,
}

impl Default for WeekPolicy {
    fn default() -> Self {
        Self { launch_offset: UtcOffset::UTC, paid_weeks_ahead: 12, free_queue_min_weeks: 6, paid_launches_per_week: 30 }
    }
}

impl WeekPolicy {
    /// The weeks a product with `rule` may be given, starting with next week.
    pub fn weeks_for(&self, rule: WeekRule, current: Week) -> Vec<Week> {
        let last = match rule {
            WeekRule::None => 0,
            WeekRule::Optional | WeekRule::Required => self.paid_weeks_ahead,
            WeekRule::RequiredBeforeFreeQueue => self.free_queue_min_weeks.saturating_sub(1),
        };
        (1..=i64::from(last)).map(|ahead| current.plus_weeks(ahead)).collect()
    }
}

/// The catalogue use cases.
#[derive(Clone)]
pub struct CatalogService {
    products: Arc<dyn ProductRepository>,
    clock: Arc<dyn Clock>,
    policy: WeekPolicy,
}

impl CatalogService {
    pub fn new(products: Arc<dyn ProductRepository>, clock: Arc<dyn Clock>, policy: WeekPolicy) -> Self {
        Self { products, clock, policy }
    }

    /// The site team sets a price (it applies to the next quote; orders keep the price they had).
    pub async fn set_price(&self, code: &str, price: Cents) -> Result<bool, RepoError> {
        self.products.set_price(code, price).await
    }

    /// Every product on sale with its current price and the weeks that may be chosen now.
    pub async fn price_list(&self) -> Result<Vec<ProductOffer>, RepoError> {
        let current = Week::at(self.clock.now(), self.policy.launch_offset);
        let products = self.products.list_active().await?;
        Ok(products.into_iter().map(|product| ProductOffer { weeks: self.policy.weeks_for(product.week_rule, current), product }).collect())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn week_windows() {
        let policy = WeekPolicy::default();
        let current = Week::parse_date("2026-11-18").unwrap();
        let launch = policy.weeks_for(WeekRule::Optional, current);
        assert_eq!(launch.len(), 12);
        assert_eq!(launch[0].to_string(), "2026-11-23");
        assert_eq!(launch[11].to_string(), "2027-02-08");
        let skip = policy.weeks_for(WeekRule::RequiredBeforeFreeQueue, current);
        assert_eq!(skip.len(), 5, "weeks 1..=5, before the free queue's first week (6)");
        assert!(policy.weeks_for(WeekRule::None, current).is_empty());
    }
}
