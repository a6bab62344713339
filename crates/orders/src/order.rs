//! Orders and their lines: the order number, the status machine, and the price snapshot each
//! line keeps (what was charged, whatever the price list says later).

use crate::vat::{VatNumberCheck, VatRate, VatTreatment};
use kernel::{Cents, CountryCode, ListingId, UserId, Week};
use serde::Serialize;
use time::OffsetDateTime;

/// An order's public number: `LD-` and 10 base32 characters (50 random bits).
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct OrderNumber(String);

impl OrderNumber {
    /// The longest a number may be on the wire (`decisions.md`).
    pub const MAX_LEN: usize = 32;
    const ALPHABET: &'static [u8; 32] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZ234567";

    /// A new random number.
    ///
    /// # Errors
    /// When the operating system cannot provide randomness.
    pub fn random() -> Result<Self, getrandom::Error> {
        let mut bytes = [0u8; 10];
        getrandom::fill(&mut bytes)?;
        // Each byte's low five bits pick a character: 10 characters of 32 symbols.
        let tail: String = bytes.iter().map(|byte| char::from(Self::ALPHABET[usize::from(byte & 31)])).collect();
        Ok(Self(format!("LD-{tail}")))
    }

    /// Reads a number as the path gives it (case-insensitive); anything else is no order of ours.
    pub fn parse(raw: &str) -> Option<Self> {
        let upper = raw.to_ascii_uppercase();
        let tail = upper.strip_prefix("LD-")?;
        (tail.len() == 10 && tail.bytes().all(|b| Self::ALPHABET.contains(&b))).then_some(Self(upper))
    }

    /// Wraps a number read back from the store.
    pub fn from_stored(raw: String) -> Self {
        Self(raw)
    }

    pub fn as_str(&self) -> &str {
        &self.0
    }
}

impl std::fmt::Display for OrderNumber {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

/// Where an order is (`decisions.md`, Statuses: Order).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum OrderStatus {
    /// Created by checkout, waiting for payment (24 hours).
    Pending,
    /// Paid; its lines are being fulfilled.
    Paid,
    /// Every line fulfilled.
    Fulfilled,
    /// Not paid within 24 hours.
    Expired,
    /// Canceled before payment.
    Canceled,
    /// The payment was given back.
    Refunded,
    /// A payment arrived that does not match the order (amount or currency): the site team looks at it.
    NeedsReview,
}

impl OrderStatus {
    pub const ALL: [Self; 7] =
        [Self::Pending, Self::Paid, Self::Fulfilled, Self::Expired, Self::Canceled, Self::Refunded, Self::NeedsReview];

    pub fn as_str(self) -> &'static str {
        match self {
            Self::Pending => "pending",
            Self::Paid => "paid",
            Self::Fulfilled => "fulfilled",
            Self::Expired => "expired",
            Self::Canceled => "canceled",
            Self::Refunded => "refunded",
            Self::NeedsReview => "needs_review",
        }
    }

    pub fn parse(raw: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|status| status.as_str() == raw)
    }

    /// Whether the machine allows moving from `self` to `next`.
    pub fn may_become(self, next: Self) -> bool {
        use OrderStatus::*;
        matches!(
            (self, next),
            (Pending, Paid | Expired | Canceled | NeedsReview)
                | (Paid, Fulfilled | Refunded)
                | (Fulfilled, Refunded)
                | (Expired | Canceled | NeedsReview, Refunded)
                | (NeedsReview, Paid)
        )
    }
}

/// What a product does when paid for. Codes the service does not know are done by the site team
/// (a task), so an administrator can sell something new without a release.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ProductKind {
    Launch,
    SkipQueue,
    Featured,
    DoneForYou,
    LaunchBundle,
    ExtraCategories,
    Relaunch,
    AiReview,
    BillboardMin,
    Other,
}

impl ProductKind {
    pub fn of(code: &str) -> Self {
        match code {
            "launch" => Self::Launch,
            "skip_queue" => Self::SkipQueue,
            "featured" => Self::Featured,
            "done_for_you" => Self::DoneForYou,
            "launch_bundle" => Self::LaunchBundle,
            "extra_categories" => Self::ExtraCategories,
            "relaunch" => Self::Relaunch,
            "ai_review" => Self::AiReview,
            "billboard_min" => Self::BillboardMin,
            _ => Self::Other,
        }
    }

    /// Whether the product launches the listing on the paid plan.
    pub fn launches(self) -> bool {
        matches!(self, Self::Launch | Self::LaunchBundle)
    }
}

/// The money of a line or of an order, in USD cents.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Amounts {
    pub subtotal: Cents,
    pub vat: Cents,
    pub total: Cents,
}

impl Amounts {
    pub fn of(subtotal: Cents, rate: VatRate) -> Self {
        let vat = Cents::new(rate.vat_on(subtotal.get()));
        Self { subtotal, vat, total: Cents::new(subtotal.get() + vat.get()) }
    }

    pub fn sum<'a>(all: impl IntoIterator<Item = &'a Amounts>) -> Self {
        all.into_iter().fold(Self::default(), |sum, line| Self {
            subtotal: Cents::new(sum.subtotal.get() + line.subtotal.get()),
            vat: Cents::new(sum.vat.get() + line.vat.get()),
            total: Cents::new(sum.total.get() + line.total.get()),
        })
    }
}

/// One priced line, as quoted and as kept on an order.
#[derive(Debug, Clone, PartialEq)]
pub struct Line {
    pub product_code: String,
    pub product_name: String,
    pub listing_id: Option<ListingId>,
    pub week: Option<Week>,
    /// The amount chosen (billboard).
    pub amount: Option<Cents>,
    pub categories: Vec<String>,
    pub options: Option<serde_json::Value>,
    pub amounts: Amounts,
}

/// The billing details that decide the VAT.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Billing {
    pub name: Option<String>,
    pub address: Option<String>,
    pub country: Option<CountryCode>,
    pub vat_number: Option<String>,
}

/// The VAT part of a quote or an order.
#[derive(Debug, Clone, PartialEq)]
pub struct VatSummary {
    pub rate: VatRate,
    pub treatment: VatTreatment,
    pub check: VatNumberCheck,
}

/// Lines priced with VAT: what `quote_order` returns and what checkout keeps.
#[derive(Debug, Clone, PartialEq)]
pub struct Quote {
    pub lines: Vec<Line>,
    pub totals: Amounts,
    pub vat: VatSummary,
    /// Whether the VAT number given passed its check.
    pub vat_number_valid: bool,
}

/// A stored order line.
#[derive(Debug, Clone, PartialEq)]
pub struct OrderLine {
    pub id: i64,
    pub line: Line,
    pub fulfilled: bool,
    pub fulfilled_at: Option<OffsetDateTime>,
    /// What fulfilment did ("live at once: the week of 2026-11-16 had passed").
    pub outcome: Option<String>,
}

/// A stored order.
#[derive(Debug, Clone, PartialEq)]
pub struct Order {
    pub id: i64,
    pub number: OrderNumber,
    pub owner: UserId,
    pub status: OrderStatus,
    pub status_reason: Option<String>,
    pub totals: Amounts,
    pub vat: VatSummary,
    pub billing: Billing,
    pub lines: Vec<OrderLine>,
    /// The payment provider handling it, once payment began.
    pub provider: Option<String>,
    pub provider_session: Option<String>,
    pub payment_id: Option<String>,
    /// What the payment brought (it differs from the total on an order that needs review).
    pub paid_amount: Option<Cents>,
    pub created_at: OffsetDateTime,
    pub expires_at: OffsetDateTime,
    pub paid_at: Option<OffsetDateTime>,
    pub refunded_at: Option<OffsetDateTime>,
}

impl Order {
    /// Only USD is sold.
    pub const CURRENCY: &'static str = "USD";

    pub fn reverse_charge(&self) -> bool {
        self.vat.treatment == VatTreatment::ReverseCharge
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers_are_ld_and_ten_base32_characters() {
        let number = OrderNumber::random().unwrap();
        assert_eq!(number.as_str().len(), 13);
        assert_eq!(OrderNumber::parse(number.as_str()), Some(number.clone()));
        assert_eq!(OrderNumber::parse(&number.as_str().to_lowercase()), Some(number));
        for bad in ["LD-", "LD-ABCDEFGHI1", "XX-ABCDEFGHIJ", "LD-ABCDEFGHIJK", "../etc"] {
            assert_eq!(OrderNumber::parse(bad), None, "{bad}");
        }
    }

    #[test]
    fn the_status_machine() {
        use OrderStatus::*;
        assert!(Pending.may_become(Paid));
        assert!(Paid.may_become(Fulfilled));
        assert!(Expired.may_become(Refunded));
        assert!(!Fulfilled.may_become(Pending));
        assert!(!Expired.may_become(Paid), "a late payment is refunded, never taken");
        assert!(!Refunded.may_become(Paid));
    }
}
