//! Stack stealing and budget: a task searches depth-first and keeps a list of the lazy
//! child generators on its current path, so that at any moment the unexplored children
//! at its shallowest level (the biggest pieces of work it holds) can be handed to new
//! tasks.
//!
//! * Stack stealing (YewPar's `StackStealing`): while more pool workers are idle than
//!   split-off tasks wait to start, the task hands over its shallowest unexplored
//!   child, or with `steal_all` every unexplored sibling at that level. The pool's
//!   victim policy decides who takes the new tasks. While split-off tasks wait and a
//!   worker is idle, the task makes its queued jobs stealable
//!   ([`magpie::share_queued_jobs`]): a worker that pushed while nobody was idle
//!   keeps its newest jobs private until then.
//! * Budget (YewPar's `Budget`): after `backtracks` backtracks the task hands over
//!   every unexplored child at its shallowest level and starts counting again.
//!
//! A backtrack is the end of one node's subtree (a leaf counts), as in YewPar.
//!
//! The traversal is a plain recursion, like the sequential one (growing its stack on
//! demand, see [`super::deeper`]), so a node stays where it was generated and its
//! generator may borrow it. Each level's generator lives in
//! that level's call; the task's [`Path`] holds a pointer to it while the call runs,
//! which is how a split at the current node reaches its ancestors' generators.

use std::ptr::NonNull;
use std::sync::atomic::Ordering;

use super::{Run, SearchType, Split, TaskLocal};
use crate::shared::RemoteSink;
use crate::space::SearchSpace;

/// The children of one node on the path that are not yet explored.
struct Frame<'g, S: SearchSpace + 'g> {
    /// Never polled again once `exhausted` is set (so it need not be fused).
    children: S::Children<'g>,
    /// The depth of those children.
    depth: usize,
    /// No children left to take (known without pulling from `children`).
    exhausted: bool,
}

/// One task's traversal state: its run, its scope, and the generators on its path.
struct Path<'p, 's, S: SearchSpace + 's, K: SearchType<S>> {
    run: &'s Run<'s, S, K>,
    scope: &'p magpie::Scope<'s>,
    /// The generators of the nodes on the current path, shallowest first. Entry `i`
    /// points to a [`Frame`] owned by the `expand` call at depth `i` of this task,
    /// which pushes it before its first child and pops it before it returns; the
    /// lifetime `'s` stands for that call's (shorter) borrow of its node. A frame is
    /// only ever accessed through this pointer.
    frames: Vec<NonNull<Frame<'s, S>>>,
    /// Frames below this index are exhausted: splits start looking here.
    first_live: usize,
    /// Backtracks since the last budget split.
    backtracks: u64,
}

/// Searches `node`'s subtree (at `depth`; already admitted) as one task, splitting
/// work off as the run's split policy says.
pub(super) fn search<'s, S, K>(
    run: &'s Run<'s, S, K>,
    scope: &magpie::Scope<'s>,
    node: S::Node,
    depth: usize,
    local: &mut TaskLocal<K::Local>,
) where
    S: SearchSpace,
    K: SearchType<S>,
{
    let mut path = Path {
        run,
        scope,
        frames: Vec::new(),
        first_live: 0,
        backtracks: 0,
    };
    path.expand(&node, depth, local);
}

impl<'s, S, K> Path<'_, 's, S, K>
where
    S: SearchSpace,
    K: SearchType<S>,
{
    /// Visits `node` at `depth` and searches its admitted children depth-first.
    fn expand(&mut self, node: &S::Node, depth: usize, local: &mut TaskLocal<K::Local>) {
        let (run, space, kind) = (self.run, self.run.space, self.run.kind);
        if run.halted() {
            return;
        }
        local.count_node(run.progress);
        if kind.visit(space, node, depth, &mut local.data) {
            let mut frame = Frame::<S> {
                children: kind.children(space, node),
                depth: depth + 1,
                exhausted: false,
            };
            // Only this pointer touches `frame` from here on (see `frames`).
            let frame = NonNull::from(&mut frame).cast::<Frame<'s, S>>();
            self.frames.push(frame);
            self.offer_work(local);
            loop {
                if run.halted() {
                    break;
                }
                // SAFETY: `frame` points to the live local above; no reference to it
                // is held across this call or the recursion below (splits reach it
                // through `frames` only while it is not borrowed).
                let next = unsafe { (*frame.as_ptr()).next_admitted(run, local) };
                let Some(child) = next else {
                    break;
                };
                super::deeper(depth + 1, || self.expand(&child, depth + 1, local));
            }
            // The frame dies with this call: unregister it first.
            self.frames.pop();
            self.first_live = self.first_live.min(self.frames.len());
        } else {
            self.offer_work(local);
        }
        // Backtrack: `node`'s subtree is done.
        self.backtracks += 1;
        if let Split::Budget { backtracks: budget } = run.split {
            if self.backtracks >= budget {
                self.backtracks = 0;
                self.split(true, local);
            }
        }
    }

    /// After a node's visit: split for idle workers, or let them have our queued
    /// jobs; serve a remote request for work.
    #[inline]
    fn offer_work(&mut self, local: &mut TaskLocal<K::Local>) {
        let run = self.run;
        let idle = magpie::current_idle_workers().unwrap_or(0);
        if idle > 0 {
            match run.split {
                Split::Stealing { steal_all }
                    if idle > run.pending_splits.load(Ordering::Relaxed) =>
                {
                    self.split(steal_all, local);
                }
                // Work we split or spawned earlier may still sit in our queue's
                // private block: let the idle worker have it.
                _ => magpie::share_queued_jobs(),
            }
        }
        if let Some(remote) = run.remote {
            if local.nodes % super::SHARE_CHECK_INTERVAL == 0 {
                run.poll_cancel(remote);
            }
            if remote.wants_work() && !run.serve_remote_from_pool(remote) {
                self.send_remote(remote, local);
            }
        }
    }

    /// The shallowest live frame, if any.
    fn shallowest_live(&mut self) -> Option<NonNull<Frame<'s, S>>> {
        self.frames.get(self.first_live).copied()
    }

    /// Sends the shallowest unexplored admitted child to another process.
    fn send_remote(&mut self, remote: &dyn RemoteSink, local: &mut TaskLocal<K::Local>) {
        while let Some(frame) = self.shallowest_live() {
            // SAFETY: a registered frame is live, and every `expand` call between it
            // and us is inside its recursion, holding no reference to its frame.
            let frame = unsafe { &mut *frame.as_ptr() };
            if let Some(child) = frame.next_admitted(self.run, local) {
                remote.send(Box::new(child), frame.depth);
                return;
            }
            self.first_live += 1;
        }
    }

    /// Hands the shallowest unexplored child (or, with `all`, every unexplored child
    /// at the shallowest level that has one) to new tasks.
    fn split(&mut self, all: bool, local: &mut TaskLocal<K::Local>) {
        let run = self.run;
        while let Some(frame) = self.shallowest_live() {
            // SAFETY: as in `send_remote`.
            let frame = unsafe { &mut *frame.as_ptr() };
            let stealing = matches!(run.split, Split::Stealing { .. });
            if !all {
                if let Some(child) = frame.next_admitted(run, local) {
                    if stealing {
                        run.pending_splits.fetch_add(1, Ordering::Relaxed);
                    }
                    run.hand_off(self.scope, child, frame.depth);
                    return;
                }
            } else {
                let mut children = Vec::new();
                while let Some(child) = frame.next_admitted(run, local) {
                    children.push(child);
                }
                if stealing {
                    run.pending_splits
                        .fetch_add(children.len(), Ordering::Relaxed);
                }
                let given = children.len();
                run.hand_off_all(self.scope, children, frame.depth);
                if given > 0 {
                    self.first_live += 1;
                    return;
                }
            }
            // This level is exhausted; look one level deeper.
            self.first_live += 1;
        }
    }
}

impl<'g, S: SearchSpace + 'g> Frame<'g, S> {
    /// The next child that the search type admits; pruned children are counted (and
    /// with sibling pruning, the first one ends the frame).
    fn next_admitted<K: SearchType<S>>(
        &mut self,
        run: &Run<'_, S, K>,
        local: &mut TaskLocal<K::Local>,
    ) -> Option<S::Node> {
        while !self.exhausted {
            let Some(child) = self.children.next() else {
                self.exhausted = true;
                break;
            };
            if run.kind.admits(run.space, &child) {
                return Some(child);
            }
            local.prunes += 1;
            self.exhausted = run.prune_siblings;
        }
        None
    }
}

/// Small enough for Miri (`cargo +nightly miri test -p magpie-search --lib engine`):
/// the path's frame pointers under splits, remote hand-offs and panics.
#[cfg(test)]
mod tests {
    use std::any::Any;
    use std::panic::{self, AssertUnwindSafe};
    use std::sync::Mutex;

    use crate::{enumerate, NodesPerDepth, RemoteSink, SearchConfig, SearchSpace};

    /// Words over `{0, 1, 2}` up to a length; a node is its word, and the generator
    /// borrows it (a child is the parent plus one letter).
    struct Words {
        length: usize,
        /// Panic when generating the children of this word.
        panic_at: Option<Vec<u8>>,
    }

    struct Extend<'a> {
        parent: &'a [u8],
        letters: std::ops::Range<u8>,
    }

    impl Iterator for Extend<'_> {
        type Item = Vec<u8>;
        fn next(&mut self) -> Option<Vec<u8>> {
            let letter = self.letters.next()?;
            let mut child = self.parent.to_vec();
            child.push(letter);
            Some(child)
        }
    }

    impl SearchSpace for Words {
        type Node = Vec<u8>;
        type Children<'a> = Extend<'a>;
        fn root(&self) -> Vec<u8> {
            Vec::new()
        }
        fn children<'a>(&'a self, node: &'a Vec<u8>) -> Extend<'a> {
            assert!(self.panic_at.as_ref() != Some(node), "generator panicked");
            let letters = if node.len() < self.length { 0..3 } else { 0..0 };
            Extend {
                parent: node,
                letters,
            }
        }
    }

    /// Nodes of the complete ternary tree of depth `length`, per depth.
    fn expected(length: usize) -> Vec<u64> {
        (0..=length as u32).map(|d| 3u64.pow(d)).collect()
    }

    fn pool() -> magpie::ThreadPool {
        magpie::ThreadPoolBuilder::new()
            .num_threads(2)
            .queue_geometry(2, 2)
            .build()
            .unwrap()
    }

    #[test]
    fn splits_take_children_from_the_shallowest_generators() {
        let pool = pool();
        let space = Words {
            length: 3,
            panic_at: None,
        };
        for config in [
            SearchConfig::budget(1),
            SearchConfig::budget(3),
            SearchConfig::stack_stealing(false),
            SearchConfig::stack_stealing(true),
        ] {
            let outcome = enumerate(&space, &NodesPerDepth, &config.in_pool(&pool));
            assert_eq!(outcome.answer.counts(), expected(3), "{config:?}");
        }
        // Budget 1 splits at every backtrack: many tasks, each from a live frame.
        let outcome = enumerate(
            &space,
            &NodesPerDepth,
            &SearchConfig::budget(1).in_pool(&pool),
        );
        assert!(outcome.stats.tasks > 3, "{}", outcome.stats.tasks);
    }

    /// Takes every subtree offered while it has room, and counts what it took.
    struct Taker {
        taken: Mutex<Vec<(Vec<u8>, usize)>>,
        room: usize,
    }

    impl RemoteSink for Taker {
        fn wants_work(&self) -> bool {
            self.taken.lock().unwrap().len() < self.room
        }
        fn send(&self, node: Box<dyn Any + Send>, depth: usize) {
            let node = *node.downcast::<Vec<u8>>().unwrap();
            assert_eq!(node.len(), depth);
            self.taken.lock().unwrap().push((node, depth));
        }
    }

    #[test]
    fn remote_hand_offs_come_from_live_frames() {
        let space = Words {
            length: 3,
            panic_at: None,
        };
        let taker = Taker {
            taken: Mutex::new(Vec::new()),
            room: 4,
        };
        let pool = pool();
        let config = SearchConfig::budget(1_000)
            .in_pool(&pool)
            .with_remote(&taker);
        let local: u64 = enumerate(&space, &NodesPerDepth, &config).answer.total();
        let taken = taker.taken.into_inner().unwrap();
        assert_eq!(taken.len(), 4);
        let sent: u64 = taken
            .iter()
            .map(|(_, depth)| (0..=(3 - depth) as u32).map(|d| 3u64.pow(d)).sum::<u64>())
            .sum();
        assert_eq!(local + sent, expected(3).iter().sum::<u64>());
    }

    #[test]
    fn a_panicking_generator_unwinds_the_search_and_spares_the_pool() {
        let pool = pool();
        let space = Words {
            length: 3,
            panic_at: Some(vec![1, 2]),
        };
        for config in [SearchConfig::budget(1), SearchConfig::stack_stealing(true)] {
            let config = config.in_pool(&pool);
            let result = panic::catch_unwind(AssertUnwindSafe(|| {
                enumerate(&space, &NodesPerDepth, &config)
            }));
            assert!(result.is_err(), "{config:?}");
        }
        let healthy = Words {
            length: 2,
            panic_at: None,
        };
        let outcome = enumerate(
            &healthy,
            &NodesPerDepth,
            &SearchConfig::stack_stealing(false).in_pool(&pool),
        );
        assert_eq!(outcome.answer.counts(), expected(2));
    }
}
