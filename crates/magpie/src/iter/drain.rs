//! `par_drain`: moves a range of a `Vec`'s elements out in parallel, as rayon's
//! [`ParallelDrainRange`]; also on `VecDeque` and `String`, through a `Vec` (see their
//! impls).
//!
//! The vector's length is cut to the start of the range first, so the range and the
//! tail after it belong to nobody in the vector's eyes; the range's elements go to
//! the pieces of an owned-`Vec` producer (see [`super::vec`]), which yield or drop
//! each exactly once. Their shared keeper, [`DrainTail`], runs when the last piece is
//! gone (after the run, also after a panic or a short-circuit): it moves the tail
//! down over the range and restores the length. If a piece were leaked, the tail
//! would be leaked too, but the vector stays valid (as with `std::vec::Drain`). A
//! `Drain` dropped without being iterated removes the range sequentially.

use std::marker::PhantomData;
use std::ops::{Bound, Range, RangeBounds};
use std::sync::Arc;

use std::collections::VecDeque;

use super::vec::{IntoIter, VecProducer};
use super::{IndexedParallelIterator, IntoParallelIterator, ParallelIterator};

/// `par_drain(range)`: removes a range of elements and iterates over them in
/// parallel; what the iterator does not consume is dropped, and the elements after
/// the range move down, as `Vec::drain`.
pub trait ParallelDrainRange<Idx = usize> {
    /// The parallel iterator.
    type Iter: ParallelIterator<Item = Self::Item>;
    /// Its items.
    type Item: Send;
    /// Removes `range` and iterates over its elements in parallel.
    ///
    /// # Panics
    /// If the range starts after it ends, or ends after the collection.
    fn par_drain<R: RangeBounds<Idx>>(self, range: R) -> Self::Iter;
}

impl<'a, T: Send> ParallelDrainRange<usize> for &'a mut Vec<T> {
    type Iter = Drain<'a, T>;
    type Item = T;
    fn par_drain<R: RangeBounds<usize>>(self, range: R) -> Drain<'a, T> {
        let range = resolve(range, self.len());
        Drain {
            vec: Some(self),
            range,
        }
    }
}

/// On a `VecDeque` the range moves into a `Vec` first (one sequential pass, as the
/// maps and sets are iterated), whose elements the pieces then own.
impl<T: Send> ParallelDrainRange<usize> for &mut VecDeque<T> {
    type Iter = IntoIter<T>;
    type Item = T;
    fn par_drain<R: RangeBounds<usize>>(self, range: R) -> IntoIter<T> {
        let range = resolve(range, self.len());
        self.drain(range).collect::<Vec<T>>().into_par_iter()
    }
}

/// On a `String` the items are the `char`s of the range (as rayon's), which moves into
/// a `Vec<char>` first (one sequential pass); the range must lie on character
/// boundaries, as for `String::drain`.
///
/// ```
/// use magpie::prelude::*;
///
/// let mut s = String::from("magpie: 42");
/// let digits: u32 = s.par_drain(8..).filter_map(|c| c.to_digit(10)).sum();
/// assert_eq!((digits, s.as_str()), (6, "magpie: "));
/// ```
impl ParallelDrainRange<usize> for &mut String {
    type Iter = IntoIter<char>;
    type Item = char;
    fn par_drain<R: RangeBounds<usize>>(self, range: R) -> IntoIter<char> {
        let range = resolve(range, self.len());
        self.drain(range).collect::<Vec<char>>().into_par_iter()
    }
}

/// `range` as indices into a collection of `len` elements, checked as `Vec::drain`.
fn resolve(range: impl RangeBounds<usize>, len: usize) -> Range<usize> {
    let start = match range.start_bound() {
        Bound::Included(&s) => s,
        Bound::Excluded(&s) => s.checked_add(1).expect("range start overflows usize"),
        Bound::Unbounded => 0,
    };
    let end = match range.end_bound() {
        Bound::Included(&e) => e.checked_add(1).expect("range end overflows usize"),
        Bound::Excluded(&e) => e,
        Bound::Unbounded => len,
    };
    assert!(
        start <= end,
        "drain range starts at {start} but ends at {end}"
    );
    assert!(
        end <= len,
        "drain range ends at {end} but the length is {len}"
    );
    start..end
}

/// The parallel iterator of [`ParallelDrainRange::par_drain`] on a `Vec`.
#[derive(Debug)]
pub struct Drain<'a, T> {
    /// `None` once the iterator has become a producer.
    vec: Option<&'a mut Vec<T>>,
    range: Range<usize>,
}

impl<'a, T: Send> ParallelIterator for Drain<'a, T> {
    type Item = T;
    type Producer = VecProducer<T, DrainTail<'a, T>>;
    fn into_producer(mut self) -> Self::Producer {
        let vec = self.vec.take().expect("a drain becomes a producer once");
        let Range { start, end } = self.range.clone();
        let tail_len = vec.len() - end;
        // SAFETY: `start <= end <= len` (checked by `resolve`): the elements
        // `[start, len)` are initialised. From here on the vector owns only
        // `[0, start)`; the range goes to the producer, and the tail is moved back by
        // `DrainTail` (or leaked, never dropped twice).
        let first = unsafe {
            vec.set_len(start);
            vec.as_mut_ptr().add(start)
        };
        let keeper = Arc::new(DrainTail {
            vec,
            start,
            end,
            tail_len,
            _borrow: PhantomData,
        });
        // SAFETY: the `end - start` elements at `first` are initialised and owned by
        // nobody else (see above); the vector's buffer stays allocated while
        // `keeper` holds the exclusive borrow of the vector.
        unsafe { VecProducer::from_raw(keeper, first, end - start) }
    }
}

impl<T: Send> IndexedParallelIterator for Drain<'_, T> {
    fn len(&self) -> usize {
        self.range.len()
    }
}

impl<T> Drop for Drain<'_, T> {
    fn drop(&mut self) {
        if let Some(vec) = self.vec.take() {
            vec.drain(self.range.clone());
        }
    }
}

/// The keeper of a drain's pieces: holds the vector's exclusive borrow and, when the
/// last piece is gone, moves the tail down over the drained range.
pub struct DrainTail<'a, T> {
    vec: *mut Vec<T>,
    start: usize,
    end: usize,
    tail_len: usize,
    _borrow: PhantomData<&'a mut Vec<T>>,
}

// SAFETY: the keeper stands for `&mut Vec<T>`, which is `Send` for `T: Send`; it is
// only used by its `Drop`, which runs once, on whichever thread drops it last.
unsafe impl<T: Send> Send for DrainTail<'_, T> {}
// SAFETY: `&DrainTail` gives no access to the vector at all.
unsafe impl<T: Send> Sync for DrainTail<'_, T> {}

impl<T> Drop for DrainTail<'_, T> {
    fn drop(&mut self) {
        // SAFETY: `vec` came from the drain's exclusive borrow, still held (`'a`);
        // every piece is gone, so each element of `[start, end)` was read or dropped
        // exactly once; the tail `[end, end + tail_len)` is initialised and untouched.
        // Moving it to `start` (the ranges may overlap: `copy`) and setting the length
        // makes `[0, start + tail_len)` the initialised elements again.
        unsafe {
            let vec = &mut *self.vec;
            let base = vec.as_mut_ptr();
            if self.tail_len > 0 && self.start != self.end {
                std::ptr::copy(base.add(self.end), base.add(self.start), self.tail_len);
            }
            vec.set_len(self.start + self.tail_len);
        }
    }
}
