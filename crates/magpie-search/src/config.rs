//! How a search runs: [`Coordination`] and [`SearchConfig`].

use std::fmt;

use magpie::ThreadPool;

use crate::progress::Progress;
use crate::shared::RemoteSink;

/// How the search tree is split into tasks.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub enum Coordination {
    /// One depth-first traversal on the calling thread (or one pool worker).
    Sequential,
    /// Every node at depth `1..=spawn_depth` becomes a task of a [`magpie::scope`];
    /// deeper subtrees are searched sequentially inside their task.
    DepthBounded {
        /// The deepest level whose nodes become tasks (0 behaves like `Sequential`).
        spawn_depth: usize,
    },
    /// Each task searches depth-first; while some pool worker
    /// is idle, a busy task splits off its shallowest unexplored child (with
    /// `steal_all`, every unexplored sibling at that level) as new tasks.
    StackStealing {
        /// Hand over all unexplored siblings at the shallowest level, not just one.
        steal_all: bool,
    },
    /// Each task searches depth-first; after `backtracks` backtracks it hands every
    /// unexplored child at its shallowest level to new tasks and starts counting again.
    Budget {
        /// Backtracks a task performs before it splits (at least 1).
        backtracks: u64,
    },
}

/// The coordination, options and pool of one search run.
#[derive(Clone, Copy)]
pub struct SearchConfig<'pool> {
    /// How the tree is split into tasks.
    pub coordination: Coordination,
    /// When a child fails the bound, also skip its remaining siblings. Sound when the
    /// children's bounds are non-increasing in generation order (heuristic order).
    pub prune_siblings: bool,
    /// The pool to run in; `None` runs on the calling thread (and, for parallel
    /// coordinations, in the current or global magpie pool).
    pub pool: Option<&'pool ThreadPool>,
    /// Where tasks send work that another process wants (see [`RemoteSink`]: split-off
    /// nodes under every coordination, and the running task's own children under stack
    /// stealing and budget); `None` keeps every node in this process.
    pub remote: Option<&'pool dyn RemoteSink>,
    /// A live node counter to update while the search runs.
    pub progress: Option<&'pool Progress>,
}

impl fmt::Debug for SearchConfig<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("SearchConfig")
            .field("coordination", &self.coordination)
            .field("prune_siblings", &self.prune_siblings)
            .field("pool", &self.pool.map(|p| p.current_num_threads()))
            .field("remote", &self.remote.is_some())
            .field("progress", &self.progress.is_some())
            .finish()
    }
}

impl<'pool> SearchConfig<'pool> {
    /// Sequential, no sibling pruning, no pool.
    pub fn sequential() -> Self {
        Self {
            coordination: Coordination::Sequential,
            prune_siblings: false,
            pool: None,
            remote: None,
            progress: None,
        }
    }

    /// Depth-bounded with the given spawn depth, no sibling pruning, no pool.
    pub fn depth_bounded(spawn_depth: usize) -> Self {
        Self {
            coordination: Coordination::DepthBounded { spawn_depth },
            ..Self::sequential()
        }
    }

    /// Stack stealing, splitting one child (or, with `steal_all`, every unexplored
    /// sibling at the shallowest level) when a worker is idle.
    pub fn stack_stealing(steal_all: bool) -> Self {
        Self {
            coordination: Coordination::StackStealing { steal_all },
            ..Self::sequential()
        }
    }

    /// Budget: split after `backtracks` backtracks.
    pub fn budget(backtracks: u64) -> Self {
        Self {
            coordination: Coordination::Budget { backtracks },
            ..Self::sequential()
        }
    }

    /// The same configuration running in `pool` (its statistics are then reported).
    pub fn in_pool(self, pool: &'pool ThreadPool) -> Self {
        Self {
            pool: Some(pool),
            ..self
        }
    }

    /// The same configuration handing work that other processes want to `remote`.
    pub fn with_remote(self, remote: &'pool dyn RemoteSink) -> Self {
        Self {
            remote: Some(remote),
            ..self
        }
    }

    /// The same configuration counting visited nodes into `progress` as it runs.
    pub fn with_progress(self, progress: &'pool Progress) -> Self {
        Self {
            progress: Some(progress),
            ..self
        }
    }

    /// The same configuration with sibling pruning on or off.
    pub fn with_sibling_pruning(self, prune_siblings: bool) -> Self {
        Self {
            prune_siblings,
            ..self
        }
    }
}

impl Default for SearchConfig<'_> {
    fn default() -> Self {
        Self::sequential()
    }
}
