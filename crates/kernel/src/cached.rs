//! A value recomputed at most once per time-to-live, for reads that may be a few seconds
//! stale (directory counts, trending scores) and cost too much to compute per request.

use std::future::Future;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use time::{Duration, OffsetDateTime};

/// One cached value with its time of computation.
#[derive(Debug)]
pub struct Cached<T> {
    slot: Mutex<Option<(OffsetDateTime, Arc<T>)>>,
    ttl: Duration,
    /// Set while one caller refreshes an expired value; the others keep the old one meanwhile.
    refreshing: AtomicBool,
}

impl<T> Cached<T> {
    pub fn new(ttl: Duration) -> Self {
        Self { slot: Mutex::new(None), ttl, refreshing: AtomicBool::new(false) }
    }

    /// The cached value if it is younger than the time-to-live at `now`, else a fresh one from
    /// `load`. When the value has expired and another caller is already refreshing it, the
    /// expired value is returned rather than loading it again (no stampede at expiry).
    pub async fn get_or_load<E, F, Fut>(&self, now: OffsetDateTime, load: F) -> Result<Arc<T>, E>
    where
        F: FnOnce() -> Fut,
        Fut: Future<Output = Result<T, E>>,
    {
        let current = self.slot.lock().unwrap_or_else(|p| p.into_inner()).clone();
        if let Some((at, value)) = &current
            && now - *at < self.ttl
            && now >= *at
        {
            return Ok(value.clone());
        }
        let claimed = self.refreshing.compare_exchange(false, true, Ordering::AcqRel, Ordering::Acquire).is_ok();
        if !claimed && let Some((_, stale)) = current {
            return Ok(stale);
        }
        let loaded = load().await;
        if claimed {
            self.refreshing.store(false, Ordering::Release);
        }
        let value = Arc::new(loaded?);
        *self.slot.lock().unwrap_or_else(|p| p.into_inner()) = Some((now, value.clone()));
        Ok(value)
    }

    /// Stores a value computed at `now` (a background refresh), so reads never wait for one.
    pub fn put(&self, now: OffsetDateTime, value: T) {
        *self.slot.lock().unwrap_or_else(|p| p.into_inner()) = Some((now, Arc::new(value)));
    }

    /// When the kept value was computed, if one is kept.
    pub fn computed_at(&self) -> Option<OffsetDateTime> {
        self.slot.lock().unwrap_or_else(|p| p.into_inner()).as_ref().map(|(at, _)| *at)
    }

    /// Forgets the value, so the next read loads a fresh one.
    pub fn clear(&self) {
        *self.slot.lock().unwrap_or_else(|p| p.into_inner()) = None;
    }
}

/// One `Cached` value per key (a week's ranking, a filter's total), at most `kept` keys: past
/// that, every kept value is dropped and loaded again, so a crawler walking every key cannot
/// grow memory without bound.
#[derive(Debug)]
pub struct CachedByKey<K, T> {
    values: Mutex<std::collections::HashMap<K, Arc<Cached<T>>>>,
    kept: usize,
}

impl<K: std::hash::Hash + Eq, T> CachedByKey<K, T> {
    pub fn new(kept: usize) -> Self {
        Self { values: Mutex::new(std::collections::HashMap::new()), kept }
    }

    /// The cached value of `key` with `ttl`. A key asked for with another time-to-live than it
    /// was kept with (the current week becoming last week at the turn of the week) keeps its
    /// value, with the new time-to-live.
    pub fn slot(&self, key: K, ttl: Duration) -> Arc<Cached<T>> {
        let mut values = self.values.lock().unwrap_or_else(|p| p.into_inner());
        if values.len() >= self.kept && !values.contains_key(&key) {
            values.clear();
        }
        let slot = values.entry(key).or_insert_with(|| Arc::new(Cached::new(ttl)));
        if slot.ttl != ttl {
            let kept = slot.slot.lock().unwrap_or_else(|p| p.into_inner()).clone();
            *slot = Arc::new(Cached { slot: Mutex::new(kept), ttl, refreshing: AtomicBool::new(false) });
        }
        slot.clone()
    }
}

#[cfg(test)]
mod tests {
    use super::{Cached, CachedByKey};
    use std::sync::atomic::{AtomicU32, Ordering};
    use time::Duration;
    use time::macros::datetime;

    #[test]
    fn loads_once_per_ttl() {
        let cache = Cached::new(Duration::seconds(10));
        let loads = AtomicU32::new(0);
        let t0 = datetime!(2026-11-21 10:00 UTC);
        let load = || async {
            loads.fetch_add(1, Ordering::SeqCst);
            Ok::<_, ()>(42)
        };
        let block = |f| futures_executor(f);
        assert_eq!(*block(cache.get_or_load(t0, load)).unwrap(), 42);
        assert_eq!(*block(cache.get_or_load(t0 + Duration::seconds(9), load)).unwrap(), 42);
        assert_eq!(loads.load(Ordering::SeqCst), 1);
        block(cache.get_or_load(t0 + Duration::seconds(10), load)).unwrap();
        assert_eq!(loads.load(Ordering::SeqCst), 2);
        cache.clear();
        block(cache.get_or_load(t0 + Duration::seconds(11), load)).unwrap();
        assert_eq!(loads.load(Ordering::SeqCst), 3);
        // A clock moved backwards reloads rather than trusting the old value.
        block(cache.get_or_load(t0, load)).unwrap();
        assert_eq!(loads.load(Ordering::SeqCst), 4);
    }

    #[test]
    fn while_one_caller_refreshes_the_others_get_the_old_value() {
        let cache = Cached::new(Duration::seconds(10));
        let t0 = datetime!(2026-11-21 10:00 UTC);
        futures_executor(cache.get_or_load(t0, || async { Ok::<_, ()>(1) })).unwrap();
        // Simulate a refresh in flight.
        cache.refreshing.store(true, std::sync::atomic::Ordering::SeqCst);
        let later = t0 + Duration::seconds(30);
        let value = futures_executor(cache.get_or_load(later, || async { Ok::<_, ()>(2) })).unwrap();
        assert_eq!(*value, 1, "the expired value is served while another caller refreshes");
        cache.refreshing.store(false, std::sync::atomic::Ordering::SeqCst);
        assert_eq!(*futures_executor(cache.get_or_load(later, || async { Ok::<_, ()>(2) })).unwrap(), 2);
    }

    #[test]
    fn a_key_asked_for_with_another_ttl_keeps_its_value_with_the_new_ttl() {
        let cache: CachedByKey<u32, u32> = CachedByKey::new(4);
        let t0 = datetime!(2026-11-21 10:00 UTC);
        cache.slot(1, Duration::seconds(3)).put(t0, 10);
        let longer = cache.slot(1, Duration::seconds(30));
        assert_eq!(longer.computed_at(), Some(t0));
        let value = futures_executor(longer.get_or_load(t0 + Duration::seconds(20), || async { Ok::<_, ()>(11) })).unwrap();
        assert_eq!(*value, 10, "kept for the new 30 s, not the old 3 s");
    }

    #[test]
    fn keys_are_bounded() {
        let cache: CachedByKey<u32, u32> = CachedByKey::new(2);
        let t0 = datetime!(2026-11-21 10:00 UTC);
        cache.slot(1, Duration::seconds(10)).put(t0, 10);
        cache.slot(2, Duration::seconds(10)).put(t0, 20);
        let again = futures_executor(cache.slot(1, Duration::seconds(10)).get_or_load(t0, || async { Ok::<_, ()>(0) })).unwrap();
        assert_eq!(*again, 10, "a kept key keeps its value");
        cache.slot(3, Duration::seconds(10));
        let reloaded = futures_executor(cache.slot(1, Duration::seconds(10)).get_or_load(t0, || async { Ok::<_, ()>(11) })).unwrap();
        assert_eq!(*reloaded, 11, "a third key dropped the kept ones");
    }

    /// Runs a future that never waits (the loads above are ready at once).
    fn futures_executor<F: std::future::Future>(future: F) -> F::Output {
        let waker = std::task::Waker::noop();
        let mut context = std::task::Context::from_waker(waker);
        let mut future = std::pin::pin!(future);
        loop {
            if let std::task::Poll::Ready(output) = future.as_mut().poll(&mut context) {
                return output;
            }
        }
    }
}
