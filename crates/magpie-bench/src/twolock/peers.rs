//! The small trait every MPMC queue under test implements, so all of them run the
//! identical loops of [`run`](mod@super::run): magpie's [`TwoLockQueue`] (any lock, node
//! size and options) and the peers `Mutex<VecDeque>`, crossbeam's `SegQueue`,
//! `Injector` and bounded `ArrayQueue`.

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
pub type MutexDeque = Mutex<VecDeque<u64>>;

impl MpmcQueue for MutexDeque {
    #[inline]
    fn try_push(&self, v: u64) -> Result<(), u64> {
        self.lock().unwrap_or_else(|e| e.into_inner()).push_back(v);
        Ok(())
    }

    #[inline]
    fn try_pop(&self) -> Option<u64> {
        self.lock().unwrap_or_else(|e| e.into_inner()).pop_front()
    }
}

impl MpmcQueue for SegQueue<u64> {
    #[inline]
    fn try_push(&self, v: u64) -> Result<(), u64> {
        self.push(v);
        Ok(())
    }

    #[inline]
    fn try_pop(&self) -> Option<u64> {
        self.pop()
    }
}

/// Consumers take single items with `steal`, retrying while it says `Retry`.
impl MpmcQueue for Injector<u64> {
    #[inline]
    fn try_push(&self, v: u64) -> Result<(), u64> {
        self.push(v);
        Ok(())
    }

    #[inline]
    fn try_pop(&self) -> Option<u64> {
        loop {
            match self.steal() {
                Steal::Success(v) => return Some(v),
                Steal::Empty => return None,
                Steal::Retry => std::hint::spin_loop(),
            }
        }
    }
}

/// Capacity of the bounded peer, in items: large enough that producers rarely wait when
/// consumers keep up.
pub const BOUNDED_CAPACITY: usize = 8192;

/// The bounded peer: crossbeam's `ArrayQueue` of [`BOUNDED_CAPACITY`] items; when it is
/// full, `try_push` hands the item back and the producer backs off.
pub fn bounded() -> ArrayQueue<u64> {
    ArrayQueue::new(BOUNDED_CAPACITY)
}

impl MpmcQueue for ArrayQueue<u64> {
    #[inline]
    fn try_push(&self, v: u64) -> Result<(), u64> {
        self.push(v)
    }

    #[inline]
    fn try_pop(&self) -> Option<u64> {
        self.pop()
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
        fifo(SegQueue::new());
        fifo(Injector::new());
        fifo(bounded());
    }

    #[test]
    fn bounded_hands_back_when_full() {
        let q = bounded();
        for v in 0..BOUNDED_CAPACITY as u64 {
            q.try_push(v).unwrap();
        }
        assert_eq!(q.try_push(7), Err(7));
    }
}
