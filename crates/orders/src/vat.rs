//! VAT: which rate an order is charged, decided from the seller's and buyer's countries and
//! the buyer's VAT number, with rates read from the database (no rate is held in code).

use crate::vat_number::{MEMBER_STATES, VatNumber};
use async_trait::async_trait;
use kernel::{CountryCode, RepoError};
use serde::Serialize;
use time::Date;

/// A VAT rate in basis points: 1900 is 19 %, 2550 is 25.5 %.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub struct VatRate(u32);

impl VatRate {
    pub const ZERO: Self = Self(0);

    /// A rate of `basis_points` hundredths of a percent, at most 100 %.
    pub fn from_basis_points(basis_points: u32) -> Option<Self> {
        (basis_points <= 10_000).then_some(Self(basis_points))
    }

    /// Reads `19`, `25.5` or `7.25` (percent, at most two decimals).
    pub fn parse_percent(raw: &str) -> Option<Self> {
        let (whole, fraction) = raw.trim().split_once('.').unwrap_or((raw.trim(), ""));
        if whole.is_empty() || fraction.len() > 2 || !whole.bytes().chain(fraction.bytes()).all(|b| b.is_ascii_digit()) {
            return None;
        }
        let whole: u32 = whole.parse().ok()?;
        let fraction: u32 = if fraction.is_empty() { 0 } else { format!("{fraction:0<2}").parse().ok()? };
        Self::from_basis_points(whole.checked_mul(100)?.checked_add(fraction)?)
    }

    pub fn basis_points(self) -> u32 {
        self.0
    }

    /// The rate in percent, for display (`19`, `25.5`).
    pub fn percent(self) -> f64 {
        f64::from(self.0) / 100.0
    }

    /// The VAT on `net` cents, rounded half up to the cent.
    pub fn vat_on(self, net: i64) -> i64 {
        (i128::from(net) * i128::from(self.0) + 5_000).div_euclid(10_000) as i64
    }
}

impl std::fmt::Display for VatRate {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self.0 % 100 {
            0 => write!(f, "{} %", self.0 / 100),
            cents if cents % 10 == 0 => write!(f, "{}.{} %", self.0 / 100, cents / 10),
            cents => write!(f, "{}.{cents:02} %", self.0 / 100),
        }
    }
}

/// One row of the rate table: a country's standard rate from a date on.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct VatRateEntry {
    pub country: CountryCode,
    pub rate: VatRate,
    pub valid_from: Date,
}

/// Where VAT rates are kept.
#[async_trait]
pub trait VatRateRepository: Send + Sync {
    /// The rate of `country` in force on `day`: the entry with the latest `valid_from` not after it.
    async fn rate_on(&self, country: &CountryCode, day: Date) -> Result<Option<VatRate>, RepoError>;
    /// Every entry, by country then date.
    async fn list(&self) -> Result<Vec<VatRateEntry>, RepoError>;
    /// Adds an entry, or replaces the rate of the same country and date.
    async fn set(&self, entry: &VatRateEntry) -> Result<(), RepoError>;
}

/// Whether `country` is an EU member state.
pub fn in_eu(country: &CountryCode) -> bool {
    MEMBER_STATES.contains(&country.as_str())
}

/// Which check a VAT number passed or failed.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum VatNumberCheck {
    /// No VAT number was given.
    None,
    /// Format and check digits, offline.
    Checksum,
    /// Confirmed (or refused) by the EU's VIES service.
    Vies,
    /// The offline check passed and VIES could not answer: the number is taken as valid for now.
    ViesUnavailable,
}

impl VatNumberCheck {
    pub fn as_str(self) -> &'static str {
        match self {
            Self::None => "none",
            Self::Checksum => "checksum",
            Self::Vies => "vies",
            Self::ViesUnavailable => "vies_unavailable",
        }
    }

    pub fn parse(raw: &str) -> Option<Self> {
        [Self::None, Self::Checksum, Self::Vies, Self::ViesUnavailable].into_iter().find(|check| check.as_str() == raw)
    }
}

/// What VIES says of a number.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RegistryAnswer {
    Valid,
    Invalid,
    /// The service (or the member state's database behind it) did not answer: unknown, not invalid.
    Unavailable,
}

/// The online check of a VAT number (VIES), where the network allows one.
#[async_trait]
pub trait VatNumberRegistry: Send + Sync {
    async fn check(&self, number: &VatNumber) -> RegistryAnswer;
}

/// Why an order is charged the VAT it is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum VatTreatment {
    /// No billing country yet: no VAT shown; the checkout page asks for the country before payment.
    CountryNeeded,
    /// The buyer is in the seller's country: that country's rate.
    Domestic,
    /// An EU buyer without a valid VAT number: the buyer country's rate.
    EuConsumer,
    /// An EU business with a valid VAT number in another member state: 0 %, the buyer accounts for it.
    ReverseCharge,
    /// Outside the EU: 0 %, outside the scope of EU VAT.
    OutsideScope,
}

impl VatTreatment {
    pub fn as_str(self) -> &'static str {
        match self {
            Self::CountryNeeded => "country_needed",
            Self::Domestic => "domestic",
            Self::EuConsumer => "eu_consumer",
            Self::ReverseCharge => "reverse_charge",
            Self::OutsideScope => "outside_scope",
        }
    }

    pub fn parse(raw: &str) -> Option<Self> {
        [Self::CountryNeeded, Self::Domestic, Self::EuConsumer, Self::ReverseCharge, Self::OutsideScope]
            .into_iter()
            .find(|treatment| treatment.as_str() == raw)
    }
}

/// The VAT an order is charged, and why.
#[derive(Debug, Clone, PartialEq)]
pub struct VatDecision {
    pub treatment: VatTreatment,
    pub rate: VatRate,
    pub check: VatNumberCheck,
    /// Whether the VAT number given passed its check (none given: false).
    pub number_valid: bool,
    /// The number as it was checked, normalised, when it was well formed.
    pub number: Option<VatNumber>,
}

impl VatDecision {
    pub fn reverse_charge(&self) -> bool {
        self.treatment == VatTreatment::ReverseCharge
    }
}

/// What an order's VAT depends on.
#[derive(Debug, Clone)]
pub struct VatContext<'a> {
    pub seller: &'a CountryCode,
    pub buyer: Option<&'a CountryCode>,
    pub vat_number: Option<&'a str>,
}

/// Decides the VAT of an order: the rules of `decisions.md` (Orders, prices and VAT).
pub struct VatPolicy<'a> {
    pub rates: &'a dyn VatRateRepository,
    pub registry: Option<&'a dyn VatNumberRegistry>,
}

impl VatPolicy<'_> {
    pub async fn decide(&self, context: VatContext<'_>, today: Date) -> Result<VatDecision, RepoError> {
        let (check, number_valid, number) = self.check_number(context.vat_number, context.buyer).await;
        let Some(buyer) = context.buyer else {
            return Ok(VatDecision { treatment: VatTreatment::CountryNeeded, rate: VatRate::ZERO, check, number_valid, number });
        };
        let treatment = if buyer == context.seller {
            VatTreatment::Domestic
        } else if !in_eu(buyer) {
            VatTreatment::OutsideScope
        } else if number_valid {
            VatTreatment::ReverseCharge
        } else {
            VatTreatment::EuConsumer
        };
        let rate = match treatment {
            VatTreatment::Domestic | VatTreatment::EuConsumer => self.rates.rate_on(buyer, today).await?.unwrap_or(VatRate::ZERO),
            _ => VatRate::ZERO,
        };
        Ok(VatDecision { treatment, rate, check, number_valid, number })
    }

    /// Checks the number offline, then online where a registry is configured. A number of
    /// another country than the billing country is not valid for this order.
    async fn check_number(&self, raw: Option<&str>, buyer: Option<&CountryCode>) -> (VatNumberCheck, bool, Option<VatNumber>) {
        let Some(raw) = raw.map(str::trim).filter(|raw| !raw.is_empty()) else {
            return (VatNumberCheck::None, false, None);
        };
        let Ok(number) = VatNumber::parse(raw) else {
            return (VatNumberCheck::Checksum, false, None);
        };
        if buyer.is_some_and(|buyer| buyer.as_str() != number.country()) {
            return (VatNumberCheck::Checksum, false, Some(number));
        }
        match self.registry {
            None => (VatNumberCheck::Checksum, true, Some(number)),
            Some(registry) => match registry.check(&number).await {
                RegistryAnswer::Valid => (VatNumberCheck::Vies, true, Some(number)),
                RegistryAnswer::Invalid => (VatNumberCheck::Vies, false, Some(number)),
                RegistryAnswer::Unavailable => (VatNumberCheck::ViesUnavailable, true, Some(number)),
            },
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::Mutex;

    /// Every EU country at 20 %, except those named.
    struct Rates(Vec<(&'static str, u32)>);

    #[async_trait]
    impl VatRateRepository for Rates {
        async fn rate_on(&self, country: &CountryCode, _: Date) -> Result<Option<VatRate>, RepoError> {
            let named = self.0.iter().find(|(code, _)| *code == country.as_str()).map(|(_, bp)| *bp);
            Ok(VatRate::from_basis_points(named.unwrap_or(2000)).filter(|_| in_eu(country)))
        }
        async fn list(&self) -> Result<Vec<VatRateEntry>, RepoError> {
            Ok(Vec::new())
        }
        async fn set(&self, _: &VatRateEntry) -> Result<(), RepoError> {
            Ok(())
        }
    }

    struct Registry(RegistryAnswer, Mutex<u32>);

    #[async_trait]
    impl VatNumberRegistry for Registry {
        async fn check(&self, _: &VatNumber) -> RegistryAnswer {
            *self.1.lock().unwrap() += 1;
            self.0
        }
    }

    fn country(code: &str) -> CountryCode {
        CountryCode::parse(code).unwrap()
    }

    async fn decide(registry: Option<&dyn VatNumberRegistry>, buyer: Option<&str>, number: Option<&str>) -> VatDecision {
        let rates = Rates(vec![("DE", 1900), ("IE", 2300)]);
        let policy = VatPolicy { rates: &rates, registry };
        let buyer = buyer.map(country);
        let day = Date::from_calendar_date(2026, time::Month::November, 24).unwrap();
        policy.decide(VatContext { seller: &country("IE"), buyer: buyer.as_ref(), vat_number: number }, day).await.unwrap()
    }

    #[tokio::test]
    async fn the_rules_of_decisions_md() {
        let german = decide(None, Some("DE"), None).await;
        assert_eq!((german.treatment, german.rate.basis_points(), german.check), (VatTreatment::EuConsumer, 1900, VatNumberCheck::None));
        let business = decide(None, Some("FR"), Some("FR40303265045")).await;
        assert_eq!(
            (business.treatment, business.rate, business.check),
            (VatTreatment::ReverseCharge, VatRate::ZERO, VatNumberCheck::Checksum)
        );
        let wrong = decide(None, Some("FR"), Some("FR41303265045")).await;
        assert_eq!((wrong.treatment, wrong.rate.basis_points(), wrong.number_valid), (VatTreatment::EuConsumer, 2000, false));
        let other_country = decide(None, Some("DE"), Some("FR40303265045")).await;
        assert_eq!(other_country.treatment, VatTreatment::EuConsumer, "a French number does not make a German buyer a French business");
        let domestic = decide(None, Some("IE"), Some("IE6388047V")).await;
        assert_eq!((domestic.treatment, domestic.rate.basis_points()), (VatTreatment::Domestic, 2300));
        let american = decide(None, Some("US"), None).await;
        assert_eq!((american.treatment, american.rate), (VatTreatment::OutsideScope, VatRate::ZERO));
        assert_eq!(decide(None, None, None).await.treatment, VatTreatment::CountryNeeded);
    }

    #[tokio::test]
    async fn vies_confirms_refuses_or_is_unknown_never_invalid_when_down() {
        for (answer, check, treatment) in [
            (RegistryAnswer::Valid, VatNumberCheck::Vies, VatTreatment::ReverseCharge),
            (RegistryAnswer::Invalid, VatNumberCheck::Vies, VatTreatment::EuConsumer),
            (RegistryAnswer::Unavailable, VatNumberCheck::ViesUnavailable, VatTreatment::ReverseCharge),
        ] {
            let registry = Registry(answer, Mutex::new(0));
            let decision = decide(Some(&registry), Some("FR"), Some("FR40303265045")).await;
            assert_eq!((decision.check, decision.treatment), (check, treatment), "{answer:?}");
            assert_eq!(*registry.1.lock().unwrap(), 1);
        }
        // A number that fails offline is never sent to VIES.
        let registry = Registry(RegistryAnswer::Valid, Mutex::new(0));
        let decision = decide(Some(&registry), Some("FR"), Some("FR41303265045")).await;
        assert_eq!((decision.check, decision.number_valid), (VatNumberCheck::Checksum, false));
        assert_eq!(*registry.1.lock().unwrap(), 0);
    }

    #[test]
    fn rates_read_and_round() {
        assert_eq!(VatRate::parse_percent("19").unwrap().basis_points(), 1900);
        assert_eq!(VatRate::parse_percent("25.5").unwrap().basis_points(), 2550);
        assert_eq!(VatRate::parse_percent("7.25").unwrap().basis_points(), 725);
        for bad in ["", "x", "101", "19.123", "-1", ".5"] {
            assert_eq!(VatRate::parse_percent(bad), None, "{bad}");
        }
        let rate = VatRate::from_basis_points(1900).unwrap();
        assert_eq!(rate.vat_on(4900), 931);
        assert_eq!(VatRate::from_basis_points(2550).unwrap().vat_on(1), 0);
        assert_eq!(VatRate::from_basis_points(2550).unwrap().vat_on(2), 1, "0.51 rounds up");
        assert_eq!(rate.to_string(), "19 %");
        assert_eq!(VatRate::from_basis_points(2550).unwrap().to_string(), "25.5 %");
    }
}
