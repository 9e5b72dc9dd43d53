//! One block of a BWoS queue: its slots and its per-block metadata (paper §3.2, §4.1).
//!
//! A block is owned either by the queue's owner or by the thieves. Its metadata is split
//! by writer so that owner and thieves never write the same cache line:
//!
//! * owner line: `b_pos` (producer position; FIFO thieves read it), `f_idx` (consumer
//!   boundary, owner only) and `done_target` (owner only, see below);
//! * thief line: `s_pos` (next index a thief may reserve, or [`OWNED`]), `s_cnt`, and
//!   `end_hint` (FIFO: a `b_pos` value some thief has read, so later thieves need not
//!   read the owner line for every steal).
//!
//! Positions pack a 32-bit *tag* and a 32-bit index into one `u64` (§4.2.2). The tag is
//! the logical block position of the block's current incarnation (lap × blocks + slot,
//! truncated), so a value is never reused by a later incarnation within 2^32 block
//! advances: a thief holding a stale view fails its CAS instead of stealing from the next
//! round (the bug that made NVIDIA stdexec's port lose tasks).
//!
//! `s_cnt` counts slots thieves have finished reading, one per stolen item. It is never
//! reset; the owner keeps in `done_target` the value it reaches when every reservation
//! of the current incarnation is finished (+ `entries` at a reset, − the slots no thief
//! will ever reserve: those left at a FIFO takeover, those a LIFO `share` skips), so no
//! reset can race with a late thief's increment and only thieves write `s_cnt`.

use core::mem::MaybeUninit;

use crate::ordering::ord;
use crate::pad::CachePadded;
use crate::sync::{AtomicU32, AtomicU64, Ordering::Relaxed, UnsafeCell};

/// Index value of `s_pos` while the owner holds the block: thieves must not reserve.
pub(crate) const OWNED: u32 = u32::MAX;

/// A tag and an index packed into one atomic word (the paper's round and idx fields).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Pos {
    pub(crate) tag: u32,
    pub(crate) idx: u32,
}

impl Pos {
    #[inline(always)]
    pub(crate) const fn new(tag: u32, idx: u32) -> Self {
        Self { tag, idx }
    }

    #[inline(always)]
    pub(crate) const fn pack(self) -> u64 {
        ((self.tag as u64) << 32) | self.idx as u64
    }

    #[inline(always)]
    pub(crate) const fn unpack(word: u64) -> Self {
        Self {
            tag: (word >> 32) as u32,
            idx: word as u32,
        }
    }
}

/// The tag of logical block position `position`.
#[inline(always)]
pub(crate) const fn tag_of(position: u64) -> u32 {
    position as u32
}

/// Whether tag `a` is later than tag `b`, modulo 2^32.
#[inline(always)]
pub(crate) const fn is_later(a: u32, b: u32) -> bool {
    (a.wrapping_sub(b) as i32) > 0
}

struct OwnerLine {
    b_pos: AtomicU64,
    f_idx: AtomicU32,
    done_target: AtomicU64,
}

struct ThiefLine {
    s_pos: AtomicU64,
    s_cnt: AtomicU64,
    end_hint: AtomicU64,
}

/// A block: its slots and its metadata (see the module docs).
pub struct Block<T> {
    owner: CachePadded<OwnerLine>,
    thief: CachePadded<ThiefLine>,
    slots: Box<[UnsafeCell<MaybeUninit<T>>]>,
}

/// A slot: the element type of the array the owner's fast path indexes directly.
pub(crate) type Slot<T> = UnsafeCell<MaybeUninit<T>>;

impl<T> Block<T> {
    /// A block holding nothing, as if incarnation `position` had been fully consumed.
    pub(crate) fn new_consumed(entries: u32, position: u64) -> Box<Self> {
        let done = Pos::new(tag_of(position), entries).pack();
        Box::new(Self {
            owner: CachePadded(OwnerLine {
                b_pos: AtomicU64::new(done),
                f_idx: AtomicU32::new(entries),
                done_target: AtomicU64::new(0),
            }),
            thief: CachePadded(ThiefLine {
                s_pos: AtomicU64::new(done),
                s_cnt: AtomicU64::new(0),
                end_hint: AtomicU64::new(0),
            }),
            slots: (0..entries)
                .map(|_| UnsafeCell::new(MaybeUninit::uninit()))
                .collect(),
        })
    }

    /// Base of the slot array, for the owner's fast path.
    #[inline(always)]
    pub(crate) fn slots(&self) -> *const Slot<T> {
        self.slots.as_ptr()
    }

    pub(crate) fn entries(&self) -> u32 {
        self.slots.len() as u32
    }

    /// Writes `item` into slot `idx`.
    ///
    /// # Safety
    /// `idx` is in bounds, the slot is empty, and the caller has exclusive access to it
    /// (the owner, below the block's publication point).
    #[inline(always)]
    pub(crate) unsafe fn write(slots: *const Slot<T>, idx: u32, item: T) {
        // SAFETY: in bounds and exclusively ours by the caller's contract.
        unsafe { (*slots.add(idx as usize)).with_mut(|p| p.write(MaybeUninit::new(item))) }
    }

    /// Moves the item out of slot `idx`, leaving it logically empty.
    ///
    /// # Safety
    /// `idx` is in bounds, the slot holds an initialised item, and the caller has exclusive
    /// read access to it (the owner's own range, or a thief's successful reservation).
    #[inline(always)]
    pub(crate) unsafe fn read(slots: *const Slot<T>, idx: u32) -> T {
        // SAFETY: in bounds, initialised and exclusively ours by the caller's contract.
        unsafe { (*slots.add(idx as usize)).with(|p| p.read().assume_init()) }
    }

    // ---- thief side -------------------------------------------------------------------

    #[inline]
    pub(crate) fn s_pos(&self) -> Pos {
        Pos::unpack(self.thief.s_pos.load(Relaxed))
    }

    /// `s_pos` read with Acquire, for a thief about to act on a later tag.
    pub(crate) fn s_pos_acquire(&self) -> Pos {
        // Acquire pairs with BLOCK_RESET (see there).
        Pos::unpack(self.thief.s_pos.load(ord!("STALE_TAG", Acquire)))
    }

    /// FIFO thieves read the producer position before reserving.
    #[inline]
    pub(crate) fn b_pos_acquire(&self) -> Pos {
        // Acquire pairs with the owner's FIFO_PUBLISH store: every slot below the index
        // read here was written before that store, so the thief may read it.
        Pos::unpack(self.owner.b_pos.load(ord!("FIFO_READ_BPOS", Acquire)))
    }

    /// FIFO thieves: a `b_pos` value some thief has read, kept on the thieves' line so
    /// that they need not pull the owner's line for every steal.
    #[inline]
    pub(crate) fn end_hint_acquire(&self) -> Pos {
        // Acquire pairs with FIFO_HINT_STORE: the thief that stored the hint had read that
        // b_pos with FIFO_READ_BPOS, so the owner's writes of the slots below it are
        // visible to us too.
        Pos::unpack(self.thief.end_hint.load(ord!("FIFO_HINT_LOAD", Acquire)))
    }

    /// FIFO thieves: records a `b_pos` value read with [`Self::b_pos_acquire`].
    #[inline]
    pub(crate) fn set_end_hint(&self, b: Pos) {
        // Release pairs with FIFO_HINT_LOAD (see there).
        self.thief
            .end_hint
            .store(b.pack(), ord!("FIFO_HINT_STORE", Release));
    }

    /// Relaxed view of `b_pos`, for estimates that read no slot.
    #[inline]
    pub(crate) fn b_pos_relaxed(&self) -> Pos {
        Pos::unpack(self.owner.b_pos.load(Relaxed))
    }

    /// Reserves `n` entries starting at `seen.idx` if `s_pos` still equals `seen`.
    /// `success` is the ordering the flavour needs on success (see `lifo`, `fifo`).
    #[inline]
    pub(crate) fn reserve(&self, seen: Pos, n: u32, success: core::sync::atomic::Ordering) -> bool {
        let next = Pos::new(seen.tag, seen.idx + n);
        self.thief
            .s_pos
            .compare_exchange(seen.pack(), next.pack(), success, Relaxed)
            .is_ok()
    }

    /// A thief is done reading `n` reserved slots.
    #[inline]
    pub(crate) fn release_stolen(&self, n: u32) {
        // Release pairs with the owner's BLOCK_FREE acquire: our reads of the slots
        // happen-before the owner overwrites them in the block's next incarnation.
        self.thief
            .s_cnt
            .fetch_add(u64::from(n), ord!("STEAL_DONE", Release));
    }

    /// Test hook: pretend `n` finished steals have not finished (a stalled thief).
    #[cfg(all(test, not(loom)))]
    pub(crate) fn debug_unrelease(&self, n: u32) {
        self.thief.s_cnt.fetch_sub(u64::from(n), Relaxed);
    }

    // ---- owner side -------------------------------------------------------------------

    /// Whether every thief that reserved slots of the current incarnation has finished
    /// reading them (so the owner may overwrite the block).
    #[inline]
    pub(crate) fn is_released(&self) -> bool {
        // Acquire pairs with STEAL_DONE (thieves' fetch_add; later RMWs continue the
        // release sequence), so their slot reads happen-before our overwrites.
        self.thief.s_cnt.load(ord!("BLOCK_FREE", Acquire)) == self.owner.done_target.load(Relaxed)
    }

    /// Starts incarnation `position`: empty, and either held by the owner (LIFO) or
    /// already granted to thieves from index 0 (FIFO).
    ///
    /// Precondition: [`Self::is_released`] and no slot holds an item.
    pub(crate) fn reset(&self, position: u64, granted: bool) {
        let tag = tag_of(position);
        let entries = u64::from(self.entries());
        // Relaxed: owner-only fields, or read by thieves only after they observe the new
        // s_pos / b_pos (whose tags they check).
        let target = self.owner.done_target.load(Relaxed) + entries;
        self.owner.done_target.store(target, Relaxed);
        self.owner.f_idx.store(0, Relaxed);
        self.owner.b_pos.store(Pos::new(tag, 0).pack(), Relaxed);
        let s = if granted { 0 } else { OWNED };
        // Release pairs with STALE_TAG: a thief that sees this later tag also sees every
        // ring update the owner made before, so its reload (or the next thief, after it
        // moves the cursor) finds a fresh block pointer (see `Shared::steal_from_oldest`).
        // FIFO thieves take slot contents from b_pos, LIFO thieves from the grant, so no
        // data is published here.
        self.thief
            .s_pos
            .store(Pos::new(tag, s).pack(), ord!("BLOCK_RESET", Release));
    }

    /// Takes the block back from thieves (§4.2.1): returns the first index no thief has
    /// reserved; thieves holding reservations below it finish without being waited for.
    pub(crate) fn take_over(&self, position: u64) -> u32 {
        // Relaxed: the swap and the thieves' CASes are RMWs on one location, so they are
        // totally ordered and every reservation is either before (below the returned
        // index) or fails. The owner reads only slots it wrote itself.
        let old = Pos::unpack(
            self.thief
                .s_pos
                .swap(Pos::new(tag_of(position), OWNED).pack(), Relaxed),
        );
        debug_assert_eq!(
            old.tag,
            tag_of(position),
            "takeover of a block from another round"
        );
        old.idx.min(self.entries())
    }

    /// FIFO takeover: slots at and above `first_unreserved` will never be released by a
    /// thief, so the owner stops waiting for them.
    pub(crate) fn release_unreserved(&self, first_unreserved: u32) {
        self.forgo(self.entries() - first_unreserved);
    }

    /// `n` more slots of the current incarnation that no thief will ever reserve (a
    /// FIFO takeover's unreserved tail; the slots a LIFO `share` skips below the items
    /// it moves): the block is released without them. Each slot may be forgone once.
    pub(crate) fn forgo(&self, n: u32) {
        if n > 0 {
            // Relaxed: owner-only field. Lowering the target instead of adding to
            // `s_cnt` spares a second RMW on the line thieves are stealing from
            // (measured ~200 cycles per FIFO takeover with a thief, on top of its swap).
            let target = self.owner.done_target.load(Relaxed) - u64::from(n);
            self.owner.done_target.store(target, Relaxed);
        }
    }

    /// LIFO grant (§4.2.1): a full block goes to the thieves from index `from`.
    pub(crate) fn grant(&self, position: u64, from: u32) {
        // Release pairs with LIFO_RESERVE: the slots the owner wrote are visible to the
        // thief whose reservation reads this value (or a later one in its release sequence).
        self.thief.s_pos.store(
            Pos::new(tag_of(position), from).pack(),
            ord!("LIFO_GRANT", Release),
        );
    }

    /// FIFO owner: the address of the owner line, for a write prefetch.
    #[inline(always)]
    pub(crate) fn owner_line(&self) -> *const u8 {
        core::ptr::addr_of!(self.owner).cast()
    }

    /// FIFO owner: the `b_pos` word itself, for the owner's consumer to read its end from.
    #[inline(always)]
    pub(crate) fn b_pos_word(&self) -> &AtomicU64 {
        &self.owner.b_pos
    }

    /// FIFO owner: its own last `b_pos` store (packed), i.e. the block's producer index.
    #[inline(always)]
    pub(crate) fn owner_b_pos(&self) -> u64 {
        // Relaxed: only the owner writes b_pos, so it reads back its own latest store.
        self.owner.b_pos.load(Relaxed)
    }

    /// FIFO: the owner has written slots below `b`.
    #[inline(always)]
    pub(crate) fn publish(&self, packed_b_pos: u64) {
        // Release pairs with FIFO_READ_BPOS: the slot written before this store is visible
        // to a thief that reads this b_pos.
        self.owner
            .b_pos
            .store(packed_b_pos, ord!("FIFO_PUBLISH", Release));
    }

    /// Records the owner's cached indices in the block, so that `len`, `Drop` and a later
    /// return to this block see them.
    pub(crate) fn record_owner_view(&self, position: u64, b: u32, f: u32) {
        // Relaxed: read back only by the owner, or by `Drop` after the Arc's synchronisation.
        self.owner
            .b_pos
            .store(Pos::new(tag_of(position), b).pack(), Relaxed);
        self.owner.f_idx.store(f, Relaxed);
    }

    /// Records the owner's consumer index only (FIFO: `b_pos` is already published).
    pub(crate) fn record_front(&self, f: u32) {
        // Relaxed: as in `record_owner_view`.
        self.owner.f_idx.store(f, Relaxed);
    }

    pub(crate) fn f_idx(&self) -> u32 {
        self.owner.f_idx.load(Relaxed)
    }

    /// The indices of items still in this block according to its metadata (exact when
    /// no thread is operating on the queue).
    pub(crate) fn live_range(&self) -> core::ops::Range<u32> {
        let s = self.s_pos();
        let b = self.b_pos_relaxed().idx;
        let start = if s.idx == OWNED {
            self.f_idx()
        } else {
            s.idx.min(self.entries())
        };
        start..b.max(start)
    }

    /// Drops every item in [`Self::live_range`]. An item whose `Drop` panics does not
    /// stop the others (as with `Vec`): the first panic's payload is returned, for the
    /// caller to resume once it has freed everything else.
    ///
    /// # Safety
    /// Exclusive access to the whole queue (no owner, no thief running).
    pub(crate) unsafe fn drop_live(&self) -> Option<Box<dyn std::any::Any + Send>> {
        let slots = self.slots();
        let mut panic = None;
        for i in self.live_range() {
            // SAFETY: exclusive access; slots in the live range hold initialised items
            // that nobody consumed.
            let item = unsafe { Self::read(slots, i) };
            if let Err(payload) =
                std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| drop(item)))
            {
                panic.get_or_insert(payload);
            }
        }
        panic
    }
}
