//! Where the job cache's slots come from: aligned regions of [`SLOTS_PER_REGION`]
//! slots, carved one slot at a time and given back to the allocator a whole region at
//! a time.
//!
//! Slots used to be allocated one by one and, beyond the cache's cap, freed one by one.
//! A spawner far ahead of its workers (1 M tiny spawns from one scope on one thread)
//! then spent 45 % of its time in `malloc`, `free` and the consolidation that 1 M
//! small frees provoke. Carving from regions makes a fresh slot a pointer bump, and
//! when a worker goes idle with every slot of its cache free, it hands back all but a
//! few regions, so a burst's memory does not stay pinned (see `JobCache::trim`).

use std::alloc::{self, Layout};
use std::ptr;

use crate::job_cache::{SLOT_ALIGN, SLOT_SIZE};

/// Bytes per region.
pub(crate) const REGION_SIZE: usize = if cfg!(miri) { 1024 } else { 64 * 1024 };
pub(crate) const SLOTS_PER_REGION: usize = REGION_SIZE / SLOT_SIZE;
/// Regions start on a cache line, so no slot straddles two.
const REGION_ALIGN: usize = 64;

const _: () = assert!(REGION_SIZE % SLOT_SIZE == 0 && REGION_ALIGN % SLOT_ALIGN == 0);

fn region_layout() -> Layout {
    Layout::from_size_align(REGION_SIZE, REGION_ALIGN).expect("valid region layout")
}

/// The regions one cache owns. Owner-only; not thread-safe by itself.
pub(crate) struct Slab {
    /// Every region held, in the order they are carved.
    regions: Vec<*mut u8>,
    /// Regions carved so far (`regions[..carving]`; the last of them may have room).
    carving: usize,
    /// The next never-used slot of the region being carved, and that region's end
    /// (both null before the first region).
    fresh: *mut u8,
    fresh_end: *mut u8,
    /// Slots handed out since the last [`reset`](Self::reset).
    carved: usize,
}

impl Slab {
    pub(crate) const fn new() -> Self {
        Self {
            regions: Vec::new(),
            carving: 0,
            fresh: ptr::null_mut(),
            fresh_end: ptr::null_mut(),
            carved: 0,
        }
    }

    /// Regions held.
    pub(crate) fn regions(&self) -> usize {
        self.regions.len()
    }

    /// Slots handed out since the last [`reset`](Self::reset): when the cache holds
    /// that many free slots, none is in use.
    pub(crate) fn carved(&self) -> usize {
        self.carved
    }

    /// A never-used slot of [`SLOT_SIZE`] bytes aligned to [`SLOT_ALIGN`], valid until
    /// the slab drops or is [`reset`](Self::reset).
    #[inline]
    pub(crate) fn carve(&mut self) -> *mut u8 {
        if self.fresh == self.fresh_end {
            self.next_region();
        }
        let slot = self.fresh;
        // SAFETY: `slot` is a whole slot inside the region (regions hold a whole number
        // of slots), so the result is at most one past its end.
        self.fresh = unsafe { slot.add(SLOT_SIZE) };
        self.carved += 1;
        slot
    }

    /// Moves carving to the next kept region, or to a new one.
    #[cold]
    #[inline(never)]
    fn next_region(&mut self) {
        let region = match self.regions.get(self.carving) {
            Some(&region) => region,
            None => {
                // SAFETY: the layout has a non-zero size.
                let region = unsafe { alloc::alloc(region_layout()) };
                if region.is_null() {
                    alloc::handle_alloc_error(region_layout());
                }
                self.regions.push(region);
                region
            }
        };
        self.carving += 1;
        self.fresh = region;
        // SAFETY: one past the end of the region's allocation.
        self.fresh_end = unsafe { region.add(REGION_SIZE) };
    }

    /// Forgets every slot handed out, gives back to the allocator all regions but the
    /// first `keep`, and carves the kept ones afresh, in the order they were carved
    /// before (each one in address order; the regions themselves lie where the
    /// allocator put them).
    ///
    /// # Safety
    /// No slot handed out is in use or listed anywhere any more.
    pub(crate) unsafe fn reset(&mut self, keep: usize) {
        for region in self.regions.drain(keep.min(self.regions.len())..) {
            // SAFETY: allocated with this layout in `carve`; no slot of it is in use
            // (caller's contract).
            unsafe { alloc::dealloc(region, region_layout()) };
        }
        self.carving = 0;
        self.fresh = ptr::null_mut();
        self.fresh_end = ptr::null_mut();
        self.carved = 0;
    }
}

impl Drop for Slab {
    fn drop(&mut self) {
        for &region in &self.regions {
            // SAFETY: allocated with this layout in `carve`; the cache drops its slab
            // only when no job uses its slots.
            unsafe { alloc::dealloc(region, region_layout()) };
        }
    }
}

#[cfg(test)]
mod tests {
    use super::{Slab, SLOTS_PER_REGION};
    use crate::job_cache::SLOT_SIZE;

    fn carve(slab: &mut Slab, n: usize) -> Vec<*mut u8> {
        (0..n).map(|_| slab.carve()).collect()
    }

    #[test]
    fn carves_distinct_slots_in_order_and_reuses_kept_regions_after_a_reset() {
        let mut slab = Slab::new();
        let first = carve(&mut slab, 3 * SLOTS_PER_REGION + 5);
        assert_eq!((slab.regions(), slab.carved()), (4, first.len()));
        let mut sorted = first.clone();
        sorted.sort_unstable();
        sorted.dedup();
        assert_eq!(sorted.len(), first.len(), "every slot carved once");
        assert!(sorted
            .windows(2)
            .all(|w| w[1] as usize - w[0] as usize >= SLOT_SIZE));
        for region in first.chunks(SLOTS_PER_REGION) {
            assert!(region
                .windows(2)
                .all(|w| w[1] as usize - w[0] as usize == SLOT_SIZE));
        }

        // SAFETY: the slots above are not used again.
        unsafe { slab.reset(2) };
        assert_eq!((slab.regions(), slab.carved()), (2, 0));
        // The two kept regions are carved again first, in the same order; then new ones.
        let second = carve(&mut slab, 2 * SLOTS_PER_REGION + 1);
        assert_eq!(
            second[..2 * SLOTS_PER_REGION],
            first[..2 * SLOTS_PER_REGION]
        );
        assert_eq!(slab.regions(), 3);
        for &s in &second {
            // SAFETY: a slot of a region the slab holds, used by nothing else.
            unsafe { s.write_bytes(0xA5, SLOT_SIZE) };
        }
        // SAFETY: as above.
        unsafe { slab.reset(8) };
        assert_eq!(
            slab.regions(),
            3,
            "keep beyond what is held keeps everything"
        );
    }
}
