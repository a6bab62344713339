//! A value recomputed at most once per time-to-live, for reads that may be a few seconds
//! stale (directory counts, trending scores) and cost too much to compute per request.

use std::future::Future;
use std::sync::{Arc, Mutex};
use time::{Duration, OffsetDateTime};

/// One cached value with its time of computation.
#[derive(Debug)]
pub struct Cached<T> {
    slot: Mutex<Option<(OffsetDateTime, Arc<T>)>>,
    ttl: Duration,
}

impl<T> Cached<T> {
    pub fn new(ttl: Duration) -> Self {
        Self { slot: Mutex::new(None), ttl }
    }

    /// The cached value if it is younger than the time-to-live at `now`, else a fresh one from
    /// `load` (which is not called under the lock; concurrent misses may both load).
    pub async fn get_or_load<E, F, Fut>(&self, now: OffsetDateTime, load: F) -> Result<Arc<T>, E>
    where
        F: FnOnce() -> Fut,
        Fut: Future<Output = Result<T, E>>,
    {
        if let Some((at, value)) = self.slot.lock().unwrap_or_else(|p| p.into_inner()).as_ref()
            && now - *at < self.ttl
            && now >= *at
        {
            return Ok(value.clone());
        }
        let value = Arc::new(load().await?);
        *self.slot.lock().unwrap_or_else(|p| p.into_inner()) = Some((now, value.clone()));
        Ok(value)
    }

    /// Forgets the value, so the next read loads a fresh one.
    pub fn clear(&self) {
        *self.slot.lock().unwrap_or_else(|p| p.into_inner()) = None;
    }
}

#[cfg(test)]
mod tests {
    use super::Cached;
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
