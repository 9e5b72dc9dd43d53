//! The registry of pending tasks: one waker per task that has returned `Pending` and not
//! finished, so that dropping the runtime can reach (and so drop) tasks that are parked
//! on a waker held elsewhere — in the async-io reactor, a timer, a channel — and are in
//! no run queue. A task registers at its first `Pending` (tasks that finish in their
//! first poll never touch it; tasks never polled are in a run queue, which shutdown
//! drains) and unregisters when its future is dropped, through [`Entry`].
//!
//! Sharded by worker so registrations do not contend on one lock.

use std::sync::{Arc, Mutex};
use std::task::Waker;

use slab::Slab;

/// Live tasks' wakers, in shards.
#[derive(Debug)]
pub(crate) struct Registry {
    shards: Box<[Mutex<Slab<Waker>>]>,
}

impl Registry {
    pub(crate) fn new(shards: usize) -> Self {
        Self {
            shards: (0..shards.max(1))
                .map(|_| Mutex::new(Slab::new()))
                .collect(),
        }
    }

    /// Registers a pending task's waker in shard `hint`; dropping the entry unregisters.
    pub(crate) fn register(self: &Arc<Self>, hint: usize, waker: &Waker) -> Entry {
        let shard = hint % self.shards.len();
        let key = lock(&self.shards[shard]).insert(waker.clone());
        Entry {
            registry: self.clone(),
            shard,
            key,
        }
    }

    /// Takes every registered waker out (shutdown); their tasks' entries become no-ops.
    pub(crate) fn drain(&self) -> Vec<Waker> {
        let mut all = Vec::new();
        for shard in self.shards.iter() {
            all.extend(lock(shard).drain());
        }
        all
    }

    /// Number of registered (pending) tasks (a snapshot).
    pub(crate) fn len(&self) -> usize {
        self.shards.iter().map(|s| lock(s).len()).sum()
    }
}

/// A task's place in the [`Registry`]; dropping it (with the task's future) unregisters
/// the task.
#[derive(Debug)]
pub(crate) struct Entry {
    registry: Arc<Registry>,
    shard: usize,
    key: usize,
}

impl Drop for Entry {
    fn drop(&mut self) {
        // `try_remove`: after `drain` at shutdown the key is gone (and not reused: no
        // task is polled, so none registers, after the workers stopped).
        let waker = lock(&self.registry.shards[self.shard]).try_remove(self.key);
        drop(waker); // outside the lock: dropping a waker may run arbitrary code
    }
}

/// Locks a shard; a poisoned lock is still usable (the slab is never left half-updated
/// by a panic: no user code runs under it).
fn lock<T>(m: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|e| e.into_inner())
}
