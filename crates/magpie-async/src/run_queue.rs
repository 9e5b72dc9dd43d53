//! A worker's local run queue: a FIFO BWoS queue (magpie-queue's `fifo::Worker`), as
//! the BWoS paper (§6.3.2) put into tokio. The owner pushes and pops without atomic
//! read-modify-writes; thieves take one block's worth of the oldest tasks per steal.
//! When the queue is full its oldest block moves to the injector (tokio moves half of
//! its queue; a BWoS block is the natural unit here).

use crate::scheduler::Runnable;
use magpie_queue::{fifo, Config};

use crate::injector::Injector;

/// The owner's side of a worker's run queue (`!Sync`: only its worker touches it).
#[derive(Debug)]
pub(crate) struct RunQueue {
    queue: fifo::Worker<Runnable>,
}

impl RunQueue {
    pub(crate) fn new(config: Config) -> (Self, fifo::Stealer<Runnable>) {
        let queue = fifo::Worker::with_config(config);
        let stealer = queue.stealer();
        (Self { queue }, stealer)
    }

    /// Pushes at the back; on overflow moves the oldest block to `injector` first.
    /// Returns whether the injector received tasks (the caller then notifies).
    #[inline]
    pub(crate) fn push(&self, runnable: Runnable, injector: &Injector) -> bool {
        match self.queue.push(runnable) {
            Ok(()) => false,
            Err(runnable) => {
                self.overflow(runnable, injector);
                true
            }
        }
    }

    #[cold]
    fn overflow(&self, runnable: Runnable, injector: &Injector) {
        if let Some(block) = self.queue.pop_block() {
            injector.push_batch(block);
        }
        if let Err(runnable) = self.queue.push(runnable) {
            injector.push(runnable);
        }
    }

    /// Pops the oldest task.
    #[inline]
    pub(crate) fn pop(&self) -> Option<Runnable> {
        self.queue.pop()
    }

    /// The queue itself, as the destination of batch steals.
    pub(crate) fn as_dest(&self) -> &fifo::Worker<Runnable> {
        &self.queue
    }

    /// Free room for a batch from the injector, capped at `max`.
    pub(crate) fn room(&self, max: usize) -> usize {
        use magpie_queue::BatchDestination;
        self.queue.room().min(max)
    }

    /// Pushes a task within the room reported by [`room`](Self::room).
    pub(crate) fn push_within_room(&self, runnable: Runnable) {
        use magpie_queue::BatchDestination;
        self.queue.push_within_room(runnable);
    }
}
