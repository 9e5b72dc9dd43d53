//! The queue implementations under test, behind one small trait, so all run the same
//! monomorphised loops. Peers: the sequential bounds (`Vec`, `VecDeque`), crossbeam-deque
//! (unbounded: "full" means `C` items held) and st3.

use std::collections::VecDeque;

/// A work-stealing (or sequential) queue of `u64` as seen by its owner.
pub trait BenchQueue: Send + Sized {
    /// Thief-side handle; [`NoThief`] for queues that cannot be stolen from.
    type Thief: Thief;

    /// A queue holding at most `cap` items.
    fn with_capacity(cap: usize) -> Self;

    /// Puts one item; `false` when the queue is full.
    fn push(&mut self, x: u64) -> bool;

    /// Gets one item; `None` when the queue is empty.
    fn pop(&mut self) -> Option<u64>;

    /// A thief handle, or `None` when stealing is not supported.
    fn thief(&self) -> Option<Self::Thief>;
}

/// Thief side of a queue: steals a single item per call.
pub trait Thief: Send {
    /// Attempts to steal one item (`None` on empty, contention or retry).
    fn steal_one(&mut self) -> Option<u64>;
}

/// Placeholder thief for the sequential bounds; never steals.
pub struct NoThief;

impl Thief for NoThief {
    fn steal_one(&mut self) -> Option<u64> {
        None
    }
}

/// A sequential upper bound: a plain collection that never grows past `cap`.
macro_rules! sequential {
    ($($(#[$doc:meta])* $ty:ident($v:ty, $push:ident, $pop:ident);)*) => {
        $(
            $(#[$doc])*
            pub struct $ty {
                v: $v,
                cap: usize,
            }

            impl BenchQueue for $ty {
                type Thief = NoThief;

                fn with_capacity(cap: usize) -> Self {
                    let v = <$v>::with_capacity(cap);
                    $ty { v, cap }
                }

                #[inline]
                fn push(&mut self, x: u64) -> bool {
                    let room = self.v.len() < self.cap;
                    if room {
                        self.v.$push(x);
                    }
                    room
                }

                #[inline]
                fn pop(&mut self) -> Option<u64> {
                    self.v.$pop()
                }

                fn thief(&self) -> Option<NoThief> {
                    None
                }
            }
        )*
    };
}
sequential! {
    /// Sequential LIFO bound: a `Vec` stack.
    VecStack(Vec<u64>, push, pop);
    /// Sequential FIFO bound: a `VecDeque` ring.
    Ring(VecDeque<u64>, push_back, pop_front);
}

/// crossbeam-deque worker, LIFO or FIFO. Unbounded, so the adapter keeps an owner-local
/// count of items held and reports "full" at `cap`; the count is reset when `pop` finds
/// the queue empty (items stolen meanwhile are then accounted for).
pub struct Crossbeam<const LIFO: bool> {
    w: crossbeam_deque::Worker<u64>,
    held: usize,
    cap: usize,
}

/// crossbeam-deque in LIFO mode (`Worker::new_lifo`).
pub type CrossbeamLifo = Crossbeam<true>;
/// crossbeam-deque in FIFO mode (`Worker::new_fifo`).
pub type CrossbeamFifo = Crossbeam<false>;

/// Thief handle for crossbeam-deque.
pub struct CrossbeamThief(pub(crate) crossbeam_deque::Stealer<u64>);

impl Thief for CrossbeamThief {
    #[inline]
    fn steal_one(&mut self) -> Option<u64> {
        self.0.steal().success()
    }
}

impl<const LIFO: bool> BenchQueue for Crossbeam<LIFO> {
    type Thief = CrossbeamThief;

    fn with_capacity(cap: usize) -> Self {
        let w = if LIFO {
            crossbeam_deque::Worker::new_lifo()
        } else {
            crossbeam_deque::Worker::new_fifo()
        };
        Crossbeam { w, held: 0, cap }
    }

    #[inline]
    fn push(&mut self, x: u64) -> bool {
        if self.held >= self.cap {
            return false;
        }
        self.w.push(x);
        self.held += 1;
        true
    }

    #[inline]
    fn pop(&mut self) -> Option<u64> {
        let r = self.w.pop();
        match r {
            Some(_) => self.held = self.held.saturating_sub(1),
            None => self.held = 0,
        }
        r
    }

    fn thief(&self) -> Option<CrossbeamThief> {
        Some(CrossbeamThief(self.w.stealer()))
    }
}

macro_rules! st3_flavour {
    ($($(#[$doc:meta])* $ty:ident, $thief:ident, $m:ident;)*) => {
        $(
            $(#[$doc])*
            pub struct $ty(st3::$m::Worker<u64>);

            /// Thief handle for st3: steals one item with `steal_and_pop(.., |_| 1)` into a
            /// thief-local destination that never receives anything.
            pub struct $thief {
                pub(crate) s: st3::$m::Stealer<u64>,
                pub(crate) dest: st3::$m::Worker<u64>,
            }

            impl Thief for $thief {
                #[inline]
                fn steal_one(&mut self) -> Option<u64> {
                    self.s.steal_and_pop(&self.dest, |_| 1).ok().map(|(x, _)| x)
                }
            }

            impl BenchQueue for $ty {
                type Thief = $thief;

                fn with_capacity(cap: usize) -> Self {
                    $ty(st3::$m::Worker::new(cap))
                }

                #[inline]
                fn push(&mut self, x: u64) -> bool {
                    self.0.push(x).is_ok()
                }

                #[inline]
                fn pop(&mut self) -> Option<u64> {
                    self.0.pop()
                }

                fn thief(&self) -> Option<$thief> {
                    Some($thief {
                        s: self.0.stealer(),
                        dest: st3::$m::Worker::new(2),
                    })
                }
            }
        )*
    };
}
st3_flavour! {
    /// st3 LIFO worker (`st3::lifo::Worker`).
    St3Lifo, St3LifoThief, lifo;
    /// st3 FIFO worker (`st3::fifo::Worker`).
    St3Fifo, St3FifoThief, fifo;
}

#[cfg(test)]
mod tests {
    use super::*;

    fn fill_and_drain<Q: BenchQueue>(lifo: bool) {
        let mut q = Q::with_capacity(64);
        let mut n = 0;
        while q.push(n) {
            n += 1;
        }
        assert_eq!(n, 64);
        let first = q.pop().unwrap();
        assert_eq!(first, if lifo { 63 } else { 0 });
        let mut got = 1;
        while q.pop().is_some() {
            got += 1;
        }
        assert_eq!(got, 64);
        if let Some(mut t) = q.thief() {
            // Full queue (BWoS thieves never steal from the owner's current block, so fill
            // other blocks too): a thief gets one item, the owner gets the rest.
            let mut n = 0;
            while q.push(n) {
                n += 1;
            }
            // A steal may need a few attempts (`Steal::Retry` while a thief advances).
            let mut tries = 0;
            while t.steal_one().is_none() {
                tries += 1;
                assert!(tries < 100, "{}: no steal", std::any::type_name::<Q>());
            }
            let mut got = 0;
            while q.pop().is_some() {
                got += 1;
            }
            assert_eq!(got + 1, n);
        }
    }

    #[test]
    fn every_peer_is_full_at_capacity_and_keeps_order() {
        fill_and_drain::<VecStack>(true);
        fill_and_drain::<Ring>(false);
        fill_and_drain::<CrossbeamLifo>(true);
        fill_and_drain::<CrossbeamFifo>(false);
        fill_and_drain::<St3Lifo>(true);
        fill_and_drain::<St3Fifo>(false);
        fill_and_drain::<super::super::magpie::MagpieLifo>(true);
        fill_and_drain::<super::super::magpie::MagpieFifo>(false);
    }
}
