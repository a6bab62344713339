//! `WebUrl`: a web address parsed once at the edge. Every outbound fetch (the site reader, the
//! badge check, OAuth client metadata, claims next) and every address field of drafts and
//! listings takes this type, so an address is never a loose string parsed again downstream.

use serde::{Deserialize, Deserializer, Serialize, Serializer};
use std::fmt;

/// An `http` or `https` address with a host and no user information. The host is lower-cased
/// and IDNA-encoded (`Bücher.example` becomes `xn--bcher-kva.example`), a default port is
/// dropped, the path is at least `/`, and the fragment (never sent to a server) is dropped.
#[derive(Clone, PartialEq, Eq, Hash)]
pub struct WebUrl(url::Url);

impl WebUrl {
    /// The longest address accepted.
    pub const MAX_LEN: usize = 2048;

    /// What `parse` accepts, as a JSON Schema pattern, for documents: http(s), a host name of
    /// letters, digits and hyphens whose last label starts with a letter (a numeric last label
    /// would be read as an IPv4 address), an optional port, then visible ASCII. Narrower than
    /// `parse` (which also takes IP addresses and international names), never wider.
    pub const PATTERN: &'static str = r"^[Hh][Tt][Tt][Pp][Ss]?://([A-Za-z0-9]([A-Za-z0-9-]{0,61}[A-Za-z0-9])?\.){0,8}[A-Za-z]([A-Za-z0-9-]{0,61}[A-Za-z0-9])?(:[0-9]{1,4})?([/?#][!-~]{0,1900})?$";

    /// Parses an address; `Err` carries the message for the field that held it.
    pub fn parse(raw: &str) -> Result<Self, String> {
        let raw = raw.trim();
        if raw.is_empty() {
            return Err("must be a web address, such as https://example.com".into());
        }
        if raw.len() > Self::MAX_LEN {
            return Err(format!("must be at most {} characters", Self::MAX_LEN));
        }
        if raw.chars().any(|c| c.is_whitespace() || c.is_control()) {
            return Err("must not contain spaces or control characters".into());
        }
        let Some((scheme, _)) = raw.split_once("://") else { return Err("must start with https:// or http://".into()) };
        if !scheme.eq_ignore_ascii_case("https") && !scheme.eq_ignore_ascii_case("http") {
            return Err("must start with https:// or http://".into());
        }
        let mut url = url::Url::parse(raw).map_err(|error| match error {
            url::ParseError::InvalidPort => "has an invalid port".to_owned(),
            _ => "must name a valid host".to_owned(),
        })?;
        if !url.username().is_empty() || url.password().is_some() {
            return Err("must not contain a user name or password".into());
        }
        match url.host() {
            Some(url::Host::Domain(domain)) if !valid_domain(domain) => return Err("must name a valid host".into()),
            None => return Err("must name a valid host".into()),
            _ => {}
        }
        url.set_fragment(None);
        if url.as_str().len() > Self::MAX_LEN {
            return Err(format!("must be at most {} characters", Self::MAX_LEN));
        }
        Ok(Self(url))
    }

    pub fn as_str(&self) -> &str {
        self.0.as_str()
    }

    /// `https` or `http`.
    pub fn scheme(&self) -> &str {
        self.0.scheme()
    }

    /// The host: a domain in ASCII, an IPv4 address, or an IPv6 address without brackets.
    pub fn host(&self) -> &str {
        let host = self.0.host_str().unwrap_or_default();
        host.strip_prefix('[').and_then(|h| h.strip_suffix(']')).unwrap_or(host)
    }

    /// The host without a leading `www.`: what a listing's `domain` shows.
    pub fn site_domain(&self) -> &str {
        self.host().trim_start_matches("www.")
    }

    /// `scheme://host[:port]`, the origin robots.txt and redirects are judged by.
    pub fn origin(&self) -> String {
        self.0.origin().ascii_serialization()
    }

    pub fn path(&self) -> &str {
        self.0.path()
    }

    /// The domain a registrant controls, by the public suffix list's algorithm: `app.acme.co.uk`
    /// gives `acme.co.uk`. A TLD the list does not name (yet) falls under its default rule `*`,
    /// so `www.cinderforge.example` gives `cinderforge.example`. `None` for an IP address or a
    /// host that is itself a public suffix (`co.uk`, a bare TLD).
    pub fn registrable_domain(&self) -> Option<String> {
        let host = match self.0.host()? {
            url::Host::Domain(domain) => domain,
            url::Host::Ipv4(_) | url::Host::Ipv6(_) => return None,
        };
        // `psl` applies the default rule itself: an unknown TLD is a one-label suffix.
        let domain = psl::domain(host.trim_end_matches('.').as_bytes())?;
        std::str::from_utf8(domain.as_bytes()).ok().map(str::to_owned)
    }

    /// Another address relative to this one (a link on its page), checked as `parse` checks.
    pub fn join(&self, reference: &str) -> Result<Self, String> {
        let joined = self.0.join(reference).map_err(|_| "is not an address".to_owned())?;
        Self::parse(joined.as_str())
    }

    /// The parsed address, for HTTP adapters.
    pub fn url(&self) -> &url::Url {
        &self.0
    }
}

/// Labels of 1 to 63 characters, not starting or ending with a hyphen.
fn valid_domain(domain: &str) -> bool {
    let domain = domain.strip_suffix('.').unwrap_or(domain);
    !domain.is_empty()
        && domain.len() <= 253
        && domain.split('.').all(|label| !label.is_empty() && label.len() <= 63 && !label.starts_with('-') && !label.ends_with('-'))
}

impl fmt::Display for WebUrl {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl fmt::Debug for WebUrl {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "WebUrl({})", self.as_str())
    }
}

impl std::str::FromStr for WebUrl {
    type Err = String;

    fn from_str(raw: &str) -> Result<Self, String> {
        Self::parse(raw)
    }
}

impl Serialize for WebUrl {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(self.as_str())
    }
}

impl<'de> Deserialize<'de> for WebUrl {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let raw = String::deserialize(deserializer)?;
        Self::parse(&raw).map_err(serde::de::Error::custom)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn addresses_are_normalised_once() {
        let parsed = |raw: &str| WebUrl::parse(raw).unwrap().to_string();
        assert_eq!(parsed("https://Acme.Example"), "https://acme.example/");
        assert_eq!(parsed(" HTTP://acme.example:80/a?b=1#top "), "http://acme.example/a?b=1");
        assert_eq!(parsed("https://acme.example:8443?x"), "https://acme.example:8443/?x");
        assert_eq!(parsed("http://127.0.0.1:3000/"), "http://127.0.0.1:3000/");
        assert_eq!(parsed("http://[::1]:8080/"), "http://[::1]:8080/");
        assert_eq!(parsed("https://Bücher.example/"), "https://xn--bcher-kva.example/", "IDNA applied");
        assert_eq!(WebUrl::parse("http://[::1]:8080/").unwrap().host(), "::1");
        assert_eq!(WebUrl::parse("https://www.acme.example:8443/?x").unwrap().site_domain(), "acme.example");
        assert_eq!(WebUrl::parse("https://acme.example:8443/a").unwrap().origin(), "https://acme.example:8443");
        for bad in [
            "",
            "acme.example",
            "ftp://acme.example",
            "https://user:pw@acme.example/",
            "https://acme .example",
            "https://-x.example",
            "https://a.example:99999/",
            "javascript://x",
            "https://",
        ] {
            assert!(WebUrl::parse(bad).is_err(), "{bad}");
        }
        assert_eq!(WebUrl::parse("https://me@acme.example").unwrap_err(), "must not contain a user name or password");
    }

    #[test]
    fn registrable_domains_follow_the_public_suffix_list() {
        let domain = |raw: &str| WebUrl::parse(raw).unwrap().registrable_domain();
        assert_eq!(domain("https://app.acme.co.uk/x").as_deref(), Some("acme.co.uk"));
        assert_eq!(domain("https://www.acme.example.com/").as_deref(), Some("example.com"));
        assert_eq!(domain("https://acme.github.io/").as_deref(), Some("acme.github.io"), "a private suffix counts");
        assert_eq!(domain("https://co.uk/"), None, "a public suffix is nobody's domain");
        assert_eq!(domain("http://127.0.0.1/"), None);
        assert_eq!(domain("http://[::1]:8080/"), None);
    }

    #[test]
    fn a_tld_the_list_does_not_name_falls_under_the_default_rule() {
        let domain = |raw: &str| WebUrl::parse(raw).unwrap().registrable_domain();
        assert_eq!(domain("https://cinderforge.example/").as_deref(), Some("cinderforge.example"));
        assert_eq!(domain("https://www.cinderforge.example/").as_deref(), Some("cinderforge.example"));
        assert_eq!(domain("https://a.b.acme.test/").as_deref(), Some("acme.test"));
        assert_eq!(domain("https://cinderforge.example./").as_deref(), Some("cinderforge.example"), "a trailing dot");
        assert_eq!(domain("https://example/"), None, "a bare TLD, known to the list or not, is nobody's domain");
        assert_eq!(domain("https://com/"), None);
        assert_eq!(domain("http://localhost:8080/"), None);
        assert_eq!(domain("http://10.0.0.1/"), None);
    }

    #[test]
    fn it_travels_as_a_string_and_is_checked_on_the_way_in() {
        let url = WebUrl::parse("https://acme.example/a").unwrap();
        assert_eq!(serde_json::to_value(&url).unwrap(), serde_json::json!("https://acme.example/a"));
        assert_eq!(serde_json::from_value::<WebUrl>(serde_json::json!("https://acme.example/a")).unwrap(), url);
        assert!(serde_json::from_value::<WebUrl>(serde_json::json!("ftp://acme.example/")).is_err());
        assert_eq!(url.join("/pricing").unwrap().as_str(), "https://acme.example/pricing");
    }
}
