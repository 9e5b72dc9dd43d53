//! `par_drain` on `Vec` (and `VecDeque`, `String`) and `par_sort_by_cached_key` on slices against `Vec::drain`
//! and `sort_by_cached_key`: random inputs and ranges (proptest), empty and
//! single-element inputs, consumers that stop early, panics, drops.

use std::collections::VecDeque;
use std::panic::AssertUnwindSafe;
use std::sync::atomic::{AtomicUsize, Ordering};

use magpie::prelude::*;
use proptest::prelude::*;

use crate::common;
use common::{iter_pool as pool, Counted};

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    #[test]
    fn par_drain_of_a_deque_and_a_string_matches_std(v in prop::collection::vec(any::<u32>(), 0..2000), a in 0usize..2001, b in 0usize..2001, front in 0usize..50, text in "[a-zé😀 ]{0,300}") {
        // A deque whose elements wrap around its buffer.
        let mut deque: VecDeque<u32> = v.iter().copied().collect();
        deque.rotate_left(front.min(v.len()));
        let mut expected_deque = deque.clone();
        let (start, end) = (a.min(b).min(v.len()), a.max(b).min(v.len()));
        let drained: Vec<u32> = pool().install(|| deque.par_drain(start..end).collect());
        let expected: Vec<u32> = expected_deque.drain(start..end).collect();
        prop_assert_eq!(drained, expected);
        prop_assert_eq!(&deque, &expected_deque);

        let cut = |i: usize| (0..=i.min(text.len())).rev().find(|&j| text.is_char_boundary(j)).unwrap();
        let (start, end) = (cut(a.min(b)), cut(a.max(b)));
        let mut string = text.clone();
        let chars: Vec<char> = pool().install(|| string.par_drain(start..end).collect());
        prop_assert_eq!(chars, text[start..end].chars().collect::<Vec<_>>());
        prop_assert_eq!(string, format!("{}{}", &text[..start], &text[end..]));
    }

    #[test]
    fn par_drain_matches_vec_drain(v in prop::collection::vec(any::<u32>(), 0..3000), a in 0usize..3001, b in 0usize..3001) {
        let (start, end) = (a.min(b).min(v.len()), a.max(b).min(v.len()));
        let mut left = v.clone();
        let drained: Vec<u32> = pool().install(|| left.par_drain(start..end).collect());
        let mut right = v.clone();
        let expected: Vec<u32> = right.drain(start..end).collect();
        prop_assert_eq!(drained, expected);
        prop_assert_eq!(&left, &right);

        // A consumer that stops early: the rest of the range is dropped and the tail
        // still moves down. Then inclusive and open ranges.
        let mut left = v.clone();
        let found = pool().install(|| left.par_drain(start..end).find_first(|x| x % 5 == 0));
        prop_assert_eq!(found, v[start..end].iter().copied().find(|x| x % 5 == 0));
        prop_assert_eq!(&left, &right);
        let mut left = v.clone();
        let found = pool().install(|| left.par_drain(start..).find_last(|x| x % 5 == 0));
        prop_assert_eq!(found, v[start..].iter().copied().rfind(|x| x % 5 == 0));
        prop_assert_eq!(&left[..], &v[..start]);
        if end > start {
            let mut left = v.clone();
            let sum: u64 = pool().install(|| left.par_drain(start..=end - 1).map(u64::from).sum());
            prop_assert_eq!(sum, v[start..end].iter().map(|&x| u64::from(x)).sum::<u64>());
            prop_assert_eq!(left.len(), v.len() - (end - start));
        }
    }

    #[test]
    fn par_sort_by_cached_key_matches_std(v in prop::collection::vec((0u8..16, any::<u16>()), 0..3000)) {
        let calls = AtomicUsize::new(0);
        let key = |x: &(u8, u16)| {
            calls.fetch_add(1, Ordering::Relaxed);
            x.0.to_string()
        };
        let mut got = v.clone();
        pool().install(|| got.par_sort_by_cached_key(key));
        let mut expected = v.clone();
        expected.sort_by_cached_key(|x| x.0.to_string());
        // Equal keys keep their order: the second field tells.
        prop_assert_eq!(&got, &expected);
        // One key per element (none at all for fewer than two).
        let n = if v.len() < 2 { 0 } else { v.len() };
        prop_assert_eq!(calls.load(Ordering::Relaxed), n);
    }
}

#[test]
fn empty_single_and_whole_ranges() {
    pool().install(|| {
        let mut v: Vec<u8> = Vec::new();
        assert_eq!(v.par_drain(..).count(), 0);
        v.par_sort_by_cached_key(|&x| x);
        let mut v = vec![1u8];
        v.par_sort_by_cached_key(|&x| x);
        assert_eq!(v.par_drain(0..0).count(), 0);
        assert_eq!(v, [1]);
        assert_eq!(v.par_drain(..).collect::<Vec<_>>(), [1]);
        assert!(v.is_empty());
        let mut v: Vec<u32> = (0..10).collect();
        assert_eq!(v.par_drain(3..7).len(), 4);
        // A drain dropped without being iterated still removes its range.
        assert_eq!(v, [0, 1, 2, 7, 8, 9]);
        assert_eq!(v.par_drain(4..).rev().collect::<Vec<_>>(), [9, 8]);
        assert_eq!(v, [0, 1, 2, 7]);
    });
}

#[test]
#[should_panic(expected = "drain range ends at 4 but the length is 3")]
fn par_drain_past_the_end_panics() {
    let mut v = vec![1, 2, 3];
    let _ = v.par_drain(1..4);
}

#[test]
#[should_panic(expected = "drain range starts at 2 but ends at 1")]
#[allow(clippy::reversed_empty_ranges)]
fn par_drain_of_a_reversed_range_panics() {
    let mut v = vec![1, 2, 3];
    let _ = v.par_drain(2..1);
}

#[test]
fn drained_items_are_dropped_once_also_after_a_panic() {
    static LIVE: AtomicUsize = AtomicUsize::new(0);
    let make = || Counted::many(5000, &LIVE);
    pool().install(|| {
        let mut v = make();
        let hit = v.par_drain(1000..4000).position_first(|c| c.0 == 2500);
        assert_eq!(hit, Some(1500));
        assert_eq!(v.len(), 2000);
        assert!(v.iter().map(|c| c.0).eq((0..1000).chain(4000..5000)));

        let mut v = make();
        let result = std::panic::catch_unwind(AssertUnwindSafe(|| {
            v.par_drain(100..4900)
                .for_each(|c| assert!(c.0 != 3333, "boom"));
        }));
        assert!(result.is_err());
        assert!(v.iter().map(|c| c.0).eq((0..100).chain(4900..5000)));
    });
    assert_eq!(LIVE.load(Ordering::SeqCst), 0);
}
