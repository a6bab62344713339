//! `SocialCard`: the picture a social network shows beside a link to one of our pages (a
//! listing, a launch week, a founder). It is named by the hash of what it says, so a card is
//! drawn once, kept in the media store like any image, and drawn anew only when what it shows
//! changes (then its name, and the address the page gives, change with it).

use kernel::{ImageFormat, ImageRef};
use serde::Serialize;
use sha2::{Digest, Sha256};

/// What a card says. The drawing is the codec's (`ImageCodec::draw_card`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct SocialCard {
    /// The site's name, in the top corner.
    pub site_name: String,
    /// What kind of page it is ("Product", "Launch week", "Founder"), beside the site's name.
    pub kind: String,
    /// The largest line: the product's, week's or person's name.
    pub title: String,
    /// The line under it (a tagline, a title), when there is one.
    pub subtitle: Option<String>,
    /// Up to [`SocialCard::MAX_LOGOS`] images we keep, drawn beside the text. With none, the
    /// title's first letter is drawn on a tile, as the site's cards do.
    pub logos: Vec<ImageRef>,
    /// Short facts along the bottom ("▲ 124 votes", "Launched the week of 2026-11-23"), at most
    /// [`SocialCard::MAX_FACTS`].
    pub facts: Vec<String>,
}

impl SocialCard {
    /// The size social networks ask for (1.91:1).
    pub const WIDTH: u32 = 1200;
    pub const HEIGHT: u32 = 630;
    pub const MAX_LOGOS: usize = 3;
    pub const MAX_FACTS: usize = 3;
    /// The widest a logo is drawn, in pixels of the card: the copy at least this wide is used.
    pub const LOGO_PX: u32 = 168;
    /// Raised whenever the drawing changes, so that every card is drawn anew in the new look.
    const DRAWING: u32 = 1;

    /// The card as an image of ours: named by the hash of what it says and how it is drawn.
    pub fn image(&self) -> ImageRef {
        let said = serde_json::to_vec(&(Self::DRAWING, self)).unwrap_or_default();
        ImageRef::new(Sha256::digest(&said).into(), ImageFormat::Png, Self::WIDTH, Self::HEIGHT)
    }

    /// A short version of that name, for the address a page gives (`?v=`): a card that says
    /// something new gets a new address, so networks that keep cards a long time ask again.
    pub fn version(&self) -> String {
        self.image().hash_hex()[..16].to_owned()
    }

    /// What the card shows, in words, for its `alt` text.
    pub fn described(&self) -> String {
        let mut lines = vec![self.title.clone()];
        lines.extend(self.subtitle.clone());
        lines.extend(self.facts.iter().take(Self::MAX_FACTS).cloned());
        lines.retain(|line| !line.trim().is_empty());
        format!("{}: {}", self.site_name, lines.join(". "))
    }

    /// Only what is drawn: at most three logos and three facts, blank lines dropped.
    pub fn trimmed(mut self) -> Self {
        self.logos.truncate(Self::MAX_LOGOS);
        self.facts.retain(|fact| !fact.trim().is_empty());
        self.facts.truncate(Self::MAX_FACTS);
        self.subtitle = self.subtitle.filter(|subtitle| !subtitle.trim().is_empty());
        self
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn card() -> SocialCard {
        SocialCard {
            site_name: "Launchdir".into(),
            kind: "Product".into(),
            title: "Acme".into(),
            subtitle: Some("Rockets for everyone".into()),
            logos: vec![],
            facts: vec!["▲ 12 votes".into()],
        }
    }

    #[test]
    fn a_card_is_named_by_what_it_says() {
        let first = card();
        assert_eq!(first.image(), card().image());
        assert_eq!(first.image().format(), ImageFormat::Png);
        assert_eq!((first.image().width(), first.image().height()), (1200, 630));
        let voted = SocialCard { facts: vec!["▲ 13 votes".into()], ..card() };
        assert_ne!(voted.image(), first.image(), "a new vote count is a new card");
        assert_ne!(voted.version(), first.version());
        assert_eq!(first.version().len(), 16);
        assert_eq!(first.described(), "Launchdir: Acme. Rockets for everyone. ▲ 12 votes");
    }

    #[test]
    fn only_what_is_drawn_is_kept() {
        let logo = ImageRef::new([1; 32], ImageFormat::Webp, 64, 64);
        let crowded = SocialCard {
            subtitle: Some("  ".into()),
            logos: vec![logo; 5],
            facts: vec!["a".into(), " ".into(), "b".into(), "c".into(), "d".into()],
            ..card()
        }
        .trimmed();
        assert_eq!(crowded.logos.len(), 3);
        assert_eq!(crowded.facts, ["a", "b", "c"]);
        assert_eq!(crowded.subtitle, None);
    }
}
