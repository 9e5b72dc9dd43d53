//! The traversal shared by every search type: a search type says what a visit does
//! and which children are admitted; a coordination says how the tree becomes tasks.

use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Instant;

use crate::config::{Coordination, SearchConfig};
use crate::space::SearchSpace;
use crate::stats::SearchStats;

/// What a search type does at each node. Shared by all tasks of one run.
pub(crate) trait SearchType<S: SearchSpace>: Sync {
    /// Per-task state, merged into the shared state when the task ends.
    type Local: Default;

    /// Visits `node` at `depth`; returns whether its children should be generated.
    fn visit(&self, space: &S, node: &S::Node, depth: usize, local: &mut Self::Local) -> bool;

    /// Whether `child` may still lead to an answer (false: prune it).
    fn admits(&self, space: &S, child: &S::Node) -> bool;

    /// Whether the whole search should stop now.
    fn stop_requested(&self) -> bool;

    /// Folds one task's state into the shared state.
    fn merge(&self, local: Self::Local);
}

/// One task's counters and search-type state.
struct TaskLocal<L> {
    nodes: u64,
    prunes: u64,
    data: L,
}

impl<L: Default> TaskLocal<L> {
    fn new() -> Self {
        Self {
            nodes: 0,
            prunes: 0,
            data: L::default(),
        }
    }
}

/// Everything a task reads: shared by reference across the scope.
struct Run<'r, S, K> {
    space: &'r S,
    kind: &'r K,
    prune_siblings: bool,
    spawn_depth: usize,
    nodes: AtomicU64,
    prunes: AtomicU64,
}

impl<S: SearchSpace, K: SearchType<S>> Run<'_, S, K> {
    fn finish(&self, local: TaskLocal<K::Local>) {
        self.nodes.fetch_add(local.nodes, Ordering::Relaxed);
        self.prunes.fetch_add(local.prunes, Ordering::Relaxed);
        self.kind.merge(local.data);
    }

    /// Depth-first search of `node`'s subtree on this thread.
    fn explore(&self, node: &S::Node, depth: usize, local: &mut TaskLocal<K::Local>) {
        if self.kind.stop_requested() {
            return;
        }
        local.nodes += 1;
        if !self.kind.visit(self.space, node, depth, &mut local.data) {
            return;
        }
        for child in self.space.children(node) {
            if self.kind.stop_requested() {
                return;
            }
            if !self.kind.admits(self.space, &child) {
                local.prunes += 1;
                if self.prune_siblings {
                    return;
                }
                continue;
            }
            self.explore(&child, depth + 1, local);
        }
    }

    /// A task for `node`: spawns its children as tasks while above the spawn depth.
    fn task<'s>(&'s self, scope: &magpie::Scope<'s>, node: S::Node, depth: usize)
    where
        S::Node: 's,
    {
        let mut local = TaskLocal::new();
        if depth > 0 && !self.kind.admits(self.space, &node) {
            // The incumbent may have improved since the task was spawned.
            local.prunes += 1;
        } else if depth >= self.spawn_depth {
            self.explore(&node, depth, &mut local);
        } else if !self.kind.stop_requested() {
            local.nodes += 1;
            if self.kind.visit(self.space, &node, depth, &mut local.data) {
                for child in self.space.children(&node) {
                    if self.kind.stop_requested() {
                        break;
                    }
                    if !self.kind.admits(self.space, &child) {
                        local.prunes += 1;
                        if self.prune_siblings {
                            break;
                        }
                        continue;
                    }
                    scope.spawn(move |scope| self.task(scope, child, depth + 1));
                }
            }
        }
        self.finish(local);
    }
}

/// Runs search type `kind` over `space` as `config` says, returning the statistics;
/// the answer is left in `kind`'s shared state.
pub(crate) fn run<S, K>(space: &S, kind: &K, config: &SearchConfig<'_>) -> SearchStats
where
    S: SearchSpace,
    K: SearchType<S>,
{
    let start = Instant::now();
    let spawn_depth = match config.coordination {
        Coordination::Sequential => 0,
        Coordination::DepthBounded { spawn_depth } => spawn_depth,
    };
    let run = Run {
        space,
        kind,
        prune_siblings: config.prune_siblings,
        spawn_depth,
        nodes: AtomicU64::new(0),
        prunes: AtomicU64::new(0),
    };
    let body = || {
        if spawn_depth == 0 {
            let mut local = TaskLocal::new();
            run.explore(&space.root(), 0, &mut local);
            run.finish(local);
        } else {
            let run = &run;
            magpie::scope(|scope| run.task(scope, space.root(), 0));
        }
    };
    match config.pool {
        Some(pool) => pool.install(body),
        None => body(),
    }
    SearchStats {
        nodes_expanded: run.nodes.load(Ordering::Relaxed),
        prunes: run.prunes.load(Ordering::Relaxed),
        elapsed: start.elapsed(),
        pool: config.pool.map(magpie::ThreadPool::stats),
    }
}
