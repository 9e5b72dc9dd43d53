//! The thieves' handle, shared by both flavours.

use core::fmt;
use core::marker::PhantomData;

use crate::shared::{Flavour, Shared};
use crate::steal::Steal;
use crate::sync::Arc;
use crate::BatchDestination;

/// A thief's handle of a BWoS queue: `Clone + Send + Sync`. Use it as
/// [`lifo::Stealer`](crate::lifo::Stealer) or [`fifo::Stealer`](crate::fifo::Stealer);
/// `F` is the flavour's (sealed) marker type.
pub struct Stealer<T, F> {
    pub(crate) shared: Arc<Shared<T>>,
    flavour: PhantomData<fn() -> F>,
}

impl<T, F: Flavour> Stealer<T, F> {
    pub(crate) fn new(shared: Arc<Shared<T>>) -> Self {
        Self {
            shared,
            flavour: PhantomData,
        }
    }

    /// Steals the oldest stealable item.
    pub fn steal(&self) -> Steal<T> {
        let mut got = None;
        self.shared
            .steal::<F>(1, |item| got = Some(item))
            .map(|_| got.expect("one item stolen"))
    }

    /// Moves up to `max` items (at most one block, with one reservation) into `dest`,
    /// returning how many. `Empty` also when `dest` has no room.
    pub fn steal_batch_into(&self, dest: &impl BatchDestination<T>, max: usize) -> Steal<usize> {
        crate::dest::steal_batch_into(dest, max, &mut |n, sink| self.shared.steal::<F>(n, sink))
    }

    /// Like [`steal_batch_into`](Self::steal_batch_into), but returns the oldest stolen
    /// item instead of pushing it.
    pub fn steal_batch_and_pop(&self, dest: &impl BatchDestination<T>, max: usize) -> Steal<T> {
        crate::dest::steal_batch_and_pop(dest, max, &mut |n, sink| self.shared.steal::<F>(n, sink))
    }

    /// Approximate number of items thieves can take now: a scan of every block's thief
    /// metadata (O(blocks) loads; exact when the queue is quiescent). The owner's private
    /// top block (LIFO) is not counted.
    pub fn stealable_len(&self) -> usize {
        self.shared.granted_len()
    }

    /// Occupancy sample for probabilistic victim selection (§3.4): reads one random
    /// block's metadata and returns true with probability ≈ stealable items / capacity.
    pub fn sample<R: rand_core::RngCore + ?Sized>(&self, rng: &mut R) -> bool {
        self.shared.sample::<F>(rng.next_u64())
    }
}

impl<T, F> Clone for Stealer<T, F> {
    fn clone(&self) -> Self {
        Self {
            shared: self.shared.clone(),
            flavour: PhantomData,
        }
    }
}

impl<T, F> fmt::Debug for Stealer<T, F> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Stealer").finish_non_exhaustive()
    }
}
