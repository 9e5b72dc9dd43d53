//! Bounded exponential backoff shared by the spinlocks: spin a little, then yield.
//!
//! A pure spinlock collapses when threads outnumber cores: a waiter can burn its whole
//! time slice while the preempted holder cannot run. After [`SPIN_LIMIT`] doublings the
//! waiter therefore calls `yield_now` on every step, handing the core back to the
//! scheduler (and, eventually, to the holder).

use crate::sync::{spin_hint, yield_now};

/// Number of doubling rounds (1, 2, 4, … 64 spin hints) before every step yields.
const SPIN_LIMIT: u32 = 6;

/// Backoff state of one waiting episode; create a fresh one per `lock` call.
#[derive(Debug, Default)]
pub(crate) struct Backoff {
    step: u32,
}

impl Backoff {
    /// A backoff that starts with a single spin hint.
    #[inline]
    pub(crate) const fn new() -> Self {
        Self { step: 0 }
    }

    /// Waits one step: `2^step` spin hints while `step <= SPIN_LIMIT`, then `yield_now`.
    #[inline]
    pub(crate) fn snooze(&mut self) {
        if cfg!(loom) {
            // Under loom a spin hint is already a yield; one per step keeps models small.
            yield_now();
        } else if self.step <= SPIN_LIMIT {
            for _ in 0..(1u32 << self.step) {
                spin_hint();
            }
            self.step += 1;
        } else {
            yield_now();
        }
    }

    /// True once spinning is over and every further step yields.
    #[cfg(test)]
    pub(crate) fn is_yielding(&self) -> bool {
        self.step > SPIN_LIMIT
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn spins_then_yields() {
        let mut b = Backoff::new();
        for _ in 0..=SPIN_LIMIT {
            assert!(!b.is_yielding());
            b.snooze();
        }
        assert!(b.is_yielding());
        b.snooze(); // a yield; must not overflow the shift
        assert!(b.is_yielding());
    }
}
