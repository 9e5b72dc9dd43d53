//! hyper 1.x on magpie-async (feature `hyper`): [`HyperExecutor`] spawns hyper's
//! background futures (HTTP/2 needs it), [`HyperIo`] makes async-io's
//! `Async<TcpStream>` a hyper `rt::Read`/`rt::Write`.
//!
//! `HyperIo` is a small adapter of its own rather than smol-hyper's `FuturesIo`, for two
//! costs measured under `magpie bench http` (strace): `FuturesIo` zeroes hyper's whole
//! read buffer (8 KiB and up) before every read, and a read after a short read almost
//! always fails with `EAGAIN` — about two failed `recvfrom` per request. `HyperIo`
//! reads straight into hyper's uninitialised buffer with `recv(2)` and, after a short
//! read, waits for readiness before trying again (tokio's trick). It works with any
//! executor, so the benchmark's smol server uses it too.
//!
//! ```no_run
//! use std::net::TcpListener;
//! use magpie_async::{hyper_rt::HyperIo, Async};
//!
//! let rt = magpie_async::Runtime::new().unwrap();
//! rt.block_on(async {
//!     let listener = Async::<TcpListener>::bind(([127, 0, 0, 1], 0)).unwrap();
//!     let (stream, _) = listener.accept().await.unwrap();
//!     let io = HyperIo::new(stream); // ready for hyper::server::conn::http1::Builder
//!     # drop(io);
//! });
//! ```

use std::future::Future;
use std::io::{self, IoSlice, Write};
use std::net::{Shutdown, TcpStream};
use std::os::fd::AsRawFd;
use std::pin::Pin;
use std::task::{ready, Context, Poll};

use async_io::Async;
use hyper::rt::ReadBufCursor;

use crate::handle::Handle;

/// Spawns hyper's futures onto a magpie-async runtime (detached).
#[derive(Clone, Debug)]
pub struct HyperExecutor {
    handle: Handle,
}

impl HyperExecutor {
    /// An executor spawning onto `handle`'s runtime.
    pub fn new(handle: Handle) -> Self {
        Self { handle }
    }

    /// An executor for the current runtime ([`Handle::current`]).
    ///
    /// # Panics
    /// Outside a runtime.
    pub fn current() -> Self {
        Self::new(Handle::current())
    }
}

impl<F> hyper::rt::Executor<F> for HyperExecutor
where
    F: Future + Send + 'static,
    F::Output: Send + 'static,
{
    fn execute(&self, future: F) {
        drop(self.handle.spawn(future));
    }
}

/// An async-io TCP stream as hyper I/O.
#[derive(Debug)]
pub struct HyperIo {
    io: Async<TcpStream>,
    /// False after a short read or `EAGAIN`: wait for readiness before reading again.
    maybe_readable: bool,
}

impl HyperIo {
    /// Wraps a connected stream.
    pub fn new(io: Async<TcpStream>) -> Self {
        Self {
            io,
            maybe_readable: true,
        }
    }

    /// The stream.
    pub fn get_ref(&self) -> &Async<TcpStream> {
        &self.io
    }

    /// Unwraps the stream.
    pub fn into_inner(self) -> Async<TcpStream> {
        self.io
    }
}

impl hyper::rt::Read for HyperIo {
    fn poll_read(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        mut buf: ReadBufCursor<'_>,
    ) -> Poll<io::Result<()>> {
        loop {
            if self.maybe_readable {
                // SAFETY: only bytes that `recv` wrote are declared filled (`advance(n)`
                // below); the buffer is never read here.
                let dst = unsafe { buf.as_mut() };
                let len = dst.len();
                // SAFETY: `dst` is valid for writes of `len` bytes for the call; the fd
                // stays open while `self.io` lives.
                let n = unsafe {
                    libc::recv(
                        self.io.as_raw_fd(),
                        dst.as_mut_ptr().cast(),
                        len,
                        libc::MSG_NOSIGNAL,
                    )
                };
                if n >= 0 {
                    let n = n as usize;
                    // A short read drained the socket (almost surely): the next read
                    // waits for readiness instead of failing with EAGAIN.
                    if n < len {
                        self.maybe_readable = false;
                    }
                    // SAFETY: `recv` initialised the first `n` bytes.
                    unsafe { buf.advance(n) };
                    return Poll::Ready(Ok(()));
                }
                let err = io::Error::last_os_error();
                match err.kind() {
                    io::ErrorKind::WouldBlock => self.maybe_readable = false,
                    io::ErrorKind::Interrupted => continue,
                    _ => return Poll::Ready(Err(err)),
                }
            }
            ready!(self.io.poll_readable(cx))?;
            self.maybe_readable = true;
        }
    }
}

impl HyperIo {
    fn poll_io<R>(
        &self,
        cx: &mut Context<'_>,
        mut op: impl FnMut(&TcpStream) -> io::Result<R>,
    ) -> Poll<io::Result<R>> {
        loop {
            match op(self.io.get_ref()) {
                Err(e) if e.kind() == io::ErrorKind::WouldBlock => {}
                Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
                result => return Poll::Ready(result),
            }
            ready!(self.io.poll_writable(cx))?;
        }
    }
}

impl hyper::rt::Write for HyperIo {
    fn poll_write(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &[u8],
    ) -> Poll<io::Result<usize>> {
        self.poll_io(cx, |mut s| s.write(buf))
    }

    fn poll_write_vectored(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        bufs: &[IoSlice<'_>],
    ) -> Poll<io::Result<usize>> {
        self.poll_io(cx, |mut s| s.write_vectored(bufs))
    }

    fn is_write_vectored(&self) -> bool {
        true
    }

    fn poll_flush(self: Pin<&mut Self>, _cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Poll::Ready(Ok(())) // TCP sockets have no user-space buffer
    }

    fn poll_shutdown(self: Pin<&mut Self>, _cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Poll::Ready(self.io.get_ref().shutdown(Shutdown::Write))
    }
}
