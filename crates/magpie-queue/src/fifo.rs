//! FIFO BWoS: the owner pushes at the back block and pops at the front block; thieves
//! steal from any block in between, including the one being filled.
//!
//! The consumer's front block belongs to the owner (taken over from thieves with one swap
//! when the consumer enters it), so pop needs no atomic read-modify-write or ordering
//! (only a Relaxed load of its bound, a plain `mov`). The producer's back block is shared
//! with thieves from the moment it is entered, so each push publishes its index with one
//! Release store — a plain `mov` on x86 (paper §5.2: "we have only one release barrier in
//! the FIFO BWoS"); the published `b_pos` is also the owner's only copy of that index.
//! Thieves steal oldest-first through a shared cursor, or from a random block with
//! [`Stealer::steal_random`] (§3.4's randomized procedure, which never touches the
//! cursor); they read `b_pos` only when the block's end hint, left by an earlier thief,
//! does not cover their reservation.
//!
//! ```
//! use magpie_queue::{fifo, Steal};
//! let w = fifo::Worker::new();
//! let s = w.stealer();
//! for i in 0..10 {
//!     w.push(i).unwrap();
//! }
//! assert_eq!(s.steal(), Steal::Success(0)); // thieves may steal from the block being filled
//! assert_eq!(w.pop(), Some(1)); // the owner pops oldest first too
//! ```

use core::cell::Cell;
use core::fmt;
use core::ptr::NonNull;

use crate::block::{Block, Pos, Slot};
use crate::prefetch;
use crate::shared::{Flavour, Shared};
use crate::steal::Steal;
use crate::sync::{Arc, AtomicU64, Ordering::Relaxed};
use crate::{BatchDestination, Config};

/// The flavour marker of [`Stealer`].
#[derive(Debug)]
pub struct Rules;

impl crate::dest::Sealed for Rules {}

impl Flavour for Rules {
    const PASS_OWNED: bool = true;

    #[inline]
    fn stealable_end(block: &Block<impl Sized>, seen: Pos, want: u32) -> Option<u32> {
        // A thief that read b_pos left it in the end hint: if that is far enough ahead,
        // steal below it without touching the line the owner writes on every push.
        let hint = block.end_hint_acquire();
        if hint.tag == seen.tag && hint.idx.saturating_sub(seen.idx) >= want {
            return Some(hint.idx);
        }
        let b = block.b_pos_acquire();
        if b.tag != seen.tag {
            return None;
        }
        if b.idx > hint.idx || hint.tag != b.tag {
            block.set_end_hint(b);
        }
        Some(b.idx)
    }

    fn estimated_end(block: &Block<impl Sized>, seen: Pos) -> Option<u32> {
        let b = block.b_pos_relaxed();
        (b.tag == seen.tag).then_some(b.idx)
    }

    #[inline]
    fn reserve_ordering() -> core::sync::atomic::Ordering {
        // Relaxed: the slots' contents are published by FIFO_PUBLISH and acquired through
        // FIFO_READ_BPOS before the reservation; the CAS only arbitrates between thieves
        // and the owner's takeover (RMWs on one location are totally ordered).
        Relaxed
    }
}

/// The owner's handle of a FIFO BWoS queue: `Send`, not `Sync`.
pub struct Worker<T> {
    pub(crate) shared: Arc<Shared<T>>,
    entries: u32,
    // Producer side: the back block. Its published `b_pos` is the owner's only copy of
    // the producer index (a push reads it back and stores it once).
    put_pos: Cell<u64>,
    put_block: Cell<NonNull<Block<T>>>,
    put_slots: Cell<*const Slot<T>>,
    /// Slots of the block the producer enters next, for the write prefetch only (if
    /// that block is swapped for a spare by then, the prefetch is merely wasted).
    next_put_slots: Cell<*const Slot<T>>,
    /// Whether pushes prefetch their slot lines for writing (CPU support).
    prefetch: bool,
    // Consumer side: the front block, owned (taken over) by the owner.
    get_pos: Cell<u64>,
    get_block: Cell<NonNull<Block<T>>>,
    get_slots: Cell<*const Slot<T>>,
    front: Cell<u32>,
    /// The word whose low half bounds `front`: the back block's `b_pos` while the front
    /// and back blocks are the same, else [`Shared::full_mark`] (`entries`), so that
    /// reading the bound needs no branch on which case holds.
    front_end: Cell<NonNull<AtomicU64>>,
    /// The bound last read through `front_end`, never above it (it only grows while the
    /// front block stays; 0 after a move). Pop compares with this copy and follows
    /// `front_end` only on reaching it: one load fewer per pop (FIFO owner loop 2–5 %
    /// faster).
    cached_limit: Cell<u32>,
}

/// A thief's handle of a FIFO BWoS queue: `Clone + Send + Sync`.
pub type Stealer<T> = crate::stealer::Stealer<T, Rules>;

// SAFETY: the raw pointers point into `shared`, kept alive by the worker; moving the
// worker moves the owner role. `Cell`s keep it !Sync.
unsafe impl<T: Send> Send for Worker<T> {}

impl<T> Worker<T> {
    /// An empty queue with the default geometry, 8 blocks × 1024 entries.
    pub fn new() -> Self {
        Self::with_config(Config::default())
    }

    /// An empty queue with the given geometry.
    pub fn with_config(config: Config) -> Self {
        let shared = Arc::new(Shared::new(config));
        let start = shared.blocks();
        let put = shared
            .claim(start, true, |_| true)
            .expect("a new queue has a free block");
        // The consumer starts "behind" the first block, in an already consumed one, so
        // the first block is stealable until the consumer needs it.
        let get = shared.owner_block(start - 1);
        let entries = shared.entries();
        Self {
            entries,
            put_pos: Cell::new(start),
            put_block: Cell::new(NonNull::from(put)),
            put_slots: Cell::new(put.slots()),
            next_put_slots: Cell::new(shared.owner_block(start + 1).slots()),
            prefetch: prefetch::write_supported(),
            get_pos: Cell::new(start - 1),
            get_block: Cell::new(NonNull::from(get)),
            get_slots: Cell::new(get.slots()),
            front: Cell::new(entries),
            front_end: Cell::new(NonNull::from(shared.full_mark())),
            cached_limit: Cell::new(entries),
            shared,
        }
    }

    /// A new thief handle for this queue.
    pub fn stealer(&self) -> Stealer<T> {
        Stealer::new(self.shared.clone())
    }

    /// Pushes `item` at the back; gives it back if the queue is full. Never blocks and
    /// never waits for a thief.
    #[inline]
    pub fn push(&self, item: T) -> Result<(), T> {
        let block = self.put_block();
        let b = block.owner_b_pos();
        if (b as u32) < self.entries {
            // SAFETY: slots at and above the published index in the back block are
            // empty, and no thief reads them before the publication below.
            unsafe { Block::write(self.put_slots.get(), b as u32, item) };
            if b as u32 & (prefetch::every::<T>() - 1) == 0 && self.prefetch {
                let next = self.next_put_slots.get();
                prefetch::slot_ahead(self.put_slots.get(), next, b as u32, self.entries);
            }
            // The index is below `entries`, so the increment stays out of the tag.
            block.publish(b + 1);
            return Ok(());
        }
        self.push_slow(item)
    }

    #[cold]
    fn push_slow(&self, item: T) -> Result<(), T> {
        if !self.advance_put() {
            return Err(item);
        }
        self.push(item)
    }

    /// Pops the oldest item the owner holds.
    #[inline]
    pub fn pop(&self) -> Option<T> {
        match self.pop_front() {
            Some(item) => Some(item),
            None => self.pop_slow(),
        }
    }

    /// End of the owner's items in the front block.
    #[inline(always)]
    fn front_limit(&self) -> u32 {
        // SAFETY: `front_end` points into `shared` or into one of its blocks, alive until
        // the queue drops; we hold the Arc.
        let end = unsafe { self.front_end.get().as_ref() };
        // Relaxed: an owner-written b_pos (see `Block::owner_b_pos`) or a constant.
        end.load(Relaxed) as u32
    }

    /// Reads the front block's end again (pushes into the same block move it).
    #[inline(always)]
    fn reload_front_limit(&self) -> u32 {
        let limit = self.front_limit();
        self.cached_limit.set(limit);
        limit
    }

    /// Whether the front and back blocks are the same (then pushes extend the front).
    fn same_block(&self) -> bool {
        self.get_pos.get() == self.put_pos.get()
    }

    /// The producer index in the back block.
    #[inline(always)]
    fn back(&self) -> u32 {
        self.put_block().owner_b_pos() as u32
    }

    /// Fast path: the next item of the front block, if it has one.
    #[inline(always)]
    fn pop_front(&self) -> Option<T> {
        let front = self.front.get();
        if front < self.cached_limit.get() || front < self.reload_front_limit() {
            self.front.set(front + 1);
            // SAFETY: [front, limit) of the front block hold items written by the owner;
            // the block is taken over, so no thief reserves them.
            return Some(unsafe { Block::read(self.get_slots.get(), front) });
        }
        None
    }

    #[cold]
    fn pop_slow(&self) -> Option<T> {
        // The front block is used up and the back block lies ahead: move on.
        while !self.same_block() && self.front.get() == self.entries {
            self.advance_get();
            if let Some(item) = self.pop_front() {
                return Some(item);
            }
        }
        None
    }

    #[inline(always)]
    fn put_block(&self) -> &Block<T> {
        // SAFETY: blocks live until the queue drops; we hold the Arc.
        unsafe { self.put_block.get().as_ref() }
    }

    #[inline(always)]
    fn get_block(&self) -> &Block<T> {
        // SAFETY: as above.
        unsafe { self.get_block.get().as_ref() }
    }

    /// Moves the producer to the next block, which is granted to thieves at once.
    fn advance_put(&self) -> bool {
        let next = self.put_pos.get() + 1;
        let reused = next - self.shared.blocks();
        if self.get_pos.get() == reused && self.front.get() == self.entries {
            // The consumer finished the block we need but has not left it yet.
            self.advance_get();
        }
        if self.get_pos.get() <= reused {
            return false; // the consumer has not consumed that incarnation: full
        }
        let Some(block) = self.shared.claim(next, true, |_| true) else {
            unreachable!("claim fails only when `consumed` says so")
        };
        self.put_pos.set(next);
        self.put_block.set(NonNull::from(block));
        self.put_slots.set(block.slots());
        self.next_put_slots
            .set(self.shared.owner_block(next + 1).slots());
        self.front_end.set(NonNull::from(self.shared.full_mark()));
        true
    }

    /// Moves the consumer to the next block, taking it over from thieves.
    fn advance_get(&self) {
        let next = self.get_pos.get() + 1;
        debug_assert!(next <= self.put_pos.get());
        let block = self.shared.owner_block(next);
        let first_unreserved = block.take_over(next);
        block.release_unreserved(first_unreserved);
        if self.prefetch {
            // Leaving this block later writes its owner line (`record_front`), which
            // thieves read while they stole here: fetch it now, off the critical path.
            prefetch::for_write(block.owner_line());
        }
        self.get_block().record_front(self.entries);
        self.get_pos.set(next);
        self.get_block.set(NonNull::from(block));
        self.get_slots.set(block.slots());
        self.front.set(first_unreserved);
        self.front_end
            .set(NonNull::from(if next == self.put_pos.get() {
                block.b_pos_word()
            } else {
                self.shared.full_mark()
            }));
        // A new block: the cached bound of the old one means nothing here.
        self.cached_limit.set(0);
    }

    /// Removes the oldest block's worth of items (the front block's), oldest first, for
    /// spilling elsewhere when [`push`](Self::push) reports the queue full.
    pub fn pop_block(&self) -> Option<Vec<T>> {
        loop {
            let (front, limit) = (self.front.get(), self.front_limit());
            if front < limit {
                let slots = self.get_slots.get();
                // SAFETY: [front, limit) are the owner's items in the front block.
                let out = (front..limit)
                    .map(|i| unsafe { Block::read(slots, i) })
                    .collect();
                self.front.set(limit);
                return Some(out);
            }
            if self.same_block() {
                return None;
            }
            self.advance_get();
        }
    }

    /// Number of items: exact when no thief is stealing, approximate otherwise. Scans
    /// the metadata of every block (O(blocks)).
    pub fn len(&self) -> usize {
        (self.front_limit() - self.front.get()) as usize + self.shared.granted_len()
    }

    /// Whether the queue holds no item (same caveats as [`len`](Self::len)).
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Total slots: blocks × entries per block.
    pub fn capacity(&self) -> usize {
        self.shared.blocks() as usize * self.entries as usize
    }

    fn room(&self) -> u32 {
        if self.back() == self.entries && !self.advance_put() {
            return 0;
        }
        self.entries - self.back()
    }
}

impl<T> Default for Worker<T> {
    fn default() -> Self {
        Self::new()
    }
}

impl<T> Drop for Worker<T> {
    fn drop(&mut self) {
        // Leave the consumer index in the block so the last handle drops those items.
        self.get_block().record_front(self.front.get());
    }
}

impl<T> fmt::Debug for Worker<T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("fifo::Worker")
            .field("len", &self.len())
            .field("capacity", &self.capacity())
            .finish()
    }
}

impl<T> crate::dest::Sealed for Worker<T> {}

impl<T> BatchDestination<T> for Worker<T> {
    fn room(&self) -> usize {
        Worker::room(self) as usize
    }

    fn push_within_room(&self, item: T) {
        let block = self.put_block();
        let b = block.owner_b_pos();
        assert!((b as u32) < self.entries, "push_within_room beyond room()");
        // SAFETY: as in `push`.
        unsafe { Block::write(self.put_slots.get(), b as u32, item) };
        block.publish(b + 1);
    }
}

impl<T> Stealer<T> {
    /// The paper's randomized procedure (§3.4): sample one random block and steal from
    /// it if it is granted to thieves and non-empty; `Empty` otherwise, even if other
    /// blocks hold items. Touches no shared cursor.
    pub fn steal_random<R: rand_core::RngCore + ?Sized>(&self, rng: &mut R) -> Steal<T> {
        let mut got = None;
        self.shared
            .steal_at::<Rules>(rng.next_u64(), 1, |item| got = Some(item))
            .map(|_| got.expect("one item stolen"))
    }

    /// Batch version of [`steal_random`](Self::steal_random).
    pub fn steal_batch_random_and_pop<R: rand_core::RngCore + ?Sized>(
        &self,
        dest: &impl BatchDestination<T>,
        max: usize,
        rng: &mut R,
    ) -> Steal<T> {
        let random = rng.next_u64();
        crate::dest::steal_batch_and_pop(dest, max, &mut |n, sink| {
            self.shared.steal_at::<Rules>(random, n, sink)
        })
    }
}
