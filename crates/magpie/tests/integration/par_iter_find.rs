//! The ordered searches `find_first`/`find_last`, `find_map_first`/`find_map_last`
//! and `position_first`/`position_last` against the sequential iterator: random
//! inputs with many matches (the first or last must win), after `filter` (spans of
//! positions, not of items), empty and single-element inputs, and the short-circuit.

use std::sync::atomic::{AtomicUsize, Ordering};

use magpie::prelude::*;
use proptest::prelude::*;

use crate::common;
use common::{iter_pool as pool, Counted};

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    #[test]
    fn ordered_finds_match_std(v in prop::collection::vec(0u32..20, 0..3000), target in 0u32..20, min in 1usize..300) {
        let p = pool();
        let is = |x: &u32| *x == target;
        // Items carry their index, so the test sees which of equal values came back.
        let first = p.install(|| v.par_iter().enumerate().with_min_len(min).find_first(|(_, x)| is(x)));
        prop_assert_eq!(first, v.iter().enumerate().find(|(_, x)| is(x)));
        let last = p.install(|| v.par_iter().enumerate().with_min_len(min).find_last(|(_, x)| is(x)));
        prop_assert_eq!(last, v.iter().enumerate().rev().find(|(_, x)| is(x)));

        let tag = |(i, x): (usize, &u32)| is(x).then_some(i * 7);
        let map_first = p.install(|| v.par_iter().enumerate().find_map_first(tag));
        prop_assert_eq!(map_first, v.iter().enumerate().find_map(tag));
        let map_last = p.install(|| v.par_iter().enumerate().find_map_last(tag));
        prop_assert_eq!(map_last, v.iter().enumerate().filter_map(tag).next_back());

        prop_assert_eq!(p.install(|| v.par_iter().position_first(is)), v.iter().position(is));
        prop_assert_eq!(p.install(|| v.par_iter().position_last(is)), v.iter().rposition(is));
        // Reversed: the first of the reversed order is the last of the input.
        prop_assert_eq!(p.install(|| v.par_iter().rev().position_first(is)), v.iter().rev().position(is));
    }

    #[test]
    fn ordered_finds_after_filter_match_std(v in prop::collection::vec(0u32..10, 0..3000), target in 0u32..10, keep in 2usize..5) {
        let p = pool();
        let kept = |(i, _): &(usize, &u32)| i % keep != 0;
        let is = |(_, x): &(usize, &u32)| **x == target;
        let first = p.install(|| v.par_iter().enumerate().filter(kept).find_first(is));
        prop_assert_eq!(first, v.iter().enumerate().filter(kept).find(is));
        let last = p.install(|| v.par_iter().enumerate().filter(kept).find_last(is));
        prop_assert_eq!(last, v.iter().enumerate().filter(kept).rfind(is));
        // A flat_map_iter piece yields several items per position, still in order.
        let flat = |x: &u32| [*x, *x + 100];
        let first = p.install(|| v.par_iter().flat_map_iter(flat).find_first(|&y| y == target + 100));
        prop_assert_eq!(first, v.iter().flat_map(flat).find(|&y| y == target + 100));
    }
}

#[test]
fn empty_and_single_inputs() {
    let p = pool();
    let empty: Vec<u8> = Vec::new();
    p.install(|| {
        assert_eq!(empty.par_iter().find_first(|_| true), None);
        assert_eq!(empty.par_iter().find_last(|_| true), None);
        assert_eq!(empty.par_iter().find_map_first(|&x| Some(x)), None);
        assert_eq!(empty.par_iter().find_map_last(|&x| Some(x)), None);
        assert_eq!(empty.par_iter().position_first(|_| true), None);
        assert_eq!(empty.par_iter().position_last(|_| true), None);
        let one = [5u8];
        assert_eq!(one.par_iter().find_first(|_| true), Some(&5));
        assert_eq!(one.par_iter().find_last(|&&x| x == 5), Some(&5));
        assert_eq!(one.par_iter().find_last(|&&x| x == 6), None);
        assert_eq!(one.par_iter().find_map_first(|&x| Some(x + 1)), Some(6));
        assert_eq!(one.par_iter().find_map_last(|&x| Some(x + 1)), Some(6));
        assert_eq!(one.par_iter().position_first(|&x| x == 5), Some(0));
        assert_eq!(one.par_iter().position_last(|&x| x == 5), Some(0));
    });
    // Outside any pool: the global pool.
    assert_eq!(
        (0..100u32).into_par_iter().find_last(|x| x % 10 == 3),
        Some(93)
    );
}

#[test]
fn owned_items_not_returned_are_dropped() {
    static LIVE: AtomicUsize = AtomicUsize::new(0);
    let make = || Counted::many(5000, &LIVE);
    pool().install(|| {
        let first = make().into_par_iter().find_first(|c| c.0 % 1000 == 999);
        assert_eq!(first.map(|c| c.0), Some(999));
        let last = make().into_par_iter().find_last(|c| c.0 % 1000 == 1);
        assert_eq!(last.map(|c| c.0), Some(4001));
    });
    assert_eq!(LIVE.load(Ordering::SeqCst), 0);
}

/// Runs `consume` with a counter of the items it visited.
fn visited(consume: impl Fn(&(dyn Fn() + Sync)) + Sync) -> usize {
    let visited = AtomicUsize::new(0);
    pool().install(|| {
        consume(&|| {
            visited.fetch_add(1, Ordering::Relaxed);
        })
    });
    visited.load(Ordering::Relaxed)
}

#[test]
fn ordered_finds_stop_pieces_that_cannot_win() {
    const N: u64 = 10_000_000;
    let limit = N as usize / 2;
    // Only the first item matches: every piece after the first stops (a piece that
    // matched would stop by itself, so no other item may match).
    let first = visited(|visit| {
        let r = (0..N).into_par_iter().find_first(|&x| {
            visit();
            x == 0
        });
        assert_eq!(r, Some(0));
    });
    assert!(first < limit, "find_first visited {first}");
    let position = visited(|visit| {
        let r = (0..N).into_par_iter().position_first(|x| {
            visit();
            x == 0
        });
        assert_eq!(r, Some(0));
    });
    assert!(position < limit, "position_first visited {position}");
    // Every item matches: the last piece (run first) wins, the pieces before it stop.
    let last = visited(|visit| {
        let r = (0..N).into_par_iter().find_map_last(|x| {
            visit();
            Some(x)
        });
        assert_eq!(r, Some(N - 1));
    });
    assert!(last < limit, "find_map_last visited {last}");
    let position = visited(|visit| {
        let r = (0..N).into_par_iter().position_last(|_| {
            visit();
            true
        });
        assert_eq!(r, Some(N as usize - 1));
    });
    assert!(position < limit, "position_last visited {position}");
}

#[test]
fn a_panic_in_an_ordered_find_reaches_the_caller() {
    let result = std::panic::catch_unwind(|| {
        pool().install(|| {
            (0..10_000u32).into_par_iter().find_last(|&x| {
                assert!(x != 1234, "boom");
                false
            })
        })
    });
    assert!(result.is_err());
    assert_eq!(
        pool().install(|| (0..10u32).into_par_iter().find_first(|&x| x > 4)),
        Some(5)
    );
}
