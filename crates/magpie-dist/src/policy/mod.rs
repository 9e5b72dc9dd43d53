//! Which rank an idle rank asks for work: the [`NodeVictimPolicy`] trait and three
//! policies, choosable by name ([`by_name`], [`NAMES`]):
//!
//! * [`RandomVictim`] (`random`): a uniformly random other rank for every request;
//! * [`DepthPoolVictim`] (`depthpool`): YewPar's default as it runs with its depth
//!   pools — random until a steal succeeds, then the same victim until it refuses;
//! * [`PerformanceDriven`] (`performance`): the performance-driven policy of the YewPar
//!   thesis (ch. 3) between ranks — every rank measures its own load, a refresher asks
//!   the others for theirs (timing the round trip as the delay), scores them (eq. 3.3)
//!   and caches the best target.
//!
//! Policies run in the rank's communication loop: no locks, no threads of their own.

mod depthpool;
mod performance;
mod random;

use std::fmt;
use std::time::{Duration, Instant};

use serde::{Deserialize, Serialize};

pub use depthpool::DepthPoolVictim;
pub use performance::PerformanceDriven;
pub use random::RandomVictim;

/// What a rank tells the others about itself when asked (the thesis's per-node data).
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct RankLoad {
    /// Its workers' smoothed work rate (eq. 3.1, averaged over the workers).
    pub work_rate: f64,
    /// Subtrees it could give away now (its depth pool, plus one while it searches).
    pub stealable: u64,
}

/// Chooses the rank an idle rank sends its next steal request to.
pub trait NodeVictimPolicy: Send {
    /// The policy's name (one of [`NAMES`] for the built-in ones).
    fn name(&self) -> &str;

    /// The rank to ask next; `me` is the asking rank, `ranks >= 2` the world size.
    /// Must not return `me`.
    fn choose(&mut self, me: usize, ranks: usize) -> usize;

    /// The reply from `victim` arrived after `latency`; `got_work` tells whether it
    /// carried work. The default ignores it.
    fn observe(&mut self, victim: usize, got_work: bool, latency: Duration) {
        let _ = (victim, got_work, latency);
    }

    /// Whether rank `me` of `ranks` should ask every other rank for its [`RankLoad`]
    /// now: the policy's refresher. The default never does.
    fn probe_due(&mut self, me: usize, ranks: usize, now: Instant) -> bool {
        let _ = (me, ranks, now);
        false
    }

    /// Rank `peer` reported `load`, `delay` after this rank asked.
    fn observe_load(&mut self, peer: usize, load: RankLoad, delay: Duration) {
        let _ = (peer, load, delay);
    }

    /// A new search starts on this rank: replies to a probe of an earlier search will
    /// not come (they belong to that search). What was learnt of the other ranks may
    /// stay. The default does nothing.
    fn begin_search(&mut self) {}
}

/// The built-in policies' names, for command lines.
pub const NAMES: [&str; 3] = ["random", "depthpool", "performance"];

/// A node policy name that is not one of [`NAMES`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UnknownNodePolicy(pub String);

impl fmt::Display for UnknownNodePolicy {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "unknown node policy {:?} (expected one of {})",
            self.0,
            NAMES.join(", ")
        )
    }
}

impl std::error::Error for UnknownNodePolicy {}

/// The built-in policy called `name`, for rank `rank` of a rank with `workers`
/// workers (the performance-driven policy weighs delays by it, eq. 3.2).
pub fn by_name(
    name: &str,
    rank: usize,
    workers: usize,
) -> Result<Box<dyn NodeVictimPolicy>, UnknownNodePolicy> {
    let seed = 0x9e37_79b9_7f4a_7c15 ^ rank as u64;
    Ok(match name {
        "random" => Box::new(RandomVictim::new(seed)),
        "depthpool" => Box::new(DepthPoolVictim::new(seed)),
        "performance" => Box::new(PerformanceDriven::new(seed, workers)),
        other => return Err(UnknownNodePolicy(other.to_string())),
    })
}

#[cfg(test)]
mod tests {
    use super::{by_name, NAMES};

    #[test]
    fn every_name_builds_its_policy_and_others_are_errors() {
        for name in NAMES {
            assert_eq!(by_name(name, 1, 2).unwrap().name(), name);
        }
        let error = by_name("fastest", 0, 1).err().unwrap();
        assert!(error.to_string().contains("random, depthpool, performance"));
    }
}
