//! Spin-then-park lock (paper IV.D, "hybrid mutex"): cheap when held briefly, sleeps when
//! the holder is slow or preempted.

use super::backoff::Backoff;
use super::PopLock;
use crate::sync::{AtomicU32, Condvar, Mutex, Ordering};

const UNLOCKED: u32 = 0;
/// Held, and nobody is parked.
const LOCKED: u32 = 1;
/// Held, and a thread may be parked on the condvar: unlock must wake one.
const CONTENDED: u32 = 2;

/// Contended lockers wait this many [`Backoff::spaced`] steps (7 spinning rounds of 64,
/// 128, … 4096 spin hints, then one `yield_now` per step) before parking.
#[cfg(not(loom))]
const WAIT_STEPS: u32 = 7 + 16;
/// Under loom none: each step is a yield there, after which loom runs the holder to
/// its unlock, so with any step the models never reached the park phase.
#[cfg(loom)]
const WAIT_STEPS: u32 = 0;

/// A three-state lock (unlocked / locked / contended, as in Drepper's futex mutex) that
/// spins, then yields, for a bounded number of steps and then parks on a condvar.
///
/// The uncontended path is one CAS to lock and one swap to unlock; parking is only paid
/// when waiting failed, so it stays efficient with more threads than cores. Waiting
/// includes `yield_now` steps before parking because a releasing thread often takes the
/// lock straight back: two consumers draining one full queue, whose waiter parked after
/// six spinning checks, parked about once every 30 pops, and every park costs both sides
/// a futex call (10–15 M items/s); with the yielding steps they parked a few hundred times
/// in 4 M pops (18–22 M items/s, scratch runs on this 2-core machine). It is the
/// default pop lock of [`TwoLockQueue`](crate::twolock::TwoLockQueue). The unlock must be
/// a `swap` (to see whether anyone is parked), which is why the default push lock is the
/// [`TasLock`](super::TasLock), whose unlock is a plain store.
#[derive(Debug, Default)]
pub struct HybridLock {
    state: AtomicU32,
    park: Mutex<()>,
    unparked: Condvar,
}

/// Guard of a [`HybridLock`]; unlocks (and wakes one parked thread if needed) on drop.
#[derive(Debug)]
#[must_use = "the lock is released as soon as the guard is dropped"]
pub struct HybridGuard<'a> {
    lock: &'a HybridLock,
}

// SAFETY: a thread only proceeds after moving `state` from UNLOCKED to LOCKED/CONTENDED
// with an Acquire RMW, and the guard moves it back with a Release swap: mutual exclusion,
// and each critical section happens-before the next.
unsafe impl PopLock for HybridLock {
    type Guard<'a> = HybridGuard<'a>;

    fn new() -> Self {
        Self {
            state: AtomicU32::new(UNLOCKED),
            park: Mutex::new(()),
            unparked: Condvar::new(),
        }
    }

    #[inline]
    fn lock(&self) -> HybridGuard<'_> {
        // Acquire: pairs with the Release swap in `HybridGuard::drop`.
        if self
            .state
            .compare_exchange(UNLOCKED, LOCKED, Ordering::Acquire, Ordering::Relaxed)
            .is_err()
        {
            self.lock_contended();
        }
        HybridGuard { lock: self }
    }
}

impl HybridLock {
    #[cold]
    #[cfg_attr(loom, allow(clippy::reversed_empty_ranges))] // WAIT_STEPS is 0 there
    fn lock_contended(&self) {
        // Spin-then-yield phase, only while nobody is parked (a parked thread means long
        // waits). Each step re-reads the state once; the steps are spaced so that the
        // holder keeps the lock's line between them (`Backoff::spaced`).
        let mut backoff = Backoff::spaced();
        for _ in 0..WAIT_STEPS {
            match self.state.load(Ordering::Relaxed) {
                // Acquire: pairs with the Release swap in `HybridGuard::drop`.
                UNLOCKED
                    if self
                        .state
                        .compare_exchange(UNLOCKED, LOCKED, Ordering::Acquire, Ordering::Relaxed)
                        .is_ok() =>
                {
                    return;
                }
                CONTENDED => break,
                _ => {}
            }
            backoff.snooze();
        }
        // Park phase. Taking the lock with CONTENDED (not LOCKED) is conservative: our
        // unlock may wake a thread needlessly, but never misses one.
        loop {
            // Acquire: pairs with the Release swap in `HybridGuard::drop`.
            if self.state.swap(CONTENDED, Ordering::Acquire) == UNLOCKED {
                return;
            }
            let mut parked = self.park.lock().unwrap_or_else(|e| e.into_inner());
            // No lost wake-up: an unlocker swaps `state` to UNLOCKED *before* taking
            // `park` to notify. If its notify ran before we took `park`, the mutex orders
            // its swap before this load, so we see UNLOCKED (or a newer LOCKED) and retry;
            // otherwise we are already waiting when it notifies.
            while self.state.load(Ordering::Relaxed) == CONTENDED {
                parked = self
                    .unparked
                    .wait(parked)
                    .unwrap_or_else(|e| e.into_inner());
            }
        }
    }

    #[cold]
    fn unpark_one(&self) {
        let _parked = self.park.lock().unwrap_or_else(|e| e.into_inner());
        self.unparked.notify_one();
    }
}

impl Drop for HybridGuard<'_> {
    #[inline]
    fn drop(&mut self) {
        // Release: pairs with the Acquire CAS/swap of the next locker.
        if self.lock.state.swap(UNLOCKED, Ordering::Release) == CONTENDED {
            self.lock.unpark_one();
        }
    }
}
