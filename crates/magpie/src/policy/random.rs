//! The baseline policy: a uniformly random victim on every attempt.

use super::{Thief, VictimPolicy, Victims};
use crate::rng::Rng;

/// Uniformly random victim selection (the default, as in most work-stealing runtimes).
#[derive(Clone, Copy, Debug, Default)]
pub struct Random;

struct RandomThief;

impl Thief for RandomThief {
    #[inline]
    fn choose(&mut self, victims: &dyn Victims, rng: &mut Rng) -> Option<usize> {
        Some(rng.other_than(victims.me(), victims.workers()))
    }
}

impl VictimPolicy for Random {
    fn name(&self) -> &str {
        "random"
    }

    fn thief(&self, _me: usize, _workers: usize) -> Box<dyn Thief> {
        Box::new(RandomThief)
    }
}
