//! Applications written on the framework.

pub mod clique;
pub mod knapsack;
pub mod semigroups;
pub mod tsp;
pub mod uts;
