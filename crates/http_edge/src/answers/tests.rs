//! The answer cache's rules: kept, forgotten, waited for, rebuilt in front of a request or
//! in the background, and within its budget.

use super::*;
use std::sync::atomic::{AtomicUsize, Ordering};

async fn read(cache: &AnswerCache, key: &str, builds: &AtomicUsize, body: &'static str) -> Result<Bytes, &'static str> {
    cache
        .get_or_build(key.to_owned(), || async {
            builds.fetch_add(1, Ordering::SeqCst);
            Ok(Bytes::from_static(body.as_bytes()))
        })
        .await
        .map(|kept| kept.plain)
}

#[tokio::test]
async fn an_answer_is_built_once_until_it_expires() {
    let cache = AnswerCache::new(Duration::from_secs(2), 1 << 20);
    let builds = AtomicUsize::new(0);
    assert_eq!(read(&cache, "a", &builds, "one").await.unwrap(), "one");
    assert_eq!(read(&cache, "a", &builds, "two").await.unwrap(), "one", "kept");
    assert_eq!(builds.load(Ordering::SeqCst), 1);
    assert_eq!(read(&cache, "b", &builds, "other").await.unwrap(), "other", "another key is its own answer");
    tokio::time::sleep(Duration::from_millis(2100)).await;
    assert_eq!(read(&cache, "a", &builds, "three").await.unwrap(), "three", "rebuilt once expired");
    assert_eq!(builds.load(Ordering::SeqCst), 3);
}

#[tokio::test]
async fn a_write_forgets_every_answer() {
    let cache = AnswerCache::new(Duration::from_secs(60), 1 << 20);
    let builds = AtomicUsize::new(0);
    read(&cache, "a", &builds, "before").await.unwrap();
    cache.forget_all();
    assert_eq!(read(&cache, "a", &builds, "after").await.unwrap(), "after");
}

#[tokio::test]
async fn a_write_counted_by_the_store_forgets_every_answer_and_the_other_way_round() {
    let writes = kernel::WriteGeneration::default();
    let cache = AnswerCache::counting(Duration::from_secs(60), 1 << 20, writes.clone());
    let builds = AtomicUsize::new(0);
    read(&cache, "a", &builds, "before").await.unwrap();
    writes.advance();
    assert_eq!(read(&cache, "a", &builds, "after").await.unwrap(), "after", "forgotten by a write counted elsewhere");
    let before = writes.current();
    cache.forget_all();
    assert_eq!(writes.current(), before + 1, "the cache's forgetting is counted where the store's page positions look");
}

#[tokio::test]
async fn an_answer_built_across_a_write_is_not_kept() {
    let cache = AnswerCache::new(Duration::from_secs(60), 1 << 20);
    let built = cache
        .get_or_build("a".to_owned(), || async {
            cache.forget_all();
            Ok::<_, ()>(Bytes::from_static(b"read before the write"))
        })
        .await
        .unwrap();
    assert_eq!(built.plain, "read before the write", "the caller still gets it");
    let builds = AtomicUsize::new(0);
    assert_eq!(read(&cache, "a", &builds, "fresh").await.unwrap(), "fresh");
}

#[tokio::test]
async fn errors_are_not_kept_and_off_keeps_nothing() {
    let cache = AnswerCache::new(Duration::from_secs(60), 1 << 20);
    let failed: Result<KeptBody, &str> = cache.get_or_build("a".to_owned(), || async { Err("database down") }).await;
    assert_eq!(failed, Err("database down"));
    let builds = AtomicUsize::new(0);
    assert_eq!(read(&cache, "a", &builds, "ok").await.unwrap(), "ok");

    let off = AnswerCache::off();
    read(&off, "a", &builds, "x").await.unwrap();
    read(&off, "a", &builds, "x").await.unwrap();
    assert_eq!(builds.load(Ordering::SeqCst), 3);
    assert_eq!(off.size().answers, 0);
}

#[tokio::test]
async fn memory_stays_within_the_budget() {
    let cache = AnswerCache::new(Duration::from_secs(60), 2000);
    let builds = AtomicUsize::new(0);
    for key in 0..100 {
        read(&cache, &format!("k{key}"), &builds, "0123456789012345678901234567890123456789").await.unwrap();
        assert!(cache.size().bytes <= 2000, "{:?}", cache.size());
    }
    assert!(cache.size().answers > 0);
    let large = cache.get_or_build("large".into(), || async { Ok::<_, ()>(Bytes::from(vec![b'x'; 300])) }).await.unwrap();
    assert_eq!(large.plain.len(), 300, "served");
    assert!(!cache.lock().answers.contains_key("large"), "but larger than an eighth of the budget, so not kept");
}

#[tokio::test]
async fn an_answer_is_kept_with_its_gzip_twin_counted_in_the_budget() {
    let cache = AnswerCache::new(Duration::from_secs(60), 1 << 20);
    let body = "{\"slug\":\"otter-calendars\"},".repeat(100);
    let kept = cache.get_or_build("a".into(), || async { Ok::<_, ()>(Bytes::from(body.clone())) }).await.unwrap();
    let twin = kept.gzip.clone().expect("a 3 kB answer is compressed");
    assert_eq!(cache.size().bytes, ENTRY_OVERHEAD + 1 + body.len() + twin.len());
    let again = cache.get_or_build("a".into(), || async { Err(()) }).await.unwrap();
    assert_eq!(again, kept, "served as it was kept, twin and tag");
}

#[tokio::test]
async fn while_one_request_rebuilds_the_others_get_the_expired_answer() {
    let cache = std::sync::Arc::new(AnswerCache::new(Duration::from_millis(1500), 1 << 20));
    let builds = AtomicUsize::new(0);
    read(&cache, "a", &builds, "old").await.unwrap();
    tokio::time::sleep(Duration::from_millis(1600)).await;
    let (release, rebuilding) = gated_build(&cache, "a", Some("new")).await;
    assert_eq!(read(&cache, "a", &builds, "not built").await.unwrap(), "old");
    release.send(()).unwrap();
    assert_eq!(rebuilding.await.unwrap().unwrap().plain, "new");
    assert_eq!(read(&cache, "a", &builds, "not built").await.unwrap(), "new");
    assert_eq!(builds.load(Ordering::SeqCst), 1);
}

/// Starts a build of `key` that ends with `body` (or fails, with `None`) when the sender
/// is used, and waits until it is under way.
async fn gated_build(
    cache: &std::sync::Arc<AnswerCache>,
    key: &'static str,
    body: Option<&'static str>,
) -> (tokio::sync::oneshot::Sender<()>, tokio::task::JoinHandle<Result<KeptBody, ()>>) {
    let (release, wait) = tokio::sync::oneshot::channel::<()>();
    let cache = cache.clone();
    let building = tokio::spawn(async move {
        cache
            .get_or_build(key.into(), || async move {
                wait.await.map_err(|_| ())?;
                body.map(|body| Bytes::from_static(body.as_bytes())).ok_or(())
            })
            .await
    });
    tokio::time::sleep(Duration::from_millis(20)).await;
    (release, building)
}

/// `count` requests for `key` at once, each building `body` if it builds.
fn crowd(
    cache: &std::sync::Arc<AnswerCache>,
    key: &'static str,
    body: &'static str,
    count: usize,
    builds: &std::sync::Arc<AtomicUsize>,
) -> Vec<tokio::task::JoinHandle<Result<Bytes, &'static str>>> {
    (0..count)
        .map(|_| {
            let (cache, builds) = (cache.clone(), builds.clone());
            tokio::spawn(async move { read(&cache, key, &builds, body).await })
        })
        .collect()
}

#[tokio::test]
async fn a_crowd_with_nothing_to_serve_waits_for_the_one_build_under_way() {
    let cache = std::sync::Arc::new(AnswerCache::new(Duration::from_secs(60), 1 << 20));
    let builds = std::sync::Arc::new(AtomicUsize::new(0));
    read(&cache, "a", &builds, "before the write").await.unwrap();
    cache.forget_all();
    let (release, building) = gated_build(&cache, "a", Some("after the write")).await;
    let crowd = crowd(&cache, "a", "built again", 10, &builds);
    tokio::time::sleep(Duration::from_millis(20)).await;
    release.send(()).unwrap();
    assert_eq!(building.await.unwrap().unwrap().plain, "after the write");
    for request in crowd {
        assert_eq!(request.await.unwrap().unwrap(), "after the write", "the crowd got the one build's answer");
    }
    assert_eq!(builds.load(Ordering::SeqCst), 1, "the crowd built nothing: the one build counted is the read before the write");
}

#[tokio::test]
async fn when_the_build_under_way_fails_those_waiting_build_for_themselves() {
    let cache = std::sync::Arc::new(AnswerCache::new(Duration::from_secs(60), 1 << 20));
    let builds = std::sync::Arc::new(AtomicUsize::new(0));
    let (release, building) = gated_build(&cache, "a", None).await;
    let crowd = crowd(&cache, "a", "built by a waiter", 3, &builds);
    tokio::time::sleep(Duration::from_millis(20)).await;
    release.send(()).unwrap();
    assert!(building.await.unwrap().is_err());
    for request in crowd {
        assert_eq!(request.await.unwrap().unwrap(), "built by a waiter");
    }
    assert!(builds.load(Ordering::SeqCst) >= 1);
}

#[tokio::test]
async fn a_request_after_a_write_does_not_wait_for_a_build_begun_before_it() {
    let cache = std::sync::Arc::new(AnswerCache::new(Duration::from_secs(60), 1 << 20));
    let builds = std::sync::Arc::new(AtomicUsize::new(0));
    let (release, building) = gated_build(&cache, "a", Some("read before the write")).await;
    cache.forget_all();
    let after = tokio::time::timeout(Duration::from_secs(5), read(&cache, "a", &builds, "read after the write")).await;
    assert_eq!(after.expect("did not wait").unwrap(), "read after the write");
    release.send(()).unwrap();
    assert_eq!(building.await.unwrap().unwrap().plain, "read before the write");
    assert_eq!(read(&cache, "a", &builds, "not built").await.unwrap(), "read after the write", "the later answer is kept");
}

#[tokio::test]
async fn a_stuck_build_is_waited_for_one_ttl_at_most() {
    let cache = std::sync::Arc::new(AnswerCache::new(Duration::from_millis(300), 1 << 20));
    let builds = std::sync::Arc::new(AtomicUsize::new(0));
    let (_release, stuck) = gated_build(&cache, "a", Some("never")).await;
    let started = Instant::now();
    assert_eq!(read(&cache, "a", &builds, "built beside it").await.unwrap(), "built beside it");
    assert!(started.elapsed() >= Duration::from_millis(200), "waited for the build under way first");
    assert_eq!(read(&cache, "a", &builds, "not built").await.unwrap(), "built beside it", "and kept it");
    stuck.abort();
}

#[tokio::test]
async fn an_expired_answer_is_served_while_rebuilding_for_one_more_ttl_at_most() {
    let cache = std::sync::Arc::new(AnswerCache::new(Duration::from_millis(200), 1 << 20));
    let builds = AtomicUsize::new(0);
    read(&cache, "a", &builds, "old").await.unwrap();
    tokio::time::sleep(Duration::from_millis(250)).await;
    let (_release, stuck) = gated_build(&cache, "a", Some("")).await;
    tokio::time::sleep(Duration::from_millis(180)).await;
    assert_eq!(read(&cache, "a", &builds, "built beside the stuck one").await.unwrap(), "built beside the stuck one");
    stuck.abort();
}

#[tokio::test]
async fn a_failed_rebuild_drops_the_expired_answer() {
    let cache = AnswerCache::new(Duration::from_millis(100), 1 << 20);
    let builds = AtomicUsize::new(0);
    read(&cache, "a", &builds, "listing").await.unwrap();
    tokio::time::sleep(Duration::from_millis(150)).await;
    let gone: Result<KeptBody, &str> = cache.get_or_build("a".into(), || async { Err("archived") }).await;
    assert_eq!(gone, Err("archived"));
    assert_eq!(cache.size().answers, 0, "not served in place of the failure");
}

#[tokio::test]
async fn a_rebuild_dropped_midway_lets_the_next_request_rebuild() {
    let cache = AnswerCache::new(Duration::from_secs(1), 1 << 20);
    let builds = AtomicUsize::new(0);
    read(&cache, "a", &builds, "old").await.unwrap();
    tokio::time::sleep(Duration::from_millis(1050)).await;
    let abandoned = cache.get_or_build("a".into(), std::future::pending::<Result<Bytes, ()>>);
    assert!(tokio::time::timeout(Duration::from_millis(10), abandoned).await.is_err());
    assert_eq!(read(&cache, "a", &builds, "new").await.unwrap(), "new");
}

/// A read through `get_or_refresh`, building `body` if it builds, and how it was served.
async fn refresh(cache: &Arc<AnswerCache>, builds: &Arc<AtomicUsize>, body: &'static str) -> (Bytes, Served) {
    let builds = builds.clone();
    let (kept, served) = cache
        .get_or_refresh("a".to_owned(), || async move {
            builds.fetch_add(1, Ordering::SeqCst);
            Ok::<_, ()>(Bytes::from_static(body.as_bytes()))
        })
        .await
        .unwrap();
    (kept.plain, served)
}

/// A cache keeping answers `ttl_ms` whose answer of "a", `body` (built by a request), is
/// `age_ms` old now, with the count of builds requests made.
async fn kept_then_aged(ttl_ms: u64, age_ms: u64, body: &'static str) -> (Arc<AnswerCache>, Arc<AtomicUsize>) {
    let cache = Arc::new(AnswerCache::new(Duration::from_millis(ttl_ms), 1 << 20));
    let builds = Arc::new(AtomicUsize::new(0));
    assert_eq!(refresh(&cache, &builds, body).await, (Bytes::from(body), Served::Built));
    tokio::time::sleep(Duration::from_millis(age_ms)).await;
    (cache, builds)
}

#[tokio::test]
async fn an_expired_answer_is_served_at_once_and_rebuilt_in_the_background() {
    let (cache, builds) = kept_then_aged(300, 350, "old").await;
    let (release, wait) = tokio::sync::oneshot::channel::<()>();
    let answered = tokio::time::timeout(
        Duration::from_millis(100),
        cache.get_or_refresh("a".to_owned(), || async move {
            wait.await.map_err(|_| ())?;
            Ok::<_, ()>(Bytes::from_static(b"new"))
        }),
    )
    .await;
    let (expired, served) = answered.expect("the request did not wait for the rebuild").unwrap();
    assert_eq!((expired.plain, served), (Bytes::from("old"), Served::Refreshing));
    assert_eq!(refresh(&cache, &builds, "built beside it").await, (Bytes::from("old"), Served::Kept), "one rebuild at a time");
    release.send(()).unwrap();
    let started = Instant::now();
    while refresh(&cache, &builds, "not built").await.0 != "new" {
        assert!(started.elapsed() < Duration::from_secs(5), "the rebuild never landed");
        tokio::time::sleep(Duration::from_millis(5)).await;
    }
    assert_eq!(builds.load(Ordering::SeqCst), 1, "only the first answer was built by a request");
}

#[tokio::test]
async fn a_failed_background_rebuild_drops_the_expired_answer() {
    let (cache, builds) = kept_then_aged(300, 350, "listing").await;
    let (expired, served) = cache.get_or_refresh("a".to_owned(), || async { Err::<Bytes, _>("archived") }).await.unwrap();
    assert_eq!((expired.plain, served), (Bytes::from("listing"), Served::Refreshing));
    let started = Instant::now();
    while cache.size().answers > 0 {
        assert!(started.elapsed() < Duration::from_secs(5), "the expired answer is still kept");
        tokio::time::sleep(Duration::from_millis(5)).await;
    }
    assert_eq!(refresh(&cache, &builds, "built again").await, (Bytes::from("built again"), Served::Built));
}

#[tokio::test]
async fn an_answer_expired_a_ttl_ago_or_forgotten_is_built_in_front_of_the_request() {
    let (cache, builds) = kept_then_aged(100, 250, "old").await;
    assert_eq!(refresh(&cache, &builds, "new").await, (Bytes::from("new"), Served::Built), "too old to serve");
    cache.forget_all();
    assert_eq!(refresh(&cache, &builds, "after the write").await, (Bytes::from("after the write"), Served::Built));
    assert_eq!(refresh(&cache, &builds, "not built").await, (Bytes::from("after the write"), Served::Kept));
}

#[tokio::test]
async fn a_background_rebuild_across_a_write_is_not_kept() {
    let (cache, builds) = kept_then_aged(300, 350, "old").await;
    let (release, wait) = tokio::sync::oneshot::channel::<()>();
    let (done, landed) = tokio::sync::oneshot::channel::<()>();
    let (expired, _) = cache
        .get_or_refresh("a".to_owned(), || async move {
            wait.await.map_err(|_| ())?;
            done.send(()).ok();
            Ok::<_, ()>(Bytes::from_static(b"read before the write"))
        })
        .await
        .unwrap();
    assert_eq!(expired.plain, "old");
    cache.forget_all();
    release.send(()).unwrap();
    landed.await.unwrap();
    tokio::time::sleep(Duration::from_millis(20)).await;
    assert_eq!(refresh(&cache, &builds, "read after the write").await, (Bytes::from("read after the write"), Served::Built));
}
