//! `ImageCodec` on the `image` crate (PNG, JPEG, WebP, GIF) and `resvg` (SVG): every image is
//! held to the limits from its header before a pixel is decoded, decoded once, turned upright,
//! cut to its first frame, and written again as JPEG (opaque) or lossless WebP (transparent), so
//! no byte of what was uploaded (metadata, trailing data, scripts) is ever served. Social cards
//! are drawn here too, with a bundled font.

mod card;
pub mod generated;
mod raster;
mod svg;
#[cfg(any(test, feature = "testing"))]
pub mod testing;

use async_trait::async_trait;
use bytes::Bytes;
use kernel::ImageFormat;
use media::{CleanImage, ImageCodec, ImageLimits, ImageRefusal, SocialCard};

/// Social cards drawn at once, by every codec of the process.
static DRAWING: tokio::sync::Semaphore = tokio::sync::Semaphore::const_new(1);

/// The codec the server uses.
#[derive(Debug, Clone, Copy, Default)]
pub struct ImageCrateCodec;

#[async_trait]
impl ImageCodec for ImageCrateCodec {
    async fn clean(&self, bytes: Bytes, limits: ImageLimits) -> Result<CleanImage, ImageRefusal> {
        // Decoding takes tens of milliseconds: off the threads that answer requests.
        tokio::task::spawn_blocking(move || clean(&bytes, limits))
            .await
            .unwrap_or_else(|_| Err(ImageRefusal::Broken { format: "image", detail: "its decoder failed".into() }))
    }

    async fn scale(&self, original: Bytes, format: ImageFormat, width: u32) -> Result<Vec<u8>, String> {
        tokio::task::spawn_blocking(move || raster::scale(&original, format, width))
            .await
            .unwrap_or_else(|_| Err("the scaler failed".into()))
    }

    fn dimensions(&self, bytes: &[u8], format: ImageFormat) -> Option<(u32, u32)> {
        raster::dimensions(bytes, format)
    }

    async fn draw_card(&self, card: SocialCard, logos: Vec<Option<(Bytes, ImageFormat)>>) -> Result<Vec<u8>, String> {
        // A card takes a core for about 20 ms, and anyone may ask for the card of any listing:
        // one is drawn at a time, so a crawl of cards never takes every core from the pages.
        let _turn = DRAWING.acquire().await.map_err(|_| "the card's drawing was stopped".to_owned())?;
        tokio::task::spawn_blocking(move || card::draw(&card, &logos)).await.unwrap_or_else(|_| Err("the card's drawing failed".into()))
    }
}

/// Cleans an image now, on the calling thread.
pub fn clean(bytes: &[u8], limits: ImageLimits) -> Result<CleanImage, ImageRefusal> {
    if bytes.is_empty() {
        return Err(ImageRefusal::Empty);
    }
    if bytes.len() > limits.max_bytes {
        return Err(ImageRefusal::TooManyBytes { bytes: bytes.len(), max: limits.max_bytes });
    }
    match image::guess_format(bytes) {
        Ok(format) => raster::clean(bytes, format, limits),
        Err(_) if svg::looks_like_svg(bytes) => svg::clean(bytes, limits),
        Err(_) => Err(ImageRefusal::NotAnImage),
    }
}

#[cfg(test)]
mod tests;
