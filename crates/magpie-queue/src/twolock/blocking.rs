//! Blocking pops and `close`, for thread-pool use: a consumer that finds the queue empty
//! sleeps on a condvar instead of spinning, and push wakes it.
//!
//! The wake-up must be cheap when nobody waits, so push does no fence and no RMW for it:
//! a consumer registers in `Tail::waiters` *while holding the tail lock*, after checking
//! that the push index has not moved since its failed pop. Push reads `waiters` under the
//! same lock, after writing its index. The tail lock totally orders the two critical
//! sections: either the registration came first and push sees `waiters > 0`, or the push
//! came first and the registering consumer sees the new index and does not sleep. A
//! registered consumer holds the sleepers' mutex from before registering until `wait`
//! atomically releases it, and push takes that mutex to notify, so the notification cannot
//! fall between registration and sleep. Lock order: sleepers' mutex, then tail lock; push
//! releases the tail lock before touching the sleepers' mutex.

use core::time::Duration;
use std::time::Instant;

use super::{Closed, PopLock, PopTimeoutError, TwoLockQueue};
use crate::sync::{Condvar, Mutex, Ordering};

/// Where blocked consumers sleep.
pub(super) struct Sleepers {
    lock: Mutex<()>,
    wake: Condvar,
}

impl Sleepers {
    pub(super) fn new() -> Self {
        Sleepers {
            lock: Mutex::new(()),
            wake: Condvar::new(),
        }
    }

    #[cold]
    pub(super) fn wake_one(&self) {
        let _g = self.lock.lock().unwrap_or_else(|e| e.into_inner());
        self.wake.notify_one();
    }

    #[cold]
    pub(super) fn wake_all(&self) {
        let _g = self.lock.lock().unwrap_or_else(|e| e.into_inner());
        self.wake.notify_all();
    }
}

impl<T, L: PopLock, const NODE_BYTES: usize, P: PopLock> TwoLockQueue<T, L, NODE_BYTES, P> {
    /// Closes the queue: later pushes fail with [`PushError`](super::PushError), items
    /// already in the queue can still be popped, and blocked consumers wake up; once the
    /// queue is drained they get [`Closed`]. Idempotent.
    pub fn close(&self) {
        {
            let _tail = self.tail.lock.lock();
            // Release: pairs with the Acquire load in `is_closed`/`pop_blocking`: every
            // push before the close (all ran under this lock) is visible to a consumer
            // that sees `closed`, so its final `try_pop` finds every item.
            self.tail.closed.store(true, Ordering::Release);
        }
        self.sleepers.wake_all();
    }

    /// Whether [`close`](Self::close) has been called.
    pub fn is_closed(&self) -> bool {
        // Acquire: pairs with the Release store in `close`.
        self.tail.closed.load(Ordering::Acquire)
    }

    /// Removes the oldest item, sleeping up to `timeout` for one to arrive.
    ///
    /// Returns [`PopTimeoutError::Closed`] once the queue is closed *and* empty, and
    /// [`PopTimeoutError::Timeout`] if it stayed empty. Under `--cfg loom` the timeout is
    /// not modelled: the call waits until an item or `close` arrives.
    pub fn pop_timeout(&self, timeout: Duration) -> Result<T, PopTimeoutError> {
        // An overflowing deadline means "forever".
        self.pop_blocking(Instant::now().checked_add(timeout))
    }

    /// Removes the oldest item, sleeping as long as needed; [`Closed`] once the queue is
    /// closed and empty.
    pub fn pop_wait(&self) -> Result<T, Closed> {
        self.pop_blocking(None).map_err(|_| Closed)
    }

    fn pop_blocking(&self, deadline: Option<Instant>) -> Result<T, PopTimeoutError> {
        loop {
            let seen_tail = match self.pop_or_tail() {
                Ok(value) => return Ok(value),
                Err(t) => t,
            };
            if self.is_closed() {
                // Everything pushed before `close` is visible now (see `close`).
                return self.try_pop().ok_or(PopTimeoutError::Closed);
            }
            let timeout = match deadline {
                None => None,
                Some(deadline) => match deadline.checked_duration_since(Instant::now()) {
                    Some(left) if !left.is_zero() => Some(left),
                    _ => return Err(PopTimeoutError::Timeout),
                },
            };
            self.sleep(seen_tail, timeout);
            // Woken, timed out or spuriously: retry the pop first, so a wake-up meant for
            // us never strands an item.
        }
    }

    /// Sleeps until notified or `timeout`, unless the push index moved past `seen_tail`
    /// or the queue closed (see the module docs for why no wake-up is lost).
    #[cold]
    fn sleep(&self, seen_tail: usize, timeout: Option<Duration>) {
        let sleepers = self.sleepers.lock.lock().unwrap_or_else(|e| e.into_inner());
        {
            let _tail = self.tail.lock.lock();
            // Relaxed: `closed` is written only under the tail lock, which we hold.
            let closed = self.tail.closed.load(Ordering::Relaxed);
            // Relaxed: the producers' own push index is written only under the tail lock.
            if closed || self.tail.index.load(Ordering::Relaxed) != seen_tail {
                return;
            }
            // Relaxed: read by push under the tail lock, which orders it (module docs).
            self.tail.waiters.fetch_add(1, Ordering::Relaxed);
        }
        // Poisoning is ignored: the mutex guards `()`.
        let sleepers = match timeout {
            None => self
                .sleepers
                .wake
                .wait(sleepers)
                .unwrap_or_else(|e| e.into_inner()),
            Some(t) => match self.sleepers.wake.wait_timeout(sleepers, t) {
                Ok((guard, _)) => guard,
                Err(e) => e.into_inner().0,
            },
        };
        // Relaxed: a push that reads a stale, too-high count only wakes needlessly; a
        // count can never be too low for a registered sleeper (each sleeper decrements
        // only its own registration, after it stopped waiting).
        self.tail.waiters.fetch_sub(1, Ordering::Relaxed);
        drop(sleepers);
    }
}
