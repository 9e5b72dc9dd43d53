//! Enumeration: fold every node of the tree into a monoid.

use std::sync::Mutex;

use crate::config::SearchConfig;
use crate::engine::{self, SearchType};
use crate::space::SearchSpace;
use crate::stats::Outcome;

/// An associative combination with an identity (`Default`); partial results of
/// different tasks are combined in any grouping, so the answer does not depend on
/// the coordination.
pub trait Monoid: Default + Send {
    /// Combines `other` into `self`.
    fn combine(&mut self, other: Self);
}

/// What an enumeration records for each node.
pub trait Enumerator<S: SearchSpace>: Sync {
    /// The accumulated result.
    type Summary: Monoid;
    /// Records `node`, found at `depth` (the root is at depth 0), into `summary`.
    fn record(&self, node: &S::Node, depth: usize, summary: &mut Self::Summary);
}

/// The default enumerator: the number of nodes at each depth.
#[derive(Clone, Copy, Debug, Default)]
pub struct NodesPerDepth;

/// Node counts per depth, the [`Summary`](Enumerator::Summary) of [`NodesPerDepth`].
#[derive(Clone, Debug, Default, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct DepthCounts(Vec<u64>);

impl DepthCounts {
    /// `counts()[d]` is the number of nodes at depth `d`.
    pub fn counts(&self) -> &[u64] {
        &self.0
    }

    /// The number of nodes at all depths.
    pub fn total(&self) -> u64 {
        self.0.iter().sum()
    }
}

impl Monoid for DepthCounts {
    fn combine(&mut self, other: Self) {
        if self.0.len() < other.0.len() {
            self.0.resize(other.0.len(), 0);
        }
        for (mine, theirs) in self.0.iter_mut().zip(other.0) {
            *mine += theirs;
        }
    }
}

impl<S: SearchSpace> Enumerator<S> for NodesPerDepth {
    type Summary = DepthCounts;
    fn record(&self, _node: &S::Node, depth: usize, summary: &mut DepthCounts) {
        if summary.0.len() <= depth {
            summary.0.resize(depth + 1, 0);
        }
        summary.0[depth] += 1;
    }
}

struct Enumeration<'e, E, M> {
    enumerator: &'e E,
    total: Mutex<M>,
}

impl<S: SearchSpace, E: Enumerator<S>> SearchType<S> for Enumeration<'_, E, E::Summary> {
    type Local = E::Summary;

    fn visit(&self, _space: &S, node: &S::Node, depth: usize, local: &mut E::Summary) -> bool {
        self.enumerator.record(node, depth, local);
        true
    }

    fn admits(&self, _space: &S, _child: &S::Node) -> bool {
        true
    }

    fn stop_requested(&self) -> bool {
        false
    }

    fn merge(&self, local: E::Summary) {
        let mut total = self.total.lock().unwrap_or_else(|e| e.into_inner());
        total.combine(local);
    }
}

/// Visits every node of `space` and folds it into `enumerator`'s monoid.
pub fn enumerate<S, E>(space: &S, enumerator: &E, config: &SearchConfig<'_>) -> Outcome<E::Summary>
where
    S: SearchSpace,
    E: Enumerator<S>,
{
    enumerate_subtrees(space, enumerator, config, vec![(space.root(), 0)])
}

/// [`enumerate`] over the subtrees of `roots` (nodes of `space`, each with its depth)
/// instead of the whole tree: how a distributed layer searches the work it received.
/// Summaries of disjoint subtrees [`combine`](Monoid::combine) into the whole tree's.
pub fn enumerate_subtrees<S, E>(
    space: &S,
    enumerator: &E,
    config: &SearchConfig<'_>,
    roots: Vec<(S::Node, usize)>,
) -> Outcome<E::Summary>
where
    S: SearchSpace,
    E: Enumerator<S>,
{
    let kind = Enumeration {
        enumerator,
        total: Mutex::new(E::Summary::default()),
    };
    let stats = engine::run(space, &kind, config, roots);
    let answer = kind.total.into_inner().unwrap_or_else(|e| e.into_inner());
    Outcome { answer, stats }
}
