//! 0/1 knapsack: readers for the published formats (`.kp`, large-scale and
//! low-dimensional, Pisinger's `knapPI` files; see [`parse_knapsack`]), exact
//! fixed-point numbers ([`Decimal`]) so that fractional profits need no float
//! comparisons, and a branch and bound with the Dantzig (fractional) bound.
//!
//! ```
//! use magpie_search::apps::knapsack::{knapsack, parse_knapsack, Decimal};
//! use magpie_search::SearchConfig;
//!
//! // Capacity 10; items (profit weight): 6 4, 7 6, 5 5.
//! let instance = parse_knapsack("3 10\n6 4\n7 6\n5 5\n").unwrap();
//! let outcome = knapsack(&instance, &SearchConfig::sequential());
//! assert_eq!(outcome.answer.items, vec![0, 1]);
//! assert_eq!(outcome.answer.profit, Decimal::integer(13));
//! assert_eq!(outcome.answer.weight, Decimal::integer(10));
//! ```

mod decimal;
mod error;
#[cfg(test)]
mod format_tests;
mod instance;
mod parser;
mod pisinger;
mod search;

pub use decimal::{Decimal, DecimalError, MAX_DECIMALS};
pub use error::KnapsackError;
pub use instance::KnapsackInstance;
pub use parser::{
    detect_format, parse_as, parse_knapsack, parse_knapsack_instances, parse_kp,
    parse_low_dimensional, read_knapsack, read_knapsack_instances, read_knapsack_instances_as,
    KnapsackFormat,
};
pub use pisinger::parse_pisinger;
pub use search::{KnapsackChildren, KnapsackNode, KnapsackSpace, Solution};

use crate::{optimise_with, Objective, Outcome, SearchConfig, SharedIncumbent};

/// A most profitable packing of `instance`, by branch and bound from the greedy
/// packing.
///
/// Sibling pruning stays off: it is not sound for this tree. The take child can have
/// a smaller bound than the skip child, because taking an item can make later items
/// too heavy, and those are left out of the take child's relaxation (e.g. capacity
/// 10, items `10 6`, `8 5`, `8 5`: take bound 10, skip bound 16). With only two
/// children per node it would save little anyway.
pub fn knapsack(instance: &KnapsackInstance, config: &SearchConfig<'_>) -> Outcome<Solution> {
    let space = KnapsackSpace::new(instance);
    let greedy = space.greedy();
    let incumbent = SharedIncumbent::new(greedy.clone(), space.objective(&greedy));
    let stats = optimise_with(&space, &config.with_sibling_pruning(false), &incumbent);
    let (best, _) = incumbent.into_best();
    Outcome {
        answer: space.solution_of(&best),
        stats,
    }
}

#[cfg(all(test, feature = "serde"))]
mod serde_tests {
    use crate::serializable;

    #[test]
    fn nodes_instances_and_answers_are_serializable() {
        serializable::<super::KnapsackNode>();
        serializable::<super::KnapsackInstance>();
        serializable::<super::Solution>();
        serializable::<super::Decimal>();
        serializable::<crate::Best<super::KnapsackNode, u64>>();
    }
}
