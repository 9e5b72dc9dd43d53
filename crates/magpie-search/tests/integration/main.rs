//! The search crate's integration tests, one module per subject, in one test binary
//! (one link instead of fourteen). Run one subject with a filter, e.g.
//! `cargo test --release -p magpie-search --test integration tsp::`.

mod common;

mod clique_instances;
mod deep_knapsack;
mod deep_trees;
mod deep_uts;
mod dimacs_parser;
mod framework;
mod knapsack;
mod panics;
mod parser_props;
mod policies;
mod random_graphs;
mod semigroups;
mod tsp;
mod uts;
