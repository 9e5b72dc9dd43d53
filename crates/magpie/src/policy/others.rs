//! Uniform random subsets of the other workers, for policies that compare several victims.

use crate::rng::Rng;

/// The workers other than `me`, kept in a buffer that a partial Fisher–Yates shuffle
/// permutes in place: drawing `k` distinct victims costs `k` random numbers and no
/// allocation (the buffer is allocated once per thief).
#[derive(Clone, Debug)]
pub(super) struct Others {
    me: usize,
    workers: usize,
    others: Vec<usize>,
}

impl Others {
    /// The workers `0..workers` except `me`.
    pub(super) fn new(me: usize, workers: usize) -> Self {
        Self {
            me,
            workers,
            others: (0..workers).filter(|&w| w != me).collect(),
        }
    }

    /// `k` distinct workers other than `me` (all of them if there are fewer than `k`),
    /// uniformly at random. Rebuilds the buffer if the caller describes a different
    /// worker or pool size than the one it was built for, so a mismatched view degrades
    /// to a fresh buffer instead of an out-of-range victim.
    pub(super) fn draw(&mut self, me: usize, workers: usize, k: usize, rng: &mut Rng) -> &[usize] {
        if self.me != me || self.workers != workers {
            *self = Self::new(me, workers);
        }
        let len = self.others.len();
        let k = k.min(len);
        for i in 0..k {
            let j = i + rng.below(len - i);
            self.others.swap(i, j);
        }
        &self.others[..k]
    }
}
