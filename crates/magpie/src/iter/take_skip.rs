//! `take` and `skip`: the first `n` items, or all but them.
//!
//! Both cut the source's producer once, at `n`, before the run starts, and keep one
//! side: the pieces are the base's own, so there is no per-item cost. The other side
//! is dropped unread (an owned `Vec` drops its elements there).

use super::plumbing::Producer;
use super::{IndexedParallelIterator, ParallelIterator};

/// The parallel iterator of [`IndexedParallelIterator::take`].
#[derive(Debug)]
pub struct Take<I> {
    base: I,
    n: usize,
}

impl<I: IndexedParallelIterator> Take<I> {
    pub(super) fn new(base: I, n: usize) -> Self {
        let n = n.min(base.len());
        Take { base, n }
    }
}

impl<I: IndexedParallelIterator> ParallelIterator for Take<I> {
    type Item = I::Item;
    type Producer = I::Producer;
    fn into_producer(self) -> Self::Producer {
        self.base.into_producer().split_at(self.n).0
    }
}

impl<I: IndexedParallelIterator> IndexedParallelIterator for Take<I> {
    fn len(&self) -> usize {
        self.n
    }
}

/// The parallel iterator of [`IndexedParallelIterator::skip`].
#[derive(Debug)]
pub struct Skip<I> {
    base: I,
    n: usize,
}

impl<I: IndexedParallelIterator> Skip<I> {
    pub(super) fn new(base: I, n: usize) -> Self {
        let n = n.min(base.len());
        Skip { base, n }
    }
}

impl<I: IndexedParallelIterator> ParallelIterator for Skip<I> {
    type Item = I::Item;
    type Producer = I::Producer;
    fn into_producer(self) -> Self::Producer {
        self.base.into_producer().split_at(self.n).1
    }
}

impl<I: IndexedParallelIterator> IndexedParallelIterator for Skip<I> {
    fn len(&self) -> usize {
        self.base.len() - self.n
    }
}
