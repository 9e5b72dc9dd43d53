//! A fixed cyclic order: worker `me` tries `me + 1`, `me + 2`, … modulo the pool size.

use super::{Thief, VictimPolicy, Victims};
use crate::rng::Rng;

/// Static round-robin victim selection ("seq" in §6.2.3 of the BWoS paper).
///
/// Worker `me` tries `me + 1`, `me + 2`, …, wrapping around and skipping itself; each
/// choice continues where the previous one left off, so consecutive attempts visit every
/// other worker once before repeating.
///
/// Cost: reads nothing of the victims (no queue metadata, no counters) and draws no
/// random numbers; the only victim cache lines touched are those of the steal itself.
#[derive(Clone, Copy, Debug, Default)]
pub struct Seq;

struct SeqThief {
    /// Distance from `me` of the next victim, in `1..workers`.
    offset: usize,
}

impl Thief for SeqThief {
    #[inline]
    fn choose(&mut self, victims: &dyn Victims, _rng: &mut Rng) -> Option<usize> {
        let workers = victims.workers();
        if workers < 2 {
            return None;
        }
        if self.offset == 0 || self.offset >= workers {
            self.offset = 1;
        }
        let victim = (victims.me() + self.offset) % workers;
        self.offset = if self.offset + 1 == workers {
            1
        } else {
            self.offset + 1
        };
        Some(victim)
    }
}

impl VictimPolicy for Seq {
    fn name(&self) -> &str {
        "seq"
    }

    fn thief(&self, _me: usize, _workers: usize) -> Box<dyn Thief> {
        Box::new(SeqThief { offset: 1 })
    }
}
