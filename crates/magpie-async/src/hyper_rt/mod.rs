//! hyper 1.x on magpie-async (feature `hyper`): [`HyperExecutor`] spawns hyper's
//! background futures (HTTP/2 needs it), [`HyperIo`] makes a
//! [`net::TcpStream`](crate::net::TcpStream) a hyper `rt::Read`/`rt::Write`.
//! [`HyperAsyncIo`] does the same for async-io's `Async<TcpStream>`, for other
//! executors (the benchmark's smol server).
//!
//! ```no_run
//! use magpie_async::{hyper_rt::HyperIo, net::TcpListener};
//!
//! let rt = magpie_async::Runtime::new().unwrap();
//! rt.block_on(async {
//!     let listener = TcpListener::bind("127.0.0.1:0").unwrap();
//!     let (stream, _) = listener.accept().await.unwrap();
//!     let io = HyperIo::new(stream); // ready for hyper::server::conn::http1::Builder
//!     # drop(io);
//! });
//! ```

mod async_io;
mod io;

use std::future::Future;

pub use async_io::HyperAsyncIo;
pub use io::HyperIo;

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
