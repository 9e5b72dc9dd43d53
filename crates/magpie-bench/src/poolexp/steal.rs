//! The thief side of the pool experiment: steal one item, and the two probes a victim
//! policy may ask for (occupancy `sample`, `stealable_len`), for the queue benchmark's
//! thief handles. magpie answers from its blocks' thief metadata (§3.4); crossbeam-deque
//! and st3 from their length (st3: a `steal` that asks for 0 items), so their sample costs
//! what reading the owner's indices costs (the paper's §2.1.3).

use magpie::Rng;
use magpie_queue::Steal;

use crate::queue::impls::{CrossbeamThief, St3FifoThief, St3LifoThief};
use crate::queue::magpie::{MagpieFifoThief, MagpieLifoThief};

/// Result of one single-item steal attempt.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Stolen {
    /// One item taken.
    Item(u64),
    /// The victim had nothing stealable.
    Empty,
    /// Lost a race (another thief, or the owner); the victim may still hold items.
    Retry,
}

/// The thief side of one victim queue in the pool experiment.
pub trait PoolThief: Send {
    /// Attempts to steal one item.
    fn steal(&self) -> Stolen;

    /// Occupancy sample: `true` with probability ≈ stealable items / `cap`.
    fn sample(&self, cap: usize, rng: &mut Rng) -> bool;

    /// Approximate number of items thieves could take now.
    fn stealable_len(&self) -> usize;
}

/// Bernoulli(`len / cap`) from an exact length read.
#[inline]
fn sample_from_len(len: usize, cap: usize, rng: &mut Rng) -> bool {
    len > 0 && rng.below(cap.max(1)) < len
}

fn from_steal(s: Steal<u64>) -> Stolen {
    match s {
        Steal::Success(x) => Stolen::Item(x),
        Steal::Empty => Stolen::Empty,
        Steal::Retry => Stolen::Retry,
    }
}

macro_rules! magpie_thief {
    ($ty:ty) => {
        impl PoolThief for $ty {
            #[inline]
            fn steal(&self) -> Stolen {
                from_steal(self.0.steal())
            }

            #[inline]
            fn sample(&self, _cap: usize, rng: &mut Rng) -> bool {
                self.0.sample(rng)
            }

            #[inline]
            fn stealable_len(&self) -> usize {
                self.0.stealable_len()
            }
        }
    };
}
magpie_thief!(MagpieLifoThief);
magpie_thief!(MagpieFifoThief);

impl PoolThief for CrossbeamThief {
    #[inline]
    fn steal(&self) -> Stolen {
        match self.0.steal() {
            crossbeam_deque::Steal::Success(x) => Stolen::Item(x),
            crossbeam_deque::Steal::Empty => Stolen::Empty,
            crossbeam_deque::Steal::Retry => Stolen::Retry,
        }
    }

    #[inline]
    fn sample(&self, cap: usize, rng: &mut Rng) -> bool {
        sample_from_len(self.0.len(), cap, rng)
    }

    #[inline]
    fn stealable_len(&self) -> usize {
        self.0.len()
    }
}

macro_rules! st3_thief {
    ($ty:ty) => {
        impl PoolThief for $ty {
            #[inline]
            fn steal(&self) -> Stolen {
                match self.s.steal_and_pop(&self.dest, |_| 1) {
                    Ok((x, _)) => Stolen::Item(x),
                    Err(st3::StealError::Empty) => Stolen::Empty,
                    Err(st3::StealError::Busy) => Stolen::Retry,
                }
            }

            #[inline]
            fn sample(&self, cap: usize, rng: &mut Rng) -> bool {
                sample_from_len(self.stealable_len(), cap, rng)
            }

            /// st3 has no length on its stealer: a `steal` whose count closure records
            /// the available count and asks for zero items books nothing and returns
            /// `Empty` (st3 checks `count == 0` before its CAS), so it is a read of
            /// the queue's indices. A concurrent steal (`Busy`) reads as 0.
            #[inline]
            fn stealable_len(&self) -> usize {
                let mut seen = 0;
                let _ = self.s.steal(&self.dest, |n| {
                    seen = n;
                    0
                });
                seen
            }
        }
    };
}
st3_thief!(St3LifoThief);
st3_thief!(St3FifoThief);

#[cfg(test)]
mod tests {
    use super::*;
    use crate::queue::impls::{BenchQueue, CrossbeamFifo, CrossbeamLifo, St3Fifo, St3Lifo};
    use crate::queue::magpie::{MagpieFifo, MagpieLifo};

    /// A full queue of 64: the probes see items, a steal takes one, and once the owner
    /// drained it the probes and steals see nothing.
    fn probes<Q: BenchQueue>()
    where
        Q::Thief: PoolThief,
    {
        let name = std::any::type_name::<Q>();
        let mut q = Q::with_capacity(64);
        let t = q.thief().expect("stealable");
        let mut rng = Rng::new(3);
        assert_eq!(t.stealable_len(), 0, "{name}");
        assert!(!(0..100).any(|_| t.sample(64, &mut rng)), "{name}");
        let mut n = 0;
        while q.push(n) {
            n += 1;
        }
        let len = t.stealable_len();
        assert!(len > 0 && len <= 64, "{name}: len {len}");
        assert!((0..200).any(|_| t.sample(64, &mut rng)), "{name}");
        let mut tries = 0;
        let got = loop {
            match t.steal() {
                Stolen::Item(x) => break x,
                _ => {
                    tries += 1;
                    assert!(tries < 100, "{name}: no steal");
                }
            }
        };
        assert!(got < 64);
        while q.pop().is_some() {}
        assert_eq!(t.stealable_len(), 0, "{name}");
        assert_eq!(t.steal(), Stolen::Empty, "{name}");
    }

    #[test]
    fn every_queue_answers_the_probes() {
        probes::<MagpieLifo>();
        probes::<MagpieFifo>();
        probes::<CrossbeamLifo>();
        probes::<CrossbeamFifo>();
        probes::<St3Lifo>();
        probes::<St3Fifo>();
    }
}
