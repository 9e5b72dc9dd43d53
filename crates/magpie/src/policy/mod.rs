//! Victim selection: which worker an idle worker tries to steal from.
//!
//! A [`VictimPolicy`] is shared by the pool; it makes one [`Thief`] per worker, which
//! keeps that worker's private selection state (last victim, smoothed estimates) without
//! synchronisation. Each steal attempt asks the thief for a victim
//! ([`Thief::choose`]) and then reports how the attempt went ([`Thief::record`]).
//!
//! What a policy may look at is the [`Victims`] view: the number of workers, the BWoS
//! occupancy sample of a victim's queue (§3.4 of the BWoS paper: a random block's
//! metadata, a few Relaxed loads on the thieves' cache lines, never the owner's hot
//! line), the victim's stealable length (reads every block's thief metadata, the cost
//! best-of-two pays), the victim's published task counter, and the topology. The same
//! view is implemented by the benchmark harness over other queues, so one policy runs
//! on magpie, crossbeam-deque and st3 alike.
//!
//! ```
//! use magpie::policy::{StealOutcome, Thief, VictimPolicy, Victims};
//! use magpie::Rng;
//!
//! /// Always tries the right-hand neighbour.
//! #[derive(Debug)]
//! struct Neighbour;
//!
//! struct NeighbourThief;
//!
//! impl Thief for NeighbourThief {
//!     fn choose(&mut self, victims: &dyn Victims, _rng: &mut Rng) -> Option<usize> {
//!         Some((victims.me() + 1) % victims.workers())
//!     }
//! }
//!
//! impl VictimPolicy for Neighbour {
//!     fn name(&self) -> &str {
//!         "neighbour"
//!     }
//!     fn thief(&self, _me: usize, _workers: usize) -> Box<dyn Thief> {
//!         Box::new(NeighbourThief)
//!     }
//! }
//!
//! let pool = magpie::ThreadPoolBuilder::new()
//!     .num_threads(2)
//!     .victim_policy(Neighbour)
//!     .build()
//!     .unwrap();
//! assert_eq!(pool.install(|| magpie::join(|| 1, || 2)), (1, 2));
//! ```

use core::fmt;
use std::time::Duration;

use crate::rng::Rng;

mod best_of;
pub mod estimate;
mod last;
mod monitor;
mod numa;
mod others;
mod performance;
mod probabilistic;
mod random;
mod seq;
#[cfg(test)]
mod tests;
mod topology;
mod unknown;

pub use best_of::{BestOfMany, BestOfTwo};
pub use last::Last;
pub use numa::NumaAware;
pub use performance::PerformanceDriven;
pub use probabilistic::{NumaProbabilistic, Probabilistic};
pub use random::Random;
pub use seq::Seq;
pub use topology::Topology;
pub use unknown::UnknownPolicy;

/// What a policy may inspect about the workers it chooses among.
pub trait Victims {
    /// Number of workers, the caller included.
    fn workers(&self) -> usize;

    /// The index of the worker that is choosing.
    fn me(&self) -> usize;

    /// BWoS probabilistic sample (§3.4): `true` with a probability that grows with the
    /// occupancy of `victim`'s queue. Cheap: reads one random block's thief metadata.
    fn sample(&self, victim: usize, rng: &mut Rng) -> bool;

    /// Approximate number of items thieves could take from `victim` now. Costlier than
    /// [`sample`](Self::sample): it reads every block's metadata of the victim's queue.
    fn stealable_len(&self, victim: usize) -> usize;

    /// Tasks `victim` has run so far (its statistics counter, read Relaxed).
    fn tasks_run(&self, victim: usize) -> u64;

    /// Where the workers run: shared caches and NUMA nodes.
    fn topology(&self) -> &Topology;
}

/// How one steal attempt on a victim went.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum StealOutcome {
    /// `items` items were taken (the first is run, the rest go to the thief's queue).
    Success {
        /// Items taken.
        items: usize,
    },
    /// The victim had nothing stealable.
    Empty,
    /// Lost a race with another thief or the owner; the victim may still have work.
    Retry,
}

/// A victim-selection policy shared by all workers of a pool.
pub trait VictimPolicy: Send + Sync + fmt::Debug + 'static {
    /// Short name used in statistics, benchmark output and the command line.
    fn name(&self) -> &str;

    /// The selection state of worker `me` of `workers` (at least 2; a one-worker pool
    /// never steals).
    fn thief(&self, me: usize, workers: usize) -> Box<dyn Thief>;

    /// Whether [`Thief::record`] wants the measured latency of each attempt (timing an
    /// attempt costs two clock reads, so it is only done when asked).
    fn wants_latency(&self) -> bool {
        false
    }
}

/// One worker's victim-selection state.
///
/// A panic in [`choose`](Thief::choose) or [`record`](Thief::record) goes to the pool's
/// panic handler (as a spawned task's) and ends that search; the worker goes on. A
/// victim index past the pool's workers, or the thief's own, is skipped.
pub trait Thief: Send {
    /// The next victim to try (never `victims.me()`), or `None` to skip this attempt
    /// (e.g. every sampled victim looked empty).
    fn choose(&mut self, victims: &dyn Victims, rng: &mut Rng) -> Option<usize>;

    /// The result of the attempt on `victim`; `latency` is measured only when the policy
    /// [wants it](VictimPolicy::wants_latency), and is zero otherwise.
    fn record(&mut self, victim: usize, outcome: StealOutcome, latency: Duration) {
        let _ = (victim, outcome, latency);
    }
}

/// The names [`by_name`] accepts, one per policy, each equal to its policy's
/// [`name`](VictimPolicy::name).
pub const NAMES: &[&str] = &[
    "random",
    "seq",
    "last",
    "best-of-two",
    "best-of-many",
    "numa",
    "probabilistic",
    "numa-probabilistic",
    "performance",
];

/// The policy called `name` (one of [`NAMES`]), with its default settings.
///
/// ```
/// let policy = magpie::policy::by_name("best-of-two").unwrap();
/// assert_eq!(policy.name(), "best-of-two");
/// assert!(magpie::policy::by_name("worst-of-three").is_err());
/// ```
pub fn by_name(name: &str) -> Result<Box<dyn VictimPolicy>, UnknownPolicy> {
    Ok(match name {
        "random" => Box::new(Random),
        "seq" => Box::new(Seq),
        "last" => Box::new(Last),
        "best-of-two" => Box::new(BestOfTwo),
        "best-of-many" => Box::new(BestOfMany),
        "numa" => Box::new(NumaAware::default()),
        "probabilistic" => Box::new(Probabilistic::default()),
        "numa-probabilistic" => Box::new(NumaProbabilistic::default()),
        "performance" => Box::new(PerformanceDriven::default()),
        _ => return Err(UnknownPolicy::new(name)),
    })
}
