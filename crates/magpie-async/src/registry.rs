//! The registry of live tasks: one waker per task that has not finished, so that dropping
//! the runtime can reach (and so drop) tasks that are parked on a waker held elsewhere —
//! in the async-io reactor, a timer, a channel — and are in no run queue.
//!
//! Sharded by the spawning worker to keep spawns from contending on one lock; a task
//! removes itself on completion or drop through [`Entry`], whichever thread that happens
//! on.

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

    /// Registers a task: `spawn` gets the entry (which the task's future owns and whose
    /// drop unregisters it) and returns the task's runnable, whose waker is stored.
    pub(crate) fn insert<R>(
        self: &Arc<Self>,
        hint: usize,
        spawn: impl FnOnce(Entry) -> (R, Waker),
    ) -> R {
        let shard = hint % self.shards.len();
        let mut slab = lock(&self.shards[shard]);
        let vacant = slab.vacant_entry();
        let entry = Entry {
            registry: self.clone(),
            shard,
            key: vacant.key(),
        };
        let (r, waker) = spawn(entry);
        vacant.insert(waker);
        r
    }

    /// Takes every registered waker out (shutdown); their tasks' entries become no-ops.
    pub(crate) fn drain(&self) -> Vec<Waker> {
        let mut all = Vec::new();
        for shard in self.shards.iter() {
            all.extend(lock(shard).drain());
        }
        all
    }

    /// Number of live tasks (a snapshot).
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
        // `try_remove`: after `drain` at shutdown the key is gone (or reused by no one,
        // since nothing is spawned after shutdown).
        let waker = lock(&self.registry.shards[self.shard]).try_remove(self.key);
        drop(waker); // outside the lock: dropping a waker may run arbitrary code
    }
}

/// Locks a shard; a poisoned lock is still usable (the slab is never left half-updated
/// by a panic: no user code runs under it).
fn lock<T>(m: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|e| e.into_inner())
}
