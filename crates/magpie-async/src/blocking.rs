//! [`spawn_blocking`]: run blocking code (file I/O, a long computation, a synchronous
//! library) without stalling a worker. The closure runs on the `blocking` crate's
//! thread pool (smol's: threads are started on demand, at most 500 or
//! `BLOCKING_MAX_THREADS`, and retire after a second idle), handed to it by a small
//! task of the runtime that awaits it, so the result comes back through an ordinary
//! [`JoinHandle`], a panic in the closure as [`JoinError`](crate::JoinError).

use crate::handle::Handle;
use crate::join::JoinHandle;

impl Handle {
    /// Runs `f` on a thread of the blocking pool and resolves to its result.
    ///
    /// [`JoinHandle::abort`] cancels the wait, but a closure that has started runs to
    /// its end (a thread cannot be interrupted); one that has not started does not run.
    pub fn spawn_blocking<F, T>(&self, f: F) -> JoinHandle<T>
    where
        F: FnOnce() -> T + Send + 'static,
        T: Send + 'static,
    {
        // `unblock` resumes the closure's panic in the awaiting task, where the
        // runtime's task wrapper catches it as that task's panic. Called inside the
        // task, at its first poll: `unblock` hands the closure to the pool at once, and
        // called here it did so even for a task cancelled at birth (spawned after
        // shutdown), whose closure then raced its cancellation and often ran.
        self.spawn(async move { blocking::unblock(f).await })
    }
}

/// Runs `f` on a thread of the blocking pool of the current runtime
/// ([`Handle::spawn_blocking`]).
///
/// ```
/// let rt = magpie_async::Builder::new().worker_threads(2).build().unwrap();
/// let len = rt.block_on(async {
///     magpie_async::spawn_blocking(|| std::fs::read_to_string("Cargo.toml").map(|s| s.len()))
///         .await
///         .unwrap()
/// });
/// assert!(len.unwrap() > 0);
/// ```
///
/// # Panics
/// Outside a runtime.
#[track_caller]
pub fn spawn_blocking<F, T>(f: F) -> JoinHandle<T>
where
    F: FnOnce() -> T + Send + 'static,
    T: Send + 'static,
{
    Handle::current().spawn_blocking(f)
}
