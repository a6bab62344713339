//! `MediaService`: keeping an image (clean, hash, store, then scale in the background), checking
//! that a reference names an image we keep, and serving a copy by its object name.

use crate::{ImageCodec, ImageLimits, MediaError, MediaStore, Served, SocialCard};
use async_trait::async_trait;
use bytes::Bytes;
use kernel::{Clock, ImageRef, ImageSize, Job, JobHandler, JobOutcome, JobQueue, JobRun};
use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};
use std::collections::HashMap;
use std::sync::{Arc, Mutex};

/// Memory for copies served lately: logos and thumbnails a page shows dozens of, each a file
/// read (or an S3 request) otherwise. Objects never change, so a kept copy is never stale.
const HOT_BUDGET_BYTES: usize = 32 * 1024 * 1024;
/// Larger objects (full-size screenshots) are read from the store each time.
const HOT_MAX_OBJECT_BYTES: usize = 256 * 1024;

/// The copies kept in memory; when the budget is spent they are all let go (the hot ones come
/// back at once), which costs no bookkeeping per read.
#[derive(Default)]
struct HotObjects {
    bytes: usize,
    objects: HashMap<String, Bytes>,
}

impl HotObjects {
    fn get(&self, name: &str) -> Option<Bytes> {
        self.objects.get(name).cloned()
    }

    fn keep(&mut self, name: &str, bytes: &Bytes) {
        if bytes.len() > HOT_MAX_OBJECT_BYTES || self.objects.contains_key(name) {
            return;
        }
        if self.bytes + bytes.len() > HOT_BUDGET_BYTES {
            self.objects.clear();
            self.bytes = 0;
        }
        self.bytes += bytes.len();
        self.objects.insert(name.to_owned(), bytes.clone());
    }
}

/// Makes the scaled copies of a kept image that pages ask for.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ScaleImage {
    pub image: ImageRef,
}

impl Job for ScaleImage {
    const KIND: &'static str = "media.scale";
}

/// Images in and out of the media store.
#[derive(Clone)]
pub struct MediaService {
    store: Arc<dyn MediaStore>,
    codec: Arc<dyn ImageCodec>,
    jobs: Arc<dyn JobQueue>,
    clock: Arc<dyn Clock>,
    limits: ImageLimits,
    hot: Arc<Mutex<HotObjects>>,
}

impl MediaService {
    pub fn new(
        store: Arc<dyn MediaStore>,
        codec: Arc<dyn ImageCodec>,
        jobs: Arc<dyn JobQueue>,
        clock: Arc<dyn Clock>,
        limits: ImageLimits,
    ) -> Self {
        Self { store, codec, jobs, clock, limits, hot: Arc::default() }
    }

    pub fn limits(&self) -> ImageLimits {
        self.limits
    }

    /// Keeps an image: cleaned by the codec, stored under the hash of the clean bytes, its
    /// scaled copies left to a job. The same picture kept twice is one image. Nothing is stored
    /// when the image is refused.
    pub async fn keep(&self, bytes: Bytes) -> Result<ImageRef, MediaError> {
        let clean = self.codec.clean(bytes, self.limits).await?;
        let hash: [u8; 32] = Sha256::digest(&clean.bytes).into();
        let image = ImageRef::new(hash, clean.format, clean.width, clean.height);
        self.store.put(&image.object_name(ImageSize::Original), Bytes::from(clean.bytes), clean.format.content_type()).await?;
        if image.scaled_widths().next().is_some() {
            let job = ScaleImage { image }.new_job(self.clock.now()).unique(format!("{}:{}", ScaleImage::KIND, image.hash_hex()));
            // A lost job costs nothing but time: the first request for a copy makes it.
            if let Err(error) = self.jobs.enqueue(job).await {
                tracing::warn!(image = %image, %error, "scaling was not queued");
            }
        }
        Ok(image)
    }

    /// Keeps an image and queues nothing: for seeds, which keep hundreds at once and would
    /// otherwise leave that many scaling jobs ahead of everyone else's. Each scaled copy is made
    /// the first time it is asked for, as [`MediaService::serve`] does for any copy not made yet
    /// (making them all at once took most of the demo's minute of drawing).
    pub async fn keep_unqueued(&self, bytes: Bytes) -> Result<ImageRef, MediaError> {
        let clean = self.codec.clean(bytes, self.limits).await?;
        let hash: [u8; 32] = Sha256::digest(&clean.bytes).into();
        let image = ImageRef::new(hash, clean.format, clean.width, clean.height);
        self.store.put(&image.object_name(ImageSize::Original), Bytes::from(clean.bytes), clean.format.content_type()).await?;
        Ok(image)
    }

    /// Checks that `image` names an image we keep, with the size it states.
    pub async fn check(&self, image: &ImageRef) -> Result<(), MediaError> {
        let original = self.store.get(&image.object_name(ImageSize::Original)).await?.ok_or(MediaError::Unknown)?;
        match self.codec.dimensions(&original, image.format()) {
            Some((width, height)) if width == image.width() && height == image.height() => Ok(()),
            _ => Err(MediaError::Unknown),
        }
    }

    /// The copy an address names (`<hash>-<size>.<ext>`): from the store, or, for a scaled copy
    /// not made yet, made now from the original and kept. `None` for a name that is not ours,
    /// an image we do not keep, or a width the original is not wider than.
    pub async fn serve(&self, name: &str) -> Result<Option<Served>, MediaError> {
        let Some((hash, size, format)) = ImageRef::parse_object_name(name) else { return Ok(None) };
        let served = |bytes: Bytes| Served { bytes, content_type: format.content_type(), name: name.to_owned() };
        let hot = self.hot.lock().unwrap_or_else(|poisoned| poisoned.into_inner()).get(name);
        if let Some(bytes) = hot {
            return Ok(Some(served(bytes)));
        }
        if let Some(bytes) = self.store.get(name).await? {
            self.hot.lock().unwrap_or_else(|poisoned| poisoned.into_inner()).keep(name, &bytes);
            return Ok(Some(served(bytes)));
        }
        let ImageSize::Width(width) = size else { return Ok(None) };
        let probe = ImageRef::new(hash, format, 1, 1);
        let Some(original) = self.store.get(&probe.object_name(ImageSize::Original)).await? else { return Ok(None) };
        let (original_width, original_height) =
            self.codec.dimensions(&original, format).ok_or_else(|| MediaError::Scale("its header cannot be read".into()))?;
        if width >= original_width {
            return Ok(None);
        }
        let image = ImageRef::new(hash, format, original_width, original_height);
        Ok(Some(served(self.make_copy(&image, original, width).await?)))
    }

    /// A social card: kept already, or drawn now (with the logos' kept copies) and kept, under
    /// the name of what it says, so it is also served at its `/media/` address from then on.
    pub async fn card(&self, card: SocialCard) -> Result<Served, MediaError> {
        let card = card.trimmed();
        let image = card.image();
        let name = image.object_name(ImageSize::Original);
        let served = |bytes: Bytes| Served { bytes, content_type: image.format().content_type(), name: name.clone() };
        if let Some(bytes) = self.hot.lock().unwrap_or_else(|poisoned| poisoned.into_inner()).get(&name) {
            return Ok(served(bytes));
        }
        if let Some(bytes) = self.store.get(&name).await? {
            self.hot.lock().unwrap_or_else(|poisoned| poisoned.into_inner()).keep(&name, &bytes);
            return Ok(served(bytes));
        }
        let mut logos = Vec::with_capacity(card.logos.len());
        for logo in &card.logos {
            // A logo that cannot be read costs the card its picture, not the card itself.
            // `size_for` counts CSS pixels at double density: half the card's pixels is the width.
            let copy = match self.serve(&logo.object_name(logo.size_for(SocialCard::LOGO_PX.div_ceil(2)))).await {
                Ok(copy) => copy.map(|copy| (copy.bytes, logo.format())),
                Err(error) => {
                    tracing::warn!(image = %logo, %error, "a logo was left off a social card");
                    None
                }
            };
            logos.push(copy);
        }
        let bytes = Bytes::from(self.codec.draw_card(card, logos).await.map_err(MediaError::Draw)?);
        self.store.put(&name, bytes.clone(), image.format().content_type()).await?;
        self.hot.lock().unwrap_or_else(|poisoned| poisoned.into_inner()).keep(&name, &bytes);
        Ok(served(bytes))
    }

    async fn make_copy(&self, image: &ImageRef, original: Bytes, width: u32) -> Result<Bytes, MediaError> {
        let scaled = Bytes::from(self.codec.scale(original, image.format(), width).await.map_err(MediaError::Scale)?);
        self.store.put(&image.object_name(ImageSize::Width(width)), scaled.clone(), image.format().content_type()).await?;
        Ok(scaled)
    }
}

#[async_trait]
impl JobHandler<ScaleImage> for MediaService {
    async fn run(&self, job: ScaleImage, _run: JobRun) -> JobOutcome {
        let image = job.image;
        let original = match self.store.get(&image.object_name(ImageSize::Original)).await {
            Ok(Some(original)) => original,
            Ok(None) => return JobOutcome::Failed(format!("{} is not kept", image.hash_hex())),
            Err(error) => return JobOutcome::Retry(error.to_string()),
        };
        let mut made = Vec::new();
        for width in image.scaled_widths() {
            match self.make_copy(&image, original.clone(), width).await {
                Ok(_) => made.push(width),
                Err(MediaError::Store(error)) => return JobOutcome::Retry(error.to_string()),
                Err(error) => return JobOutcome::Failed(error.to_string()),
            }
        }
        JobOutcome::Done(serde_json::json!({ "image": image.to_string(), "widths": made }))
    }
}

#[cfg(test)]
mod tests;
