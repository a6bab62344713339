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
//! At expiry the answer is rebuilt once while requests keep getting the expired one (no
//! stampede of identical reads), for at most another `ttl`; after a write, or once a rebuild
//! failed, nobody gets the old answer. An operation's answer is rebuilt in a task of its own
//! (`get_or_refresh`), so no request waits for a rebuild while the expired answer may still
//! be served; a page's, whose build is the request itself, by the request that found it
//! expired (`get_or_build`). With nothing to serve (after a write, or for a
//! read nobody asked for lately), the requests wait for the one build under way, for at most
//! `ttl` from its start, rather than each building the same answer: a crowd costs one build.

use crate::KeptBody;
use crate::idempotency::canonical;
use bytes::Bytes;
use ops::{App, Caller, DynOperation, OpError, RawInput};
use serde_json::Value;
use std::collections::HashMap;
use std::future::Future;
use std::ops::Deref;
use std::sync::{Arc, Mutex};
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
    /// Shared with what else the server keeps beside the database (the store's page positions).
    generation: kernel::WriteGeneration,
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
    /// Expired less than `ttl` ago, in this generation, and nobody is rebuilding it: still
    /// servable while it is rebuilt.
    Expired(KeptBody),
    Wait(tokio::sync::watch::Receiver<Option<KeptBody>>, Instant),
    Build,
}

/// How a request's answer came: kept (or built by another request), or built by this one:
/// in front of it, or in the background while it got the expired answer. A read with
/// something to do besides answering (counting a view) does it itself only when kept; a
/// build does it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Served {
    Kept,
    Built,
    Refreshing,
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
        Self::counting(ttl, budget, kernel::WriteGeneration::default())
    }

    /// As [`AnswerCache::new`], forgetting with `writes`: its count moves on at every
    /// [`forget_all`](Self::forget_all), and a write counted there by anyone forgets the answers.
    pub fn counting(ttl: Duration, budget: usize, writes: kernel::WriteGeneration) -> Self {
        Self { ttl: (!ttl.is_zero()).then_some(ttl), budget, generation: writes, kept: Mutex::default() }
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
        self.generation.advance();
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
    /// An expired answer is rebuilt by the request that finds it, the others getting the
    /// expired one meanwhile; `get_or_refresh` spares that request the wait.
    pub async fn get_or_build<E, F, Fut>(&self, key: String, build: F) -> Result<KeptBody, E>
    where
        F: FnOnce() -> Fut,
        Fut: Future<Output = Result<Bytes, E>>,
    {
        let Some(ttl) = self.ttl else {
            return build().await.map(KeptBody::new);
        };
        let generation = self.generation.current();
        let found = match self.look_up(&key, generation, ttl) {
            LookUp::Kept(body) => return Ok(body),
            LookUp::Expired(_) => LookUp::Build,
            other => other,
        };
        self.wait_or_build(key, generation, ttl, found, build).await.map(|(body, _)| body)
    }

    /// As `get_or_build`, but the request that finds the answer expired (less than `ttl` ago,
    /// with nobody rebuilding it) gets the expired answer at once and starts the rebuild in a
    /// task of its own (`Served::Refreshing`): no request waits for a rebuild while the
    /// expired answer may be served, so a slow build (tens of milliseconds on a loaded
    /// database) costs nobody its time once a second. The rebuild lands as a request's would:
    /// kept if no write came meanwhile; on failure the expired answer is dropped.
    pub async fn get_or_refresh<E, F, Fut>(self: &Arc<Self>, key: String, build: F) -> Result<(KeptBody, Served), E>
    where
        F: FnOnce() -> Fut,
        Fut: Future<Output = Result<Bytes, E>> + Send + 'static,
        E: Send + 'static,
    {
        let Some(ttl) = self.ttl else {
            return build().await.map(|bytes| (KeptBody::new(bytes), Served::Built));
        };
        let generation = self.generation.current();
        let found = self.look_up(&key, generation, ttl);
        let LookUp::Expired(expired) = found else {
            if let LookUp::Kept(body) = found {
                return Ok((body, Served::Kept));
            }
            return self.wait_or_build(key, generation, ttl, found, build).await;
        };
        let flight = Self::take_off(Arc::clone(self), &key, generation, ttl);
        if flight.sender.is_none() {
            // Another request began rebuilding it since this one looked.
            return Ok((expired, Served::Kept));
        }
        let rebuilt = build();
        tokio::spawn(async move {
            let built = rebuilt.await.map(KeptBody::new);
            // Whoever wanted the answer got the expired one; an error is only not kept.
            let _ = flight.finish(key, generation, ttl, built);
        });
        Ok((expired, Served::Refreshing))
    }

    /// Waits for the build under way (`LookUp::Wait`), then builds if that gave no answer.
    async fn wait_or_build<E, F, Fut>(
        &self,
        key: String,
        generation: u64,
        ttl: Duration,
        found: LookUp,
        build: F,
    ) -> Result<(KeptBody, Served), E>
    where
        F: FnOnce() -> Fut,
        Fut: Future<Output = Result<Bytes, E>>,
    {
        if let LookUp::Wait(mut under_way, deadline) = found {
            // The build under way ends in an answer (served here too), or in an error or a
            // dropped request (then this one builds for itself), or outlasts the deadline.
            if let Ok(Ok(())) = tokio::time::timeout_at(deadline.into(), under_way.changed()).await
                && let Some(body) = under_way.borrow().clone()
            {
                return Ok((body, Served::Kept));
            }
        }
        let flight = Self::take_off(self, &key, generation, ttl);
        // Compressed before the rebuild is over, so the others keep getting the expired answer
        // (or wait for this one) meanwhile rather than building it too.
        let built = build().await.map(KeptBody::new);
        flight.finish(key, generation, ttl, built).map(|body| (body, Served::Built))
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
            if !rebuilding && age < ttl * 2 {
                return LookUp::Expired(answer.body.clone());
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
    fn take_off<C: Deref<Target = AnswerCache>>(cache: C, key: &str, generation: u64, ttl: Duration) -> Flight<C> {
        let mut kept = cache.lock();
        kept.next_flight += 1;
        let id = kept.next_flight;
        let (sender, answer) = tokio::sync::watch::channel(None);
        let replace = kept.flights.get(key).is_none_or(|flight| flight.generation != generation || flight.started.elapsed() >= ttl);
        if replace {
            kept.flights.insert(key.to_owned(), UnderWay { id, generation, started: Instant::now(), answer });
        }
        drop(kept);
        Flight { cache, key: key.to_owned(), id, sender: replace.then_some(sender) }
    }

    fn keep(&self, kept: &mut Kept, key: String, body: KeptBody, generation: u64, ttl: Duration) {
        let size = ENTRY_OVERHEAD + key.len() + body.size();
        if let Some(old) = kept.answers.remove(&key) {
            kept.bytes -= ENTRY_OVERHEAD + key.len() + old.body.size();
        }
        if kept.bytes + size > self.budget {
            // Expired and forgotten answers go first; if that is not enough, all go.
            let current = self.generation.current();
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
pub(crate) async fn answer_public_read(
    answers: &Arc<AnswerCache>,
    op: &Arc<dyn DynOperation>,
    app: &App,
    caller: &Caller,
    raw: RawInput,
) -> Result<KeptBody, OpError> {
    let key =
        format!("{}\n{}\n{}", op.spec().id, canonical(&Value::Object(raw.path.clone())), canonical(&Value::Object(raw.query.clone())));
    let input = RawInput { path: raw.path.clone(), query: Default::default(), body: None };
    let (body, served) = answers
        .get_or_refresh(key, || {
            // A rebuild may outlive the request that began it: the build owns what it uses.
            let (op, app, caller) = (Arc::clone(op), app.clone(), caller.clone());
            async move {
                let mut json = op.call(&app, &caller, raw).await?;
                // Kept as it is: without the spare room the vector grew, it counts what it holds.
                json.shrink_to_fit();
                Ok::<_, OpError>(Bytes::from(json))
            }
        })
        .await?;
    if served == Served::Kept {
        op.answered_from_cache(app, caller, &input);
    }
    Ok(body)
}

/// One build of an answer, by a request or by a task a request began. It ends the build's
/// entry however the build ends, also when it is dropped midway (then those waiting build for
/// themselves), so an expired answer is never served, nor waited for, for ever.
struct Flight<C: Deref<Target = AnswerCache>> {
    cache: C,
    key: String,
    id: u64,
    /// `None` when another build of the key was already under way: this one is nobody's to wait for.
    sender: Option<tokio::sync::watch::Sender<Option<KeptBody>>>,
}

impl<C: Deref<Target = AnswerCache>> Flight<C> {
    /// The build is over: its answer is kept unless a write came meanwhile (or it is too
    /// large), and goes to those waiting; a failure drops the expired answer, which must not
    /// go on being served in its place (the listing is gone, the database is down).
    fn finish<E>(mut self, key: String, generation: u64, ttl: Duration, built: Result<KeptBody, E>) -> Result<KeptBody, E> {
        let cache = &*self.cache;
        let mut kept = cache.lock();
        let body = match built {
            Ok(body) => body,
            Err(error) => {
                if let Some(old) = kept.answers.remove(&key) {
                    kept.bytes -= ENTRY_OVERHEAD + key.len() + old.body.size();
                }
                self.end(&mut kept);
                return Err(error);
            }
        };
        // An answer built across a write may predate it: serve it to this caller (and those who
        // waited for it, who asked before the write too) only.
        if cache.generation.current() == generation && body.size() <= cache.budget / LARGEST_SHARE {
            cache.keep(&mut kept, key, body.clone(), generation, ttl);
        }
        self.end(&mut kept);
        drop(kept);
        if let Some(sender) = self.sender.take() {
            sender.send_replace(Some(body.clone()));
        }
        Ok(body)
    }

    fn end(&self, kept: &mut Kept) {
        if self.sender.is_some() && kept.flights.get(&self.key).is_some_and(|flight| flight.id == self.id) {
            kept.flights.remove(&self.key);
        }
    }
}

impl<C: Deref<Target = AnswerCache>> Drop for Flight<C> {
    fn drop(&mut self) {
        if self.sender.is_some() {
            let mut kept = self.cache.lock();
            self.end(&mut kept);
        }
    }
}

#[cfg(test)]
mod tests;
