//! `ImageRef`: an image we keep, named by the SHA-256 of its cleaned bytes, with the format and
//! size it was kept in, and the addresses it is served at (`/media/<hash>-<size>.<ext>`).

use crate::InvalidValue;
use crate::secrets::hex;
use serde::{Deserialize, Deserializer, Serialize};
use std::fmt;

/// The formats a kept image is written in: every upload is decoded and re-encoded into one.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum ImageFormat {
    /// Opaque images (photos, screenshots).
    Jpeg,
    /// Images with transparency (logos), losslessly.
    Webp,
    /// Social cards, which crawlers of every kind read.
    Png,
}

impl ImageFormat {
    pub const ALL: [ImageFormat; 3] = [Self::Jpeg, Self::Webp, Self::Png];

    /// The file name extension of its addresses.
    pub fn extension(self) -> &'static str {
        match self {
            Self::Jpeg => "jpg",
            Self::Webp => "webp",
            Self::Png => "png",
        }
    }

    pub fn content_type(self) -> &'static str {
        match self {
            Self::Jpeg => "image/jpeg",
            Self::Webp => "image/webp",
            Self::Png => "image/png",
        }
    }

    pub fn from_extension(extension: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|format| format.extension() == extension)
    }
}

/// Which copy of an image an address serves: the cleaned original, or one scaled to a width.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum ImageSize {
    Original,
    /// Scaled to this width, keeping the aspect ratio; one of [`ImageSize::WIDTHS`].
    Width(u32),
}

impl ImageSize {
    /// The widths pages use: logos at 48 and 96 px (and their double for dense screens),
    /// gallery images at up to 640 px wide (and double).
    pub const WIDTHS: [u32; 5] = [64, 128, 256, 640, 1280];

    /// The name in an address (`full`, `128`).
    pub fn name(self) -> String {
        match self {
            Self::Original => "full".into(),
            Self::Width(width) => width.to_string(),
        }
    }

    pub fn parse(name: &str) -> Option<Self> {
        match name {
            "full" => Some(Self::Original),
            _ => name.parse().ok().filter(|width| Self::WIDTHS.contains(width)).map(Self::Width),
        }
    }
}

/// An image we keep. Its text form (`<hash>.<ext>:<width>x<height>`) is what the database and
/// the API's image fields hold; its addresses are what pages and answers link to.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct ImageRef {
    hash: [u8; 32],
    format: ImageFormat,
    width: u32,
    height: u32,
}

impl ImageRef {
    /// The largest side an image may have (the decoder's limit is lower still).
    pub const MAX_SIDE: u32 = 100_000;

    /// The shape of a reference as [`ImageRef::parse`] reads it (sides below [`Self::MAX_SIDE`]),
    /// for schemas: whether an image of that name is kept is for the media service to say.
    pub const PATTERN: &'static str = r"^[0-9a-f]{64}\.(jpg|webp|png):[1-9][0-9]{0,4}x[1-9][0-9]{0,4}$";

    pub fn new(hash: [u8; 32], format: ImageFormat, width: u32, height: u32) -> Self {
        Self { hash, format, width, height }
    }

    pub fn hash(&self) -> &[u8; 32] {
        &self.hash
    }

    /// The hash in lower-case hex, as addresses spell it.
    pub fn hash_hex(&self) -> String {
        hex(&self.hash)
    }

    pub fn format(&self) -> ImageFormat {
        self.format
    }

    pub fn width(&self) -> u32 {
        self.width
    }

    pub fn height(&self) -> u32 {
        self.height
    }

    /// The scaled copies it has: every standard width narrower than the original.
    pub fn scaled_widths(&self) -> impl Iterator<Item = u32> + '_ {
        ImageSize::WIDTHS.into_iter().filter(|width| *width < self.width)
    }

    /// The height of the copy at `size`, by the aspect ratio (at least 1 px).
    pub fn height_at(&self, size: ImageSize) -> u32 {
        match size {
            ImageSize::Original => self.height,
            ImageSize::Width(width) => scaled_height(self.width, self.height, width),
        }
    }

    /// The name of the stored object for `size` (`<hash>-<size>.<ext>`).
    pub fn object_name(&self, size: ImageSize) -> String {
        format!("{}-{}.{}", self.hash_hex(), size.name(), self.format.extension())
    }

    /// The address on our origin, from the site's root (`/media/<hash>-<size>.<ext>`).
    pub fn path(&self, size: ImageSize) -> String {
        format!("/media/{}", self.object_name(size))
    }

    /// The copy that best fills `css_px` at twice the density: the narrowest scaled copy at
    /// least that wide, or the original.
    pub fn size_for(&self, css_px: u32) -> ImageSize {
        self.scaled_widths().find(|width| *width >= css_px * 2).map_or(ImageSize::Original, ImageSize::Width)
    }

    /// `srcset` for an `img`: every scaled copy and the original, by width.
    pub fn srcset(&self) -> String {
        let mut set: Vec<String> = self.scaled_widths().map(|w| format!("{} {w}w", self.path(ImageSize::Width(w)))).collect();
        set.push(format!("{} {}w", self.path(ImageSize::Original), self.width));
        set.join(", ")
    }

    pub fn parse(raw: &str) -> Result<Self, InvalidValue> {
        let refused = || InvalidValue("is not an image of ours (upload_image answers with one)".into());
        let (name, dimensions) = raw.split_once(':').ok_or_else(refused)?;
        let (hash, extension) = name.split_once('.').ok_or_else(refused)?;
        let (width, height) = dimensions.split_once('x').ok_or_else(refused)?;
        let format = ImageFormat::from_extension(extension).ok_or_else(refused)?;
        let hash = parse_hash(hash).ok_or_else(refused)?;
        let side = |raw: &str| raw.parse::<u32>().ok().filter(|side| (1..=Self::MAX_SIDE).contains(side) && !raw.starts_with('0'));
        match (side(width), side(height)) {
            (Some(width), Some(height)) => Ok(Self { hash, format, width, height }),
            _ => Err(refused()),
        }
    }

    /// Reads the object name of an address (`<hash>-<size>.<ext>`): the hash, size and format.
    pub fn parse_object_name(name: &str) -> Option<([u8; 32], ImageSize, ImageFormat)> {
        let (stem, extension) = name.rsplit_once('.')?;
        let (hash, size) = stem.split_once('-')?;
        Some((parse_hash(hash)?, ImageSize::parse(size)?, ImageFormat::from_extension(extension)?))
    }
}

/// `width`'s share of `height`, rounded, at least 1.
pub fn scaled_height(width: u32, height: u32, to_width: u32) -> u32 {
    ((u64::from(height) * u64::from(to_width) + u64::from(width) / 2) / u64::from(width.max(1))).max(1) as u32
}

fn parse_hash(raw: &str) -> Option<[u8; 32]> {
    if raw.len() != 64 || !raw.bytes().all(|b| b.is_ascii_digit() || (b'a'..=b'f').contains(&b)) {
        return None;
    }
    let mut hash = [0u8; 32];
    for (at, byte) in hash.iter_mut().enumerate() {
        *byte = u8::from_str_radix(&raw[at * 2..at * 2 + 2], 16).ok()?;
    }
    Some(hash)
}

impl fmt::Display for ImageRef {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}.{}:{}x{}", self.hash_hex(), self.format.extension(), self.width, self.height)
    }
}

impl std::str::FromStr for ImageRef {
    type Err = InvalidValue;

    fn from_str(raw: &str) -> Result<Self, InvalidValue> {
        Self::parse(raw)
    }
}

impl Serialize for ImageRef {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_str(self)
    }
}

impl<'de> Deserialize<'de> for ImageRef {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let raw = String::deserialize(deserializer)?;
        Self::parse(&raw).map_err(serde::de::Error::custom)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sample() -> ImageRef {
        ImageRef::new([0xab; 32], ImageFormat::Webp, 300, 200)
    }

    #[test]
    fn text_form_round_trips_and_names_its_addresses() {
        let image = sample();
        let text = image.to_string();
        assert_eq!(text, format!("{}.webp:300x200", "ab".repeat(32)));
        assert_eq!(ImageRef::parse(&text).unwrap(), image);
        assert_eq!(image.path(ImageSize::Width(128)), format!("/media/{}-128.webp", "ab".repeat(32)));
        assert_eq!(
            ImageRef::parse_object_name(&image.object_name(ImageSize::Original)),
            Some(([0xab; 32], ImageSize::Original, ImageFormat::Webp))
        );
        assert_eq!(ImageRef::parse_object_name(&format!("{}-100.webp", "ab".repeat(32))), None, "only the standard widths");
    }

    #[test]
    fn scaled_copies_are_the_standard_widths_below_the_original() {
        let image = sample();
        assert_eq!(image.scaled_widths().collect::<Vec<_>>(), vec![64, 128, 256]);
        assert_eq!(image.height_at(ImageSize::Width(128)), 85);
        assert_eq!(image.size_for(48), ImageSize::Width(128));
        assert_eq!(image.size_for(200), ImageSize::Original);
        assert!(image.srcset().ends_with("-full.webp 300w"));
    }

    #[test]
    fn anything_else_is_refused() {
        let pattern = regex::Regex::new(ImageRef::PATTERN).unwrap();
        let hash = "ab".repeat(32);
        for raw in [
            String::new(),
            format!("{hash}.gif:10x10"),
            format!("{hash}.png:0x10"),
            format!("{hash}.png:010x10"),
            format!("{hash}.png:10"),
            format!("{}.png:10x10", "AB".repeat(32)),
            format!("{}.png:10x10", "ab".repeat(31)),
            format!("../{hash}.png:10x10"),
        ] {
            assert!(ImageRef::parse(&raw).is_err(), "{raw}");
            assert!(!pattern.is_match(&raw), "the schema admits {raw}");
        }
    }

    #[test]
    fn the_schema_pattern_admits_exactly_what_parses() {
        let pattern = regex::Regex::new(ImageRef::PATTERN).unwrap();
        let hash = "0f".repeat(32);
        for (raw, parses) in [
            (sample().to_string(), true),
            (format!("{hash}.jpg:99999x1"), true),
            (format!("{hash}.png:1x10000"), true),
            (format!("{hash}.jpg:100001x1"), false),
            (format!("{hash}.jpeg:1x1"), false),
            (format!(" {hash}.jpg:1x1"), false),
        ] {
            assert_eq!(ImageRef::parse(&raw).is_ok(), parses, "{raw}");
            assert_eq!(pattern.is_match(&raw), parses, "{raw}");
        }
    }
}
