//! magpie-search: YewPar-style parallel exact search on the magpie work-stealing pool.
//!
//! A user describes a search tree with [`SearchSpace`]: a root node and a *lazy*
//! generator of children, produced one at a time in heuristic order so that pruning
//! can stop early. A *skeleton* is a search type combined with a coordination:
//!
//! * search types: [`enumerate`] (fold every node into a [`Monoid`]; by default
//!   [`NodesPerDepth`]), [`decide`] (stop every worker as soon as one node reaches a
//!   target objective) and [`optimise`] (branch and bound with a shared incumbent);
//! * coordinations ([`Coordination`]): `Sequential`; `DepthBounded { spawn_depth }`
//!   where nodes up to that depth become tasks of a [`magpie::scope`];
//!   `StackStealing { steal_all }` where a busy task splits off its shallowest
//!   unexplored child whenever a pool worker is idle; and `Budget { backtracks }`
//!   where a task splits off its shallowest level after that many backtracks.
//!
//! Every run returns an [`Outcome`]: the answer plus [`SearchStats`] (nodes expanded,
//! prunes, elapsed time and, when run in a pool, the pool's statistics).
//!
//! The shared state of a parallel search sits behind small traits ([`Incumbent`],
//! [`StopSignal`], and [`RemoteSink`] for work handed to another process) so that a
//! distributed layer can replace or extend the in-process versions.
//!
//! With the `serde` feature, the applications' nodes, instances and answers are
//! serializable.
//!
//! Applications live in [`apps`]: maximum clique, numerical semigroups, UTS, 0/1
//! knapsack and the travelling salesman.
#![warn(missing_docs)]

pub mod apps;
mod config;
mod decision;
mod engine;
mod enumeration;
mod optimisation;
mod progress;
mod shared;
mod space;
mod stats;
mod value;

pub use config::{Coordination, SearchConfig};
pub use decision::{decide, decide_subtrees, decide_with};
pub use enumeration::{
    enumerate, enumerate_subtrees, DepthCounts, Enumerator, Monoid, NodesPerDepth,
};
pub use optimisation::{optimise, optimise_subtrees, optimise_with, Best};
pub use progress::Progress;
pub use shared::{Incumbent, RemoteSink, SharedIncumbent, StopFlag, StopSignal};
pub use space::{Bounded, Objective, SearchSpace};
pub use stats::{Outcome, SearchStats};
pub use value::ObjectiveValue;

/// Compiles only if `T` can be sent to and rebuilt by another process (the apps'
/// serde tests).
#[cfg(all(test, feature = "serde"))]
fn serializable<T: serde::Serialize + serde::de::DeserializeOwned>() {}
