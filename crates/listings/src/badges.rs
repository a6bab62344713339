//! Embeddable badges: which badges a listing has earned, and their SVG images.
//!
//! Rendering is a pure function of the badge, the style and the site name; every text that
//! goes into SVG or HTML is escaped.

use crate::awards::AwardRepository;
use crate::model::{ListingStatus, ListingSummary};
use crate::ports::ListingRepository;
use kernel::{PageRequest, RepoError, Slug, Week};
use std::sync::Arc;

/// A badge a listing can show.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum BadgeKind {
    /// Listed on the site (any public listing, including one waiting for its launch).
    Listed,
    /// Launched on the site (live listings).
    Launched,
    /// Launch of the Week #1, #2 or #3.
    LaunchOfTheWeek(u8),
    /// Featured placement was bought.
    Featured,
    /// An owner proved control of the company by a claim.
    Verified,
}

impl BadgeKind {
    pub fn code(self) -> String {
        match self {
            Self::Listed => "listed".into(),
            Self::Launched => "launched".into(),
            Self::Featured => "featured".into(),
            Self::Verified => "verified".into(),
            Self::LaunchOfTheWeek(rank) => format!("launch-of-the-week-{rank}"),
        }
    }

    pub fn parse(code: &str) -> Option<Self> {
        match code {
            "listed" => Some(Self::Listed),
            "launched" => Some(Self::Launched),
            "featured" => Some(Self::Featured),
            "verified" => Some(Self::Verified),
            other => match other.strip_prefix("launch-of-the-week-")? {
                "1" => Some(Self::LaunchOfTheWeek(1)),
                "2" => Some(Self::LaunchOfTheWeek(2)),
                "3" => Some(Self::LaunchOfTheWeek(3)),
                _ => None,
            },
        }
    }
}

/// A badge a listing has earned.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct EarnedBadge {
    pub kind: BadgeKind,
    /// The small line above the site name: "LISTED ON", "#1 LAUNCH OF THE WEEK".
    pub caption: String,
    /// What the badge says in words (alt text, titles).
    pub title: String,
    /// The week, for weekly awards.
    pub week: Option<Week>,
}

macro_rules! style_enum {
    ($name:ident { $($variant:ident = $text:literal),+ $(,)? }) => {
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
        pub enum $name { $($variant),+ }

        impl $name {
            pub const ALL: &'static [$name] = &[$($name::$variant),+];

            pub fn as_str(self) -> &'static str {
                match self { $($name::$variant => $text),+ }
            }

            pub fn parse(raw: &str) -> Option<Self> {
                Self::ALL.iter().copied().find(|value| value.as_str() == raw)
            }
        }
    };
}

style_enum!(Shape { Standard = "standard", Outline = "outline", Pill = "pill", Banner = "banner", Square = "square" });
style_enum!(Mode { Light = "light", Dark = "dark", Auto = "auto" });
style_enum!(Size { S = "s", M = "m", L = "l" });

/// How a badge looks.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct BadgeStyle {
    pub shape: Shape,
    pub mode: Mode,
    pub size: Size,
}

impl Default for BadgeStyle {
    fn default() -> Self {
        Self { shape: Shape::Standard, mode: Mode::Auto, size: Size::M }
    }
}

impl BadgeStyle {
    /// Width and height in pixels.
    pub fn dimensions(self) -> (u32, u32) {
        let (w, h) = match self.shape {
            Shape::Standard | Shape::Outline => (250, 54),
            Shape::Pill => (220, 44),
            Shape::Banner => (400, 60),
            Shape::Square => (120, 120),
        };
        let scale = |v: u32| match self.size {
            Size::S => v * 4 / 5,
            Size::M => v,
            Size::L => v * 5 / 4,
        };
        (scale(w), scale(h))
    }
}

use kernel::markup::escape;

const ACCENT: &str = "#e8590c";

/// The badge as an SVG document.
pub fn render_svg(badge: &EarnedBadge, site_name: &str, style: BadgeStyle) -> String {
    let (width, height) = style.dimensions();
    let radius = match style.shape {
        Shape::Pill => height / 2,
        Shape::Square => 12,
        _ => 8,
    };
    let (light_bg, light_fg, dark_bg, dark_fg) = match style.shape {
        Shape::Outline => ("none", "#1f2937", "none", "#f9fafb"),
        _ => ("#ffffff", "#111827", "#111827", "#f9fafb"),
    };
    let (bg, fg) = match style.mode {
        Mode::Light | Mode::Auto => (light_bg, light_fg),
        Mode::Dark => (dark_bg, dark_fg),
    };
    // Auto follows the page's colour scheme through a media query inside the image.
    let auto_style = if style.mode == Mode::Auto {
        format!("<style>@media (prefers-color-scheme: dark) {{ .bg {{ fill: {dark_bg}; }} .fg {{ fill: {dark_fg}; }} }}</style>")
    } else {
        String::new()
    };
    let (caption_y, name_y, caption_size, name_size, anchor, text_x) = if style.shape == Shape::Square {
        (height * 2 / 5, height * 3 / 5, height / 10, height / 7, "middle", width / 2)
    } else {
        (height * 2 / 5, height * 3 / 4, height / 5, height * 2 / 5, "start", height)
    };
    let mark = if style.shape == Shape::Square {
        String::new()
    } else {
        let r = height / 4;
        format!(r#"<circle cx="{c}" cy="{c2}" r="{r}" fill="{ACCENT}"/>"#, c = height / 2, c2 = height / 2)
    };
    format!(
        concat!(
            r#"<svg xmlns="http://www.w3.org/2000/svg" width="{w}" height="{h}" viewBox="0 0 {w} {h}" role="img" aria-label="{label}">"#,
            "<title>{label}</title>{auto}",
            r#"<rect class="bg" x="1" y="1" width="{rw}" height="{rh}" rx="{radius}" fill="{bg}" stroke="{ACCENT}" stroke-width="{stroke}"/>"#,
            "{mark}",
            r#"<text class="fg" x="{tx}" y="{cy}" font-family="Helvetica, Arial, sans-serif" font-size="{cs}" font-weight="600" letter-spacing="0.5" text-anchor="{anchor}" fill="{fg}">{caption}</text>"#,
            r#"<text class="fg" x="{tx}" y="{ny}" font-family="Helvetica, Arial, sans-serif" font-size="{ns}" font-weight="700" text-anchor="{anchor}" fill="{fg}">{site}</text>"#,
            "</svg>"
        ),
        w = width,
        h = height,
        rw = width - 2,
        rh = height - 2,
        radius = radius,
        bg = bg,
        fg = fg,
        stroke = if style.shape == Shape::Outline { 2 } else { 1 },
        label = escape(&format!("{} {site_name}", badge.title)),
        auto = auto_style,
        mark = mark,
        tx = text_x,
        cy = caption_y,
        ny = name_y,
        cs = caption_size.max(8),
        ns = name_size.max(10),
        anchor = anchor,
        caption = escape(&badge.caption),
        site = escape(site_name),
        ACCENT = ACCENT,
    )
}

/// Why badges could not be read.
#[derive(Debug, thiserror::Error)]
pub enum BadgeError {
    #[error("no public listing has this slug")]
    NotFound,
    #[error(transparent)]
    Repo(#[from] RepoError),
}

/// The badge use cases.
#[derive(Clone)]
pub struct BadgeService {
    listings: Arc<dyn ListingRepository>,
    awards: Arc<dyn AwardRepository>,
}

impl BadgeService {
    pub fn new(listings: Arc<dyn ListingRepository>, awards: Arc<dyn AwardRepository>) -> Self {
        Self { listings, awards }
    }

    /// The listing (live, scheduled or waiting for its badge) and the badges it has earned.
    /// A listing waiting for its free launch needs the "Listed on" badge on its homepage, so it
    /// gets badges before it is live.
    pub async fn earned(&self, slug: &Slug) -> Result<(ListingSummary, Vec<EarnedBadge>), BadgeError> {
        let (listing, marks) = self.listings.find_marked(slug).await?.ok_or(BadgeError::NotFound)?;
        if !matches!(listing.status, ListingStatus::Live | ListingStatus::Scheduled | ListingStatus::AwaitingBadge) {
            return Err(BadgeError::NotFound);
        }
        let mut badges = vec![EarnedBadge { kind: BadgeKind::Listed, caption: "LISTED ON".into(), title: "Listed on".into(), week: None }];
        if marks.featured_at.is_some() {
            badges.push(EarnedBadge { kind: BadgeKind::Featured, caption: "FEATURED ON".into(), title: "Featured on".into(), week: None });
        }
        if marks.verified_at.is_some() {
            badges.push(EarnedBadge { kind: BadgeKind::Verified, caption: "VERIFIED ON".into(), title: "Verified on".into(), week: None });
        }
        if listing.status == ListingStatus::Live {
            badges.push(EarnedBadge { kind: BadgeKind::Launched, caption: "LAUNCHED ON".into(), title: "Launched on".into(), week: None });
        }
        if listing.status == ListingStatus::Live && marks.awards > 0 {
            let awards = self.awards.list(Some(listing.id), PageRequest::new(1, 100).unwrap_or_default()).await?;
            for award in awards.items {
                let rank = award.rank.min(3) as u8;
                badges.push(EarnedBadge {
                    kind: BadgeKind::LaunchOfTheWeek(rank),
                    caption: format!("#{rank} LAUNCH OF THE WEEK"),
                    title: format!("Launch of the Week #{rank} ({}) on", award.week),
                    week: Some(award.week),
                });
            }
        }
        Ok((listing, badges))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn listed() -> EarnedBadge {
        EarnedBadge { kind: BadgeKind::Listed, caption: "LISTED ON".into(), title: "Listed on".into(), week: None }
    }

    #[test]
    fn kinds_round_trip() {
        for kind in [
            BadgeKind::Listed,
            BadgeKind::Launched,
            BadgeKind::LaunchOfTheWeek(1),
            BadgeKind::LaunchOfTheWeek(3),
            BadgeKind::Featured,
            BadgeKind::Verified,
        ] {
            assert_eq!(BadgeKind::parse(&kind.code()), Some(kind));
        }
        assert_eq!(BadgeKind::parse("launch-of-the-week-4"), None);
        assert_eq!(BadgeKind::parse("sponsored"), None);
    }

    #[test]
    fn text_is_escaped() {
        let svg = render_svg(&listed(), "Tom & Jerry's <b>", BadgeStyle::default());
        assert!(svg.contains("Tom &amp; Jerry&#39;s &lt;b&gt;"));
        assert!(!svg.contains("<b>"));
        assert_eq!(escape("\"x\"\u{7}"), "&quot;x&quot;");
    }

    #[test]
    fn styles_change_the_image() {
        let auto = render_svg(&listed(), "Launchdir", BadgeStyle::default());
        assert!(auto.contains("prefers-color-scheme: dark"));
        let dark = render_svg(&listed(), "Launchdir", BadgeStyle { mode: Mode::Dark, ..BadgeStyle::default() });
        assert!(!dark.contains("prefers-color-scheme") && dark.contains("#111827"));
        let square = BadgeStyle { shape: Shape::Square, size: Size::L, mode: Mode::Light };
        assert_eq!(square.dimensions(), (150, 150));
        assert!(render_svg(&listed(), "Launchdir", square).contains(r#"width="150""#));
        assert_eq!(BadgeStyle { size: Size::S, ..BadgeStyle::default() }.dimensions(), (200, 43));
        let mut all = std::collections::HashSet::new();
        for shape in Shape::ALL {
            for mode in Mode::ALL {
                for size in Size::ALL {
                    all.insert(render_svg(&listed(), "Launchdir", BadgeStyle { shape: *shape, mode: *mode, size: *size }));
                }
            }
        }
        assert_eq!(all.len(), 5 * 3 * 3, "every combination draws a different image");
    }
}
