//! [`UtsNode`]: a node's random state, height and number of children, the latter
//! drawn once when the node is made.

use super::params::UtsParams;
use super::rng::{child_state, root_state, RngState};

/// A node of a UTS tree: 28 bytes, everything needed to generate its subtree.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct UtsNode {
    /// The SHA-1 random state.
    state: RngState,
    /// The depth (the root is at height 0).
    height: u32,
    /// The number of children, drawn from the state.
    child_count: u32,
}

impl UtsNode {
    /// The root of the tree of `params`.
    pub fn root(params: &UtsParams) -> Self {
        Self::with_state(params, root_state(params.root_seed), 0)
    }

    /// Child number `index` (below [`child_count`](Self::child_count)) of `self`.
    pub fn child(&self, params: &UtsParams, index: u32) -> Self {
        Self::with_state(params, child_state(&self.state, index), self.height + 1)
    }

    // Inlined so that the node is built where the caller keeps it: built in a
    // separate frame and copied out field by field, the skeleton's 16-byte copy of the
    // fresh child straddled those stores and stalled on store forwarding, costing the
    // sequential skeleton ~5 % against the hand-written traversal (`bench search`).
    #[inline(always)]
    fn with_state(params: &UtsParams, state: RngState, height: u32) -> Self {
        Self {
            child_count: params.child_count(&state, height),
            state,
            height,
        }
    }

    /// The depth of the node, 0 for the root.
    pub fn height(&self) -> u32 {
        self.height
    }

    /// The number of children.
    pub fn child_count(&self) -> u32 {
        self.child_count
    }

    /// Whether the node has no children.
    pub fn is_leaf(&self) -> bool {
        self.child_count == 0
    }

    /// The node's 20-byte SHA-1 state.
    pub fn state(&self) -> &[u8; 20] {
        &self.state
    }
}
