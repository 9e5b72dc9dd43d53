//! [`HyperAsyncIo`]: async-io's `Async<TcpStream>` as hyper I/O, for executors other
//! than magpie-async (the benchmark's smol server; magpie-async itself uses
//! [`HyperIo`](super::HyperIo) over its own driver).
//!
//! A small adapter of its own rather than smol-hyper's `FuturesIo`, for two costs
//! measured under `magpie bench http` (strace): `FuturesIo` zeroes hyper's whole read
//! buffer (8 KiB and up) before every read, and a read after a short read almost always
//! fails with `EAGAIN` — about two failed `recvfrom` per request. `HyperAsyncIo` reads
//! straight into hyper's uninitialised buffer with `recv(2)` and, after a short read,
//! waits for readiness before trying again (tokio's trick).

use std::io::{self, IoSlice, Write};
use std::net::{Shutdown, TcpStream};
use std::os::fd::AsRawFd;
use std::pin::Pin;
use std::task::{ready, Context, Poll};

use async_io::Async;
use hyper::rt::ReadBufCursor;

/// An async-io TCP stream as hyper I/O.
#[derive(Debug)]
pub struct HyperAsyncIo {
    io: Async<TcpStream>,
    /// False after a short read or `EAGAIN`: wait for readiness before reading again.
    maybe_readable: bool,
}

impl HyperAsyncIo {
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

impl hyper::rt::Read for HyperAsyncIo {
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

impl HyperAsyncIo {
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

impl hyper::rt::Write for HyperAsyncIo {
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
