//! `collect` into a `Vec`, and `par_extend` of a `Vec`, in input order.
//!
//! When every position yields one item (an exact producer: no `filter`), each piece
//! writes straight into its own part of the vector's spare capacity, as rayon does;
//! otherwise each piece collects a `Vec` and the pieces are appended in order at the
//! end. A large in-place piece maps its pages just ahead of its writes
//! ([`super::prefault`]): page faults are most of a large collect's time. The other
//! collections are in [`super::collections`].

use std::collections::LinkedList;

use super::plumbing::{bridge, Blocks, Producer, Reducer};
use super::prefault;
use super::{IntoParallelIterator, ParallelIterator};

/// A collection that can be built from a parallel iterator (`collect`).
pub trait FromParallelIterator<T: Send> {
    /// Builds the collection.
    fn from_par_iter<I>(iter: I) -> Self
    where
        I: IntoParallelIterator<Item = T>;
}

impl<T: Send> FromParallelIterator<T> for Vec<T> {
    fn from_par_iter<I>(iter: I) -> Self
    where
        I: IntoParallelIterator<Item = T>,
    {
        let producer = iter.into_par_iter().into_producer();
        if producer.exact() {
            let mut out = Vec::with_capacity(producer.len());
            extend_in_place(&mut out, producer);
            out
        } else {
            let mut out = Vec::new();
            append_pieces(&mut out, vec_pieces(producer));
            out
        }
    }
}

/// `par_extend` of a `Vec` (see [`ParallelExtend`](super::ParallelExtend)).
pub(super) fn extend_vec<T: Send, I>(out: &mut Vec<T>, iter: I)
where
    I: IntoParallelIterator<Item = T>,
{
    let producer = iter.into_par_iter().into_producer();
    if producer.exact() {
        extend_in_place(out, producer);
    } else {
        append_pieces(out, vec_pieces(producer));
    }
}

/// The items of `iter`, one `Vec` per piece, in order.
pub(super) fn collect_pieces<I: ParallelIterator>(iter: I) -> LinkedList<Vec<I::Item>> {
    vec_pieces(iter.into_producer())
}

fn vec_pieces<P: Producer>(producer: P) -> LinkedList<Vec<P::Item>>
where
    P::Item: Send,
{
    let leaf = |it: P::IntoIter| LinkedList::from([it.collect::<Vec<_>>()]);
    let combine = |mut a: LinkedList<Vec<_>>, mut b| {
        a.append(&mut b);
        a
    };
    bridge(
        producer,
        &Reducer {
            leaf: &leaf,
            combine: &combine,
            stop: None,
        },
    )
}

fn append_pieces<T>(out: &mut Vec<T>, pieces: LinkedList<Vec<T>>) {
    out.reserve(pieces.iter().map(Vec::len).sum());
    for mut piece in pieces {
        out.append(&mut piece);
    }
}

/// Appends the items of an exact producer to `out`, each piece writing its own part of
/// the spare capacity.
fn extend_in_place<P: Producer>(out: &mut Vec<P::Item>, producer: P)
where
    P::Item: Send,
{
    let len = producer.len();
    out.reserve(len);
    let old_len = out.len();
    let target = Target {
        items: producer,
        // SAFETY: `old_len <= capacity`: the first spare position (or one past the
        // end of the buffer when nothing is added).
        start: unsafe { out.as_mut_ptr().add(old_len) },
        len,
    };
    let leaf = |piece: TargetPiece<P::IntoIter, P::Item>| {
        let mut written = Written {
            start: piece.start,
            count: 0,
        };
        let chunk = prefault::chunk_len::<P::Item>(piece.len);
        let populate = chunk < piece.len;
        // SAFETY: one past the piece's last position, inside or one past the buffer.
        let end = unsafe { piece.start.add(piece.len) };
        let mut items = piece.items.take(piece.len);
        while written.count < piece.len {
            let batch = chunk.min(piece.len - written.count);
            // SAFETY: `count < piece.len`: a position of this piece.
            let at = unsafe { piece.start.add(written.count) };
            if populate {
                // SAFETY: `at` and `end` lie in `out`'s spare capacity (writable, ours),
                // `at < end`. A failure only leaves the pages to the writes' faults.
                let _ = unsafe { prefault::populate(at, batch, end) };
            }
            let before = written.count;
            for item in items.by_ref().take(batch) {
                // SAFETY: `count < piece.len`: a distinct, in-bounds, uninitialised
                // position of `out`'s spare capacity owned by this piece only;
                // `written` drops the items written so far if a later one panics.
                unsafe { piece.start.add(written.count).write(item) };
                written.count += 1;
            }
            if written.count - before < batch {
                break; // the producer ran short: a later merge or the length check panics
            }
        }
        written
    };
    let combine = |a: Written<P::Item>, b: Written<P::Item>| a.merge(b);
    let written = bridge(
        target,
        &Reducer {
            leaf: &leaf,
            combine: &combine,
            stop: None,
        },
    );
    // Sound whatever a producer reports: every piece writes only the positions the
    // split gave it (counted here, not asked of the producer again), and a producer
    // yielding fewer items than it claimed leaves a gap, caught here before the length
    // is set.
    assert_eq!(
        written.count, len,
        "an exact producer yielded fewer items than its length"
    );
    std::mem::forget(written);
    // SAFETY: the `len` positions after `old_len` were written (checked above) and
    // their ownership passed from `written` (forgotten) to `out`; `reserve` made room.
    unsafe { out.set_len(old_len + len) };
}

/// A producer paired with the uninitialised positions `[start, start + len)` of the
/// result that its items go to. `len` is the target's own count, fixed when the
/// buffer was reserved and divided at every split: the producer's `len` is only
/// trusted for the first call, so one that reports a different length later (a bug,
/// but safe code) cannot make a piece write past its positions.
struct Target<P: Producer> {
    items: P,
    start: *mut P::Item,
    len: usize,
}

// SAFETY: a `Target` writes only to its own disjoint positions; writing a `T` there
// from another thread moves a `T` to it, allowed for `T: Send`.
unsafe impl<P: Producer> Send for Target<P> where P::Item: Send {}

impl<P: Producer> Producer for Target<P>
where
    P::Item: Send,
{
    type Item = P::Item;
    type IntoIter = TargetPiece<P::IntoIter, P::Item>;
    fn len(&self) -> usize {
        self.len
    }
    fn split_at(self, index: usize) -> (Self, Self) {
        assert!(index <= self.len);
        let (l, r) = self.items.split_at(index);
        let left = Target {
            items: l,
            start: self.start,
            len: index,
        };
        // SAFETY: `index <= len`: inside or one past this target's positions.
        let start = unsafe { self.start.add(index) };
        let right = Target {
            items: r,
            start,
            len: self.len - index,
        };
        (left, right)
    }
    fn into_iter(self) -> Self::IntoIter {
        TargetPiece {
            len: self.len,
            items: self.items.into_iter(),
            start: self.start,
        }
    }
    fn min_len(&self) -> usize {
        self.items.min_len()
    }
    fn max_len(&self) -> usize {
        self.items.max_len()
    }
    fn blocks(&self) -> Blocks {
        self.items.blocks()
    }
    fn exact(&self) -> bool {
        true
    }
}

/// One piece of a [`Target`]: its items and where they go (the leaf reads the fields;
/// as an iterator it yields the items).
struct TargetPiece<I, T> {
    items: I,
    start: *mut T,
    len: usize,
}

impl<I: Iterator> Iterator for TargetPiece<I, I::Item> {
    type Item = I::Item;
    fn next(&mut self) -> Option<I::Item> {
        self.items.next()
    }
}

/// Positions a piece has written; dropping it drops those items (on a panic).
struct Written<T> {
    start: *mut T,
    count: usize,
}

// SAFETY: owns `count` initialised `T`s; sending it sends them.
unsafe impl<T: Send> Send for Written<T> {}

impl<T> Written<T> {
    /// Joins two neighbouring runs of written positions (left, then right).
    fn merge(self, right: Written<T>) -> Written<T> {
        if right.count == 0 {
            return self;
        }
        if self.count == 0 {
            return right;
        }
        // SAFETY: `start + count` is within the buffer (at most one past the end).
        let contiguous = unsafe { self.start.add(self.count) } == right.start;
        assert!(contiguous, "collect: pieces finished out of place");
        let merged = Written {
            start: self.start,
            count: self.count + right.count,
        };
        std::mem::forget(self);
        std::mem::forget(right);
        merged
    }
}

impl<T> Drop for Written<T> {
    fn drop(&mut self) {
        if self.count > 0 {
            // SAFETY: these `count` positions were written by this run and are owned
            // by it alone.
            unsafe {
                std::ptr::drop_in_place(std::ptr::slice_from_raw_parts_mut(self.start, self.count));
            }
        }
    }
}
