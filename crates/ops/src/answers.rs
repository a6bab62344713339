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
//! rebuild failed, nobody gets the old answer. With nothing to serve (after a write, or for a
//! read nobody asked for lately), the requests wait for the one build under way, for at most
//! `ttl` from its start, rather than each building the same answer: a crowd costs one build.

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
    /// Answers being built, by key: requests with nothing to serve wait for these.
    flights: HashMap<String, UnderWay>,
    next_flight: u64,
}

/// An answer being built: who builds it, for which generation, since when, and where its
/// answer is sent when it is made (nothing is sent when the build fails or is dropped).
#[derive(Debug)]
struct UnderWay {
    id: u64,
    generation: u64,
    started: Instant,
    answer: tokio::sync::watch::Receiver<Option<KeptBody>>,
}

/// What a request finds under its key.
enum LookUp {
    Kept(KeptBody),
    Wait(tokio::sync::watch::Receiver<Option<KeptBody>>, Instant),
    Build,
}

#[derive(Debug)]
struct KeptAnswer {
    body: KeptBody,
    made: Instant,
    generation: u64,
}

/// Marks a request to the site's pages whose sender the server recognised: a signed-in
/// session, or a link's token or a payment's signature that a service accepted. Only such a
/// request can have changed what public reads answer, so only its success (or redirect) makes
/// the request middleware forget the kept answers; a form refused to someone unknown (sent to
/// sign in) forgets nothing, or anyone could keep the cache empty. Operations forget for
/// themselves (`execute`).
#[derive(Debug, Clone, Copy)]
pub struct KnownWriter;

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
    /// and tagged. Errors are never kept. When there is no answer to serve but one is being
    /// built for the same generation, this request waits for that build (for at most `ttl`
    /// from its start) rather than building the same answer beside it: after a write, or for
    /// a read nobody asked for in a while, a crowd of requests costs one build, not one each.
    pub async fn get_or_build<E, F, Fut>(&self, key: String, build: F) -> Result<KeptBody, E>
    where
        F: FnOnce() -> Fut,
        Fut: Future<Output = Result<Bytes, E>>,
    {
        let Some(ttl) = self.ttl else {
            return build().await.map(KeptBody::new);
        };
        let generation = self.generation.load(Ordering::Acquire);
        let under_way = match self.look_up(&key, generation, ttl) {
            LookUp::Kept(body) => return Ok(body),
            LookUp::Build => None,
            LookUp::Wait(under_way, deadline) => Some((under_way, deadline)),
        };
        if let Some((mut under_way, deadline)) = under_way {
            // The build under way ends in an answer (served here too), or in an error or a
            // dropped request (then this one builds for itself), or outlasts the deadline.
            if let Ok(Ok(())) = tokio::time::timeout_at(deadline.into(), under_way.changed()).await
                && let Some(body) = under_way.borrow().clone()
            {
                return Ok(body);
            }
        }
        let flight = self.take_off(&key, generation, ttl);
        // Compressed before the rebuild is over, so the others keep getting the expired answer
        // (or wait for this one) meanwhile rather than building it too.
        let built = build().await.map(KeptBody::new);
        let mut kept = self.lock();
        let body = match built {
            Ok(body) => body,
            Err(error) => {
                // The read fails now (the listing is gone, the database is down): the expired
                // answer must not go on being served in its place.
                if let Some(old) = kept.answers.remove(&key) {
                    kept.bytes -= ENTRY_OVERHEAD + key.len() + old.body.size();
                }
                flight.land(&mut kept, None);
                return Err(error);
            }
        };
        // An answer built across a write may predate it: serve it to this caller (and those who
        // waited for it, who asked before the write too) only.
        if self.generation.load(Ordering::Acquire) == generation && body.size() <= self.budget / LARGEST_SHARE {
            self.keep(&mut kept, key, body.clone(), generation, ttl);
        }
        flight.land(&mut kept, Some(body.clone()));
        Ok(body)
    }

    /// What a request for `key` does: serve a kept answer, wait for one being built, or build.
    fn look_up(&self, key: &str, generation: u64, ttl: Duration) -> LookUp {
        let kept = self.lock();
        if let Some(answer) = kept.answers.get(key)
            && answer.generation == generation
        {
            let age = answer.made.elapsed();
            let rebuilding = kept.flights.get(key).is_some_and(|flight| flight.generation == generation);
            if age < ttl || (rebuilding && age < ttl * 2) {
                return LookUp::Kept(answer.body.clone());
            }
        }
        match kept.flights.get(key) {
            Some(flight) if flight.generation == generation && flight.started.elapsed() < ttl => {
                LookUp::Wait(flight.answer.clone(), flight.started + ttl)
            }
            _ => LookUp::Build,
        }
    }

    /// Marks `key` as being built for `generation`. When a build of it for that generation began
    /// less than `ttl` ago (this request's wait for it ended without an answer), that one stays
    /// the one others wait for and this request builds beside it; an older one is stuck, and
    /// this one takes its place.
    fn take_off(&self, key: &str, generation: u64, ttl: Duration) -> Flight<'_> {
        let mut kept = self.lock();
        kept.next_flight += 1;
        let id = kept.next_flight;
        let (sender, answer) = tokio::sync::watch::channel(None);
        let replace = kept.flights.get(key).is_none_or(|flight| flight.generation != generation || flight.started.elapsed() >= ttl);
        if replace {
            kept.flights.insert(key.to_owned(), UnderWay { id, generation, started: Instant::now(), answer });
        }
        Flight { cache: self, key: key.to_owned(), id, sender: replace.then_some(sender) }
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
        kept.answers.insert(key, KeptAnswer { body, made: Instant::now(), generation });
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

/// One request's build of an answer. It ends the build's entry however the request ends, also
/// when it is dropped midway (then those waiting build for themselves), so an expired answer
/// is never served, nor waited for, for ever.
struct Flight<'a> {
    cache: &'a AnswerCache,
    key: String,
    id: u64,
    /// `None` when another build of the key was already under way: this one is nobody's to wait for.
    sender: Option<tokio::sync::watch::Sender<Option<KeptBody>>>,
}

impl Flight<'_> {
    /// The build is over: its answer (`None` when it failed) goes to those waiting.
    fn land(mut self, kept: &mut Kept, answer: Option<KeptBody>) {
        self.end(kept);
        if let (Some(sender), Some(answer)) = (self.sender.take(), answer) {
            sender.send_replace(Some(answer));
        }
    }

    fn end(&self, kept: &mut Kept) {
        if self.sender.is_some() && kept.flights.get(&self.key).is_some_and(|flight| flight.id == self.id) {
            kept.flights.remove(&self.key);
        }
    }
}

impl Drop for Flight<'_> {
    fn drop(&mut self) {
        if self.sender.is_some() {
            let mut kept = self.cache.lock();
            self.end(&mut kept);
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
