//! The part of a BWoS queue that the owner and the thieves share: the ring of blocks, the
//! thieves' cursor, and the blocks kept aside while slow thieves finish reading them.
//!
//! The ring maps logical block positions (`position % blocks`) to blocks. Usually a slot
//! keeps its block forever. When the owner wants to reuse a block whose items are all
//! consumed but whose last thief is still copying an item out (a "slow thief"), it does
//! not wait and does not report "full" (the tokio port did): it parks that block in
//! `spares`, installs a released spare (allocating one only if none is free) and goes on.
//! A stalled thief thus costs at most one extra block of memory, never a failed push.

use core::ptr::NonNull;

use crate::block::{is_later, tag_of, Block, Pos, OWNED};
use crate::config::Config;
use crate::ordering::ord;
use crate::pad::CachePadded;
use crate::steal::Steal;
use crate::sync::{AtomicPtr, AtomicU64, Mutex, Ordering::Relaxed};

/// The queue flavour a [`Stealer`](crate::Stealer) works on: [`lifo::Rules`] or
/// [`fifo::Rules`]. Sealed; its items are internal.
///
/// [`lifo::Rules`]: crate::lifo::Rules
/// [`fifo::Rules`]: crate::fifo::Rules
pub trait Flavour: crate::dest::Sealed {
    /// Whether thieves may pass a block the owner holds (FIFO: the consumer's block lies
    /// behind granted ones) or must stop there (LIFO: the owner's block is the top).
    #[doc(hidden)]
    const PASS_OWNED: bool;

    /// First index past the stealable entries of `block`, whose s_pos is `seen`, or
    /// `None` if the block was reset after `seen` was read. An end at least `want`
    /// entries past `seen.idx` may be returned in place of the exact one (a lower bound
    /// that is cheaper to find).
    #[doc(hidden)]
    fn stealable_end(block: &Block<impl Sized>, seen: Pos, want: u32) -> Option<u32>;

    /// Relaxed estimate of [`Flavour::stealable_end`], for sampling (reads no slot).
    #[doc(hidden)]
    fn estimated_end(block: &Block<impl Sized>, seen: Pos) -> Option<u32>;

    /// The ordering a successful reservation needs.
    #[doc(hidden)]
    fn reserve_ordering() -> core::sync::atomic::Ordering;
}

pub(crate) struct Shared<T> {
    ring: Box<[AtomicPtr<Block<T>>]>,
    /// Logical position of the oldest block thieves may still find items in.
    cursor: CachePadded<AtomicU64>,
    /// Blocks not in the ring; some may still be read by slow thieves.
    spares: Mutex<Vec<BlockPtr<T>>>,
    /// Constant `entries`: the FIFO owner's bound for a front block it no longer fills.
    full_mark: AtomicU64,
    blocks: u64,
    entries: u32,
}

/// The owner moves the thieves' cursor when it lags more than this many positions
/// behind the block the owner enters. Only thieves move it otherwise, and block tags
/// compare modulo 2^32: a cursor left 2^31 positions behind (a queue nobody stole from
/// for ~2^41 items) would read every tag as earlier and steal nothing. Checked every
/// [`CURSOR_CHECK_EVERY`] positions, so the owner reads the thieves' line that rarely.
/// Small in unit tests, so that they reach it.
const CURSOR_MAX_LAG: u64 = if cfg!(test) { 8 } else { 1 << 30 };
/// See [`CURSOR_MAX_LAG`].
const CURSOR_CHECK_EVERY: u64 = if cfg!(test) { 4 } else { 1 << 20 };

/// An owning pointer to a block, movable between the ring and the spare list.
struct BlockPtr<T>(NonNull<Block<T>>);

// SAFETY: a BlockPtr is just ownership of a heap block; sending it sends the block, whose
// items are `T: Send`.
unsafe impl<T: Send> Send for BlockPtr<T> {}

// SAFETY: all shared mutation goes through atomics and the block protocol; items of type
// `T: Send` move between threads but are never shared.
unsafe impl<T: Send> Send for Shared<T> {}
// SAFETY: as above.
unsafe impl<T: Send> Sync for Shared<T> {}

/// A thief's reserved slots `[next, end)` not yet handed out. Dropped (also when the
/// caller's sink panics) it drops those items and releases all the reserved slots, so
/// the block can be reused; a panicking sink neither leaks items nor pins the block.
struct Taking<'a, T> {
    block: &'a Block<T>,
    start: u32,
    next: u32,
    end: u32,
}

impl<T> Drop for Taking<'_, T> {
    fn drop(&mut self) {
        for i in self.next..self.end {
            // SAFETY: reserved for this thief and not read yet (see `steal_in`).
            drop(unsafe { Block::read(self.block.slots(), i) });
        }
        self.block.release_stolen(self.end - self.start);
    }
}

impl<T> Shared<T> {
    /// A queue whose blocks all look fully consumed, incarnations `0..blocks`.
    pub(crate) fn new(config: Config) -> Self {
        let entries = config.entries_per_block() as u32;
        let blocks = config.blocks() as u64;
        let ring = (0..blocks)
            .map(|p| AtomicPtr::new(Box::into_raw(Block::new_consumed(entries, p))))
            .collect();
        Self {
            ring,
            cursor: CachePadded(AtomicU64::new(blocks)),
            spares: Mutex::new(Vec::new()),
            full_mark: AtomicU64::new(u64::from(entries)),
            blocks,
            entries,
        }
    }

    #[inline]
    pub(crate) fn entries(&self) -> u32 {
        self.entries
    }

    /// A word always holding `entries` (see the field).
    pub(crate) fn full_mark(&self) -> &AtomicU64 {
        &self.full_mark
    }

    pub(crate) fn blocks(&self) -> u64 {
        self.blocks
    }

    /// The block currently at logical position `position`'s ring slot, for the owner
    /// (the only writer of the ring, so Relaxed is enough).
    pub(crate) fn owner_block(&self, position: u64) -> &Block<T> {
        // SAFETY: ring pointers are always valid blocks, freed only in Drop.
        unsafe { &*self.ring[(position % self.blocks) as usize].load(Relaxed) }
    }

    /// The block at ring slot `slot`, for a thief.
    fn thief_block(&self, slot: usize) -> &Block<T> {
        // Acquire pairs with RING_PUBLISH: a block installed by the owner (possibly just
        // allocated) is fully initialised for us.
        let ptr = self.ring[slot].load(ord!("RING_LOAD", Acquire));
        // SAFETY: blocks are freed only when the last handle drops the queue; we hold one.
        unsafe { &*ptr }
    }

    /// Owner: the block to use for incarnation `position`, reset and ready, or `None` if
    /// the previous incarnation in that slot still holds items (`consumed` says whether
    /// it does not). Never waits for thieves.
    pub(crate) fn claim(
        &self,
        position: u64,
        granted: bool,
        consumed: impl Fn(&Block<T>) -> bool,
    ) -> Option<&Block<T>> {
        let slot = (position % self.blocks) as usize;
        let old = self.ring[slot].load(Relaxed);
        // SAFETY: ring pointers are valid until Drop.
        let old_ref = unsafe { &*old };
        if !consumed(old_ref) {
            return None;
        }
        if old_ref.is_released() {
            old_ref.reset(position, granted);
            self.nudge_cursor(position);
            return Some(old_ref);
        }
        // A thief is still copying out of `old`: park it and install a released spare.
        let mut spares = self.spares.lock().unwrap_or_else(|e| e.into_inner());
        let fresh = match spares.iter().position(|b| {
            // SAFETY: spare pointers are valid until Drop.
            unsafe { b.0.as_ref() }.is_released()
        }) {
            Some(i) => spares.swap_remove(i).0,
            None => NonNull::from(Box::leak(Block::new_consumed(
                self.entries,
                position - self.blocks,
            ))),
        };
        // SAFETY: `old` was in the ring, so non-null.
        spares.push(BlockPtr(unsafe { NonNull::new_unchecked(old) }));
        drop(spares);
        // SAFETY: a spare or freshly allocated block, valid until Drop.
        let fresh_ref = unsafe { fresh.as_ref() };
        fresh_ref.reset(position, granted);
        // Release pairs with RING_LOAD: thieves that find this pointer see the block's
        // initialisation and reset.
        self.ring[slot].store(fresh.as_ptr(), ord!("RING_PUBLISH", Release));
        self.nudge_cursor(position);
        Some(fresh_ref)
    }

    /// Owner, having entered `position`: moves a cursor lagging far behind (see
    /// [`CURSOR_MAX_LAG`]) to `position + 1 - blocks`. Every position below that is
    /// gone: its slot was entered again on the way to `position`, which needed it
    /// consumed (`claim`), so thieves skip nothing they could steal. After this
    /// position's reset and ring store, so CURSOR_ADVANCE carries them as a thief's
    /// advance does.
    #[inline]
    fn nudge_cursor(&self, position: u64) {
        if position % CURSOR_CHECK_EVERY != 0 {
            return;
        }
        let cursor = self.cursor.load(Relaxed);
        let to = (position + 1).saturating_sub(self.blocks);
        if to > cursor.saturating_add(CURSOR_MAX_LAG) {
            self.advance_cursor(cursor, to);
        }
    }

    /// Test hook: the thieves' cursor.
    #[cfg(all(test, not(loom)))]
    pub(crate) fn cursor_position(&self) -> u64 {
        self.cursor.load(Relaxed)
    }

    /// Test hook: how many blocks are parked in the spare list.
    #[cfg(all(test, not(loom)))]
    pub(crate) fn spare_count(&self) -> usize {
        self.spares.lock().unwrap_or_else(|e| e.into_inner()).len()
    }

    /// Thief: reserve up to `max` items in the oldest block that has any, hand them to
    /// `sink` oldest first, and return how many were taken.
    pub(crate) fn steal<F: Flavour>(&self, max: u32, sink: impl FnMut(T)) -> Steal<u32> {
        self.steal_from_oldest::<F>(max, false, sink)
    }

    /// Thief: like [`steal`](Self::steal), but takes half of what that block holds
    /// (rounded up, so a lone item is taken alone), at most `max`.
    pub(crate) fn steal_half<F: Flavour>(&self, max: u32, sink: impl FnMut(T)) -> Steal<u32> {
        self.steal_from_oldest::<F>(max, true, sink)
    }

    fn steal_from_oldest<F: Flavour>(
        &self,
        max: u32,
        half: bool,
        mut sink: impl FnMut(T),
    ) -> Steal<u32> {
        debug_assert!(max > 0);
        // Each iteration either steals, gives up, moves the cursor forward or reloads a
        // stale block pointer; more than a lap plus the two jumps a lagging cursor may
        // need to catch up (past the consumer's block, with 2 blocks) means it raced with
        // the owner: report Retry.
        for _ in 0..self.blocks + 3 {
            // Acquire pairs with CURSOR_ADVANCE: we see the ring updates that the thread
            // which moved the cursor here had seen, so our ring load below mostly returns
            // this slot's block for `cursor` or a later one. Not always: that thread may
            // itself have loaded a stale pointer (the exhausted-block path reads the next
            // block's tag Relaxed; a pointer can also come back to a slot), so the block
            // we load may have left this slot and been reused in another one. Safety
            // does not rest on this ordering: only a tag of this slot's own positions
            // moves the cursor (below).
            let cursor = self.cursor.load(ord!("CURSOR_LOAD", Acquire));
            let slot = (cursor % self.blocks) as usize;
            let block = self.thief_block(slot);
            let seen = block.s_pos();
            if seen.tag != tag_of(cursor) {
                // Acquire (STALE_TAG) before acting on a later tag: we then see the ring
                // updates the owner made before the reset that wrote it, so a reload here,
                // or a thief that acquires our cursor move, finds a newer block pointer.
                let tag = block.s_pos_acquire().tag;
                if is_later(tag, tag_of(cursor)) {
                    let ahead = u64::from(tag.wrapping_sub(tag_of(cursor)));
                    if ahead % self.blocks != 0 {
                        // A position of another slot: `block` left this slot (parked for
                        // a slow thief) and was reused elsewhere, and our pointer is
                        // stale. Its tag says nothing of this slot's block for `cursor`,
                        // which may hold items: reload (now seeing the ring as of that
                        // reset). Jumping on it skipped that block for good (the model
                        // `lifo_cursor_ignores_a_block_reused_in_another_slot`).
                        continue;
                    }
                    // Incarnation `cursor` is long gone: the owner entered position
                    // `later` in this slot, which needed every position up to
                    // `later - blocks` consumed. Jump past them all at once, so a cursor
                    // left behind for many laps catches up in one step (`ahead` is a
                    // positive multiple of `blocks`, so the target lies past `cursor`).
                    let later = cursor + ahead;
                    self.advance_cursor(cursor, later + 1 - self.blocks);
                    continue;
                }
                return Steal::Empty;
            }
            if seen.idx >= self.entries {
                if seen.idx == OWNED && !F::PASS_OWNED {
                    return Steal::Empty;
                }
                // Exhausted (or the FIFO consumer's): move on if the next block exists.
                // A later tag read through a stale pointer (a block since reused in
                // another slot) proves that too: the owner enters positions in order.
                let next = self
                    .thief_block(((cursor + 1) % self.blocks) as usize)
                    .s_pos();
                if next.tag == tag_of(cursor + 1) || is_later(next.tag, tag_of(cursor + 1)) {
                    self.advance_cursor(cursor, cursor + 1);
                    continue;
                }
                return Steal::Empty;
            }
            return match Self::steal_in::<F>(block, seen, max, half, &mut sink) {
                Some(0) => Steal::Empty,
                Some(n) => Steal::Success(n),
                None => Steal::Retry,
            };
        }
        Steal::Retry
    }

    /// Thief: steal from the block at a random slot if it is granted and non-empty (the
    /// paper's randomized FIFO procedure, §3.4).
    pub(crate) fn steal_at<F: Flavour>(
        &self,
        random: u64,
        max: u32,
        mut sink: impl FnMut(T),
    ) -> Steal<u32> {
        let block = self.thief_block((random % self.blocks) as usize);
        let seen = block.s_pos();
        if seen.idx >= self.entries {
            return Steal::Empty;
        }
        match Self::steal_in::<F>(block, seen, max, false, &mut sink) {
            Some(0) => Steal::Empty,
            Some(n) => Steal::Success(n),
            None => Steal::Retry,
        }
    }

    /// Reserve and copy out up to `max` entries of `block` given its s_pos `seen` (with
    /// `half`, up to half of the stealable ones, rounded up). `Some(0)`: nothing there;
    /// `None`: lost a race.
    #[inline]
    fn steal_in<F: Flavour>(
        block: &Block<T>,
        seen: Pos,
        max: u32,
        half: bool,
        sink: &mut impl FnMut(T),
    ) -> Option<u32> {
        // A half steal needs the exact end; a plain one only `max` entries.
        let end = F::stealable_end(block, seen, if half { u32::MAX } else { max })?;
        if seen.idx >= end {
            return Some(0);
        }
        let available = end - seen.idx;
        let n = max.min(if half {
            available.div_ceil(2)
        } else {
            available
        });
        if !block.reserve(seen, n, F::reserve_ordering()) {
            return None;
        }
        let mut taking = Taking {
            block,
            start: seen.idx,
            next: seen.idx,
            end: seen.idx + n,
        };
        while taking.next < taking.end {
            let i = taking.next;
            taking.next += 1;
            // SAFETY: the CAS reserved [seen.idx, seen.idx + n) for us alone; the
            // flavour's ordering made the owner's writes of these slots visible; each
            // index is read once (`next` moves past it first).
            sink(unsafe { Block::read(block.slots(), i) });
        }
        Some(n) // `taking` drops here: releases the n slots
    }

    fn advance_cursor(&self, from: u64, to: u64) {
        // Release pairs with CURSOR_LOAD (see there). Failure is Relaxed: another thief
        // moved it, and we simply reload.
        let _ = self
            .cursor
            .compare_exchange(from, to, ord!("CURSOR_ADVANCE", Release), Relaxed);
    }

    /// Occupancy sample (§3.4): one random block's metadata; true with probability equal
    /// to that block's stealable fraction, so the expectation is stealable / capacity.
    pub(crate) fn sample<F: Flavour>(&self, random: u64) -> bool {
        let block = self.thief_block((random % self.blocks) as usize);
        let s = block.s_pos();
        if s.idx >= self.entries {
            return false;
        }
        let Some(end) = F::estimated_end(block, s) else {
            return false;
        };
        let avail = end.saturating_sub(s.idx);
        // Use the high bits of the random word for the acceptance test.
        ((random >> 32) % u64::from(self.entries)) < u64::from(avail)
    }

    /// Items in blocks granted to thieves, by a scan of every block (approximate while
    /// other threads run). The owner adds its own block(s).
    pub(crate) fn granted_len(&self) -> usize {
        (0..self.ring.len())
            .map(|slot| {
                let block = self.thief_block(slot);
                if block.s_pos().idx == OWNED {
                    0
                } else {
                    block.live_range().len()
                }
            })
            .sum()
    }
}

impl<T> Drop for Shared<T> {
    fn drop(&mut self) {
        let spares = core::mem::take(&mut *self.spares.lock().unwrap_or_else(|e| e.into_inner()));
        let ring = self.ring.iter().map(|p| p.load(Relaxed));
        // An item whose `Drop` panics leaks neither the other items nor the blocks: the
        // first panic resumes once everything is freed.
        let mut panic = None;
        for ptr in ring.chain(spares.into_iter().map(|b| b.0.as_ptr())) {
            // SAFETY: the last handle is gone, so we are alone; every block pointer is
            // owned exactly once, by the ring or the spare list, and was made by Box.
            unsafe {
                if let Some(payload) = (*ptr).drop_live() {
                    panic.get_or_insert(payload);
                }
                drop(Box::from_raw(ptr));
            }
        }
        if let Some(payload) = panic {
            std::panic::resume_unwind(payload);
        }
    }
}
