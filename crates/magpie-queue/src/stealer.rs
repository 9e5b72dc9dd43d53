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

    /// Takes up to `max` items (at most one block, with one reservation) and hands them
    /// to `sink`, oldest first; returns how many. Unlike
    /// [`steal_batch_into`](Self::steal_batch_into), the amount is not limited by the
    /// room left in a destination's current block: the caller stores them (e.g. pushes
    /// them on its own queue, spilling what does not fit).
    pub fn steal_batch_with(&self, max: usize, sink: impl FnMut(T)) -> Steal<usize> {
        let max = max.clamp(1, u32::MAX as usize) as u32;
        self.shared.steal::<F>(max, sink).map(|n| n as usize)
    }

    /// Takes half of what the oldest non-empty block holds (rounded up, at most `max`)
    /// and hands it to `sink`, oldest first; returns how many: the classic steal-half.
    /// A lone item is taken alone, as by [`steal`](Self::steal); a full block of small
    /// tasks (a loop of spawns) goes over in a few steals rather than one steal per
    /// item, while its owner keeps the other half.
    ///
    /// ```
    /// use magpie_queue::{lifo, Steal};
    /// let victim = lifo::Worker::new();
    /// for i in 0..5 {
    ///     victim.push(i).unwrap();
    /// }
    /// assert!(victim.share());
    /// let mut got = Vec::new();
    /// assert_eq!(victim.stealer().steal_half_with(64, |x| got.push(x)), Steal::Success(3));
    /// assert_eq!(got, [0, 1, 2]);
    /// ```
    pub fn steal_half_with(&self, max: usize, sink: impl FnMut(T)) -> Steal<usize> {
        let max = max.clamp(1, u32::MAX as usize) as u32;
        self.shared.steal_half::<F>(max, sink).map(|n| n as usize)
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
