//! The traversal shared by every search type: a search type says what a visit does
//! and which children are admitted; a coordination says how the tree becomes tasks.
//!
//! Every coordination recurses (a node stays where it was generated, so its children's
//! generator may borrow it; the recursion is as deep as the tree). Stack stealing and
//! budget also keep the generators of the current path reachable, so that unexplored
//! children can be split off (see [`stack`]).
//!
//! A run starts from a list of roots (each with its depth): the tree's root for a
//! single-process search, subtrees received from other processes for a distributed
//! one. With a [`RemoteSink`], split-off nodes wait in a [`DepthPool`] where a request
//! from another process can take the shallowest of them.
//!
//! Trees can be far deeper than a thread's stack (a knapsack tree has a level per item,
//! a UTS geometric tree can be 20,000 levels deep), so the recursion grows its stack
//! on demand ([`deeper`]): every [`GROW_INTERVAL`] levels it checks the room left and,
//! when less than [`RED_ZONE`] remains, continues on a fresh heap segment of
//! [`SEGMENT`] bytes (the `stacker` crate). The check costs a thread-local read and a
//! comparison once per [`GROW_INTERVAL`] levels, nothing on the other levels, so the
//! skeletons' overhead against the hand-written solvers is unchanged (the overhead
//! table of `magpie bench search`). If a segment cannot be mapped, the search panics
//! with `stacker`'s "mmap failed to allocate stack" message, which the pool carries to
//! the caller like any panic (the CLI reports it as running out of memory).

mod depth_pool;
mod stack;

use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};
use std::sync::Mutex;
use std::time::Instant;

use crate::config::{Coordination, SearchConfig};
use crate::progress::Progress;
use crate::shared::RemoteSink;
use crate::space::SearchSpace;
use crate::stats::SearchStats;
use depth_pool::DepthPool;

/// What a search type does at each node. Shared by all tasks of one run.
pub(crate) trait SearchType<S: SearchSpace>: Sync {
    /// Per-task state, merged into the shared state when the run ends (a worker's
    /// tasks share one, see [`Run::take_local`]).
    type Local: Default + Send;

    /// Visits `node` at `depth`; returns whether its children should be generated.
    fn visit(&self, space: &S, node: &S::Node, depth: usize, local: &mut Self::Local) -> bool;

    /// The children of `node` to generate: all of them unless the search type knows
    /// a bound they must beat.
    fn children<'a>(&self, space: &'a S, node: &'a S::Node) -> S::Children<'a> {
        space.children(node)
    }

    /// Whether `child` may still lead to an answer (false: prune it).
    fn admits(&self, space: &S, child: &S::Node) -> bool;

    /// Whether the whole search should stop now.
    fn stop_requested(&self) -> bool;

    /// Folds one task's state into the shared state.
    fn merge(&self, local: Self::Local);
}

/// How many nodes a depth-bounded task explores between two offers of its queued
/// jobs to idle workers (one thread-local lookup and one load each) and two looks for
/// other ranks' requests for work (a dynamic call); every task looks this often
/// whether the remote sink cancelled the run.
const SHARE_CHECK_INTERVAL: u64 = 64;

/// Levels of recursion between two checks of the stack's room (see [`deeper`]).
pub(crate) const GROW_INTERVAL: usize = 16;

/// The room a check asks for: enough for [`GROW_INTERVAL`] levels of the largest
/// traversal frame (a few hundred bytes in release builds, a few KiB unoptimised, plus
/// what a search type's `visit`, `children` and `admits` use below it).
pub(crate) const RED_ZONE: usize = 1 << 20;

/// The size of each stack segment added when the room runs short. Freed when the
/// recursion returns from it.
pub(crate) const SEGMENT: usize = 16 << 20;

/// Runs `f`, the recursion into a child at `depth`, on a stack with at least
/// [`RED_ZONE`] bytes free when `depth` is a multiple of [`GROW_INTERVAL`]; other levels
/// call `f` directly (the check at the last multiple covers them). Under Miri, which
/// cannot run `stacker`'s assembly, `f` always runs directly (its trees are tiny).
#[inline(always)]
pub(crate) fn deeper<R>(depth: usize, f: impl FnOnce() -> R) -> R {
    if cfg!(not(miri)) && depth % GROW_INTERVAL == 0 {
        stacker::maybe_grow(RED_ZONE, SEGMENT, f)
    } else {
        f()
    }
}

/// Tasks' counters and search-type state: each worker accumulates its tasks' into
/// one (see [`Run::take_local`]).
struct TaskLocal<L> {
    tasks: u64,
    nodes: u64,
    prunes: u64,
    data: L,
}

impl<L: Default> TaskLocal<L> {
    /// Counts one visited node, reporting to `progress` every [`Progress::BATCH`].
    #[inline]
    fn count_node(&mut self, progress: Option<&Progress>) {
        self.nodes += 1;
        if self.nodes % Progress::BATCH == 0 {
            if let Some(progress) = progress {
                progress.add(Progress::BATCH);
            }
        }
    }

    fn new() -> Self {
        Self {
            tasks: 0,
            nodes: 0,
            prunes: 0,
            data: L::default(),
        }
    }
}

/// A worker's [`TaskLocal`] between two of its tasks, on a cache line of its own.
#[repr(align(128))]
struct LocalSlot<L>(Mutex<Option<TaskLocal<L>>>);

/// How a run turns the tree into tasks (the resolved [`Coordination`]).
#[derive(Clone, Copy)]
enum Split {
    /// Nodes above `spawn_depth` become tasks (0: one sequential traversal).
    Depth { spawn_depth: usize },
    /// Split when a worker is idle.
    Stealing { steal_all: bool },
    /// Split after this many backtracks.
    Budget { backtracks: u64 },
}

/// Everything a task reads: shared by reference across the scope.
struct Run<'r, S: SearchSpace, K: SearchType<S>> {
    space: &'r S,
    kind: &'r K,
    prune_siblings: bool,
    split: Split,
    remote: Option<&'r dyn RemoteSink>,
    /// With a remote sink: the split-off nodes not yet started.
    depth_pool: Option<DepthPool<S::Node>>,
    progress: Option<&'r Progress>,
    /// Stack stealing: split-off tasks not yet started (so that one idle worker
    /// does not make every busy task split).
    pending_splits: AtomicUsize,
    /// Per pool worker (by index): the state its tasks accumulate.
    locals: Vec<LocalSlot<K::Local>>,
    tasks: AtomicU64,
    nodes: AtomicU64,
    prunes: AtomicU64,
    /// A task of this run panicked (the run's result is that panic: the scope resumes
    /// it once every task has returned), or the remote sink cancelled the run: the
    /// other tasks stop at their next node as after a stop instead of searching on for
    /// nothing.
    given_up: AtomicBool,
}

impl<S: SearchSpace, K: SearchType<S>> Run<'_, S, K> {
    /// Whether tasks should return at once: the search type asked to stop (a decision
    /// found its witness), a task panicked or the remote sink cancelled the run.
    fn halted(&self) -> bool {
        // Relaxed: no data hangs on `given_up`; a late read only visits a few more nodes.
        self.kind.stop_requested() || self.given_up.load(Ordering::Relaxed)
    }

    /// On the remote's beat (every [`SHARE_CHECK_INTERVAL`] nodes of a task, not at
    /// every node: a dynamic call costs): gives the run up if the remote sink cancelled
    /// it.
    fn poll_cancel(&self, remote: &dyn RemoteSink) {
        if remote.cancelled() {
            self.given_up.store(true, Ordering::Relaxed);
        }
    }

    /// Gives another process (which waits for work) half of the waiting split-off
    /// nodes at the shallowest level that has any, at least one; returns whether
    /// there was any.
    fn serve_remote_from_pool(&self, remote: &dyn RemoteSink) -> bool {
        let Some(pool) = &self.depth_pool else {
            return false;
        };
        let nodes = pool.take_shallowest_half();
        let given = !nodes.is_empty();
        for (node, depth) in nodes {
            remote.send(Box::new(node), depth);
        }
        remote.stealable(pool.len());
        given
    }

    /// Tells the remote sink how many split-off nodes wait now.
    fn report_stealable(&self, pool: &DepthPool<S::Node>) {
        if let Some(remote) = self.remote {
            remote.stealable(pool.len());
        }
    }

    /// The state for a task starting on this thread: its worker's accumulated state
    /// (fresh if the worker has none, or the thread is not one of the run's workers).
    ///
    /// A task's state would otherwise start empty and be merged into the shared state
    /// when the task ends. That costs what the state's size costs, which can grow with
    /// the task's depth ([`crate::DepthCounts`] has an entry per depth from 0): budget
    /// and stack stealing can make a task per level of a deep tree, and so would take
    /// time quadratic in its depth. A worker's state grows to its deepest task once,
    /// and is merged once, at the end of the run.
    fn take_local(&self) -> TaskLocal<K::Local> {
        magpie::current_thread_index()
            .and_then(|index| self.locals.get(index))
            .and_then(|slot| lock(&slot.0).take())
            .unwrap_or_else(TaskLocal::new)
    }

    /// Keeps a finished task's state for the worker's next task (or merges it, if the
    /// worker already keeps one: a task that started while another was running on the
    /// same thread).
    fn put_back_local(&self, mut local: TaskLocal<K::Local>) {
        local.tasks += 1;
        let slot = magpie::current_thread_index().and_then(|index| self.locals.get(index));
        if let Some(slot) = slot {
            let mut kept = lock(&slot.0);
            if kept.is_none() {
                *kept = Some(local);
                return;
            }
        }
        self.finish(local);
    }

    /// Merges every worker's kept state (once all tasks are done).
    fn finish_kept_locals(&self) {
        for slot in &self.locals {
            if let Some(local) = lock(&slot.0).take() {
                self.finish(local);
            }
        }
    }

    /// Merges `local` into the run's counters and the search type's shared state.
    fn finish(&self, local: TaskLocal<K::Local>) {
        if let Some(progress) = self.progress {
            progress.add(local.nodes % Progress::BATCH);
        }
        self.tasks.fetch_add(local.tasks, Ordering::Relaxed);
        self.nodes.fetch_add(local.nodes, Ordering::Relaxed);
        self.prunes.fetch_add(local.prunes, Ordering::Relaxed);
        self.kind.merge(local.data);
    }

    /// Depth-first search of `node`'s subtree on this thread.
    fn explore(&self, node: &S::Node, depth: usize, local: &mut TaskLocal<K::Local>) {
        if self.halted() {
            return;
        }
        local.count_node(self.progress);
        if local.nodes % SHARE_CHECK_INTERVAL == 0 {
            // Tasks this worker spawned before it went deep may still be private
            // to its queue; a worker that went idle since should get them. Another
            // rank asking for work is served on the same beat (a dynamic call per
            // node would cost the sequential skeleton its overhead budget).
            magpie::share_queued_jobs();
            if let Some(remote) = self.remote {
                self.poll_cancel(remote);
                if remote.wants_work() {
                    self.serve_remote_from_pool(remote);
                }
            }
        }
        if !self.kind.visit(self.space, node, depth, &mut local.data) {
            return;
        }
        let mut children = self.kind.children(self.space, node);
        loop {
            // The child is used where `next` wrote it: moving it out of the `Option`
            // would copy the whole node once more.
            let next = children.next();
            let Some(child) = next.as_ref() else {
                return;
            };
            if self.halted() {
                return;
            }
            if !self.kind.admits(self.space, child) {
                local.prunes += 1;
                if self.prune_siblings {
                    return;
                }
                continue;
            }
            deeper(depth + 1, || self.explore(child, depth + 1, local));
        }
    }

    /// A task for `node` at `depth`: a run's root, or (`split_off`) a node split off by
    /// another task.
    fn task<'s>(&'s self, scope: &magpie::Scope<'s>, node: S::Node, depth: usize, split_off: bool) {
        if split_off && matches!(self.split, Split::Stealing { .. }) {
            self.pending_splits.fetch_sub(1, Ordering::Relaxed);
        }
        /// Raises `given_up` if the task unwinds (forgotten when it returns).
        struct OnUnwind<'a>(&'a AtomicBool);
        impl Drop for OnUnwind<'_> {
            fn drop(&mut self) {
                self.0.store(true, Ordering::Relaxed);
            }
        }
        let on_unwind = OnUnwind(&self.given_up);
        let mut local = self.take_local();
        if depth > 0 && !self.kind.admits(self.space, &node) {
            // The incumbent may have improved since the task was spawned.
            local.prunes += 1;
        } else {
            match self.split {
                Split::Depth { spawn_depth } if depth >= spawn_depth => {
                    self.explore(&node, depth, &mut local)
                }
                Split::Depth { .. } => self.spawn_children(scope, node, depth, &mut local),
                Split::Stealing { .. } | Split::Budget { .. } => {
                    stack::search(self, scope, node, depth, &mut local)
                }
            }
        }
        self.put_back_local(local);
        core::mem::forget(on_unwind);
    }

    /// Visits `node` and spawns each admitted child as a task (see [`Run::hand_off_all`]
    /// for the order).
    fn spawn_children<'s>(
        &'s self,
        scope: &magpie::Scope<'s>,
        node: S::Node,
        depth: usize,
        local: &mut TaskLocal<K::Local>,
    ) {
        if self.halted() {
            return;
        }
        local.count_node(self.progress);
        if !self.kind.visit(self.space, &node, depth, &mut local.data) {
            return;
        }
        let mut children = Vec::new();
        for child in self.kind.children(self.space, &node) {
            if self.halted() {
                return;
            }
            if !self.kind.admits(self.space, &child) {
                local.prunes += 1;
                if self.prune_siblings {
                    break;
                }
                continue;
            }
            children.push(child);
        }
        self.hand_off_all(scope, children, depth + 1);
    }

    /// Makes each of `nodes` (siblings at `depth`, in heuristic order) a task, keeping
    /// that order for whoever runs them, as YewPar's depth pool does: one job holds
    /// the siblings; it spawns a job for the rest and then runs the first. The worker
    /// that made them runs its newest job first, so it takes the siblings in order
    /// after the first one's subtree (alone, it visits the tree in the sequential
    /// order, which matters for branch and bound: its node count depends on how early
    /// good incumbents are found). A thief takes a worker's oldest job, the one at the
    /// shallowest level, so it gets the best sibling not yet started there.
    fn hand_off_all<'s>(
        &'s self,
        scope: &magpie::Scope<'s>,
        mut nodes: Vec<S::Node>,
        depth: usize,
    ) {
        if nodes.is_empty() {
            return;
        }
        if let Some(pool) = &self.depth_pool {
            // One token job per node; each runs whichever node is deepest when it
            // starts, or nothing if another process took it.
            let count = nodes.len();
            pool.push_all(depth, nodes);
            self.report_stealable(pool);
            for _ in 0..count {
                scope.spawn(move |scope| self.run_pooled(scope, pool));
            }
            return;
        }
        nodes.reverse(); // so that `pop` takes them in heuristic order
        scope.spawn(move |scope| self.run_siblings(scope, nodes, depth));
    }

    /// Runs the next of `rest` (reversed heuristic order), leaving the others to a job.
    fn run_siblings<'s>(&'s self, scope: &magpie::Scope<'s>, mut rest: Vec<S::Node>, depth: usize) {
        let Some(next) = rest.pop() else {
            return;
        };
        if !rest.is_empty() {
            scope.spawn(move |scope| self.run_siblings(scope, rest, depth));
        }
        self.task(scope, next, depth, true);
    }

    /// A token job: runs the deepest waiting node of `pool`, if any is left.
    fn run_pooled<'s>(&'s self, scope: &magpie::Scope<'s>, pool: &'s DepthPool<S::Node>) {
        let popped = pool.pop_deepest();
        self.report_stealable(pool);
        match popped {
            Some((node, depth)) => self.task(scope, node, depth, true),
            None => {
                // Another process took the node this token stood for.
                if matches!(self.split, Split::Stealing { .. }) {
                    self.pending_splits.fetch_sub(1, Ordering::Relaxed);
                }
            }
        }
    }

    /// Makes `node` (at `depth`) a task of the scope.
    fn hand_off<'s>(&'s self, scope: &magpie::Scope<'s>, node: S::Node, depth: usize) {
        if self.depth_pool.is_some() {
            return self.hand_off_all(scope, vec![node], depth);
        }
        scope.spawn(move |scope| self.task(scope, node, depth, true));
    }
}

/// Locks `mutex`, ignoring poison (a panicking task cannot leave a kept state half
/// updated: it holds its state outside the lock).
fn lock<T>(mutex: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    mutex
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner)
}

/// Runs search type `kind` over the subtrees of `roots` (nodes of `space` with their
/// depths) as `config` says, returning the statistics; the answer is left in `kind`'s
/// shared state.
pub(crate) fn run<S, K>(
    space: &S,
    kind: &K,
    config: &SearchConfig<'_>,
    roots: Vec<(S::Node, usize)>,
) -> SearchStats
where
    S: SearchSpace,
    K: SearchType<S>,
{
    let start = Instant::now();
    let split = match config.coordination {
        Coordination::Sequential => Split::Depth { spawn_depth: 0 },
        Coordination::DepthBounded { spawn_depth } => Split::Depth { spawn_depth },
        Coordination::StackStealing { steal_all } => Split::Stealing { steal_all },
        Coordination::Budget { backtracks } => Split::Budget {
            backtracks: backtracks.max(1),
        },
    };
    // Tasks run on the pool's workers (the configured pool, else the caller's, else
    // the global one); a sequential run keeps its one state itself.
    let workers = match (split, config.pool) {
        (Split::Depth { spawn_depth: 0 }, _) => 0,
        (_, Some(pool)) => pool.current_num_threads(),
        (_, None) => magpie::current_num_threads(),
    };
    let run = Run {
        space,
        kind,
        prune_siblings: config.prune_siblings,
        split,
        remote: config.remote,
        depth_pool: config.remote.map(|_| DepthPool::new()),
        progress: config.progress,
        pending_splits: AtomicUsize::new(0),
        locals: (0..workers).map(|_| LocalSlot(Mutex::new(None))).collect(),
        tasks: AtomicU64::new(0),
        nodes: AtomicU64::new(0),
        prunes: AtomicU64::new(0),
        given_up: AtomicBool::new(false),
    };
    let body = || {
        if let Split::Depth { spawn_depth: 0 } = split {
            let mut local = TaskLocal::new();
            for (node, depth) in roots {
                local.tasks += 1;
                if depth == 0 || kind.admits(space, &node) {
                    run.explore(&node, depth, &mut local);
                } else {
                    local.prunes += 1;
                }
            }
            run.finish(local);
        } else {
            let run = &run;
            magpie::scope(|scope| {
                let mut roots = roots.into_iter();
                let first = roots.next();
                for (node, depth) in roots {
                    scope.spawn(move |scope| run.task(scope, node, depth, false));
                }
                if let Some((node, depth)) = first {
                    run.task(scope, node, depth, false);
                }
            });
        }
    };
    match config.pool {
        Some(pool) => pool.install(body),
        None => body(),
    }
    run.finish_kept_locals();
    SearchStats {
        nodes_expanded: run.nodes.load(Ordering::Relaxed),
        prunes: run.prunes.load(Ordering::Relaxed),
        tasks: run.tasks.load(Ordering::Relaxed),
        elapsed: start.elapsed(),
        pool: config.pool.map(magpie::ThreadPool::stats),
    }
}
