//! How a search runs: [`Coordination`] and [`SearchConfig`].

use magpie::ThreadPool;

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
}

/// The coordination, options and pool of one search run.
#[derive(Clone, Copy, Debug)]
pub struct SearchConfig<'pool> {
    /// How the tree is split into tasks.
    pub coordination: Coordination,
    /// When a child fails the bound, also skip its remaining siblings. Sound when the
    /// children's bounds are non-increasing in generation order (heuristic order).
    pub prune_siblings: bool,
    /// The pool to run in; `None` runs on the calling thread (and, for parallel
    /// coordinations, in the current or global magpie pool).
    pub pool: Option<&'pool ThreadPool>,
}

impl<'pool> SearchConfig<'pool> {
    /// Sequential, no sibling pruning, no pool.
    pub fn sequential() -> Self {
        Self {
            coordination: Coordination::Sequential,
            prune_siblings: false,
            pool: None,
        }
    }

    /// Depth-bounded with the given spawn depth, no sibling pruning, no pool.
    pub fn depth_bounded(spawn_depth: usize) -> Self {
        Self {
            coordination: Coordination::DepthBounded { spawn_depth },
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
