//! `(a, b, c).into_par_iter()`: up to eight indexed iterators in lockstep, yielding
//! tuples, as rayon's `MultiZip` (a `zip` of `zip`s without the nested pairs).
//!
//! ```
//! use magpie::prelude::*;
//!
//! let (a, b, c) = (vec![1, 2, 3], vec![10, 20, 30], vec![100, 200, 300]);
//! let sums: Vec<i32> = (&a, &b, &c).into_par_iter().map(|(x, y, z)| x + y + z).collect();
//! assert_eq!(sums, [111, 222, 333]);
//! ```
//!
//! The length is the shortest input's; every piece cuts all inputs at the same
//! positions.

use super::plumbing::Producer;
use super::{IndexedParallelIterator, IntoParallelIterator, ParallelIterator};

/// The parallel iterator of a tuple of indexed iterators (see the module docs).
#[derive(Debug, Clone)]
pub struct MultiZip<T> {
    tuple: T,
}

/// The producer of [`MultiZip`]: every input cut at the same positions.
#[derive(Debug)]
pub struct MultiZipProducer<T> {
    tuple: T,
}

/// A piece of [`MultiZip`] as a sequential iterator.
#[derive(Debug)]
pub struct MultiZipIter<T> {
    tuple: T,
}

macro_rules! multizip {
    ($( ($($T:ident $idx:tt),+) )+) => {$(
        impl<$($T),+> IntoParallelIterator for ($($T,)+)
        where
            $($T: IntoParallelIterator, $T::Iter: IndexedParallelIterator,)+
        {
            type Iter = MultiZip<($($T::Iter,)+)>;
            type Item = ($($T::Item,)+);
            fn into_par_iter(self) -> Self::Iter {
                MultiZip { tuple: ($(self.$idx.into_par_iter(),)+) }
            }
        }

        impl<$($T: IndexedParallelIterator),+> ParallelIterator for MultiZip<($($T,)+)> {
            type Item = ($($T::Item,)+);
            type Producer = MultiZipProducer<($($T::Producer,)+)>;
            fn into_producer(self) -> Self::Producer {
                let len = IndexedParallelIterator::len(&self);
                MultiZipProducer {
                    tuple: ($(self.tuple.$idx.into_producer().split_at(len).0,)+),
                }
            }
        }

        impl<$($T: IndexedParallelIterator),+> IndexedParallelIterator for MultiZip<($($T,)+)> {
            fn len(&self) -> usize {
                let mut len = usize::MAX;
                $(len = len.min(self.tuple.$idx.len());)+
                len
            }
        }

        impl<$($T: Producer),+> Producer for MultiZipProducer<($($T,)+)> {
            type Item = ($($T::Item,)+);
            type IntoIter = MultiZipIter<($($T::IntoIter,)+)>;
            fn len(&self) -> usize {
                self.tuple.0.len()
            }
            fn split_at(self, index: usize) -> (Self, Self) {
                let halves = ($(self.tuple.$idx.split_at(index),)+);
                (
                    MultiZipProducer { tuple: ($(halves.$idx.0,)+) },
                    MultiZipProducer { tuple: ($(halves.$idx.1,)+) },
                )
            }
            fn into_iter(self) -> Self::IntoIter {
                MultiZipIter { tuple: ($(self.tuple.$idx.into_iter(),)+) }
            }
            fn min_len(&self) -> usize {
                let mut min = 1;
                $(min = min.max(self.tuple.$idx.min_len());)+
                min
            }
            fn max_len(&self) -> usize {
                let mut max = usize::MAX;
                $(max = max.min(self.tuple.$idx.max_len());)+
                max
            }
            fn exact(&self) -> bool {
                true
            }
        }

        impl<$($T: Iterator),+> Iterator for MultiZipIter<($($T,)+)> {
            type Item = ($($T::Item,)+);
            fn next(&mut self) -> Option<Self::Item> {
                Some(($(self.tuple.$idx.next()?,)+))
            }
            fn size_hint(&self) -> (usize, Option<usize>) {
                let mut hint = (usize::MAX, None::<usize>);
                $(
                    let (low, high) = self.tuple.$idx.size_hint();
                    hint.0 = hint.0.min(low);
                    hint.1 = match (hint.1, high) {
                        (Some(a), Some(b)) => Some(a.min(b)),
                        (a, b) => a.or(b),
                    };
                )+
                hint
            }
        }

        impl<$($T: DoubleEndedIterator + ExactSizeIterator),+> DoubleEndedIterator
            for MultiZipIter<($($T,)+)>
        {
            fn next_back(&mut self) -> Option<Self::Item> {
                // The inputs of a piece have one length (cut at the same positions), but
                // trim a longer one as std's `Zip` does rather than pair wrong items.
                let mut len = usize::MAX;
                $(len = len.min(self.tuple.$idx.len());)+
                $(
                    while self.tuple.$idx.len() > len {
                        self.tuple.$idx.next_back();
                    }
                )+
                Some(($(self.tuple.$idx.next_back()?,)+))
            }
        }

        impl<$($T: ExactSizeIterator),+> ExactSizeIterator for MultiZipIter<($($T,)+)> {}
    )+};
}

multizip! {
    (A 0, B 1)
    (A 0, B 1, C 2)
    (A 0, B 1, C 2, D 3)
    (A 0, B 1, C 2, D 3, E 4)
    (A 0, B 1, C 2, D 3, E 4, F 5)
    (A 0, B 1, C 2, D 3, E 4, F 5, G 6)
    (A 0, B 1, C 2, D 3, E 4, F 5, G 6, H 7)
}

#[cfg(test)]
mod tests {
    use crate::prelude::*;

    #[test]
    fn tuples_zip_to_the_shortest_in_order() {
        let a: Vec<u32> = (0..10_000).collect();
        let b: Vec<u64> = (0..7_000).map(|x| x * 2).collect();
        let c = vec!['x'; 9_000];
        let got: Vec<(u32, u64, char)> = (a.par_iter().copied(), &b, &c)
            .into_par_iter()
            .map(|(x, y, z)| (x, *y, *z))
            .with_max_len(64)
            .collect();
        let want: Vec<(u32, u64, char)> = a
            .iter()
            .zip(&b)
            .zip(&c)
            .map(|((x, y), z)| (*x, *y, *z))
            .collect();
        assert_eq!(got, want);
        assert_eq!(got.len(), 7_000);
    }

    #[test]
    fn pairs_and_eights_enumerate_and_reverse() {
        let pairs: Vec<(usize, (u8, u8))> = (0..5u8, 10..20u8)
            .into_par_iter()
            .enumerate()
            .rev()
            .collect();
        assert_eq!(pairs[0], (4, (4, 14)));
        assert_eq!(pairs.len(), 5);
        let r = 0..3u8;
        let eight = (
            r.clone(),
            r.clone(),
            r.clone(),
            r.clone(),
            r.clone(),
            r.clone(),
            r.clone(),
            r,
        );
        let sums: Vec<u8> = eight
            .into_par_iter()
            .map(|(a, b, c, d, e, f, g, h)| a + b + c + d + e + f + g + h)
            .collect();
        assert_eq!(sums, [0, 8, 16]);
    }

    #[test]
    fn mutable_slices_in_lockstep() {
        let mut out = vec![0u32; 1000];
        let (a, b): (Vec<u32>, Vec<u32>) = ((0..1000).collect(), (0..1000).rev().collect());
        (&mut out, &a, &b)
            .into_par_iter()
            .for_each(|(o, x, y)| *o = x + y);
        assert!(out.iter().all(|&o| o == 999));
    }
}
