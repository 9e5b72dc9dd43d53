//! `rev`: the items of an indexed iterator in reverse order.
//!
//! Position `i` of the reversed producer is position `len - 1 - i` of the base, so a
//! split at `i` cuts the base at `len - i` and swaps the halves; a piece then runs its
//! base piece backwards. That last step needs the base's piece iterator to be a
//! [`DoubleEndedIterator`], which `rev` requires rather than working around: every
//! source here (slices, chunks, windows, ranges, owned `Vec`s) and `map`, `take`,
//! `skip`, `chain`, `map_with`/`map_init`, `rev` itself have one, and running a piece
//! with `next_back` costs nothing extra, while a producer able to start from either end
//! would have added a second iterator type to every producer. `enumerate`, `zip` and
//! `step_by` pieces are double-ended only over pieces that know their length
//! ([`ExactSizeIterator`]), as in `std`, which the 64-bit integer ranges are not.

use super::plumbing::Producer;
use super::{IndexedParallelIterator, ParallelIterator};

/// The parallel iterator of [`IndexedParallelIterator::rev`].
///
/// Each piece runs its part of the base backwards, so the base's pieces must be
/// [`DoubleEndedIterator`]s: those of every source (slices and their views, ranges,
/// owned `Vec`s) and of `map`, `take`, `skip`, `chain`, `map_with`, `map_init` and
/// `rev` are. After `enumerate`, `zip` or `step_by` they must also be
/// [`ExactSizeIterator`]s (as for `std`'s `rev`), which the pieces of `u64`/`i64`
/// ranges and of `chain` are not: reverse before those adaptors there.
#[derive(Debug)]
pub struct Rev<I> {
    base: I,
}

impl<I> Rev<I> {
    pub(super) fn new(base: I) -> Self {
        Rev { base }
    }
}

impl<I> ParallelIterator for Rev<I>
where
    I: IndexedParallelIterator,
    <I::Producer as Producer>::IntoIter: DoubleEndedIterator,
{
    type Item = I::Item;
    type Producer = RevProducer<I::Producer>;
    fn into_producer(self) -> Self::Producer {
        RevProducer {
            base: self.base.into_producer(),
        }
    }
}

impl<I> IndexedParallelIterator for Rev<I>
where
    I: IndexedParallelIterator,
    <I::Producer as Producer>::IntoIter: DoubleEndedIterator,
{
    fn len(&self) -> usize {
        self.base.len()
    }
}

/// The producer of [`Rev`].
pub struct RevProducer<P> {
    base: P,
}

impl<P> Producer for RevProducer<P>
where
    P: Producer,
    P::IntoIter: DoubleEndedIterator,
{
    type Item = P::Item;
    type IntoIter = std::iter::Rev<P::IntoIter>;
    fn len(&self) -> usize {
        self.base.len()
    }
    fn split_at(self, index: usize) -> (Self, Self) {
        let len = self.base.len();
        let (front, back) = self.base.split_at(len - index);
        (RevProducer { base: back }, RevProducer { base: front })
    }
    fn into_iter(self) -> Self::IntoIter {
        self.base.into_iter().rev()
    }
    fn min_len(&self) -> usize {
        self.base.min_len()
    }
    fn max_len(&self) -> usize {
        self.base.max_len()
    }
    fn exact(&self) -> bool {
        self.base.exact()
    }
}
