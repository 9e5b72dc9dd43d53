//! `par_chunks_exact` and `par_chunks_exact_mut`: chunks of exactly `size` elements.
//!
//! The `len % size` elements at the end are cut off when the iterator is made and kept
//! aside as the remainder, so every piece sees whole chunks only and runs the standard
//! `chunks_exact`, whose fixed chunk length the compiler can use.

use super::plumbing::Producer;
use super::{IndexedParallelIterator, ParallelIterator};

/// Parallel iterator over `size`-element chunks of a slice, without the shorter tail
/// ([`ParallelSlice::par_chunks_exact`](super::ParallelSlice::par_chunks_exact)).
#[derive(Debug)]
pub struct ChunksExact<'data, T> {
    chunks: ExactProducer<'data, T>,
    rem: &'data [T],
}

impl<'data, T: Sync> ChunksExact<'data, T> {
    pub(super) fn new(slice: &'data [T], size: usize) -> Self {
        assert!(size != 0, "chunk size must not be zero");
        let (whole, rem) = slice.split_at(slice.len() - slice.len() % size);
        ChunksExact {
            chunks: ExactProducer { slice: whole, size },
            rem,
        }
    }

    /// The last `len % size` elements, which no chunk covers.
    pub fn remainder(&self) -> &'data [T] {
        self.rem
    }
}

/// Parallel iterator over mutable `size`-element chunks of a slice, without the
/// shorter tail
/// ([`ParallelSliceMut::par_chunks_exact_mut`](super::ParallelSliceMut::par_chunks_exact_mut)).
#[derive(Debug)]
pub struct ChunksExactMut<'data, T> {
    chunks: ExactMutProducer<'data, T>,
    rem: &'data mut [T],
}

impl<'data, T: Send> ChunksExactMut<'data, T> {
    pub(super) fn new(slice: &'data mut [T], size: usize) -> Self {
        assert!(size != 0, "chunk size must not be zero");
        let whole_len = slice.len() - slice.len() % size;
        let (whole, rem) = slice.split_at_mut(whole_len);
        ChunksExactMut {
            chunks: ExactMutProducer { slice: whole, size },
            rem,
        }
    }

    /// The last `len % size` elements, which no chunk covers.
    pub fn remainder(&mut self) -> &mut [T] {
        self.rem
    }

    /// Takes the remainder out, leaving an empty one (the iterator keeps its chunks).
    pub fn take_remainder(&mut self) -> &'data mut [T] {
        std::mem::take(&mut self.rem)
    }

    /// The remainder, giving up the iterator.
    pub fn into_remainder(self) -> &'data mut [T] {
        self.rem
    }
}

impl<'data, T: Sync + 'data> ParallelIterator for ChunksExact<'data, T> {
    type Item = &'data [T];
    type Producer = ExactProducer<'data, T>;
    fn into_producer(self) -> Self::Producer {
        self.chunks
    }
}

impl<'data, T: Sync + 'data> IndexedParallelIterator for ChunksExact<'data, T> {
    fn len(&self) -> usize {
        self.chunks.len()
    }
}

impl<'data, T: Send + 'data> ParallelIterator for ChunksExactMut<'data, T> {
    type Item = &'data mut [T];
    type Producer = ExactMutProducer<'data, T>;
    fn into_producer(self) -> Self::Producer {
        self.chunks
    }
}

impl<'data, T: Send + 'data> IndexedParallelIterator for ChunksExactMut<'data, T> {
    fn len(&self) -> usize {
        self.chunks.len()
    }
}

/// The producer of [`ChunksExact`]: a slice of whole chunks.
#[derive(Debug)]
pub struct ExactProducer<'data, T> {
    slice: &'data [T],
    size: usize,
}

impl<'data, T: Sync + 'data> Producer for ExactProducer<'data, T> {
    type Item = &'data [T];
    type IntoIter = std::slice::ChunksExact<'data, T>;
    fn len(&self) -> usize {
        self.slice.len() / self.size
    }
    fn split_at(self, index: usize) -> (Self, Self) {
        let (l, r) = self.slice.split_at(index * self.size);
        let size = self.size;
        (
            ExactProducer { slice: l, size },
            ExactProducer { slice: r, size },
        )
    }
    fn into_iter(self) -> Self::IntoIter {
        self.slice.chunks_exact(self.size)
    }
    fn exact(&self) -> bool {
        true
    }
}

/// The producer of [`ChunksExactMut`]: a slice of whole chunks.
#[derive(Debug)]
pub struct ExactMutProducer<'data, T> {
    slice: &'data mut [T],
    size: usize,
}

impl<'data, T: Send + 'data> Producer for ExactMutProducer<'data, T> {
    type Item = &'data mut [T];
    type IntoIter = std::slice::ChunksExactMut<'data, T>;
    fn len(&self) -> usize {
        self.slice.len() / self.size
    }
    fn split_at(self, index: usize) -> (Self, Self) {
        let (l, r) = self.slice.split_at_mut(index * self.size);
        let size = self.size;
        (
            ExactMutProducer { slice: l, size },
            ExactMutProducer { slice: r, size },
        )
    }
    fn into_iter(self) -> Self::IntoIter {
        self.slice.chunks_exact_mut(self.size)
    }
    fn exact(&self) -> bool {
        true
    }
}
