//! hyper 1.x on magpie-async (feature `hyper`): hyper's runtime traits are implemented
//! by [`HyperExecutor`] (spawns hyper's background futures, needed by HTTP/2) and
//! [`HyperIo`] (async-io's `Async<TcpStream>`, or any futures-io stream, as hyper's
//! `rt::Read`/`rt::Write`). The I/O adapter is smol-hyper's `FuturesIo`, maintained by
//! smol's authors, rather than a copy of its buffer juggling.
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

use crate::handle::Handle;

pub use smol_hyper::rt::FuturesIo as HyperIo;

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
