//! Numerical semigroups counted by genus (OEIS A007323), walking the tree of
//! Fromentin & Hivert, "Exploring the tree of numerical semigroups" (2016).
//!
//! The root is ℕ; the children of a semigroup `S` are `S \ {g}` for each minimal
//! generator `g` above its Frobenius number, so each semigroup of genus `g` appears
//! exactly once, at depth `g`. The tree is highly irregular, a classic benchmark for
//! work stealing. Nodes are [`Semigroup`]s stored as their decomposition numbers, and
//! [`reference`](mod@reference) is the same walk written by hand, without the framework.
//!
//! ```
//! use magpie_search::apps::semigroups::count_by_genus;
//! use magpie_search::SearchConfig;
//!
//! let outcome = count_by_genus(7, &SearchConfig::sequential()).unwrap();
//! assert_eq!(outcome.answer, vec![1, 1, 2, 4, 7, 12, 23, 39]);
//! assert_eq!(outcome.stats.nodes_expanded, 89);
//! ```

mod error;
#[cfg(feature = "serde")]
mod gaps;
pub mod reference;
mod semigroup;
mod space;

pub use error::SemigroupError;
pub use semigroup::{Semigroup, MAX_GENUS};
pub use space::{SemigroupChildren, Semigroups};

use crate::{enumerate, NodesPerDepth, Outcome, SearchConfig};

/// The number of numerical semigroups of each genus `0..=max_genus` (the answer's
/// index is the genus), found by enumerating [`Semigroups`] as `config` says.
pub fn count_by_genus(
    max_genus: usize,
    config: &SearchConfig<'_>,
) -> Result<Outcome<Vec<u64>>, SemigroupError> {
    let space = Semigroups::new(max_genus)?;
    let outcome = enumerate(&space, &NodesPerDepth, config);
    let mut counts = outcome.answer.counts().to_vec();
    counts.resize(max_genus + 1, 0);
    Ok(Outcome {
        answer: counts,
        stats: outcome.stats,
    })
}

#[cfg(all(test, feature = "serde"))]
mod serde_tests {
    use crate::serializable;

    #[test]
    fn semigroups_are_serializable() {
        serializable::<super::Semigroup>();
    }
}
