//! `interleave`, `interleave_shortest`, `intersperse`, `chunks` on iterators, `par_rchunks_exact`,
//! `try_fold`, `positions`, `zip_eq`, `collect_into_vec`, `flat_map` and `flatten` against
//! sequential references: random inputs (proptest), the cuts between pieces, empty
//! inputs, panics.

use std::ops::ControlFlow;

use magpie::prelude::*;
use proptest::prelude::*;

use crate::common;
use common::iter_pool as pool;

/// `a0, b0, a1, b1, ..` then the rest of the longer one.
fn interleave_seq<T: Clone>(a: &[T], b: &[T]) -> Vec<T> {
    let mut out = Vec::with_capacity(a.len() + b.len());
    for i in 0..a.len().max(b.len()) {
        out.extend(a.get(i).cloned());
        out.extend(b.get(i).cloned());
    }
    out
}

/// Alternation until one side runs out (rayon's `interleave_shortest`).
fn interleave_shortest_seq<T: Clone>(a: &[T], b: &[T]) -> Vec<T> {
    let n = a.len().min(b.len());
    let extra = usize::from(a.len() > b.len());
    interleave_seq(&a[..n + extra], &b[..n])
}

/// `v0, s, v1, s, .., v(n-1)`.
fn intersperse_seq<T: Clone>(v: &[T], s: &T) -> Vec<T> {
    let mut out = Vec::new();
    for (i, x) in v.iter().enumerate() {
        if i > 0 {
            out.push(s.clone());
        }
        out.push(x.clone());
    }
    out
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    #[test]
    fn intersperse_matches_the_reference(
        v in prop::collection::vec(0u16..1000, 0..500),
        max in 1usize..30,
        k in 0usize..1100,
    ) {
        let p = pool();
        let want = intersperse_seq(&v, &u16::MAX);
        let got: Vec<u16> = p.install(|| v.par_iter().copied().intersperse(u16::MAX).collect());
        prop_assert_eq!(&got, &want);
        prop_assert_eq!(p.install(|| v.par_iter().copied().intersperse(0).len()), want.len());
        // Pieces of at most `max` positions, cut anywhere (between an item and its
        // separator too): each continues the one before.
        let pieces: Vec<Vec<u16>> = p.install(|| {
            v.par_iter().copied().intersperse(u16::MAX).with_max_len(max)
                .fold(Vec::new, |mut piece, x| { piece.push(x); piece }).collect()
        });
        prop_assert_eq!(pieces.concat(), want.clone());
        // Indexed: reversed, enumerated and cut at any position, zipped, nested.
        let rev: Vec<u16> = p.install(|| v.par_iter().copied().intersperse(u16::MAX).with_max_len(max).rev().collect());
        prop_assert_eq!(rev, want.iter().rev().copied().collect::<Vec<_>>());
        let cut: Vec<(usize, u16)> = p.install(|| {
            v.par_iter().copied().intersperse(u16::MAX).enumerate().skip(k).take(max * 7).collect()
        });
        prop_assert_eq!(cut, want.iter().copied().enumerate().skip(k).take(max * 7).collect::<Vec<_>>());
        let zipped: Vec<(u16, usize)> = p.install(|| {
            v.par_iter().copied().intersperse(u16::MAX).zip(0..want.len()).with_max_len(max).collect()
        });
        prop_assert_eq!(zipped, want.iter().copied().zip(0..).collect::<Vec<_>>());
        let twice: Vec<u16> = p.install(|| v.par_iter().copied().intersperse(u16::MAX).intersperse(1000).with_max_len(max).collect());
        prop_assert_eq!(twice, intersperse_seq(&want, &1000));
        let blocks: Vec<u16> = p.install(|| v.par_iter().copied().intersperse(u16::MAX).by_uniform_blocks(max).collect());
        prop_assert_eq!(blocks, want);
    }

    #[test]
    fn interleave_matches_the_reference(
        a in prop::collection::vec(any::<u16>(), 0..600),
        b in prop::collection::vec(any::<u16>(), 0..600),
        min in 1usize..40,
    ) {
        let p = pool();
        let got: Vec<u16> = p.install(|| a.par_iter().copied().interleave(b.par_iter().copied()).with_min_len(min).collect());
        prop_assert_eq!(&got, &interleave_seq(&a, &b));
        // Pieces cut anywhere: each piece's own order must continue the previous one's.
        let pieces: Vec<Vec<u16>> = p.install(|| {
            b.par_iter().copied().interleave(a.par_iter().copied()).with_min_len(min)
                .fold(Vec::new, |mut v, x| { v.push(x); v }).collect()
        });
        prop_assert_eq!(pieces.concat(), interleave_seq(&b, &a));
        let shortest: Vec<u16> = p.install(|| a.par_iter().copied().interleave_shortest(b.par_iter().copied()).collect());
        prop_assert_eq!(shortest, interleave_shortest_seq(&a, &b));
        let len = p.install(|| a.par_iter().interleave(&b).len());
        prop_assert_eq!(len, a.len() + b.len());
        // Indexed: it can be enumerated and cut like any other.
        let cut: Vec<(usize, u16)> = p.install(|| a.par_iter().copied().interleave(b.par_iter().copied()).enumerate().skip(min).collect());
        prop_assert_eq!(cut, interleave_seq(&a, &b).into_iter().enumerate().skip(min).collect::<Vec<_>>());
    }

    #[test]
    fn chunks_match_std(v in prop::collection::vec(any::<u32>(), 0..2000), size in 1usize..70, min in 1usize..20) {
        let p = pool();
        let got: Vec<Vec<u32>> = p.install(|| v.par_iter().copied().chunks(size).with_min_len(min).collect());
        prop_assert_eq!(got, v.chunks(size).map(<[u32]>::to_vec).collect::<Vec<_>>());
        let sums: Vec<u64> = p.install(|| {
            (0..v.len()).into_par_iter().map(|i| v[i] as u64).chunks(size).map(|c| c.iter().sum()).collect()
        });
        prop_assert_eq!(sums, v.chunks(size).map(|c| c.iter().map(|&x| x as u64).sum()).collect::<Vec<u64>>());
        prop_assert_eq!(p.install(|| v.par_iter().chunks(size).len()), v.len().div_ceil(size));
    }

    #[test]
    fn rchunks_exact_match_std(v in prop::collection::vec(any::<u8>(), 0..3000), size in 1usize..90) {
        let p = pool();
        let exact = v.par_rchunks_exact(size);
        prop_assert_eq!(exact.remainder(), v.rchunks_exact(size).remainder());
        prop_assert_eq!(p.install(|| exact.len()), v.len() / size);
        prop_assert_eq!(p.install(|| exact.collect::<Vec<_>>()), v.rchunks_exact(size).collect::<Vec<_>>());
        let mut got = v.clone();
        let mut expected = v.clone();
        let mut it = got.par_rchunks_exact_mut(size);
        it.remainder().fill(0);
        p.install(|| it.enumerate().for_each(|(i, c)| c.fill(i as u8)));
        let mut seq = expected.rchunks_exact_mut(size);
        seq.by_ref().enumerate().for_each(|(i, c)| c.fill(i as u8));
        seq.into_remainder().fill(0);
        prop_assert_eq!(got, expected);
    }

    #[test]
    fn try_fold_matches_a_sequential_fold(v in prop::collection::vec(0u32..1000, 0..3000), min in 1usize..300, limit in 0u32..1000) {
        let p = pool();
        // Each piece's accumulator, or the first item over the limit in that piece.
        let results: Vec<Result<u64, u32>> = p.install(|| {
            v.par_iter().with_min_len(min).try_fold(|| 0u64, |acc, &x| if x > limit { Err(x) } else { Ok(acc + x as u64) }).collect()
        });
        let total = p.install(|| {
            v.par_iter().try_fold(|| 0u64, |acc, &x| if x > limit { Err(()) } else { Ok(acc + x as u64) })
                .try_reduce(|| 0, |a, b| Ok(a + b))
        });
        let expected_total = if v.iter().any(|&x| x > limit) { Err(()) } else { Ok(v.iter().map(|&x| x as u64).sum::<u64>()) };
        prop_assert_eq!(total, expected_total);
        // A failed piece holds the first failure after the end of the piece before it.
        prop_assert!(!results.is_empty() || v.is_empty());
        let mut seen_ok = 0u64;
        let mut failures = Vec::new();
        for r in &results {
            match r {
                Ok(s) => seen_ok += s,
                Err(x) => failures.push(*x),
            }
        }
        if failures.is_empty() {
            prop_assert_eq!(seen_ok, v.iter().map(|&x| x as u64).sum::<u64>());
        } else {
            prop_assert_eq!(failures[0], *v.iter().find(|&&x| x > limit).unwrap());
        }
        // `try_fold_with` and `Option`/`ControlFlow` as the fallible type.
        let opt = p.install(|| v.par_iter().try_fold_with(0u64, |acc, &x| acc.checked_add(x as u64)).collect::<Vec<_>>());
        prop_assert!(opt.iter().all(Option::is_some));
        let flow: Vec<ControlFlow<u32, u32>> = p.install(|| {
            v.par_iter().try_fold(|| 0, |n, &x| if x > limit { ControlFlow::Break(x) } else { ControlFlow::Continue(n + 1) }).collect()
        });
        let counted: u32 = flow.iter().map(|f| match f { ControlFlow::Continue(n) => *n, ControlFlow::Break(_) => 0 }).sum();
        prop_assert!(counted as usize <= v.len());
    }

    #[test]
    fn flat_map_and_flatten_match_std(
        nested in prop::collection::vec(prop::collection::vec(any::<u16>(), 0..40), 0..300),
        min in 1usize..20,
    ) {
        let p = pool();
        let expected: Vec<u16> = nested.iter().flatten().copied().collect();
        // Inner parallel iterators of several kinds: a slice, a range, a Vec by value.
        let got: Vec<u16> = p.install(|| nested.par_iter().with_min_len(min).flat_map(|v| v.par_iter().copied()).collect());
        prop_assert_eq!(&got, &expected);
        let lens: Vec<usize> = p.install(|| nested.par_iter().flat_map(|v| 0..v.len()).collect());
        prop_assert_eq!(lens, nested.iter().flat_map(|v| 0..v.len()).collect::<Vec<_>>());
        let got: Vec<u16> = p.install(|| nested.clone().into_par_iter().with_min_len(min).flatten().collect());
        prop_assert_eq!(&got, &expected);
        // Inner adaptors keep their order and filtering.
        let evens: Vec<u16> = p.install(|| {
            nested.par_iter().flat_map(|v| v.par_iter().filter(|&&x| x % 2 == 0).map(|&x| x / 2)).collect()
        });
        prop_assert_eq!(evens, expected.iter().filter(|&&x| x % 2 == 0).map(|&x| x / 2).collect::<Vec<_>>());
        let sum: u64 = p.install(|| nested.par_iter().flat_map(|v| v.par_iter().map(|&x| x as u64)).sum());
        prop_assert_eq!(sum, expected.iter().map(|&x| x as u64).sum::<u64>());
    }

    #[test]
    fn positions_zip_eq_and_collect_into_vec(v in prop::collection::vec(any::<i32>(), 0..2000)) {
        let p = pool();
        let odd: Vec<usize> = p.install(|| v.par_iter().positions(|&x| x % 2 != 0).collect());
        prop_assert_eq!(odd, v.iter().enumerate().filter(|(_, &x)| x % 2 != 0).map(|(i, _)| i).collect::<Vec<_>>());
        let w: Vec<i32> = v.iter().map(|x| x.wrapping_mul(3)).collect();
        let pairs: Vec<(i32, i32)> = p.install(|| v.par_iter().copied().zip_eq(w.par_iter().copied()).collect());
        prop_assert_eq!(pairs, v.iter().copied().zip(w.iter().copied()).collect::<Vec<_>>());
        let mut target = vec![7; 5000];
        let capacity = target.capacity();
        p.install(|| v.par_iter().map(|x| x.wrapping_add(1)).collect_into_vec(&mut target));
        prop_assert_eq!(&target, &v.iter().map(|x| x.wrapping_add(1)).collect::<Vec<_>>());
        prop_assert_eq!(target.capacity(), capacity);
    }
}

#[test]
fn empty_inputs_and_bad_sizes() {
    pool().install(|| {
        let none: [u8; 0] = [];
        assert_eq!(none.par_iter().interleave(&none).count(), 0);
        assert_eq!([1].par_iter().interleave(&none).collect::<Vec<_>>(), [&1]);
        assert_eq!(none.par_iter().interleave(&[2]).collect::<Vec<_>>(), [&2]);
        assert_eq!([1, 3].par_iter().interleave_shortest(&none).count(), 1);
        assert_eq!(none.par_iter().chunks(3).count(), 0);
        assert_eq!(none.par_rchunks_exact(4).count(), 0);
        assert_eq!([1u8, 2, 3].par_rchunks_exact(4).remainder(), [1, 2, 3]);
        let nothing: Vec<Vec<u8>> = vec![Vec::new(), Vec::new()];
        assert_eq!(nothing.par_iter().flat_map(|v| v.par_iter()).count(), 0);
        assert_eq!(
            none.par_iter().flat_map(|&x| [x].into_par_iter()).count(),
            0
        );
        let folded: Vec<Option<u8>> = none
            .par_iter()
            .try_fold(|| 0u8, |a, &x| a.checked_add(x))
            .collect();
        assert_eq!(folded, [Some(0)]);
    });
    let zero_chunk = std::panic::catch_unwind(|| [1u8].par_iter().chunks(0).count());
    assert!(zero_chunk.is_err());
    let zero_rchunk = std::panic::catch_unwind(|| [1u8].par_rchunks_exact(0).count());
    assert!(zero_rchunk.is_err());
    let unequal = std::panic::catch_unwind(|| [1u8, 2].par_iter().zip_eq(&[1u8]).count());
    assert!(unequal.is_err());
}

/// The panic message of `run`, which must panic.
fn panic_message<R>(run: impl FnOnce() -> R) -> String {
    let payload = match std::panic::catch_unwind(std::panic::AssertUnwindSafe(run)) {
        Ok(_) => panic!("expected a panic"),
        Err(payload) => payload,
    };
    match payload.downcast::<String>() {
        Ok(s) => *s,
        Err(payload) => payload.downcast_ref::<&str>().unwrap_or(&"").to_string(),
    }
}

/// `chain` and `interleave` with more than `usize::MAX` positions in all panic as
/// rayon's (their length does not wrap around to a small one that cuts and collects
/// the wrong items).
#[test]
fn chain_and_interleave_past_usize_max_panic() {
    let huge = || (0..usize::MAX).into_par_iter();
    let chained = panic_message(|| huge().chain(0..2usize).len());
    assert!(
        chained.contains("chain: the length overflows usize"),
        "{chained}"
    );
    let skipped = panic_message(|| {
        pool().install(|| huge().chain(0..2usize).skip(usize::MAX).collect::<Vec<_>>())
    });
    assert!(
        skipped.contains("chain: the length overflows usize"),
        "{skipped}"
    );
    let interleaved = panic_message(|| huge().interleave(0..2usize).len());
    assert!(
        interleaved.contains("interleave: the length overflows usize"),
        "{interleaved}"
    );
    assert_eq!(huge().chain(0..0usize).len(), usize::MAX);
}

/// `par_chunks` of a slice whose last chunk is short can be cut at its end even when
/// `chunks × size` passes `usize::MAX` (zero-sized elements).
#[test]
fn chunks_of_a_huge_zero_sized_slice_cut_at_their_end() {
    let mut units = [(); usize::MAX];
    let chunks = units.par_chunks(2).len();
    assert_eq!(chunks, usize::MAX / 2 + 1);
    assert_eq!(units.par_chunks(2).skip(chunks).count(), 0);
    assert_eq!(units.par_chunks_mut(2).skip(chunks).count(), 0);
    let last: Vec<&[()]> = units.par_chunks(2).skip(chunks - 1).collect();
    assert_eq!(last, [&[()][..]]);
}

/// `par_windows` of `usize::MAX` zero-sized elements has as many windows as `std`'s.
#[test]
fn windows_of_a_huge_zero_sized_slice() {
    let units = [(); usize::MAX];
    assert_eq!(units.par_windows(1).len(), units.windows(1).len());
    assert_eq!(units.par_windows(3).len(), usize::MAX - 2);
    let tail: Vec<&[()]> = units.par_windows(2).skip(usize::MAX - 3).collect();
    assert_eq!(tail, [&[(), ()][..], &[(), ()][..]]);
}

#[test]
fn intersperse_of_none_one_and_owned_items() {
    let p = pool();
    let none: Vec<String> = p.install(|| {
        Vec::<String>::new()
            .into_par_iter()
            .intersperse(",".into())
            .collect()
    });
    assert!(none.is_empty());
    let one: Vec<String> = p.install(|| {
        vec!["a".to_string()]
            .into_par_iter()
            .intersperse(",".into())
            .collect()
    });
    assert_eq!(one, ["a"]);
    let words: Vec<String> = (0..1000).map(|i| i.to_string()).collect();
    let joined: String = p.install(|| {
        words
            .clone()
            .into_par_iter()
            .intersperse(",".to_string())
            .collect()
    });
    assert_eq!(joined, words.join(","));
}
