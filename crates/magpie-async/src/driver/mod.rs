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
use std::sync::{Arc, Mutex, MutexGuard, TryLockError};
use std::task::Waker;
use std::time::Duration;

use mio::{Events, Poll, Token};
use slab::Slab;

pub(crate) use registration::Registration;
use scheduled_io::{ScheduledIo, ERROR, READABLE, READ_CLOSED, WRITABLE, WRITE_CLOSED};

/// The token of the driver's own `mio::Waker`.
const WAKE_TOKEN: Token = Token(usize::MAX);
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
    /// Registered sources by token.
    sources: Mutex<Slab<Arc<ScheduledIo>>>,
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
        })
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
                if event.token() == WAKE_TOKEN {
                    continue;
                }
                // A token may name a source deregistered (and its slot reused) since
                // `epoll_wait` returned: the readiness is then spurious, which costs
                // the new source one `WouldBlock`.
                if let Some(io) = sources.get(event.token().0) {
                    io.set_readiness(bits(event), wake);
                }
            }
        }
        // Outside the sources lock: a waker schedules its task (on this worker: into its
        // local queue).
        for waker in wake.drain(..) {
            waker.wake();
        }
    }

    fn wake(&self) {
        // An eventfd write; it fails only if the eventfd is gone (runtime torn down).
        let _ = self.waker.wake();
    }
}
