//! `MediaService` over an in-memory store and a codec that reads sizes from a text header, so
//! the service's own rules are tested without decoding pictures (the codec has its own tests).

use super::*;
use crate::{CleanImage, ImageRefusal, StoreError};
use kernel::{ClaimedJob, FixedClock, ImageFormat, JobState, NewJob, RepoError};
use std::collections::BTreeMap;
use std::sync::Mutex;
use time::{Duration, OffsetDateTime};

#[derive(Default)]
struct MemoryStore {
    objects: Mutex<BTreeMap<String, Bytes>>,
    down: Mutex<bool>,
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
struct HeaderCodec;

fn header(bytes: &[u8]) -> Option<(u32, u32)> {
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

#[derive(Default)]
struct Queue(Mutex<Vec<NewJob>>);

#[async_trait]
impl JobQueue for Queue {
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

fn service() -> (MediaService, Arc<MemoryStore>, Arc<Queue>) {
    let store = Arc::new(MemoryStore::default());
    let queue = Arc::new(Queue::default());
    let clock = Arc::new(FixedClock::new(OffsetDateTime::UNIX_EPOCH));
    let media = MediaService::new(store.clone(), Arc::new(HeaderCodec), queue.clone(), clock, ImageLimits::default());
    (media, store, queue)
}

#[tokio::test]
async fn the_same_picture_kept_twice_is_one_image_and_one_scaling_job() {
    let (media, store, queue) = service();
    let first = media.keep(Bytes::from_static(b"300x200 logo")).await.unwrap();
    let again = media.keep(Bytes::from_static(b"300x200 logo")).await.unwrap();
    assert_eq!(first, again);
    assert_eq!((first.width(), first.height(), first.format()), (300, 200, ImageFormat::Webp));
    assert_eq!(store.objects.lock().unwrap().keys().cloned().collect::<Vec<_>>(), vec![first.object_name(ImageSize::Original)]);
    let jobs = queue.0.lock().unwrap();
    assert_eq!(jobs.len(), 1);
    assert_eq!(jobs[0].kind, ScaleImage::KIND);
}

#[tokio::test]
async fn a_refused_image_stores_nothing_and_a_small_one_needs_no_scaling() {
    let (media, store, queue) = service();
    assert_eq!(media.keep(Bytes::from_static(b"hello")).await, Err(MediaError::Refused(ImageRefusal::NotAnImage)));
    assert!(matches!(
        media.keep(Bytes::from_static(b"9000x9000 huge")).await,
        Err(MediaError::Refused(ImageRefusal::TooManyPixels { .. }))
    ));
    assert!(store.objects.lock().unwrap().is_empty());
    media.keep(Bytes::from_static(b"40x40 tiny")).await.unwrap();
    assert!(queue.0.lock().unwrap().is_empty(), "no standard width is narrower than 40 px");
}

#[tokio::test]
async fn the_scaling_job_makes_every_narrower_width() {
    let (media, store, _) = service();
    let image = media.keep(Bytes::from_static(b"700x350 shot")).await.unwrap();
    let outcome = JobHandler::<ScaleImage>::run(&media, ScaleImage { image }, JobRun { attempt: 1, max_attempts: 3 }).await;
    assert_eq!(outcome, JobOutcome::Done(serde_json::json!({ "image": image.to_string(), "widths": [64, 128, 256, 640] })));
    let objects = store.objects.lock().unwrap();
    assert_eq!(objects.len(), 5);
    assert_eq!(objects[&image.object_name(ImageSize::Width(128))], Bytes::from_static(b"128x64 scaled"));
}

#[tokio::test]
async fn serving_makes_a_missing_copy_once_and_refuses_what_is_not_ours() {
    let (media, store, _) = service();
    let image = media.keep(Bytes::from_static(b"700x350 shot")).await.unwrap();
    let name = image.object_name(ImageSize::Width(256));
    let served = media.serve(&name).await.unwrap().unwrap();
    assert_eq!((served.bytes.as_ref(), served.content_type), (&b"256x128 scaled"[..], "image/webp"));
    assert!(store.objects.lock().unwrap().contains_key(&name), "kept for the next request");
    assert_eq!(media.serve(&image.object_name(ImageSize::Width(1280))).await.unwrap(), None, "never wider than the original");
    assert_eq!(media.serve("../../etc/passwd").await.unwrap(), None);
    let stranger = ImageRef::new([7; 32], ImageFormat::Webp, 700, 350);
    assert_eq!(media.serve(&stranger.object_name(ImageSize::Width(64))).await.unwrap(), None);
}

#[tokio::test]
async fn a_reference_must_name_a_kept_image_with_its_own_size() {
    let (media, store, _) = service();
    let image = media.keep(Bytes::from_static(b"300x200 logo")).await.unwrap();
    media.check(&image).await.unwrap();
    let resized = ImageRef::new(*image.hash(), image.format(), 3000, 2000);
    assert_eq!(media.check(&resized).await, Err(MediaError::Unknown));
    assert_eq!(media.check(&ImageRef::new([1; 32], ImageFormat::Webp, 300, 200)).await, Err(MediaError::Unknown));
    *store.down.lock().unwrap() = true;
    assert!(matches!(media.keep(Bytes::from_static(b"310x200 other")).await, Err(MediaError::Store(_))));
}
