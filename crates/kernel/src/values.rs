//! Validated value types: private inner value, fallible `parse`, no setters.

use serde::{Deserialize, Deserializer, Serialize};
use std::borrow::Cow;

/// Why a value was refused; the message is shown to API callers as is.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{0}")]
pub struct InvalidValue(pub Cow<'static, str>);

macro_rules! string_value {
    ($name:ident) => {
        impl $name {
            pub fn as_str(&self) -> &str {
                &self.0
            }
        }

        impl std::fmt::Display for $name {
            fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                f.write_str(&self.0)
            }
        }

        impl AsRef<str> for $name {
            fn as_ref(&self) -> &str {
                &self.0
            }
        }

        impl Serialize for $name {
            fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
                serializer.serialize_str(&self.0)
            }
        }

        impl<'de> Deserialize<'de> for $name {
            fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
                let raw = String::deserialize(deserializer)?;
                Self::parse(&raw).map_err(serde::de::Error::custom)
            }
        }
    };
}

/// A URL-safe identifier: `^[a-z0-9][a-z0-9-]{0,219}$`.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Slug(String);

impl Slug {
    pub const MAX_LEN: usize = 220;

    pub fn parse(raw: &str) -> Result<Self, InvalidValue> {
        let bytes = raw.as_bytes();
        let allowed = |b: &u8| b.is_ascii_lowercase() || b.is_ascii_digit() || *b == b'-';
        match bytes.first() {
            None => Err(InvalidValue("must not be empty".into())),
            Some(_) if bytes.len() > Self::MAX_LEN => Err(InvalidValue("must be at most 220 characters".into())),
            Some(first) if *first == b'-' || !allowed(first) || !bytes.iter().all(allowed) => {
                Err(InvalidValue("must be lower-case letters, digits and hyphens, starting with a letter or digit".into()))
            }
            Some(_) => Ok(Self(raw.to_owned())),
        }
    }

    /// Makes a slug from free text (`"Acme Notes!"` -> `acme-notes`); `None` when nothing is left.
    pub fn from_text(text: &str) -> Option<Self> {
        let mut out = String::with_capacity(text.len());
        for ch in text.chars().flat_map(char::to_lowercase) {
            if ch.is_ascii_alphanumeric() {
                out.push(ch);
            } else if !out.is_empty() && !out.ends_with('-') {
                out.push('-');
            }
        }
        let trimmed = out.trim_end_matches('-');
        let cut = &trimmed[..trimmed.len().min(Self::MAX_LEN)];
        Self::parse(cut.trim_end_matches('-')).ok()
    }

    /// The `n`th candidate when this slug is taken: itself for 1, then `slug-2`, `slug-3`, ...;
    /// the base is shortened so the candidate stays within `MAX_LEN`.
    pub fn numbered(&self, n: u32) -> Self {
        if n <= 1 {
            return self.clone();
        }
        let suffix = format!("-{n}");
        let base = self.0[..self.0.len().min(Self::MAX_LEN - suffix.len())].trim_end_matches('-');
        Self(format!("{base}{suffix}"))
    }
}

string_value!(Slug);

/// An ISO 3166-1 alpha-2 country code, kept in upper case (`de` is read as `DE`).
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct CountryCode(String);

impl CountryCode {
    pub fn parse(raw: &str) -> Result<Self, InvalidValue> {
        if raw.len() == 2 && raw.bytes().all(|b| b.is_ascii_alphabetic()) {
            Ok(Self(raw.to_ascii_uppercase()))
        } else {
            Err(InvalidValue("must be a two-letter country code such as DE or US".into()))
        }
    }
}

string_value!(CountryCode);

/// An e-mail address: checked for shape only (one `@`, a dotted domain, at most 254 characters),
/// and kept in lower case so it can be looked up.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Email(String);

impl Email {
    pub const MAX_LEN: usize = 254;
    /// A shape `parse` accepts, as a JSON Schema pattern (ASCII only, so that characters and
    /// bytes count alike).
    pub const PATTERN: &'static str = r"^[!-;=?A-~]{1,64}@[A-Za-z0-9-]{1,63}(\.[A-Za-z0-9-]{1,63}){1,4}$";

    pub fn parse(raw: &str) -> Result<Self, InvalidValue> {
        let raw = raw.trim();
        let invalid = || InvalidValue("must be an e-mail address such as ada@example.com".into());
        if raw.len() > Self::MAX_LEN {
            return Err(InvalidValue("must be at most 254 characters".into()));
        }
        let (local, domain) = raw.split_once('@').ok_or_else(invalid)?;
        let domain_ok = domain.contains('.')
            && !domain.starts_with('.')
            && !domain.ends_with('.')
            && !domain.contains("..")
            && domain.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'.');
        let local_ok = !local.is_empty()
            && local.len() <= 64
            && !local.chars().any(|c| c.is_whitespace() || c.is_control() || c == '@' || c == '<' || c == '>');
        if domain_ok && local_ok { Ok(Self(raw.to_ascii_lowercase())) } else { Err(invalid()) }
    }

    pub fn domain(&self) -> &str {
        self.0.rsplit_once('@').map_or("", |(_, domain)| domain)
    }
}

string_value!(Email);

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn slug_rules() {
        for ok in ["a", "0", "ai-tools", "a-", "x".repeat(220).as_str()] {
            assert!(Slug::parse(ok).is_ok(), "{ok} should be a slug");
        }
        for bad in ["", "-a", "A", "a_b", "a b", "é", "x".repeat(221).as_str()] {
            assert!(Slug::parse(bad).is_err(), "{bad} should not be a slug");
        }
    }

    #[test]
    fn slug_from_text() {
        assert_eq!(Slug::from_text("Acme Notes!").unwrap().as_str(), "acme-notes");
        assert_eq!(Slug::from_text("  --Hello   World-- ").unwrap().as_str(), "hello-world");
        assert!(Slug::from_text("!!!").is_none());
        let acme = Slug::parse("acme").unwrap();
        assert_eq!((acme.numbered(1).as_str(), acme.numbered(2).as_str()), ("acme", "acme-2"));
        let long = Slug::from_text(&"a".repeat(300)).unwrap();
        assert_eq!(long.as_str().len(), Slug::MAX_LEN);
        assert!(Slug::parse(long.numbered(12).as_str()).is_ok_and(|slug| slug.as_str().ends_with("-12")));
    }

    #[test]
    fn country_code_is_upper_cased() {
        assert_eq!(CountryCode::parse("de").unwrap().as_str(), "DE");
        assert!(CountryCode::parse("DEU").is_err());
        assert!(CountryCode::parse("D1").is_err());
    }

    #[test]
    fn email_shape() {
        assert_eq!(Email::parse("Ada@Example.COM").unwrap().as_str(), "ada@example.com");
        assert_eq!(Email::parse("ada@example.com").unwrap().domain(), "example.com");
        for bad in ["", "ada", "ada@", "@example.com", "ada@example", "a b@example.com", "ada@exa mple.com"] {
            assert!(Email::parse(bad).is_err(), "{bad} should be refused");
        }
    }

    #[test]
    fn deserialize_checks_the_value() {
        let err = serde_json::from_str::<Slug>("\"Not A Slug\"").unwrap_err();
        assert!(err.to_string().contains("lower-case"));
    }
}
