//! Recycled memory for small spawned jobs.
//!
//! Every `spawn` boxes its closure. In spawn-heavy work most boxes are freed by another
//! thread (a thief ran the job), which sends the system allocator down its slow paths:
//! in a 1 M-task scope, `malloc`/`free` took over half the time. So each worker keeps a
//! cache of fixed-size slots. Its own frees go on a private stack of slot addresses;
//! other threads' frees go on a lock-free push-only stack that the owner takes whole
//! with one swap when its private stack runs dry. Only pushes race, and the consumer
//! takes everything at once, so there is no ABA problem.
//!
//! A slot freed by another thread comes back cold: the owner's first touch of it is a
//! cache miss. Threaded through the slots one by one, those misses form a chain the CPU
//! must follow one at a time (that chain was 80 % of a spawner's time when a thief ran
//! its jobs as fast as it spawned them). So other threads return slots in [`Chunk`]s:
//! one slot of each eight holds the addresses of the other seven, the owner follows one
//! miss per eight slots, and allocating is a pop from its private stack. Writing the
//! job into a cold slot is a store, which the CPU overlaps with the next spawns; the
//! stack is refilled in address order, so those stores stream.
//!
//! Slots are carved from the cache's [`Slab`] and never freed one by one; a worker
//! about to park calls [`JobCache::trim`], which gives back all but a reserve of
//! regions when every slot is free.

use std::cell::{Cell, UnsafeCell};
use std::ptr;
use std::sync::atomic::{AtomicPtr, Ordering::Acquire, Ordering::Relaxed, Ordering::Release};

use crate::slab::Slab;
use crate::slot_order;

/// Size and alignment of a slot: covers a job header plus a closure of a few words.
pub(crate) const SLOT_SIZE: usize = 64;
pub(crate) const SLOT_ALIGN: usize = 16;
/// Slab regions a cache keeps through [`JobCache::trim`] (4 MiB): enough that a pool
/// running steady work does not return memory at every park and carve it again.
const KEEP_REGIONS: usize = 64;

/// Slots a chunk lists besides its own.
const CHUNK_SLOTS: usize = 7;

/// A free slot that carries other free slots back to their cache: itself plus up to
/// [`CHUNK_SLOTS`] listed ones (unused entries are null), linked to the next chunk.
#[repr(C)]
struct Chunk {
    next: *mut Chunk,
    slots: [*mut u8; CHUNK_SLOTS],
}

const _: () = assert!(size_of::<Chunk>() <= SLOT_SIZE && align_of::<Chunk>() <= SLOT_ALIGN);

pub(crate) struct JobCache {
    /// Owner-only stack of free slots.
    private: UnsafeCell<Vec<*mut u8>>,
    /// Chunks of slots freed by other threads.
    remote: AtomicPtr<Chunk>,
    /// Owner-only working space for sorting `private` by address.
    scratch: UnsafeCell<Vec<*mut u8>>,
    /// Owner-only: the regions every slot of this cache lies in.
    slab: UnsafeCell<Slab>,
}

// SAFETY: `private`, `scratch` and `slab` are touched only by the owning worker thread
// (and by `Drop`, when no worker runs); `remote` is atomic.
unsafe impl Sync for JobCache {}
// SAFETY: as above; the slots are plain memory.
unsafe impl Send for JobCache {}

impl JobCache {
    pub(crate) fn new() -> Self {
        Self {
            private: UnsafeCell::new(Vec::new()),
            remote: AtomicPtr::new(ptr::null_mut()),
            scratch: UnsafeCell::new(Vec::new()),
            slab: UnsafeCell::new(Slab::new()),
        }
    }

    /// A slot of [`SLOT_SIZE`] bytes aligned to [`SLOT_ALIGN`].
    ///
    /// # Safety
    /// Called only by the owning worker thread.
    #[inline]
    pub(crate) unsafe fn alloc(&self) -> *mut u8 {
        // SAFETY: only the owning thread touches `private` (caller's contract), and no
        // other reference to it is live.
        let private = unsafe { &mut *self.private.get() };
        if let Some(slot) = private.pop() {
            return slot;
        }
        // SAFETY: forwarded.
        unsafe { self.alloc_cold(private) }
    }

    /// The private stack is empty: take what other threads returned, else carve a
    /// fresh slot.
    ///
    /// # Safety
    /// As [`alloc`](Self::alloc); `private` is this cache's private stack.
    #[inline(never)]
    unsafe fn alloc_cold(&self, private: &mut Vec<*mut u8>) -> *mut u8 {
        // When nothing came back (a 1-thread pool, or a spawner whose jobs are all
        // still queued) this is once per slot: a load, then a pointer bump. The swap
        // and the sort (whose frame is 16 KiB) stay out of that path; with them,
        // this function was a fifth of a 1-thread pool's 1 M spawns.
        if !self.remote.load(Relaxed).is_null() {
            // SAFETY: forwarded.
            if let Some(slot) = unsafe { self.refill(private) } {
                return slot;
            }
        }
        // SAFETY: owner-only like `private`, a distinct field.
        unsafe { (*self.slab.get()).carve() }
    }

    /// Takes what other threads returned, in address order, and pops one.
    ///
    /// # Safety
    /// As [`alloc`](Self::alloc); `private` is this cache's private stack.
    #[cold]
    #[inline(never)]
    unsafe fn refill(&self, private: &mut Vec<*mut u8>) -> Option<*mut u8> {
        self.take_remote(private);
        // Hand them out in address order. They come back in the order thieves ran
        // them; reused in that order, a spawner far ahead of its thieves (1 M spawns,
        // most of them spilled to the injector) wrote scattered cache lines that the
        // hardware prefetcher could not follow, and each reuse of a pool got slower
        // (1 M spawns: 15 ms on a fresh pool, 22–32 ms on a reused one; sorted: 14–17).
        // SAFETY: owner-only like `private` (caller's contract), a distinct field.
        slot_order::sort_highest_first(private, unsafe { &mut *self.scratch.get() });
        private.pop()
    }

    /// Moves every slot other threads returned onto `private`.
    fn take_remote(&self, private: &mut Vec<*mut u8>) {
        // Acquire pairs with the Release push in `free_remote_chunks`: the chunks'
        // contents are visible.
        let mut chunk = self.remote.swap(ptr::null_mut(), Acquire);
        while !chunk.is_null() {
            // SAFETY: the taken stack is ours now; every chunk is a free slot listing
            // free slots (or null).
            let (next, listed) = unsafe { ((*chunk).next, (*chunk).slots) };
            private.extend(listed.into_iter().filter(|s| !s.is_null()));
            // The chunk is read; it is a free slot of ours too.
            private.push(chunk.cast());
            chunk = next;
        }
    }

    /// When every slot of this cache is free, gives back to the allocator the slab
    /// regions beyond [`KEEP_REGIONS`], so that a burst of spawns does not pin its
    /// memory while the pool idles. Cheap when there is nothing to give back.
    ///
    /// # Safety
    /// Called only by the owning worker thread.
    pub(crate) unsafe fn trim(&self) {
        // SAFETY: owner-only (caller's contract); distinct fields, no other reference.
        let (private, scratch, slab) = unsafe {
            (
                &mut *self.private.get(),
                &mut *self.scratch.get(),
                &mut *self.slab.get(),
            )
        };
        if slab.regions() <= KEEP_REGIONS {
            return;
        }
        self.take_remote(private);
        // Each slot is freed once, so as many free slots as were carved means none is
        // in use: a queued job, or one held in another worker's outbox, keeps it all.
        if private.len() != slab.carved() {
            return;
        }
        private.clear();
        // SAFETY: no slot is in use, and none is listed any more.
        unsafe { slab.reset(KEEP_REGIONS) };
        let held = KEEP_REGIONS * crate::slab::SLOTS_PER_REGION;
        private.shrink_to(held);
        scratch.clear();
        scratch.shrink_to(held);
    }

    /// Returns a slot from the owning worker thread.
    ///
    /// # Safety
    /// `slot` came from [`alloc`](Self::alloc) of this cache and is no longer used;
    /// called only by the owning worker thread.
    #[inline]
    pub(crate) unsafe fn free_private(&self, slot: *mut u8) {
        // SAFETY: owner-only (caller's contract); the slot is free.
        unsafe { (*self.private.get()).push(slot) }
    }

    /// Returns a slot from any other thread.
    ///
    /// # Safety
    /// `slot` came from [`alloc`](Self::alloc) of this cache and is no longer used.
    #[cfg(test)]
    pub(crate) unsafe fn free_remote(&self, slot: *mut u8) {
        let chunk = slot.cast::<Chunk>();
        // SAFETY: the slot is unused and large and aligned enough for a chunk; it
        // lists nothing but itself.
        unsafe {
            chunk.write(Chunk {
                next: ptr::null_mut(),
                slots: [ptr::null_mut(); CHUNK_SLOTS],
            });
            self.free_remote_chunks(chunk, chunk);
        }
    }

    /// Returns a list of chunks (linked through `next`, `first` to `last`) from any
    /// other thread, with one atomic operation.
    ///
    /// # Safety
    /// Every chunk, and every slot it lists, came from [`alloc`](Self::alloc) of this
    /// cache and is no longer used.
    unsafe fn free_remote_chunks(&self, first: *mut Chunk, last: *mut Chunk) {
        let mut head = self.remote.load(Relaxed);
        loop {
            // SAFETY: the chunks are unused and ours to link until the push succeeds.
            unsafe { (*last).next = head };
            // Release pairs with the Acquire swap in `take_remote`: the chunks' contents
            // are visible to the owner that takes the stack.
            match self
                .remote
                .compare_exchange_weak(head, first, Release, Relaxed)
            {
                Ok(_) => return,
                Err(now) => head = now,
            }
        }
    }
}

/// Slots a worker freed for another worker's cache, packed into [`Chunk`]s and
/// returned [`OUTBOX_BATCH`] at a time, so that the two workers do not fight over the
/// `remote` stack's cache line once per job.
pub(crate) struct Outbox {
    home: Cell<*const JobCache>,
    /// Chunks ready to go, newest first; `first` is the one being filled.
    first: Cell<*mut Chunk>,
    last: Cell<*mut Chunk>,
    /// Slots listed in `first` so far.
    filled: Cell<usize>,
    /// Slots queued in all (chunks included).
    len: Cell<usize>,
}

const OUTBOX_BATCH: usize = 32;

impl Outbox {
    pub(crate) fn new() -> Self {
        Self {
            home: Cell::new(ptr::null()),
            first: Cell::new(ptr::null_mut()),
            last: Cell::new(ptr::null_mut()),
            filled: Cell::new(0),
            len: Cell::new(0),
        }
    }

    /// Queues `slot` for its `home` cache.
    ///
    /// # Safety
    /// `slot` came from `home` and is no longer used; `home` outlives the next
    /// [`flush`](Self::flush) (it lives in the registry, which every worker holding an
    /// outbox keeps alive).
    #[inline]
    pub(crate) unsafe fn free(&self, home: &JobCache, slot: *mut u8) {
        if !ptr::eq(self.home.get(), home) {
            // SAFETY: forwarded.
            unsafe { self.flush() };
            self.home.set(home);
        }
        let first = self.first.get();
        if first.is_null() || self.filled.get() == CHUNK_SLOTS {
            // The slot becomes a new chunk at the front of the list.
            let chunk = slot.cast::<Chunk>();
            // SAFETY: the slot is unused and large and aligned enough for a chunk.
            unsafe {
                chunk.write(Chunk {
                    next: first,
                    slots: [ptr::null_mut(); CHUNK_SLOTS],
                })
            };
            if first.is_null() {
                self.last.set(chunk);
            }
            self.first.set(chunk);
            self.filled.set(0);
        } else {
            // SAFETY: `first` is our chunk being filled; entry `filled` is free.
            unsafe { (*first).slots[self.filled.get()] = slot };
            self.filled.set(self.filled.get() + 1);
        }
        self.len.set(self.len.get() + 1);
        if self.len.get() >= OUTBOX_BATCH {
            // SAFETY: forwarded.
            unsafe { self.flush() };
        }
    }

    /// Returns every queued slot to its cache.
    ///
    /// # Safety
    /// The queued slots' cache is alive.
    pub(crate) unsafe fn flush(&self) {
        let first = self.first.replace(ptr::null_mut());
        if !first.is_null() {
            // SAFETY: the chunks and the slots they list all came from `home` and are
            // unused.
            unsafe { (*self.home.get()).free_remote_chunks(first, self.last.get()) };
        }
        self.len.set(0);
        self.filled.set(0);
    }
}

#[cfg(test)]
impl JobCache {
    fn regions(&self) -> usize {
        // SAFETY: test-only; the test thread owns the cache.
        unsafe { (*self.slab.get()).regions() }
    }
}

#[cfg(test)]
mod tests {
    use super::{JobCache, Outbox, KEEP_REGIONS};
    use crate::slab::SLOTS_PER_REGION;

    /// Frees every `every`-th slot through `outbox` (as another worker would), the
    /// rest privately, then flushes the outbox.
    ///
    /// # Safety
    /// The slots came from `cache` and are unused; the caller plays its owner.
    unsafe fn free_mixed(cache: &JobCache, outbox: &Outbox, slots: &[*mut u8], every: usize) {
        for (i, &slot) in slots.iter().enumerate() {
            // SAFETY: forwarded.
            unsafe {
                if i % every == 0 {
                    outbox.free(cache, slot);
                } else {
                    cache.free_private(slot);
                }
            }
        }
        // SAFETY: `cache` is alive.
        unsafe { outbox.flush() };
    }

    #[test]
    fn slots_are_recycled_privately_and_remotely() {
        let cache = JobCache::new();
        // SAFETY: this thread plays the owner throughout.
        unsafe {
            let a = cache.alloc();
            let b = cache.alloc();
            assert_ne!(a, b);
            assert_eq!(a as usize % super::SLOT_ALIGN, 0);
            cache.free_private(a);
            assert_eq!(cache.alloc(), a, "private free list reused first");
            cache.free_remote(b);
            cache.free_remote(a);
            let x = cache.alloc();
            let y = cache.alloc();
            let mut got = [x, y];
            got.sort();
            let mut want = [a, b];
            want.sort();
            assert_eq!(got, want, "remote frees are reused");
            cache.free_private(x);
            cache.free_remote(y);
        }
        drop(cache); // gives back every region (Miri would flag a leak)
    }

    #[test]
    fn an_outbox_returns_every_slot_in_chunks() {
        let cache = JobCache::new();
        let outbox = Outbox::new();
        // SAFETY: this thread plays the owner and, through the outbox, the other thread.
        unsafe {
            // 45 = a full batch of 32 (4 chunks of 8) and 13 more (a full chunk and a
            // partly filled one) left for the explicit flush.
            let mut slots: Vec<*mut u8> = (0..45).map(|_| cache.alloc()).collect();
            for &slot in &slots {
                outbox.free(&cache, slot);
            }
            outbox.flush();
            let mut back: Vec<*mut u8> = (0..45).map(|_| cache.alloc()).collect();
            slots.sort();
            back.sort();
            assert_eq!(back, slots, "every slot comes back once");
            free_mixed(&cache, &outbox, &back, 2);
        }
        drop(cache); // gives back every region (Miri would flag a leak)
    }

    #[test]
    fn trim_gives_back_regions_beyond_the_reserve_once_every_slot_is_free() {
        let cache = JobCache::new();
        let outbox = Outbox::new();
        let n = (KEEP_REGIONS + 3) * SLOTS_PER_REGION;
        // SAFETY: this thread plays the owner and, through the outbox, the other thread.
        unsafe {
            let slots: Vec<*mut u8> = (0..n).map(|_| cache.alloc()).collect();
            assert_eq!(cache.regions(), KEEP_REGIONS + 3);
            let (last, rest) = slots.split_last().unwrap();
            free_mixed(&cache, &outbox, rest, 3);
            cache.trim();
            assert_eq!(
                cache.regions(),
                KEEP_REGIONS + 3,
                "one slot is still in use"
            );
            outbox.free(&cache, *last);
            outbox.flush();
            cache.trim();
            assert_eq!(cache.regions(), KEEP_REGIONS);
            let again: Vec<*mut u8> = (0..n).map(|_| cache.alloc()).collect();
            let mut distinct = again.clone();
            distinct.sort_unstable();
            distinct.dedup();
            assert_eq!(distinct.len(), n, "every slot handed out once");
            assert_eq!(cache.regions(), KEEP_REGIONS + 3);
            for slot in again {
                cache.free_private(slot);
            }
        }
    }
}
