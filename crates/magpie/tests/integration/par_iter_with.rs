//! `reduce_with`, `fold_with`, `try_for_each_with`, `try_for_each_init` and
//! `while_some` against the sequential iterator: random inputs (proptest), empty and
//! single-element inputs, the short-circuits, drops.

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::mpsc;

use magpie::prelude::*;
use proptest::prelude::*;

use crate::common;
use common::{iter_pool as pool, Counted};

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    #[test]
    fn reduce_with_and_fold_with_match_std(v in prop::collection::vec(any::<u32>(), 0..3000), min in 1usize..400) {
        let p = pool();
        let sum = p.install(|| v.par_iter().map(|&x| x as u64).with_min_len(min).reduce_with(|a, b| a + b));
        prop_assert_eq!(sum, v.iter().map(|&x| x as u64).reduce(|a, b| a + b));
        // Concatenation is associative but not commutative: the order must hold.
        let joined = p.install(|| v.par_iter().map(|&x| vec![x]).reduce_with(|mut a, b| {
            a.extend(b);
            a
        }));
        prop_assert_eq!(joined, (!v.is_empty()).then(|| v.clone()));

        let sum: u64 = p.install(|| v.par_iter().with_min_len(min).fold_with(0u64, |a, &x| a + x as u64).sum());
        prop_assert_eq!(sum, v.iter().map(|&x| x as u64).sum::<u64>());
        let pieces: Vec<Vec<u32>> = p.install(|| {
            v.par_iter().with_min_len(min).fold_with(Vec::new(), |mut acc, &x| {
                acc.push(x);
                acc
            }).collect()
        });
        // One accumulator per piece, in order, each at least `min` long.
        prop_assert!(pieces.len() <= (v.len() / min).max(1));
        prop_assert_eq!(pieces.concat(), v.clone());
    }

    #[test]
    fn try_for_each_with_and_init_match_std(v in prop::collection::vec(-1000i64..1000, 0..3000), bad in -1000i64..1000) {
        let p = pool();
        let (tx, rx) = mpsc::channel();
        let r = p.install(|| v.par_iter().try_for_each_with(tx, |tx, &x| {
            if x == bad {
                return Err(x);
            }
            tx.send(x).unwrap();
            Ok(())
        }));
        prop_assert_eq!(r, if v.contains(&bad) { Err(bad) } else { Ok(()) });
        let sent: Vec<i64> = rx.iter().collect();
        prop_assert!(!sent.contains(&bad));
        if r.is_ok() {
            let (mut sent, mut all) = (sent, v.clone());
            sent.sort_unstable();
            all.sort_unstable();
            prop_assert_eq!(sent, all);
        }

        let inits = AtomicUsize::new(0);
        let init = || {
            inits.fetch_add(1, Ordering::Relaxed);
            0usize
        };
        let r = p.install(|| v.par_iter().try_for_each_init(init, |seen, &x| {
            *seen += 1;
            (x != bad).then_some(())
        }));
        prop_assert_eq!(r.is_some(), !v.contains(&bad));
        prop_assert!(inits.load(Ordering::Relaxed) >= 1);
    }

    #[test]
    fn while_some_yields_an_ordered_part_of_the_values(v in prop::collection::vec(prop::option::weighted(0.995, any::<u16>()), 0..3000)) {
        let p = pool();
        let got: Vec<u16> = p.install(|| v.par_iter().copied().while_some().collect());
        let values: Vec<u16> = v.iter().flatten().copied().collect();
        if v.iter().all(Option::is_some) {
            prop_assert_eq!(&got, &values);
        } else {
            // Which values come out depends on timing, but always in order.
            let mut rest = values.iter();
            for g in &got {
                prop_assert!(rest.any(|x| x == g), "{:?} out of order", g);
            }
        }
        // In one piece it is exactly the values before the first `None`.
        let one_piece: Vec<u16> = p.install(|| v.par_iter().copied().with_min_len(usize::MAX).while_some().collect());
        prop_assert_eq!(one_piece, v.iter().map_while(|x| *x).collect::<Vec<_>>());
    }
}

#[test]
fn empty_and_single_inputs() {
    pool().install(|| {
        let empty: Vec<u32> = Vec::new();
        assert_eq!(empty.par_iter().copied().reduce_with(|a, b| a + b), None);
        assert_eq!(
            empty
                .par_iter()
                .fold_with(0, |a, &b| a + b)
                .collect::<Vec<u32>>(),
            [0]
        );
        assert_eq!(
            empty.par_iter().try_for_each_with((), |(), _| Err(())),
            Ok(())
        );
        assert_eq!(
            empty.par_iter().try_for_each_init(|| (), |(), _| None),
            Some(())
        );
        let none: Vec<Option<u32>> = Vec::new();
        assert_eq!(none.into_par_iter().while_some().count(), 0);
        let one = [7u32];
        assert_eq!(one.par_iter().copied().reduce_with(|a, b| a + b), Some(7));
        assert_eq!(
            one.par_iter()
                .fold_with(1, |a, &b| a + b)
                .collect::<Vec<u32>>(),
            [8]
        );
        assert_eq!(
            one.par_iter()
                .try_for_each_with(7, |k, &x| if x == *k { Err(x) } else { Ok(()) }),
            Err(7)
        );
        assert_eq!(
            one.par_iter()
                .try_for_each_init(|| 6, |k, &x| (x == *k).then_some(())),
            None
        );
        assert_eq!(
            [Some(3u8)].into_par_iter().while_some().collect::<Vec<_>>(),
            [3]
        );
        assert_eq!(
            [None::<u8>]
                .into_par_iter()
                .while_some()
                .collect::<Vec<_>>(),
            []
        );
    });
}

#[test]
fn while_some_and_try_for_each_with_stop_other_pieces_soon() {
    const N: u64 = 10_000_000;
    let limit = N as usize / 2;
    let visited = AtomicUsize::new(0);
    let count = pool().install(|| {
        (0..N)
            .into_par_iter()
            .map(|x| {
                visited.fetch_add(1, Ordering::Relaxed);
                (x != 0).then_some(x)
            })
            .while_some()
            .count()
    });
    let seen = visited.swap(0, Ordering::Relaxed);
    assert!(
        seen < limit,
        "while_some visited {seen} and yielded {count}"
    );
    let r = pool().install(|| {
        (0..N).into_par_iter().try_for_each_init(
            || (),
            |(), x| {
                visited.fetch_add(1, Ordering::Relaxed);
                if x == 0 {
                    Err(x)
                } else {
                    Ok(())
                }
            },
        )
    });
    assert_eq!(r, Err(0));
    let seen = visited.load(Ordering::Relaxed);
    assert!(seen < limit, "try_for_each_init visited {seen}");
}

#[test]
fn owned_items_are_dropped_once_by_while_some_and_fold_with() {
    static LIVE: AtomicUsize = AtomicUsize::new(0);
    let make = || Counted::many(5000, &LIVE);
    pool().install(|| {
        let kept = make()
            .into_par_iter()
            .map(|c| (c.0 != 2500).then_some(c))
            .while_some()
            .count();
        assert!(kept < 5000);
        let total: u32 = make()
            .into_par_iter()
            .fold_with(0u32, |a, c| a + c.0 % 10)
            .sum();
        assert_eq!(total, 5000 / 10 * 45);
    });
    assert_eq!(LIVE.load(Ordering::SeqCst), 0);
}
