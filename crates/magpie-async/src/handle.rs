//! [`Handle`]: a cheap, cloneable reference to a runtime, usable from any thread.

use std::future::Future;
use std::sync::Arc;

use crate::join::JoinHandle;
use crate::scheduler::Shared;

/// A reference to a [`Runtime`](crate::Runtime) for spawning from anywhere: `Clone +
/// Send + Sync`. It does not keep the worker threads alive; tasks spawned after the
/// runtime was dropped are cancelled at once.
#[derive(Clone, Debug)]
pub struct Handle {
    shared: Arc<Shared>,
}

impl Handle {
    pub(crate) fn from_shared(shared: Arc<Shared>) -> Self {
        Self { shared }
    }

    pub(crate) fn shared(&self) -> &Arc<Shared> {
        &self.shared
    }

    /// The handle of the runtime the current thread is in: inside its tasks, on its
    /// workers, inside its [`block_on`](crate::Runtime::block_on).
    ///
    /// # Panics
    /// Outside a runtime; see [`try_current`](Self::try_current).
    #[track_caller]
    pub fn current() -> Self {
        Self::try_current().expect("Handle::current() called outside a magpie-async runtime")
    }

    /// The current runtime's handle, or `None` outside any runtime.
    pub fn try_current() -> Option<Self> {
        crate::context::handle()
    }

    /// Spawns `future` onto the runtime; from a worker it goes to that worker's local
    /// queue, from anywhere else to the injector.
    pub fn spawn<F>(&self, future: F) -> JoinHandle<F::Output>
    where
        F: Future + Send + 'static,
        F::Output: Send + 'static,
    {
        self.shared.spawn(future)
    }

    /// Runs `future` to completion on the current thread (with async-io's `block_on`,
    /// so it drives async-io's timers while it waits), with this runtime as the current
    /// one, so `spawn`, [`Handle::current`] and [`crate::net`] work inside it.
    ///
    /// # Panics
    /// On a worker thread of any magpie-async runtime (inside a task): the tasks the
    /// future waits for could be queued on that very worker, which would never run
    /// them. `.await` the future instead, or block in
    /// [`spawn_blocking`](Self::spawn_blocking).
    #[track_caller]
    pub fn block_on<F: Future>(&self, future: F) -> F::Output {
        assert!(
            crate::context::with_local(|local| local.is_none()),
            "block_on called inside an async task (on a magpie-async worker); .await the \
             future instead, or block in spawn_blocking"
        );
        crate::context::enter(self, || async_io::block_on(future))
    }

    /// Number of worker threads.
    pub fn worker_threads(&self) -> usize {
        self.shared.workers()
    }

    /// Number of tasks that are waiting (have returned `Pending`) and have not finished
    /// or been dropped (a snapshot; queued, never-polled tasks are not counted).
    pub fn live_tasks(&self) -> usize {
        self.shared.registry.len()
    }
}

/// Spawns `future` onto the current runtime ([`Handle::current`]).
///
/// # Panics
/// Outside a runtime.
#[track_caller]
pub fn spawn<F>(future: F) -> JoinHandle<F::Output>
where
    F: Future + Send + 'static,
    F::Output: Send + 'static,
{
    Handle::current().spawn(future)
}
