//! The writes this server takes, counted: what a server keeps beside the database for a moment
//! (answers, page positions) is stamped with the count it was made at, and one write moves the
//! count on, so everything kept before it is forgotten at once.

use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};

/// A shared count of the writes this server took; clones count together.
#[derive(Debug, Clone, Default)]
pub struct WriteGeneration(Arc<AtomicU64>);

impl WriteGeneration {
    /// The count now: anything stamped with an older one was made before a write.
    pub fn current(&self) -> u64 {
        self.0.load(Ordering::Acquire)
    }

    /// Counts a write this server took.
    pub fn advance(&self) {
        self.0.fetch_add(1, Ordering::AcqRel);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn clones_count_together() {
        let writes = WriteGeneration::default();
        let seen_elsewhere = writes.clone();
        let before = seen_elsewhere.current();
        writes.advance();
        assert_eq!(seen_elsewhere.current(), before + 1);
    }
}
