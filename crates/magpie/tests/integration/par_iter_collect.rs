//! Collecting and extending beyond `Vec`, the slice views and sorts beyond the first
//! set, and `par_bridge`, against the sequential versions: random inputs (proptest),
//! empty and single-element inputs, panics, short-circuits, drops.

use std::collections::{BTreeMap, BTreeSet, HashMap, HashSet, LinkedList, VecDeque};
use std::panic::AssertUnwindSafe;
use std::sync::atomic::{AtomicUsize, Ordering};

use magpie::prelude::*;
use proptest::prelude::*;

use crate::common;
use common::{iter_pool as pool, Counted};

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    #[test]
    fn collections_match_sequential_collect(v in prop::collection::vec((0u8..40, any::<u16>()), 0..3000)) {
        let p = pool();
        // Exact (in place) and filtered (piecewise) sources; equal keys: the last wins.
        let map: HashMap<u8, u16> = p.install(|| v.par_iter().copied().collect());
        prop_assert_eq!(map, v.iter().copied().collect::<HashMap<_, _>>());
        let map: BTreeMap<u8, u16> = p.install(|| v.par_iter().copied().filter(|kv| kv.1 % 3 != 0).collect());
        prop_assert_eq!(map, v.iter().copied().filter(|kv| kv.1 % 3 != 0).collect::<BTreeMap<_, _>>());
        let set: HashSet<u16> = p.install(|| v.par_iter().map(|kv| kv.1).collect());
        prop_assert_eq!(set, v.iter().map(|kv| kv.1).collect::<HashSet<_>>());
        let set: BTreeSet<u8> = p.install(|| v.par_iter().map(|kv| kv.0).collect());
        prop_assert_eq!(set, v.iter().map(|kv| kv.0).collect::<BTreeSet<_>>());
        let deque: VecDeque<u16> = p.install(|| v.par_iter().map(|kv| kv.1).collect());
        prop_assert_eq!(deque, v.iter().map(|kv| kv.1).collect::<VecDeque<_>>());
        let list: LinkedList<u8> = p.install(|| v.par_iter().map(|kv| kv.0).filter(|k| k % 2 == 1).collect());
        prop_assert_eq!(list, v.iter().map(|kv| kv.0).filter(|k| k % 2 == 1).collect::<LinkedList<_>>());
    }

    #[test]
    fn strings_collect_and_extend_in_order(s in "\\PC{0,1500}") {
        let p = pool();
        let chars: Vec<char> = s.chars().collect();
        prop_assert_eq!(p.install(|| chars.par_iter().copied().collect::<String>()), s.clone());
        prop_assert_eq!(p.install(|| chars.par_iter().collect::<String>()), s.clone());
        let words: Vec<&str> = s.split_inclusive(' ').collect();
        prop_assert_eq!(p.install(|| words.par_iter().copied().collect::<String>()), s.clone());
        let owned: Vec<String> = words.iter().map(|w| w.to_uppercase()).collect();
        let upper: String = p.install(|| owned.into_par_iter().collect());
        prop_assert_eq!(upper, s.to_uppercase());
        let mut extended = String::from("> ");
        p.install(|| extended.par_extend(chars.par_iter().copied().filter(|c| !c.is_whitespace())));
        prop_assert_eq!(extended, format!("> {}", s.chars().filter(|c| !c.is_whitespace()).collect::<String>()));
    }

    #[test]
    fn result_and_option_collect_stop_at_a_failure(v in prop::collection::vec(0u32..2000, 0..3000), bad in 0u32..2000) {
        let p = pool();
        let check = |x: u32| if x == bad { Err(format!("bad {x}")) } else { Ok(x * 2) };
        let par: Result<Vec<u32>, String> = p.install(|| v.par_iter().map(|&x| check(x)).collect());
        prop_assert_eq!(par, v.iter().map(|&x| check(x)).collect::<Result<Vec<_>, _>>());
        let par: Option<BTreeSet<u32>> = p.install(|| v.par_iter().map(|&x| (x != bad).then_some(x)).collect());
        prop_assert_eq!(par, v.iter().map(|&x| (x != bad).then_some(x)).collect::<Option<BTreeSet<_>>>());
        let unit: Result<(), String> = p.install(|| v.par_iter().map(|&x| check(x).map(drop)).collect());
        prop_assert_eq!(unit.is_ok(), !v.contains(&bad));
    }

    #[test]
    fn par_extend_appends_in_order(prefix in prop::collection::vec(any::<i32>(), 0..50), v in prop::collection::vec(any::<i32>(), 0..3000)) {
        let p = pool();
        let mut exact = prefix.clone();
        p.install(|| exact.par_extend(v.par_iter().map(|&x| x / 2)));
        let mut expected = prefix.clone();
        expected.extend(v.iter().map(|&x| x / 2));
        prop_assert_eq!(&exact, &expected);
        let mut filtered = prefix.clone();
        p.install(|| filtered.par_extend(v.par_iter().copied().filter(|x| x % 3 == 0)));
        let mut expected = prefix.clone();
        expected.extend(v.iter().copied().filter(|x| x % 3 == 0));
        prop_assert_eq!(&filtered, &expected);

        let mut deque: VecDeque<i32> = prefix.iter().copied().collect();
        p.install(|| deque.par_extend(v.par_iter().copied()));
        prop_assert!(deque.iter().eq(prefix.iter().chain(&v)));
        let mut list: LinkedList<i32> = prefix.iter().copied().collect();
        p.install(|| list.par_extend(v.par_iter().copied()));
        prop_assert!(list.iter().eq(prefix.iter().chain(&v)));
        let mut map: HashMap<i32, usize> = prefix.iter().map(|&x| (x % 100, 0)).collect();
        p.install(|| map.par_extend(v.par_iter().enumerate().map(|(i, &x)| (x % 100, i + 1))));
        let mut expected: HashMap<i32, usize> = prefix.iter().map(|&x| (x % 100, 0)).collect();
        expected.extend(v.iter().enumerate().map(|(i, &x)| (x % 100, i + 1)));
        prop_assert_eq!(map, expected);
        let mut set: BTreeSet<i32> = prefix.iter().copied().collect();
        p.install(|| set.par_extend(v.par_iter().map(|x| x % 1000)));
        let expected: BTreeSet<i32> = prefix.iter().copied().chain(v.iter().map(|x| x % 1000)).collect();
        prop_assert_eq!(set, expected);
    }

    #[test]
    fn slice_views_match_std(mut v in prop::collection::vec(any::<u16>(), 0..3000), size in 1usize..70) {
        let p = pool();
        let windows = p.install(|| v.par_windows(size));
        prop_assert_eq!(windows.len(), v.windows(size).len());
        prop_assert_eq!(p.install(|| windows.collect::<Vec<_>>()), v.windows(size).collect::<Vec<_>>());
        let sums: Vec<(usize, u32)> = p.install(|| v.par_windows(size).map(|w| w.iter().map(|&x| x as u32).sum()).enumerate().rev().collect());
        prop_assert_eq!(sums, v.windows(size).map(|w| w.iter().map(|&x| x as u32).sum()).enumerate().rev().collect::<Vec<_>>());

        let exact = v.par_chunks_exact(size);
        prop_assert_eq!(exact.remainder(), v.chunks_exact(size).remainder());
        prop_assert_eq!(p.install(|| exact.collect::<Vec<_>>()), v.chunks_exact(size).collect::<Vec<_>>());
        prop_assert_eq!(p.install(|| v.par_rchunks(size).collect::<Vec<_>>()), v.rchunks(size).collect::<Vec<_>>());
        prop_assert_eq!(p.install(|| v.par_rchunks(size).rev().collect::<Vec<_>>()), v.rchunks(size).rev().collect::<Vec<_>>());

        let mut expected = v.clone();
        expected.chunks_exact_mut(size).enumerate().for_each(|(i, c)| c.fill(i as u16));
        expected.rchunks_mut(size).for_each(|c| c[0] = c[0].wrapping_add(1));
        let mut chunks = v.par_chunks_exact_mut(size);
        let rem_len = chunks.remainder().len();
        prop_assert_eq!(chunks.take_remainder().len(), rem_len);
        prop_assert!(chunks.remainder().is_empty());
        p.install(|| chunks.enumerate().for_each(|(i, c)| c.fill(i as u16)));
        p.install(|| v.par_rchunks_mut(size).for_each(|c| c[0] = c[0].wrapping_add(1)));
        prop_assert_eq!(v, expected);
    }

    #[test]
    fn sorts_by_comparator_and_key_match_std(v in prop::collection::vec(0u32..100, 0..30_000)) {
        let p = pool();
        // Stable sorts: pairs sorted by the first field keep the second in order.
        let pairs: Vec<(u32, usize)> = v.iter().copied().zip(0..).collect();
        let mut expected = pairs.clone();
        expected.sort_by_key(|p| p.0);
        let mut by = pairs.clone();
        p.install(|| by.par_sort_by(|a, b| a.0.cmp(&b.0)));
        prop_assert_eq!(&by, &expected);
        let mut by_key = pairs.clone();
        p.install(|| by_key.par_sort_by_key(|p| p.0));
        prop_assert_eq!(&by_key, &expected);
        let mut descending = v.clone();
        p.install(|| descending.par_sort_unstable_by(|a, b| b.cmp(a)));
        let mut expected = v.clone();
        expected.sort_unstable_by(|a, b| b.cmp(a));
        prop_assert_eq!(&descending, &expected);
        let mut by_key = v.clone();
        p.install(|| by_key.par_sort_unstable_by_key(|&x| (x % 10, x)));
        expected.sort_unstable_by_key(|&x| (x % 10, x));
        prop_assert_eq!(&by_key, &expected);
    }

    #[test]
    fn par_bridge_sees_every_item_once(v in prop::collection::vec(any::<u32>(), 0..3000)) {
        let p = pool();
        let mut bridged: Vec<u32> = p.install(|| v.iter().copied().par_bridge().collect());
        bridged.sort_unstable();
        let mut expected = v.clone();
        expected.sort_unstable();
        prop_assert_eq!(bridged, expected);
        let sum: u64 = p.install(|| v.iter().par_bridge().map(|&x| x as u64).sum());
        prop_assert_eq!(sum, v.iter().map(|&x| x as u64).sum::<u64>());
        let odd = p.install(|| v.iter().par_bridge().filter(|&&x| x % 2 == 1).count());
        prop_assert_eq!(odd, v.iter().filter(|&&x| x % 2 == 1).count());
        let found = p.install(|| v.iter().par_bridge().find_any(|&&x| x % 101 == 7));
        prop_assert_eq!(found.is_some(), v.iter().any(|&x| x % 101 == 7));
    }
}

#[test]
fn empty_and_single_inputs() {
    let empty: Vec<u8> = Vec::new();
    assert!(empty.par_iter().collect::<HashSet<_>>().is_empty());
    assert!(empty
        .par_iter()
        .map(|&x| (x, x))
        .collect::<BTreeMap<_, _>>()
        .is_empty());
    assert_eq!(empty.par_iter().map(|&x| x as char).collect::<String>(), "");
    let ok: Result<Vec<u8>, ()> = empty.par_iter().map(|&x| Ok(x)).collect();
    assert_eq!(ok, Ok(vec![]));
    assert_eq!(empty.par_windows(1).count(), 0);
    assert_eq!([1u8, 2].par_windows(3).count(), 0);
    let exact = [1u8, 2].par_chunks_exact(3);
    assert_eq!(exact.remainder(), [1, 2]);
    assert_eq!(exact.count(), 0);
    assert_eq!(empty.par_rchunks(4).count(), 0);
    assert_eq!(std::iter::empty::<u8>().par_bridge().count(), 0);
    let mut v: Vec<u8> = Vec::new();
    v.par_extend(Vec::new());
    v.par_sort_by_key(|&x| x);
    v.par_sort_unstable_by(|a, b| b.cmp(a));
    assert!(v.is_empty());

    let one = [7u8];
    assert_eq!(one.par_windows(1).collect::<Vec<_>>(), [[7]]);
    assert_eq!(one.par_rchunks(2).collect::<Vec<_>>(), [[7]]);
    assert_eq!(one.par_chunks_exact(1).collect::<Vec<_>>(), [[7]]);
    let err: Result<Vec<u8>, u8> = one.par_iter().map(|&x| Err(x)).collect();
    assert_eq!(err, Err(7));
    assert_eq!(one.iter().par_bridge().collect::<Vec<_>>(), [&7]);
    assert_eq!(
        one.par_iter().map(|&x| (x, ())).collect::<HashMap<_, _>>(),
        HashMap::from([(7, ())])
    );
}

#[test]
fn zero_sizes_panic() {
    let v = [1u8, 2, 3];
    let runs: [&dyn Fn(); 4] = [
        &|| {
            let _ = v.par_windows(0);
        },
        &|| {
            let _ = v.par_chunks_exact(0);
        },
        &|| {
            let _ = v.par_rchunks(0);
        },
        &|| {
            let _ = [1u8].par_chunks_exact_mut(0);
        },
    ];
    for run in runs {
        assert!(std::panic::catch_unwind(AssertUnwindSafe(run)).is_err());
    }
}

#[test]
fn a_panic_in_par_bridge_or_a_comparator_reaches_the_caller_and_the_pool_stays_usable() {
    let result = std::panic::catch_unwind(|| {
        pool().install(|| {
            (0..20_000u32)
                .map(|x| if x == 9_999 { panic!("next {x}") } else { x })
                .par_bridge()
                .sum::<u32>()
        })
    });
    let message = *result.unwrap_err().downcast::<String>().unwrap();
    assert_eq!(message, "next 9999");
    let mut v: Vec<u32> = (0..50_000).rev().collect();
    let result = std::panic::catch_unwind(AssertUnwindSafe(|| {
        pool().install(|| {
            v.par_sort_by(|a, b| {
                if *a == 12_345 {
                    panic!("compare")
                }
                a.cmp(b)
            })
        })
    }));
    assert!(result.is_err());
    v.sort_unstable();
    assert!(
        v.iter().copied().eq(0..50_000),
        "no element lost or duplicated"
    );
    assert_eq!(
        pool().install(|| (0..1000u32).par_bridge().sum::<u32>()),
        499_500
    );
}

#[test]
fn collect_into_result_stops_soon_after_the_first_error() {
    let visited = AtomicUsize::new(0);
    let n = 10_000_000u64;
    let r: Result<Vec<u64>, u64> = pool().install(|| {
        (0..n)
            .into_par_iter()
            .map(|x| {
                visited.fetch_add(1, Ordering::Relaxed);
                if x == 0 {
                    Err(x)
                } else {
                    Ok(x)
                }
            })
            .collect()
    });
    assert_eq!(r, Err(0));
    let visited = visited.load(Ordering::Relaxed);
    assert!(visited < n as usize / 2, "visited {visited}");
}

#[test]
fn owned_items_are_dropped_exactly_once_by_collect_and_extend() {
    static LIVE: AtomicUsize = AtomicUsize::new(0);
    let make = |n: u32| (0..n).map(|x| Counted::new(x, &LIVE)).collect::<Vec<_>>();
    pool().install(|| {
        let r: Result<Vec<Counted>, Counted> = make(20_000)
            .into_par_iter()
            .map(|c| if c.0 == 15_000 { Err(c) } else { Ok(c) })
            .collect();
        assert_eq!(r.err().map(|c| c.0), Some(15_000));
        let mut target = make(10);
        target.par_extend(make(5000));
        assert_eq!(target.len(), 5010);
        let (a, b): (Vec<Counted>, LinkedList<Counted>) =
            make(5000).into_par_iter().partition(|c| c.0 < 100);
        assert_eq!((a.len(), b.len()), (100, 4900));
        let bridged = make(3000).into_iter().par_bridge().count();
        assert_eq!(bridged, 3000);
    });
    // A panic while extending in place: the new items drop, the old ones stay.
    let mut target = make(10);
    let result = std::panic::catch_unwind(AssertUnwindSafe(|| {
        pool().install(|| {
            target.par_extend(make(20_000).into_par_iter().map(|c| {
                if c.0 == 12_000 {
                    panic!("stop")
                } else {
                    c
                }
            }))
        })
    }));
    assert!(result.is_err());
    assert_eq!(target.len(), 10);
    drop(target);
    assert_eq!(LIVE.load(Ordering::SeqCst), 0, "every element dropped once");
}

/// Large in-place pieces map their pages ahead of the writes, chunk by chunk (an exact
/// collect, items of a size that does not divide a page, `par_extend` after a prefix
/// that leaves the spare capacity unaligned, a filtered collect): the contents must be
/// exactly the sequential ones.
#[test]
fn large_collects_match_sequential() {
    let p = pool();
    let n = 3_000_000u64;
    let exact: Vec<u64> = p.install(|| (0..n).into_par_iter().map(|x| x * 7).collect());
    assert!(exact.iter().copied().eq((0..n).map(|x| x * 7)));
    let wide: Vec<[u64; 3]> =
        p.install(|| (0..n).into_par_iter().map(|x| [x, !x, x * 3]).collect());
    assert!(wide.iter().copied().eq((0..n).map(|x| [x, !x, x * 3])));
    let filtered: Vec<u64> = p.install(|| (0..n).into_par_iter().filter(|x| x % 3 != 0).collect());
    assert!(filtered.iter().copied().eq((0..n).filter(|x| x % 3 != 0)));
    let mut extended = vec![1u64, 2, 3];
    p.install(|| extended.par_extend((0..n).into_par_iter().map(|x| x + 1)));
    assert!(extended
        .iter()
        .copied()
        .eq([1, 2, 3].into_iter().chain(1..=n)));
}

/// An exact producer of `len` positions whose pieces yield only the first half of
/// their items: a safe `Producer` impl that breaks its promise.
struct ShortPieces {
    start: u64,
    len: usize,
}

impl magpie::iter::plumbing::Producer for ShortPieces {
    type Item = u64;
    type IntoIter = std::ops::Range<u64>;
    fn len(&self) -> usize {
        self.len
    }
    fn split_at(self, index: usize) -> (Self, Self) {
        let right = ShortPieces {
            start: self.start + index as u64,
            len: self.len - index,
        };
        (ShortPieces { len: index, ..self }, right)
    }
    fn into_iter(self) -> Self::IntoIter {
        self.start..self.start + (self.len / 2) as u64
    }
    fn exact(&self) -> bool {
        true
    }
}

struct Short(usize);

impl ParallelIterator for Short {
    type Item = u64;
    type Producer = ShortPieces;
    fn into_producer(self) -> ShortPieces {
        ShortPieces {
            start: 0,
            len: self.0,
        }
    }
}

/// A short exact producer large enough for the chunked, page-mapping leaf: the collect
/// must panic (not hang, not expose unwritten items) and the pool stay usable.
#[test]
fn a_short_exact_producer_panics_in_large_collects() {
    let (tx, rx) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        let result =
            std::panic::catch_unwind(|| pool().install(|| Short(4_000_000).collect::<Vec<u64>>()));
        let _ = tx.send(result.is_err());
    });
    let panicked = rx
        .recv_timeout(std::time::Duration::from_secs(120))
        .expect("the collect of a short producer did not finish");
    assert!(panicked, "a short exact producer must make collect panic");
    let after: Vec<u64> = pool().install(|| (0..1000u64).into_par_iter().collect());
    assert_eq!(after.len(), 1000);
}

/// An exact producer whose right part of every split claims (and yields) 8 positions
/// more than it was given: a safe `Producer` impl that breaks its promise the other way.
struct GrowingPieces {
    start: u64,
    len: usize,
}

impl magpie::iter::plumbing::Producer for GrowingPieces {
    type Item = u64;
    type IntoIter = std::ops::Range<u64>;
    fn len(&self) -> usize {
        self.len
    }
    fn split_at(self, index: usize) -> (Self, Self) {
        let right = GrowingPieces {
            start: self.start + index as u64,
            len: self.len - index + 8,
        };
        (GrowingPieces { len: index, ..self }, right)
    }
    fn into_iter(self) -> Self::IntoIter {
        self.start..self.start + self.len as u64
    }
    fn exact(&self) -> bool {
        true
    }
}

struct Growing(usize);

impl ParallelIterator for Growing {
    type Item = u64;
    type Producer = GrowingPieces;
    fn into_producer(self) -> GrowingPieces {
        GrowingPieces {
            start: 0,
            len: self.0,
        }
    }
}

/// A piece of an in-place collect writes only the positions its split gave it, however
/// long the producer's parts say they are: the extra items are never written (past the
/// reserved capacity) but left unread, and the result is the first `len` items.
#[test]
fn a_producer_whose_parts_grow_cannot_write_past_the_collect_buffer() {
    // The 2-thread pool always splits the top level, so the right part lies.
    let v: Vec<u64> = pool().install(|| Growing(16).collect());
    assert_eq!(v, (0..16).collect::<Vec<u64>>());
    let mut w = vec![7u64];
    pool().install(|| w.par_extend(Growing(16)));
    assert!(w.iter().copied().eq([7].into_iter().chain(0..16)));
}
