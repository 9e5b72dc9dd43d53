//! Recycled memory for small spawned jobs.
//!
//! Every `spawn` boxes its closure. In spawn-heavy work most boxes are freed by another
//! thread (a thief ran the job), which sends the system allocator down its slow paths:
//! in a 1 M-task scope, `malloc`/`free` took over half the time. So each worker keeps a
//! cache of fixed-size slots. Its own frees go on a private list (plain pointer writes);
//! other threads' frees go on a lock-free push-only stack that the owner takes whole
//! with one swap when its private list runs dry. Only pushes race, and the consumer
//! takes everything at once, so there is no ABA problem.

use std::alloc::{self, Layout};
use std::cell::Cell;
use std::ptr;
use std::sync::atomic::{AtomicPtr, Ordering::Acquire, Ordering::Relaxed, Ordering::Release};

/// Size and alignment of a slot: covers a job header plus a closure of a few words.
pub(crate) const SLOT_SIZE: usize = 64;
pub(crate) const SLOT_ALIGN: usize = 16;
/// Most free slots a worker keeps privately (4 MiB); beyond that frees go to the
/// allocator. A spawner runs far ahead of the workers that run its jobs (1 M tiny
/// spawns from one scope): slots coming back in bulk must be reused, not freed and
/// allocated again (at 4096, `malloc`/`free` were back to ~40 % of such a run).
const MAX_PRIVATE: usize = 1 << 16;

fn slot_layout() -> Layout {
    Layout::from_size_align(SLOT_SIZE, SLOT_ALIGN).expect("valid slot layout")
}

/// A free slot's first word links it to the next free one.
struct FreeSlot {
    next: *mut FreeSlot,
}

pub(crate) struct JobCache {
    /// Owner-only free list.
    private: Cell<*mut FreeSlot>,
    private_len: Cell<usize>,
    /// Slots freed by other threads.
    remote: AtomicPtr<FreeSlot>,
}

// SAFETY: `private` and `private_len` are touched only by the owning worker thread (and
// by `Drop`, when no worker runs); `remote` is atomic.
unsafe impl Sync for JobCache {}
// SAFETY: as above; the slots are plain memory.
unsafe impl Send for JobCache {}

impl JobCache {
    pub(crate) fn new() -> Self {
        Self {
            private: Cell::new(ptr::null_mut()),
            private_len: Cell::new(0),
            remote: AtomicPtr::new(ptr::null_mut()),
        }
    }

    /// A slot of [`SLOT_SIZE`] bytes aligned to [`SLOT_ALIGN`].
    ///
    /// # Safety
    /// Called only by the owning worker thread.
    pub(crate) unsafe fn alloc(&self) -> *mut u8 {
        let mut head = self.private.get();
        if head.is_null() {
            // Acquire pairs with the Release push in `free_remote_chain`: the links are
            // visible.
            head = self.remote.swap(ptr::null_mut(), Acquire);
            // SAFETY: the taken stack is ours now.
            self.private_len.set(unsafe { Self::trim(head) });
        }
        if head.is_null() {
            // SAFETY: the layout has a non-zero size.
            let p = unsafe { alloc::alloc(slot_layout()) };
            if p.is_null() {
                alloc::handle_alloc_error(slot_layout());
            }
            return p;
        }
        // SAFETY: `head` is a free slot of ours; its first word is the link.
        self.private.set(unsafe { (*head).next });
        self.private_len
            .set(self.private_len.get().saturating_sub(1));
        head.cast()
    }

    /// Keeps at most [`MAX_PRIVATE`] slots of the list at `head`, freeing the rest (a
    /// burst of stolen spawns must not pin its memory until the pool drops); returns
    /// the length kept.
    ///
    /// # Safety
    /// The list is owned by the caller and every slot in it is free.
    unsafe fn trim(head: *mut FreeSlot) -> usize {
        let mut len = 0;
        let mut node = head;
        while !node.is_null() {
            len += 1;
            // SAFETY: a free slot of the list; its first word is the link.
            let next = unsafe { (*node).next };
            if len == MAX_PRIVATE {
                // SAFETY: as above; cut the list here and free the tail.
                unsafe { (*node).next = ptr::null_mut() };
                let mut rest = next;
                while !rest.is_null() {
                    // SAFETY: free slots allocated with `slot_layout`, now unlisted.
                    unsafe {
                        let after = (*rest).next;
                        alloc::dealloc(rest.cast(), slot_layout());
                        rest = after;
                    }
                }
                break;
            }
            node = next;
        }
        len
    }

    /// Returns a slot from the owning worker thread.
    ///
    /// # Safety
    /// `slot` came from [`alloc`](Self::alloc) of this cache and is no longer used;
    /// called only by the owning worker thread.
    pub(crate) unsafe fn free_private(&self, slot: *mut u8) {
        if self.private_len.get() >= MAX_PRIVATE {
            // SAFETY: allocated with this layout (by `alloc`).
            unsafe { alloc::dealloc(slot, slot_layout()) };
            return;
        }
        let slot = slot.cast::<FreeSlot>();
        // SAFETY: the slot is ours and unused; it is large and aligned enough for a link.
        unsafe { (*slot).next = self.private.get() };
        self.private.set(slot);
        self.private_len.set(self.private_len.get() + 1);
    }

    /// Returns a slot from any other thread.
    ///
    /// # Safety
    /// `slot` came from [`alloc`](Self::alloc) of this cache and is no longer used.
    #[cfg(test)]
    pub(crate) unsafe fn free_remote(&self, slot: *mut u8) {
        let slot = slot.cast::<FreeSlot>();
        // SAFETY: forwarded; a one-slot chain.
        unsafe { self.free_remote_chain(slot, slot) }
    }

    /// Returns a chain of slots (linked through their first word, `first` to `last`)
    /// from any other thread, with one atomic operation.
    ///
    /// # Safety
    /// Every slot of the chain came from [`alloc`](Self::alloc) of this cache and is no
    /// longer used.
    unsafe fn free_remote_chain(&self, first: *mut FreeSlot, last: *mut FreeSlot) {
        let mut head = self.remote.load(Relaxed);
        loop {
            // SAFETY: the chain is unused and ours to link until the push succeeds.
            unsafe { (*last).next = head };
            // Release pairs with the Acquire swap in `alloc`: the link is visible to the
            // owner that takes the stack.
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

/// Slots a worker freed for another worker's cache, returned in chains of
/// [`OUTBOX_BATCH`] so that the two workers do not fight over the `remote` stack's cache
/// line once per job.
pub(crate) struct Outbox {
    home: Cell<*const JobCache>,
    first: Cell<*mut FreeSlot>,
    last: Cell<*mut FreeSlot>,
    len: Cell<usize>,
}

const OUTBOX_BATCH: usize = 32;

impl Outbox {
    pub(crate) fn new() -> Self {
        Self {
            home: Cell::new(ptr::null()),
            first: Cell::new(ptr::null_mut()),
            last: Cell::new(ptr::null_mut()),
            len: Cell::new(0),
        }
    }

    /// Queues `slot` for its `home` cache.
    ///
    /// # Safety
    /// `slot` came from `home` and is no longer used; `home` outlives the next
    /// [`flush`](Self::flush) (it lives in the registry, which every worker holding an
    /// outbox keeps alive).
    pub(crate) unsafe fn free(&self, home: &JobCache, slot: *mut u8) {
        if !ptr::eq(self.home.get(), home) {
            // SAFETY: forwarded.
            unsafe { self.flush() };
            self.home.set(home);
        }
        let slot = slot.cast::<FreeSlot>();
        // SAFETY: the slot is unused; we link it at the front of our chain.
        unsafe { (*slot).next = self.first.get() };
        if self.first.get().is_null() {
            self.last.set(slot);
        }
        self.first.set(slot);
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
            // SAFETY: the chain's slots all came from `home` and are unused.
            unsafe { (*self.home.get()).free_remote_chain(first, self.last.get()) };
        }
        self.len.set(0);
    }
}

impl Drop for JobCache {
    fn drop(&mut self) {
        for mut head in [self.private.get(), *self.remote.get_mut()] {
            while !head.is_null() {
                // SAFETY: exclusive access at drop; every listed slot is free and was
                // allocated with `slot_layout`.
                unsafe {
                    let next = (*head).next;
                    alloc::dealloc(head.cast(), slot_layout());
                    head = next;
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::JobCache;

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
        drop(cache); // frees what is listed (Miri/ASan would flag a leak or double free)
    }
}
