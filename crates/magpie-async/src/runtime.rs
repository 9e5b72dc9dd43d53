//! [`Runtime`]: owns the worker threads; dropping it stops them and drops every task.

use std::future::Future;
use std::thread::JoinHandle as ThreadHandle;

use crate::handle::Handle;
use crate::join::JoinHandle;

/// A multi-threaded async runtime on BWoS run queues. Build one with
/// [`Builder`](crate::Builder) or [`Runtime::new`].
///
/// Dropping it sets the shutdown flag, wakes and joins the workers, and drops every task
/// that has not finished — queued ones and ones parked on a waker held elsewhere (the
/// reactor, a timer, a channel) — so no task outlives its runtime. Awaiting the
/// [`JoinHandle`] of such a task gives a cancelled [`JoinError`](crate::JoinError); I/O
/// on one of its sockets held elsewhere fails with an error. Drop it from outside the
/// runtime: dropped inside one of its own tasks, it panics.
#[derive(Debug)]
pub struct Runtime {
    handle: Handle,
    threads: Vec<ThreadHandle<()>>,
}

impl Runtime {
    /// A runtime with one worker per available core and default settings.
    pub fn new() -> std::io::Result<Self> {
        crate::Builder::new().build()
    }

    pub(crate) fn from_parts(handle: Handle, threads: Vec<ThreadHandle<()>>) -> Self {
        Self { handle, threads }
    }

    /// A handle for spawning from anywhere.
    pub fn handle(&self) -> &Handle {
        &self.handle
    }

    /// Spawns `future`; see [`Handle::spawn`].
    pub fn spawn<F>(&self, future: F) -> JoinHandle<F::Output>
    where
        F: Future + Send + 'static,
        F::Output: Send + 'static,
    {
        self.handle.spawn(future)
    }

    /// Runs `f` on the blocking thread pool; see [`Handle::spawn_blocking`].
    pub fn spawn_blocking<F, T>(&self, f: F) -> JoinHandle<T>
    where
        F: FnOnce() -> T + Send + 'static,
        T: Send + 'static,
    {
        self.handle.spawn_blocking(f)
    }

    /// Runs `future` on the calling thread to completion; see [`Handle::block_on`].
    #[track_caller]
    pub fn block_on<F: Future>(&self, future: F) -> F::Output {
        self.handle.block_on(future)
    }
}

impl Drop for Runtime {
    /// # Panics
    /// On one of the runtime's own workers (dropped inside one of its tasks): a worker
    /// cannot join itself. The runtime is then left running, as if leaked. If the
    /// thread is already unwinding (the task that owned the runtime panicked), it is
    /// left running without a second panic, which would abort the process.
    fn drop(&mut self) {
        let me = std::thread::current().id();
        if self.threads.iter().any(|t| t.thread().id() == me) {
            if std::thread::panicking() {
                return;
            }
            panic!(
                "a magpie-async Runtime dropped inside one of its own tasks; drop it from \
                 outside the runtime (a worker cannot wait for itself to stop)"
            );
        }
        let shared = self.handle.shared();
        shared.begin_shutdown();
        for thread in self.threads.drain(..) {
            // A worker never panics out of its loop (tasks' panics are caught); if one
            // did, the others are still joined and the tasks still dropped.
            let _ = thread.join();
        }
        shared.drop_all_tasks();
        // I/O sources that outlive the runtime (held outside it, or by a `block_on`
        // caller) get an error from now on instead of waiting for a driver nobody polls.
        if let Some(driver) = &shared.driver {
            driver.shut_down();
        }
    }
}
