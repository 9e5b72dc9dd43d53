//! Short-circuits after a `filter` or `filter_map`: once the answer is known, the
//! other pieces stop within a few rejected items, as rayon's stop at their next source
//! item (`leaf_stop.rs`). Each search matches at position 0 only, so the piece that
//! holds it finds it at once; counts of predicate calls, not timings: without the
//! check the other pieces filter their whole span, about 3/4 of `N` calls on 2
//! threads.

use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use magpie::prelude::*;

use crate::common::iter_pool as pool;

const N: u64 = 1 << 24;

/// Runs `search` with a counting "is it position 0" test; checks that far fewer than
/// half the positions were tested.
fn few_calls<R: PartialEq + std::fmt::Debug + Send>(
    what: &str,
    expected: R,
    search: impl Fn(&(dyn Fn(u64) -> bool + Sync)) -> R + Sync,
) {
    let calls = AtomicUsize::new(0);
    let is_first = |x: u64| {
        calls.fetch_add(1, Ordering::Relaxed);
        x == 0
    };
    let found = pool().install(|| search(&is_first));
    assert_eq!(found, expected, "{what}");
    let calls = calls.load(Ordering::Relaxed);
    assert!(
        calls < N as usize / 2,
        "{what}: {calls} of {N} positions tested after the match"
    );
}

#[test]
fn find_any_after_a_filter_stops_the_other_pieces() {
    few_calls("filter + find_any", Some(0), |f| {
        (0..N).into_par_iter().filter(|&x| f(x)).find_any(|_| true)
    });
    few_calls("filter_map + find_any", Some(0), |f| {
        (0..N)
            .into_par_iter()
            .filter_map(|x| f(x).then_some(x))
            .find_any(|_| true)
    });
    few_calls("filter + any", true, |f| {
        (0..N).into_par_iter().filter(|&x| f(x)).any(|_| true)
    });
    // The workaround the docs gave before: the test inside the consumer.
    few_calls("find_any", Some(0), |f| {
        (0..N).into_par_iter().find_any(|&x| f(x))
    });
}

/// The match at position 0 is found only once the right half (a single piece) has
/// started (or after 10 s), so that half is running when it is beaten: it must stop
/// within a few rejected items, not filter its whole span.
#[test]
fn find_first_after_a_filter_stops_the_pieces_it_beats() {
    let right_started = AtomicBool::new(false);
    few_calls("filter + find_first", Some(0), |f| {
        (0..N)
            .into_par_iter()
            .with_min_len(N as usize / 2)
            .filter(|&x| {
                if x >= N / 2 {
                    right_started.store(true, Ordering::SeqCst);
                } else if x == 0 {
                    let deadline = Instant::now() + Duration::from_secs(10);
                    while !right_started.load(Ordering::SeqCst) && Instant::now() < deadline {
                        std::thread::yield_now();
                    }
                }
                f(x)
            })
            .find_first(|_| true)
    });
}

#[test]
fn try_for_each_and_collect_into_result_after_a_filter_stop_the_other_pieces() {
    few_calls("filter + try_for_each", Err(0), |f| {
        (0..N).into_par_iter().filter(|&x| f(x)).try_for_each(Err)
    });
    few_calls("filter_map + collect::<Result<Vec>>", Err(0), |f| {
        (0..N)
            .into_par_iter()
            .with_min_len(N as usize / 2)
            .filter_map(|x| f(x).then_some(Err(x)))
            .collect::<Result<Vec<u64>, u64>>()
    });
}
