//! Stick with the victim that last had work.

use super::{StealOutcome, Thief, VictimPolicy, Victims};
use crate::rng::Rng;

/// Retry the last successful victim first, otherwise pick at random ("last" in §6.2.3 of
/// the BWoS paper, after Chase–Lev style runtimes that remember their last victim).
///
/// After a [`Success`](StealOutcome::Success) the same victim is tried again until an
/// attempt on it finds it [`Empty`](StealOutcome::Empty); a [`Retry`](StealOutcome::Retry)
/// (lost race, work may remain) keeps it. After an `Empty` the next random pick avoids
/// the victim that just ran dry (when there is anyone else to pick).
///
/// Cost: reads nothing of the victims; one random number when there is no last victim.
#[derive(Clone, Copy, Debug, Default)]
pub struct Last;

struct LastThief {
    /// The victim of the last successful steal, while it keeps having work.
    last: Option<usize>,
    /// A victim just found empty, avoided by the next random pick.
    avoid: Option<usize>,
}

impl Thief for LastThief {
    fn choose(&mut self, victims: &dyn Victims, rng: &mut Rng) -> Option<usize> {
        let (me, workers) = (victims.me(), victims.workers());
        if workers < 2 {
            return None;
        }
        if let Some(last) = self.last.filter(|&v| v < workers && v != me) {
            return Some(last);
        }
        match self.avoid.take().filter(|&v| v < workers && v != me) {
            Some(avoid) if workers > 2 => {
                // A uniform pick among the workers other than `me` and `avoid`.
                let (lo, hi) = (me.min(avoid), me.max(avoid));
                let mut v = rng.below(workers - 2);
                if v >= lo {
                    v += 1;
                }
                if v >= hi {
                    v += 1;
                }
                Some(v)
            }
            _ => Some(rng.other_than(me, workers)),
        }
    }

    fn record(&mut self, victim: usize, outcome: StealOutcome, _latency: std::time::Duration) {
        match outcome {
            StealOutcome::Success { .. } => {
                self.last = Some(victim);
                self.avoid = None;
            }
            StealOutcome::Empty => {
                if self.last == Some(victim) {
                    self.last = None;
                }
                self.avoid = Some(victim);
            }
            StealOutcome::Retry => {}
        }
    }
}

impl VictimPolicy for Last {
    fn name(&self) -> &str {
        "last"
    }

    fn thief(&self, _me: usize, _workers: usize) -> Box<dyn Thief> {
        Box::new(LastThief {
            last: None,
            avoid: None,
        })
    }
}
