//! `par_bridge`: any sequential iterator as a parallel iterator, as rayon's.
//!
//! The iterator cannot be split by position, so it sits behind a mutex shared by the
//! pieces, and each piece pulls items from it in batches until it is exhausted. The
//! producer has one *virtual* position per pool thread, so the splitter makes about
//! one piece per thread, and a piece that is never stolen simply finds the iterator
//! drained when it starts. Each piece sizes its batches by how long the last one
//! took to consume: under [`BATCH_TIME`] the next is twice as large (up to
//! [`MAX_BATCH`]), over it half as large (down to one item). Expensive items are then
//! handed out one at a time (no worker sits on a backlog while others idle at the
//! end), cheap ones take the lock once per few hundred; one clock read per batch.
//! Since a piece runs until the iterator is drained, it offers its worker's queued
//! jobs (the other pieces) to idle workers at every batch
//! ([`share_queued_jobs`](crate::share_queued_jobs)).
//!
//! Items come out in no particular order (`collect` keeps the order in which pieces
//! pulled them, which is not the iterator's). Short-circuiting consumers stop pulling
//! at their next item. A panic inside the iterator's `next` poisons the mutex: the
//! other pieces then stop, and the panic reaches the caller.

use std::collections::VecDeque;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use super::plumbing::{threads_here, Producer};
use super::ParallelIterator;

/// The most items a piece takes from the shared iterator per lock.
const MAX_BATCH: usize = 256;

/// About how long consuming one batch should take: batches that take less grow,
/// batches that take more shrink, so what a worker holds back from the others at the
/// end is about this much work.
const BATCH_TIME: Duration = Duration::from_micros(20);

/// `par_bridge()` for every `Iterator + Send` with `Send` items.
pub trait ParallelBridge: Sized {
    /// Runs this sequential iterator's items in parallel (in no particular order).
    ///
    /// ```
    /// use magpie::prelude::*;
    ///
    /// let lines = "3\n1\n4\n1\n5".lines();
    /// let total: u32 = lines.par_bridge().map(|l| l.parse::<u32>().unwrap()).sum();
    /// assert_eq!(total, 14);
    /// ```
    fn par_bridge(self) -> IterBridge<Self>;
}

impl<I> ParallelBridge for I
where
    I: Iterator + Send,
    I::Item: Send,
{
    fn par_bridge(self) -> IterBridge<Self> {
        IterBridge { iter: self }
    }
}

/// The parallel iterator of [`ParallelBridge::par_bridge`].
#[derive(Debug)]
pub struct IterBridge<I> {
    iter: I,
}

impl<I> ParallelIterator for IterBridge<I>
where
    I: Iterator + Send,
    I::Item: Send,
{
    type Item = I::Item;
    type Producer = BridgeProducer<I>;
    fn into_producer(self) -> Self::Producer {
        BridgeProducer {
            shared: Arc::new(Mutex::new(self.iter.fuse())),
            slots: threads_here(),
        }
    }
}

/// The producer of [`IterBridge`]: `slots` virtual positions over the shared iterator.
pub struct BridgeProducer<I> {
    shared: Arc<Mutex<std::iter::Fuse<I>>>,
    slots: usize,
}

impl<I> Producer for BridgeProducer<I>
where
    I: Iterator + Send,
{
    type Item = I::Item;
    type IntoIter = BridgePiece<I>;
    fn len(&self) -> usize {
        self.slots
    }
    fn split_at(self, index: usize) -> (Self, Self) {
        let right = BridgeProducer {
            shared: Arc::clone(&self.shared),
            slots: self.slots - index,
        };
        let left = BridgeProducer {
            shared: self.shared,
            slots: index,
        };
        (left, right)
    }
    fn into_iter(self) -> Self::IntoIter {
        BridgePiece {
            // An empty side of a split pulls nothing.
            shared: (self.slots > 0).then_some(self.shared),
            batch: VecDeque::new(),
            batch_size: 1,
            batch_start: None,
        }
    }
    fn exact(&self) -> bool {
        false
    }
}

/// A piece of [`IterBridge`]: pulls batches from the shared iterator.
pub struct BridgePiece<I: Iterator> {
    shared: Option<Arc<Mutex<std::iter::Fuse<I>>>>,
    batch: VecDeque<I::Item>,
    batch_size: usize,
    /// When the previous batch was taken.
    batch_start: Option<Instant>,
}

impl<I: Iterator> BridgePiece<I> {
    /// Takes the next batch; `false` when the iterator is exhausted (or poisoned by a
    /// panic in another piece, which reaches the caller through that piece).
    fn refill(&mut self) -> bool {
        let Some(shared) = &self.shared else {
            return false;
        };
        // A piece runs until the iterator is drained, so the halves its worker split
        // off and queued would wait in the worker's private block all that time:
        // offer them to idle workers now and then (a load when nobody is idle).
        crate::share_queued_jobs();
        let now = Instant::now();
        if let Some(start) = self.batch_start {
            self.batch_size = if now.duration_since(start) < BATCH_TIME {
                (self.batch_size * 2).min(MAX_BATCH)
            } else {
                (self.batch_size / 2).max(1)
            };
        }
        self.batch_start = Some(now);
        if let Ok(mut iter) = shared.lock() {
            self.batch.extend(iter.by_ref().take(self.batch_size));
        }
        if self.batch.is_empty() {
            self.shared = None;
            return false;
        }
        true
    }
}

impl<I: Iterator> Iterator for BridgePiece<I> {
    type Item = I::Item;
    fn next(&mut self) -> Option<I::Item> {
        if self.batch.is_empty() && !self.refill() {
            return None;
        }
        self.batch.pop_front()
    }
}
