//! [`TcpListener`]: a mio TCP listener registered with the runtime's driver.

use std::io;
use std::net::{SocketAddr, ToSocketAddrs};
use std::os::fd::{AsFd, AsRawFd, BorrowedFd, RawFd};
use std::task::{ready, Context, Poll};

use mio::Interest;

use super::TcpStream;
use crate::driver::scheduled_io::{Direction, READABLE, WRITABLE};
use crate::driver::{Driver, Registration};

/// An asynchronous TCP listener on the current runtime's I/O driver (registered once,
/// edge-triggered). Create it inside the runtime (a task or `block_on`).
#[derive(Debug)]
pub struct TcpListener {
    // Field order: `registration` must deregister (in `Drop`) before `io` closes.
    registration: Registration,
    io: mio::net::TcpListener,
}

impl TcpListener {
    /// Binds to the first address of `addr` that works (`SO_REUSEADDR`, mio's backlog).
    /// A host name is resolved synchronously, as in [`TcpStream::connect`].
    ///
    /// # Errors
    /// Outside a runtime, or if no address can be bound.
    pub fn bind(addr: impl ToSocketAddrs) -> io::Result<Self> {
        let mut last = None;
        for addr in addr.to_socket_addrs()? {
            match mio::net::TcpListener::bind(addr) {
                Ok(io) => return Self::register(io),
                Err(e) => last = Some(e),
            }
        }
        Err(last.unwrap_or_else(|| io::Error::new(io::ErrorKind::InvalidInput, "no address")))
    }

    /// Registers a bound listener with the current runtime; makes it non-blocking.
    pub fn from_std(listener: std::net::TcpListener) -> io::Result<Self> {
        listener.set_nonblocking(true)?;
        Self::register(mio::net::TcpListener::from_std(listener))
    }

    fn register(mut io: mio::net::TcpListener) -> io::Result<Self> {
        // Assumed ready: the first accept tries the syscall (a backlog may be waiting).
        let registration =
            Registration::new(Driver::current()?, &mut io, Interest::READABLE, READABLE)?;
        Ok(Self { registration, io })
    }

    /// The bound address.
    pub fn local_addr(&self) -> io::Result<SocketAddr> {
        self.io.local_addr()
    }

    /// Accepts a connection, registered with the same runtime. Any number of tasks may
    /// wait in `accept` on one listener at once (a listener shared through an `Arc`):
    /// each is woken when a connection arrives.
    pub async fn accept(&self) -> io::Result<(TcpStream, SocketAddr)> {
        let mut waiter = Waiter {
            registration: &self.registration,
            key: None,
        };
        std::future::poll_fn(|cx| loop {
            let event =
                ready!(self
                    .registration
                    .poll_ready_shared(cx, Direction::Read, &mut waiter.key))?;
            match self.io.accept() {
                Err(e) if e.kind() == io::ErrorKind::WouldBlock => {
                    self.registration.clear_readiness(event, Direction::Read);
                }
                Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
                accepted => return Poll::Ready(self.register_accepted(accepted)),
            }
        })
        .await
    }

    /// Polls for a connection. One task at a time: a poll from another task replaces the
    /// waker of the previous one (as tokio's `poll_accept`); tasks that wait together
    /// use [`accept`](Self::accept).
    pub fn poll_accept(&self, cx: &mut Context<'_>) -> Poll<io::Result<(TcpStream, SocketAddr)>> {
        self.registration
            .poll_io(cx, Direction::Read, || self.io.accept())
            .map(|accepted| self.register_accepted(accepted))
    }

    fn register_accepted(
        &self,
        accepted: io::Result<(mio::net::TcpStream, SocketAddr)>,
    ) -> io::Result<(TcpStream, SocketAddr)> {
        let (io, addr) = accepted?;
        // A fresh connection's request usually is already there: try reading before
        // waiting for the registration's first event. On the listener's runtime,
        // wherever `accept` is polled.
        let driver = self.registration.driver().clone();
        Ok((
            TcpStream::register_with(driver, io, READABLE | WRITABLE)?,
            addr,
        ))
    }
}

/// An `accept`'s place among the listener's waiters, freed when the `accept` ends or
/// is dropped.
struct Waiter<'a> {
    registration: &'a Registration,
    key: Option<usize>,
}

impl Drop for Waiter<'_> {
    fn drop(&mut self) {
        if let Some(key) = self.key {
            self.registration.remove_waiter(Direction::Read, key);
        }
    }
}

impl Drop for TcpListener {
    fn drop(&mut self) {
        // Out of the epoll set before `io` closes the fd.
        let _ = self.registration.deregister(&mut self.io);
    }
}

impl AsRawFd for TcpListener {
    fn as_raw_fd(&self) -> RawFd {
        self.io.as_raw_fd()
    }
}

impl AsFd for TcpListener {
    fn as_fd(&self) -> BorrowedFd<'_> {
        self.io.as_fd()
    }
}
