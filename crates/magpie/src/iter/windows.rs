//! `par_windows`: every run of `size` consecutive elements of a slice.
//!
//! A position is a window, identified by its first element. Two neighbouring pieces
//! share `size - 1` elements of the slice (both read them), so the split keeps that
//! overlap on both sides.

use super::plumbing::Producer;
use super::{IndexedParallelIterator, ParallelIterator};

/// Parallel iterator over the overlapping `size`-element windows of a slice
/// ([`ParallelSlice::par_windows`](super::ParallelSlice::par_windows)).
#[derive(Debug)]
pub struct Windows<'data, T> {
    slice: &'data [T],
    size: usize,
}

impl<'data, T: Sync> Windows<'data, T> {
    pub(super) fn new(slice: &'data [T], size: usize) -> Self {
        assert!(size != 0, "window size must not be zero");
        Windows { slice, size }
    }
}

impl<'data, T: Sync + 'data> ParallelIterator for Windows<'data, T> {
    type Item = &'data [T];
    type Producer = Self;
    fn into_producer(self) -> Self {
        self
    }
}

impl<'data, T: Sync + 'data> IndexedParallelIterator for Windows<'data, T> {
    fn len(&self) -> usize {
        Producer::len(self)
    }
}

impl<'data, T: Sync + 'data> Producer for Windows<'data, T> {
    type Item = &'data [T];
    type IntoIter = std::slice::Windows<'data, T>;
    fn len(&self) -> usize {
        // Not `len + 1 - size`: `len + 1` overflows for `usize::MAX` zero-sized
        // elements.
        self.slice.len().saturating_sub(self.size - 1)
    }
    fn split_at(self, index: usize) -> (Self, Self) {
        // The first `index` windows end before `index + size - 1`; the rest start at
        // `index`. With no windows at all, both sides are empty.
        let end = (index + self.size - 1).min(self.slice.len());
        let start = index.min(self.slice.len());
        let size = self.size;
        (
            Windows {
                slice: &self.slice[..end],
                size,
            },
            Windows {
                slice: &self.slice[start..],
                size,
            },
        )
    }
    fn into_iter(self) -> Self::IntoIter {
        self.slice.windows(self.size)
    }
    fn exact(&self) -> bool {
        true
    }
}
