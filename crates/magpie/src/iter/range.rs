//! Integer ranges as parallel sources: `(0..n).into_par_iter()`.

use std::ops::Range;

use super::plumbing::Producer;
use super::{IndexedParallelIterator, IntoParallelIterator, ParallelIterator};

/// Parallel iterator over the values of an integer range `a..b` (there is none for
/// `a..=b`, unlike rayon).
///
/// ```compile_fail
/// use magpie::prelude::*;
/// let _ = (0..=9u32).into_par_iter();
/// ```
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
                // twin, and every such length fits `usize` on 64-bit targets. Where it
                // does not (a `u64` range on a 32-bit target), a longer range is
                // refused: a truncated length would cut, zip and collect wrong items.
                #[allow(clippy::unnecessary_fallible_conversions)]
                let len = usize::try_from(self.range.end.abs_diff(self.range.start));
                len.expect("range: the length overflows usize")
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

#[cfg(test)]
mod tests {
    use super::super::{IndexedParallelIterator, IntoParallelIterator};

    /// A `u64` range longer than `usize::MAX` (on 32-bit targets) must not report a
    /// truncated length, which would cut, zip and collect the wrong items: it panics.
    #[test]
    fn a_length_past_usize_is_refused_not_truncated() {
        let end = (1u64 << 32) + 5;
        match std::panic::catch_unwind(|| (0..end).into_par_iter().len()) {
            Ok(len) => assert_eq!(len as u64, end),
            Err(_) => assert!(
                usize::try_from(end).is_err(),
                "a length that fits was refused"
            ),
        }
        if usize::BITS >= 64 {
            let len = (i64::MIN..i64::MAX).into_par_iter().len();
            assert_eq!(len as u64, u64::MAX);
        }
    }
}
