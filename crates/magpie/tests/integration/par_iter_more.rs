//! The consumers and adaptors beyond the first set, against the sequential iterator:
//! min/max, find_map_any/position_any, try_for_each/try_reduce, the stateful maps,
//! inspect, flat_map_iter, unzip/partition, product, and the indexed adaptors take,
//! skip, rev, chain and step_by. Random inputs (proptest), empty and single-element
//! inputs, panics, short-circuits, drops.

use std::num::Wrapping;
use std::ops::ControlFlow;
use std::panic::AssertUnwindSafe;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::mpsc;

use magpie::prelude::*;
use proptest::prelude::*;

use crate::common;
use common::{iter_pool as pool, Counted};

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    #[test]
    fn min_max_keep_std_tie_rules(v in prop::collection::vec(-50i32..50, 0..3000)) {
        let p = pool();
        prop_assert_eq!(p.install(|| v.par_iter().min()), v.iter().min());
        prop_assert_eq!(p.install(|| v.par_iter().max()), v.iter().max());
        // Compare by value only: among equal values the index tells which one came back.
        let by_value = |a: &(usize, &i32), b: &(usize, &i32)| a.1.cmp(b.1);
        prop_assert_eq!(p.install(|| v.par_iter().enumerate().min_by(by_value)), v.iter().enumerate().min_by(by_value));
        prop_assert_eq!(p.install(|| v.par_iter().enumerate().max_by(by_value)), v.iter().enumerate().max_by(by_value));
        let product: Wrapping<u64> = p.install(|| v.par_iter().map(|&x| Wrapping(x as u64)).product());
        prop_assert_eq!(product, v.iter().map(|&x| Wrapping(x as u64)).product());
    }

    #[test]
    fn find_map_any_and_position_any_find_a_match(v in prop::collection::vec(0u32..500, 0..3000), target in 0u32..500) {
        let p = pool();
        let found = p.install(|| v.par_iter().find_map_any(|&x| (x == target).then_some(x * 2)));
        prop_assert_eq!(found, v.contains(&target).then_some(target * 2));
        match p.install(|| v.par_iter().position_any(|&x| x == target)) {
            Some(i) => prop_assert_eq!(v[i], target),
            None => prop_assert!(!v.contains(&target)),
        }
    }

    #[test]
    fn try_for_each_and_try_reduce_match_std(v in prop::collection::vec(-1000i64..1000, 0..3000), bad in -1000i64..1000) {
        let p = pool();
        let r = p.install(|| v.par_iter().try_for_each(|&x| if x == bad { Err(x) } else { Ok(()) }));
        prop_assert_eq!(r, if v.contains(&bad) { Err(bad) } else { Ok(()) });
        let o = p.install(|| v.par_iter().try_for_each(|&x| (x != bad).then_some(())));
        prop_assert_eq!(o.is_some(), !v.contains(&bad));
        let c = p.install(|| v.par_iter().try_for_each(|&x| if x == bad { ControlFlow::Break(x) } else { ControlFlow::Continue(()) }));
        prop_assert_eq!(c, if v.contains(&bad) { ControlFlow::Break(bad) } else { ControlFlow::Continue(()) });

        let checked = |x: i64| if x % 97 == 13 { Err(x) } else { Ok(x) };
        let r = p.install(|| v.par_iter().map(|&x| checked(x)).try_reduce(|| 0, |a, b| Ok(a + b)));
        match v.iter().try_fold(0, |a, &x| checked(x).map(|x| a + x)) {
            Ok(sum) => prop_assert_eq!(r, Ok(sum)),
            Err(_) => prop_assert!(matches!(r, Err(e) if e % 97 == 13 && v.contains(&e))),
        }
        // A failing `op` stops the run too.
        let limit = 20_000;
        let r = p.install(|| v.par_iter().map(|&x| Some(x.abs())).try_reduce(|| 0, |a, b| (a + b <= limit).then_some(a + b)));
        let total: i64 = v.iter().map(|x| x.abs()).sum();
        prop_assert_eq!(r.is_some(), total <= limit);
        if let Some(sum) = r {
            prop_assert_eq!(sum, total);
        }
    }

    #[test]
    fn stateful_maps_match_map_with_one_state_per_piece(v in prop::collection::vec(any::<u32>(), 0..3000), min in 1usize..500) {
        let p = pool();
        let expected: Vec<u64> = v.iter().map(|&x| x as u64 * 3).collect();
        let with: Vec<u64> = p.install(|| v.par_iter().with_min_len(min).map_with(3u64, |k, &x| x as u64 * *k).collect());
        prop_assert_eq!(&with, &expected);
        let inits = AtomicUsize::new(0);
        let init = || {
            inits.fetch_add(1, Ordering::Relaxed);
            Vec::<u64>::with_capacity(4)
        };
        let by_init: Vec<u64> = p.install(|| {
            v.par_iter().with_min_len(min).map_init(init, |buf, &x| {
                buf.clear();
                buf.push(x as u64 * 3);
                buf[0]
            }).collect()
        });
        prop_assert_eq!(&by_init, &expected);
        // Every piece has at least `min` positions, so there are at most len / min.
        let pieces = (v.len() / min).max(1);
        prop_assert!(inits.load(Ordering::Relaxed) <= pieces);

        let (tx, rx) = mpsc::channel();
        p.install(|| v.par_iter().for_each_with(tx, |tx, &x| tx.send(x).unwrap()));
        let mut sent: Vec<u32> = rx.iter().collect();
        sent.sort_unstable();
        let mut sorted = v.clone();
        sorted.sort_unstable();
        prop_assert_eq!(&sent, &sorted);
        let total = AtomicUsize::new(0);
        p.install(|| v.par_iter().for_each_init(|| 0usize, |seen, _| {
            *seen += 1;
            total.fetch_add(1, Ordering::Relaxed);
        }));
        prop_assert_eq!(total.load(Ordering::Relaxed), v.len());
    }

    #[test]
    fn inspect_flat_map_iter_unzip_partition(v in prop::collection::vec(any::<u16>(), 0..2000)) {
        let p = pool();
        let seen = AtomicUsize::new(0);
        let doubled: Vec<u32> = p.install(|| v.par_iter().inspect(|_| { seen.fetch_add(1, Ordering::Relaxed); }).map(|&x| x as u32 * 2).collect());
        prop_assert_eq!(seen.load(Ordering::Relaxed), v.len());
        prop_assert_eq!(doubled, v.iter().map(|&x| x as u32 * 2).collect::<Vec<_>>());

        let flat: Vec<u16> = p.install(|| v.par_iter().flat_map_iter(|&x| 0..x % 7).collect());
        prop_assert_eq!(flat, v.iter().flat_map(|&x| 0..x % 7).collect::<Vec<_>>());
        let nested: Vec<Vec<u16>> = v.chunks(3).map(<[u16]>::to_vec).collect();
        let flat: Vec<u16> = p.install(|| nested.clone().into_par_iter().flatten_iter().collect());
        prop_assert_eq!(&flat, &v);

        let (a, b): (Vec<u16>, Vec<u32>) = p.install(|| v.par_iter().map(|&x| (x, x as u32 + 1)).unzip());
        let (sa, sb): (Vec<u16>, Vec<u32>) = v.iter().map(|&x| (x, x as u32 + 1)).unzip();
        prop_assert_eq!((a, b), (sa, sb));
        let (even, odd): (Vec<u16>, Vec<u16>) = p.install(|| v.par_iter().copied().filter(|x| x % 5 != 0).partition(|x| x % 2 == 0));
        let (se, so): (Vec<u16>, Vec<u16>) = v.iter().copied().filter(|x| x % 5 != 0).partition(|x| x % 2 == 0);
        prop_assert_eq!((even, odd), (se, so));
    }

    #[test]
    fn take_skip_rev_step_by_match_std(v in prop::collection::vec(any::<i32>(), 0..3000), n in 0usize..3500, step in 1usize..40) {
        let p = pool();
        let take: Vec<i32> = p.install(|| v.par_iter().copied().take(n).collect());
        prop_assert_eq!(take, v.iter().copied().take(n).collect::<Vec<_>>());
        let skip: Vec<i32> = p.install(|| v.par_iter().copied().skip(n).collect());
        prop_assert_eq!(skip, v.iter().copied().skip(n).collect::<Vec<_>>());
        let rev: Vec<(usize, i32)> = p.install(|| v.par_iter().copied().enumerate().rev().collect());
        prop_assert_eq!(rev, v.iter().copied().enumerate().rev().collect::<Vec<_>>());
        let stepped = p.install(|| v.par_iter().step_by(step));
        prop_assert_eq!(stepped.len(), v.iter().step_by(step).len());
        let stepped: Vec<&i32> = p.install(|| stepped.collect());
        prop_assert_eq!(stepped, v.iter().step_by(step).collect::<Vec<_>>());
        // Combined: reversed then cut and enumerated, stepped backwards, zipped.
        let mixed: Vec<(usize, i32)> = p.install(|| v.par_iter().copied().rev().skip(n / 3).take(n).enumerate().collect());
        prop_assert_eq!(mixed, v.iter().copied().rev().skip(n / 3).take(n).enumerate().collect::<Vec<_>>());
        let back: Vec<i32> = p.install(|| v.par_iter().copied().step_by(step).rev().collect());
        prop_assert_eq!(back, v.iter().copied().step_by(step).rev().collect::<Vec<_>>());
        let zipped: Vec<(i32, i32)> = p.install(|| v.par_iter().copied().zip(v.par_iter().copied().rev()).skip(n).collect());
        prop_assert_eq!(zipped, v.iter().copied().zip(v.iter().copied().rev()).skip(n).collect::<Vec<_>>());
        let range: Vec<i64> = p.install(|| (-(n as i64)..v.len() as i64).into_par_iter().rev().step_by(step).collect());
        prop_assert_eq!(range, (-(n as i64)..v.len() as i64).rev().step_by(step).collect::<Vec<_>>());
    }

    #[test]
    fn chain_matches_std(v in prop::collection::vec(any::<u8>(), 0..2000), w in prop::collection::vec(any::<u8>(), 0..2000), n in 0usize..4000) {
        let p = pool();
        let chained = p.install(|| v.par_iter().chain(w.par_iter()));
        prop_assert_eq!(chained.len(), v.len() + w.len());
        let chained: Vec<&u8> = p.install(|| chained.collect());
        prop_assert_eq!(chained, v.iter().chain(w.iter()).collect::<Vec<_>>());
        let back: Vec<(usize, u8)> = p.install(|| v.par_iter().copied().chain(w.par_iter().copied()).rev().skip(n).enumerate().collect());
        prop_assert_eq!(back, v.iter().copied().chain(w.iter().copied()).rev().skip(n).enumerate().collect::<Vec<_>>());
        // Not indexed: a filtered side.
        let filtered: Vec<u8> = p.install(|| v.par_iter().copied().filter(|x| x % 3 == 0).chain(w.par_iter().copied()).collect());
        prop_assert_eq!(filtered, v.iter().copied().filter(|x| x % 3 == 0).chain(w.iter().copied()).collect::<Vec<_>>());
        let owned: Vec<String> = p.install(|| {
            let a: Vec<String> = v.iter().map(u8::to_string).collect();
            let b: Vec<String> = w.iter().map(u8::to_string).collect();
            a.into_par_iter().chain(b).rev().step_by(3).collect()
        });
        let expected: Vec<String> = v.iter().chain(w.iter()).rev().step_by(3).map(u8::to_string).collect();
        prop_assert_eq!(owned, expected);
    }
}

#[test]
fn empty_and_single_inputs() {
    let empty: Vec<i32> = Vec::new();
    assert_eq!(empty.par_iter().min(), None);
    assert_eq!(empty.par_iter().max_by(|a, b| a.cmp(b)), None);
    assert_eq!(empty.par_iter().copied().product::<i32>(), 1);
    assert_eq!(empty.par_iter().find_map_any(|&x| Some(x)), None);
    assert_eq!(empty.par_iter().position_any(|_| true), None);
    assert_eq!(empty.par_iter().try_for_each(|_| Err(())), Ok(()));
    assert_eq!(
        empty
            .par_iter()
            .map(|&x| Some(x))
            .try_reduce(|| 7, |a, b| Some(a + b)),
        Some(7)
    );
    assert_eq!(empty.par_iter().take(3).count(), 0);
    assert_eq!(empty.par_iter().skip(3).count(), 0);
    assert_eq!(empty.par_iter().rev().step_by(2).count(), 0);
    assert_eq!(empty.par_iter().chain(empty.par_iter()).len(), 0);
    assert_eq!(empty.par_iter().flat_map_iter(|&x| [x, x]).count(), 0);
    let (a, b): (Vec<&i32>, Vec<&i32>) = empty.par_iter().partition(|_| true);
    assert!(a.is_empty() && b.is_empty());
    let inits = AtomicUsize::new(0);
    let none: Vec<i32> = empty
        .par_iter()
        .map_init(|| inits.fetch_add(1, Ordering::Relaxed), |_, &x| x)
        .collect();
    assert!(none.is_empty());
    assert!(inits.load(Ordering::Relaxed) <= 1);

    let one = vec![5i32];
    assert_eq!(one.par_iter().min(), Some(&5));
    assert_eq!(one.par_iter().max(), Some(&5));
    assert_eq!(one.par_iter().position_any(|&x| x == 5), Some(0));
    assert_eq!(one.par_iter().try_for_each(|&x| Err(x)), Err(5));
    assert_eq!(one.par_iter().copied().rev().collect::<Vec<_>>(), [5]);
    assert_eq!(one.par_iter().copied().step_by(9).collect::<Vec<_>>(), [5]);
    assert_eq!(one.par_iter().copied().skip(1).collect::<Vec<_>>(), []);
    assert_eq!(one.par_iter().copied().take(0).collect::<Vec<_>>(), []);
    let (l, r): (Vec<i32>, Vec<u8>) = one.par_iter().map(|&x| (x, 1u8)).unzip();
    assert_eq!((l, r), (vec![5], vec![1]));
}

#[test]
#[should_panic(expected = "step")]
fn step_by_zero_panics() {
    let _ = [1, 2, 3].par_iter().step_by(0);
}

#[test]
fn a_panic_in_the_new_consumers_reaches_the_caller_and_the_pool_stays_usable() {
    let boom = |x: u32| {
        if x == 7_777 {
            panic!("boom at {x}")
        }
    };
    let runs: [&(dyn Fn() + Sync); 4] = [
        &|| {
            let _ = (0..20_000u32).into_par_iter().try_for_each(|x| {
                boom(x);
                Ok::<(), ()>(())
            });
        },
        &|| {
            let _: Vec<u32> = (0..20_000u32)
                .into_par_iter()
                .map_init(
                    || 0,
                    |_, x| {
                        boom(x);
                        x
                    },
                )
                .collect();
        },
        &|| {
            let _ = (0..20_000u32).into_par_iter().rev().min_by_key(|&x| {
                boom(x);
                x
            });
        },
        &|| {
            let _: (Vec<u32>, Vec<u32>) = (0..20_000u32)
                .into_par_iter()
                .chain(0..10u32)
                .inspect(|&x| boom(x))
                .partition(|x| x % 2 == 0);
        },
    ];
    for run in runs {
        let result = std::panic::catch_unwind(AssertUnwindSafe(|| pool().install(run)));
        let message = *result.unwrap_err().downcast::<String>().unwrap();
        assert_eq!(message, "boom at 7777");
        assert_eq!(
            pool().install(|| (0..1000u32).into_par_iter().rev().sum::<u32>()),
            499_500
        );
    }
}

/// Runs `consume` over `0..n` with a counter of the items it visited; the hit is the
/// first item, so a consumer that stops early visits far fewer than `n`.
fn visited_when_the_first_item_decides(consume: impl Fn(&(dyn Fn(u64) + Sync)) + Sync) -> usize {
    let visited = AtomicUsize::new(0);
    pool().install(|| {
        consume(&|_| {
            visited.fetch_add(1, Ordering::Relaxed);
        })
    });
    visited.load(Ordering::Relaxed)
}

#[test]
fn short_circuit_consumers_stop_other_pieces_soon() {
    const N: u64 = 10_000_000;
    let limit = N as usize / 2;
    let try_each = visited_when_the_first_item_decides(|visit| {
        let r = (0..N).into_par_iter().try_for_each(|x| {
            visit(x);
            if x == 0 {
                Err(x)
            } else {
                Ok(())
            }
        });
        assert_eq!(r, Err(0));
    });
    assert!(try_each < limit, "try_for_each visited {try_each}");
    let reduce = visited_when_the_first_item_decides(|visit| {
        let r = (0..N)
            .into_par_iter()
            .map(|x| {
                visit(x);
                (x != 0).then_some(x)
            })
            .try_reduce(|| 0, |a, b| Some(a + b));
        assert_eq!(r, None);
    });
    assert!(reduce < limit, "try_reduce visited {reduce}");
    let find = visited_when_the_first_item_decides(|visit| {
        let r = (0..N).into_par_iter().find_map_any(|x| {
            visit(x);
            (x == 0).then_some("hit")
        });
        assert_eq!(r, Some("hit"));
    });
    assert!(find < limit, "find_map_any visited {find}");
    let position = visited_when_the_first_item_decides(|visit| {
        let r = (0..N).into_par_iter().position_any(|x| {
            visit(x);
            x == 0
        });
        assert_eq!(r, Some(0));
    });
    assert!(position < limit, "position_any visited {position}");
}

#[test]
fn owned_items_are_dropped_exactly_once_by_the_indexed_adaptors() {
    static LIVE: AtomicUsize = AtomicUsize::new(0);
    let make = |n: u32| (0..n).map(|x| Counted::new(x, &LIVE)).collect::<Vec<_>>();
    pool().install(|| {
        let kept: Vec<u32> = make(5000)
            .into_par_iter()
            .skip(100)
            .take(1000)
            .rev()
            .step_by(7)
            .map(|c| c.0)
            .collect();
        let expected: Vec<u32> = (100..1100).rev().step_by(7).collect();
        assert_eq!(kept, expected);
        let chained = make(3000).into_par_iter().chain(make(3000)).rev();
        assert_eq!(chained.find_any(|c| c.0 == 5).map(|c| c.0), Some(5));
        let err = make(5000).into_par_iter().rev().try_for_each(|c| {
            if c.0 == 2500 {
                Err(c)
            } else {
                Ok(())
            }
        });
        assert_eq!(err.map_err(|c| c.0), Err(2500));
    });
    let result = std::panic::catch_unwind(|| {
        pool().install(|| {
            make(20_000)
                .into_par_iter()
                .rev()
                .map(|c| if c.0 == 3 { panic!("stop") } else { c })
                .collect::<Vec<_>>()
        })
    });
    assert!(result.is_err());
    assert_eq!(LIVE.load(Ordering::SeqCst), 0, "every element dropped once");
}
