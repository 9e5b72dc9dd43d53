//! The run's pool of split-off nodes when work may leave the process: YewPar's
//! depth pool. Local workers take the deepest node (the sequential order's next
//! piece of work); another process takes the shallowest (the biggest subtree).
//!
//! Without a [`RemoteSink`](crate::RemoteSink) split-off nodes travel inside the
//! pool's jobs; with one, the jobs are tokens and the nodes wait here, where a remote
//! request can reach them.

use std::collections::VecDeque;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;

/// Nodes by depth; each level keeps its siblings in heuristic order.
pub(super) struct DepthPool<N> {
    levels: Mutex<Vec<VecDeque<N>>>,
    /// Nodes held, readable without the lock (a hint for idle checks).
    len: AtomicUsize,
}

impl<N> DepthPool<N> {
    pub(super) fn new() -> Self {
        Self {
            levels: Mutex::new(Vec::new()),
            len: AtomicUsize::new(0),
        }
    }

    /// Adds `nodes` (siblings at `depth`, in heuristic order).
    pub(super) fn push_all(&self, depth: usize, nodes: Vec<N>) {
        let mut levels = self.levels.lock().unwrap_or_else(|e| e.into_inner());
        if levels.len() <= depth {
            levels.resize_with(depth + 1, VecDeque::new);
        }
        // Relaxed: a hint only; the nodes themselves are guarded by the mutex.
        self.len.fetch_add(nodes.len(), Ordering::Relaxed);
        levels[depth].extend(nodes);
    }

    /// How many nodes wait (a racy hint).
    pub(super) fn len(&self) -> usize {
        self.len.load(Ordering::Relaxed)
    }

    /// The first node of the deepest level that has one.
    pub(super) fn pop_deepest(&self) -> Option<(N, usize)> {
        let mut levels = self.levels.lock().unwrap_or_else(|e| e.into_inner());
        let depth = levels.iter().rposition(|l| !l.is_empty())?;
        let node = levels[depth].pop_front()?;
        self.len.fetch_sub(1, Ordering::Relaxed);
        Some((node, depth))
    }

    /// Half (rounded up) of the shallowest non-empty level, first in heuristic order.
    pub(super) fn take_shallowest_half(&self) -> Vec<(N, usize)> {
        if self.len.load(Ordering::Relaxed) == 0 {
            return Vec::new();
        }
        let mut levels = self.levels.lock().unwrap_or_else(|e| e.into_inner());
        let Some(depth) = levels.iter().position(|l| !l.is_empty()) else {
            return Vec::new();
        };
        let level = &mut levels[depth];
        let count = level.len().div_ceil(2);
        self.len.fetch_sub(count, Ordering::Relaxed);
        level.drain(..count).map(|node| (node, depth)).collect()
    }
}

#[cfg(test)]
mod tests {
    use super::DepthPool;

    #[test]
    fn locals_take_the_deepest_and_remotes_the_shallowest_in_heuristic_order() {
        let pool = DepthPool::new();
        pool.push_all(1, vec!["a", "b"]);
        pool.push_all(3, vec!["x", "y"]);
        assert_eq!(pool.take_shallowest_half(), vec![("a", 1)]);
        assert_eq!(pool.pop_deepest(), Some(("x", 3)));
        assert_eq!(pool.pop_deepest(), Some(("y", 3)));
        assert_eq!(pool.pop_deepest(), Some(("b", 1)));
        assert_eq!(pool.pop_deepest(), None);
        assert!(pool.take_shallowest_half().is_empty());
    }

    #[test]
    fn a_remote_takes_half_of_the_shallowest_level() {
        let pool = DepthPool::new();
        pool.push_all(2, vec![1, 2, 3]);
        pool.push_all(4, vec![9]);
        assert_eq!(pool.take_shallowest_half(), vec![(1, 2), (2, 2)]);
        assert_eq!(pool.take_shallowest_half(), vec![(3, 2)]);
        assert_eq!(pool.take_shallowest_half(), vec![(9, 4)]);
        assert!(pool.take_shallowest_half().is_empty());
    }
}
