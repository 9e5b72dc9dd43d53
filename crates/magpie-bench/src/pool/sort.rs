//! Parallel quicksort of seeded random `u32`s: Hoare partition around a median-of-three
//! pivot, both sides forked with `join` down to a sequential cutoff (the same for every
//! runtime). Each run sorts a fresh copy (copied untimed) and is checked against a
//! reference sorted once.

use rand::rngs::SmallRng;
use rand::{Rng as _, SeedableRng};

use super::run::{
    check, count_label, run_in_pool, Config, ForkJoin, ForkJoinTask, Sample, Workload,
};

/// Slices of at most this many elements are sorted sequentially.
pub const CUTOFF: usize = 10_000;

pub const SEED: u64 = 0x6d61_6770_6965;

/// Sorts `v` ascending: partition, then the two sides in parallel with `F::join`.
pub fn quicksort<F: ForkJoin>(v: &mut [u32], cutoff: usize) {
    if v.len() <= cutoff.max(16) {
        v.sort_unstable();
        return;
    }
    let p = partition(v);
    let (lo, hi) = v.split_at_mut(p);
    F::join(
        || quicksort::<F>(lo, cutoff),
        || quicksort::<F>(&mut hi[1..], cutoff),
    );
}

/// [`quicksort`] with chili's `join`.
pub fn quicksort_chili(s: &mut chili::Scope<'_>, v: &mut [u32], cutoff: usize) {
    if v.len() <= cutoff.max(16) {
        v.sort_unstable();
        return;
    }
    let p = partition(v);
    let (lo, hi) = v.split_at_mut(p);
    s.join(
        |s| quicksort_chili(s, lo, cutoff),
        |s| quicksort_chili(s, &mut hi[1..], cutoff),
    );
}

/// Hoare partition of `v` (at least 3 elements) around the median of its first, middle
/// and last elements. Returns the pivot's final index `p`: `v[..p] <= v[p] <= v[p+1..]`.
/// Elements equal to the pivot stop both scans, so runs of equal keys split evenly.
fn partition(v: &mut [u32]) -> usize {
    let (n, m) = (v.len(), v.len() / 2);
    if v[m] < v[0] {
        v.swap(m, 0);
    }
    if v[n - 1] < v[0] {
        v.swap(n - 1, 0);
    }
    if v[n - 1] < v[m] {
        v.swap(n - 1, m);
    }
    v.swap(0, m);
    let pivot = v[0];
    let (mut i, mut j) = (1, n - 1);
    loop {
        while i <= j && v[i] < pivot {
            i += 1;
        }
        while i <= j && v[j] > pivot {
            j -= 1;
        }
        if i >= j {
            break;
        }
        v.swap(i, j);
        i += 1;
        j -= 1;
    }
    v.swap(0, j);
    j
}

struct SortTask<'a> {
    v: &'a mut [u32],
    cutoff: usize,
}

impl ForkJoinTask for SortTask<'_> {
    type Out = ();

    fn run<F: ForkJoin>(self) {
        quicksort::<F>(self.v, self.cutoff);
    }

    fn run_chili(self, s: &mut chili::Scope<'_>) -> Option<()> {
        quicksort_chili(s, self.v, self.cutoff);
        Some(())
    }
}

/// Quicksort of `len` random `u32`s from [`SEED`] on `configs`; generates them and sorts
/// a reference copy (untimed).
pub fn workload(len: usize, cutoff: usize, configs: &[Config]) -> Workload {
    let mut rng = SmallRng::seed_from_u64(SEED);
    let input: Vec<u32> = (0..len).map(|_| rng.random()).collect();
    let mut reference = input.clone();
    reference.sort_unstable();
    let mut buf = input.clone();
    let label = format!("qsort {}", count_label(len as u64));
    Workload::new(
        "quicksort",
        format!("n={len}"),
        label,
        configs,
        move |c, pools, label| {
            buf.copy_from_slice(&input);
            let task = SortTask {
                v: &mut buf,
                cutoff,
            };
            let ((), secs) = run_in_pool(task, c, pools, label)?;
            if let Some(at) = buf.iter().zip(&reference).position(|(a, b)| a != b) {
                let what = format!("{label} (first difference at index {at})");
                check(&what, c, buf[at], reference[at])?;
            }
            Ok(Sample {
                secs,
                answer: buf.len() as u64,
            })
        },
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::pool::run::{answers, Rayon, JOIN_PEERS};

    #[test]
    fn partition_splits_around_the_pivot() {
        let mut rng = SmallRng::seed_from_u64(7);
        for len in [3usize, 4, 5, 17, 100, 1000] {
            for range in [2u32, 10, u32::MAX] {
                let mut v: Vec<u32> = (0..len).map(|_| rng.random_range(0..range)).collect();
                let p = partition(&mut v);
                assert!(v[..p].iter().all(|&x| x <= v[p]), "{len} {range}");
                assert!(v[p + 1..].iter().all(|&x| x >= v[p]), "{len} {range}");
            }
        }
    }

    #[test]
    fn sorts_with_small_cutoff_and_duplicates() {
        let mut rng = SmallRng::seed_from_u64(1);
        let mut v: Vec<u32> = (0..5000).map(|_| rng.random_range(0..50)).collect();
        let mut want = v.clone();
        want.sort_unstable();
        let pool = crate::pool::run::rayon_pool(2).unwrap();
        pool.install(|| quicksort::<Rayon>(&mut v, 0));
        assert_eq!(v, want);
    }

    #[test]
    fn runs_and_verifies_on_both() {
        let w = workload(50_000, 1000, &JOIN_PEERS);
        assert_eq!(w.info.label, "qsort 50k");
        assert_eq!(answers(w), [50_000; 3]);
    }
}
