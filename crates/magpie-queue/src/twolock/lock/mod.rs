//! The pop (and push) lock of the two-lock queue, behind the small [`PopLock`] trait.
//!
//! Paper IV.D: the pop critical section is a few instructions (except when it frees a
//! node), so a spinlock beats the standard parking mutex, while the push side, which may
//! call the allocator, suits a hybrid spin-then-park lock (magpie's default push lock is
//! the test-and-set lock instead, measured faster: see the
//! [queue's module docs](super)). Four implementations:
//! [`StdLock`] (parking), [`TasLock`] (test-and-set), [`TicketLock`] (fair ticket) and
//! [`HybridLock`] (spin, then yield, then park). The spinlocks back off and then
//! `yield_now`, so they degrade gracefully rather than collapse when threads outnumber
//! cores.

mod backoff;
mod hybrid;
mod parking;
mod tas;
mod ticket;

pub use hybrid::{HybridGuard, HybridLock};
pub use parking::StdLock;
pub use tas::{TasGuard, TasLock};
pub use ticket::{TicketGuard, TicketLock};

/// A mutual-exclusion lock protecting one end of a [`TwoLockQueue`](super::TwoLockQueue).
///
/// Guard-based: [`lock`](PopLock::lock) returns a guard that unlocks on drop.
///
/// # Safety
///
/// Implementations must guarantee that at most one guard of a given lock exists at a
/// time, and that everything a thread did before dropping its guard happens-before
/// everything the next guard holder does after `lock` returns (Release on unlock, Acquire
/// on lock). The queue relies on this for memory safety: it accesses unsynchronised
/// fields, and reads the cached producer index, only while holding the lock.
///
/// ```
/// use magpie_queue::twolock::{PopLock, TicketLock, TwoLockQueue};
///
/// let lock = TicketLock::new();
/// drop(lock.lock()); // locked, then released
///
/// // A queue whose pop side uses the ticket lock:
/// let q: TwoLockQueue<u32, TicketLock> = TwoLockQueue::new();
/// q.push(7).unwrap();
/// assert_eq!(q.try_pop(), Some(7));
/// ```
pub unsafe trait PopLock: Send + Sync {
    /// The guard that holds the lock until dropped.
    type Guard<'a>
    where
        Self: 'a;

    /// A new, unlocked lock.
    fn new() -> Self
    where
        Self: Sized;

    /// Blocks (spinning, yielding or parking) until the lock is held.
    fn lock(&self) -> Self::Guard<'_>;
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sync::{Arc, UnsafeCell};
    use std::thread;

    /// A counter protected only by the lock under test: lost updates or a data race (Miri)
    /// expose a broken lock.
    struct Counter<L> {
        lock: L,
        value: UnsafeCell<usize>,
    }

    // SAFETY: `value` is only accessed while `lock` is held.
    unsafe impl<L: PopLock> Sync for Counter<L> {}

    fn hammer<L: PopLock + 'static>() {
        let threads = 3;
        let per_thread = if cfg!(miri) { 20 } else { 5_000 };
        let counter = Arc::new(Counter {
            lock: L::new(),
            value: UnsafeCell::new(0),
        });
        let handles: Vec<_> = (0..threads)
            .map(|_| {
                let c = Arc::clone(&counter);
                thread::spawn(move || {
                    for _ in 0..per_thread {
                        let _g = c.lock.lock();
                        // SAFETY: we hold the lock.
                        c.value.with_mut(|v| unsafe { *v += 1 });
                    }
                })
            })
            .collect();
        for h in handles {
            h.join().unwrap();
        }
        // SAFETY: all threads joined.
        assert_eq!(counter.value.with(|v| unsafe { *v }), threads * per_thread);
    }

    #[test]
    fn std_lock_excludes() {
        hammer::<StdLock>();
    }

    #[test]
    fn tas_lock_excludes() {
        hammer::<TasLock>();
    }

    #[test]
    fn ticket_lock_excludes() {
        hammer::<TicketLock>();
    }

    #[test]
    fn hybrid_lock_excludes() {
        hammer::<HybridLock>();
    }

    #[test]
    fn hybrid_lock_oversubscribed_with_slow_holder() {
        // The holder sleeps, so contenders exhaust their spin phase and park.
        let lock = Arc::new(HybridLock::new());
        let g = lock.lock();
        let waiters: Vec<_> = (0..3)
            .map(|_| {
                let l = Arc::clone(&lock);
                thread::spawn(move || drop(l.lock()))
            })
            .collect();
        thread::sleep(std::time::Duration::from_millis(if cfg!(miri) {
            1
        } else {
            20
        }));
        drop(g);
        for w in waiters {
            w.join().unwrap();
        }
        drop(lock.lock());
    }
}
