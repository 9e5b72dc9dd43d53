//! BWoS probabilistic stealing (§3.4): select a candidate, accept it with the occupancy
//! sample.

use super::numa::TierWalk;
use super::{StealOutcome, Thief, VictimPolicy, Victims};
use crate::rng::Rng;

/// Probabilistic stealing (§3.4 of the BWoS paper): P_select picks a victim uniformly at
/// random, P_accept keeps it if [`Victims::sample`] says so (probability ≈ occupancy
/// S/C), otherwise P_select runs again. A thief therefore steals from a queue with a
/// probability proportional to its size, without ever computing a size.
///
/// Each [`choose`](Thief::choose) tries at most a bounded number of candidates (by
/// default `workers − 1`, see [`with_attempts`](Self::with_attempts)), drawn
/// independently as in the paper, and returns `None` if none is accepted, so that a pool
/// where everything looks empty gets back to its idle logic.
///
/// Cost: one `sample` per candidate, i.e. the thief metadata of one random block of the
/// candidate's queue, a few Relaxed loads on a line the owner rarely writes.
#[derive(Clone, Copy, Debug, Default)]
pub struct Probabilistic {
    attempts: Option<usize>,
}

impl Probabilistic {
    /// At most `attempts` (at least one) candidates per choice instead of `workers − 1`.
    pub fn with_attempts(attempts: usize) -> Self {
        Self {
            attempts: Some(attempts.max(1)),
        }
    }
}

/// Probabilistic stealing with the NUMA-aware selector as P_select ("numa+prob", the
/// best-performing BWoS configuration in §6.2.3): candidates come from the
/// [`NumaAware`](super::NumaAware) tier walk (same cache, then same node, then anyone) and
/// are accepted with [`Victims::sample`].
///
/// Each choice tries at most `workers − 1` candidates by default (see
/// [`with_attempts`](Self::with_attempts)); rejected candidates count as attempts of
/// their tier, so a near tier that looks empty is widened quickly. The walk continues
/// across choices and restarts from the nearest tier after a successful steal.
///
/// Cost: one `sample` per candidate (one block's thief metadata), plus the topology read
/// once per thief.
#[derive(Clone, Copy, Debug, Default)]
pub struct NumaProbabilistic {
    attempts: Option<usize>,
}

impl NumaProbabilistic {
    /// At most `attempts` (at least one) candidates per choice instead of `workers − 1`;
    /// the per-tier bound stays the tier's size.
    pub fn with_attempts(attempts: usize) -> Self {
        Self {
            attempts: Some(attempts.max(1)),
        }
    }
}

fn attempts(configured: Option<usize>, workers: usize) -> usize {
    configured.unwrap_or(workers.saturating_sub(1)).max(1)
}

struct ProbabilisticThief {
    attempts: Option<usize>,
}

impl Thief for ProbabilisticThief {
    fn choose(&mut self, victims: &dyn Victims, rng: &mut Rng) -> Option<usize> {
        let (me, workers) = (victims.me(), victims.workers());
        if workers < 2 {
            return None;
        }
        for _ in 0..attempts(self.attempts, workers) {
            let v = rng.other_than(me, workers);
            if victims.sample(v, rng) {
                return Some(v);
            }
        }
        None
    }
}

struct NumaProbabilisticThief {
    walk: TierWalk,
    attempts: Option<usize>,
}

impl Thief for NumaProbabilisticThief {
    fn choose(&mut self, victims: &dyn Victims, rng: &mut Rng) -> Option<usize> {
        for _ in 0..attempts(self.attempts, victims.workers()) {
            let v = self.walk.next(victims, rng)?;
            if victims.sample(v, rng) {
                return Some(v);
            }
        }
        None
    }

    fn record(&mut self, _victim: usize, outcome: StealOutcome, _latency: std::time::Duration) {
        if let StealOutcome::Success { .. } = outcome {
            self.walk.reset();
        }
    }
}

impl VictimPolicy for Probabilistic {
    fn name(&self) -> &str {
        "probabilistic"
    }

    fn thief(&self, _me: usize, _workers: usize) -> Box<dyn Thief> {
        Box::new(ProbabilisticThief {
            attempts: self.attempts,
        })
    }
}

impl VictimPolicy for NumaProbabilistic {
    fn name(&self) -> &str {
        "numa-probabilistic"
    }

    fn thief(&self, me: usize, workers: usize) -> Box<dyn Thief> {
        Box::new(NumaProbabilisticThief {
            walk: TierWalk::new(me, workers, None),
            attempts: self.attempts,
        })
    }
}
