//! magpie-queue: the queues under the magpie work-stealing runtime.
//!
//! * [`lifo`] and [`fifo`]: block-based work-stealing queues (BWoS, OSDI'23) on one shared
//!   block core. The owner's push/pop touch no shared cache line inside a block; thieves
//!   synchronise with the owner only when a block changes hands.
//! * [`twolock`]: the optimized two-lock MPMC queue used as the pool's injector.
//!
//! Handles follow crossbeam-deque: a [`lifo::Worker`] / [`fifo::Worker`] for the owner
//! (`Send`, not `Sync`) and any number of `Stealer`s (`Clone + Send + Sync`); steals
//! return [`Steal`]. Any `T` may be queued; items left in the queue are dropped exactly
//! once when the last handle goes.
#![warn(missing_docs)]

mod block;
mod config;
mod dest;
pub mod fifo;
pub mod lifo;
pub mod ordering;
mod pad;
mod shared;
mod steal;
mod sync;
pub mod twolock;

pub use config::{Config, ConfigError};
pub use dest::BatchDestination;
pub use steal::Steal;

#[cfg(all(test, not(loom)))]
mod tests;
