//! The injector: the runtime-wide queue for tasks spawned or woken outside the workers
//! (another thread, async-io's timer thread, a `block_on` caller) and for a local
//! queue's overflow. magpie-queue's two-lock MPMC queue (Michael & Scott's two-lock
//! queue): producers and consumers take different locks, so a thread pushing wakes
//! and a worker refilling its local queue do not serialise on one lock.

use crate::scheduler::Runnable;
use magpie_queue::twolock::TwoLockQueue;

/// The runtime-wide FIFO of runnable tasks.
#[derive(Debug, Default)]
pub(crate) struct Injector {
    queue: TwoLockQueue<Runnable>,
}

impl Injector {
    /// Appends one task. The caller notifies a parked worker afterwards.
    pub(crate) fn push(&self, runnable: Runnable) {
        // The injector is never closed, so a push cannot fail.
        if self.queue.push(runnable).is_err() {
            unreachable!("the injector is never closed");
        }
    }

    /// Appends a batch under one lock acquisition (a local queue's overflow block).
    pub(crate) fn push_batch(&self, batch: Vec<Runnable>) {
        let _ = self.queue.push_batch(batch);
    }

    /// Takes the oldest task.
    pub(crate) fn pop(&self) -> Option<Runnable> {
        self.queue.try_pop()
    }

    /// Moves up to `max` of the oldest tasks into `out`.
    pub(crate) fn pop_batch(&self, max: usize, out: &mut Vec<Runnable>) -> usize {
        self.queue.pop_batch(max, out)
    }

    /// Whether the injector looks empty (exact when quiescent).
    pub(crate) fn is_empty(&self) -> bool {
        self.queue.is_empty()
    }

    /// Number of queued tasks (a snapshot).
    pub(crate) fn len(&self) -> usize {
        self.queue.len()
    }

    /// Drops every queued task (shutdown): dropping a `Runnable` cancels its task and
    /// drops its future.
    pub(crate) fn drain(&self) {
        while let Some(runnable) = self.pop() {
            drop(runnable);
        }
    }
}
