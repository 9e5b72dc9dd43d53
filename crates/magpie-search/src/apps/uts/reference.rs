//! A hand-written depth-first traversal, without the framework: the baseline that
//! measures the skeleton's overhead, and an oracle for the tests.
//!
//! It visits the same nodes in the same order as [`Uts`](super::Uts), hashing each
//! child when it is reached. It keeps its own stack of (node, next child) instead of
//! recursing, so binomial trees thousands of levels deep cannot overflow the thread's
//! stack.

use super::node::UtsNode;
use super::params::UtsParams;
use super::summary::TreeSummary;

/// The summary of the tree of `params`.
///
/// ```
/// use magpie_search::apps::uts::{reference, UtsParams};
///
/// let summary = reference::summarise(&UtsParams::default());
/// assert_eq!((summary.nodes, summary.leaves, summary.max_depth), (1732, 1050, 6));
/// ```
pub fn summarise(params: &UtsParams) -> TreeSummary {
    let root = UtsNode::root(params);
    let mut summary = TreeSummary::default();
    summary.record(&root);
    // Each entry is an inner node and the index of its next child to visit.
    let mut path = vec![(root, 0)];
    while let Some((parent, next)) = path.last_mut() {
        if *next == parent.child_count() {
            path.pop();
            continue;
        }
        let child = parent.child(params, *next);
        *next += 1;
        summary.record(&child);
        if !child.is_leaf() {
            path.push((child, 0));
        }
    }
    summary
}
