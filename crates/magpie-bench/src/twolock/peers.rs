//! The small trait every MPMC queue under test implements, so all of them run the
//! identical producer/consumer loops of [`run`](mod@super::run), and its implementations:
//! magpie's [`TwoLockQueue`] (any lock / node size / options) and the peers
//! `Mutex<VecDeque>`, crossbeam `SegQueue`, crossbeam-deque `Injector` and crossbeam
//! `ArrayQueue` (bounded).

use std::collections::VecDeque;
use std::sync::Mutex;

use crossbeam_deque::{Injector, Steal};
use crossbeam_queue::{ArrayQueue, SegQueue};
use magpie_queue::twolock::{PopLock, TwoLockQueue};

/// A multi-producer multi-consumer FIFO of `u64` items, shared by reference.
pub trait MpmcQueue: Sync {
    /// Appends `v`, or hands it back if the queue is full (bounded queues only; the
    /// producer loop then backs off and retries).
    fn try_push(&self, v: u64) -> Result<(), u64>;

    /// Removes the oldest item, or `None` if the queue looks empty.
    fn try_pop(&self) -> Option<u64>;
}

impl<L: PopLock, const NODE_BYTES: usize, P: PopLock> MpmcQueue
    for TwoLockQueue<u64, L, NODE_BYTES, P>
{
    #[inline]
    fn try_push(&self, v: u64) -> Result<(), u64> {
        // The benchmark never closes the queue, so an error is a bug: fail loudly (the
        // run's abort flag stops the other threads and the panic becomes a BenchError).
        if self.push(v).is_err() {
            panic!("two-lock queue rejected a push although it was never closed");
        }
        Ok(())
    }

    #[inline]
    fn try_pop(&self) -> Option<u64> {
        TwoLockQueue::try_pop(self)
    }
}

/// The baseline every thread pool starts with: a `VecDeque` behind one `std` mutex.
#[derive(Debug, Default)]
pub struct MutexDeque(Mutex<VecDeque<u64>>);

impl MpmcQueue for MutexDeque {
    #[inline]
    fn try_push(&self, v: u64) -> Result<(), u64> {
        self.0
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .push_back(v);
        Ok(())
    }

    #[inline]
    fn try_pop(&self) -> Option<u64> {
        self.0.lock().unwrap_or_else(|e| e.into_inner()).pop_front()
    }
}

/// crossbeam-queue's unbounded lock-free `SegQueue`.
#[derive(Debug, Default)]
pub struct Seg(SegQueue<u64>);

impl MpmcQueue for Seg {
    #[inline]
    fn try_push(&self, v: u64) -> Result<(), u64> {
        self.0.push(v);
        Ok(())
    }

    #[inline]
    fn try_pop(&self) -> Option<u64> {
        self.0.pop()
    }
}

/// crossbeam-deque's `Injector` (the global queue of crossbeam/rayon-style pools);
/// consumers take single items with `steal`, retrying while it says `Retry`.
#[derive(Debug, Default)]
pub struct Inject(Injector<u64>);

impl MpmcQueue for Inject {
    #[inline]
    fn try_push(&self, v: u64) -> Result<(), u64> {
        self.0.push(v);
        Ok(())
    }

    #[inline]
    fn try_pop(&self) -> Option<u64> {
        loop {
            match self.0.steal() {
                Steal::Success(v) => return Some(v),
                Steal::Empty => return None,
                Steal::Retry => std::hint::spin_loop(),
            }
        }
    }
}

/// crossbeam-queue's bounded lock-free `ArrayQueue` (capacity [`Bounded::CAPACITY`]):
/// when full, `try_push` hands the item back and the producer backs off.
#[derive(Debug)]
pub struct Bounded(ArrayQueue<u64>);

impl Bounded {
    /// Capacity in items: large enough that producers rarely wait when consumers keep up.
    pub const CAPACITY: usize = 8192;
}

impl Default for Bounded {
    /// An empty queue of [`Self::CAPACITY`] items.
    fn default() -> Self {
        Bounded(ArrayQueue::new(Self::CAPACITY))
    }
}

impl MpmcQueue for Bounded {
    #[inline]
    fn try_push(&self, v: u64) -> Result<(), u64> {
        self.0.push(v)
    }

    #[inline]
    fn try_pop(&self) -> Option<u64> {
        self.0.pop()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn fifo<Q: MpmcQueue>(q: Q) {
        for v in 1..=100 {
            q.try_push(v).unwrap();
        }
        for v in 1..=100 {
            assert_eq!(q.try_pop(), Some(v));
        }
        assert_eq!(q.try_pop(), None);
    }

    #[test]
    fn every_queue_is_fifo() {
        fifo(TwoLockQueue::<u64>::new());
        fifo(MutexDeque::default());
        fifo(Seg::default());
        fifo(Inject::default());
        fifo(Bounded::default());
    }

    #[test]
    fn bounded_hands_back_when_full() {
        let q = Bounded::default();
        for v in 0..Bounded::CAPACITY as u64 {
            q.try_push(v).unwrap();
        }
        assert_eq!(q.try_push(7), Err(7));
    }
}
