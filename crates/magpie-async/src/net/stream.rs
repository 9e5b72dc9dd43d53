//! [`TcpStream`]: a mio TCP stream registered with the runtime's driver.

use std::io::{self, IoSlice, Read, Write};
use std::mem::MaybeUninit;
use std::net::{Shutdown, SocketAddr, ToSocketAddrs};
use std::os::fd::{AsFd, AsRawFd, BorrowedFd, RawFd};
use std::pin::Pin;
use std::sync::Arc;
use std::task::{ready, Context, Poll};

use futures_lite::io::{AsyncRead, AsyncWrite};
use mio::Interest;

use crate::driver::scheduled_io::{Direction, READABLE, WRITABLE};
use crate::driver::{Driver, Registration};

/// An asynchronous TCP stream on the current runtime's I/O driver: registered once,
/// edge-triggered; reads and writes go straight to the socket while it is ready and
/// wait for the driver only after `WouldBlock`. Implements `futures-io`'s
/// `AsyncRead`/`AsyncWrite`, also on `&TcpStream` (one task may read while another
/// writes), so `futures_lite::AsyncReadExt` etc. work on it. One task at a time per
/// direction, as tokio's `poll_read`/`poll_write`: a second task reading the same
/// stream while the first waits replaces the first one's waker, which may then never
/// wake.
///
/// ```
/// use futures_lite::{AsyncReadExt, AsyncWriteExt};
/// use magpie_async::net::{TcpListener, TcpStream};
///
/// let rt = magpie_async::Runtime::new().unwrap();
/// rt.block_on(async {
///     let listener = TcpListener::bind("127.0.0.1:0").unwrap();
///     let addr = listener.local_addr().unwrap();
///     let server = magpie_async::spawn(async move {
///         let (mut s, _) = listener.accept().await.unwrap();
///         let mut buf = [0; 4];
///         s.read_exact(&mut buf).await.unwrap();
///         s.write_all(&buf).await.unwrap();
///     });
///     let mut c = TcpStream::connect(addr).await.unwrap();
///     c.write_all(b"ping").await.unwrap();
///     let mut buf = [0; 4];
///     c.read_exact(&mut buf).await.unwrap();
///     assert_eq!(&buf, b"ping");
///     server.await.unwrap();
/// });
/// ```
#[derive(Debug)]
pub struct TcpStream {
    // Field order: `registration` must deregister (in `Drop`) before `io` closes.
    registration: Registration,
    io: mio::net::TcpStream,
}

impl TcpStream {
    /// Registers a connected stream (accepted elsewhere) with the current runtime;
    /// makes it non-blocking.
    ///
    /// # Errors
    /// Outside a runtime, or if registering fails.
    pub fn from_std(stream: std::net::TcpStream) -> io::Result<Self> {
        stream.set_nonblocking(true)?;
        Self::register(mio::net::TcpStream::from_std(stream), READABLE | WRITABLE)
    }

    pub(crate) fn register(io: mio::net::TcpStream, initial: usize) -> io::Result<Self> {
        Self::register_with(Driver::current()?, io, initial)
    }

    /// Registers `io` with `driver`.
    pub(crate) fn register_with(
        driver: Arc<Driver>,
        mut io: mio::net::TcpStream,
        initial: usize,
    ) -> io::Result<Self> {
        let registration = Registration::new(
            driver,
            &mut io,
            Interest::READABLE | Interest::WRITABLE,
            initial,
        )?;
        Ok(Self { registration, io })
    }

    /// Connects to the first address of `addr` that accepts. A host name is resolved
    /// by `ToSocketAddrs`, synchronously on the calling worker (std's resolver):
    /// resolve it in [`spawn_blocking`](crate::spawn_blocking) first, or pass a
    /// `SocketAddr`, where a slow lookup must not hold a worker.
    pub async fn connect(addr: impl ToSocketAddrs) -> io::Result<Self> {
        let mut last = None;
        for addr in addr.to_socket_addrs()? {
            match Self::connect_one(addr).await {
                Ok(stream) => return Ok(stream),
                Err(e) => last = Some(e),
            }
        }
        Err(last.unwrap_or_else(|| io::Error::new(io::ErrorKind::InvalidInput, "no address")))
    }

    async fn connect_one(addr: SocketAddr) -> io::Result<Self> {
        // Not ready for anything until the connect completes (a writable event).
        let stream = Self::register(mio::net::TcpStream::connect(addr)?, 0)?;
        std::future::poll_fn(|cx| stream.registration.poll_ready(cx, Direction::Write)).await?;
        if let Some(e) = stream.io.take_error()? {
            return Err(e);
        }
        stream.io.peer_addr()?; // NotConnected if the connect did not complete
        Ok(stream)
    }

    /// The remote address.
    pub fn peer_addr(&self) -> io::Result<SocketAddr> {
        self.io.peer_addr()
    }

    /// The local address.
    pub fn local_addr(&self) -> io::Result<SocketAddr> {
        self.io.local_addr()
    }

    /// Sets `TCP_NODELAY`.
    pub fn set_nodelay(&self, nodelay: bool) -> io::Result<()> {
        self.io.set_nodelay(nodelay)
    }

    /// Shuts down the read, write or both halves.
    pub fn shutdown(&self, how: Shutdown) -> io::Result<()> {
        self.io.shutdown(how)
    }

    /// Reads into `buf` once it is readable. A short read means the socket is drained
    /// (almost surely): the next read waits for the driver instead of failing with
    /// `EAGAIN` (tokio does the same).
    pub fn poll_read_slice(&self, cx: &mut Context<'_>, buf: &mut [u8]) -> Poll<io::Result<usize>> {
        self.poll_read_with(cx, buf.len(), |s| (&s.io).read(buf))
    }

    /// Like [`poll_read_slice`](Self::poll_read_slice) into uninitialised memory with
    /// `recv(2)` (hyper's read buffer need not be zeroed first). Returns how many bytes
    /// at the start of `buf` are now initialised.
    pub fn poll_read_uninit(
        &self,
        cx: &mut Context<'_>,
        buf: &mut [MaybeUninit<u8>],
    ) -> Poll<io::Result<usize>> {
        let len = buf.len();
        let ptr = buf.as_mut_ptr();
        self.poll_read_with(cx, len, |s| {
            // SAFETY: `ptr` is valid for writes of `len` bytes for the call (it comes from
            // `buf`, borrowed for all of this function); the fd is open while `s` lives.
            let n = unsafe { libc::recv(s.io.as_raw_fd(), ptr.cast(), len, 0) };
            if n < 0 {
                Err(io::Error::last_os_error())
            } else {
                Ok(n as usize)
            }
        })
    }

    fn poll_read_with(
        &self,
        cx: &mut Context<'_>,
        len: usize,
        mut op: impl FnMut(&Self) -> io::Result<usize>,
    ) -> Poll<io::Result<usize>> {
        loop {
            let event = ready!(self.registration.poll_ready(cx, Direction::Read))?;
            match op(self) {
                Ok(n) => {
                    if n > 0 && n < len {
                        self.registration.clear_readiness(event, Direction::Read);
                    }
                    return Poll::Ready(Ok(n));
                }
                Err(e) if e.kind() == io::ErrorKind::WouldBlock => {
                    self.registration.clear_readiness(event, Direction::Read);
                }
                Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
                Err(e) => return Poll::Ready(Err(e)),
            }
        }
    }

    /// Writes from `buf` once writable.
    pub fn poll_write_slice(&self, cx: &mut Context<'_>, buf: &[u8]) -> Poll<io::Result<usize>> {
        self.registration
            .poll_io(cx, Direction::Write, || (&self.io).write(buf))
    }

    /// Writes from `bufs` (one `writev`) once writable.
    pub fn poll_write_slices(
        &self,
        cx: &mut Context<'_>,
        bufs: &[IoSlice<'_>],
    ) -> Poll<io::Result<usize>> {
        self.registration
            .poll_io(cx, Direction::Write, || (&self.io).write_vectored(bufs))
    }
}

impl Drop for TcpStream {
    fn drop(&mut self) {
        // Out of the epoll set before `io` closes the fd (then `registration` drops).
        let _ = self.registration.deregister(&mut self.io);
    }
}

impl AsRawFd for TcpStream {
    fn as_raw_fd(&self) -> RawFd {
        self.io.as_raw_fd()
    }
}

impl AsFd for TcpStream {
    fn as_fd(&self) -> BorrowedFd<'_> {
        self.io.as_fd()
    }
}

impl AsyncRead for TcpStream {
    fn poll_read(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &mut [u8],
    ) -> Poll<io::Result<usize>> {
        self.poll_read_slice(cx, buf)
    }
}

impl AsyncWrite for TcpStream {
    fn poll_write(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &[u8],
    ) -> Poll<io::Result<usize>> {
        self.poll_write_slice(cx, buf)
    }

    fn poll_write_vectored(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        bufs: &[IoSlice<'_>],
    ) -> Poll<io::Result<usize>> {
        self.poll_write_slices(cx, bufs)
    }

    fn poll_flush(self: Pin<&mut Self>, _cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Poll::Ready(Ok(())) // TCP sockets have no user-space buffer
    }

    fn poll_close(self: Pin<&mut Self>, _cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Poll::Ready(self.io.shutdown(Shutdown::Write))
    }
}

impl AsyncRead for &TcpStream {
    fn poll_read(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &mut [u8],
    ) -> Poll<io::Result<usize>> {
        self.poll_read_slice(cx, buf)
    }
}

impl AsyncWrite for &TcpStream {
    fn poll_write(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &[u8],
    ) -> Poll<io::Result<usize>> {
        self.poll_write_slice(cx, buf)
    }

    fn poll_write_vectored(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        bufs: &[IoSlice<'_>],
    ) -> Poll<io::Result<usize>> {
        self.poll_write_slices(cx, bufs)
    }

    fn poll_flush(self: Pin<&mut Self>, _cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Poll::Ready(Ok(()))
    }

    fn poll_close(self: Pin<&mut Self>, _cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Poll::Ready(self.io.shutdown(Shutdown::Write))
    }
}
