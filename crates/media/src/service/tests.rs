//! `MediaService` over an in-memory store and a codec that reads sizes from a text header
//! (`crate::testing`), so the service's own rules are tested without decoding pictures (the
//! codec has its own tests).

use super::*;
use crate::ImageRefusal;
use crate::testing::MemoryStore;
use kernel::MemoryJobQueue as Queue;
use kernel::{FixedClock, ImageFormat};
use time::OffsetDateTime;

fn service() -> (MediaService, Arc<MemoryStore>, Arc<Queue>) {
    let store = Arc::new(MemoryStore::default());
    let queue = Arc::new(Queue::default());
    let clock = Arc::new(FixedClock::new(OffsetDateTime::UNIX_EPOCH));
    let media = MediaService::new(store.clone(), Arc::new(crate::testing::HeaderCodec), queue.clone(), clock, ImageLimits::default());
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
    let jobs = queue.jobs.lock().unwrap();
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
    assert!(queue.jobs.lock().unwrap().is_empty(), "no standard width is narrower than 40 px");
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

#[tokio::test]
async fn a_copy_served_once_is_served_from_memory_after() {
    let (media, store, _) = service();
    let image = media.keep(Bytes::from_static(b"300x200 logo")).await.unwrap();
    let name = image.object_name(ImageSize::Original);
    assert!(media.serve(&name).await.unwrap().is_some());
    // Gone from the store (an operator's mistake, a bucket's outage): the hot copy still serves.
    store.objects.lock().unwrap().clear();
    assert_eq!(media.serve(&name).await.unwrap().unwrap().bytes, Bytes::from_static(b"300x200 logo"));
}

#[tokio::test]
async fn a_seed_keeps_an_image_and_queues_nothing_and_a_copy_is_made_when_asked_for() {
    let (media, store, queue) = service();
    let image = media.keep_unqueued(Bytes::from_static(b"700x350 shot")).await.unwrap();
    assert_eq!(store.objects.lock().unwrap().len(), 1, "the original alone");
    assert!(queue.jobs.lock().unwrap().is_empty());
    let copy = media.serve(&image.object_name(ImageSize::Width(128))).await.unwrap().expect("made on request");
    assert_eq!(copy.bytes, Bytes::from_static(b"128x64 scaled"));
    assert_eq!(store.objects.lock().unwrap().len(), 2, "and kept");
    assert_eq!(media.keep(Bytes::from_static(b"700x350 shot")).await.unwrap(), image);
}

fn card(title: &str, logos: Vec<ImageRef>) -> SocialCard {
    SocialCard {
        site_name: "Launchdir".into(),
        kind: "Product".into(),
        title: title.into(),
        subtitle: None,
        logos,
        facts: vec!["▲ 3 votes".into()],
    }
}

#[tokio::test]
async fn a_social_card_is_drawn_once_with_its_logos_and_served_at_its_name() {
    let (media, store, _) = service();
    let logo = media.keep(Bytes::from_static(b"700x700 logo")).await.unwrap();
    let stranger = ImageRef::new([9; 32], ImageFormat::Webp, 64, 64);
    let drawn = media.card(card("Acme", vec![logo, stranger])).await.unwrap();
    assert_eq!(drawn.bytes, Bytes::from_static(b"1200x630 card Acme with 1 of 2 logos"), "a logo we do not keep is left off");
    assert_eq!(drawn.content_type, "image/png");
    assert!(store.objects.lock().unwrap().contains_key(&logo.object_name(ImageSize::Width(256))), "the logo's 256 px copy was used");
    let name = card("Acme", vec![logo, stranger]).image().object_name(ImageSize::Original);
    assert_eq!(drawn.name, name);
    assert_eq!(media.serve(&name).await.unwrap().unwrap().bytes, drawn.bytes, "kept, so /media serves it too");
    // Kept: the store's copy answers even when memory was let go.
    media.hot.lock().unwrap().objects.clear();
    store.objects.lock().unwrap().insert(name.clone(), Bytes::from_static(b"kept"));
    assert_eq!(media.card(card("Acme", vec![logo, stranger])).await.unwrap().bytes, Bytes::from_static(b"kept"), "not drawn again");
    let renamed = media.card(card("Acme Rockets", vec![])).await.unwrap();
    assert_ne!(renamed.name, name, "what a card says names it");
}
