//! `with_min_len`: a lower bound on the size of a piece.

use super::plumbing::Producer;
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
    type Producer = MinLenProducer<I::Producer>;
    fn into_producer(self) -> Self::Producer {
        MinLenProducer {
            base: self.base.into_producer(),
            min: self.min,
        }
    }
}

impl<I: IndexedParallelIterator> IndexedParallelIterator for MinLen<I> {
    fn len(&self) -> usize {
        self.base.len()
    }
}

/// The producer of [`MinLen`].
pub struct MinLenProducer<P> {
    base: P,
    min: usize,
}

impl<P: Producer> Producer for MinLenProducer<P> {
    type Item = P::Item;
    type IntoIter = P::IntoIter;
    fn len(&self) -> usize {
        self.base.len()
    }
    fn split_at(self, index: usize) -> (Self, Self) {
        let (l, r) = self.base.split_at(index);
        let min = self.min;
        (
            MinLenProducer { base: l, min },
            MinLenProducer { base: r, min },
        )
    }
    fn into_iter(self) -> Self::IntoIter {
        self.base.into_iter()
    }
    fn min_len(&self) -> usize {
        self.min.max(self.base.min_len())
    }
    fn exact(&self) -> bool {
        self.base.exact()
    }
}
