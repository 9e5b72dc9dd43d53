//! The symmetric travelling salesman problem: a TSPLIB reader (coordinate and
//! explicit instances, with TSPLIB's integer distance conventions) and an exact
//! branch and bound over partial tours, seeded with a 2-opt tour.
//!
//! For small instances (the tests solve 14–17 cities): the bound is a minimum spanning
//! tree of the unvisited cities under Held–Karp penalties computed once at the root,
//! not re-optimised at every node.
//!
//! ```
//! use magpie_search::apps::tsp::{solve_tsp, TspInstance};
//! use magpie_search::SearchConfig;
//!
//! let instance = TspInstance::from_matrix(&[
//!     vec![0, 2, 9, 10],
//!     vec![2, 0, 6, 4],
//!     vec![9, 6, 0, 3],
//!     vec![10, 4, 3, 0],
//! ])
//! .unwrap();
//! let outcome = solve_tsp(&instance, &SearchConfig::sequential());
//! assert_eq!(outcome.answer.length, 18);
//! assert_eq!(outcome.answer.cities, vec![0, 1, 3, 2]);
//! assert_eq!(instance.tour_length(&outcome.answer.cities), Some(18));
//! ```

mod distance;
mod error;
mod instance;
mod penalties;
mod search;
mod tsplib;

pub use distance::CoordinateDistance;
pub use error::TsplibError;
pub use instance::{TspInstance, MAX_CITIES};
pub use search::{Tour, TourChildren, TourNode, TspSpace};
pub use tsplib::{parse_tsplib, read_tsplib};

use crate::{optimise_with, Objective, Outcome, SearchConfig, SharedIncumbent};

/// A shortest closed tour of `instance` (cities 0-based, starting with city 0).
///
/// The incumbent starts as a nearest-neighbour tour improved by 2-opt, so only
/// strictly shorter tours replace it. Sibling pruning is always off: children come
/// in nearest-neighbour order, which does not make their bounds non-increasing.
pub fn solve_tsp(instance: &TspInstance, config: &SearchConfig<'_>) -> Outcome<Tour> {
    let space = TspSpace::new(instance);
    let seed = space.node_of(&space.heuristic_tour().cities);
    let incumbent = SharedIncumbent::new(seed.clone(), space.objective(&seed));
    let stats = optimise_with(&space, &config.with_sibling_pruning(false), &incumbent);
    let (best, _) = incumbent.into_best();
    Outcome {
        // Only complete tours have an objective above the seed's.
        answer: space
            .tour_of(&best)
            .unwrap_or_else(|| space.heuristic_tour().clone()),
        stats,
    }
}

#[cfg(all(test, feature = "serde"))]
mod serde_tests {
    use crate::serializable;

    #[test]
    fn nodes_instances_and_answers_are_serializable() {
        serializable::<super::TourNode>();
        serializable::<super::TspInstance>();
        serializable::<super::Tour>();
        serializable::<super::CoordinateDistance>();
        serializable::<crate::Best<super::TourNode, i64>>();
    }
}
