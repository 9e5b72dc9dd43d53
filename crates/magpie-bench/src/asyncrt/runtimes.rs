//! The three async runtimes compared, behind one small interface: magpie-async, tokio's
//! multi-threaded runtime and smol's async-executor (run by N threads, each in
//! async-io's `block_on`, the way `smol` itself runs an executor on several threads).

use std::future::Future;
use std::sync::Arc;

use crate::BenchError;

/// Which runtime.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    /// magpie-async: FIFO BWoS run queues.
    Magpie,
    /// tokio's multi-threaded scheduler.
    Tokio,
    /// async-executor on N threads (smol's executor).
    Smol,
}

/// Every runtime, in the order tables list them.
pub const KINDS: [Kind; 3] = [Kind::Magpie, Kind::Tokio, Kind::Smol];

impl Kind {
    /// Short name used in tables, CSV and on the command line.
    pub fn name(self) -> &'static str {
        match self {
            Kind::Magpie => "magpie",
            Kind::Tokio => "tokio",
            Kind::Smol => "smol",
        }
    }

    /// The kind called `name`.
    pub fn from_name(name: &str) -> Option<Kind> {
        KINDS.into_iter().find(|k| k.name() == name)
    }
}

/// A running runtime with `workers` worker threads.
pub enum Rt {
    /// magpie-async.
    Magpie(magpie_async::Runtime),
    /// tokio.
    Tokio(tokio::runtime::Runtime),
    /// async-executor.
    Smol(SmolRt),
}

/// async-executor run by `workers` threads until dropped.
pub struct SmolRt {
    ex: Arc<async_executor::Executor<'static>>,
    stop: Option<async_channel::Sender<()>>,
    threads: Vec<std::thread::JoinHandle<()>>,
}

impl Drop for SmolRt {
    fn drop(&mut self) {
        drop(self.stop.take()); // closes the channel: every `run` returns
        for t in self.threads.drain(..) {
            let _ = t.join();
        }
    }
}

/// Spawns detached tasks onto a runtime from anywhere.
#[derive(Clone)]
pub enum Spawner {
    /// magpie-async.
    Magpie(magpie_async::Handle),
    /// tokio.
    Tokio(tokio::runtime::Handle),
    /// async-executor.
    Smol(Arc<async_executor::Executor<'static>>),
}

impl Spawner {
    /// Spawns `future` and detaches it.
    pub fn spawn<F: Future<Output = ()> + Send + 'static>(&self, future: F) {
        match self {
            Spawner::Magpie(h) => drop(h.spawn(future)),
            Spawner::Tokio(h) => drop(h.spawn(future)),
            Spawner::Smol(ex) => ex.spawn(future).detach(),
        }
    }
}

impl Rt {
    /// Starts `kind` with `workers` worker threads.
    pub fn new(kind: Kind, workers: usize) -> Result<Rt, BenchError> {
        let err = |e: std::io::Error| BenchError::Worker(format!("{}: {e}", kind.name()));
        Ok(match kind {
            Kind::Magpie => Rt::Magpie(
                magpie_async::Builder::new()
                    .worker_threads(workers)
                    .build()
                    .map_err(err)?,
            ),
            Kind::Tokio => Rt::Tokio(
                tokio::runtime::Builder::new_multi_thread()
                    .worker_threads(workers)
                    .enable_all()
                    .build()
                    .map_err(err)?,
            ),
            Kind::Smol => {
                let ex = Arc::new(async_executor::Executor::new());
                let (stop, stopped) = async_channel::bounded::<()>(1);
                let threads = (0..workers)
                    .map(|i| {
                        let (ex, stopped) = (ex.clone(), stopped.clone());
                        std::thread::Builder::new()
                            .name(format!("smol-{i}"))
                            .spawn(move || {
                                let _ = async_io::block_on(ex.run(stopped.recv()));
                            })
                            .map_err(err)
                    })
                    .collect::<Result<Vec<_>, _>>()?;
                Rt::Smol(SmolRt {
                    ex,
                    stop: Some(stop),
                    threads,
                })
            }
        })
    }

    /// A spawner for this runtime.
    pub fn spawner(&self) -> Spawner {
        match self {
            Rt::Magpie(rt) => Spawner::Magpie(rt.handle().clone()),
            Rt::Tokio(rt) => Spawner::Tokio(rt.handle().clone()),
            Rt::Smol(s) => Spawner::Smol(s.ex.clone()),
        }
    }

    /// Waits on the calling thread for `future` (which should only wait for tasks on the
    /// runtime; it is not itself a worker task).
    pub fn block_on<F: Future>(&self, future: F) -> F::Output {
        match self {
            Rt::Magpie(rt) => rt.block_on(future),
            Rt::Tokio(rt) => rt.block_on(future),
            Rt::Smol(_) => async_io::block_on(future),
        }
    }
}
