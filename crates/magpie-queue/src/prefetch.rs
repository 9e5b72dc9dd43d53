//! Write prefetch (`PREFETCHW`): asks for a cache line in exclusive state before the
//! owner writes it.
//!
//! A thief that stole an item keeps the item's slot line in its cache. When the owner
//! fills that slot again, its store needs the thief's copy invalidated first — a
//! cross-core round trip that plain stores pay one line at a time once the store buffer
//! is full. The FIFO owner prefetches the slot line [`SLOTS_AHEAD`] pushes ahead, once
//! per line ([`every`]), so the round trips overlap with its pushes. Measured on the
//! 2-core machine (slow host mode; with the takeover's second RMW removed, see
//! `Block::release_unreserved`):
//! - a probe timing each phase of the owner loop, one thief stealing ~12 %: the fill
//!   phase's cycles over its no-thief cycles 1.45× → 1.1×;
//! - `magpie bench queue`, two alternated pairs: FIFO owner at ~10 % stolen 0.73–0.84×
//!   → 0.86–0.88× of its no-steal rate; FIFO owner alone 6.4–6.6× → 7.5–7.6× st3 (lines
//!   also come from L2 in exclusive state).
//!
//! A read prefetch (`PREFETCHT0`) measured no gain: the line arrives shared and the
//! store still waits for the invalidation. The LIFO owner is not prefetched: the same
//! change made its owner-only loop 0.65× as fast in the harness (0.96× in the probe),
//! and its rate under a thief already holds.
//!
//! `PREFETCHW` is a hint: it never faults, whatever the address, and changes no memory.
//! It is used only where CPUID reports it (all x86-64 CPUs since Intel Broadwell and
//! every AMD one); elsewhere, and under Miri, nothing is prefetched.

/// How many slots ahead of the one being written the FIFO owner prefetches: 16 lines
/// of `u64` items. 64, 128 and 256 measured alike; far enough to hide a round trip of
/// ~100–300 ns at the fill rate of one push per 1–2 ns.
pub(crate) const SLOTS_AHEAD: u32 = 128;

/// Every how many pushes the owner prefetches: once per 64-byte line of `T`s (a power
/// of two, so the test is a mask: 8 for `u64`, 1 for items of 64 bytes or more).
pub(crate) const fn every<T>() -> u32 {
    let size = core::mem::size_of::<T>();
    if size == 0 {
        return 1 << 16; // zero-sized items occupy no line: (almost) never
    }
    let mut n = 1;
    while (n * 2) * size <= 64 {
        n *= 2;
    }
    n as u32
}

/// Prefetches for writing the slot [`SLOTS_AHEAD`] after `idx` in a block of `entries`
/// slots at `slots`, or in the block at `next` (the one the owner pushes into after
/// this) when that slot lies beyond this block. Any pointer will do: a stale one only
/// wastes the hint.
#[inline(always)]
pub(crate) fn slot_ahead<S>(slots: *const S, next: *const S, idx: u32, entries: u32) {
    let ahead = idx + SLOTS_AHEAD;
    let slot = if ahead < entries {
        slots.wrapping_add(ahead as usize)
    } else {
        next.wrapping_add((ahead - entries) as usize)
    };
    for_write(slot);
}

/// Whether this CPU executes `PREFETCHW` (CPUID leaf 0x8000_0001, ECX bit 8).
pub(crate) fn write_supported() -> bool {
    #[cfg(all(target_arch = "x86_64", not(miri)))]
    {
        use core::sync::atomic::{AtomicU8, Ordering::Relaxed};
        // 0 = not yet asked, 1 = no, 2 = yes. Relaxed: every thread computes the same
        // answer, so a race only repeats the question.
        static CACHED: AtomicU8 = AtomicU8::new(0);
        match CACHED.load(Relaxed) {
            1 => false,
            2 => true,
            _ => {
                #[allow(unused_unsafe)] // `__cpuid` is an unsafe fn before Rust 1.87
                // SAFETY: CPUID exists on every x86-64 CPU; leaf 0x8000_0001 is read
                // only after leaf 0x8000_0000 says it exists.
                let yes = unsafe {
                    use core::arch::x86_64::__cpuid;
                    __cpuid(0x8000_0000).eax >= 0x8000_0001
                        && __cpuid(0x8000_0001).ecx & (1 << 8) != 0
                };
                CACHED.store(if yes { 2 } else { 1 }, Relaxed);
                yes
            }
        }
    }
    #[cfg(not(all(target_arch = "x86_64", not(miri))))]
    {
        false
    }
}

/// Prefetches the line holding `p` for writing. Call only where [`write_supported`]
/// said yes; `p` may be any address (a hint neither faults nor reads memory).
#[inline(always)]
pub(crate) fn for_write<T>(p: *const T) {
    #[cfg(all(target_arch = "x86_64", not(miri)))]
    // SAFETY: PREFETCHW changes no architectural state and never faults, even for an
    // unmapped address; the caller checked CPUID for it.
    unsafe {
        core::arch::asm!(
            "prefetchw [{}]",
            in(reg) p,
            options(nostack, preserves_flags, readonly)
        );
    }
    #[cfg(not(all(target_arch = "x86_64", not(miri))))]
    let _ = p;
}
