//! The ports of the media domain: decoding and encoding images, and keeping bytes.

use crate::{CleanImage, ImageLimits, ImageRefusal, SocialCard, StoreError};
use async_trait::async_trait;
use bytes::Bytes;
use kernel::ImageFormat;

/// Decodes images within limits and writes them again. CPU-bound: adapters run it off the
/// threads that answer requests.
#[async_trait]
pub trait ImageCodec: Send + Sync {
    /// Checks the limits from the header, decodes, applies the orientation, keeps the first
    /// frame, and re-encodes in our format for it (JPEG when opaque, lossless WebP otherwise).
    /// SVG is rasterized, never kept as markup, and refused when it holds scripts, event
    /// handlers, external references or text.
    async fn clean(&self, bytes: Bytes, limits: ImageLimits) -> Result<CleanImage, ImageRefusal>;

    /// A kept original scaled to `width` (narrower than it), in the same format.
    async fn scale(&self, original: Bytes, format: ImageFormat, width: u32) -> Result<Vec<u8>, String>;

    /// The width and height a kept image's header states.
    fn dimensions(&self, bytes: &[u8], format: ImageFormat) -> Option<(u32, u32)>;

    /// Draws a social card as a PNG of `SocialCard::WIDTH` × `SocialCard::HEIGHT`. `logos` holds,
    /// for each of the card's logos in order, a kept copy of it and its format, or `None` where
    /// none could be read (a tile with the title's first letter is drawn instead).
    async fn draw_card(&self, card: SocialCard, logos: Vec<Option<(Bytes, ImageFormat)>>) -> Result<Vec<u8>, String>;
}

/// Where kept bytes live, by object name (`<hash>-<size>.<ext>`). Objects are written once and
/// never change, so any copy of one is as good as another.
#[async_trait]
pub trait MediaStore: Send + Sync {
    /// Writes an object; writing one that exists already changes nothing.
    async fn put(&self, name: &str, bytes: Bytes, content_type: &'static str) -> Result<(), StoreError>;

    /// An object's bytes, or `None` when there is none by that name.
    async fn get(&self, name: &str) -> Result<Option<Bytes>, StoreError>;

    /// Removes an object; removing one that does not exist is not an error.
    async fn delete(&self, name: &str) -> Result<(), StoreError>;
}
