//! In-memory stand-ins for the media ports, for this crate's tests and other domains' (feature
//! `testing`): a store in a map, a codec that reads "WxH ..." text as a W × H picture, and a job
//! queue that records what it is given.

use crate::{CleanImage, ImageCodec, ImageLimits, ImageRefusal, MediaService, MediaStore, StoreError};
use async_trait::async_trait;
use bytes::Bytes;
use kernel::{ClaimedJob, ImageFormat, JobQueue, JobState, NewJob, RepoError};
use std::collections::BTreeMap;
use std::sync::{Arc, Mutex};
use time::{Duration, OffsetDateTime};

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
}

/// Records the jobs enqueued; claims none.
#[derive(Default)]
pub struct MemoryQueue(pub Mutex<Vec<NewJob>>);

#[async_trait]
impl JobQueue for MemoryQueue {
    async fn enqueue(&self, job: NewJob) -> Result<bool, RepoError> {
        let mut jobs = self.0.lock().unwrap();
        if jobs.iter().any(|queued| queued.unique_key.is_some() && queued.unique_key == job.unique_key) {
            return Ok(false);
        }
        jobs.push(job);
        Ok(true)
    }
    async fn claim(&self, _: OffsetDateTime, _: Duration, _: &str) -> Result<Option<ClaimedJob>, RepoError> {
        Ok(None)
    }
    async fn complete(&self, _: i64, _: u32, _: OffsetDateTime) -> Result<bool, RepoError> {
        Ok(true)
    }
    async fn fail(&self, _: i64, _: u32, _: &str, _: Option<OffsetDateTime>, _: OffsetDateTime) -> Result<bool, RepoError> {
        Ok(true)
    }
    async fn release(&self, _: &[String], _: OffsetDateTime) -> Result<u64, RepoError> {
        Ok(0)
    }
    async fn state(&self, _: i64) -> Result<Option<(JobState, u32, Option<String>)>, RepoError> {
        Ok(None)
    }
}

/// A media service over the stand-ins.
pub fn media_service(clock: Arc<dyn kernel::Clock>) -> MediaService {
    MediaService::new(
        Arc::new(MemoryStore::default()),
        Arc::new(HeaderCodec),
        Arc::new(MemoryQueue::default()),
        clock,
        ImageLimits::default(),
    )
}
