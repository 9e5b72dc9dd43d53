//! `interleave` and `interleave_shortest`: the items of two indexed iterators in
//! turn, `a0, b0, a1, b1, ..`, then the rest of the longer one.
//!
//! A piece knows which side comes first. Its first `index` positions hold, while both
//! sides last, half of `index` from each (the odd one from the side that comes first);
//! past that, the shorter side is used up. A split cuts each side there.
//! `interleave_shortest` takes from the longer side only as much as alternation uses.

use std::iter::Fuse;

use super::plumbing::Producer;
use super::take_skip::Take;
use super::{IndexedParallelIterator, ParallelIterator};

/// The parallel iterator of [`IndexedParallelIterator::interleave`].
#[derive(Debug)]
pub struct Interleave<A, B> {
    a: A,
    b: B,
}

/// The parallel iterator of [`IndexedParallelIterator::interleave_shortest`].
pub type InterleaveShortest<A, B> = Interleave<Take<A>, Take<B>>;

impl<A: IndexedParallelIterator, B: IndexedParallelIterator> Interleave<A, B> {
    pub(super) fn new(a: A, b: B) -> Self {
        Interleave { a, b }
    }

    pub(super) fn shortest(a: A, b: B) -> InterleaveShortest<A, B> {
        let (la, lb) = (a.len(), b.len());
        let (take_a, take_b) = if la > lb { (lb + 1, lb) } else { (la, la) };
        Interleave::new(a.take(take_a), b.take(take_b))
    }
}

impl<A, B> ParallelIterator for Interleave<A, B>
where
    A: IndexedParallelIterator,
    B: IndexedParallelIterator<Item = A::Item>,
{
    type Item = A::Item;
    type Producer = InterleaveProducer<A::Producer, B::Producer>;
    fn into_producer(self) -> Self::Producer {
        InterleaveProducer {
            a: self.a.into_producer(),
            b: self.b.into_producer(),
            a_first: true,
        }
    }
}

impl<A, B> IndexedParallelIterator for Interleave<A, B>
where
    A: IndexedParallelIterator,
    B: IndexedParallelIterator<Item = A::Item>,
{
    fn len(&self) -> usize {
        total_len(self.a.len(), self.b.len())
    }
}

/// The producer of [`Interleave`].
pub struct InterleaveProducer<A, B> {
    a: A,
    b: B,
    /// Whether this piece's first item comes from `a`.
    a_first: bool,
}

impl<A: Producer, B: Producer<Item = A::Item>> Producer for InterleaveProducer<A, B> {
    type Item = A::Item;
    type IntoIter = InterleaveIter<A::IntoIter, B::IntoIter>;
    fn len(&self) -> usize {
        total_len(self.a.len(), self.b.len())
    }
    fn split_at(self, index: usize) -> (Self, Self) {
        let (la, lb) = (self.a.len(), self.b.len());
        let (from_a, right_a_first) = if index <= 2 * la.min(lb) {
            let odd = index % 2 == 1;
            let from_a = if self.a_first {
                index.div_ceil(2)
            } else {
                index / 2
            };
            (from_a, self.a_first != odd)
        } else if la > lb {
            (index - lb, true)
        } else {
            (la, false)
        };
        let (a1, a2) = self.a.split_at(from_a);
        let (b1, b2) = self.b.split_at(index - from_a);
        let left = InterleaveProducer {
            a: a1,
            b: b1,
            a_first: self.a_first,
        };
        let right = InterleaveProducer {
            a: a2,
            b: b2,
            a_first: right_a_first,
        };
        (left, right)
    }
    fn into_iter(self) -> Self::IntoIter {
        InterleaveIter {
            a: self.a.into_iter().fuse(),
            b: self.b.into_iter().fuse(),
            a_next: self.a_first,
        }
    }
    fn min_len(&self) -> usize {
        self.a.min_len().max(self.b.min_len())
    }
    fn max_len(&self) -> usize {
        self.a.max_len().min(self.b.max_len())
    }
    fn exact(&self) -> bool {
        true
    }
}

/// A piece of [`Interleave`]: one item from each side in turn, then the rest of one.
pub struct InterleaveIter<A, B> {
    a: Fuse<A>,
    b: Fuse<B>,
    a_next: bool,
}

impl<A: Iterator, B: Iterator<Item = A::Item>> Iterator for InterleaveIter<A, B> {
    type Item = A::Item;
    fn next(&mut self) -> Option<A::Item> {
        let from_a = self.a_next;
        self.a_next = !from_a;
        if from_a {
            self.a.next().or_else(|| self.b.next())
        } else {
            self.b.next().or_else(|| self.a.next())
        }
    }
    fn size_hint(&self) -> (usize, Option<usize>) {
        let (a_lo, a_hi) = self.a.size_hint();
        let (b_lo, b_hi) = self.b.size_hint();
        let hi = a_hi.zip(b_hi).and_then(|(x, y)| x.checked_add(y));
        (a_lo.saturating_add(b_lo), hi)
    }
}

/// The positions of both sides together.
///
/// # Panics
/// If that is more than `usize::MAX` (as rayon's), rather than a wrapped length that
/// would cut and collect the wrong items.
fn total_len(a: usize, b: usize) -> usize {
    a.checked_add(b)
        .expect("interleave: the length overflows usize")
}
