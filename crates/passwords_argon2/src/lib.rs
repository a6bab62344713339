//! `BlockingArgon2`: the `accounts::PasswordHashing` adapter. argon2 takes about 20 ms of a core
//! per attempt; run on the HTTP workers, a few clients spraying sign-ins would stall every other
//! request. Here it runs on tokio's blocking pool, on at most half the cores at a time, and the
//! rest wait for a permit without holding a thread.

use accounts::passwords::{argon2_hash, argon2_verify};
use async_trait::async_trait;
use std::sync::Arc;
use tokio::sync::Semaphore;

/// What runs a hash job: real argon2 in production; tests may watch where and how many run.
pub type HashJob = Box<dyn FnOnce() -> Option<String> + Send>;

pub struct BlockingArgon2 {
    permits: Arc<Semaphore>,
}

impl BlockingArgon2 {
    /// At most `concurrent` hashes at once.
    pub fn new(concurrent: usize) -> Self {
        Self { permits: Arc::new(Semaphore::new(concurrent.max(1))) }
    }

    /// Half the machine's cores (at least one): a spray of sign-ins can then take at most half
    /// the CPU, and every other request keeps the rest.
    pub fn half_the_cores() -> Self {
        Self::new(std::thread::available_parallelism().map_or(1, |cores| (usize::from(cores) / 2).max(1)))
    }

    /// Runs `job` on the blocking pool once a permit is free.
    pub async fn run(&self, job: HashJob) -> Option<String> {
        let _permit = self.permits.acquire().await.ok()?;
        tokio::task::spawn_blocking(job).await.ok().flatten()
    }
}

#[async_trait]
impl accounts::PasswordHashing for BlockingArgon2 {
    async fn hash(&self, password: String) -> Option<String> {
        self.run(Box::new(move || argon2_hash(&password))).await
    }

    async fn verify(&self, password: String, phc: String) -> bool {
        self.run(Box::new(move || argon2_verify(&password, &phc).then(String::new))).await.is_some()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use accounts::PasswordHashing;
    use std::sync::atomic::{AtomicUsize, Ordering};
    use std::time::Duration;

    #[tokio::test(flavor = "current_thread")]
    async fn hashing_runs_off_the_caller_thread_and_within_the_permits() {
        let hasher = Arc::new(BlockingArgon2::new(2));
        let caller = std::thread::current().id();
        let (running, most) = (Arc::new(AtomicUsize::new(0)), Arc::new(AtomicUsize::new(0)));
        let jobs: Vec<_> = (0..6)
            .map(|_| {
                let (hasher, running, most) = (hasher.clone(), running.clone(), most.clone());
                tokio::spawn(async move {
                    hasher
                        .run(Box::new(move || {
                            let now = running.fetch_add(1, Ordering::SeqCst) + 1;
                            most.fetch_max(now, Ordering::SeqCst);
                            std::thread::sleep(Duration::from_millis(30));
                            running.fetch_sub(1, Ordering::SeqCst);
                            (std::thread::current().id() != caller).then(String::new)
                        }))
                        .await
                })
            })
            .collect();
        for job in jobs {
            assert!(job.await.unwrap().is_some(), "ran on another thread than the caller's");
        }
        assert_eq!(most.load(Ordering::SeqCst), 2, "never more than the permits at once");
        let hash = hasher.hash("a good long password".into()).await.unwrap();
        assert!(hasher.verify("a good long password".into(), hash.clone()).await);
        assert!(!hasher.verify("wrong".into(), hash).await);
    }
}
