//! Sources made of one value: [`repeat_n`] (and [`repeat`]`(x).take(n)`), [`once`] and
//! [`empty`], as rayon's `rayon::iter` functions of those names.
//!
//! Every piece of a [`RepeatN`] owns its own copy of the value: a split clones it for
//! the right part, and a piece yields clones of its copy and moves it out last, so `n`
//! items cost `n − 1` clones in all, however the input was divided.

use std::iter;
use std::marker::PhantomData;

use super::plumbing::Producer;
use super::{IndexedParallelIterator, IntoParallelIterator, ParallelIterator, Zip};

/// `element` cloned `n` times, as a parallel iterator (rayon's `repeat_n`, formerly
/// `repeatn`).
///
/// ```
/// use magpie::iter::repeat_n;
/// use magpie::prelude::*;
///
/// let rows: Vec<Vec<u8>> = repeat_n(vec![0u8; 4], 3).collect();
/// assert_eq!(rows, vec![vec![0; 4]; 3]);
/// ```
pub fn repeat_n<T: Clone + Send>(element: T, n: usize) -> RepeatN<T> {
    RepeatN {
        element: (n > 0).then_some(element),
        count: n,
    }
}

/// `element` repeated without end; give it a length with [`Repeat::take`] or
/// [`Repeat::zip`].
///
/// Difference from rayon: rayon's `Repeat` is itself an unindexed, endless parallel
/// iterator; here it is only the start of those two calls (a piece of an endless
/// source cannot be split in halves).
///
/// ```
/// use magpie::iter::repeat;
/// use magpie::prelude::*;
///
/// let names = ["a", "b", "c"];
/// let tagged: Vec<(&str, &str)> = repeat("x").zip(names.par_iter().copied()).collect();
/// assert_eq!(tagged, [("x", "a"), ("x", "b"), ("x", "c")]);
/// assert_eq!(repeat(2u32).take(5).sum::<u32>(), 10);
/// ```
pub fn repeat<T: Clone + Send>(element: T) -> Repeat<T> {
    Repeat { element }
}

/// One item, as a parallel iterator (rayon's `once`).
///
/// ```
/// use magpie::iter::once;
/// use magpie::prelude::*;
///
/// let v: Vec<u32> = (1..4u32).into_par_iter().chain(once(10)).collect();
/// assert_eq!(v, [1, 2, 3, 10]);
/// ```
pub fn once<T: Send>(item: T) -> Once<T> {
    Once { item: Some(item) }
}

/// No items, as a parallel iterator (rayon's `empty`).
///
/// ```
/// use magpie::iter::empty;
/// use magpie::prelude::*;
///
/// assert_eq!(empty::<u32>().count(), 0);
/// ```
pub fn empty<T: Send>() -> Empty<T> {
    Empty(PhantomData)
}

/// The iterator of [`repeat`]: call [`take`](Repeat::take) or [`zip`](Repeat::zip).
#[derive(Debug, Clone)]
pub struct Repeat<T> {
    element: T,
}

impl<T: Clone + Send> Repeat<T> {
    /// The first `n` repetitions: [`repeat_n`]`(element, n)`.
    pub fn take(self, n: usize) -> RepeatN<T> {
        repeat_n(self.element, n)
    }

    /// Pairs a repetition with every item of `other`.
    pub fn zip<Z>(self, other: Z) -> Zip<RepeatN<T>, Z::Iter>
    where
        Z: IntoParallelIterator,
        Z::Iter: IndexedParallelIterator,
    {
        let other = other.into_par_iter();
        let n = other.len();
        self.take(n).zip(other)
    }
}

/// The parallel iterator of [`repeat_n`], also its producer.
#[derive(Debug, Clone)]
pub struct RepeatN<T> {
    /// `None` only when `count` is 0.
    element: Option<T>,
    count: usize,
}

impl<T: Clone + Send> ParallelIterator for RepeatN<T> {
    type Item = T;
    type Producer = Self;
    fn into_producer(self) -> Self {
        self
    }
}

impl<T: Clone + Send> IndexedParallelIterator for RepeatN<T> {
    fn len(&self) -> usize {
        self.count
    }
}

impl<T: Clone + Send> Producer for RepeatN<T> {
    type Item = T;
    type IntoIter = RepeatNIter<T>;
    fn len(&self) -> usize {
        self.count
    }
    fn split_at(self, index: usize) -> (Self, Self) {
        let right = self.count - index;
        let (left, right) = match (index, right) {
            (0, _) => (None, self.element),
            (_, 0) => (self.element, None),
            _ => (self.element.clone(), self.element),
        };
        (
            RepeatN {
                element: left,
                count: index,
            },
            RepeatN {
                element: right,
                count: self.count - index,
            },
        )
    }
    fn into_iter(self) -> RepeatNIter<T> {
        RepeatNIter {
            element: self.element,
            left: self.count,
        }
    }
    fn exact(&self) -> bool {
        true
    }
}

/// A piece of [`RepeatN`] as a sequential iterator: clones, then the value itself.
#[derive(Debug)]
pub struct RepeatNIter<T> {
    element: Option<T>,
    left: usize,
}

impl<T: Clone> Iterator for RepeatNIter<T> {
    type Item = T;
    fn next(&mut self) -> Option<T> {
        match self.left {
            0 => None,
            1 => {
                self.left = 0;
                self.element.take()
            }
            _ => {
                self.left -= 1;
                self.element.clone()
            }
        }
    }
    fn size_hint(&self) -> (usize, Option<usize>) {
        (self.left, Some(self.left))
    }
}

impl<T: Clone> DoubleEndedIterator for RepeatNIter<T> {
    fn next_back(&mut self) -> Option<T> {
        self.next()
    }
}

impl<T: Clone> ExactSizeIterator for RepeatNIter<T> {}

/// The parallel iterator of [`once`], also its producer.
#[derive(Debug, Clone)]
pub struct Once<T> {
    item: Option<T>,
}

impl<T: Send> ParallelIterator for Once<T> {
    type Item = T;
    type Producer = Self;
    fn into_producer(self) -> Self {
        self
    }
}

impl<T: Send> IndexedParallelIterator for Once<T> {
    fn len(&self) -> usize {
        usize::from(self.item.is_some())
    }
}

impl<T: Send> Producer for Once<T> {
    type Item = T;
    type IntoIter = std::option::IntoIter<T>;
    fn len(&self) -> usize {
        usize::from(self.item.is_some())
    }
    fn split_at(self, index: usize) -> (Self, Self) {
        let none = Once { item: None };
        if index == 0 {
            (none, self)
        } else {
            (self, none)
        }
    }
    fn into_iter(self) -> Self::IntoIter {
        self.item.into_iter()
    }
    fn exact(&self) -> bool {
        true
    }
}

/// The parallel iterator of [`empty`], also its producer.
#[derive(Debug)]
pub struct Empty<T>(PhantomData<fn() -> T>);

impl<T> Clone for Empty<T> {
    fn clone(&self) -> Self {
        Empty(PhantomData)
    }
}

impl<T: Send> ParallelIterator for Empty<T> {
    type Item = T;
    type Producer = Self;
    fn into_producer(self) -> Self {
        self
    }
}

impl<T: Send> IndexedParallelIterator for Empty<T> {
    fn len(&self) -> usize {
        0
    }
}

impl<T: Send> Producer for Empty<T> {
    type Item = T;
    type IntoIter = iter::Empty<T>;
    fn len(&self) -> usize {
        0
    }
    fn split_at(self, _index: usize) -> (Self, Self) {
        (Empty(PhantomData), Empty(PhantomData))
    }
    fn into_iter(self) -> iter::Empty<T> {
        iter::empty()
    }
    fn exact(&self) -> bool {
        true
    }
}

#[cfg(test)]
mod tests {
    use std::sync::atomic::{AtomicUsize, Ordering::Relaxed};

    use super::*;
    use crate::prelude::*;

    /// Counts its clones and drops.
    struct Counted<'a> {
        clones: &'a AtomicUsize,
        drops: &'a AtomicUsize,
    }

    impl Clone for Counted<'_> {
        fn clone(&self) -> Self {
            self.clones.fetch_add(1, Relaxed);
            Counted {
                clones: self.clones,
                drops: self.drops,
            }
        }
    }

    impl Drop for Counted<'_> {
        fn drop(&mut self) {
            self.drops.fetch_add(1, Relaxed);
        }
    }

    #[test]
    fn n_items_cost_n_minus_one_clones_however_divided() {
        for n in [0usize, 1, 2, 7, 1000, 100_000] {
            let (clones, drops) = (AtomicUsize::new(0), AtomicUsize::new(0));
            let value = Counted {
                clones: &clones,
                drops: &drops,
            };
            let count = repeat_n(value, n).with_max_len(3).map(drop).count();
            assert_eq!(count, n);
            assert_eq!(clones.load(Relaxed), n.saturating_sub(1), "n = {n}");
            assert_eq!(drops.load(Relaxed), n.max(1), "every copy dropped, n = {n}");
        }
    }

    #[test]
    fn pieces_split_anywhere_keep_the_count() {
        let (left, right) = repeat_n(5u8, 10).split_at(4);
        assert_eq!((Producer::len(&left), Producer::len(&right)), (4, 6));
        assert_eq!(left.into_iter().chain(right.into_iter()).count(), 10);
        for index in [0, 10] {
            let (l, r) = repeat_n('x', 10).split_at(index);
            assert_eq!(l.into_iter().count() + r.into_iter().count(), 10);
        }
    }

    #[test]
    fn once_and_empty_as_sources_and_in_chains() {
        assert_eq!(once(3u8).collect::<Vec<_>>(), [3]);
        assert_eq!(IndexedParallelIterator::len(&once(3u8)), 1);
        assert_eq!(empty::<u8>().collect::<Vec<_>>(), Vec::<u8>::new());
        let v: Vec<u32> = once(0u32)
            .chain((1..1000u32).into_par_iter())
            .chain(empty())
            .collect();
        assert_eq!(v, (0..1000).collect::<Vec<_>>());
        let (l, r) = once('a').split_at(1);
        assert_eq!(
            (l.into_iter().next(), r.into_iter().next()),
            (Some('a'), None)
        );
    }

    #[test]
    fn repeat_takes_and_zips_as_rayon() {
        let v: Vec<String> = repeat(String::from("ab")).take(3).collect();
        assert_eq!(v, ["ab", "ab", "ab"]);
        let zipped: Vec<(u8, u32)> = repeat(1u8).zip(0..4u32).collect();
        assert_eq!(zipped, [(1, 0), (1, 1), (1, 2), (1, 3)]);
        let rev: Vec<(usize, u8)> = repeat_n(9u8, 3).enumerate().rev().collect();
        assert_eq!(rev, [(2, 9), (1, 9), (0, 9)]);
    }
}
