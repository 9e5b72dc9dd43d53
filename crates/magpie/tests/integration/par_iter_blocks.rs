//! `by_exponential_blocks` and `by_uniform_blocks`: the same results as without blocks
//! (against the sequential iterator, through the adaptors that keep the blocks), and
//! the blocks really run one after another: no item of a block starts before every
//! item of the blocks before it has finished.

use std::sync::atomic::{AtomicUsize, Ordering};

use magpie::prelude::*;
use proptest::prelude::*;

use crate::common;
use common::iter_pool as pool;

/// Block boundaries of `by_exponential_blocks` on `threads` threads: the first
/// position of the block holding `i`.
fn exponential_block_start(i: usize, threads: usize) -> usize {
    let (mut start, mut size) = (0, threads);
    while i >= start + size {
        start += size;
        size *= 2;
    }
    start
}

/// Runs `positions` (0..n) through `map` and checks, for every item, that all items
/// before its block's start had finished when it began: the blocks are sequential.
/// Each item spins a little so that the other worker has time to steal.
fn blocks_are_sequential(
    n: usize,
    block_start: impl Fn(usize) -> usize + Sync,
    blocks: &str,
    size: usize,
) {
    let finished = AtomicUsize::new(0);
    let violations = AtomicUsize::new(0);
    let check = |i: usize| {
        if finished.load(Ordering::SeqCst) < block_start(i) {
            violations.fetch_add(1, Ordering::SeqCst);
        }
        for _ in 0..200 {
            std::hint::spin_loop();
        }
        finished.fetch_add(1, Ordering::SeqCst);
        i
    };
    let sum: usize = pool().install(|| match blocks {
        "uniform" => (0..n)
            .into_par_iter()
            .by_uniform_blocks(size)
            .map(check)
            .sum(),
        _ => (0..n)
            .into_par_iter()
            .by_exponential_blocks()
            .map(check)
            .sum(),
    });
    assert_eq!(sum, n * n.saturating_sub(1) / 2);
    assert_eq!(
        violations.load(Ordering::SeqCst),
        0,
        "an item started before an earlier block ended"
    );
}

#[test]
fn uniform_blocks_run_one_after_another() {
    blocks_are_sequential(20_000, |i| i / 1000 * 1000, "uniform", 1000);
}

/// `run` gets an item check for positions `0..20_000` in uniform blocks of 1000 (as
/// [`blocks_are_sequential`]'s); no item may start before its earlier blocks ended.
fn uniform_blocks_are_sequential_through(run: impl FnOnce(&(dyn Fn(usize) -> usize + Sync))) {
    let finished = AtomicUsize::new(0);
    let violations = AtomicUsize::new(0);
    let check = |i: usize| {
        if finished.load(Ordering::SeqCst) < i / 1000 * 1000 {
            violations.fetch_add(1, Ordering::SeqCst);
        }
        for _ in 0..200 {
            std::hint::spin_loop();
        }
        finished.fetch_add(1, Ordering::SeqCst);
        i
    };
    run(&check);
    assert_eq!(
        violations.load(Ordering::SeqCst),
        0,
        "an item started before an earlier block ended"
    );
}

/// The consumers with their own producer wrapper keep the blocks too: `collect` and
/// `par_extend` into a `Vec` (written in place) and `collect` into a `Result`.
#[test]
fn collect_runs_the_blocks_one_after_another() {
    let want: Vec<usize> = (0..20_000).collect();
    uniform_blocks_are_sequential_through(|check| {
        let v: Vec<usize> = pool().install(|| {
            (0..20_000usize)
                .into_par_iter()
                .by_uniform_blocks(1000)
                .map(check)
                .collect()
        });
        assert_eq!(v, want);
    });
    uniform_blocks_are_sequential_through(|check| {
        let mut v = Vec::new();
        pool().install(|| {
            v.par_extend(
                (0..20_000usize)
                    .into_par_iter()
                    .by_uniform_blocks(1000)
                    .map(check),
            )
        });
        assert_eq!(v, want);
    });
    uniform_blocks_are_sequential_through(|check| {
        let r: Result<Vec<usize>, ()> = pool().install(|| {
            (0..20_000usize)
                .into_par_iter()
                .by_uniform_blocks(1000)
                .map(|i| Ok(check(i)))
                .collect()
        });
        assert_eq!(r, Ok(want.clone()));
    });
}

#[test]
fn exponential_blocks_run_one_after_another() {
    let threads = pool().current_num_threads();
    blocks_are_sequential(
        20_000,
        |i| exponential_block_start(i, threads),
        "exponential",
        0,
    );
}

#[test]
fn find_first_stops_after_the_block_holding_the_match() {
    // Blocks of 2, 4, 8, ... on two threads: the match at 999 lies in the block
    // [510, 1022); no position after that block is looked at.
    let visited = AtomicUsize::new(0);
    let highest = AtomicUsize::new(0);
    let first = pool().install(|| {
        (0..1_000_000usize)
            .into_par_iter()
            .by_exponential_blocks()
            .find_first(|&x| {
                visited.fetch_add(1, Ordering::Relaxed);
                highest.fetch_max(x, Ordering::Relaxed);
                // Slow enough that the other worker wakes and steals while the left
                // part scans: without blocks it looks at positions from 500,000 on.
                for _ in 0..500 {
                    std::hint::spin_loop();
                }
                x % 1000 == 999
            })
    });
    assert_eq!(first, Some(999));
    assert!(
        highest.load(Ordering::Relaxed) < 1022,
        "looked at {}",
        highest.load(Ordering::Relaxed)
    );
    assert!(visited.load(Ordering::Relaxed) <= 1022);
}

#[test]
#[should_panic(expected = "block size must not be 0")]
fn a_uniform_block_of_zero_panics() {
    let _ = (0..10u32).into_par_iter().by_uniform_blocks(0);
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(48))]

    #[test]
    fn blocks_give_the_sequential_results(v in proptest::collection::vec(0u32..1000, 0..3000), size in 1usize..400, exponential: bool) {
        let p = pool();
        let want_map: Vec<u64> = v.iter().map(|&x| u64::from(x) * 3).collect();
        let want_filtered: Vec<u32> = v.iter().copied().filter(|x| x % 3 == 0).collect();
        let first = v.iter().position(|&x| x > 900);
        let last = v.iter().rposition(|&x| x > 900);
        macro_rules! run {
            ($blocks:ident $(, $size:expr)?) => {{
                let map: Vec<u64> = p.install(|| v.par_iter().$blocks($($size)?).map(|&x| u64::from(x) * 3).collect());
                let filtered: Vec<u32> = p.install(|| v.par_iter().$blocks($($size)?).copied().filter(|x| x % 3 == 0).collect());
                let sum: u64 = p.install(|| v.par_iter().$blocks($($size)?).map(|&x| u64::from(x)).sum());
                let found_first = p.install(|| v.par_iter().enumerate().$blocks($($size)?).find_first(|&(_, &x)| x > 900).map(|(i, _)| i));
                let found_last = p.install(|| v.par_iter().enumerate().$blocks($($size)?).find_last(|&(_, &x)| x > 900).map(|(i, _)| i));
                let any = p.install(|| v.par_iter().$blocks($($size)?).find_any(|&&x| x > 900).copied());
                prop_assert_eq!(&map, &want_map);
                prop_assert_eq!(&filtered, &want_filtered);
                prop_assert_eq!(sum, v.iter().map(|&x| u64::from(x)).sum::<u64>());
                prop_assert_eq!(found_first, first);
                prop_assert_eq!(found_last, last);
                prop_assert_eq!(any.is_some(), first.is_some());
                prop_assert!(any.map_or(true, |x| x > 900));
            }};
        }
        if exponential {
            run!(by_exponential_blocks);
        } else {
            run!(by_uniform_blocks, size);
        }
    }
}
