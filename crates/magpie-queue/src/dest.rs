//! Where batch steals put what they take: the thief's own queue.

use crate::steal::Steal;

/// Seals [`BatchDestination`]: public in a private module, so nobody outside can name it.
pub trait Sealed {}

/// A queue a batch steal can move items into: the thief's own [`lifo::Worker`] or
/// [`fifo::Worker`]. Sealed; a `&Worker` exists only on its owner's thread, so the room
/// it reports cannot shrink while the steal runs.
///
/// [`lifo::Worker`]: crate::lifo::Worker
/// [`fifo::Worker`]: crate::fifo::Worker
pub trait BatchDestination<T>: Sealed {
    /// How many items can be pushed right now without failing (moving to a fresh block
    /// first if the current one is full).
    fn room(&self) -> usize;

    /// Pushes one item within [`room`](Self::room).
    ///
    /// # Panics
    /// If called beyond the room last reported.
    fn push_within_room(&self, item: T);
}

type StealFn<'a, T> = &'a mut dyn FnMut(u32, &mut dyn FnMut(T)) -> Steal<u32>;

pub(crate) fn steal_batch_into<T>(
    dest: &impl BatchDestination<T>,
    max: usize,
    steal: StealFn<'_, T>,
) -> Steal<usize> {
    let room = dest.room().min(max).min(u32::MAX as usize) as u32;
    if room == 0 {
        return Steal::Empty;
    }
    steal(room, &mut |item| dest.push_within_room(item)).map(|n| n as usize)
}

pub(crate) fn steal_batch_and_pop<T>(
    dest: &impl BatchDestination<T>,
    max: usize,
    steal: StealFn<'_, T>,
) -> Steal<T> {
    // One item comes back to the caller, so the batch may be one larger than the room.
    let room = dest
        .room()
        .saturating_add(1)
        .min(max.max(1))
        .min(u32::MAX as usize) as u32;
    let mut first = None;
    let result = steal(room, &mut |item| {
        if first.is_none() {
            first = Some(item);
        } else {
            dest.push_within_room(item);
        }
    });
    result.map(|_| first.expect("a successful steal yields an item"))
}
