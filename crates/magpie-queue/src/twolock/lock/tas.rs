//! Test-and-test-and-set spinlock (paper IV.D, `TestAndSetLock`).

use super::backoff::Backoff;
use super::PopLock;
use crate::sync::{AtomicBool, Ordering};

/// A test-and-test-and-set spinlock: one CAS to take it, read-only spinning with
/// backoff while it is held, `yield_now` after a bounded number of spins.
///
/// The simplest lock of the four and the paper's fastest pop lock at low producer counts;
/// not fair (a releasing thread may immediately re-take it). Its unlock is a plain Release
/// store, with no read-modify-write, which makes it the default push lock of
/// [`TwoLockQueue`](crate::twolock::TwoLockQueue).
#[derive(Debug, Default)]
pub struct TasLock {
    locked: AtomicBool,
}

/// Guard of a [`TasLock`]; unlocks on drop.
#[derive(Debug)]
#[must_use = "the lock is released as soon as the guard is dropped"]
pub struct TasGuard<'a> {
    lock: &'a TasLock,
}

// SAFETY: the `false -> true` CAS (Acquire) succeeds for one thread at a time until the guard's
// `store(false, Release)`, so holders are mutually exclusive, and the Release/Acquire pair
// orders each critical section before the next.
unsafe impl PopLock for TasLock {
    type Guard<'a> = TasGuard<'a>;

    fn new() -> Self {
        Self {
            locked: AtomicBool::new(false),
        }
    }

    #[inline]
    fn lock(&self) -> TasGuard<'_> {
        let mut backoff = Backoff::spaced();
        loop {
            // Acquire: pairs with the Release store in `TasGuard::drop`, so the previous
            // holder's critical section happens-before ours. A CAS rather than `swap`: a
            // failed attempt then writes nothing (and loom can model the spin).
            if self
                .locked
                .compare_exchange(false, true, Ordering::Acquire, Ordering::Relaxed)
                .is_ok()
            {
                return TasGuard { lock: self };
            }
            // Test before test-and-set: spin on a shared read, not on an exclusive swap.
            while self.locked.load(Ordering::Relaxed) {
                backoff.snooze();
            }
        }
    }
}

impl Drop for TasGuard<'_> {
    #[inline]
    fn drop(&mut self) {
        // Release: pairs with the Acquire CAS in `TasLock::lock` of the next holder.
        self.lock.locked.store(false, Ordering::Release);
    }
}
