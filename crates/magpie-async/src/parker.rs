//! How one worker thread blocks, and how it is woken: tokio's parker. A worker about to
//! block first tries to take the I/O driver ([`Reactor::try_lock`]); if it gets it, it
//! blocks in the driver (epoll) — so it both sleeps and waits for I/O — else it blocks
//! on its own condition variable. At most one worker holds the driver at a time.
//!
//! The parker's state word says where its thread is:
//!
//! | state | meaning | `unpark` does |
//! | --- | --- | --- |
//! | `EMPTY` | running (or about to block) | sets `NOTIFIED` |
//! | `PARKED_CONDVAR` | blocked on the condvar | sets `NOTIFIED`, signals the condvar under its mutex |
//! | `PARKED_DRIVER` | blocked in the driver | sets `NOTIFIED`, [`Reactor::wake`] (mio's `Waker`) |
//! | `NOTIFIED` | a wake is pending | nothing more |
//!
//! `unpark` is a `swap(NOTIFIED)`, so it reads exactly the state the parking thread
//! published (the state word is one location: its modification order is total). The
//! parking thread moves `EMPTY -> PARKED_*` with a CAS, so a wake before that CAS makes
//! the CAS fail on `NOTIFIED` and the thread does not block; a wake after it sees
//! `PARKED_*` and signals the primitive the thread blocks on. Both primitives keep a
//! signal sent before the thread blocks: the condvar because the waker signals under
//! the mutex the sleeper holds from its CAS to its `wait`, the driver because mio's
//! waker is an eventfd whose readiness stays until epoll returns it. The loom model in
//! [`crate::park`] checks this together with the idle list.

use std::sync::Arc;
use std::task::Wake;
use std::time::Duration;

use crate::sync::{AtomicUsize, Condvar, Mutex, Ordering};

const EMPTY: usize = 0;
const PARKED_CONDVAR: usize = 1;
const PARKED_DRIVER: usize = 2;
const NOTIFIED: usize = 3;

/// What a parked worker can block in: the I/O driver. One thread at a time holds it.
pub(crate) trait Reactor: Send + Sync {
    /// Proof of holding the driver.
    type Guard<'a>
    where
        Self: 'a;

    /// Takes the driver if nobody holds it.
    fn try_lock(&self) -> Option<Self::Guard<'_>>;

    /// Waits for events (at most `timeout`; `None`: until an event or a [`wake`]) and
    /// dispatches them (wakes the tasks whose sources became ready).
    ///
    /// [`wake`]: Reactor::wake
    fn turn(&self, guard: &mut Self::Guard<'_>, timeout: Option<Duration>);

    /// Makes the current or the next [`turn`](Reactor::turn) return.
    fn wake(&self);
}

/// One worker's parker.
#[derive(Debug)]
pub(crate) struct Parker {
    state: AtomicUsize,
    mutex: Mutex<()>,
    condvar: Condvar,
}

impl Parker {
    pub(crate) fn new() -> Self {
        Self {
            state: AtomicUsize::new(EMPTY),
            mutex: Mutex::new(()),
            condvar: Condvar::new(),
        }
    }

    /// Blocks until [`unpark`](Self::unpark) (or, in the driver, until I/O events were
    /// dispatched). Returns at once if a wake is pending.
    pub(crate) fn park<R: Reactor>(&self, reactor: &R) {
        // SeqCst (as every access to `state`): one total order with `unpark`'s swap; an
        // Acquire would do for the edge it pairs with (the unparker's swap), SeqCst keeps
        // the argument in the module doc a single-location one.
        if self
            .state
            .compare_exchange(NOTIFIED, EMPTY, Ordering::SeqCst, Ordering::SeqCst)
            .is_ok()
        {
            return;
        }
        match reactor.try_lock() {
            Some(mut guard) => self.park_driver(reactor, &mut guard),
            None => self.park_condvar(),
        }
    }

    /// Polls the driver without blocking if nobody holds it (a busy worker's periodic
    /// look at I/O readiness, tokio's `maintenance`). Returns whether it polled.
    pub(crate) fn poll_driver<R: Reactor>(reactor: &R) -> bool {
        match reactor.try_lock() {
            Some(mut guard) => {
                reactor.turn(&mut guard, Some(Duration::ZERO));
                true
            }
            None => false,
        }
    }

    fn park_driver<R: Reactor>(&self, reactor: &R, guard: &mut R::Guard<'_>) {
        // SeqCst: see `park`; pairs with `unpark`'s swap.
        if let Err(actual) =
            self.state
                .compare_exchange(EMPTY, PARKED_DRIVER, Ordering::SeqCst, Ordering::SeqCst)
        {
            debug_assert_eq!(actual, NOTIFIED);
            // SeqCst: consumes the pending wake (pairs with `unpark`'s swap).
            self.state.swap(EMPTY, Ordering::SeqCst);
            return;
        }
        reactor.turn(guard, None);
        // Back to running: NOTIFIED (woken) or still PARKED_DRIVER (I/O events); a wake
        // after this swap finds EMPTY and makes the next `park` return at once.
        // SeqCst: pairs with `unpark`'s swap.
        self.state.swap(EMPTY, Ordering::SeqCst);
    }

    fn park_condvar(&self) {
        let mut lock = self.mutex.lock().unwrap();
        // SeqCst: see `park`; pairs with `unpark`'s swap.
        if let Err(actual) =
            self.state
                .compare_exchange(EMPTY, PARKED_CONDVAR, Ordering::SeqCst, Ordering::SeqCst)
        {
            debug_assert_eq!(actual, NOTIFIED);
            // SeqCst: consumes the pending wake.
            self.state.swap(EMPTY, Ordering::SeqCst);
            return;
        }
        loop {
            lock = self.condvar.wait(lock).unwrap();
            // SeqCst: pairs with `unpark`'s swap; spurious wake-ups keep waiting.
            if self
                .state
                .compare_exchange(NOTIFIED, EMPTY, Ordering::SeqCst, Ordering::SeqCst)
                .is_ok()
            {
                return;
            }
        }
    }

    /// Wakes the thread (or makes its next `park` return at once).
    pub(crate) fn unpark<R: Reactor>(&self, reactor: &R) {
        // SeqCst: pairs with the CASes and swaps in `park*` (see the module doc).
        match self.state.swap(NOTIFIED, Ordering::SeqCst) {
            EMPTY | NOTIFIED => {}
            PARKED_CONDVAR => {
                // Taking the mutex orders this notify after the sleeper's `wait` began
                // (it holds the mutex from its CAS until `wait` releases it).
                drop(self.mutex.lock().unwrap());
                self.condvar.notify_one();
            }
            PARKED_DRIVER => reactor.wake(),
            other => unreachable!("parker state {other}"),
        }
    }
}

/// A worker's parker with the driver it may block in: the `Waker` the worker leaves in
/// the idle list.
pub(crate) struct Unparker<R: Reactor> {
    pub(crate) parker: Parker,
    pub(crate) reactor: Arc<R>,
}

impl<R: Reactor> Unparker<R> {
    pub(crate) fn new(reactor: Arc<R>) -> Self {
        Self {
            parker: Parker::new(),
            reactor,
        }
    }

    /// Parks this worker's thread (see [`Parker::park`]).
    pub(crate) fn park(&self) {
        self.parker.park(&*self.reactor);
    }
}

impl<R: Reactor> Wake for Unparker<R> {
    fn wake(self: Arc<Self>) {
        self.parker.unpark(&*self.reactor);
    }

    fn wake_by_ref(self: &Arc<Self>) {
        self.parker.unpark(&*self.reactor);
    }
}
