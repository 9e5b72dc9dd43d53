//! Stack stealing and budget: a task searches depth-first with an explicit stack of
//! lazy child generators, so that at any moment the unexplored children at its
//! shallowest level (the biggest pieces of work it holds) can be handed to new tasks.
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

use std::sync::atomic::Ordering;

use super::{Run, SearchType, Split, TaskLocal};
use crate::shared::RemoteSink;
use crate::space::SearchSpace;

/// The children of one node on the stack that are not yet explored.
struct Frame<'s, S: SearchSpace + 's> {
    /// Never polled again once `exhausted` is set (so it need not be fused).
    children: S::Children<'s>,
    /// The depth of those children.
    depth: usize,
    /// No children left to take (known without pulling from `children`).
    exhausted: bool,
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
    let (space, kind) = (run.space, run.kind);
    if kind.stop_requested() {
        return;
    }
    local.count_node(run.progress);
    if !kind.visit(space, &node, depth, &mut local.data) {
        return;
    }
    let mut stack: Vec<Frame<'s, S>> = Vec::new();
    // The next node to visit: the first child of a node just expanded (so that a
    // leaf never costs a frame on the stack), else the top frame's next child.
    let mut carried = descend(run, &mut stack, &node, depth, local);
    drop(node);
    // Frames below this index are exhausted: splits start looking here.
    let mut first_live = 0;
    let mut backtracks = u64::from(carried.is_none());
    loop {
        if kind.stop_requested() {
            return;
        }
        let (child, child_depth) = match carried.take() {
            Some(next) => next,
            None => {
                let Some(top) = stack.last_mut() else {
                    break;
                };
                let Some(child) = top.next_admitted(run, local) else {
                    stack.pop();
                    first_live = first_live.min(stack.len());
                    backtracks += 1;
                    if let Split::Budget { backtracks: budget } = run.split {
                        if backtracks >= budget {
                            backtracks = 0;
                            split(run, scope, &mut stack, &mut first_live, true, local);
                        }
                    }
                    continue;
                };
                (child, top.depth)
            }
        };
        local.count_node(run.progress);
        if kind.visit(space, &child, child_depth, &mut local.data) {
            carried = descend(run, &mut stack, &child, child_depth, local);
        }
        if carried.is_none() {
            backtracks += 1; // a leaf: its subtree ends here
        }
        let idle = magpie::current_idle_workers().unwrap_or(0);
        if idle > 0 {
            match run.split {
                Split::Stealing { steal_all }
                    if idle > run.pending_splits.load(Ordering::Relaxed) =>
                {
                    split(run, scope, &mut stack, &mut first_live, steal_all, local);
                    continue;
                }
                // Work we split or spawned earlier may still sit in our queue's
                // private block: let the idle worker have it.
                _ => magpie::share_queued_jobs(),
            }
        }
        if let Some(remote) = run.remote {
            if remote.wants_work() {
                send_remote(run, remote, &mut stack, &mut first_live, local);
            }
        }
    }
}

/// Starts generating the children of `node` (at `depth`, already visited): returns
/// its first admitted child, pushing the generator of the rest, or `None` for a
/// node without admitted children (no frame is pushed for it).
fn descend<'s, S, K>(
    run: &Run<'s, S, K>,
    stack: &mut Vec<Frame<'s, S>>,
    node: &S::Node,
    depth: usize,
    local: &mut TaskLocal<K::Local>,
) -> Option<(S::Node, usize)>
where
    S: SearchSpace,
    K: SearchType<S>,
{
    let mut frame = Frame::new(run, node, depth + 1);
    let first = frame.next_admitted(run, local)?;
    stack.push(frame);
    Some((first, depth + 1))
}

impl<'s, S: SearchSpace + 's> Frame<'s, S> {
    fn new<K: SearchType<S>>(run: &Run<'s, S, K>, node: &S::Node, depth: usize) -> Self {
        Self {
            children: run.kind.children(run.space, node),
            depth,
            exhausted: false,
        }
    }

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

/// Sends the shallowest unexplored admitted child to another process.
fn send_remote<'s, S, K>(
    run: &Run<'s, S, K>,
    remote: &dyn RemoteSink,
    stack: &mut [Frame<'s, S>],
    first_live: &mut usize,
    local: &mut TaskLocal<K::Local>,
) where
    S: SearchSpace,
    K: SearchType<S>,
{
    while let Some(frame) = stack.get_mut(*first_live) {
        if let Some(child) = frame.next_admitted(run, local) {
            remote.send(Box::new(child), frame.depth);
            return;
        }
        *first_live += 1;
    }
}

/// Hands the shallowest unexplored child (or, with `all`, every unexplored child at
/// the shallowest level that has one) to new tasks.
fn split<'s, S, K>(
    run: &'s Run<'s, S, K>,
    scope: &magpie::Scope<'s>,
    stack: &mut [Frame<'s, S>],
    first_live: &mut usize,
    all: bool,
    local: &mut TaskLocal<K::Local>,
) where
    S: SearchSpace,
    K: SearchType<S>,
{
    while let Some(frame) = stack.get_mut(*first_live) {
        let mut given = 0;
        while let Some(child) = frame.next_admitted(run, local) {
            if matches!(run.split, Split::Stealing { .. }) {
                run.pending_splits.fetch_add(1, Ordering::Relaxed);
            }
            run.hand_off(scope, child, frame.depth);
            given += 1;
            if !all {
                return;
            }
        }
        // This level is exhausted now; if it gave nothing, look one level deeper.
        *first_live += 1;
        if given > 0 {
            return;
        }
    }
}
