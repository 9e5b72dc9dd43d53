//! Free job slots sorted by address, highest first (the job cache pops from the end, so
//! it hands out the lowest address first).
//!
//! The job cache sorts its free slots each time a batch comes back from other workers,
//! so that reuse walks memory in address order (see `job_cache.rs`). A batch can hold
//! tens of thousands of slots, and a comparison sort took a fifth of a 1 M-spawn run on
//! two workers. Slot addresses are at least a cache line apart and mostly lie within a
//! few MiB, so a least-significant-digit radix sort on their line number does it in
//! two or three linear passes.

use std::ptr;

const DIGIT_BITS: u32 = 11;
const BUCKETS: usize = 1 << DIGIT_BITS;
/// Below this many slots a comparison sort is cheaper than a pass over the counters.
const SMALL: usize = 512;
/// Most radix passes: a span of 2^33 cache lines. Wider spans use a comparison sort.
const MAX_PASSES: u32 = 3;
/// Slots are at least a cache line (64 bytes) apart: their line numbers differ.
const LINE_SHIFT: u32 = 6;

/// Sorts `slots` by address, highest first. `scratch` is working space; its contents
/// are overwritten, and the two vectors may swap buffers.
pub(crate) fn sort_highest_first(slots: &mut Vec<*mut u8>, scratch: &mut Vec<*mut u8>) {
    let n = slots.len();
    if n < SMALL {
        slots.sort_unstable_by(|a, b| b.cmp(a));
        return;
    }
    let (lo, hi) = slots.iter().fold((usize::MAX, 0), |(lo, hi), &s| {
        (lo.min(s as usize), hi.max(s as usize))
    });
    let span_bits = usize::BITS - ((hi - lo) >> LINE_SHIFT).leading_zeros();
    let passes = span_bits.div_ceil(DIGIT_BITS);
    if passes > MAX_PASSES {
        slots.sort_unstable_by(|a, b| b.cmp(a));
        return;
    }
    // The key grows as the address falls, so ascending keys are descending addresses.
    let key = |s: *mut u8| (hi - (s as usize)) >> LINE_SHIFT;
    scratch.clear();
    scratch.resize(n, ptr::null_mut());
    let mut starts = [0usize; BUCKETS];
    for pass in 0..passes {
        let digit = |s: *mut u8| (key(s) >> (pass * DIGIT_BITS)) & (BUCKETS - 1);
        starts.fill(0);
        for &s in slots.iter() {
            starts[digit(s)] += 1;
        }
        let mut sum = 0;
        for start in starts.iter_mut() {
            let count = *start;
            *start = sum;
            sum += count;
        }
        // Stable scatter: equal digits keep the order of the previous pass.
        for &s in slots.iter() {
            let d = digit(s);
            scratch[starts[d]] = s;
            starts[d] += 1;
        }
        std::mem::swap(slots, scratch);
    }
}

#[cfg(test)]
mod tests {
    use super::{sort_highest_first, SMALL};

    /// `n` distinct line-aligned addresses inside `base`'s allocation, shuffled.
    fn shuffled(base: &mut [u8], n: usize, seed: u64) -> Vec<*mut u8> {
        let lines = base.len() / 64;
        let mut picks: Vec<usize> = (0..lines).collect();
        let mut x = seed;
        for i in (1..picks.len()).rev() {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            picks.swap(i, (x % (i as u64 + 1)) as usize);
        }
        let p = base.as_mut_ptr();
        picks[..n].iter().map(|&l| p.wrapping_add(l * 64)).collect()
    }

    #[test]
    fn radix_and_comparison_paths_sort_highest_first() {
        // Spread over more lines than 2^11 (one radix digit), so two passes run. Miri
        // sorts slowly: there the radix path runs once, at its smallest size.
        let (lines, cases) = if cfg!(miri) {
            (2_500, &[0, 1, SMALL][..])
        } else {
            (40_000, &[0, 1, SMALL - 1, SMALL, 30_000][..])
        };
        let mut memory = vec![0u8; 64 * lines];
        let mut scratch = Vec::new();
        for (seed, &n) in cases.iter().enumerate() {
            let mut slots = shuffled(&mut memory, n, seed as u64 + 1);
            let mut want = slots.clone();
            want.sort_unstable_by(|a, b| b.cmp(a));
            sort_highest_first(&mut slots, &mut scratch);
            assert_eq!(slots, want, "{n} slots");
        }
    }
}
