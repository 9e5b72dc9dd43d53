//! Small runs of every unsafe path of the pool (job references, latches, recycled job
//! slots, batched scope counts, panics), sized for Miri:
//! `cargo +nightly miri test -p magpie --test miri_smoke`.

use std::panic::{self, AssertUnwindSafe};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::mpsc;

mod common;
use common::fib;

#[test]
fn join_scope_spawn_and_panics_on_a_small_pool() {
    let pool = magpie::ThreadPoolBuilder::new()
        .num_threads(2)
        .queue_geometry(2, 2) // tiny queues: spills and shares happen
        .build()
        .unwrap();
    assert_eq!(pool.install(|| fib(7)), 13);

    let count = AtomicUsize::new(0);
    let mut data = [0u8; 8];
    pool.scope(|s| {
        for x in data.iter_mut() {
            let count = &count;
            s.spawn(move |s| {
                *x = 1;
                s.spawn(move |_| {
                    count.fetch_add(1, Ordering::Relaxed);
                });
            });
        }
    });
    assert_eq!(count.load(Ordering::Relaxed), 8);
    assert!(data.iter().all(|&x| x == 1));

    let (tx, rx) = mpsc::channel();
    for i in 0..4 {
        let tx = tx.clone();
        pool.spawn(move || tx.send(i).unwrap());
    }
    let mut got: Vec<i32> = (0..4).map(|_| rx.recv().unwrap()).collect();
    got.sort_unstable();
    assert_eq!(got, [0, 1, 2, 3]);

    let err = panic::catch_unwind(AssertUnwindSafe(|| pool.join(|| panic!("a"), || fib(5))));
    assert!(err.is_err());
    let err = panic::catch_unwind(AssertUnwindSafe(|| {
        pool.scope(|s| {
            s.spawn(|_| panic!("task"));
            s.spawn(|_| {
                fib(4);
            });
        })
    }));
    assert!(err.is_err());
    assert_eq!(pool.install(|| fib(6)), 8);
    drop(pool);
}

#[test]
fn parallel_iterators_unsafe_paths_at_miri_size() {
    use magpie::prelude::*;
    let pool = magpie::ThreadPoolBuilder::new()
        .num_threads(2)
        .build()
        .unwrap();
    // Owned Vec pieces and collecting in place, with heap items.
    let strings: Vec<String> = (0..40).map(|i| i.to_string()).collect();
    let lengths: Vec<usize> =
        pool.install(|| strings.clone().into_par_iter().map(|s| s.len()).collect());
    assert_eq!(lengths, strings.iter().map(String::len).collect::<Vec<_>>());
    // Short circuit leaves pieces unread: they drop their items.
    let found = pool.install(|| strings.clone().into_par_iter().find_any(|s| s == "7"));
    assert_eq!(found.as_deref(), Some("7"));
    // A panic while collecting in place drops what was written and what was not read.
    let err = panic::catch_unwind(AssertUnwindSafe(|| {
        pool.install(|| {
            strings
                .clone()
                .into_par_iter()
                .map(|s| if s == "30" { panic!("stop") } else { s })
                .collect::<Vec<_>>()
        })
    }));
    assert!(err.is_err());
    // Zero-sized items and the filtered (piecewise) collect.
    let units: Vec<()> = pool.install(|| vec![(); 50].into_par_iter().collect());
    assert_eq!(units.len(), 50);
    let odd: Vec<String> = pool.install(|| {
        strings
            .into_par_iter()
            .filter(|s| s.ends_with('1'))
            .collect()
    });
    assert_eq!(odd, ["1", "11", "21", "31"]);
}

#[test]
fn more_parallel_iterators_unsafe_paths_at_miri_size() {
    use magpie::prelude::*;
    let pool = magpie::ThreadPoolBuilder::new()
        .num_threads(2)
        .build()
        .unwrap();
    let strings: Vec<String> = (0..40).map(|i| i.to_string()).collect();
    // Owned pieces read from the back (`rev`), cut (`skip`, `take`: the cut-off sides
    // drop their elements) and left unread by a short circuit.
    let back: Vec<String> = pool.install(|| {
        strings
            .clone()
            .into_par_iter()
            .skip(5)
            .take(30)
            .rev()
            .step_by(4)
            .collect()
    });
    assert_eq!(back, ["34", "30", "26", "22", "18", "14", "10", "6"]);
    let found = pool.install(|| {
        strings
            .clone()
            .into_par_iter()
            .chain(strings.clone())
            .rev()
            .find_any(|s| s == "3")
    });
    assert_eq!(found.as_deref(), Some("3"));
    // Extending in place after existing elements, and a panic while doing it.
    let mut target = vec![String::from("a"), String::from("b")];
    pool.install(|| target.par_extend(strings.clone()));
    assert_eq!(target.len(), 42);
    assert_eq!(target[2..], strings[..]);
    let err = panic::catch_unwind(AssertUnwindSafe(|| {
        pool.install(|| {
            target.par_extend(strings.clone().into_par_iter().map(|s| {
                if s == "20" {
                    panic!("stop")
                } else {
                    s
                }
            }))
        })
    }));
    assert!(err.is_err());
    assert_eq!(target.len(), 42);
    // Collecting into a `Result` stops at an error and drops the partial `Vec`.
    let parsed: Result<Vec<String>, String> = pool.install(|| {
        strings
            .clone()
            .into_par_iter()
            .map(|s| if s == "25" { Err(s) } else { Ok(s) })
            .collect()
    });
    assert_eq!(parsed, Err(String::from("25")));
    // `par_bridge` hands the iterator's items out under its mutex.
    let mut bridged: Vec<String> =
        pool.install(|| strings.clone().into_iter().par_bridge().collect());
    bridged.sort_by_key(|s| s.parse::<u32>().unwrap());
    assert_eq!(bridged, strings);
}

#[test]
fn par_drain_unsafe_paths_at_miri_size() {
    use magpie::prelude::*;
    let pool = magpie::ThreadPoolBuilder::new()
        .num_threads(2)
        .build()
        .unwrap();
    let strings: Vec<String> = (0..40).map(|i| i.to_string()).collect();
    // A middle range: read in part (a short circuit), the rest dropped, the tail moved.
    let mut v = strings.clone();
    let hit = pool.install(|| v.par_drain(10..30).find_first(|s| s.ends_with('5')));
    assert_eq!(hit.as_deref(), Some("15"));
    assert_eq!(v.len(), 20);
    assert_eq!(v[9..11], ["9", "30"]);
    // A panic in a piece still closes the gap; an unused drain removes its range.
    let err = panic::catch_unwind(AssertUnwindSafe(|| {
        pool.install(|| v.par_drain(5..).for_each(|s| assert!(s != "32", "stop")))
    }));
    assert!(err.is_err());
    assert_eq!(v, strings[..5]);
    drop(v.par_drain(1..3));
    assert_eq!(v, ["0", "3", "4"]);
}
