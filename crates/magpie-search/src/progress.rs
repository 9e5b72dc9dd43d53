//! [`Progress`]: a live node counter that another thread can watch while a search runs.

use std::sync::atomic::{AtomicU64, Ordering};

/// Nodes visited so far by a running search, updated by every task in batches of
/// [`Progress::BATCH`] nodes (so it lags by at most that many per task). Pass it with
/// [`SearchConfig::with_progress`](crate::SearchConfig::with_progress) and read it
/// from another thread, e.g. to print progress on a long run.
#[derive(Debug, Default)]
pub struct Progress {
    nodes: AtomicU64,
}

impl Progress {
    /// How many nodes a task visits between two updates.
    pub const BATCH: u64 = 1024;

    /// A counter at zero.
    pub fn new() -> Self {
        Self::default()
    }

    /// Nodes visited so far (a lower bound while the search runs).
    pub fn nodes(&self) -> u64 {
        // Relaxed: a monotone statistic; nothing is published through it.
        self.nodes.load(Ordering::Relaxed)
    }

    pub(crate) fn add(&self, nodes: u64) {
        self.nodes.fetch_add(nodes, Ordering::Relaxed);
    }
}
