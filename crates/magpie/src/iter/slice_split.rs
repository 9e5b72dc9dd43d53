//! The splits of a slice by a predicate: `par_split`, `par_split_inclusive` and
//! `par_chunk_by` (each also `_mut`), as the slice methods of the same names.
//!
//! As for strings ([`str_split`](super::str_split)), a piece is a part of the slice
//! that starts and ends where the sequential split would: the splitter's cut near the
//! middle moves to the nearest boundary after it (or, if there is none, before it), so
//! the sequential split of the whole is the sequential splits of the parts, in order.
//! A [`Boundary`] says where the boundaries are: at a separator element, which neither
//! part keeps (`split`); just after one, which the left part keeps (`split_inclusive`);
//! between two neighbours the predicate does not pair (`chunk_by`). The same test
//! drives each piece's sequential iterator. A part with no boundary cannot be cut and
//! says so through `min_len`. Positions are elements.

use std::sync::Arc;

use super::plumbing::Producer;
use super::ParallelIterator;

/// Where a split of a slice may cut, and what a part yields at its end.
pub trait Boundary<T>: Sync + Send {
    /// If a boundary lies at element `i` of `part`: where the part before it ends and
    /// the part after it starts.
    fn at(&self, part: &[T], i: usize) -> Option<(usize, usize)>;
    /// Whether the rest after the last boundary is a piece even when empty (`split`).
    const EMPTY_TAIL: bool;
}

/// [`Boundary`] of `par_split`: a separator element, which neither part keeps.
#[derive(Clone, Debug)]
pub struct Separator<P>(P);

/// [`Boundary`] of `par_split_inclusive`: just after a separator, which ends the left
/// part.
#[derive(Clone, Debug)]
pub struct EndsWithSeparator<P>(P);

/// [`Boundary`] of `par_chunk_by`: between neighbours `a`, `b` with `!pred(a, b)`.
#[derive(Clone, Debug)]
pub struct Unpaired<P>(P);

impl<T, P: Fn(&T) -> bool + Sync + Send> Boundary<T> for Separator<P> {
    fn at(&self, part: &[T], i: usize) -> Option<(usize, usize)> {
        (self.0)(&part[i]).then_some((i, i + 1))
    }
    const EMPTY_TAIL: bool = true;
}

impl<T, P: Fn(&T) -> bool + Sync + Send> Boundary<T> for EndsWithSeparator<P> {
    fn at(&self, part: &[T], i: usize) -> Option<(usize, usize)> {
        // Not the last element: after it there is no boundary, only the end.
        (i + 1 < part.len() && (self.0)(&part[i])).then_some((i + 1, i + 1))
    }
    const EMPTY_TAIL: bool = false;
}

impl<T, P: Fn(&T, &T) -> bool + Sync + Send> Boundary<T> for Unpaired<P> {
    fn at(&self, part: &[T], i: usize) -> Option<(usize, usize)> {
        (i > 0 && !(self.0)(&part[i - 1], &part[i])).then_some((i, i))
    }
    const EMPTY_TAIL: bool = false;
}

/// A shared or a mutable slice, cut without copying.
pub trait Part: Sized + Send {
    /// The element type.
    type T;
    /// A shared view of the elements.
    fn view(&self) -> &[Self::T];
    /// The elements before `end` and those from `start` on (`end <= start`).
    fn cut(self, end: usize, start: usize) -> (Self, Self);
}

impl<T: Sync> Part for &[T] {
    type T = T;
    fn view(&self) -> &[T] {
        self
    }
    fn cut(self, end: usize, start: usize) -> (Self, Self) {
        (&self[..end], &self[start..])
    }
}

impl<T: Send> Part for &mut [T] {
    type T = T;
    fn view(&self) -> &[T] {
        self
    }
    fn cut(self, end: usize, start: usize) -> (Self, Self) {
        let (left, right) = self.split_at_mut(start);
        (&mut left[..end], right)
    }
}

/// A parallel iterator over the parts of a slice (or mutable slice) `S` between the
/// boundaries `B` finds.
#[derive(Debug)]
pub struct SliceSplit<S, B> {
    slice: S,
    boundary: B,
}

/// [`ParallelSlice::par_split`](super::ParallelSlice::par_split).
pub type SplitSlice<'data, T, P> = SliceSplit<&'data [T], Separator<P>>;
/// [`ParallelSlice::par_split_inclusive`](super::ParallelSlice::par_split_inclusive).
pub type SplitSliceInclusive<'data, T, P> = SliceSplit<&'data [T], EndsWithSeparator<P>>;
/// [`ParallelSlice::par_chunk_by`](super::ParallelSlice::par_chunk_by).
pub type ChunkBy<'data, T, P> = SliceSplit<&'data [T], Unpaired<P>>;
/// [`ParallelSliceMut::par_split_mut`](super::ParallelSliceMut::par_split_mut).
pub type SplitSliceMut<'data, T, P> = SliceSplit<&'data mut [T], Separator<P>>;
/// [`ParallelSliceMut::par_split_inclusive_mut`](super::ParallelSliceMut::par_split_inclusive_mut).
pub type SplitSliceInclusiveMut<'data, T, P> = SliceSplit<&'data mut [T], EndsWithSeparator<P>>;
/// [`ParallelSliceMut::par_chunk_by_mut`](super::ParallelSliceMut::par_chunk_by_mut).
pub type ChunkByMut<'data, T, P> = SliceSplit<&'data mut [T], Unpaired<P>>;

impl<S, P> SliceSplit<S, Separator<P>> {
    pub(super) fn on_separator(slice: S, separator: P) -> Self {
        let boundary = Separator(separator);
        SliceSplit { slice, boundary }
    }
}

impl<S, P> SliceSplit<S, EndsWithSeparator<P>> {
    pub(super) fn after_separator(slice: S, separator: P) -> Self {
        let boundary = EndsWithSeparator(separator);
        SliceSplit { slice, boundary }
    }
}

impl<S, P> SliceSplit<S, Unpaired<P>> {
    pub(super) fn unpaired(slice: S, pred: P) -> Self {
        let boundary = Unpaired(pred);
        SliceSplit { slice, boundary }
    }
}

impl<S: Part, B: Boundary<S::T>> ParallelIterator for SliceSplit<S, B> {
    type Item = S;
    type Producer = SliceSplitProducer<S, B>;
    fn into_producer(self) -> Self::Producer {
        SliceSplitProducer {
            part: Some(self.slice),
            boundary: Arc::new(self.boundary),
            whole: false,
        }
    }
}

/// The producer of [`SliceSplit`]: a part of the slice (`None`: nothing at all, which
/// differs from an empty part for `par_split`).
pub struct SliceSplitProducer<S, B> {
    part: Option<S>,
    boundary: Arc<B>,
    /// The part has no boundary, so it cannot be cut.
    whole: bool,
}

impl<S: Part, B: Boundary<S::T>> SliceSplitProducer<S, B> {
    fn with(&self, part: Option<S>, whole: bool) -> Self {
        let boundary = Arc::clone(&self.boundary);
        SliceSplitProducer {
            part,
            boundary,
            whole,
        }
    }
}

impl<S: Part, B: Boundary<S::T>> Producer for SliceSplitProducer<S, B> {
    type Item = S;
    type IntoIter = SlicePieces<S, B>;
    fn len(&self) -> usize {
        self.part.as_ref().map_or(0, |p| p.view().len())
    }
    fn split_at(mut self, index: usize) -> (Self, Self) {
        let len = self.len();
        if self.whole || index == 0 || index >= len {
            let nothing = self.with(None, false);
            return if index == 0 {
                (nothing, self)
            } else {
                (self, nothing)
            };
        }
        let part = self.part.take().expect("a part of positive length");
        let (b, view) = (&*self.boundary, part.view());
        let near = (index..len)
            .find_map(|i| b.at(view, i))
            .or_else(|| (0..index).rev().find_map(|i| b.at(view, i)));
        match near {
            Some((end, start)) => {
                let (left, right) = part.cut(end, start);
                (self.with(Some(left), false), self.with(Some(right), false))
            }
            None => (self.with(Some(part), true), self.with(None, false)),
        }
    }
    fn into_iter(self) -> Self::IntoIter {
        SlicePieces {
            rest: self.part,
            boundary: self.boundary,
        }
    }
    fn min_len(&self) -> usize {
        if self.whole {
            usize::MAX
        } else {
            1
        }
    }
    fn exact(&self) -> bool {
        false
    }
}

/// A part of a [`SliceSplit`] as a sequential iterator: the slice method's split.
pub struct SlicePieces<S, B> {
    rest: Option<S>,
    boundary: Arc<B>,
}

impl<S: Part, B: Boundary<S::T>> Iterator for SlicePieces<S, B> {
    type Item = S;
    fn next(&mut self) -> Option<S> {
        let rest = self.rest.take()?;
        let view = rest.view();
        match (0..view.len()).find_map(|i| self.boundary.at(view, i)) {
            Some((end, start)) => {
                let (piece, after) = rest.cut(end, start);
                self.rest = Some(after);
                Some(piece)
            }
            None => (B::EMPTY_TAIL || !view.is_empty()).then_some(rest),
        }
    }
}
