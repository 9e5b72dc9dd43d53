//! The user's side of a search: the tree ([`SearchSpace`]) and, for decision and
//! optimisation searches, the objective ([`Objective`]) and its bound ([`Bounded`]).

use crate::value::ObjectiveValue;

/// A search tree: a root node and a lazy generator of each node's children.
///
/// Children are produced one at a time, in the order the search should try them
/// (best first for a heuristic), so a search that prunes stops generating early. The
/// generator may borrow the node it expands (and the space): the search keeps the
/// node in place until the generator is done, so the generator need not copy it.
///
/// Counting the nodes of a complete binary tree of depth 3:
///
/// ```
/// use magpie_search::{enumerate, NodesPerDepth, SearchConfig, SearchSpace};
///
/// struct BinaryTree { depth: u32 }
///
/// impl SearchSpace for BinaryTree {
///     type Node = u32; // the node's depth
///     type Children<'a> = std::iter::Take<std::iter::Repeat<u32>>;
///     fn root(&self) -> u32 { 0 }
///     fn children<'a>(&'a self, node: &'a u32) -> Self::Children<'a> {
///         let count = if *node < self.depth { 2 } else { 0 };
///         std::iter::repeat(node + 1).take(count)
///     }
/// }
///
/// let outcome = enumerate(&BinaryTree { depth: 3 }, &NodesPerDepth, &SearchConfig::sequential());
/// assert_eq!(outcome.answer.counts(), &[1, 2, 4, 8]);
/// assert_eq!(outcome.answer.total(), 15);
/// ```
pub trait SearchSpace: Sync {
    /// A node of the tree: everything needed to generate its children. Nodes own
    /// their data (`'static`) so that a subtree can be handed to another thread or,
    /// through a [`RemoteSink`](crate::RemoteSink), another process.
    type Node: Send + 'static;
    /// The lazy generator of one node's children; it may borrow the space and the
    /// node.
    type Children<'a>: Iterator<Item = Self::Node>
    where
        Self: 'a;

    /// The root node.
    fn root(&self) -> Self::Node;

    /// The children of `node`, in the order the search should try them.
    fn children<'a>(&'a self, node: &'a Self::Node) -> Self::Children<'a>;
}

/// A search space whose nodes have an objective value to maximise.
pub trait Objective: SearchSpace {
    /// The objective's type; larger is better.
    type Value: ObjectiveValue;

    /// The objective value of `node`.
    fn objective(&self, node: &Self::Node) -> Self::Value;
}

/// An objective with an upper bound: no node in the subtree of `node` (itself
/// included) has an objective above `upper_bound(node)`.
///
/// For sibling pruning ([`SearchConfig::prune_siblings`](crate::SearchConfig)) the
/// bounds of a node's children must also be non-increasing in generation order.
pub trait Bounded: Objective {
    /// An upper bound on the objective of every node in `node`'s subtree.
    fn upper_bound(&self, node: &Self::Node) -> Self::Value;

    /// The children of `node` that may lead to an objective above `threshold`, in
    /// generation order. Branch and bound asks for them with the incumbent's value,
    /// and prunes any child whose bound is not above it anyway.
    ///
    /// The default is all of [`children`](SearchSpace::children). A space whose
    /// children's bounds are non-increasing can stop at the first child whose bound is
    /// at most `threshold` without building it, which saves the one node per
    /// expansion that sibling pruning would build only to discard (such cut-offs are
    /// not counted in [`SearchStats::prunes`](crate::SearchStats)).
    fn children_above<'a>(
        &'a self,
        node: &'a Self::Node,
        threshold: Self::Value,
    ) -> Self::Children<'a> {
        let _ = threshold;
        self.children(node)
    }
}
