//! Parallel iterators against the sequential iterator: every adaptor and consumer on
//! random inputs (proptest), empty and single-element inputs, panics, short-circuits.

use std::sync::atomic::{AtomicUsize, Ordering};

use magpie::prelude::*;
use proptest::prelude::*;

use crate::common;
use common::{iter_pool as pool, Counted};

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    #[test]
    fn map_filter_collect_keep_order(v in prop::collection::vec(any::<i32>(), 0..3000), min in 1usize..300) {
        let par: Vec<i64> = pool().install(|| {
            v.par_iter().with_min_len(min).map(|&x| x as i64 * 3).filter(|x| x % 2 == 0).collect()
        });
        let seq: Vec<i64> = v.iter().map(|&x| x as i64 * 3).filter(|x| x % 2 == 0).collect();
        prop_assert_eq!(par, seq);
    }

    #[test]
    fn filter_map_enumerate_zip(v in prop::collection::vec(any::<u16>(), 0..3000), w in prop::collection::vec(any::<u16>(), 0..3000)) {
        let par: Vec<(usize, (u16, u16))> = pool().install(|| v.par_iter().copied().zip(w.par_iter().copied()).enumerate().collect());
        let seq: Vec<(usize, (u16, u16))> = v.iter().copied().zip(w.iter().copied()).enumerate().collect();
        prop_assert_eq!(par, seq);
        let par: Vec<u32> = pool().install(|| v.par_iter().filter_map(|&x| (x % 3 == 0).then_some(x as u32 + 1)).collect());
        let seq: Vec<u32> = v.iter().filter_map(|&x| (x % 3 == 0).then_some(x as u32 + 1)).collect();
        prop_assert_eq!(par, seq);
    }

    #[test]
    fn consumers_match(v in prop::collection::vec(-1000i64..1000, 0..4000)) {
        let p = pool();
        prop_assert_eq!(p.install(|| v.par_iter().sum::<i64>()), v.iter().sum::<i64>());
        prop_assert_eq!(p.install(|| v.par_iter().filter(|&&x| x > 0).count()), v.iter().filter(|&&x| x > 0).count());
        prop_assert_eq!(p.install(|| v.par_iter().copied().reduce(|| 0, |a, b| a + b)), v.iter().sum::<i64>());
        let folded: i64 = p.install(|| v.par_iter().fold(|| 0i64, |a, &x| a + x.abs()).sum());
        prop_assert_eq!(folded, v.iter().map(|x| x.abs()).sum::<i64>());
        // Ties: the first minimum and the last maximum, as the sequential iterator.
        let key = |x: &&i64| *x / 10;
        let min = p.install(|| v.par_iter().enumerate().min_by_key(|(_, x)| key(x)));
        prop_assert_eq!(min, v.iter().enumerate().min_by_key(|(_, x)| key(x)));
        let max = p.install(|| v.par_iter().enumerate().max_by_key(|(_, x)| key(x)));
        prop_assert_eq!(max, v.iter().enumerate().max_by_key(|(_, x)| key(x)));
        prop_assert_eq!(p.install(|| v.par_iter().any(|&x| x == 7)), v.contains(&7));
        prop_assert_eq!(p.install(|| v.par_iter().all(|&x| x != 7)), !v.contains(&7));
        let found = p.install(|| v.par_iter().find_any(|&&x| x % 97 == 5));
        match found {
            Some(x) => prop_assert!(x % 97 == 5 && v.contains(x)),
            None => prop_assert!(!v.iter().any(|x| x % 97 == 5)),
        }
    }

    #[test]
    fn sorts_match_std(mut v in prop::collection::vec(0u32..50, 0..40_000)) {
        let mut expected = v.clone();
        expected.sort();
        let mut stable: Vec<(u32, usize)> = v.iter().copied().zip(0..).collect();
        pool().install(|| v.par_sort_unstable());
        prop_assert_eq!(&v, &expected);
        // Stable: equal keys keep their original order.
        let mut expected_stable = stable.clone();
        expected_stable.sort_by_key(|p| p.0);
        pool().install(|| stable.par_sort_by_key_for_test());
        prop_assert_eq!(stable, expected_stable);
    }

    #[test]
    fn ranges_and_owned_vecs(start in -5000i64..5000, len in 0i64..5000) {
        let r = start..start + len;
        let par: Vec<i64> = pool().install(|| r.clone().into_par_iter().map(|x| x * 2).collect());
        prop_assert_eq!(par, r.clone().map(|x| x * 2).collect::<Vec<_>>());
        let strings: Vec<String> = r.clone().map(|x| x.to_string()).collect();
        let par: Vec<String> = pool().install(|| strings.clone().into_par_iter().filter(|s| s.len() > 2).collect());
        prop_assert_eq!(par, strings.into_iter().filter(|s| s.len() > 2).collect::<Vec<_>>());
    }
}

/// Stable sort of pairs by their first field, through `Ord` on a wrapper.
trait SortByKeyForTest {
    fn par_sort_by_key_for_test(&mut self);
}

impl SortByKeyForTest for Vec<(u32, usize)> {
    fn par_sort_by_key_for_test(&mut self) {
        #[derive(Debug)]
        struct ByKey((u32, usize));
        impl PartialEq for ByKey {
            fn eq(&self, o: &Self) -> bool {
                self.0 .0 == o.0 .0
            }
        }
        impl Eq for ByKey {}
        impl PartialOrd for ByKey {
            fn partial_cmp(&self, o: &Self) -> Option<std::cmp::Ordering> {
                Some(self.cmp(o))
            }
        }
        impl Ord for ByKey {
            fn cmp(&self, o: &Self) -> std::cmp::Ordering {
                self.0 .0.cmp(&o.0 .0)
            }
        }
        let mut wrapped: Vec<ByKey> = self.drain(..).map(ByKey).collect();
        wrapped.par_sort();
        self.extend(wrapped.into_iter().map(|w| w.0));
    }
}

#[test]
fn empty_and_single_inputs() {
    let empty: Vec<u8> = Vec::new();
    assert_eq!(empty.par_iter().count(), 0);
    assert_eq!(empty.par_iter().map(|&x| x as u32).sum::<u32>(), 0);
    assert_eq!(empty.par_iter().min_by_key(|&&x| x), None);
    assert!(empty.par_iter().all(|_| false));
    assert!(!empty.par_iter().any(|_| true));
    assert_eq!(empty.par_iter().collect::<Vec<_>>(), Vec::<&u8>::new());
    let one = vec![9u8];
    assert_eq!(one.par_iter().copied().collect::<Vec<_>>(), vec![9]);
    assert_eq!(one.par_iter().copied().reduce(|| 0, |a, b| a + b), 9);
    assert_eq!((5u32..5).into_par_iter().count(), 0);
    let (lo, hi) = (5u32, 3u32);
    assert_eq!(
        (lo..hi).into_par_iter().count(),
        0,
        "an inverted range is empty"
    );
    let mut none: [u32; 0] = [];
    none.par_sort_unstable();
    none.par_sort();
}

#[test]
fn par_iter_mut_and_chunks() {
    let mut v: Vec<u64> = (0..100_000).collect();
    pool().install(|| v.par_iter_mut().for_each(|x| *x *= 2));
    assert!(v.iter().enumerate().all(|(i, &x)| x == 2 * i as u64));
    pool().install(|| {
        v.par_chunks_mut(1000)
            .enumerate()
            .for_each(|(i, c)| c.iter_mut().for_each(|x| *x = i as u64))
    });
    let sums: Vec<u64> = pool().install(|| v.par_chunks(1000).map(|c| c.iter().sum()).collect());
    assert_eq!(sums, (0..100).map(|i| i * 1000).collect::<Vec<u64>>());
    let ragged: Vec<usize> = [1u8; 10].par_chunks(3).map(<[u8]>::len).collect();
    assert_eq!(ragged, vec![3, 3, 3, 1]);
    let arr = [1u32, 2, 3];
    assert_eq!(arr.into_par_iter().sum::<u32>(), 6);
    assert_eq!(arr.par_iter().sum::<u32>(), 6);
}

#[test]
fn a_panic_in_map_reaches_the_caller_and_the_pool_stays_usable() {
    let result = std::panic::catch_unwind(|| {
        pool().install(|| {
            (0..100_000u32)
                .into_par_iter()
                .map(|x| {
                    if x == 77_777 {
                        panic!("boom at {x}")
                    } else {
                        x
                    }
                })
                .collect::<Vec<_>>()
        })
    });
    let message = *result.unwrap_err().downcast::<String>().unwrap();
    assert_eq!(message, "boom at 77777");
    assert_eq!(
        pool().install(|| (0..1000u32).into_par_iter().sum::<u32>()),
        499_500
    );
}

#[test]
fn owned_items_are_dropped_exactly_once_on_panic_and_short_circuit() {
    static LIVE: AtomicUsize = AtomicUsize::new(0);
    let make = || {
        (0..50_000)
            .map(|x| Counted::new(x, &LIVE))
            .collect::<Vec<_>>()
    };
    // Short circuit: the pieces left unread drop their items.
    let found = pool().install(|| make().into_par_iter().find_any(|c| c.0 == 123));
    assert_eq!(found.map(|c| c.0), Some(123));
    // A panic while collecting in place: the written items and the unread ones drop.
    let result = std::panic::catch_unwind(|| {
        pool().install(|| {
            make()
                .into_par_iter()
                .map(|c| if c.0 == 40_000 { panic!("stop") } else { c })
                .collect::<Vec<_>>()
        })
    });
    assert!(result.is_err());
    assert_eq!(
        LIVE.load(Ordering::SeqCst),
        0,
        "every element dropped exactly once"
    );
}

#[test]
fn short_circuit_stops_other_pieces_soon() {
    let visited = AtomicUsize::new(0);
    let n = 10_000_000u64;
    let found = pool().install(|| {
        (0..n).into_par_iter().any(|x| {
            visited.fetch_add(1, Ordering::Relaxed);
            x == 0
        })
    });
    assert!(found);
    // The first item answers; the other pieces stop at their next item.
    assert!(visited.load(Ordering::Relaxed) < n as usize / 2);
}

#[test]
fn nested_par_iter_inside_par_iter() {
    let total: u64 = pool().install(|| {
        (0..64u64)
            .into_par_iter()
            .map(|i| (0..i * 1000).into_par_iter().map(|x| x % 7).sum::<u64>())
            .sum()
    });
    let expected: u64 = (0..64u64)
        .map(|i| (0..i * 1000).map(|x| x % 7).sum::<u64>())
        .sum();
    assert_eq!(total, expected);
}

#[test]
fn runs_on_the_global_pool_from_outside() {
    let v: Vec<u32> = (0..10_000).collect();
    assert_eq!(v.par_iter().map(|&x| x as u64).sum::<u64>(), 49_995_000);
}
