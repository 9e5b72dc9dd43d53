//! The I/O driver: one `mio::Poll` (epoll) per runtime, polled by the workers
//! themselves — tokio's design. There is no reactor thread: a worker about to park takes
//! the driver if nobody holds it and blocks in `epoll_wait` instead of on its condvar
//! (see [`crate::parker`]); a busy worker polls it without blocking every
//! [`EVENT_INTERVAL`](crate::worker::EVENT_INTERVAL) tasks. A wake for the worker
//! blocked in the driver goes through a `mio::Waker` (an eventfd).
//!
//! Every source is registered once, edge-triggered, for all the interest it will ever
//! need ([`Registration`]); the driver turns its events into readiness bits and wakes
//! the waiting tasks ([`scheduled_io`]). A socket that stays readable is read again
//! without any epoll call; there is no re-arming per wait (async-io's one-shot
//! registrations cost an `epoll_ctl` per wait).
//!
//! Timers are not here: [`crate::Timer`] is async-io's, driven by async-io's own thread
//! (or a `block_on` caller), which is never on the sockets' path.

mod registration;
pub(crate) mod scheduled_io;

use std::io;
use std::panic::{self, AssertUnwindSafe};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, MutexGuard, TryLockError};
use std::task::Waker;
use std::time::Duration;

use mio::{Events, Poll, Token};
use slab::Slab;

pub(crate) use registration::Registration;
use scheduled_io::{ScheduledIo, ERROR, READABLE, READ_CLOSED, SHUT_DOWN, WRITABLE, WRITE_CLOSED};

/// The token of the driver's own `mio::Waker` (its top bit is never set in a source's).
const WAKE_TOKEN: Token = Token(usize::MAX);
/// A source's token: its slab key in the low half, the number of its registration in
/// the rest (as tokio). A slab slot is reused as soon as its source is dropped, possibly
/// between `epoll_wait`'s return and the dispatch of an event for the old source: the
/// registration number tells the two apart. (Applied to the new source, a stale
/// `READ_CLOSED` would never be cleared and its reads would spin on `WouldBlock`.)
const KEY_BITS: u32 = usize::BITS / 2;
const KEY_MASK: usize = (1 << KEY_BITS) - 1;
const GENERATION_MASK: usize = (1 << (usize::BITS - KEY_BITS - 1)) - 1;
/// Events taken per `epoll_wait` (tokio: 1024).
const EVENTS: usize = 1024;

/// What the worker holding the driver owns.
#[derive(Debug)]
pub(crate) struct Core {
    poll: Poll,
    events: Events,
    wake: Vec<Waker>,
}

/// One runtime's I/O driver.
#[derive(Debug)]
pub(crate) struct Driver {
    core: Mutex<Core>,
    /// A clone of the poll's registry: registering does not need the core.
    registry: mio::Registry,
    waker: mio::Waker,
    /// Registered sources by slab key (a token's low half).
    sources: Mutex<Slab<Arc<ScheduledIo>>>,
    /// Registrations so far (the high half of a token).
    registrations: AtomicUsize,
    /// Set, under the `sources` lock, when the runtime has stopped: nobody polls the
    /// driver any more.
    shut_down: AtomicBool,
}

impl Driver {
    pub(crate) fn new() -> io::Result<Self> {
        let poll = Poll::new()?;
        let registry = poll.registry().try_clone()?;
        let waker = mio::Waker::new(poll.registry(), WAKE_TOKEN)?;
        Ok(Self {
            core: Mutex::new(Core {
                poll,
                events: Events::with_capacity(EVENTS),
                wake: Vec::new(),
            }),
            registry,
            waker,
            sources: Mutex::new(Slab::new()),
            registrations: AtomicUsize::new(0),
            shut_down: AtomicBool::new(false),
        })
    }

    /// Adds a source's state under a new token; an error once the runtime has stopped.
    fn insert(&self, initial: usize) -> io::Result<(Arc<ScheduledIo>, usize)> {
        let mut sources = self.sources();
        // Relaxed: written and read under the `sources` lock.
        if self.shut_down.load(Ordering::Relaxed) {
            return Err(shut_down_error());
        }
        let entry = sources.vacant_entry();
        let key = entry.key();
        if key > KEY_MASK {
            return Err(io::Error::other("too many I/O sources on one runtime"));
        }
        // Relaxed: a counter; uniqueness comes from the RMW.
        let generation = self.registrations.fetch_add(1, Ordering::Relaxed) & GENERATION_MASK;
        let token = key | (generation << KEY_BITS);
        let io = Arc::new(ScheduledIo::new(initial, token));
        entry.insert(io.clone());
        Ok((io, token))
    }

    /// Removes the source registered under `token`.
    fn remove(&self, token: usize) -> Option<Arc<ScheduledIo>> {
        let mut sources = self.sources();
        let key = token & KEY_MASK;
        if sources.get(key)?.token() != token {
            return None;
        }
        sources.try_remove(key)
    }

    /// The runtime has stopped: every source's waiters wake and get an error, and so
    /// does any later wait or registration (instead of waiting for a driver nobody
    /// polls).
    pub(crate) fn shut_down(&self) {
        let mut wake = Vec::new();
        {
            let sources = self.sources();
            self.shut_down.store(true, Ordering::Relaxed);
            for (_, io) in sources.iter() {
                io.set_readiness(SHUT_DOWN, &mut wake);
            }
        }
        wake_all(wake.drain(..));
    }

    /// Applies an event for `token` to its source, if that source is still registered.
    fn dispatch(
        &self,
        sources: &Slab<Arc<ScheduledIo>>,
        token: usize,
        bits: usize,
        wake: &mut Vec<Waker>,
    ) {
        match sources.get(token & KEY_MASK) {
            Some(io) if io.token() == token => io.set_readiness(bits, wake),
            _ => {} // deregistered since `epoll_wait` returned (slot maybe reused)
        }
    }

    /// The current runtime's driver (for `net`'s constructors).
    pub(crate) fn current() -> io::Result<Arc<Driver>> {
        crate::context::handle()
            .and_then(|h| h.shared().driver.clone())
            .ok_or_else(|| io::Error::other("magpie-async I/O used outside a runtime"))
    }

    fn sources(&self) -> MutexGuard<'_, Slab<Arc<ScheduledIo>>> {
        self.sources.lock().unwrap_or_else(|e| e.into_inner())
    }
}

/// The error of I/O on a runtime that has stopped.
pub(crate) fn shut_down_error() -> io::Error {
    io::Error::other("the runtime of this I/O source has shut down")
}

/// Wakes `wakers`. A waker is user code when a foreign future polled our I/O with its
/// own waker: its panic is reported (by the panic hook) and goes no further, since it
/// would otherwise unwind through the worker that holds the driver and stop it.
fn wake_all(wakers: impl Iterator<Item = Waker>) {
    for waker in wakers {
        let _ = panic::catch_unwind(AssertUnwindSafe(|| waker.wake()));
    }
}

/// The readiness bits of one mio event.
fn bits(event: &mio::event::Event) -> usize {
    let mut bits = 0;
    if event.is_readable() {
        bits |= READABLE;
    }
    if event.is_writable() {
        bits |= WRITABLE;
    }
    if event.is_read_closed() {
        bits |= READ_CLOSED;
    }
    if event.is_write_closed() {
        bits |= WRITE_CLOSED;
    }
    if event.is_error() {
        bits |= ERROR;
    }
    bits
}

impl crate::parker::Reactor for Driver {
    type Guard<'a> = MutexGuard<'a, Core>;

    fn try_lock(&self) -> Option<MutexGuard<'_, Core>> {
        match self.core.try_lock() {
            Ok(guard) => Some(guard),
            // The core holds no invariant a panic could break (a waker panicking during
            // dispatch leaves at worst undelivered wakers, dropped below).
            Err(TryLockError::Poisoned(e)) => Some(e.into_inner()),
            Err(TryLockError::WouldBlock) => None,
        }
    }

    fn turn(&self, core: &mut MutexGuard<'_, Core>, timeout: Option<Duration>) {
        let Core { poll, events, wake } = &mut **core;
        wake.clear();
        if let Err(e) = poll.poll(events, timeout) {
            // EINTR: a spurious return, the caller re-checks its queues. Anything else
            // (EBADF, ENOMEM) is not recoverable here; the worker goes on without I/O
            // this turn rather than spinning in a panic loop.
            debug_assert_eq!(e.kind(), io::ErrorKind::Interrupted, "epoll_wait: {e}");
            return;
        }
        {
            let sources = self.sources();
            for event in events.iter() {
                if event.token() != WAKE_TOKEN {
                    self.dispatch(&sources, event.token().0, bits(event), wake);
                }
            }
        }
        // Outside the sources lock: a waker schedules its task (on this worker: into its
        // local queue).
        wake_all(wake.drain(..));
    }

    fn wake(&self) {
        // An eventfd write; it fails only if the eventfd is gone (runtime torn down).
        let _ = self.waker.wake();
    }
}

#[cfg(all(test, not(magpie_async_loom)))]
mod tests {
    use std::task::{Context, Wake};

    use super::scheduled_io::Direction;
    use super::*;

    struct Noop;
    impl Wake for Noop {
        fn wake(self: Arc<Self>) {}
    }

    fn readable(io: &ScheduledIo) -> bool {
        let waker = Waker::from(Arc::new(Noop));
        io.poll_ready(&mut Context::from_waker(&waker), Direction::Read)
            .is_ready()
    }

    #[test]
    fn an_event_for_a_dropped_source_does_not_reach_the_one_in_its_slot() {
        let driver = Driver::new().unwrap();
        let (_old, old_token) = driver.insert(0).unwrap();
        drop(driver.remove(old_token));
        let (new, new_token) = driver.insert(0).unwrap();
        assert_eq!(
            new_token & KEY_MASK,
            old_token & KEY_MASK,
            "the slot is reused"
        );
        assert_ne!(new_token, old_token);
        // The old source's event, dispatched after the slot was reused: a stale
        // `READ_CLOSED` would never be cleared from the new source.
        let mut wake = Vec::new();
        driver.dispatch(
            &driver.sources(),
            old_token,
            READABLE | READ_CLOSED,
            &mut wake,
        );
        assert!(!readable(&new));
        assert!(
            driver.remove(old_token).is_none(),
            "the old token removes nothing"
        );
        driver.dispatch(&driver.sources(), new_token, READABLE, &mut wake);
        assert!(readable(&new));
        assert_ne!(new_token, WAKE_TOKEN.0);
    }

    #[test]
    fn a_shut_down_driver_wakes_its_sources_and_refuses_new_ones() {
        let driver = Driver::new().unwrap();
        let (io, _) = driver.insert(0).unwrap();
        assert!(!readable(&io));
        driver.shut_down();
        assert!(readable(&io), "a waiter wakes up (and gets an error)");
        assert!(driver.insert(0).is_err());
    }
}
