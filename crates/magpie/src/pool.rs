//! [`ThreadPool`]: a handle to a set of workers.

use std::fmt;
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;

use crate::builder::{BuildError, ThreadPoolBuilder};
use crate::registry::Registry;
use crate::stats::PoolStats;
use crate::worker::WorkerThread;
use crate::Scope;

/// A work-stealing thread pool. Dropping it lets the workers finish the work they can
/// still find, then joins them (unless dropped from one of its own workers).
///
/// ```
/// let pool = magpie::ThreadPoolBuilder::new().num_threads(2).build().unwrap();
/// let sum: u64 = pool.install(|| {
///     let (a, b) = magpie::join(|| (0..500u64).sum::<u64>(), || (500..1000u64).sum::<u64>());
///     a + b
/// });
/// assert_eq!(sum, 499_500);
/// println!("{}", pool.stats());
/// ```
pub struct ThreadPool {
    pub(crate) registry: Arc<Registry>,
    handles: Mutex<Vec<JoinHandle<()>>>,
}

impl ThreadPool {
    pub(crate) fn build(builder: ThreadPoolBuilder) -> Result<Self, BuildError> {
        let (registry, handles) = Registry::new(builder)?;
        Ok(Self {
            registry,
            handles: Mutex::new(handles),
        })
    }

    /// Runs `op` inside this pool (so `join`, `scope` and `spawn` in it use this pool)
    /// and returns its result. Panics in `op` propagate to the caller. A worker of this
    /// pool runs `op` itself; a thread outside every pool blocks meanwhile; a worker of
    /// another pool runs its own pool's jobs while it waits (as rayon), so `op` may
    /// install back into that pool.
    pub fn install<OP, R>(&self, op: OP) -> R
    where
        OP: FnOnce() -> R + Send,
        R: Send,
    {
        self.registry.in_worker(|_| op())
    }

    /// [`crate::join`] in this pool.
    pub fn join<A, B, RA, RB>(&self, oper_a: A, oper_b: B) -> (RA, RB)
    where
        A: FnOnce() -> RA + Send,
        B: FnOnce() -> RB + Send,
        RA: Send,
        RB: Send,
    {
        self.registry
            .in_worker(|worker| crate::join::join_in_worker(worker, oper_a, oper_b))
    }

    /// [`crate::scope`] in this pool.
    pub fn scope<'scope, OP, R>(&self, op: OP) -> R
    where
        OP: FnOnce(&Scope<'scope>) -> R + Send,
        R: Send,
    {
        self.install(|| crate::scope(op))
    }

    /// [`crate::spawn`] in this pool.
    pub fn spawn<F>(&self, func: F)
    where
        F: FnOnce() + Send + 'static,
    {
        crate::spawn::spawn_in(&self.registry, func);
    }

    /// Number of worker threads.
    pub fn current_num_threads(&self) -> usize {
        self.registry.num_threads()
    }

    /// The index of the calling thread if it is a worker of this pool.
    pub fn current_thread_index(&self) -> Option<usize> {
        WorkerThread::current()
            .filter(|w| std::ptr::eq(w.registry(), &*self.registry))
            .map(WorkerThread::index)
    }

    /// [`crate::yield_now`] if the calling thread is a worker of this pool, else `None`.
    pub fn yield_now(&self) -> Option<crate::Yield> {
        self.current_thread_index()?;
        crate::yield_now()
    }

    /// [`crate::yield_local`] if the calling thread is a worker of this pool, else `None`.
    pub fn yield_local(&self) -> Option<crate::Yield> {
        self.current_thread_index()?;
        crate::yield_local()
    }

    /// A snapshot of every worker's statistics.
    pub fn stats(&self) -> PoolStats {
        self.registry.stats()
    }

    /// The victim policy's name.
    pub fn victim_policy(&self) -> &str {
        self.registry.policy.name()
    }
}

impl fmt::Debug for ThreadPool {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("ThreadPool")
            .field("num_threads", &self.current_num_threads())
            .field("victim_policy", &self.victim_policy())
            .finish()
    }
}

impl Drop for ThreadPool {
    fn drop(&mut self) {
        self.registry.terminate();
        if self.current_thread_index().is_some() {
            return; // joining ourselves would deadlock; the threads exit on their own
        }
        let handles = std::mem::take(&mut *self.handles.lock().unwrap_or_else(|e| e.into_inner()));
        for h in handles {
            let _ = h.join();
        }
    }
}
