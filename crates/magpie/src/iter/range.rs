//! Integer ranges as parallel sources: `(0..n).into_par_iter()`.

use std::ops::Range;

use super::plumbing::Producer;
use super::{IndexedParallelIterator, IntoParallelIterator, ParallelIterator};

/// Parallel iterator over the values of an integer range.
#[derive(Debug, Clone)]
pub struct RangeIter<T> {
    range: Range<T>,
}

macro_rules! range_source {
    ($($t:ty),*) => {$(
        impl IntoParallelIterator for Range<$t> {
            type Iter = RangeIter<$t>;
            type Item = $t;
            fn into_par_iter(self) -> Self::Iter {
                let end = self.end.max(self.start);
                RangeIter { range: self.start..end }
            }
        }

        impl ParallelIterator for RangeIter<$t> {
            type Item = $t;
            type Producer = Self;
            fn into_producer(self) -> Self {
                self
            }
        }

        impl IndexedParallelIterator for RangeIter<$t> {
            fn len(&self) -> usize {
                Producer::len(self)
            }
        }

        impl Producer for RangeIter<$t> {
            type Item = $t;
            type IntoIter = Range<$t>;
            fn len(&self) -> usize {
                // The difference of two values of the type always fits its unsigned
                // twin, and every such length fits `usize` on 64-bit targets.
                self.range.end.abs_diff(self.range.start) as usize
            }
            fn split_at(self, index: usize) -> (Self, Self) {
                // `index <= len`, so the middle lies inside the range.
                let mid = self.range.start.wrapping_add(index as $t);
                (RangeIter { range: self.range.start..mid }, RangeIter { range: mid..self.range.end })
            }
            fn into_iter(self) -> Range<$t> {
                self.range
            }
            fn exact(&self) -> bool {
                true
            }
        }
    )*};
}

range_source!(u8, u16, u32, u64, usize, i8, i16, i32, i64, isize);
