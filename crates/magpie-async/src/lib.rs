//! magpie-async: an async runtime whose workers run tasks from block-based work-stealing
//! (BWoS) queues — the experiment of the BWoS paper's §6.3.2, which put FIFO BWoS into
//! tokio's scheduler and measured hyper.
//!
//! - Tasks and wakers are [`async_task`]'s. Sockets ([`net`]) are registered once,
//!   edge-triggered, with the runtime's own mio driver, which the workers poll
//!   themselves (a worker about to park blocks in epoll; tokio's design). Timers
//!   ([`sleep`], [`timeout`]) are [`async_io`]'s `Timer`; blocking code goes to the
//!   `blocking` crate's thread pool ([`spawn_blocking`]).
//! - Each worker owns a FIFO BWoS run queue (magpie-queue); spawns and wakes from a
//!   worker go there. Spawns and wakes from elsewhere go to the two-lock injector.
//! - Idle workers steal a whole block at once from a victim chosen by one of magpie's
//!   victim policies, then park; the park protocol and its no-lost-wake-up argument are
//!   in the `park` module's source (and checked by a loom model).
//!
//! ```
//! use magpie_async::{Builder, JoinError};
//!
//! let rt = Builder::new().worker_threads(2).build().unwrap();
//! let sum = rt.block_on(async {
//!     let handles: Vec<_> = (0..10u64).map(|i| magpie_async::spawn(async move { i * i })).collect();
//!     let mut sum = 0;
//!     for h in handles {
//!         sum += h.await.unwrap();
//!     }
//!     sum
//! });
//! assert_eq!(sum, 285);
//! let err: JoinError = rt.block_on(rt.spawn(async { panic!("boom") })).unwrap_err();
//! assert!(err.is_panic());
//! ```
#![warn(missing_docs)]

mod blocking;
mod builder;
mod context;
mod driver;
mod handle;
#[cfg(feature = "hyper")]
pub mod hyper_rt;
mod injector;
mod join;
pub mod net;
mod park;
mod parker;
mod registry;
mod run_queue;
mod runtime;
mod scheduler;
mod sync;
#[cfg(all(test, not(magpie_async_loom)))]
mod tests;
mod time;
mod worker;
mod yield_now;

pub use blocking::spawn_blocking;
pub use builder::{Builder, DEFAULT_QUEUE};
pub use handle::{spawn, Handle};
pub use join::{JoinError, JoinHandle};
pub use runtime::Runtime;
pub use time::{sleep, timeout, Elapsed, Timeout};
pub use yield_now::{yield_now, YieldNow};

/// async-io's timer, re-exported so users need no extra dependency. It is driven by
/// async-io's own thread (or a `block_on` caller), not by the workers; sockets are in
/// [`net`].
pub use async_io::Timer;
