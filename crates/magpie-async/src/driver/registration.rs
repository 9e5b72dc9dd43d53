//! A source's registration with the driver: registered once (edge-triggered, for every
//! interest it will need), readiness polled through its [`ScheduledIo`], deregistered
//! by its owner before the file descriptor closes.

use std::io;
use std::sync::Arc;
use std::task::{ready, Context, Poll};

use mio::{Interest, Token};

use super::scheduled_io::{Direction, ReadyEvent, ScheduledIo};
use super::Driver;

/// A registered source's handle on the driver.
#[derive(Debug)]
pub(crate) struct Registration {
    driver: Arc<Driver>,
    io: Arc<ScheduledIo>,
    token: usize,
}

impl Registration {
    /// Registers `source` for `interest`, assuming `initial` readiness until a syscall
    /// says `WouldBlock` (saves a wait for the registration's first event when the
    /// socket is already readable, as an accepted HTTP connection usually is).
    pub(crate) fn new(
        driver: Arc<Driver>,
        source: &mut impl mio::event::Source,
        interest: Interest,
        initial: usize,
    ) -> io::Result<Self> {
        let (io, token) = driver.insert(initial)?;
        if let Err(e) = driver.registry.register(source, Token(token), interest) {
            driver.remove(token);
            return Err(e);
        }
        Ok(Self { driver, io, token })
    }

    /// The driver this source is registered with.
    pub(crate) fn driver(&self) -> &Arc<Driver> {
        &self.driver
    }

    /// Ready in `direction`, or `Pending` until the driver sees an event for it; an
    /// error once the runtime has stopped.
    pub(crate) fn poll_ready(
        &self,
        cx: &mut Context<'_>,
        direction: Direction,
    ) -> Poll<io::Result<ReadyEvent>> {
        let event = ready!(self.io.poll_ready(cx, direction));
        if event.shut_down() {
            return Poll::Ready(Err(super::shut_down_error()));
        }
        Poll::Ready(Ok(event))
    }

    /// Like [`poll_ready`](Self::poll_ready) for a future that may wait in `direction`
    /// together with others (see [`ScheduledIo::poll_ready_shared`]); it calls
    /// [`remove_waiter`](Self::remove_waiter) with its `key` when dropped.
    pub(crate) fn poll_ready_shared(
        &self,
        cx: &mut Context<'_>,
        direction: Direction,
        key: &mut Option<usize>,
    ) -> Poll<io::Result<ReadyEvent>> {
        let event = ready!(self.io.poll_ready_shared(cx, direction, key));
        if event.shut_down() {
            return Poll::Ready(Err(super::shut_down_error()));
        }
        Poll::Ready(Ok(event))
    }

    /// Frees the waiter `key` of a future that used
    /// [`poll_ready_shared`](Self::poll_ready_shared).
    pub(crate) fn remove_waiter(&self, direction: Direction, key: usize) {
        self.io.remove_waiter(direction, key);
    }

    /// `op` said `WouldBlock` after `event`: wait for the next edge.
    pub(crate) fn clear_readiness(&self, event: ReadyEvent, direction: Direction) {
        self.io.clear_readiness(event, direction);
    }

    /// Runs the non-blocking `op` when ready in `direction`, waiting again on
    /// `WouldBlock` and retrying on `EINTR`.
    pub(crate) fn poll_io<R>(
        &self,
        cx: &mut Context<'_>,
        direction: Direction,
        mut op: impl FnMut() -> io::Result<R>,
    ) -> Poll<io::Result<R>> {
        loop {
            let event = ready!(self.poll_ready(cx, direction))?;
            match op() {
                Err(e) if e.kind() == io::ErrorKind::WouldBlock => {
                    self.clear_readiness(event, direction);
                }
                Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
                result => return Poll::Ready(result),
            }
        }
    }

    /// Takes `source` out of the epoll set; its owner calls this before closing it.
    pub(crate) fn deregister(&self, source: &mut impl mio::event::Source) -> io::Result<()> {
        self.driver.registry.deregister(source)
    }
}

impl Drop for Registration {
    fn drop(&mut self) {
        // The slot may be reused by the next registration, under another token (see
        // `KEY_BITS`).
        let io = self.driver.remove(self.token);
        drop(io); // outside the lock: may drop the tasks' wakers
    }
}
