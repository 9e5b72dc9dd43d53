//! `chain`: the items of one parallel iterator, then those of another.
//!
//! The positions of the chain are the first source's, then the second's. A split
//! inside the first source cuts it there and cuts the second at 0 (the left half gets
//! an empty part of it, the right half all of it); a split inside the second, the
//! mirror image. A piece runs the standard `Chain` of its two (possibly empty) parts.
//! The chain is exact, and indexed, when both sides are; unlike `zip` it also takes
//! non-indexed sources (positions are split, whatever they yield).

use super::plumbing::Producer;
use super::{IndexedParallelIterator, ParallelIterator};

/// The parallel iterator of [`ParallelIterator::chain`].
#[derive(Debug)]
pub struct Chain<A, B> {
    a: A,
    b: B,
}

impl<A, B> Chain<A, B> {
    pub(super) fn new(a: A, b: B) -> Self {
        Chain { a, b }
    }
}

impl<A, B> ParallelIterator for Chain<A, B>
where
    A: ParallelIterator,
    B: ParallelIterator<Item = A::Item>,
{
    type Item = A::Item;
    type Producer = ChainProducer<A::Producer, B::Producer>;
    fn into_producer(self) -> Self::Producer {
        ChainProducer {
            a: self.a.into_producer(),
            b: self.b.into_producer(),
        }
    }
}

impl<A, B> IndexedParallelIterator for Chain<A, B>
where
    A: IndexedParallelIterator,
    B: IndexedParallelIterator<Item = A::Item>,
{
    fn len(&self) -> usize {
        total_len(self.a.len(), self.b.len())
    }
}

/// The producer of [`Chain`].
pub struct ChainProducer<A, B> {
    a: A,
    b: B,
}

impl<A, B> Producer for ChainProducer<A, B>
where
    A: Producer,
    B: Producer<Item = A::Item>,
{
    type Item = A::Item;
    type IntoIter = std::iter::Chain<A::IntoIter, B::IntoIter>;
    fn len(&self) -> usize {
        total_len(self.a.len(), self.b.len())
    }
    fn split_at(self, index: usize) -> (Self, Self) {
        let a_len = self.a.len();
        let ((a1, a2), (b1, b2)) = if index <= a_len {
            (self.a.split_at(index), self.b.split_at(0))
        } else if a_len == 0 {
            // All of `a` goes left. A part with no positions may still yield items (an
            // empty string splits into one empty substring), and `split_at(0)` puts
            // them on the right, so its parts are swapped.
            let (none, a) = self.a.split_at(0);
            ((a, none), self.b.split_at(index))
        } else {
            (self.a.split_at(a_len), self.b.split_at(index - a_len))
        };
        (
            ChainProducer { a: a1, b: b1 },
            ChainProducer { a: a2, b: b2 },
        )
    }
    fn into_iter(self) -> Self::IntoIter {
        self.a.into_iter().chain(self.b.into_iter())
    }
    fn min_len(&self) -> usize {
        self.a.min_len().max(self.b.min_len())
    }
    fn max_len(&self) -> usize {
        self.a.max_len().min(self.b.max_len())
    }
    fn exact(&self) -> bool {
        self.a.exact() && self.b.exact()
    }
}

/// The positions of both sides together.
///
/// # Panics
/// If that is more than `usize::MAX` (as rayon's), rather than a wrapped length that
/// would cut and collect the wrong items.
fn total_len(a: usize, b: usize) -> usize {
    a.checked_add(b).expect("chain: the length overflows usize")
}
