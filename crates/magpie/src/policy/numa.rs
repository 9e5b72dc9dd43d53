//! NUMA-aware victim selection: near victims first, widening tier by tier.

use super::{StealOutcome, Thief, Topology, VictimPolicy, Victims};
use crate::rng::Rng;

/// NUMA-aware selection (§2 of the BWoS paper, after Kumar et al.): victims that share
/// the thief's last-level cache first, then victims on its NUMA node, then anyone.
///
/// The tiers are nested (each includes the previous) and empty or repeated tiers are
/// dropped. Within a tier victims are drawn at random without repetition; after a bounded
/// number of attempts in a tier (its size by default, see
/// [`with_attempts`](Self::with_attempts)) the thief widens to the next tier, and after
/// the widest tier it starts over from the nearest. A successful steal resets it to the
/// nearest tier. On a [uniform](Topology::uniform) topology there is a single tier, all
/// other workers, and the policy is uniformly random.
///
/// Cost: reads nothing of the victims; the tiers come from the [`Topology`], read once per
/// thief on its first choice.
#[derive(Clone, Copy, Debug, Default)]
pub struct NumaAware {
    attempts: Option<usize>,
}

impl NumaAware {
    /// At most `attempts` (at least one) victims per tier before widening, instead of the
    /// tier's size.
    pub fn with_attempts(attempts: usize) -> Self {
        Self {
            attempts: Some(attempts.max(1)),
        }
    }
}

/// A thief's walk over its distance tiers, shared with
/// [`NumaProbabilistic`](super::NumaProbabilistic).
#[derive(Debug)]
pub(super) struct TierWalk {
    me: usize,
    workers: usize,
    /// Nested candidate lists, nearest first; empty until the first choice.
    tiers: Vec<Vec<usize>>,
    tier: usize,
    /// Victims drawn in the current tier.
    step: usize,
    attempts: Option<usize>,
}

impl TierWalk {
    /// A walk for worker `me`; `attempts` per tier, or the tier's size if `None`.
    pub(super) fn new(me: usize, workers: usize, attempts: Option<usize>) -> Self {
        Self {
            me,
            workers,
            tiers: Vec::new(),
            tier: 0,
            step: 0,
            attempts,
        }
    }

    /// Start again from the nearest tier.
    pub(super) fn reset(&mut self) {
        self.tier = 0;
        self.step = 0;
    }

    /// The next candidate victim, or `None` if there is no other worker.
    pub(super) fn next(&mut self, victims: &dyn Victims, rng: &mut Rng) -> Option<usize> {
        let (me, workers) = (victims.me(), victims.workers());
        if self.tiers.is_empty() || self.me != me || self.workers != workers {
            self.me = me;
            self.workers = workers;
            self.tiers = tiers(victims.topology(), me, workers);
            self.reset();
        }
        let tier_count = self.tiers.len();
        let members = self.tiers.get_mut(self.tier)?;
        let len = members.len();
        // Partial Fisher–Yates: the first `pos` members were this pass's earlier picks.
        let pos = self.step % len;
        let j = pos + rng.below(len - pos);
        members.swap(pos, j);
        let victim = members[pos];
        self.step += 1;
        if self.step >= self.attempts.unwrap_or(len).max(1) {
            self.step = 0;
            self.tier = (self.tier + 1) % tier_count;
        }
        Some(victim)
    }
}

/// The nested tiers of worker `me`: same cache, same cache or node, everyone. A topology
/// that does not describe every worker is treated as uniform.
fn tiers(topology: &Topology, me: usize, workers: usize) -> Vec<Vec<usize>> {
    let others = (0..workers).filter(|&w| w != me);
    if workers < 2 {
        return Vec::new();
    }
    if topology.workers() < workers || me >= workers {
        return vec![others.collect()];
    }
    let candidates: [Vec<usize>; 3] = [
        others
            .clone()
            .filter(|&w| topology.same_cache(me, w))
            .collect(),
        others
            .clone()
            .filter(|&w| topology.same_cache(me, w) || topology.same_node(me, w))
            .collect(),
        others.collect(),
    ];
    let mut tiers: Vec<Vec<usize>> = Vec::with_capacity(3);
    for tier in candidates {
        if tier.len() > tiers.last().map_or(0, Vec::len) {
            tiers.push(tier);
        }
    }
    tiers
}

struct NumaThief {
    walk: TierWalk,
}

impl Thief for NumaThief {
    fn choose(&mut self, victims: &dyn Victims, rng: &mut Rng) -> Option<usize> {
        self.walk.next(victims, rng)
    }

    fn record(&mut self, _victim: usize, outcome: StealOutcome, _latency: std::time::Duration) {
        if let StealOutcome::Success { .. } = outcome {
            self.walk.reset();
        }
    }
}

impl VictimPolicy for NumaAware {
    fn name(&self) -> &str {
        "numa"
    }

    fn thief(&self, me: usize, workers: usize) -> Box<dyn Thief> {
        Box::new(NumaThief {
            walk: TierWalk::new(me, workers, self.attempts),
        })
    }
}
