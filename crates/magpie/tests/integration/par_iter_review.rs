//! Short-circuits after a `filter` (see the module docs' Differences): rayon stops
//! the other pieces at their next source item, magpie at their next yielded item.

use std::sync::atomic::{AtomicUsize, Ordering};

use magpie::prelude::*;

use crate::common::iter_pool as pool;

const N: u64 = 1 << 24;

/// `find_any` after a `filter` that rejects everything but the first position: the
/// other pieces filter their whole span (about 3/4 of `N` calls on 2 threads), where
/// rayon stops them at their next position. Ignored: the documented difference.
#[test]
#[ignore = "documented difference from rayon: the stop is checked per yielded item"]
fn find_any_after_a_filter_stops_the_other_pieces() {
    let calls = AtomicUsize::new(0);
    let found = pool().install(|| {
        (0..N)
            .into_par_iter()
            .filter(|&x| {
                calls.fetch_add(1, Ordering::Relaxed);
                x == 0
            })
            .find_any(|_| true)
    });
    assert_eq!(found, Some(0));
    let calls = calls.load(Ordering::Relaxed);
    assert!(
        calls < N as usize / 2,
        "{calls} of {N} positions filtered after the match"
    );
}

/// The workaround the docs give: the same test inside `find_any` stops the other
/// pieces at their next position.
#[test]
fn find_any_with_the_test_inside_stops_the_other_pieces() {
    let calls = AtomicUsize::new(0);
    let found = pool().install(|| {
        (0..N).into_par_iter().find_any(|&x| {
            calls.fetch_add(1, Ordering::Relaxed);
            x == 0
        })
    });
    assert_eq!(found, Some(0));
    let calls = calls.load(Ordering::Relaxed);
    assert!(
        calls < N as usize / 2,
        "{calls} of {N} positions tested after the match"
    );
}
