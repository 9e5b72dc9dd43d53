//! Latches: one-shot signals a waiting thread can probe, and sleep on.
//!
//! `CoreLatch` carries the state a worker needs to sleep while it waits: before parking
//! the waiter moves it UNSET → SLEEPING; a setter that swaps in SET and finds SLEEPING
//! wakes exactly that worker (see `sleep.rs`). The setter must not touch the latch after
//! the swap: the waiter may return and free the frame the latch lives in.

use std::sync::Arc;

use crate::registry::Registry;
use crate::sync::{lock, AtomicUsize, Condvar, Mutex};
use std::sync::atomic::Ordering::{AcqRel, Acquire, Relaxed};

/// A signal set once.
pub(crate) trait Latch {
    /// Signals the latch.
    ///
    /// # Safety
    /// `this` is valid on entry; the implementation must not touch `*this` after the
    /// signalling store, since the waiter may free it at once.
    unsafe fn set(this: *const Self);
}

const UNSET: usize = 0;
const SLEEPING: usize = 1;
const SET: usize = 2;

/// The state word every worker-side latch is built on.
#[derive(Debug)]
pub(crate) struct CoreLatch {
    state: AtomicUsize,
}

impl CoreLatch {
    pub(crate) fn new() -> Self {
        Self {
            state: AtomicUsize::new(UNSET),
        }
    }

    /// Whether the latch is set; if so, everything written before `set` is visible.
    #[inline]
    pub(crate) fn probe(&self) -> bool {
        // Acquire pairs with the AcqRel swap in `set`: the job's result is visible.
        self.state.load(Acquire) == SET
    }

    /// Announces that the waiter is about to sleep; `false` if the latch is already set.
    pub(crate) fn get_sleepy(&self) -> bool {
        // Relaxed: on failure the waiter re-probes with Acquire before using anything.
        self.state
            .compare_exchange(UNSET, SLEEPING, Relaxed, Relaxed)
            .is_ok()
    }

    /// The waiter woke up (or gave up sleeping); a set latch stays set.
    pub(crate) fn wake_up(&self) {
        // Relaxed: only moves SLEEPING back to UNSET; SET is never overwritten.
        let _ = self
            .state
            .compare_exchange(SLEEPING, UNSET, Relaxed, Relaxed);
    }

    /// Sets the latch; returns whether the waiter was (about to be) asleep.
    ///
    /// # Safety
    /// `this` is valid on entry; it is not touched after the swap.
    pub(crate) unsafe fn set(this: *const Self) -> bool {
        // SAFETY: valid on entry (caller); this is the last access.
        // AcqRel: Release pairs with `probe`'s Acquire (publishes the result); Acquire
        // orders our later wake-up after the waiter's SLEEPING announcement.
        unsafe { (*this).state.swap(SET, AcqRel) == SLEEPING }
    }
}

/// A latch a worker of `registry` waits on while it keeps stealing (join, scope).
pub(crate) struct SpinLatch<'r> {
    pub(crate) core: CoreLatch,
    registry: &'r Registry,
    target: usize,
}

impl<'r> SpinLatch<'r> {
    /// A latch waited on by worker `target` of `registry`.
    pub(crate) fn new(registry: &'r Registry, target: usize) -> Self {
        Self {
            core: CoreLatch::new(),
            registry,
            target,
        }
    }
}

impl Latch for SpinLatch<'_> {
    unsafe fn set(this: *const Self) {
        // SAFETY: valid on entry (caller). Copy what we need before signalling. The
        // registry outlives the call: the setter is a worker of the same registry (jobs
        // run only on their registry's workers) and holds an `Arc` to it.
        let (registry, target) = unsafe { ((*this).registry as *const Registry, (*this).target) };
        // SAFETY: `core` is valid on entry; not touched after the swap.
        if unsafe { CoreLatch::set(&(*this).core) } {
            // SAFETY: see above.
            unsafe { (*registry).wake_specific(target) };
        }
    }
}

/// A latch a worker of one pool waits on (running its own pool's jobs meanwhile) while
/// a worker of another pool runs the job that sets it: `install` from another pool's
/// worker. The setter has no reference to the waiter's registry, so the latch holds one.
pub(crate) struct CrossLatch {
    pub(crate) core: CoreLatch,
    registry: Arc<Registry>,
    target: usize,
}

impl CrossLatch {
    /// A latch waited on by worker `target` of `registry`.
    pub(crate) fn new(registry: Arc<Registry>, target: usize) -> Self {
        Self {
            core: CoreLatch::new(),
            registry,
            target,
        }
    }
}

impl Latch for CrossLatch {
    unsafe fn set(this: *const Self) {
        // SAFETY: valid on entry (caller). The waiter may drop the latch, and with it
        // its `Arc`, as soon as the swap is done: take our own reference first.
        let (registry, target) = unsafe { (Arc::clone(&(*this).registry), (*this).target) };
        // SAFETY: `core` is valid on entry; not touched after the swap.
        if unsafe { CoreLatch::set(&(*this).core) } {
            registry.wake_specific(target);
        }
    }
}

/// Counts outstanding jobs of a scope; set when the count reaches zero.
pub(crate) struct CountLatch {
    pub(crate) core: CoreLatch,
    counter: AtomicUsize,
    registry: *const Registry,
    owner: usize,
}

impl CountLatch {
    /// Starts at one: the scope body itself.
    pub(crate) fn new(registry: &Registry, owner: usize) -> Self {
        Self {
            core: CoreLatch::new(),
            counter: AtomicUsize::new(1),
            registry,
            owner,
        }
    }

    /// Counts `n` more outstanding jobs (or spawn credits, see `worker.rs`).
    pub(crate) fn add(&self, n: usize) {
        // Relaxed: the count is only compared with zero by its own decrements (AcqRel),
        // and it cannot reach zero while the adder still holds a count.
        self.counter.fetch_add(n, Relaxed);
    }

    /// Removes `n` counts; the one that reaches zero sets the latch.
    ///
    /// # Safety
    /// `this` is valid on entry and the caller holds `n` counts. A decrement that does
    /// not reach zero is the last access; the one that does then sets `core` (the owner
    /// waits for `core`, not for the counter) and does not touch the latch after that.
    pub(crate) unsafe fn sub(this: *const Self, n: usize) {
        // SAFETY: valid on entry; copy out before the final decrement.
        let (registry, owner) = unsafe { ((*this).registry, (*this).owner) };
        // AcqRel: each finishing job's writes happen-before the last decrement (the
        // RMWs form one release sequence), whose Release (via the latch swap) the owner
        // acquires.
        // SAFETY: still valid: our `n` counts keep the latch from being set and freed.
        if unsafe { (*this).counter.fetch_sub(n, AcqRel) } == n {
            // SAFETY: the count was ours to drop to zero; the owner waits for `core`.
            if unsafe { CoreLatch::set(&(*this).core) } {
                // SAFETY: the setter is a worker of this registry (see SpinLatch::set).
                unsafe { (*registry).wake_specific(owner) };
            }
        }
    }
}

impl Latch for CountLatch {
    unsafe fn set(this: *const Self) {
        // SAFETY: forwarded; one count is ours.
        unsafe { CountLatch::sub(this, 1) }
    }
}

/// A latch a thread outside the pool blocks on (install from outside).
#[derive(Default)]
pub(crate) struct LockLatch {
    done: Mutex<bool>,
    cond: Condvar,
}

impl LockLatch {
    pub(crate) fn new() -> Self {
        Self {
            done: Mutex::new(false),
            cond: Condvar::new(),
        }
    }

    /// Blocks until set.
    pub(crate) fn wait(&self) {
        let mut done = lock(&self.done);
        while !*done {
            done = self.cond.wait(done).unwrap_or_else(|e| e.into_inner());
        }
    }
}

impl Latch for LockLatch {
    unsafe fn set(this: *const Self) {
        // SAFETY: valid on entry. The waiter cannot return before it re-acquires the
        // mutex, which happens after our guard drops: the notification precedes that.
        let this = unsafe { &*this };
        let mut done = lock(&this.done);
        *done = true;
        this.cond.notify_all();
    }
}

// SAFETY: `registry` points to a registry that outlives every scope job (see `set`);
// everything else is atomics.
unsafe impl Send for CountLatch {}
// SAFETY: as above.
unsafe impl Sync for CountLatch {}
