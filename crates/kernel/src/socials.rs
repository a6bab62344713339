//! The platform keys a socials object may use (`decisions.md`): twelve social, code, video,
//! forum and blogging sites, the launch-listing site, `website` and `custom`; the one check of
//! a socials object and of the https links it (and other link fields) holds.

use crate::FieldError;
use std::collections::BTreeMap;

/// The longest link a listing or a draft stores.
pub const MAX_LINK_CHARS: usize = 500;

/// An https link of at most 500 characters, with a host and no user information or spaces.
/// What `check_https_link` accepts, as a JSON Schema pattern (for documents).
/// Control characters are left out by name: `\s` of JSON Schema (ECMA) does not cover U+0085,
/// which Rust counts as white space.
pub const HTTPS_LINK_PATTERN: &str = r"^https://[^/?#@\s\x00-\x1F\x7F-\x9F]+([/?#][^\s\x00-\x1F\x7F-\x9F]*)?$";

pub fn check_https_link(link: &str) -> Result<(), &'static str> {
    if link.chars().count() > MAX_LINK_CHARS {
        return Err("must be at most 500 characters");
    }
    let rest = link.strip_prefix("https://").ok_or("must be an https:// link")?;
    let host = rest.split(['/', '?', '#']).next().unwrap_or_default();
    if host.is_empty() || host.contains('@') || link.chars().any(char::is_whitespace) {
        return Err("must be an https:// link");
    }
    Ok(())
}

/// Checks a socials object: known platform keys, https links of at most 500 characters. Each
/// error names its key under `at` (`socials.myspace`, `company_socials.x`).
pub fn check_socials(at: &str, socials: &BTreeMap<String, String>, errors: &mut Vec<FieldError>) {
    for (key, link) in socials {
        if SocialKey::parse(key).is_none() {
            errors.push(FieldError::new(format!("{at}.{key}"), format!("is not a platform key; use one of {}", SocialKey::LIST)));
        } else if let Err(message) = check_https_link(link.trim()) {
            errors.push(FieldError::new(format!("{at}.{key}"), message));
        }
    }
}

/// A platform key of a socials object.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct SocialKey(&'static str);

impl SocialKey {
    pub const ALL: [&'static str; 15] = [
        "x",
        "linkedin",
        "facebook",
        "instagram",
        "youtube",
        "tiktok",
        "github",
        "gitlab",
        "reddit",
        "discord",
        "medium",
        "substack",
        "producthunt",
        "website",
        "custom",
    ];

    /// The keys as one comma-separated list, for messages.
    pub const LIST: &'static str = "x, linkedin, facebook, instagram, youtube, tiktok, github, gitlab, reddit, discord, medium, substack, producthunt, website, custom";

    pub fn parse(key: &str) -> Option<Self> {
        Self::ALL.iter().find(|known| **known == key).map(|known| Self(known))
    }

    pub fn as_str(self) -> &'static str {
        self.0
    }

    /// The platform's name as people know it, for the links of pages (`x` is "X (Twitter)").
    pub fn label(self) -> &'static str {
        match self.0 {
            "x" => "X (Twitter)",
            "linkedin" => "LinkedIn",
            "facebook" => "Facebook",
            "instagram" => "Instagram",
            "youtube" => "YouTube",
            "tiktok" => "TikTok",
            "github" => "GitHub",
            "gitlab" => "GitLab",
            "reddit" => "Reddit",
            "discord" => "Discord",
            "medium" => "Medium",
            "substack" => "Substack",
            "producthunt" => "Product Hunt",
            "website" => "Website",
            _ => "Link",
        }
    }

    /// The label of a stored key: a key saved before the list changed still reads as a word.
    pub fn label_of(key: &str) -> &str {
        match Self::parse(key) {
            Some(known) => known.label(),
            None if key == "twitter" => "X (Twitter)",
            None => key,
        }
    }

    /// The platform a link's host belongs to (`github.com` -> `github`), if it is one of the
    /// twelve sites or the launch-listing site.
    pub fn of_host(host: &str) -> Option<Self> {
        let host = host.trim_start_matches("www.").trim_start_matches("m.");
        let key = match host {
            "x.com" | "twitter.com" => "x",
            "linkedin.com" => "linkedin",
            "facebook.com" | "fb.com" => "facebook",
            "instagram.com" => "instagram",
            "youtube.com" | "youtu.be" => "youtube",
            "tiktok.com" => "tiktok",
            "github.com" => "github",
            "gitlab.com" => "gitlab",
            "reddit.com" => "reddit",
            "discord.gg" | "discord.com" => "discord",
            "medium.com" => "medium",
            "producthunt.com" => "producthunt",
            _ if host.ends_with(".medium.com") => "medium",
            _ if host.ends_with(".substack.com") || host == "substack.com" => "substack",
            _ if host.ends_with(".linkedin.com") => "linkedin",
            _ => return None,
        };
        Self::parse(key)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keys_and_hosts() {
        assert_eq!(SocialKey::parse("github").map(SocialKey::as_str), Some("github"));
        assert!(SocialKey::parse("myspace").is_none());
        assert_eq!(SocialKey::of_host("twitter.com").map(SocialKey::as_str), Some("x"));
        assert_eq!(SocialKey::of_host("acme.substack.com").map(SocialKey::as_str), Some("substack"));
        assert_eq!(SocialKey::of_host("www.producthunt.com").map(SocialKey::as_str), Some("producthunt"));
        assert!(SocialKey::of_host("example.com").is_none());
        assert_eq!(SocialKey::label_of("x"), "X (Twitter)");
        assert_eq!(SocialKey::label_of("producthunt"), "Product Hunt");
        assert_eq!(SocialKey::label_of("custom"), "Link");
        assert!(SocialKey::ALL.iter().all(|key| SocialKey::label_of(key) != *key), "every known key has a name");
    }

    #[test]
    fn links_and_socials_are_checked_once_for_every_caller() {
        assert!(check_https_link("https://acme.example/a?b").is_ok());
        for bad in ["http://acme.example", "https://", "https://me@acme.example", "https://a .example", "ftp://x"] {
            assert_eq!(check_https_link(bad), Err("must be an https:// link"), "{bad}");
        }
        assert_eq!(check_https_link(&format!("https://a.example/{}", "x".repeat(500))), Err("must be at most 500 characters"));
        let socials: BTreeMap<String, String> =
            [("myspace".to_owned(), "https://myspace.com/a".to_owned()), ("x".to_owned(), "http://x.com/a".to_owned())].into();
        let mut errors = Vec::new();
        check_socials("socials", &socials, &mut errors);
        let named: Vec<&str> = errors.iter().map(|e| e.field.as_str()).collect();
        assert_eq!(named, ["socials.myspace", "socials.x"]);
    }
}
