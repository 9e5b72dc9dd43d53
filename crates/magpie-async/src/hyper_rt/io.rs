//! [`HyperIo`]: a [`TcpStream`] as hyper I/O. Reads go straight into hyper's
//! uninitialised buffer (`recv(2)`, no zeroing); a short read makes the next read wait
//! for the driver instead of failing with `EAGAIN` (both in `TcpStream`).

use std::io::{self, IoSlice};
use std::net::Shutdown;
use std::pin::Pin;
use std::task::{ready, Context, Poll};

use hyper::rt::ReadBufCursor;

use crate::net::TcpStream;

/// A magpie-async TCP stream as hyper I/O.
#[derive(Debug)]
pub struct HyperIo {
    io: TcpStream,
}

impl HyperIo {
    /// Wraps a connected stream.
    pub fn new(io: TcpStream) -> Self {
        Self { io }
    }

    /// The stream.
    pub fn get_ref(&self) -> &TcpStream {
        &self.io
    }

    /// Unwraps the stream.
    pub fn into_inner(self) -> TcpStream {
        self.io
    }
}

impl hyper::rt::Read for HyperIo {
    fn poll_read(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        mut buf: ReadBufCursor<'_>,
    ) -> Poll<io::Result<()>> {
        // SAFETY: only the bytes `recv` wrote are declared filled (`advance(n)` below);
        // the buffer is never read here.
        let dst = unsafe { buf.as_mut() };
        let n = ready!(self.io.poll_read_uninit(cx, dst))?;
        // SAFETY: `poll_read_uninit` initialised the first `n` bytes.
        unsafe { buf.advance(n) };
        Poll::Ready(Ok(()))
    }
}

impl hyper::rt::Write for HyperIo {
    fn poll_write(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &[u8],
    ) -> Poll<io::Result<usize>> {
        self.io.poll_write_slice(cx, buf)
    }

    fn poll_write_vectored(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        bufs: &[IoSlice<'_>],
    ) -> Poll<io::Result<usize>> {
        self.io.poll_write_slices(cx, bufs)
    }

    fn is_write_vectored(&self) -> bool {
        true
    }

    fn poll_flush(self: Pin<&mut Self>, _cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Poll::Ready(Ok(())) // TCP sockets have no user-space buffer
    }

    fn poll_shutdown(self: Pin<&mut Self>, _cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Poll::Ready(self.io.shutdown(Shutdown::Write))
    }
}
