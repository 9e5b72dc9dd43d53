//! UTS, the Unbalanced Tree Search benchmark (version 2.1): implicit random trees
//! whose shape is only known by generating them, the standard stress test for
//! dynamic load balancing.
//!
//! Each node carries a SHA-1 state; a child's state is the hash of its parent's and
//! its index, and a node's number of children is drawn from its state (binomial,
//! geometric with four depth profiles, hybrid or balanced, see [`UtsParams`]). The
//! tree is thus the same whoever generates which part. [`uts_count`] reports the
//! node count, leaf count and depth, which are known for the sample trees
//! ([`PRESETS`]); [`reference`](mod@reference) is the same traversal written by hand.
//!
//! ```
//! use magpie_search::apps::uts::{uts_count, TreeSummary, UtsParams};
//! use magpie_search::SearchConfig;
//!
//! let params: UtsParams = "default".parse().unwrap();
//! let outcome = uts_count(&params, &SearchConfig::sequential());
//! assert_eq!(
//!     outcome.answer,
//!     TreeSummary { nodes: 1732, leaves: 1050, max_depth: 6 }
//! );
//! assert_eq!(params, "t=1,a=0,d=6,b=4,r=0".parse().unwrap());
//! ```

mod branching;
mod error;
mod node;
mod params;
mod parse;
mod presets;
pub mod reference;
mod rng;
mod space;
mod summary;

pub use branching::MAX_CHILDREN;
pub use error::UtsParamsError;
pub use node::UtsNode;
pub use params::{GeoShape, TreeType, UtsParams};
pub use presets::PRESETS;
pub use space::{Uts, UtsChildren};
pub use summary::{SummariseTree, TreeSummary};

use crate::{enumerate, Outcome, SearchConfig};

/// The node count, leaf count and depth of the tree of `params`, enumerated as
/// `config` says.
pub fn uts_count(params: &UtsParams, config: &SearchConfig<'_>) -> Outcome<TreeSummary> {
    enumerate(&Uts::new(*params), &SummariseTree, config)
}

#[cfg(all(test, feature = "serde"))]
mod serde_tests {
    use crate::serializable;

    #[test]
    fn nodes_parameters_and_summaries_are_serializable() {
        serializable::<super::UtsNode>();
        serializable::<super::UtsParams>();
        serializable::<super::TreeSummary>();
    }
}
