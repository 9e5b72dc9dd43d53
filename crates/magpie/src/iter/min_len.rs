//! `with_min_len` and `with_max_len`: bounds on the size of a piece.
//!
//! Both wrap the source's producer in a [`Driven`] producer. A lower bound stops the
//! splitter from cutting pieces below it; an upper bound makes it cut every piece
//! above it, whatever the adaptive splitter's budget (see [`plumbing`](super::plumbing)).
//! Where the two conflict, the lower bound wins, as in rayon.

use super::driven::Driven;
use super::{IndexedParallelIterator, ParallelIterator};

/// The parallel iterator of [`ParallelIterator::with_min_len`].
#[derive(Debug)]
pub struct MinLen<I> {
    base: I,
    min: usize,
}

impl<I> MinLen<I> {
    pub(super) fn new(base: I, min: usize) -> Self {
        MinLen { base, min }
    }
}

impl<I: ParallelIterator> ParallelIterator for MinLen<I> {
    type Item = I::Item;
    type Producer = Driven<I::Producer>;
    fn into_producer(self) -> Self::Producer {
        Driven::new(self.base.into_producer()).with_min(self.min)
    }
}

impl<I: IndexedParallelIterator> IndexedParallelIterator for MinLen<I> {
    fn len(&self) -> usize {
        self.base.len()
    }
}

/// The parallel iterator of [`ParallelIterator::with_max_len`].
#[derive(Debug)]
pub struct MaxLen<I> {
    base: I,
    max: usize,
}

impl<I> MaxLen<I> {
    pub(super) fn new(base: I, max: usize) -> Self {
        MaxLen { base, max }
    }
}

impl<I: ParallelIterator> ParallelIterator for MaxLen<I> {
    type Item = I::Item;
    type Producer = Driven<I::Producer>;
    fn into_producer(self) -> Self::Producer {
        Driven::new(self.base.into_producer()).with_max(self.max)
    }
}

impl<I: IndexedParallelIterator> IndexedParallelIterator for MaxLen<I> {
    fn len(&self) -> usize {
        self.base.len()
    }
}
