//! The platform keys a socials object may use (`decisions.md`): twelve social, code, video,
//! forum and blogging sites, the launch-listing site, `website` and `custom`.

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
    }
}
