//! `par_rchunks` and `par_rchunks_mut`: chunks counted from the end of the slice;
//! `par_rchunks_exact` and `par_rchunks_exact_mut` without the shorter front.
//!
//! Item `i` is the `i`-th chunk from the end, so the first `index` items of a piece
//! are the *last* `index × size` elements of its slice: a split cuts the slice there
//! and swaps the halves. Each piece runs the standard `rchunks`. The exact forms keep
//! the first `len % size` elements aside as the remainder and chunk the rest, where
//! `rchunks` yields whole chunks only.

use super::plumbing::Producer;
use super::{IndexedParallelIterator, ParallelIterator};

/// Parallel iterator over `size`-element chunks from the end of a slice; the last item
/// (the front of the slice) may be shorter
/// ([`ParallelSlice::par_rchunks`](super::ParallelSlice::par_rchunks)).
#[derive(Debug)]
pub struct RChunks<'data, T> {
    slice: &'data [T],
    size: usize,
}

/// Parallel iterator over mutable `size`-element chunks from the end of a slice
/// ([`ParallelSliceMut::par_rchunks_mut`](super::ParallelSliceMut::par_rchunks_mut)).
#[derive(Debug)]
pub struct RChunksMut<'data, T> {
    slice: &'data mut [T],
    size: usize,
}

impl<'data, T: Sync> RChunks<'data, T> {
    pub(super) fn new(slice: &'data [T], size: usize) -> Self {
        assert!(size != 0, "chunk size must not be zero");
        RChunks { slice, size }
    }
}

impl<'data, T: Send> RChunksMut<'data, T> {
    pub(super) fn new(slice: &'data mut [T], size: usize) -> Self {
        assert!(size != 0, "chunk size must not be zero");
        RChunksMut { slice, size }
    }
}

impl<'data, T: Sync + 'data> ParallelIterator for RChunks<'data, T> {
    type Item = &'data [T];
    type Producer = Self;
    fn into_producer(self) -> Self {
        self
    }
}

impl<'data, T: Sync + 'data> IndexedParallelIterator for RChunks<'data, T> {
    fn len(&self) -> usize {
        Producer::len(self)
    }
}

impl<'data, T: Send + 'data> ParallelIterator for RChunksMut<'data, T> {
    type Item = &'data mut [T];
    type Producer = Self;
    fn into_producer(self) -> Self {
        self
    }
}

impl<'data, T: Send + 'data> IndexedParallelIterator for RChunksMut<'data, T> {
    fn len(&self) -> usize {
        Producer::len(self)
    }
}

/// Parallel iterator over `size`-element chunks from the end of a slice, without the
/// shorter front ([`ParallelSlice::par_rchunks_exact`](super::ParallelSlice::par_rchunks_exact)).
#[derive(Debug)]
pub struct RChunksExact<'data, T> {
    chunks: RChunks<'data, T>,
    rem: &'data [T],
}

/// Parallel iterator over mutable `size`-element chunks from the end of a slice,
/// without the shorter front
/// ([`ParallelSliceMut::par_rchunks_exact_mut`](super::ParallelSliceMut::par_rchunks_exact_mut)).
#[derive(Debug)]
pub struct RChunksExactMut<'data, T> {
    chunks: RChunksMut<'data, T>,
    rem: &'data mut [T],
}

impl<'data, T: Sync> RChunksExact<'data, T> {
    pub(super) fn new(slice: &'data [T], size: usize) -> Self {
        assert!(size != 0, "chunk size must not be zero");
        let (rem, whole) = slice.split_at(slice.len() % size);
        RChunksExact {
            chunks: RChunks::new(whole, size),
            rem,
        }
    }

    /// The first `len % size` elements, which no chunk covers.
    pub fn remainder(&self) -> &'data [T] {
        self.rem
    }
}

impl<'data, T: Send> RChunksExactMut<'data, T> {
    pub(super) fn new(slice: &'data mut [T], size: usize) -> Self {
        assert!(size != 0, "chunk size must not be zero");
        let (rem, whole) = slice.split_at_mut(slice.len() % size);
        RChunksExactMut {
            chunks: RChunksMut::new(whole, size),
            rem,
        }
    }

    /// The first `len % size` elements, which no chunk covers.
    pub fn remainder(&mut self) -> &mut [T] {
        self.rem
    }

    /// The remainder, giving up the iterator.
    pub fn into_remainder(self) -> &'data mut [T] {
        self.rem
    }
}

impl<'data, T: Sync + 'data> ParallelIterator for RChunksExact<'data, T> {
    type Item = &'data [T];
    type Producer = RChunks<'data, T>;
    fn into_producer(self) -> Self::Producer {
        self.chunks
    }
}

impl<'data, T: Sync + 'data> IndexedParallelIterator for RChunksExact<'data, T> {
    fn len(&self) -> usize {
        Producer::len(&self.chunks)
    }
}

impl<'data, T: Send + 'data> ParallelIterator for RChunksExactMut<'data, T> {
    type Item = &'data mut [T];
    type Producer = RChunksMut<'data, T>;
    fn into_producer(self) -> Self::Producer {
        self.chunks
    }
}

impl<'data, T: Send + 'data> IndexedParallelIterator for RChunksExactMut<'data, T> {
    fn len(&self) -> usize {
        Producer::len(&self.chunks)
    }
}

/// Where the slice is cut so that the part after the cut holds the first `index`
/// chunks from the end.
fn cut(len: usize, size: usize, index: usize) -> usize {
    len.saturating_sub(index.saturating_mul(size))
}

impl<'data, T: Sync + 'data> Producer for RChunks<'data, T> {
    type Item = &'data [T];
    type IntoIter = std::slice::RChunks<'data, T>;
    fn len(&self) -> usize {
        self.slice.len().div_ceil(self.size)
    }
    fn split_at(self, index: usize) -> (Self, Self) {
        let (front, back) = self.slice.split_at(cut(self.slice.len(), self.size, index));
        let size = self.size;
        (
            RChunks { slice: back, size },
            RChunks { slice: front, size },
        )
    }
    fn into_iter(self) -> Self::IntoIter {
        self.slice.rchunks(self.size)
    }
    fn exact(&self) -> bool {
        true
    }
}

impl<'data, T: Send + 'data> Producer for RChunksMut<'data, T> {
    type Item = &'data mut [T];
    type IntoIter = std::slice::RChunksMut<'data, T>;
    fn len(&self) -> usize {
        self.slice.len().div_ceil(self.size)
    }
    fn split_at(self, index: usize) -> (Self, Self) {
        let at = cut(self.slice.len(), self.size, index);
        let (front, back) = self.slice.split_at_mut(at);
        let size = self.size;
        (
            RChunksMut { slice: back, size },
            RChunksMut { slice: front, size },
        )
    }
    fn into_iter(self) -> Self::IntoIter {
        self.slice.rchunks_mut(self.size)
    }
    fn exact(&self) -> bool {
        true
    }
}
