//! `chunks` on indexed iterators: `size` consecutive items at a time, as a `Vec`.
//!
//! Chunk `i` holds positions `i × size ..` of the base, so a split at chunk `index`
//! cuts the base at `index × size` and every piece but the last holds whole chunks;
//! a piece fills its `Vec`s from the base piece's sequential iterator.

use super::plumbing::Producer;
use super::{IndexedParallelIterator, ParallelIterator};

/// The parallel iterator of [`IndexedParallelIterator::chunks`].
#[derive(Debug)]
pub struct VecChunks<I> {
    base: I,
    size: usize,
}

impl<I> VecChunks<I> {
    pub(super) fn new(base: I, size: usize) -> Self {
        assert!(size != 0, "chunk size must not be zero");
        VecChunks { base, size }
    }
}

impl<I: IndexedParallelIterator> ParallelIterator for VecChunks<I> {
    type Item = Vec<I::Item>;
    type Producer = ChunksProducer<I::Producer>;
    fn into_producer(self) -> Self::Producer {
        ChunksProducer {
            base: self.base.into_producer(),
            size: self.size,
        }
    }
}

impl<I: IndexedParallelIterator> IndexedParallelIterator for VecChunks<I> {
    fn len(&self) -> usize {
        self.base.len().div_ceil(self.size)
    }
}

/// The producer of [`VecChunks`]: the base, cut at multiples of `size`.
pub struct ChunksProducer<P> {
    base: P,
    size: usize,
}

impl<P: Producer> Producer for ChunksProducer<P> {
    type Item = Vec<P::Item>;
    type IntoIter = ChunksIter<P::IntoIter>;
    fn len(&self) -> usize {
        self.base.len().div_ceil(self.size)
    }
    fn split_at(self, index: usize) -> (Self, Self) {
        let at = index.saturating_mul(self.size).min(self.base.len());
        let (l, r) = self.base.split_at(at);
        let size = self.size;
        (
            ChunksProducer { base: l, size },
            ChunksProducer { base: r, size },
        )
    }
    fn into_iter(self) -> Self::IntoIter {
        ChunksIter {
            left: self.base.len(),
            items: self.base.into_iter(),
            size: self.size,
        }
    }
    fn min_len(&self) -> usize {
        self.base.min_len().div_ceil(self.size)
    }
    fn max_len(&self) -> usize {
        (self.base.max_len() / self.size).max(1)
    }
    fn exact(&self) -> bool {
        true
    }
}

/// A piece of [`VecChunks`]: `size` items of the base at a time.
pub struct ChunksIter<I> {
    items: I,
    left: usize,
    size: usize,
}

impl<I: Iterator> Iterator for ChunksIter<I> {
    type Item = Vec<I::Item>;
    fn next(&mut self) -> Option<Vec<I::Item>> {
        if self.left == 0 {
            return None;
        }
        let n = self.left.min(self.size);
        self.left -= n;
        Some(self.items.by_ref().take(n).collect())
    }
    fn size_hint(&self) -> (usize, Option<usize>) {
        let n = self.left.div_ceil(self.size);
        (n, Some(n))
    }
}

impl<I: Iterator> ExactSizeIterator for ChunksIter<I> {}
