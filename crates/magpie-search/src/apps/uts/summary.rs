//! [`TreeSummary`], what UTS reports about a tree, and [`SummariseTree`], the
//! enumerator that computes it.

use crate::enumeration::{Enumerator, Monoid};

use super::node::UtsNode;
use super::space::Uts;

/// The size and shape of a tree, as UTS reports them.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct TreeSummary {
    /// The number of nodes.
    pub nodes: u64,
    /// The number of nodes without children.
    pub leaves: u64,
    /// The largest height of a node (the root is at height 0).
    pub max_depth: u64,
}

impl TreeSummary {
    /// Counts `node` in the summary.
    pub fn record(&mut self, node: &UtsNode) {
        self.nodes += 1;
        self.leaves += u64::from(node.is_leaf());
        self.max_depth = self.max_depth.max(u64::from(node.height()));
    }
}

impl Monoid for TreeSummary {
    fn combine(&mut self, other: Self) {
        self.nodes += other.nodes;
        self.leaves += other.leaves;
        self.max_depth = self.max_depth.max(other.max_depth);
    }
}

/// The enumerator recording every node of a [`Uts`] tree into a [`TreeSummary`].
#[derive(Clone, Copy, Debug, Default)]
pub struct SummariseTree;

impl Enumerator<Uts> for SummariseTree {
    type Summary = TreeSummary;

    fn record(&self, node: &UtsNode, _depth: usize, summary: &mut TreeSummary) {
        summary.record(node);
    }
}
