//! Maximum clique: a DIMACS reader, a bitset graph, and the MCS-style search
//! (minimum-width vertex order, greedy-colouring bound) as an optimisation and a decision;
//! [`reference`](mod@reference) is the same search written by hand. The optimisation
//! runs a local search in slices beside branch and bound ([`local_search_clique`],
//! [`MaxClique::with_local_search`]): its cliques prune like the incumbent.
//!
//! ```
//! use magpie_search::apps::clique::{maximum_clique, parse_dimacs};
//! use magpie_search::SearchConfig;
//!
//! // A triangle 1-2-3 plus a pendant vertex 4.
//! let graph = parse_dimacs("p edge 4 4\ne 1 2\ne 2 3\ne 1 3\ne 3 4\n").unwrap();
//! let outcome = maximum_clique(&graph, &SearchConfig::sequential());
//! assert_eq!(outcome.answer, vec![0, 1, 2]);
//! ```

mod absorb;
mod bitset;
mod colouring;
mod dimacs;
mod graph;
mod local_search;
pub mod reference;
mod search;

pub use bitset::Bitset;
pub use dimacs::{parse_dimacs, read_dimacs, DimacsError, MAX_VERTICES};
pub use graph::Graph;
pub use local_search::local_search_clique;
pub use search::{CliqueBound, CliqueChildren, CliqueNode, MaxClique, SLICE_NODES, SLICE_STEPS};

use crate::{decide, optimise, Outcome, SearchConfig};

/// A maximum clique of `graph` (sorted vertex numbers, 0-based). Sibling pruning is
/// always on: the colour bounds of a node's children are non-increasing. A local search
/// runs in slices beside the search ([`MaxClique::with_local_search`]); the answer is
/// the larger of its best clique and the search's.
pub fn maximum_clique(graph: &Graph, config: &SearchConfig<'_>) -> Outcome<Vec<usize>> {
    maximum_clique_with(graph, CliqueBound::Colour, config)
}

/// [`maximum_clique`] pruning with `bound`.
pub fn maximum_clique_with(
    graph: &Graph,
    bound: CliqueBound,
    config: &SearchConfig<'_>,
) -> Outcome<Vec<usize>> {
    let space = MaxClique::with_bound(graph, bound).with_local_search();
    let outcome = optimise(&space, &config.with_sibling_pruning(true));
    Outcome {
        answer: space.best_clique(&outcome.answer.node),
        stats: outcome.stats,
    }
}

/// A clique of exactly `size` vertices in `graph` (sorted, 0-based), if one exists.
pub fn clique_of_size(
    graph: &Graph,
    size: usize,
    config: &SearchConfig<'_>,
) -> Outcome<Option<Vec<usize>>> {
    clique_of_size_with(graph, size, CliqueBound::Colour, config)
}

/// [`clique_of_size`] pruning with `bound`.
pub fn clique_of_size_with(
    graph: &Graph,
    size: usize,
    bound: CliqueBound,
    config: &SearchConfig<'_>,
) -> Outcome<Option<Vec<usize>>> {
    let space = MaxClique::with_bound(graph, bound);
    let outcome = decide(&space, size, &config.with_sibling_pruning(true));
    Outcome {
        answer: outcome.answer.map(|node| space.clique_of(&node)),
        stats: outcome.stats,
    }
}

/// The tests' random numbers: xorshift64 from a fixed seed, so every run draws the
/// same graphs.
#[cfg(test)]
fn test_rng() -> impl FnMut() -> u64 {
    let mut x = 0x9e37_79b9_7f4a_7c15u64;
    move || {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        x
    }
}

#[cfg(all(test, feature = "serde"))]
mod serde_tests {
    use crate::serializable;

    #[test]
    fn nodes_graphs_and_answers_are_serializable() {
        serializable::<super::CliqueNode>();
        serializable::<super::Graph>();
        serializable::<crate::Best<super::CliqueNode, usize>>();
        serializable::<crate::DepthCounts>();
        serializable::<crate::Coordination>();
    }
}
