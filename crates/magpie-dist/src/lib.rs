//! magpie-dist: the searches of [`magpie_search`] across many processes ("ranks",
//! YewPar's localities), over MPI.
//!
//! Every rank runs the single-process engine on its own magpie pool. Subtrees travel
//! between ranks as postcard-encoded nodes: an idle rank asks another (chosen by a
//! [`NodeVictimPolicy`]) for work and gets the victim's shallowest unexplored
//! subtrees, or a refusal. Branch-and-bound values are broadcast as soon as they
//! improve, a decision search stops every rank when one finds a witness, and Safra's
//! token algorithm ([`termination`]) detects the end with messages in flight. Rank 0
//! gathers the answer and each rank's [`RankStats`].
//!
//! ```
//! use magpie_dist::{local_world, Cluster};
//! use magpie_search::apps::semigroups::Semigroups;
//! use magpie_search::{NodesPerDepth, SearchConfig};
//!
//! // Three ranks in one process (the in-process transport); MPI runs look the same.
//! let answers: Vec<_> = std::thread::scope(|s| {
//!     let ranks: Vec<_> = local_world(3)
//!         .into_iter()
//!         .map(|transport| {
//!             s.spawn(move || {
//!                 let space = Semigroups::new(12).unwrap();
//!                 let config = SearchConfig::budget(100);
//!                 Cluster::new(transport).enumerate(&space, &NodesPerDepth, &config).unwrap()
//!             })
//!         })
//!         .collect();
//!     ranks.into_iter().map(|r| r.join().unwrap()).collect()
//! });
//! let on_rank_0 = answers[0].as_ref().unwrap();
//! assert_eq!(on_rank_0.answer.counts()[12], 592); // OEIS A007323
//! assert!(answers[1].is_none() && answers[2].is_none());
//! ```
//!
//! The crate README explains the protocol and argues its termination.
#![warn(missing_docs)]

pub mod apps;
mod cluster;
mod driver;
mod error;
mod global;
mod link;
mod load;
pub mod policy;
pub mod slowdown;
mod stats;
pub mod termination;
mod transport;
pub mod wire;

pub use cluster::{Cluster, DistOutcome};
pub use error::DistError;
pub use global::{GlobalIncumbent, GlobalStop};
pub use policy::{
    by_name, DepthPoolVictim, NodeVictimPolicy, PerformanceDriven, RandomVictim, RankLoad,
    UnknownNodePolicy,
};
pub use stats::RankStats;
#[cfg(feature = "mpi")]
pub use transport::MpiTransport;
pub use transport::{local_world, LocalTransport, Transport};
