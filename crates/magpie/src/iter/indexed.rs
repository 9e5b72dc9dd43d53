//! The [`IndexedParallelIterator`] trait: the adaptors and consumers that need one
//! item per position.

use std::cmp::Ordering;

use super::blocks::{ExponentialBlocks, UniformBlocks};
use super::chunks::{FoldChunks, FoldChunksWith, VecChunks};
use super::enumerate::Enumerate;
use super::interleave::{Interleave, InterleaveShortest};
use super::intersperse::Intersperse;
use super::plumbing::Producer;
use super::rev::Rev;
use super::step_by::StepBy;
use super::take_skip::{Skip, Take};
use super::zip::Zip;
use super::{find, find_ordered, unzip, IntoParallelIterator, ParallelIterator};

/// A parallel iterator that yields exactly one item per position of its source, so it
/// knows its length and can be zipped, enumerated, reversed and cut.
pub trait IndexedParallelIterator: ParallelIterator {
    /// The number of items.
    fn len(&self) -> usize;

    /// Whether there are no items.
    fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Pairs every item with its index.
    fn enumerate(self) -> Enumerate<Self> {
        Enumerate::new(self)
    }

    /// Pairs items with those of `other`, up to the shorter length.
    fn zip<Z>(self, other: Z) -> Zip<Self, Z::Iter>
    where
        Z: IntoParallelIterator,
        Z::Iter: IndexedParallelIterator,
    {
        Zip::new(self, other.into_par_iter())
    }

    /// Like `zip`, for two iterators of the same length.
    ///
    /// # Panics
    /// If the lengths differ.
    fn zip_eq<Z>(self, other: Z) -> Zip<Self, Z::Iter>
    where
        Z: IntoParallelIterator,
        Z::Iter: IndexedParallelIterator,
    {
        let other = other.into_par_iter();
        let (a, b) = (self.len(), other.len());
        assert_eq!(a, b, "zip_eq: the iterators' lengths differ");
        Zip::new(self, other)
    }

    /// The items of `self` and `other` in turn (`a0, b0, a1, b1, ..`), then the rest
    /// of the longer one.
    ///
    /// # Panics
    /// If the two together have more than `usize::MAX` items (when the length is asked
    /// for or the items are split).
    fn interleave<I>(self, other: I) -> Interleave<Self, I::Iter>
    where
        I: IntoParallelIterator<Item = Self::Item>,
        I::Iter: IndexedParallelIterator,
    {
        Interleave::new(self, other.into_par_iter())
    }

    /// A clone of `separator` between every two items (`a, s, b, s, c`); indexed,
    /// with `2n - 1` items for `n ≥ 1`.
    ///
    /// # Panics
    /// If `2n - 1` overflows `usize` (when the length is asked for or the items are
    /// split).
    ///
    /// ```
    /// use magpie::prelude::*;
    ///
    /// let words: Vec<&str> = ["a", "b", "c"].into_par_iter().intersperse("-").collect();
    /// assert_eq!(words, ["a", "-", "b", "-", "c"]);
    /// ```
    fn intersperse(self, separator: Self::Item) -> Intersperse<Self>
    where
        Self::Item: Clone,
    {
        Intersperse::new(self, separator)
    }

    /// The items of `self` and `other` in turn, until one of them runs out.
    fn interleave_shortest<I>(self, other: I) -> InterleaveShortest<Self, I::Iter>
    where
        I: IntoParallelIterator<Item = Self::Item>,
        I::Iter: IndexedParallelIterator,
    {
        Interleave::shortest(self, other.into_par_iter())
    }

    /// Runs the iterator as blocks of `threads`, `2 × threads`, `4 × threads`, ...
    /// items, one block after another, each divided in parallel (rayon's
    /// `by_exponential_blocks`). A `find_first` that matches early then stops after the
    /// block holding the match instead of dividing the whole input; `map`, `filter`
    /// and the other adaptors that keep positions keep the blocks.
    ///
    /// ```
    /// use magpie::prelude::*;
    /// let first = (0..1_000_000u32)
    ///     .into_par_iter()
    ///     .by_exponential_blocks()
    ///     .find_first(|&x| x % 1000 == 999);
    /// assert_eq!(first, Some(999));
    /// ```
    fn by_exponential_blocks(self) -> ExponentialBlocks<Self> {
        ExponentialBlocks::new(self)
    }

    /// Runs the iterator as blocks of `size` items, one block after another, each
    /// divided in parallel (rayon's `by_uniform_blocks`).
    ///
    /// # Panics
    /// If `size` is 0.
    fn by_uniform_blocks(self, size: usize) -> UniformBlocks<Self> {
        UniformBlocks::new(self, size)
    }

    /// `size` consecutive items at a time, collected into a `Vec` (the last may be
    /// shorter).
    ///
    /// # Panics
    /// If `size` is 0.
    fn chunks(self, size: usize) -> VecChunks<Self> {
        VecChunks::into_vecs(self, size)
    }

    /// Folds every `size` consecutive items (the last chunk may be shorter) into one
    /// value, starting from `identity()`: `chunks(size)` with each chunk folded instead
    /// of collected, so no `Vec` is built.
    ///
    /// # Panics
    /// If `size` is 0.
    fn fold_chunks<T, ID, F>(self, size: usize, identity: ID, fold_op: F) -> FoldChunks<Self, ID, F>
    where
        ID: Fn() -> T + Sync + Send,
        F: Fn(T, Self::Item) -> T + Sync + Send,
        T: Send,
    {
        FoldChunks::fold_from(self, size, identity, fold_op)
    }

    /// `fold_chunks` starting every chunk from a clone of `init`.
    ///
    /// # Panics
    /// If `size` is 0.
    fn fold_chunks_with<T, F>(self, size: usize, init: T, fold_op: F) -> FoldChunksWith<Self, T, F>
    where
        T: Send + Clone,
        F: Fn(T, Self::Item) -> T + Sync + Send,
    {
        FoldChunksWith::fold_from_clone(self, size, init, fold_op)
    }

    /// Collects the items into `target` in order, replacing what it held and reusing
    /// its allocation.
    fn collect_into_vec(self, target: &mut Vec<Self::Item>) {
        target.clear();
        super::ParallelExtend::par_extend(target, self);
    }

    /// The first `n` items (all of them if there are fewer).
    fn take(self, n: usize) -> Take<Self> {
        Take::new(self, n)
    }

    /// All but the first `n` items.
    fn skip(self, n: usize) -> Skip<Self> {
        Skip::new(self, n)
    }

    /// The items in reverse order. Each piece runs its part backwards, so the pieces'
    /// sequential iterators must be double-ended (see [`Rev`]).
    fn rev(self) -> Rev<Self>
    where
        <Self::Producer as Producer>::IntoIter: DoubleEndedIterator,
    {
        Rev::new(self)
    }

    /// Every `step`-th item, starting with the first.
    ///
    /// # Panics
    /// If `step` is 0.
    fn step_by(self, step: usize) -> StepBy<Self> {
        StepBy::new(self, step)
    }

    /// The indices of the items for which `predicate` holds, in order.
    fn positions<P>(self, predicate: P) -> impl ParallelIterator<Item = usize>
    where
        P: Fn(Self::Item) -> bool + Sync + Send,
    {
        self.enumerate()
            .filter_map(move |(i, item)| predicate(item).then_some(i))
    }

    /// The index of some item for which `predicate` holds, not necessarily the first;
    /// the other workers stop looking soon after one is found.
    fn position_any<P>(self, predicate: P) -> Option<usize>
    where
        P: Fn(Self::Item) -> bool + Sync + Send,
    {
        find::position_any(self, predicate)
    }

    /// The index of the first item for which `predicate` holds; pieces after a match
    /// stop soon after it is found.
    fn position_first<P>(self, predicate: P) -> Option<usize>
    where
        P: Fn(Self::Item) -> bool + Sync + Send,
    {
        find_ordered::position_first(self, predicate)
    }

    /// The index of the last item for which `predicate` holds; pieces before a match
    /// stop soon after it is found.
    fn position_last<P>(self, predicate: P) -> Option<usize>
    where
        P: Fn(Self::Item) -> bool + Sync + Send,
    {
        find_ordered::position_last(self, predicate)
    }

    /// Unzips the pairs into `left` and `right` in order, replacing what they held and
    /// reusing their allocations.
    fn unzip_into_vecs<A, B>(self, left: &mut Vec<A>, right: &mut Vec<B>)
    where
        Self: IndexedParallelIterator<Item = (A, B)>,
        A: Send,
        B: Send,
    {
        left.clear();
        right.clear();
        unzip::unzip_into(self, left, right);
    }

    /// Compares the items with those of `other` lexicographically, as
    /// [`Iterator::cmp`]: the first unequal pair decides, else the shorter is less.
    /// Pieces after an unequal pair stop soon after it is found.
    fn cmp<I>(self, other: I) -> Ordering
    where
        I: IntoParallelIterator<Item = Self::Item>,
        I::Iter: IndexedParallelIterator,
        Self::Item: Ord,
    {
        let other = other.into_par_iter();
        let by_len = self.len().cmp(&other.len());
        self.zip(other)
            .map(|(a, b)| Ord::cmp(&a, &b))
            .find_first(|&o| o != Ordering::Equal)
            .unwrap_or(by_len)
    }

    /// [`cmp`](Self::cmp) for partially ordered items, as [`Iterator::partial_cmp`]:
    /// `None` if the first pair that is not equal is incomparable.
    fn partial_cmp<I>(self, other: I) -> Option<Ordering>
    where
        I: IntoParallelIterator,
        I::Iter: IndexedParallelIterator,
        Self::Item: PartialOrd<I::Item>,
    {
        let other = other.into_par_iter();
        let by_len = self.len().cmp(&other.len());
        self.zip(other)
            .map(|(a, b)| PartialOrd::partial_cmp(&a, &b))
            .find_first(|&o| o != Some(Ordering::Equal))
            .unwrap_or(Some(by_len))
    }

    /// Whether the items equal those of `other`, pair by pair, and both have the same
    /// length; stops soon after an unequal pair is found.
    fn eq<I>(self, other: I) -> bool
    where
        I: IntoParallelIterator,
        I::Iter: IndexedParallelIterator,
        Self::Item: PartialEq<I::Item>,
    {
        let other = other.into_par_iter();
        self.len() == other.len() && self.zip(other).all(|(a, b)| a == b)
    }

    /// `!self.eq(other)`.
    fn ne<I>(self, other: I) -> bool
    where
        I: IntoParallelIterator,
        I::Iter: IndexedParallelIterator,
        Self::Item: PartialEq<I::Item>,
    {
        !self.eq(other)
    }

    /// Whether the items are lexicographically less than those of `other`.
    fn lt<I>(self, other: I) -> bool
    where
        I: IntoParallelIterator,
        I::Iter: IndexedParallelIterator,
        Self::Item: PartialOrd<I::Item>,
    {
        self.partial_cmp(other) == Some(Ordering::Less)
    }

    /// Whether the items are lexicographically less than or equal to those of `other`.
    fn le<I>(self, other: I) -> bool
    where
        I: IntoParallelIterator,
        I::Iter: IndexedParallelIterator,
        Self::Item: PartialOrd<I::Item>,
    {
        matches!(
            self.partial_cmp(other),
            Some(Ordering::Less | Ordering::Equal)
        )
    }

    /// Whether the items are lexicographically greater than those of `other`.
    fn gt<I>(self, other: I) -> bool
    where
        I: IntoParallelIterator,
        I::Iter: IndexedParallelIterator,
        Self::Item: PartialOrd<I::Item>,
    {
        self.partial_cmp(other) == Some(Ordering::Greater)
    }

    /// Whether the items are lexicographically greater than or equal to those of
    /// `other`.
    fn ge<I>(self, other: I) -> bool
    where
        I: IntoParallelIterator,
        I::Iter: IndexedParallelIterator,
        Self::Item: PartialOrd<I::Item>,
    {
        matches!(
            self.partial_cmp(other),
            Some(Ordering::Greater | Ordering::Equal)
        )
    }
}
