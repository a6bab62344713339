//! Checks on what a caller submits: the website address, and the meaning of an `update_draft`
//! body beyond its bounds (which the operation's input type checks).

use crate::grounding::CategoryRef;
use crate::model::{DraftFounder, DraftMilestone, DraftSeo, FieldName, FieldValue, Socials};
use kernel::{Faq, FieldError};

/// The longest website address accepted.
pub const MAX_URL_LEN: usize = 2048;

/// A website address, normalised: `http` or `https`, no credentials, host in lower case,
/// no fragment, a path of at least `/`. `Err` carries the message for the field.
pub fn normalise_url(raw: &str) -> Result<String, String> {
    let raw = raw.trim();
    if raw.is_empty() {
        return Err("must be the product's website address, such as https://example.com".into());
    }
    if raw.len() > MAX_URL_LEN {
        return Err(format!("must be at most {MAX_URL_LEN} characters"));
    }
    if raw.chars().any(|c| c.is_whitespace() || c.is_control()) {
        return Err("must not contain spaces or control characters".into());
    }
    let (scheme, rest) = raw.split_once("://").ok_or("must start with https:// or http://")?;
    let scheme = scheme.to_ascii_lowercase();
    if scheme != "https" && scheme != "http" {
        return Err("must start with https:// or http://".into());
    }
    let rest = rest.split('#').next().unwrap_or("");
    let split = rest.find(['/', '?']).unwrap_or(rest.len());
    let (authority, tail) = rest.split_at(split);
    if authority.contains('@') {
        return Err("must not contain a user name or password".into());
    }
    let (host, port) = if authority.starts_with('[') {
        let close = authority.find(']').ok_or("must name a valid host")?;
        let (host, after) = authority.split_at(close + 1);
        match after {
            "" => (host, None),
            _ => (host, Some(after.strip_prefix(':').ok_or("has an invalid port")?)),
        }
    } else {
        match authority.rsplit_once(':') {
            Some((host, port)) => (host, Some(port)),
            None => (authority, None),
        }
    };
    if port.is_some_and(|port| port.parse::<u16>().is_err() || !port.bytes().all(|b| b.is_ascii_digit())) {
        return Err("has an invalid port".into());
    }
    let host = host.trim_end_matches('.').to_ascii_lowercase();
    let host_ok = if let Some(inner) = host.strip_prefix('[').and_then(|h| h.strip_suffix(']')) {
        inner.parse::<std::net::Ipv6Addr>().is_ok()
    } else {
        !host.is_empty()
            && host.len() <= 253
            && host.split('.').all(|label| {
                !label.is_empty()
                    && label.len() <= 63
                    && !label.starts_with('-')
                    && !label.ends_with('-')
                    && label.chars().all(|c| c.is_alphanumeric() || c == '-')
            })
    };
    if !host_ok {
        return Err("must name a valid host".into());
    }
    let default_port = if scheme == "https" { "443" } else { "80" };
    let port = port.filter(|port| *port != default_port).map(|port| format!(":{port}")).unwrap_or_default();
    let tail = if tail.is_empty() || tail.starts_with('?') { format!("/{tail}") } else { tail.to_owned() };
    let url = format!("{scheme}://{host}{port}{tail}");
    if url.chars().count() > MAX_URL_LEN {
        return Err(format!("must be at most {MAX_URL_LEN} characters"));
    }
    Ok(url)
}

/// The host of a normalised address.
pub fn host_of(url: &str) -> &str {
    let rest = url.split_once("://").map_or(url, |(_, rest)| rest);
    let authority = rest.split(['/', '?']).next().unwrap_or(rest);
    if authority.starts_with('[') {
        authority.split(']').next().map_or(authority, |h| &h[1..])
    } else {
        authority.split(':').next().unwrap_or(authority)
    }
}

/// What `update_draft` asks for, with names already parsed.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct DraftEdit {
    /// Field values to set; `None` removes the value.
    pub fields: Vec<(FieldName, Option<FieldValue>)>,
    pub lock_fields: Vec<FieldName>,
    pub regenerate: Vec<FieldName>,
    pub restore: Vec<FieldName>,
    pub faqs: Option<Vec<Faq>>,
    pub company_socials: Option<Socials>,
    pub founder_socials: Option<Socials>,
    pub founders: Option<Vec<DraftFounder>>,
    pub story: Option<kernel::Story>,
    pub milestones: Option<Vec<DraftMilestone>>,
    /// `Some("")` clears the comparison.
    pub competitor_url: Option<String>,
    pub seo: Option<DraftSeo>,
}

/// Checks field values for meaning: known categories (names or slugs, stored as slugs),
/// country codes, years, e-mail addresses and links. Returns the values to store.
pub fn check_field_values(
    fields: &[(FieldName, Option<FieldValue>)],
    categories: &[CategoryRef],
    errors: &mut Vec<FieldError>,
) -> Vec<(FieldName, Option<FieldValue>)> {
    let mut checked = Vec::new();
    for (name, value) in fields {
        let at = format!("fields.{name}");
        let Some(value) = value else {
            checked.push((*name, None));
            continue;
        };
        let value = match (name, value) {
            (FieldName::Categories, FieldValue::List(items)) => {
                let mut slugs = Vec::new();
                for (i, item) in items.iter().enumerate() {
                    match categories.iter().find(|c| c.slug == item.trim() || c.name.eq_ignore_ascii_case(item.trim())) {
                        Some(category) if !slugs.contains(&category.slug) => slugs.push(category.slug.clone()),
                        Some(_) => errors.push(FieldError::new(format!("{at}[{i}]"), "names the same category twice")),
                        None => errors.push(FieldError::new(format!("{at}[{i}]"), "is not a category; see list_categories")),
                    }
                }
                FieldValue::List(slugs)
            }
            (FieldName::Country, FieldValue::Text(text)) => {
                let code = text.trim().to_ascii_uppercase();
                if code.len() != 2 || !code.bytes().all(|b| b.is_ascii_uppercase()) {
                    errors.push(FieldError::new(&at, "must be a two-letter ISO 3166 country code, such as DE"));
                }
                FieldValue::Text(code)
            }
            (FieldName::FoundedYear, FieldValue::Text(text)) => {
                if !text.trim().parse::<u16>().is_ok_and(|year| (1800..=2100).contains(&year)) {
                    errors.push(FieldError::new(&at, "must be a year from 1800 to 2100"));
                }
                FieldValue::Text(text.trim().to_owned())
            }
            (FieldName::ContactEmail, FieldValue::Text(text)) => {
                if kernel::Email::parse(text).is_err() {
                    errors.push(FieldError::new(&at, "must be an e-mail address"));
                }
                FieldValue::Text(text.trim().to_owned())
            }
            (FieldName::DemoVideoUrl | FieldName::LogoUrl, FieldValue::Text(text)) => {
                if !text.starts_with("https://") || normalise_url(text).is_err() {
                    errors.push(FieldError::new(&at, "must be an https:// link"));
                }
                FieldValue::Text(text.trim().to_owned())
            }
            (_, value) => value.clone(),
        };
        checked.push((*name, Some(value)));
    }
    checked
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn addresses_are_normalised() {
        assert_eq!(normalise_url("https://Acme.Example").unwrap(), "https://acme.example/");
        assert_eq!(normalise_url(" HTTP://acme.example:80/a?b=1#top ").unwrap(), "http://acme.example/a?b=1");
        assert_eq!(normalise_url("https://acme.example:8443?x").unwrap(), "https://acme.example:8443/?x");
        assert_eq!(normalise_url("http://127.0.0.1:3000/").unwrap(), "http://127.0.0.1:3000/");
        assert_eq!(normalise_url("http://[::1]:8080/").unwrap(), "http://[::1]:8080/");
        assert_eq!(host_of("http://[::1]:8080/"), "::1");
        assert_eq!(host_of("https://acme.example:8443/?x"), "acme.example");
        for bad in [
            "",
            "acme.example",
            "ftp://acme.example",
            "https://user:pw@acme.example/",
            "https://acme .example",
            "https://-x.example",
            "https://a.example:99999/",
            "javascript://x",
        ] {
            assert!(normalise_url(bad).is_err(), "{bad}");
        }
    }
}
