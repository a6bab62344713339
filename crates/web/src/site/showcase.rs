//! What a listing page shows of the product itself: its logo, its gallery (pictures that work
//! without script and with the keyboard: a row of links to each full picture), and its demo
//! video behind a preview that loads nothing from the video's site until it is pressed; and
//! the pictures of its founders.

use super::Picture;
use kernel::{ImageRef, ImageSize};
use ops::wire::{ImageView, MediaView};

/// How wide the listing page's logo is, in CSS pixels.
pub(crate) const PAGE_LOGO_PX: u32 = 64;

/// How wide a gallery picture is shown at most, in CSS pixels.
const SHOT_PX: u32 = 640;

/// The picture of a kept image an answer names.
fn image_of(view: &ImageView) -> Option<ImageRef> {
    ImageRef::parse(&view.image).ok()
}

pub(crate) fn logo(view: Option<&ImageView>) -> Option<Picture> {
    square(view, PAGE_LOGO_PX)
}

/// A kept image fitted in a square box `css_px` wide: a logo, a founder's picture.
pub(crate) fn square(view: Option<&ImageView>, css_px: u32) -> Option<Picture> {
    view.and_then(image_of).map(|image| Picture::logo(&image, css_px))
}

/// A person as the pages show them: their picture, or their initial on a round tile.
pub(crate) struct Person<T> {
    pub person: T,
    pub avatar: Option<Picture>,
    pub initial: char,
}

impl<T> Person<T> {
    pub fn new(person: T, name: &str, avatar: Option<&ImageView>, css_px: u32) -> Self {
        let initial = name.chars().find(|c| c.is_alphanumeric()).map_or('·', |c| c.to_uppercase().next().unwrap_or(c));
        Self { person, avatar: square(avatar, css_px), initial }
    }
}

/// One picture of the gallery.
pub(crate) struct Shot {
    pub picture: Picture,
    /// The original, which the picture links to.
    pub full: String,
    pub alt: String,
}

pub(crate) fn gallery(media: Option<&Vec<MediaView>>) -> Vec<Shot> {
    media
        .into_iter()
        .flatten()
        .filter_map(|item| {
            let image = image_of(&item.image)?;
            Some(Shot {
                picture: Picture::of(&image, SHOT_PX.min(image.width())),
                full: image.path(ImageSize::Original),
                alt: item.caption.clone().unwrap_or_default(),
            })
        })
        .collect()
}

/// A demo video: where it is, and the player our script puts in its place when pressed.
pub(crate) struct Video {
    /// The maker's link, which the preview is without script.
    pub url: String,
    /// The player's address; `None` for a site we have no player for (the link only).
    pub player: Option<String>,
    /// `YouTube`, `Vimeo`, `Loom`, or the link's host.
    pub site: String,
}

/// The video a listing's `demo_video_url` names.
pub(crate) fn video(url: Option<&str>) -> Option<Video> {
    let url = url?;
    let parsed = kernel::WebUrl::parse(url).ok()?;
    let host = parsed.site_domain().trim_start_matches("m.").to_owned();
    let path: Vec<&str> = parsed.path().trim_start_matches('/').split('/').collect();
    let query = parsed.as_str().split_once('?').map_or("", |(_, query)| query);
    let id_ok = |id: &&str| !id.is_empty() && id.len() <= 64 && id.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_');
    let (site, player) = match host.as_str() {
        "youtube.com" => {
            let id = match path.as_slice() {
                ["watch"] => query.split('&').find_map(|pair| pair.strip_prefix("v=")),
                ["embed" | "shorts" | "live", id, ..] => Some(*id),
                _ => None,
            };
            ("YouTube", id.filter(id_ok).map(|id| format!("https://www.youtube-nocookie.com/embed/{id}?autoplay=1")))
        }
        "youtu.be" => {
            ("YouTube", path.first().copied().filter(id_ok).map(|id| format!("https://www.youtube-nocookie.com/embed/{id}?autoplay=1")))
        }
        "vimeo.com" => (
            "Vimeo",
            path.first()
                .copied()
                .filter(|id| id_ok(id) && id.bytes().all(|b| b.is_ascii_digit()))
                .map(|id| format!("https://player.vimeo.com/video/{id}?autoplay=1")),
        ),
        "loom.com" => (
            "Loom",
            match path.as_slice() {
                ["share" | "embed", id, ..] if id_ok(id) => Some(format!("https://www.loom.com/embed/{id}?autoplay=1")),
                _ => None,
            },
        ),
        _ => ("", None),
    };
    let site = if site.is_empty() { host } else { site.to_owned() };
    Some(Video { url: url.to_owned(), player, site })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_video_site_gets_its_privacy_minded_player_and_others_a_link() {
        let player = |url: &str| video(Some(url)).and_then(|video| video.player);
        assert_eq!(
            player("https://www.youtube.com/watch?v=dQw4w9WgXcQ&t=10").as_deref(),
            Some("https://www.youtube-nocookie.com/embed/dQw4w9WgXcQ?autoplay=1")
        );
        assert_eq!(
            player("https://youtu.be/dQw4w9WgXcQ").as_deref(),
            Some("https://www.youtube-nocookie.com/embed/dQw4w9WgXcQ?autoplay=1")
        );
        assert_eq!(player("https://vimeo.com/76979871").as_deref(), Some("https://player.vimeo.com/video/76979871?autoplay=1"));
        assert_eq!(
            player("https://www.loom.com/share/0281766fa2d04bb788eaf19e65135184").as_deref(),
            Some("https://www.loom.com/embed/0281766fa2d04bb788eaf19e65135184?autoplay=1")
        );
        assert_eq!(player("https://www.youtube.com/watch?v=bad\"id"), None);
        let other = video(Some("https://videos.example/demo.mp4")).unwrap();
        assert_eq!((other.player, other.site.as_str()), (None, "videos.example"));
        assert!(video(None).is_none());
    }
}
