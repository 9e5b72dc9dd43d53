//! TCP on the runtime's own I/O driver (mio, edge-triggered, polled by the workers; see
//! the `driver` module): [`TcpListener`] and [`TcpStream`]. Create them inside the
//! runtime — in a task or in [`Runtime::block_on`](crate::Runtime::block_on) — since
//! they register with the current runtime's driver.

mod listener;
mod stream;

pub use listener::TcpListener;
pub use stream::TcpStream;
