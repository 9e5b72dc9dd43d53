//! Size-based policies: sample a few victims, steal from the longest queue.

use super::others::Others;
use super::{Thief, VictimPolicy, Victims};
use crate::rng::Rng;

/// Best of two (Mitzenmacher's power of two choices, "best_of_two" in §2 of the BWoS
/// paper): two distinct random victims, the one with the larger
/// [`stealable_len`](Victims::stealable_len) wins (the first drawn on a tie).
///
/// Cost: two `stealable_len` reads, i.e. the thief metadata of every block of two
/// victims' queues (§2.1.3: these reads are what makes size-based policies interfere
/// with the owners). In a two-worker pool there is a single candidate and nothing is read.
#[derive(Clone, Copy, Debug, Default)]
pub struct BestOfTwo;

/// Best of many ("best_of_many", §2 and §6.2.3 of the BWoS paper, which samples half the
/// queues): `⌈(workers − 1) / 2⌉` distinct random victims (half the other workers, at
/// least one; four of the seven others in an eight-worker pool), the one with the largest
/// [`stealable_len`](Victims::stealable_len) wins.
///
/// Cost: that many `stealable_len` reads, each reading every block's thief metadata of
/// one victim's queue; the most interfering policy, which is why the paper finds it often
/// the slowest despite its balance.
#[derive(Clone, Copy, Debug, Default)]
pub struct BestOfMany;

/// Samples `k` victims and keeps the largest.
struct BestOfThief {
    others: Others,
    /// `None`: half the other workers (best of many).
    k: Option<usize>,
}

impl Thief for BestOfThief {
    fn choose(&mut self, victims: &dyn Victims, rng: &mut Rng) -> Option<usize> {
        let (me, workers) = (victims.me(), victims.workers());
        let k = self.k.unwrap_or(workers / 2).max(1);
        let candidates = self.others.draw(me, workers, k, rng);
        match candidates {
            [] => None,
            [only] => Some(*only),
            [first, rest @ ..] => {
                let mut best = (*first, victims.stealable_len(*first));
                for &v in rest {
                    let len = victims.stealable_len(v);
                    if len > best.1 {
                        best = (v, len);
                    }
                }
                Some(best.0)
            }
        }
    }
}

impl VictimPolicy for BestOfTwo {
    fn name(&self) -> &str {
        "best-of-two"
    }

    fn thief(&self, me: usize, workers: usize) -> Box<dyn Thief> {
        Box::new(BestOfThief {
            others: Others::new(me, workers),
            k: Some(2),
        })
    }
}

impl VictimPolicy for BestOfMany {
    fn name(&self) -> &str {
        "best-of-many"
    }

    fn thief(&self, me: usize, workers: usize) -> Box<dyn Thief> {
        Box::new(BestOfThief {
            others: Others::new(me, workers),
            k: None,
        })
    }
}
