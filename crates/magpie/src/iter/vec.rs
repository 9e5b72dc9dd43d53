//! Owned `Vec`s and arrays as parallel sources: `vec.into_par_iter()` moves the
//! elements out.
//!
//! The vector's buffer is kept alive by an `Arc` shared by every piece; the vector's
//! length is set to zero first, so each element is owned by exactly one piece, which
//! either yields it or drops it (if the piece is dropped unfinished: a panic, or a
//! short-circuiting consumer). The buffer is freed when the last piece is gone.
//!
//! The producer and its pieces are generic over that shared *keeper*: `par_drain`
//! (in [`super::drain`]) uses the same pieces over a range of a borrowed vector, with
//! a keeper that closes the gap when the last piece is gone.

use std::marker::PhantomData;
use std::sync::Arc;

use super::plumbing::Producer;
use super::{IndexedParallelIterator, IntoParallelIterator, ParallelIterator};

/// Parallel iterator that moves the elements out of a `Vec`.
#[derive(Debug)]
pub struct IntoIter<T> {
    vec: Vec<T>,
}

impl<T: Send> IntoParallelIterator for Vec<T> {
    type Iter = IntoIter<T>;
    type Item = T;
    fn into_par_iter(self) -> Self::Iter {
        IntoIter { vec: self }
    }
}

impl<T: Send, const N: usize> IntoParallelIterator for [T; N] {
    type Iter = IntoIter<T>;
    type Item = T;
    fn into_par_iter(self) -> Self::Iter {
        IntoIter {
            vec: Vec::from(self),
        }
    }
}

impl<T: Send> ParallelIterator for IntoIter<T> {
    type Item = T;
    type Producer = VecProducer<T, Buffer<T>>;
    fn into_producer(self) -> Self::Producer {
        let mut vec = self.vec;
        let len = vec.len();
        let start = vec.as_mut_ptr();
        // SAFETY: the elements `[0, len)` are initialised; from here on the producer
        // owns them and the vector only owns the allocation (length 0, so dropping it
        // drops no element).
        unsafe { vec.set_len(0) };
        VecProducer {
            buffer: Arc::new(Buffer { _alloc: vec }),
            start,
            len,
            _owns: PhantomData,
        }
    }
}

impl<T: Send> IndexedParallelIterator for IntoIter<T> {
    fn len(&self) -> usize {
        self.vec.len()
    }
}

/// The allocation of a vector whose elements have been handed out; held only so that
/// dropping the last piece frees it.
pub struct Buffer<T> {
    _alloc: Vec<T>,
}

// SAFETY: the buffer is only freed (when the last `Arc` drops), never read or written
// through this handle; the elements are accessed by the pieces, which are `Send` only
// for `T: Send`.
unsafe impl<T: Send> Send for Buffer<T> {}
// SAFETY: as above; `&Buffer` gives no access to the elements.
unsafe impl<T: Send> Sync for Buffer<T> {}

/// The producer of [`IntoIter`]: owns the elements `[start, start + len)`; `K` keeps
/// their memory alive (and finishes up when the last piece is gone).
pub struct VecProducer<T, K> {
    buffer: Arc<K>,
    start: *mut T,
    len: usize,
    _owns: PhantomData<T>,
}

impl<T, K> VecProducer<T, K> {
    /// A producer of the `len` elements at `start`, kept alive by `keeper`.
    ///
    /// # Safety
    /// The elements must be initialised, owned by nobody else from now on (the
    /// producer reads or drops each exactly once) and stay valid until `keeper` (and
    /// every clone of its `Arc`) is dropped.
    pub(super) unsafe fn from_raw(keeper: Arc<K>, start: *mut T, len: usize) -> Self {
        VecProducer {
            buffer: keeper,
            start,
            len,
            _owns: PhantomData,
        }
    }
}

// SAFETY: a producer owns its elements exclusively (disjoint ranges); moving it to
// another thread moves those `T`s, which is allowed for `T: Send`; the keeper is
// shared between threads, so it must be `Send + Sync`.
unsafe impl<T: Send, K: Send + Sync> Send for VecProducer<T, K> {}

impl<T: Send, K: Send + Sync> Producer for VecProducer<T, K> {
    type Item = T;
    type IntoIter = VecPiece<T, K>;
    fn len(&self) -> usize {
        self.len
    }
    fn split_at(self, index: usize) -> (Self, Self) {
        assert!(index <= self.len);
        let this = std::mem::ManuallyDrop::new(self);
        // SAFETY: `this` is never dropped, so its `Arc` is moved out exactly once.
        let buffer = unsafe { std::ptr::read(&this.buffer) };
        let left = VecProducer {
            buffer: Arc::clone(&buffer),
            start: this.start,
            len: index,
            _owns: PhantomData,
        };
        let right = VecProducer {
            buffer,
            // SAFETY: `index <= len`, so the pointer stays inside (or one past) the
            // owned range.
            start: unsafe { this.start.add(index) },
            len: this.len - index,
            _owns: PhantomData,
        };
        (left, right)
    }
    fn into_iter(self) -> VecPiece<T, K> {
        let this = std::mem::ManuallyDrop::new(self);
        VecPiece {
            // SAFETY: `this` is never dropped, so its `Arc` is moved out exactly once.
            _buffer: unsafe { std::ptr::read(&this.buffer) },
            start: this.start,
            next: 0,
            len: this.len,
        }
    }
    fn exact(&self) -> bool {
        true
    }
}

impl<T, K> Drop for VecProducer<T, K> {
    fn drop(&mut self) {
        // SAFETY: the producer owns these initialised elements and nobody else will
        // read them; the buffer is alive (we hold an `Arc`).
        unsafe {
            std::ptr::drop_in_place(std::ptr::slice_from_raw_parts_mut(self.start, self.len));
        }
    }
}

/// A piece of [`IntoIter`] as a sequential iterator; drops what it did not yield.
pub struct VecPiece<T, K> {
    _buffer: Arc<K>,
    start: *mut T,
    next: usize,
    len: usize,
}

impl<T, K> Iterator for VecPiece<T, K> {
    type Item = T;
    fn next(&mut self) -> Option<T> {
        if self.next == self.len {
            return None;
        }
        // SAFETY: `next < len`: an initialised element this piece owns, read once
        // because `next` moves past it.
        let item = unsafe { self.start.add(self.next).read() };
        self.next += 1;
        Some(item)
    }
    fn size_hint(&self) -> (usize, Option<usize>) {
        let n = self.len - self.next;
        (n, Some(n))
    }
}

impl<T, K> DoubleEndedIterator for VecPiece<T, K> {
    fn next_back(&mut self) -> Option<T> {
        if self.next == self.len {
            return None;
        }
        self.len -= 1;
        // SAFETY: `next <= len` (the old `len` was larger): an initialised element this
        // piece owns, read once because `len` now excludes it.
        Some(unsafe { self.start.add(self.len).read() })
    }
}

impl<T, K> ExactSizeIterator for VecPiece<T, K> {}

impl<T, K> Drop for VecPiece<T, K> {
    fn drop(&mut self) {
        // SAFETY: the elements `[next, len)` are initialised, not yet yielded (from
        // either end) and owned by this piece.
        unsafe {
            let rest = self.start.add(self.next);
            std::ptr::drop_in_place(std::ptr::slice_from_raw_parts_mut(
                rest,
                self.len - self.next,
            ));
        }
    }
}
