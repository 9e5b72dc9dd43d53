//! `with_min_len` and `with_max_len`: bounds on the size of a piece.
//!
//! Both wrap the source's producer in one [`LenBounds`] producer. A lower bound stops
//! the splitter from cutting pieces below it; an upper bound makes it cut every piece
//! above it, whatever the adaptive splitter's budget (see [`plumbing`](super::plumbing)).
//! Where the two conflict, the lower bound wins, as in rayon.

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
    type Producer = LenBounds<I::Producer>;
    fn into_producer(self) -> Self::Producer {
        LenBounds {
            base: self.base.into_producer(),
            min: self.min,
            max: usize::MAX,
        }
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
    type Producer = LenBounds<I::Producer>;
    fn into_producer(self) -> Self::Producer {
        LenBounds {
            base: self.base.into_producer(),
            min: 1,
            max: self.max,
        }
    }
}

impl<I: IndexedParallelIterator> IndexedParallelIterator for MaxLen<I> {
    fn len(&self) -> usize {
        self.base.len()
    }
}

/// The producer of [`MinLen`] and [`MaxLen`]: the base's, with its bounds narrowed.
pub struct LenBounds<P> {
    base: P,
    min: usize,
    max: usize,
}

impl<P: Producer> Producer for LenBounds<P> {
    type Item = P::Item;
    type IntoIter = P::IntoIter;
    fn len(&self) -> usize {
        self.base.len()
    }
    fn split_at(self, index: usize) -> (Self, Self) {
        let (l, r) = self.base.split_at(index);
        let (min, max) = (self.min, self.max);
        (
            LenBounds { base: l, min, max },
            LenBounds { base: r, min, max },
        )
    }
    fn into_iter(self) -> Self::IntoIter {
        self.base.into_iter()
    }
    fn min_len(&self) -> usize {
        self.min.max(self.base.min_len())
    }
    fn max_len(&self) -> usize {
        self.max.min(self.base.max_len())
    }
    fn blocks(&self) -> super::plumbing::Blocks {
        self.base.blocks()
    }
    fn exact(&self) -> bool {
        self.base.exact()
    }
}
