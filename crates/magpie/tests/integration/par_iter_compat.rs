//! The rest of rayon's iterator API that code moving from rayon calls: `update`,
//! `with_max_len`, `fold_chunks`, `take_any`/`skip_any` and their `_while` forms,
//! `panic_fuse`, `try_reduce_with`,
//! `partition_map`, `collect_vec_list`, `unzip_into_vecs` and the lexicographic
//! comparisons, against the sequential iterator (or, for the cuts whose items depend on
//! timing, against the properties rayon documents), on random, empty and one-element
//! inputs.

use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use magpie::iter::Either;
use magpie::prelude::*;
use proptest::prelude::*;

use crate::common;
use common::iter_pool as pool;

/// A pool of one thread, where nothing is stolen.
fn one_thread() -> &'static magpie::ThreadPool {
    static POOL: std::sync::OnceLock<magpie::ThreadPool> = std::sync::OnceLock::new();
    POOL.get_or_init(|| {
        magpie::ThreadPoolBuilder::new()
            .num_threads(1)
            .build()
            .unwrap()
    })
}

/// Whether the `(index, value)` pairs come in increasing index order and each value is
/// the input's at that index: a subsequence of `v`, in order.
fn is_ordered_subsequence(got: &[(usize, u32)], v: &[u32]) -> bool {
    got.windows(2).all(|w| w[0].0 < w[1].0) && got.iter().all(|&(i, x)| v[i] == x)
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    #[test]
    fn with_max_len_bounds_every_piece(n in 0usize..5000, max in 1usize..300, min in 1usize..40) {
        let p = pool();
        // `fold` yields one count per piece: every piece is cut to `max` positions or
        // fewer, through the adaptors that come after the bound.
        let pieces: Vec<usize> = p.install(|| {
            (0..n).into_par_iter().with_max_len(max).map(|x| x + 1).enumerate().fold(|| 0, |c, _| c + 1).collect()
        });
        prop_assert_eq!(pieces.iter().sum::<usize>(), n);
        prop_assert!(pieces.iter().all(|&c| c <= max), "a piece over {}: {:?}", max, pieces);
        // Scaled to the adaptor's positions: a chunk of 4 spans 4 base positions.
        let chunks: Vec<usize> = p.install(|| {
            (0..n).into_par_iter().with_max_len(max).chunks(4).fold(|| 0, |c, _| c + 1).collect()
        });
        prop_assert_eq!(chunks.iter().sum::<usize>(), n.div_ceil(4));
        prop_assert!(chunks.iter().all(|&c| c <= (max / 4).max(1)));
        // On one thread nothing is stolen, so the pieces are exactly those of the
        // forced splits, which spend the budget: none is cut below half of `max`.
        if n > max {
            let pieces: Vec<usize> = one_thread().install(|| {
                (0..n).into_par_iter().with_max_len(max).fold(|| 0, |c, _| c + 1).collect()
            });
            prop_assert!(pieces.iter().all(|&c| c <= max && c >= max.div_ceil(2)), "max {}: {:?}", max, pieces);
        }
        // After a filter the bound is on positions, so on items too.
        let kept: Vec<usize> = p.install(|| {
            (0..n).into_par_iter().filter(|x| x % 3 != 0).with_max_len(max).fold(|| 0, |c, _| c + 1).collect()
        });
        prop_assert_eq!(kept.iter().sum::<usize>(), (0..n).filter(|x| x % 3 != 0).count());
        prop_assert!(kept.iter().all(|&c| c <= max));
        // A lower bound wins: no piece is cut below `min`, so one may keep up to
        // 2 × min - 1 positions.
        let both: Vec<usize> = p.install(|| {
            (0..n).into_par_iter().with_min_len(min).with_max_len(max).fold(|| 0, |c, _| c + 1).collect()
        });
        prop_assert_eq!(both.iter().sum::<usize>(), n);
        prop_assert!(both.iter().all(|&c| c <= max.max(2 * min - 1)));
        // Ordered consumers see the same items.
        let v: Vec<usize> = p.install(|| (0..n).into_par_iter().with_max_len(max).map(|x| x * 2).collect());
        prop_assert_eq!(v, (0..n).map(|x| x * 2).collect::<Vec<_>>());
        let first = p.install(|| (0..n).into_par_iter().with_max_len(max).find_first(|x| x % 97 == 96));
        prop_assert_eq!(first, (0..n).find(|x| x % 97 == 96));
    }

    #[test]
    fn fold_chunks_match_std_chunks(v in prop::collection::vec(0u32..1000, 0..3000), size in 1usize..70, max in 1usize..50) {
        let p = pool();
        let want: Vec<u64> = v.chunks(size).map(|c| c.iter().map(|&x| u64::from(x)).sum()).collect();
        let got: Vec<u64> = p.install(|| {
            v.par_iter().with_max_len(max).fold_chunks(size, || 0u64, |acc, &x| acc + u64::from(x)).collect()
        });
        prop_assert_eq!(got, want);
        // The initial value is cloned per chunk; a `Cell` is `Send` but not `Sync`.
        let got: Vec<u32> = p.install(|| {
            v.par_iter()
                .fold_chunks_with(size, std::cell::Cell::new(0u32), |acc, &x| {
                    acc.set(acc.get().max(x));
                    acc
                })
                .map(std::cell::Cell::into_inner)
                .collect()
        });
        prop_assert_eq!(got, v.chunks(size).map(|c| *c.iter().max().unwrap()).collect::<Vec<_>>());
        prop_assert_eq!(p.install(|| v.par_iter().fold_chunks(size, || 0, |n, _| n + 1).len()), v.len().div_ceil(size));
    }

    #[test]
    fn take_and_skip_any_keep_counts_and_order(v in prop::collection::vec(0u32..100, 0..3000), n in 0usize..3500, min in 1usize..200) {
        let p = pool();
        let taken: Vec<(usize, u32)> =
            p.install(|| v.par_iter().copied().enumerate().with_min_len(min).take_any(n).collect());
        prop_assert_eq!(taken.len(), n.min(v.len()));
        prop_assert!(is_ordered_subsequence(&taken, &v));
        let kept: Vec<(usize, u32)> =
            p.install(|| v.par_iter().copied().enumerate().with_min_len(min).skip_any(n).collect());
        prop_assert_eq!(kept.len(), v.len().saturating_sub(n));
        prop_assert!(is_ordered_subsequence(&kept, &v));
        // Counts after a filter: the gate counts items, not positions.
        let odd = v.iter().filter(|&&x| x % 2 == 1).count();
        let taken = p.install(|| v.par_iter().filter(|&&x| x % 2 == 1).take_any(n).count());
        prop_assert_eq!(taken, n.min(odd));
    }

    #[test]
    fn take_and_skip_any_while_respect_the_predicate(v in prop::collection::vec(0u32..100, 0..3000), limit in 0u32..110) {
        let p = pool();
        let below = |x: &(usize, u32)| x.1 < limit;
        let taken: Vec<(usize, u32)> =
            p.install(|| v.par_iter().copied().enumerate().take_any_while(below).collect());
        prop_assert!(is_ordered_subsequence(&taken, &v));
        prop_assert!(taken.iter().all(below));
        let skipped_rest: Vec<(usize, u32)> =
            p.install(|| v.par_iter().copied().enumerate().skip_any_while(below).collect());
        prop_assert!(is_ordered_subsequence(&skipped_rest, &v));
        // Only items that pass the predicate may be skipped.
        let failing = v.iter().filter(|&&x| x >= limit).count();
        prop_assert_eq!(skipped_rest.iter().filter(|x| !below(x)).count(), failing);
        if failing == 0 {
            prop_assert_eq!(taken.len(), v.len());
            prop_assert!(skipped_rest.is_empty());
        }
        // The sequential case the rayon docs describe: one piece behaves like std.
        let one_piece: Vec<u32> =
            p.install(|| v.par_iter().copied().with_min_len(usize::MAX).take_any_while(|&x| x < limit).collect());
        let std_prefix: Vec<u32> = v.iter().copied().take_while(|&x| x < limit).collect();
        prop_assert_eq!(one_piece, std_prefix);
    }

    #[test]
    fn update_partition_map_and_lists_match_std(v in prop::collection::vec(0u32..1000, 0..3000)) {
        let p = pool();
        let updated: Vec<u32> = p.install(|| v.par_iter().copied().update(|x| *x = *x * 3 + 1).collect());
        prop_assert_eq!(updated, v.iter().map(|x| x * 3 + 1).collect::<Vec<_>>());

        let split = |x: u32| if x % 3 == 0 { Either::Left(x) } else { Either::Right(x.to_string()) };
        let (left, right): (Vec<u32>, Vec<String>) = p.install(|| v.par_iter().copied().partition_map(split));
        prop_assert_eq!(left, v.iter().copied().filter(|x| x % 3 == 0).collect::<Vec<_>>());
        prop_assert_eq!(right, v.iter().filter(|x| *x % 3 != 0).map(u32::to_string).collect::<Vec<_>>());

        let list = p.install(|| v.par_iter().copied().collect_vec_list());
        prop_assert_eq!(list.into_iter().flatten().collect::<Vec<_>>(), v.clone());

        let (mut a, mut b) = (vec![7u32; 5], vec![String::from("old")]);
        p.install(|| v.par_iter().map(|&x| (x, x.to_string())).unzip_into_vecs(&mut a, &mut b));
        prop_assert_eq!(a, v.clone());
        prop_assert_eq!(b, v.iter().map(u32::to_string).collect::<Vec<_>>());
    }

    #[test]
    fn try_reduce_with_matches_std(v in prop::collection::vec(prop::option::weighted(0.995, 0u32..1000), 0..3000)) {
        let p = pool();
        let got = p.install(|| v.par_iter().copied().try_reduce_with(|a, b| Some(a + b)));
        let want = if v.is_empty() {
            None
        } else {
            Some(v.iter().copied().try_fold(0, |acc, x| Some(acc + x?)))
        };
        prop_assert_eq!(got, want);
        // The success path on long inputs too: the same values without the `None`s.
        let all_some: Vec<Option<u32>> = v.iter().flatten().map(|&x| Some(x)).collect();
        let got = p.install(|| all_some.par_iter().copied().try_reduce_with(|a, b| Some(a + b)));
        let sum: u32 = v.iter().flatten().sum();
        prop_assert_eq!(got, (!all_some.is_empty()).then_some(Some(sum)));
        // A failure from the operation itself: a sum past a bound.
        let bounded = |a: u32, b: u32| if a + b > 200_000 { Err("too big") } else { Ok(a + b) };
        let got = p.install(|| v.par_iter().flat_map_iter(|&x| x).map(Ok::<u32, &str>).try_reduce_with(bounded));
        let total: u32 = v.iter().flatten().sum();
        let want = if v.iter().flatten().count() == 0 {
            None
        } else if total > 200_000 {
            Some(Err("too big"))
        } else {
            Some(Ok(total))
        };
        prop_assert_eq!(got, want);
    }

    #[test]
    fn comparisons_match_std(a in prop::collection::vec(0u8..3, 0..400), b in prop::collection::vec(0u8..3, 0..400), cut in 0usize..400, max in 1usize..50) {
        let p = pool();
        // Random pairs are mostly unequal at once; a prefix of `a` tests equal runs
        // that end by length, on either side; `with_max_len` cuts the search into
        // several pieces.
        let prefix = &a[..cut.min(a.len())];
        for (left, right) in [(&a[..], &b[..]), (&a[..], prefix), (prefix, &a[..]), (&a[..], &a[..])] {
            let (x, y) = (|| left.par_iter().with_max_len(max), || right.par_iter());
            prop_assert_eq!(p.install(|| x().cmp(y())), left.iter().cmp(right.iter()));
            prop_assert_eq!(p.install(|| x().partial_cmp(y())), left.iter().partial_cmp(right.iter()));
            prop_assert_eq!(p.install(|| x().eq(y())), left.iter().eq(right.iter()));
            prop_assert_eq!(p.install(|| x().ne(y())), left.iter().ne(right.iter()));
            prop_assert_eq!(p.install(|| x().lt(y())), left.iter().lt(right.iter()));
            prop_assert_eq!(p.install(|| x().le(y())), left.iter().le(right.iter()));
            prop_assert_eq!(p.install(|| x().gt(y())), left.iter().gt(right.iter()));
            prop_assert_eq!(p.install(|| x().ge(y())), left.iter().ge(right.iter()));
        }
    }
}

#[test]
fn partial_cmp_sees_incomparable_items() {
    let a = [1.0, f64::NAN, 3.0];
    let b = [1.0, 2.0, 3.0];
    pool().install(|| {
        assert_eq!(a.par_iter().partial_cmp(b.par_iter()), None);
        assert!(!a.par_iter().lt(b.par_iter()) && !a.par_iter().ge(b.par_iter()));
        assert!(a.par_iter().ne(b.par_iter()));
    });
}

#[test]
fn empty_and_single_inputs() {
    let p = pool();
    let empty: Vec<u32> = Vec::new();
    p.install(|| {
        assert_eq!(empty.par_iter().take_any(3).count(), 0);
        assert_eq!(empty.par_iter().skip_any(3).count(), 0);
        assert_eq!(empty.par_iter().take_any_while(|_| true).count(), 0);
        assert_eq!(empty.par_iter().skip_any_while(|_| false).count(), 0);
        assert_eq!(empty.par_iter().panic_fuse().count(), 0);
        assert_eq!(
            empty
                .par_iter()
                .map(|&x| Some(x))
                .try_reduce_with(|a, b| Some(a + b)),
            None
        );
        assert!(empty
            .par_iter()
            .collect_vec_list()
            .iter()
            .all(Vec::is_empty));
        assert!(empty.par_iter().eq(empty.par_iter()));
        assert_eq!(
            empty.par_iter().cmp([1u32].par_iter()),
            std::cmp::Ordering::Less
        );
        let one = [9u32];
        assert_eq!(one.par_iter().take_any(1).collect::<Vec<_>>(), [&9]);
        assert_eq!(one.par_iter().take_any(0).count(), 0);
        assert_eq!(one.par_iter().skip_any(1).count(), 0);
        assert_eq!(one.par_iter().skip_any_while(|&&x| x > 9).count(), 1);
        assert_eq!(one.par_iter().take_any_while(|&&x| x > 9).count(), 0);
        assert_eq!(
            one.par_iter()
                .map(|&x| Some(x))
                .try_reduce_with(|a, b| Some(a + b)),
            Some(Some(9))
        );
        assert_eq!(one.par_iter().copied().update(|x| *x += 1).sum::<u32>(), 10);
        let (l, r): (Vec<u32>, Vec<u32>) = one
            .par_iter()
            .partition_map(|&x| Either::<u32, u32>::Right(x));
        assert!(l.is_empty() && r == [9]);
        assert_eq!(
            one.par_iter().cmp(one.par_iter()),
            std::cmp::Ordering::Equal
        );
    });
}

/// With the fuse, a piece already running stops at its next item once another piece
/// panics; without it, it would run to its end. Two pieces of `HALF` items each
/// (`with_min_len`): the left one waits until the right one runs, then panics; the
/// right one waits until the left one is failing, then counts its items, taking at
/// least 20 µs for each, so that without the fuse it would run for seconds.
#[test]
fn panic_fuse_stops_a_running_piece() {
    const HALF: usize = 200_000;
    let right_started = AtomicBool::new(false);
    let left_panicking = AtomicBool::new(false);
    let right_items = AtomicUsize::new(0);
    let result = catch_unwind(AssertUnwindSafe(|| {
        pool().install(|| {
            (0..2 * HALF)
                .into_par_iter()
                .with_min_len(HALF)
                .panic_fuse()
                .for_each(|i| {
                    if i == 0 {
                        let deadline = Instant::now() + Duration::from_secs(20);
                        while !right_started.load(Ordering::SeqCst) && Instant::now() < deadline {
                            std::thread::yield_now();
                        }
                        left_panicking.store(true, Ordering::SeqCst);
                        // Unwinds without the panic hook, which may take seconds to
                        // print a backtrace (under ThreadSanitizer) before unwinding
                        // blows the fuse.
                        std::panic::resume_unwind(Box::new("the left piece fails"));
                    }
                    if i >= HALF {
                        right_started.store(true, Ordering::SeqCst);
                        // Go on only once the left piece fails: if both workers share
                        // one CPU for a while, the right piece would otherwise finish
                        // before the left one even runs again.
                        let deadline = Instant::now() + Duration::from_secs(20);
                        while !left_panicking.load(Ordering::SeqCst) && Instant::now() < deadline {
                            std::thread::yield_now();
                        }
                        right_items.fetch_add(1, Ordering::SeqCst);
                        std::thread::sleep(Duration::from_micros(20));
                    }
                })
        })
    }));
    let payload = result.expect_err("the panic reaches the caller");
    assert_eq!(
        payload.downcast_ref::<&str>(),
        Some(&"the left piece fails")
    );
    assert!(
        right_started.load(Ordering::SeqCst),
        "the two pieces never ran at the same time"
    );
    let done = right_items.load(Ordering::SeqCst);
    assert!(done < HALF, "the right piece ran to its end ({done} items)");
    // The pool is still usable.
    assert_eq!(
        pool().install(|| (0..1000u32).into_par_iter().sum::<u32>()),
        499_500
    );
}
