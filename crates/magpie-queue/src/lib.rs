//! magpie-queue: the queues under the magpie work-stealing runtime.
//!
//! Handles follow crossbeam-deque: a [`lifo::Worker`] / [`fifo::Worker`] for the owner
//! (`Send`, not `Sync`) and any number of `Stealer`s (`Clone + Send + Sync`); steals
//! return [`Steal`]. Any `T` may be queued; items left in the queue are dropped exactly
//! once when the last handle goes. The design, its departures from the paper and the
//! memory-ordering evidence follow.
//!
#![doc = include_str!("../README.md")]
#![warn(missing_docs)]

mod block;
mod config;
mod dest;
pub mod fifo;
pub mod lifo;
pub mod ordering;
mod pad;
mod prefetch;
mod shared;
mod steal;
mod stealer;
mod sync;
pub mod twolock;

pub use config::{Config, ConfigError};
pub use dest::BatchDestination;
pub use shared::Flavour;
pub use steal::Steal;
pub use stealer::Stealer;

#[cfg(all(test, not(loom)))]
mod tests;
