//! In-memory stand-ins for the media ports, for this crate's tests and other domains' (feature
//! `testing`): a store in a map and a codec that reads "WxH ..." text as a W × H picture (the job
//! queue is `kernel::MemoryJobQueue`).

use crate::{CleanImage, ImageCodec, ImageLimits, ImageRefusal, MediaService, MediaStore, SocialCard, StoreError};
use async_trait::async_trait;
use bytes::Bytes;
use kernel::ImageFormat;
use std::collections::BTreeMap;
use std::sync::{Arc, Mutex};

#[derive(Default)]
pub struct MemoryStore {
    pub objects: Mutex<BTreeMap<String, Bytes>>,
    /// Every write fails while set.
    pub down: Mutex<bool>,
}

#[async_trait]
impl MediaStore for MemoryStore {
    async fn put(&self, name: &str, bytes: Bytes, _content_type: &'static str) -> Result<(), StoreError> {
        if *self.down.lock().unwrap() {
            return Err(StoreError("down".into()));
        }
        self.objects.lock().unwrap().insert(name.to_owned(), bytes);
        Ok(())
    }

    async fn get(&self, name: &str) -> Result<Option<Bytes>, StoreError> {
        Ok(self.objects.lock().unwrap().get(name).cloned())
    }

    async fn delete(&self, name: &str) -> Result<(), StoreError> {
        self.objects.lock().unwrap().remove(name);
        Ok(())
    }
}

/// "300x200 rest" is a 300 × 200 image; anything else is not an image.
pub struct HeaderCodec;

pub fn header(bytes: &[u8]) -> Option<(u32, u32)> {
    let text = std::str::from_utf8(bytes).ok()?;
    let (size, _) = text.split_once(' ')?;
    let (width, height) = size.split_once('x')?;
    Some((width.parse().ok()?, height.parse().ok()?))
}

#[async_trait]
impl ImageCodec for HeaderCodec {
    async fn clean(&self, bytes: Bytes, limits: ImageLimits) -> Result<CleanImage, ImageRefusal> {
        let (width, height) = header(&bytes).ok_or(ImageRefusal::NotAnImage)?;
        if u64::from(width) * u64::from(height) > limits.max_pixels {
            return Err(ImageRefusal::TooManyPixels { width, height, max_pixels: limits.max_pixels, max_side: limits.max_side });
        }
        Ok(CleanImage { bytes: bytes.to_vec(), format: ImageFormat::Webp, width, height })
    }

    async fn scale(&self, original: Bytes, _format: ImageFormat, width: u32) -> Result<Vec<u8>, String> {
        let (w, h) = header(&original).ok_or("unreadable")?;
        Ok(format!("{width}x{} scaled", kernel::scaled_height(w, h, width)).into_bytes())
    }

    fn dimensions(&self, bytes: &[u8], _format: ImageFormat) -> Option<(u32, u32)> {
        header(bytes)
    }

    /// "1200x630 card <title> with <read> of <asked> logos".
    async fn draw_card(&self, card: SocialCard, logos: Vec<Option<(Bytes, ImageFormat)>>) -> Result<Vec<u8>, String> {
        let read = logos.iter().flatten().count();
        Ok(format!("1200x630 card {} with {read} of {} logos", card.title, logos.len()).into_bytes())
    }
}

/// A media service over the stand-ins.
pub fn media_service(clock: Arc<dyn kernel::Clock>) -> MediaService {
    MediaService::new(
        Arc::new(MemoryStore::default()),
        Arc::new(HeaderCodec),
        Arc::new(kernel::MemoryJobQueue::default()),
        clock,
        ImageLimits::default(),
    )
}
