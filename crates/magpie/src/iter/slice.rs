//! Slices as parallel sources: `par_iter`, `par_iter_mut`, `par_chunks`,
//! `par_chunks_mut`, the traits [`ParallelSlice`] and [`ParallelSliceMut`] with the
//! other views (windows, exact and reversed chunks, in their own files) and the sorts.

use std::cmp::Ordering;

use super::chunks_exact::{ChunksExact, ChunksExactMut};
use super::plumbing::Producer;
use super::rchunks::{RChunks, RChunksExact, RChunksExactMut, RChunksMut};
use super::slice_split::{
    ChunkBy, ChunkByMut, SliceSplit, SplitSlice, SplitSliceInclusive, SplitSliceInclusiveMut,
    SplitSliceMut,
};
use super::sort::{self, By, Natural};
use super::windows::Windows;
use super::{IndexedParallelIterator, IntoParallelIterator, ParallelIterator};

/// Parallel iterator over `&T` of a slice.
#[derive(Debug)]
pub struct Iter<'data, T> {
    slice: &'data [T],
}

/// Parallel iterator over `&mut T` of a slice.
#[derive(Debug)]
pub struct IterMut<'data, T> {
    slice: &'data mut [T],
}

/// Parallel iterator over `size`-element chunks of a slice (the last may be shorter).
#[derive(Debug)]
pub struct Chunks<'data, T> {
    slice: &'data [T],
    size: usize,
}

/// Parallel iterator over mutable `size`-element chunks of a slice.
#[derive(Debug)]
pub struct ChunksMut<'data, T> {
    slice: &'data mut [T],
    size: usize,
}

/// `par_chunks` and the other views of shared slices (and, through deref, `Vec`s and
/// arrays).
pub trait ParallelSlice<T: Sync> {
    /// Parallel iterator over `size`-element chunks; the last may be shorter.
    ///
    /// # Panics
    /// If `size` is 0.
    fn par_chunks(&self, size: usize) -> Chunks<'_, T>;

    /// Parallel iterator over `size`-element chunks, leaving out the last
    /// `len % size` elements (see [`ChunksExact::remainder`]).
    ///
    /// # Panics
    /// If `size` is 0.
    fn par_chunks_exact(&self, size: usize) -> ChunksExact<'_, T>;

    /// Parallel iterator over `size`-element chunks starting from the end: the first
    /// item is the last `size` elements; the last item may be shorter.
    ///
    /// # Panics
    /// If `size` is 0.
    fn par_rchunks(&self, size: usize) -> RChunks<'_, T>;

    /// Parallel iterator over `size`-element chunks starting from the end, leaving out
    /// the first `len % size` elements (see [`RChunksExact::remainder`]).
    ///
    /// # Panics
    /// If `size` is 0.
    fn par_rchunks_exact(&self, size: usize) -> RChunksExact<'_, T>;

    /// Parallel iterator over every run of `size` consecutive elements (overlapping),
    /// as `slice::windows`.
    ///
    /// # Panics
    /// If `size` is 0.
    fn par_windows(&self, size: usize) -> Windows<'_, T>;

    /// Parallel iterator over the subslices between elements for which `separator`
    /// holds, as `slice::split`.
    fn par_split<P>(&self, separator: P) -> SplitSlice<'_, T, P>
    where
        P: Fn(&T) -> bool + Sync + Send;

    /// Parallel iterator over the subslices each ending with an element for which
    /// `separator` holds (the last may end without one), as `slice::split_inclusive`.
    fn par_split_inclusive<P>(&self, separator: P) -> SplitSliceInclusive<'_, T, P>
    where
        P: Fn(&T) -> bool + Sync + Send;

    /// Parallel iterator over the runs of elements in which `pred` holds for every two
    /// neighbours, as `slice::chunk_by`.
    fn par_chunk_by<P>(&self, pred: P) -> ChunkBy<'_, T, P>
    where
        P: Fn(&T, &T) -> bool + Sync + Send;
}

impl<T: Sync> ParallelSlice<T> for [T] {
    fn par_chunks(&self, size: usize) -> Chunks<'_, T> {
        assert!(size != 0, "chunk size must not be zero");
        Chunks { slice: self, size }
    }
    fn par_chunks_exact(&self, size: usize) -> ChunksExact<'_, T> {
        ChunksExact::new(self, size)
    }
    fn par_rchunks(&self, size: usize) -> RChunks<'_, T> {
        RChunks::new(self, size)
    }
    fn par_rchunks_exact(&self, size: usize) -> RChunksExact<'_, T> {
        RChunksExact::new(self, size)
    }
    fn par_windows(&self, size: usize) -> Windows<'_, T> {
        Windows::new(self, size)
    }
    fn par_split<P>(&self, separator: P) -> SplitSlice<'_, T, P>
    where
        P: Fn(&T) -> bool + Sync + Send,
    {
        SliceSplit::on_separator(self, separator)
    }
    fn par_split_inclusive<P>(&self, separator: P) -> SplitSliceInclusive<'_, T, P>
    where
        P: Fn(&T) -> bool + Sync + Send,
    {
        SliceSplit::after_separator(self, separator)
    }
    fn par_chunk_by<P>(&self, pred: P) -> ChunkBy<'_, T, P>
    where
        P: Fn(&T, &T) -> bool + Sync + Send,
    {
        SliceSplit::unpaired(self, pred)
    }
}

/// `par_chunks_mut` and the parallel sorts on mutable slices.
pub trait ParallelSliceMut<T: Send> {
    /// Parallel iterator over mutable `size`-element chunks; the last may be shorter.
    ///
    /// # Panics
    /// If `size` is 0.
    fn par_chunks_mut(&mut self, size: usize) -> ChunksMut<'_, T>;

    /// Parallel iterator over mutable `size`-element chunks, leaving out the last
    /// `len % size` elements (see [`ChunksExactMut::into_remainder`]).
    ///
    /// # Panics
    /// If `size` is 0.
    fn par_chunks_exact_mut(&mut self, size: usize) -> ChunksExactMut<'_, T>;

    /// Parallel iterator over mutable `size`-element chunks starting from the end.
    ///
    /// # Panics
    /// If `size` is 0.
    fn par_rchunks_mut(&mut self, size: usize) -> RChunksMut<'_, T>;

    /// Parallel iterator over mutable `size`-element chunks starting from the end,
    /// leaving out the first `len % size` elements (see
    /// [`RChunksExactMut::into_remainder`]).
    ///
    /// # Panics
    /// If `size` is 0.
    fn par_rchunks_exact_mut(&mut self, size: usize) -> RChunksExactMut<'_, T>;

    /// Parallel iterator over the mutable subslices between elements for which
    /// `separator` holds, as `slice::split_mut`.
    fn par_split_mut<P>(&mut self, separator: P) -> SplitSliceMut<'_, T, P>
    where
        P: Fn(&T) -> bool + Sync + Send;

    /// Mutable [`par_split_inclusive`](ParallelSlice::par_split_inclusive), as
    /// `slice::split_inclusive_mut`.
    fn par_split_inclusive_mut<P>(&mut self, separator: P) -> SplitSliceInclusiveMut<'_, T, P>
    where
        P: Fn(&T) -> bool + Sync + Send;

    /// Mutable [`par_chunk_by`](ParallelSlice::par_chunk_by), as
    /// `slice::chunk_by_mut`.
    fn par_chunk_by_mut<P>(&mut self, pred: P) -> ChunkByMut<'_, T, P>
    where
        P: Fn(&T, &T) -> bool + Sync + Send;

    /// Sorts in parallel, keeping equal elements in order (a merge sort: the halves
    /// sort in parallel, then merge; needs a buffer of the slice's size).
    fn par_sort(&mut self)
    where
        T: Ord;

    /// [`par_sort`](Self::par_sort) with a comparator.
    fn par_sort_by<F>(&mut self, compare: F)
    where
        F: Fn(&T, &T) -> Ordering + Sync;

    /// [`par_sort`](Self::par_sort) by a key (computed at every comparison).
    fn par_sort_by_key<K, F>(&mut self, key: F)
    where
        K: Ord,
        F: Fn(&T) -> K + Sync;

    /// [`par_sort`](Self::par_sort) by a key computed once per element (in
    /// parallel), for keys that are costly to compute; needs a buffer of one key and
    /// one index per element.
    fn par_sort_by_cached_key<K, F>(&mut self, f: F)
    where
        K: Ord + Send,
        F: Fn(&T) -> K + Sync;

    /// Sorts in parallel without keeping equal elements in order (quicksort whose two
    /// sides run in parallel; no allocation; `O(n log n)` in the worst case).
    fn par_sort_unstable(&mut self)
    where
        T: Ord;

    /// [`par_sort_unstable`](Self::par_sort_unstable) with a comparator.
    fn par_sort_unstable_by<F>(&mut self, compare: F)
    where
        F: Fn(&T, &T) -> Ordering + Sync;

    /// [`par_sort_unstable`](Self::par_sort_unstable) by a key (computed at every
    /// comparison).
    fn par_sort_unstable_by_key<K, F>(&mut self, key: F)
    where
        K: Ord,
        F: Fn(&T) -> K + Sync;
}

impl<T: Send> ParallelSliceMut<T> for [T] {
    fn par_chunks_mut(&mut self, size: usize) -> ChunksMut<'_, T> {
        assert!(size != 0, "chunk size must not be zero");
        ChunksMut { slice: self, size }
    }
    fn par_chunks_exact_mut(&mut self, size: usize) -> ChunksExactMut<'_, T> {
        ChunksExactMut::new(self, size)
    }
    fn par_rchunks_mut(&mut self, size: usize) -> RChunksMut<'_, T> {
        RChunksMut::new(self, size)
    }
    fn par_rchunks_exact_mut(&mut self, size: usize) -> RChunksExactMut<'_, T> {
        RChunksExactMut::new(self, size)
    }
    fn par_split_mut<P>(&mut self, separator: P) -> SplitSliceMut<'_, T, P>
    where
        P: Fn(&T) -> bool + Sync + Send,
    {
        SliceSplit::on_separator(self, separator)
    }
    fn par_split_inclusive_mut<P>(&mut self, separator: P) -> SplitSliceInclusiveMut<'_, T, P>
    where
        P: Fn(&T) -> bool + Sync + Send,
    {
        SliceSplit::after_separator(self, separator)
    }
    fn par_chunk_by_mut<P>(&mut self, pred: P) -> ChunkByMut<'_, T, P>
    where
        P: Fn(&T, &T) -> bool + Sync + Send,
    {
        SliceSplit::unpaired(self, pred)
    }
    fn par_sort(&mut self)
    where
        T: Ord,
    {
        sort::merge_sort(self, &Natural);
    }
    fn par_sort_by<F>(&mut self, compare: F)
    where
        F: Fn(&T, &T) -> Ordering + Sync,
    {
        sort::merge_sort(self, &By(compare));
    }
    fn par_sort_by_key<K, F>(&mut self, key: F)
    where
        K: Ord,
        F: Fn(&T) -> K + Sync,
    {
        sort::merge_sort(self, &By(|a: &T, b: &T| key(a).cmp(&key(b))));
    }
    fn par_sort_by_cached_key<K, F>(&mut self, f: F)
    where
        K: Ord + Send,
        F: Fn(&T) -> K + Sync,
    {
        sort::cached_key_sort(self, f);
    }
    fn par_sort_unstable(&mut self)
    where
        T: Ord,
    {
        sort::quicksort(self, &Natural);
    }
    fn par_sort_unstable_by<F>(&mut self, compare: F)
    where
        F: Fn(&T, &T) -> Ordering + Sync,
    {
        sort::quicksort(self, &By(compare));
    }
    fn par_sort_unstable_by_key<K, F>(&mut self, key: F)
    where
        K: Ord,
        F: Fn(&T) -> K + Sync,
    {
        sort::quicksort(self, &By(|a: &T, b: &T| key(a).cmp(&key(b))));
    }
}

macro_rules! indexed_source {
    ($name:ident, $item:ty, $len:expr, [$($bound:tt)*]) => {
        impl<'data, T: $($bound)*> ParallelIterator for $name<'data, T> {
            type Item = $item;
            type Producer = Self;
            fn into_producer(self) -> Self {
                self
            }
        }
        impl<'data, T: $($bound)*> IndexedParallelIterator for $name<'data, T> {
            fn len(&self) -> usize {
                #[allow(clippy::redundant_closure_call)]
                ($len)(self)
            }
        }
    };
}

indexed_source!(Iter, &'data T, |s: &Self| s.slice.len(), [Sync + 'data]);
indexed_source!(
    IterMut,
    &'data mut T,
    |s: &Self| s.slice.len(),
    [Send + 'data]
);
indexed_source!(
    Chunks,
    &'data [T],
    |s: &Self| s.slice.len().div_ceil(s.size),
    [Sync + 'data]
);
indexed_source!(
    ChunksMut,
    &'data mut [T],
    |s: &Self| s.slice.len().div_ceil(s.size),
    [Send + 'data]
);

impl<'data, T: Sync + 'data> Producer for Iter<'data, T> {
    type Item = &'data T;
    type IntoIter = std::slice::Iter<'data, T>;
    fn len(&self) -> usize {
        self.slice.len()
    }
    fn split_at(self, index: usize) -> (Self, Self) {
        let (l, r) = self.slice.split_at(index);
        (Iter { slice: l }, Iter { slice: r })
    }
    fn into_iter(self) -> Self::IntoIter {
        self.slice.iter()
    }
    fn exact(&self) -> bool {
        true
    }
}

impl<'data, T: Send + 'data> Producer for IterMut<'data, T> {
    type Item = &'data mut T;
    type IntoIter = std::slice::IterMut<'data, T>;
    fn len(&self) -> usize {
        self.slice.len()
    }
    fn split_at(self, index: usize) -> (Self, Self) {
        let (l, r) = self.slice.split_at_mut(index);
        (IterMut { slice: l }, IterMut { slice: r })
    }
    fn into_iter(self) -> Self::IntoIter {
        self.slice.iter_mut()
    }
    fn exact(&self) -> bool {
        true
    }
}

impl<'data, T: Sync + 'data> Producer for Chunks<'data, T> {
    type Item = &'data [T];
    type IntoIter = std::slice::Chunks<'data, T>;
    fn len(&self) -> usize {
        self.slice.len().div_ceil(self.size)
    }
    fn split_at(self, index: usize) -> (Self, Self) {
        // Saturating: the last chunk may be short, so `len × size` can pass
        // `usize::MAX` (a long slice of zero-sized elements).
        let at = index.saturating_mul(self.size).min(self.slice.len());
        let (l, r) = self.slice.split_at(at);
        let size = self.size;
        (Chunks { slice: l, size }, Chunks { slice: r, size })
    }
    fn into_iter(self) -> Self::IntoIter {
        self.slice.chunks(self.size)
    }
    fn exact(&self) -> bool {
        true
    }
}

impl<'data, T: Send + 'data> Producer for ChunksMut<'data, T> {
    type Item = &'data mut [T];
    type IntoIter = std::slice::ChunksMut<'data, T>;
    fn len(&self) -> usize {
        self.slice.len().div_ceil(self.size)
    }
    fn split_at(self, index: usize) -> (Self, Self) {
        // Saturating: the last chunk may be short, so `len × size` can pass
        // `usize::MAX` (a long slice of zero-sized elements).
        let at = index.saturating_mul(self.size).min(self.slice.len());
        let (l, r) = self.slice.split_at_mut(at);
        let size = self.size;
        (ChunksMut { slice: l, size }, ChunksMut { slice: r, size })
    }
    fn into_iter(self) -> Self::IntoIter {
        self.slice.chunks_mut(self.size)
    }
    fn exact(&self) -> bool {
        true
    }
}

impl<'data, T: Sync + 'data> IntoParallelIterator for &'data [T] {
    type Iter = Iter<'data, T>;
    type Item = &'data T;
    fn into_par_iter(self) -> Self::Iter {
        Iter { slice: self }
    }
}

impl<'data, T: Sync + 'data> IntoParallelIterator for &'data Vec<T> {
    type Iter = Iter<'data, T>;
    type Item = &'data T;
    fn into_par_iter(self) -> Self::Iter {
        Iter { slice: self }
    }
}

impl<'data, T: Sync + 'data, const N: usize> IntoParallelIterator for &'data [T; N] {
    type Iter = Iter<'data, T>;
    type Item = &'data T;
    fn into_par_iter(self) -> Self::Iter {
        Iter { slice: self }
    }
}

impl<'data, T: Send + 'data> IntoParallelIterator for &'data mut [T] {
    type Iter = IterMut<'data, T>;
    type Item = &'data mut T;
    fn into_par_iter(self) -> Self::Iter {
        IterMut { slice: self }
    }
}

impl<'data, T: Send + 'data> IntoParallelIterator for &'data mut Vec<T> {
    type Iter = IterMut<'data, T>;
    type Item = &'data mut T;
    fn into_par_iter(self) -> Self::Iter {
        IterMut { slice: self }
    }
}

impl<'data, T: Send + 'data, const N: usize> IntoParallelIterator for &'data mut [T; N] {
    type Iter = IterMut<'data, T>;
    type Item = &'data mut T;
    fn into_par_iter(self) -> Self::Iter {
        IterMut { slice: self }
    }
}
