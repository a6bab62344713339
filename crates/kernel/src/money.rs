//! Money: integer USD cents, never floating point.

use serde::{Deserialize, Serialize};

/// An amount in USD cents (excluding VAT unless a field name says otherwise).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize, Default)]
#[serde(transparent)]
pub struct Cents(i64);

impl Cents {
    pub const fn new(cents: i64) -> Self {
        Self(cents)
    }

    pub const fn get(self) -> i64 {
        self.0
    }
}

impl std::fmt::Display for Cents {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let sign = if self.0 < 0 { "-" } else { "" };
        let abs = self.0.unsigned_abs();
        write!(f, "{sign}${}.{:02}", abs / 100, abs % 100)
    }
}

#[cfg(test)]
mod tests {
    use super::Cents;

    #[test]
    fn displays_dollars_and_cents() {
        assert_eq!(Cents::new(4900).to_string(), "$49.00");
        assert_eq!(Cents::new(5).to_string(), "$0.05");
        assert_eq!(Cents::new(-120).to_string(), "-$1.20");
    }
}
