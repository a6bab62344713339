//! The answer cache: each server keeps the serialized answers of public reads for a moment
//! (`answer_cache_ms`, 1 s by default), so a page every client asks for at once is built once
//! a second rather than once a request. A write this server takes empties it (`forget_all`),
//! so a caller reads back what it wrote at once; writes on other servers show when the kept
//! answer expires. Memory stays within a byte budget. The site's pages for visitors without a
//! session are kept here too, beside the answers they show (`web`'s keeping middleware).
//!
//! An answer is kept as it goes on the wire (`KeptBody`): with its gzip twin and its tag, made
//! when it is built, so serving it compressed costs no work per request.
//!
//! At expiry one request rebuilds the answer while the others keep getting the expired one
//! (no stampede of identical reads), for at most another `ttl`; after a write, or once a
//! rebuild failed, nobody gets the old answer.

use crate::idempotency::canonical;
use crate::{App, Caller, DynOperation, KeptBody, OpError, RawInput};
use bytes::Bytes;
use serde_json::Value;
use std::collections::HashMap;
use std::future::Future;
use std::sync::Mutex;
use std::sync::atomic::AtomicBool;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant};

/// An answer larger than this share of the budget is served but not kept.
const LARGEST_SHARE: usize = 8;
/// What an entry costs besides its key and body (the map's slot, the entry itself).
const ENTRY_OVERHEAD: usize = 96;

/// Kept answers of public reads, keyed by operation and input.
#[derive(Debug)]
pub struct AnswerCache {
    /// `None`: the cache is off and every read runs.
    ttl: Option<Duration>,
    budget: usize,
    /// Moves on every write this server takes: answers of an older generation are never served.
    generation: AtomicU64,
    kept: Mutex<Kept>,
}

#[derive(Debug, Default)]
struct Kept {
    answers: HashMap<String, KeptAnswer>,
    bytes: usize,
}

#[derive(Debug)]
struct KeptAnswer {
    body: KeptBody,
    made: Instant,
    generation: u64,
    /// One request is rebuilding this expired answer; others get it meanwhile.
    rebuilding: bool,
}

/// What the cache holds now, for the logs and the tests.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct AnswerCacheSize {
    pub answers: usize,
    pub bytes: usize,
}

impl AnswerCache {
    /// Keeps answers for `ttl` within `budget` bytes; a zero `ttl` turns the cache off.
    pub fn new(ttl: Duration, budget: usize) -> Self {
        Self { ttl: (!ttl.is_zero()).then_some(ttl), budget, generation: AtomicU64::new(0), kept: Mutex::default() }
    }

    /// A cache that keeps nothing.
    pub fn off() -> Self {
        Self::new(Duration::ZERO, 0)
    }

    pub fn is_on(&self) -> bool {
        self.ttl.is_some()
    }

    /// Forgets every kept answer: called after each write this server takes.
    pub fn forget_all(&self) {
        self.generation.fetch_add(1, Ordering::AcqRel);
    }

    pub fn size(&self) -> AnswerCacheSize {
        let kept = self.lock();
        AnswerCacheSize { answers: kept.answers.len(), bytes: kept.bytes }
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, Kept> {
        self.kept.lock().unwrap_or_else(|poisoned| poisoned.into_inner())
    }

    /// The kept answer of `key`, or the one `build` makes (kept when it succeeds), compressed
    /// and tagged. Errors are never kept.
    pub async fn get_or_build<E, F, Fut>(&self, key: String, build: F) -> Result<KeptBody, E>
    where
        F: FnOnce() -> Fut,
        Fut: Future<Output = Result<Bytes, E>>,
    {
        let Some(ttl) = self.ttl else {
            return build().await.map(KeptBody::new);
        };
        let generation = self.generation.load(Ordering::Acquire);
        let mut claimed = false;
        {
            let mut kept = self.lock();
            if let Some(answer) = kept.answers.get_mut(&key)
                && answer.generation == generation
            {
                let age = answer.made.elapsed();
                if age < ttl || (answer.rebuilding && age < ttl * 2) {
                    return Ok(answer.body.clone());
                }
                answer.rebuilding = true;
                claimed = true;
            }
        }
        let rebuild = claimed.then(|| Rebuild { cache: self, key: key.clone() });
        // Compressed before the rebuild is over, so the others keep getting the expired answer
        // meanwhile rather than building it too.
        let built = build().await.map(KeptBody::new);
        drop(rebuild);
        let mut kept = self.lock();
        let body = match built {
            Ok(body) => body,
            Err(error) => {
                // The read fails now (the listing is gone, the database is down): the expired
                // answer must not go on being served in its place.
                if let Some(old) = kept.answers.remove(&key) {
                    kept.bytes -= ENTRY_OVERHEAD + key.len() + old.body.size();
                }
                return Err(error);
            }
        };
        // An answer built across a write may predate it: serve it to this caller only.
        if self.generation.load(Ordering::Acquire) == generation && body.size() <= self.budget / LARGEST_SHARE {
            self.keep(&mut kept, key, body.clone(), generation, ttl);
        }
        Ok(body)
    }

    fn keep(&self, kept: &mut Kept, key: String, body: KeptBody, generation: u64, ttl: Duration) {
        let size = ENTRY_OVERHEAD + key.len() + body.size();
        if let Some(old) = kept.answers.remove(&key) {
            kept.bytes -= ENTRY_OVERHEAD + key.len() + old.body.size();
        }
        if kept.bytes + size > self.budget {
            // Expired and forgotten answers go first; if that is not enough, all go.
            let current = self.generation.load(Ordering::Acquire);
            kept.answers.retain(|_, answer| answer.generation == current && answer.made.elapsed() < ttl);
            kept.bytes = kept.answers.iter().map(|(key, answer)| ENTRY_OVERHEAD + key.len() + answer.body.size()).sum();
            if kept.bytes + size > self.budget {
                kept.answers.clear();
                kept.bytes = 0;
            }
        }
        kept.bytes += size;
        kept.answers.insert(key, KeptAnswer { body, made: Instant::now(), generation, rebuilding: false });
    }
}

/// A public read's answer, from the cache when it holds one. The key is the operation and its
/// input (path and query, keys sorted); who asks does not matter, since a public read answers
/// everyone alike. A read with something to do besides answering does it on a kept answer too.
pub(crate) async fn answer_public_read(op: &dyn DynOperation, app: &App, caller: &Caller, raw: RawInput) -> Result<KeptBody, OpError> {
    let key =
        format!("{}\n{}\n{}", op.spec().id, canonical(&Value::Object(raw.path.clone())), canonical(&Value::Object(raw.query.clone())));
    let input = RawInput { path: raw.path.clone(), query: Default::default(), body: None };
    let built = AtomicBool::new(false);
    let body = app
        .answers
        .get_or_build(key, || async {
            built.store(true, Ordering::Relaxed);
            let value = op.call(app, caller, raw).await?;
            let mut json = serde_json::to_vec(&value).map_err(OpError::internal)?;
            // Kept as it is: without the spare room the vector grew, it counts what it holds.
            json.shrink_to_fit();
            Ok::<_, OpError>(Bytes::from(json))
        })
        .await?;
    if !built.load(Ordering::Relaxed) {
        op.answered_from_cache(app, caller, &input);
    }
    Ok(body)
}

/// Marks a claimed rebuild as over however it ends, also when the request is dropped midway,
/// so an expired answer is never served for ever.
struct Rebuild<'a> {
    cache: &'a AnswerCache,
    key: String,
}

impl Drop for Rebuild<'_> {
    fn drop(&mut self) {
        if let Some(answer) = self.cache.lock().answers.get_mut(&self.key) {
            answer.rebuilding = false;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::atomic::AtomicUsize;

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
        let (release, wait) = tokio::sync::oneshot::channel::<()>();
        let rebuilding = {
            let cache = cache.clone();
            tokio::spawn(async move {
                cache
                    .get_or_build("a".into(), || async {
                        wait.await.ok();
                        Ok::<_, ()>(Bytes::from_static(b"new"))
                    })
                    .await
            })
        };
        tokio::time::sleep(Duration::from_millis(20)).await;
        assert_eq!(read(&cache, "a", &builds, "not built").await.unwrap(), "old");
        release.send(()).unwrap();
        assert_eq!(rebuilding.await.unwrap().unwrap().plain, "new");
        assert_eq!(read(&cache, "a", &builds, "not built").await.unwrap(), "new");
        assert_eq!(builds.load(Ordering::SeqCst), 1);
    }

    #[tokio::test]
    async fn an_expired_answer_is_served_while_rebuilding_for_one_more_ttl_at_most() {
        let cache = std::sync::Arc::new(AnswerCache::new(Duration::from_millis(200), 1 << 20));
        let builds = AtomicUsize::new(0);
        read(&cache, "a", &builds, "old").await.unwrap();
        tokio::time::sleep(Duration::from_millis(250)).await;
        let (_release, wait) = tokio::sync::oneshot::channel::<()>();
        let stuck = {
            let cache = cache.clone();
            tokio::spawn(
                async move { cache.get_or_build("a".into(), || async { wait.await.map(|()| Bytes::new()).map_err(|_| ()) }).await },
            )
        };
        tokio::time::sleep(Duration::from_millis(200)).await;
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
}
