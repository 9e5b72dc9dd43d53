//! LIFO BWoS: the owner pushes and pops at the top block; thieves take the oldest blocks.
//!
//! The owner works in its *top* block, which thieves never touch: push and pop there are
//! a bounds check and a slot access, with no atomic operation at all (paper §4.1: "LIFO
//! BWoS does not contain any barriers in the fast path"). Leaving the top block forward
//! *grants* it to thieves (one Release store); popping below it *takes over* the block
//! beneath (one swap), leaving any thief still reading its reserved entries undisturbed.
//! Thieves steal from the bottom block through a shared cursor and move up when a block
//! is exhausted (§3.4: "for LIFO BWoS, stealing still happens from the bottom block").
//!
//! ```
//! use magpie_queue::{lifo, Steal};
//! let w = lifo::Worker::new();
//! let s = w.stealer();
//! for i in 0..2000 {
//!     w.push(i).unwrap();
//! }
//! assert_eq!(w.pop(), Some(1999)); // newest first for the owner
//! assert_eq!(s.steal(), Steal::Success(0)); // oldest first for thieves
//! ```

use core::cell::Cell;
use core::fmt;
use core::ptr::NonNull;

use crate::block::{tag_of, Block, Pos, Slot};
use crate::ordering::ord;
use crate::shared::{Flavour, Shared};
use crate::steal::Steal;
use crate::sync::Arc;
use crate::{BatchDestination, Config};

/// The flavour marker of [`Stealer`].
#[derive(Debug)]
pub struct Rules;

impl crate::dest::Sealed for Rules {}

impl Flavour for Rules {
    const PASS_OWNED: bool = false;

    #[inline]
    fn stealable_end(block: &Block<impl Sized>, _seen: Pos, _want: u32) -> Option<u32> {
        // A granted LIFO block is full: it is granted only when the owner fills it.
        Some(block.entries())
    }

    fn estimated_end(block: &Block<impl Sized>, _seen: Pos) -> Option<u32> {
        Some(block.entries())
    }

    #[inline]
    fn reserve_ordering() -> core::sync::atomic::Ordering {
        // Acquire pairs with LIFO_GRANT: the owner's writes of the granted slots are
        // visible once our reservation reads the grant (or a later CAS in its release
        // sequence).
        ord!("LIFO_RESERVE", Acquire)
    }
}

/// The owner's handle of a LIFO BWoS queue: `Send`, not `Sync`.
pub struct Worker<T> {
    pub(crate) shared: Arc<Shared<T>>,
    /// Logical position of the top block.
    pub(crate) top: Cell<u64>,
    /// The highest position the owner has entered; positions up to it that lie above
    /// `top` are blocks the owner left downwards, empty and still its own.
    highest: Cell<u64>,
    block: Cell<NonNull<Block<T>>>,
    slots: Cell<*const Slot<T>>,
    /// Next free index in the top block (the paper's b_pos, kept owner-private).
    back: Cell<u32>,
    /// Lowest index the owner may pop in the top block (the paper's f_pos).
    front: Cell<u32>,
    entries: u32,
}

/// A thief's handle of a LIFO BWoS queue: `Clone + Send + Sync`.
pub type Stealer<T> = crate::stealer::Stealer<T, Rules>;

// SAFETY: the raw pointers in `Worker` point into `shared`, which the worker keeps alive;
// moving the worker to another thread moves the owner role with it. `Cell`s keep it !Sync.
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
        let block = shared
            .claim(start, false, |_| true)
            .expect("a new queue has a free block");
        let block_ptr = NonNull::from(block);
        let slots = block.slots();
        let entries = shared.entries();
        Self {
            shared,
            top: Cell::new(start),
            highest: Cell::new(start),
            block: Cell::new(block_ptr),
            slots: Cell::new(slots),
            back: Cell::new(0),
            front: Cell::new(0),
            entries,
        }
    }

    /// A new thief handle for this queue.
    pub fn stealer(&self) -> Stealer<T> {
        Stealer::new(self.shared.clone())
    }

    /// Pushes `item` on top; gives it back if the queue is full. Never blocks and never
    /// waits for a thief.
    #[inline]
    pub fn push(&self, item: T) -> Result<(), T> {
        let back = self.back.get();
        if back < self.entries {
            // SAFETY: `back` < entries and slots at and above `back` in the top block are
            // empty and owner-only.
            unsafe { Block::write(self.slots.get(), back, item) };
            self.back.set(back + 1);
            return Ok(());
        }
        self.push_slow(item)
    }

    #[cold]
    fn push_slow(&self, item: T) -> Result<(), T> {
        if !self.advance() {
            return Err(item);
        }
        self.push(item)
    }

    /// Pops the newest item.
    #[inline]
    pub fn pop(&self) -> Option<T> {
        let back = self.back.get();
        if back > self.front.get() {
            let back = back - 1;
            self.back.set(back);
            // SAFETY: slots in [front, back) of the top block hold owner-written items
            // that no thief can reserve (the block is OWNED).
            return Some(unsafe { Block::read(self.slots.get(), back) });
        }
        self.pop_slow()
    }

    #[cold]
    fn pop_slow(&self) -> Option<T> {
        // The top block holds nothing of ours: take over the block below, unless thieves
        // hold the slots under `front` (then they have emptied the blocks below; not
        // looking spares a load of a line they write). Slots `share` skipped say
        // nothing of the blocks below (see `below_may_hold`).
        if (self.back.get() != 0 && !self.below_may_hold()) || !self.retreat() {
            return None;
        }
        let back = self.back.get();
        if back > self.front.get() {
            self.back.set(back - 1);
            // SAFETY: as in `pop`, for the block just taken over.
            return Some(unsafe { Block::read(self.slots.get(), back - 1) });
        }
        None
    }

    fn block(&self) -> &Block<T> {
        // SAFETY: the top block is in the ring (or was, and then is a spare), alive
        // until the queue drops; we hold the Arc.
        unsafe { self.block.get().as_ref() }
    }

    fn enter(&self, position: u64, block: &Block<T>, back: u32, front: u32) {
        self.top.set(position);
        self.block.set(NonNull::from(block));
        self.slots.set(block.slots());
        self.back.set(back);
        self.front.set(front);
    }

    /// Whether the blocks below may hold items although `front` is above 0. The top
    /// block's `f_idx` keeps the front it was granted from (or left downwards at) until
    /// the owner leaves it, so `front` still equals it when no thief reserved anything
    /// there since: the slots under `front` were skipped by `share`, or the block was
    /// re-entered above one just granted. Otherwise they are thieves' reservations, and
    /// thieves empty the blocks below first.
    fn below_may_hold(&self) -> bool {
        self.front.get() == self.block().f_idx()
    }

    /// Whether [`advance`](Self::advance) would succeed now: the next block is one we
    /// left downwards, or thieves have reserved all of its previous incarnation (they
    /// only ever reserve more, so the answer cannot turn false before we advance).
    fn can_advance(&self) -> bool {
        let next = self.top.get() + 1;
        next <= self.highest.get() || self.shared.owner_block(next).s_pos().idx == self.entries
    }

    /// Moves the top forward one block, granting the full current one to thieves.
    fn advance(&self) -> bool {
        let next = self.top.get() + 1;
        let shared = &*self.shared;
        let reentered = next <= self.highest.get();
        let block = if reentered {
            // We left that block downwards earlier: it is still ours, and empty from the
            // front it had then (slots below that are thieves' or skipped).
            shared.owner_block(next)
        } else {
            // Reuse needs the previous incarnation exhausted by thieves.
            let entries = self.entries;
            match shared.claim(next, false, |old| old.s_pos().idx == entries) {
                Some(block) => block,
                None => return false,
            }
        };
        self.highest.set(self.highest.get().max(next));
        let current = self.block();
        current.record_owner_view(self.top.get(), self.entries, self.front.get());
        current.grant(self.top.get(), self.front.get());
        let front = if reentered { block.f_idx() } else { 0 };
        self.enter(next, block, front, front);
        true
    }

    /// Takes over the block below the (empty) top block, if it still holds items.
    fn retreat(&self) -> bool {
        let prev = self.top.get() - 1;
        let below = self.shared.owner_block(prev);
        let seen = below.s_pos();
        if seen.tag != tag_of(prev) || seen.idx >= self.entries {
            return false; // exhausted by thieves, or never filled
        }
        let first_unreserved = below.take_over(prev);
        // Remember where our part of the block we leave starts: `advance` re-enters it
        // there, so its skipped or reserved slots are never written again.
        let front = self.front.get();
        self.block().record_owner_view(self.top.get(), front, front);
        self.enter(prev, below, self.entries, first_unreserved);
        true
    }

    /// Makes every item of the top block stealable now, even if the block is not full.
    ///
    /// BWoS thieves never touch the owner's top block, so a few long tasks pushed there
    /// starve idle thieves (paper §8). `share` solves that when the caller knows thieves
    /// are idle: it moves the top block's items to the end of the block (owner-private
    /// memory, no thief reads it) and grants the block as if it were full, then starts a
    /// fresh top block. Thieves take the oldest shared item first; the owner's next
    /// [`pop`](Self::pop) takes the unstolen rest back (one swap), newest first.
    ///
    /// Returns `false` if the top block was empty or no next block is free (then nothing
    /// changes). Costs a copy of the block's items and one Release store.
    ///
    /// ```
    /// use magpie_queue::{lifo, Steal};
    /// let w = lifo::Worker::new();
    /// let s = w.stealer();
    /// w.push(1).unwrap();
    /// w.push(2).unwrap();
    /// assert_eq!(s.steal(), Steal::Empty); // in the owner's top block
    /// assert!(w.share());
    /// assert_eq!(s.steal(), Steal::Success(1)); // oldest first
    /// assert_eq!(w.pop(), Some(2));
    /// ```
    pub fn share(&self) -> bool {
        let (front, back) = (self.front.get(), self.back.get());
        if back == front {
            return false;
        }
        if !self.can_advance() {
            // No free block to move on to: sharing would only compact the items (and
            // leave the block's lower slots unusable), so change nothing.
            return false;
        }
        if back < self.entries {
            let n = back - front;
            let to = self.entries - n;
            let slots = self.slots.get();
            // Highest first: `to >= front`, so no item is overwritten before it moves.
            for i in (0..n).rev() {
                // SAFETY: the top block is OWNED, so no thief reads its slots; slot
                // front + i holds an item (it lies in [front, back)) and slot to + i is
                // inside the block and empty or already moved out of.
                unsafe {
                    let item = Block::read(slots, front + i);
                    Block::write(slots, to + i, item);
                }
            }
            // Thieves will reserve from `to` up: the slots between the old front and
            // `to` are never reserved, so the block must not wait for them to be
            // released before its reuse (else it stays a spare for ever).
            self.block().forgo(to - front);
            self.front.set(to);
            self.back.set(self.entries);
        }
        let advanced = self.advance();
        debug_assert!(advanced, "can_advance said the next block is free");
        advanced
    }

    /// Removes the oldest block's worth of items, oldest first, for spilling elsewhere
    /// (e.g. a pool's injector) when [`push`](Self::push) reports the queue full.
    pub fn pop_block(&self) -> Option<Vec<T>> {
        let mut out = Vec::with_capacity(self.entries as usize);
        self.pop_block_into(&mut out).then_some(out)
    }

    /// [`pop_block`](Self::pop_block) into `out` (appended), so a caller that spills
    /// often reuses one buffer; returns whether anything was taken.
    pub fn pop_block_into(&self, out: &mut Vec<T>) -> bool {
        loop {
            match self
                .shared
                .steal::<Rules>(self.entries, |item| out.push(item))
            {
                Steal::Success(_) => return true,
                Steal::Retry => continue,
                Steal::Empty => break,
            }
        }
        let (front, back) = (self.front.get(), self.back.get());
        if front == back {
            return false;
        }
        out.reserve((back - front) as usize);
        for i in front..back {
            // SAFETY: [front, back) are the owner's items in the top block.
            out.push(unsafe { Block::read(self.slots.get(), i) });
        }
        self.back.set(front);
        true
    }

    /// Items in the owner's private top block, which thieves cannot reach until the
    /// block is granted (when full, or by [`share`](Self::share)). Owner-local: no
    /// atomic access.
    #[inline]
    pub fn private_len(&self) -> usize {
        (self.back.get() - self.front.get()) as usize
    }

    /// Whether thieves may still find items in the block just below the top: one Relaxed
    /// load of that block's thief metadata. Thieves consume blocks oldest first, so when
    /// this is `false` (and [`private_len`](Self::private_len) is 0) the queue is empty
    /// up to races with thieves.
    #[inline]
    pub fn granted_may_have_items(&self) -> bool {
        let prev = self.top.get() - 1;
        let seen = self.shared.owner_block(prev).s_pos();
        seen.tag == tag_of(prev) && seen.idx < self.entries
    }

    /// Number of items: exact when no thief is stealing, approximate otherwise. Scans
    /// the metadata of every block (O(blocks)).
    pub fn len(&self) -> usize {
        (self.back.get() - self.front.get()) as usize + self.shared.granted_len()
    }

    /// Whether the queue holds no item (same caveats as [`len`](Self::len)).
    pub fn is_empty(&self) -> bool {
        self.back.get() == self.front.get() && self.shared.granted_len() == 0
    }

    /// Total slots: blocks × entries per block.
    pub fn capacity(&self) -> usize {
        self.shared.blocks() as usize * self.entries as usize
    }

    /// Slots free in the top block, moving to the next block if the top one is full.
    fn room(&self) -> u32 {
        if self.back.get() == self.entries && !self.advance() {
            return 0;
        }
        self.entries - self.back.get()
    }
}

impl<T> Default for Worker<T> {
    fn default() -> Self {
        Self::new()
    }
}

impl<T> Drop for Worker<T> {
    fn drop(&mut self) {
        // Leave the owner's view in the block so the last handle drops those items.
        self.block()
            .record_owner_view(self.top.get(), self.back.get(), self.front.get());
    }
}

impl<T> fmt::Debug for Worker<T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("lifo::Worker")
            .field("len", &self.len())
            .field("capacity", &self.capacity())
            .finish()
    }
}

impl<T> BatchDestination<T> for Worker<T> {
    fn room(&self) -> usize {
        Worker::room(self) as usize
    }

    fn push_within_room(&self, item: T) {
        let back = self.back.get();
        assert!(back < self.entries, "push_within_room beyond room()");
        // SAFETY: as in `push`.
        unsafe { Block::write(self.slots.get(), back, item) };
        self.back.set(back + 1);
    }
}

impl<T> crate::dest::Sealed for Worker<T> {}
