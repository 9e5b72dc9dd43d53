//! The splits of slices by a predicate (`par_split`, `par_split_inclusive`,
//! `par_chunk_by`, each also `_mut`) against the slice methods of the same names, on
//! random slices cut into pieces of 1 to 63 elements by `with_max_len` as well as by
//! the adaptive splitter; empty and one-element slices.

use magpie::prelude::*;
use proptest::prelude::*;

use crate::common;
use common::iter_pool as pool;

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    #[test]
    fn slice_splits_match_std(v in prop::collection::vec(0u8..6, 0..3000), max in 1usize..64) {
        let p = pool();
        let sep = |x: &u8| *x == 0;
        let got: Vec<&[u8]> = p.install(|| v.par_split(sep).collect());
        prop_assert_eq!(got, v.split(sep).collect::<Vec<_>>());
        let got: Vec<&[u8]> = p.install(|| v.par_split(sep).with_max_len(max).collect());
        prop_assert_eq!(got, v.split(sep).collect::<Vec<_>>());
        let got: Vec<&[u8]> = p.install(|| v.par_split_inclusive(sep).collect());
        prop_assert_eq!(got, v.split_inclusive(sep).collect::<Vec<_>>());
        let got: Vec<&[u8]> = p.install(|| v.par_split_inclusive(sep).with_max_len(max).collect());
        prop_assert_eq!(got, v.split_inclusive(sep).collect::<Vec<_>>());
        let pair = |a: &u8, b: &u8| a <= b;
        let got: Vec<&[u8]> = p.install(|| v.par_chunk_by(pair).collect());
        prop_assert_eq!(got, v.chunk_by(pair).collect::<Vec<_>>());
        let got: Vec<&[u8]> = p.install(|| v.par_chunk_by(pair).with_max_len(max).collect());
        prop_assert_eq!(got, v.chunk_by(pair).collect::<Vec<_>>());
        // Rare separators: long parts with none, which are searched once.
        let rare = |x: &u8| *x == 5;
        let got = p.install(|| v.par_split(rare).with_max_len(max).map(<[u8]>::len).collect::<Vec<_>>());
        prop_assert_eq!(got, v.split(rare).map(<[u8]>::len).collect::<Vec<_>>());
    }

    #[test]
    fn mutable_slice_splits_match_std(v in prop::collection::vec(0u8..6, 0..3000), max in 1usize..64) {
        let p = pool();
        let sep = |x: &u8| *x == 0;
        // Each part is written with its index in the split: every element of a part gets
        // it, so the result shows both where the parts are and that they are disjoint.
        let mark = |parts: Vec<&mut [u8]>| {
            for (i, part) in parts.into_iter().enumerate() {
                part.fill(100 + (i % 100) as u8);
            }
        };
        let (mut got, mut want) = (v.clone(), v.clone());
        let parts: Vec<&mut [u8]> = p.install(|| got.par_split_mut(sep).with_max_len(max).collect());
        mark(parts);
        mark(want.split_mut(sep).collect());
        prop_assert_eq!(&got, &want);
        let (mut got, mut want) = (v.clone(), v.clone());
        let parts: Vec<&mut [u8]> = p.install(|| got.par_split_inclusive_mut(sep).with_max_len(max).collect());
        mark(parts);
        mark(want.split_inclusive_mut(sep).collect());
        prop_assert_eq!(&got, &want);
        let pair = |a: &u8, b: &u8| a <= b;
        let (mut got, mut want) = (v.clone(), v.clone());
        p.install(|| got.par_chunk_by_mut(pair).with_max_len(max).for_each(|run| run.reverse()));
        want.chunk_by_mut(pair).for_each(<[u8]>::reverse);
        prop_assert_eq!(got, want);
    }
}

#[test]
fn empty_and_single_slices() {
    pool().install(|| {
        let sep = |x: &u8| *x == 0;
        let pair = |a: &u8, b: &u8| a == b;
        for v in [&[][..], &[0], &[1], &[0, 0], &[1, 0], &[0, 1]] {
            let got: Vec<&[u8]> = v.par_split(sep).collect();
            assert_eq!(got, v.split(sep).collect::<Vec<_>>(), "{v:?}");
            let got: Vec<&[u8]> = v.par_split_inclusive(sep).collect();
            assert_eq!(got, v.split_inclusive(sep).collect::<Vec<_>>(), "{v:?}");
            let got: Vec<&[u8]> = v.par_chunk_by(pair).collect();
            assert_eq!(got, v.chunk_by(pair).collect::<Vec<_>>(), "{v:?}");
            let mut m = v.to_vec();
            assert_eq!(m.par_split_mut(sep).count(), v.split(sep).count(), "{v:?}");
        }
    });
}
