//! [`Uts`]: a UTS tree as a search space whose children are hashed one at a time.

use std::ops::Range;

use crate::space::SearchSpace;

use super::node::UtsNode;
use super::params::UtsParams;

/// The UTS tree of some [`UtsParams`].
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Uts {
    params: UtsParams,
}

impl Uts {
    /// The tree of `params` (which need not be [validated](UtsParams::validate): any
    /// values give a well-defined tree).
    pub fn new(params: UtsParams) -> Self {
        Self { params }
    }

    /// The tree's parameters.
    pub fn params(&self) -> &UtsParams {
        &self.params
    }
}

/// The children of one node, in index order; each child's SHA-1 is computed when
/// the iterator yields it.
#[derive(Clone, Debug)]
pub struct UtsChildren<'a> {
    params: &'a UtsParams,
    parent: UtsNode,
    indices: Range<u32>,
}

impl Iterator for UtsChildren<'_> {
    type Item = UtsNode;

    fn next(&mut self) -> Option<UtsNode> {
        let index = self.indices.next()?;
        Some(self.parent.child(self.params, index))
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        self.indices.size_hint()
    }
}

impl ExactSizeIterator for UtsChildren<'_> {}

impl SearchSpace for Uts {
    type Node = UtsNode;
    type Children<'a> = UtsChildren<'a>;

    fn root(&self) -> UtsNode {
        UtsNode::root(&self.params)
    }

    fn children<'a>(&'a self, node: &'a UtsNode) -> UtsChildren<'a> {
        UtsChildren {
            params: &self.params,
            parent: *node,
            indices: 0..node.child_count(),
        }
    }
}
