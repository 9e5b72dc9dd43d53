//! `enumerate`: pairs items with their index.

use super::plumbing::Producer;
use super::{IndexedParallelIterator, ParallelIterator};

/// The parallel iterator of [`IndexedParallelIterator::enumerate`].
#[derive(Debug)]
pub struct Enumerate<I> {
    base: I,
}

impl<I> Enumerate<I> {
    pub(super) fn new(base: I) -> Self {
        Enumerate { base }
    }
}

impl<I: IndexedParallelIterator> ParallelIterator for Enumerate<I> {
    type Item = (usize, I::Item);
    type Producer = EnumerateProducer<I::Producer>;
    fn into_producer(self) -> Self::Producer {
        EnumerateProducer {
            base: self.base.into_producer(),
            offset: 0,
        }
    }
}

impl<I: IndexedParallelIterator> IndexedParallelIterator for Enumerate<I> {
    fn len(&self) -> usize {
        self.base.len()
    }
}

/// The producer of [`Enumerate`]: a piece knows the index of its first item.
pub struct EnumerateProducer<P> {
    base: P,
    offset: usize,
}

impl<P: Producer> Producer for EnumerateProducer<P> {
    type Item = (usize, P::Item);
    type IntoIter = std::iter::Zip<std::ops::Range<usize>, P::IntoIter>;
    fn len(&self) -> usize {
        self.base.len()
    }
    fn split_at(self, index: usize) -> (Self, Self) {
        let (l, r) = self.base.split_at(index);
        let offset = self.offset;
        (
            EnumerateProducer { base: l, offset },
            EnumerateProducer {
                base: r,
                offset: offset + index,
            },
        )
    }
    fn into_iter(self) -> Self::IntoIter {
        (self.offset..self.offset + self.base.len()).zip(self.base.into_iter())
    }
    fn min_len(&self) -> usize {
        self.base.min_len()
    }
    fn max_len(&self) -> usize {
        self.base.max_len()
    }
    fn exact(&self) -> bool {
        true
    }
}
