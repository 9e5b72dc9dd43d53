//! The sources beyond slices and ranges against their sequential iterators: the
//! standard maps, sets and `VecDeque` (by reference, mutable reference and value) and
//! the string sources (`par_chars`, `par_char_indices`, `par_bytes`,
//! `par_encode_utf16`, `par_lines`, the `par_split` family, `par_matches` and
//! `par_match_indices`) on random text with multi-byte characters, cut finely by
//! `with_max_len` as well as by the adaptive splitter.

use std::collections::{BTreeMap, BTreeSet, HashMap, HashSet, VecDeque};

use magpie::prelude::*;
use proptest::prelude::*;

use crate::common;
use common::iter_pool as pool;

/// Random text from a few characters: separators, line endings, whitespace and
/// characters of 1 to 4 bytes, so that cuts land inside characters.
fn text() -> impl Strategy<Value = String> {
    let alphabet = vec![
        'a', 'b', ',', ',', ' ', '\t', '\n', '\n', '\r', 'é', '日', '😀', '\u{3000}',
    ];
    prop::collection::vec(prop::sample::select(alphabet), 0..3000)
        .prop_map(|chars| chars.into_iter().collect())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    #[test]
    fn maps_and_sets_match_std(pairs in prop::collection::vec((0u16..2000, any::<u32>()), 0..2000)) {
        let p = pool();
        let mut hash: HashMap<u16, u32> = pairs.iter().copied().collect();
        let mut tree: BTreeMap<u16, u32> = pairs.iter().copied().collect();
        let keys: HashSet<u16> = pairs.iter().map(|&(k, _)| k).collect();
        let sorted: BTreeSet<u16> = keys.iter().copied().collect();

        // By reference: the same entries (a hash map's order is its own).
        let mut got: Vec<(u16, u32)> = p.install(|| hash.par_iter().map(|(&k, &v)| (k, v)).collect());
        got.sort_unstable();
        let expected: Vec<(u16, u32)> = tree.iter().map(|(&k, &v)| (k, v)).collect();
        prop_assert_eq!(&got, &expected);
        let in_order: Vec<(u16, u32)> = p.install(|| tree.par_iter().map(|(&k, &v)| (k, v)).collect());
        prop_assert_eq!(&in_order, &expected);
        let key_sum: u64 = p.install(|| keys.par_iter().map(|&k| k as u64).sum());
        prop_assert_eq!(key_sum, keys.iter().map(|&k| k as u64).sum::<u64>());
        let ordered: Vec<u16> = p.install(|| sorted.par_iter().copied().collect());
        prop_assert_eq!(&ordered, &sorted.iter().copied().collect::<Vec<_>>());

        // Values through `par_iter_mut`.
        p.install(|| hash.par_iter_mut().for_each(|(_, v)| *v = v.wrapping_add(1)));
        p.install(|| tree.par_iter_mut().for_each(|(&k, v)| *v = v.wrapping_add(1) ^ k as u32));
        for (k, v) in &tree {
            prop_assert_eq!(hash[k] ^ *k as u32, *v);
        }

        // By value.
        let mut moved: Vec<(u16, u32)> = p.install(|| hash.clone().into_par_iter().collect());
        moved.sort_unstable();
        prop_assert_eq!(&moved, &hash.iter().map(|(&k, &v)| (k, v)).collect::<BTreeSet<_>>().into_iter().collect::<Vec<_>>());
        let moved: Vec<(u16, u32)> = p.install(|| tree.clone().into_par_iter().collect());
        prop_assert_eq!(moved, tree.into_iter().collect::<Vec<_>>());
        let moved: BTreeSet<u16> = p.install(|| keys.into_par_iter().collect());
        prop_assert_eq!(&moved, &sorted);
        let moved: Vec<u16> = p.install(|| sorted.clone().into_par_iter().collect());
        prop_assert_eq!(moved, sorted.into_iter().collect::<Vec<_>>());
    }

    #[test]
    fn vec_deque_matches_std(v in prop::collection::vec(any::<i32>(), 0..3000), rotate in 0usize..3000) {
        let p = pool();
        // Rotated, so the deque is usually two slices.
        let mut deque: VecDeque<i32> = v.iter().copied().collect();
        deque.rotate_left(rotate.min(deque.len()));
        let expected: Vec<i32> = deque.iter().copied().collect();
        let got: Vec<i32> = p.install(|| deque.par_iter().copied().collect());
        prop_assert_eq!(&got, &expected);
        let last = p.install(|| deque.par_iter().rev().enumerate().find_first(|(_, &x)| x % 3 == 0));
        prop_assert_eq!(last, deque.iter().rev().enumerate().find(|(_, &x)| x % 3 == 0));
        p.install(|| deque.par_iter_mut().for_each(|x| *x = x.wrapping_mul(3)));
        let tripled: Vec<i32> = expected.iter().map(|x| x.wrapping_mul(3)).collect();
        prop_assert_eq!(&deque.iter().copied().collect::<Vec<_>>(), &tripled);
        let moved: Vec<i32> = p.install(|| deque.into_par_iter().collect());
        prop_assert_eq!(moved, tripled);
    }

    #[test]
    fn chars_and_bytes_match_std(s in text(), min in 1usize..64) {
        let p = pool();
        let chars: Vec<char> = p.install(|| s.par_chars().with_min_len(min).collect());
        prop_assert_eq!(chars, s.chars().collect::<Vec<_>>());
        let indices: Vec<(usize, char)> = p.install(|| s.par_char_indices().collect());
        prop_assert_eq!(indices, s.char_indices().collect::<Vec<_>>());
        let bytes: Vec<u8> = p.install(|| s.par_bytes().collect());
        prop_assert_eq!(&bytes, &s.as_bytes().to_vec());
        prop_assert_eq!(p.install(|| s.par_bytes().len()), s.len());
        prop_assert_eq!(p.install(|| s.par_chars().count()), s.chars().count());
        let first_wide = p.install(|| s.par_char_indices().find_first(|(_, c)| c.len_utf8() > 2));
        prop_assert_eq!(first_wide, s.char_indices().find(|(_, c)| c.len_utf8() > 2));
        let rebuilt: String = p.install(|| s.par_chars().collect());
        prop_assert_eq!(rebuilt, s.clone());
    }

    #[test]
    fn splits_match_std(s in text(), min in 1usize..64, max in 1usize..64) {
        let p = pool();
        let got: Vec<&str> = p.install(|| s.par_split(',').with_min_len(min).collect());
        prop_assert_eq!(got, s.split(',').collect::<Vec<_>>());
        let sep = |c: char| c == 'é' || c == '😀';
        let got: Vec<&str> = p.install(|| s.par_split(sep).collect());
        prop_assert_eq!(got, s.split(sep).collect::<Vec<_>>());
        let got: Vec<&str> = p.install(|| s.par_lines().with_min_len(min).collect());
        prop_assert_eq!(got, s.lines().collect::<Vec<_>>());
        let got: Vec<&str> = p.install(|| s.par_split_whitespace().collect());
        prop_assert_eq!(got, s.split_whitespace().collect::<Vec<_>>());
        // The ordered search over parts, and a chain of two split sources.
        let last = p.install(|| s.par_lines().find_last(|l| l.contains('b')));
        prop_assert_eq!(last, s.lines().rev().find(|l| l.contains('b')));
        // The other splits and the matches, cut into pieces of at most `max` bytes.
        let got: Vec<&str> = p.install(|| s.par_split_inclusive(',').with_max_len(max).collect());
        prop_assert_eq!(got, s.split_inclusive(',').collect::<Vec<_>>());
        let got: Vec<&str> = p.install(|| s.par_split_inclusive(sep).with_max_len(max).collect());
        prop_assert_eq!(got, s.split_inclusive(sep).collect::<Vec<_>>());
        let got: Vec<&str> = p.install(|| s.par_split_terminator(',').with_max_len(max).collect());
        prop_assert_eq!(got, s.split_terminator(',').collect::<Vec<_>>());
        let got: Vec<&str> = p.install(|| s.par_split_terminator(sep).with_max_len(max).collect());
        prop_assert_eq!(got, s.split_terminator(sep).collect::<Vec<_>>());
        let got: Vec<&str> = p.install(|| s.par_split(',').with_max_len(max).collect());
        prop_assert_eq!(got, s.split(',').collect::<Vec<_>>());
        let got: Vec<&str> = p.install(|| s.par_lines().with_max_len(max).collect());
        prop_assert_eq!(got, s.lines().collect::<Vec<_>>());
        let got: Vec<&str> = p.install(|| s.par_split_ascii_whitespace().with_max_len(max).collect());
        prop_assert_eq!(got, s.split_ascii_whitespace().collect::<Vec<_>>());
        let got: Vec<&str> = p.install(|| s.par_matches(sep).with_max_len(max).collect());
        prop_assert_eq!(got, s.matches(sep).collect::<Vec<_>>());
        // Sets of characters, as an array, a reference to one and a slice.
        let set = [',', 'é', '😀'];
        let got: Vec<&str> = p.install(|| s.par_split(set).with_max_len(max).collect());
        prop_assert_eq!(got, s.split(set).collect::<Vec<_>>());
        let got: Vec<&str> = p.install(|| s.par_split_terminator(&set).with_max_len(max).collect());
        prop_assert_eq!(got, s.split_terminator(&set).collect::<Vec<_>>());
        let got: Vec<&str> = p.install(|| s.par_matches(&set[..]).with_max_len(max).collect());
        prop_assert_eq!(got, s.matches(&set[..]).collect::<Vec<_>>());
        let got: Vec<(usize, &str)> = p.install(|| s.par_match_indices(',').with_max_len(max).collect());
        prop_assert_eq!(got, s.match_indices(',').collect::<Vec<_>>());
        let got: Vec<u16> = p.install(|| s.par_encode_utf16().with_max_len(max).collect());
        prop_assert_eq!(got, s.encode_utf16().collect::<Vec<_>>());
        let mid = (0..=s.len() / 2).rev().find(|&i| s.is_char_boundary(i)).unwrap();
        let (a, b) = s.split_at(mid);
        let got: Vec<&str> = p.install(|| a.par_split(',').chain(b.par_split(',')).collect());
        prop_assert_eq!(got, a.split(',').chain(b.split(',')).collect::<Vec<_>>());
    }
}

#[test]
fn empty_and_single_inputs() {
    pool().install(|| {
        for s in ["", "a", "é", ",", ",,", "a,", ",a", "\n", " ", "\r\n", "😀"] {
            let split: Vec<&str> = s.par_split(',').collect();
            assert_eq!(split, s.split(',').collect::<Vec<_>>(), "{s:?}");
            let lines: Vec<&str> = s.par_lines().collect();
            assert_eq!(lines, s.lines().collect::<Vec<_>>(), "{s:?}");
            let words: Vec<&str> = s.par_split_whitespace().collect();
            assert_eq!(words, s.split_whitespace().collect::<Vec<_>>(), "{s:?}");
            let words: Vec<&str> = s.par_split_ascii_whitespace().collect();
            assert_eq!(
                words,
                s.split_ascii_whitespace().collect::<Vec<_>>(),
                "{s:?}"
            );
            let parts: Vec<&str> = s.par_split_inclusive(',').collect();
            assert_eq!(parts, s.split_inclusive(',').collect::<Vec<_>>(), "{s:?}");
            let parts: Vec<&str> = s.par_split_terminator(',').collect();
            assert_eq!(parts, s.split_terminator(',').collect::<Vec<_>>(), "{s:?}");
            let found: Vec<(usize, &str)> = s.par_match_indices(',').collect();
            assert_eq!(found, s.match_indices(',').collect::<Vec<_>>(), "{s:?}");
            let units: Vec<u16> = s.par_encode_utf16().collect();
            assert_eq!(units, s.encode_utf16().collect::<Vec<_>>(), "{s:?}");
            assert_eq!(s.par_chars().collect::<String>(), s);
            assert_eq!(s.par_bytes().count(), s.len());
            // An empty string has no positions yet yields one substring; a split of
            // the chain must keep it where it is, on either side.
            let chained: Vec<&str> = "".par_split(',').chain(s.par_split(',')).collect();
            let expected: Vec<&str> = "".split(',').chain(s.split(',')).collect();
            assert_eq!(chained, expected, "{s:?}");
            let chained: Vec<&str> = s.par_split(',').chain("".par_split(',')).collect();
            let expected: Vec<&str> = s.split(',').chain("".split(',')).collect();
            assert_eq!(chained, expected, "{s:?}");
        }
        let empty: HashMap<u8, u8> = HashMap::new();
        assert_eq!(empty.par_iter().count(), 0);
        assert_eq!(VecDeque::<u8>::new().par_iter().count(), 0);
        let one: BTreeMap<u8, u8> = [(1, 2)].into();
        assert_eq!(one.par_iter().collect::<Vec<_>>(), [(&1, &2)]);
        assert_eq!(VecDeque::from([9]).into_par_iter().collect::<Vec<_>>(), [9]);
        assert_eq!(HashSet::from([4u8]).into_par_iter().sum::<u8>(), 4);
    });
    // A long part with no separator is searched once and not cut.
    let long = "x".repeat(1 << 20);
    assert_eq!(long.par_split(',').count(), 1);
    assert_eq!(long.par_lines().count(), 1);
    assert_eq!(long.par_split_whitespace().count(), 1);
}

#[test]
fn long_strings_are_cut_into_several_pieces() {
    let line = "ab é日 😀,cd\r\n";
    let text = line.repeat(10_000);
    pool().install(|| {
        // `fold` yields one accumulator per piece.
        assert!(text.par_lines().fold(|| 0, |n, _| n + 1).count() > 1);
        assert!(text.par_split(',').fold(|| 0, |n, _| n + 1).count() > 1);
        assert!(text.par_split_whitespace().fold(|| 0, |n, _| n + 1).count() > 1);
        assert!(text.par_chars().fold(|| 0, |n, _| n + 1).count() > 1);
        assert_eq!(text.par_lines().count(), 10_000);
        assert_eq!(text.par_split(',').count(), 10_001);
        assert_eq!(text.par_split_whitespace().count(), 30_000);
    });
}
