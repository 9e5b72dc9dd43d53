//! `flat_map_iter` and `flatten_iter`: each item becomes a *sequential* iterator whose
//! items are yielded in its place.
//!
//! The inner iterators are not split: parallelism comes from the outer positions only,
//! which is what makes this cheap (no producer for the inner iterator, no nested
//! splitting). The producer is not exact (a position yields any number of items).

use std::sync::Arc;

use super::plumbing::Producer;
use super::ParallelIterator;

/// The parallel iterator of [`ParallelIterator::flat_map_iter`].
#[derive(Debug)]
pub struct FlatMapIter<I, F> {
    base: I,
    f: F,
}

impl<I, F> FlatMapIter<I, F> {
    pub(super) fn new(base: I, f: F) -> Self {
        FlatMapIter { base, f }
    }
}

impl<I, F, U> ParallelIterator for FlatMapIter<I, F>
where
    I: ParallelIterator,
    F: Fn(I::Item) -> U + Sync + Send,
    U: IntoIterator,
    U::Item: Send,
{
    type Item = U::Item;
    type Producer = FlatMapIterProducer<I::Producer, F>;
    fn into_producer(self) -> Self::Producer {
        FlatMapIterProducer {
            base: self.base.into_producer(),
            f: Arc::new(self.f),
        }
    }
}

/// The producer of [`FlatMapIter`].
pub struct FlatMapIterProducer<P, F> {
    base: P,
    f: Arc<F>,
}

impl<P, F, U> Producer for FlatMapIterProducer<P, F>
where
    P: Producer,
    F: Fn(P::Item) -> U + Sync + Send,
    U: IntoIterator,
{
    type Item = U::Item;
    type IntoIter = FlatMapIterPiece<P::IntoIter, F, U::IntoIter>;
    fn len(&self) -> usize {
        self.base.len()
    }
    fn split_at(self, index: usize) -> (Self, Self) {
        let (l, r) = self.base.split_at(index);
        let f = Arc::clone(&self.f);
        (
            FlatMapIterProducer { base: l, f },
            FlatMapIterProducer { base: r, f: self.f },
        )
    }
    fn into_iter(self) -> Self::IntoIter {
        FlatMapIterPiece {
            outer: self.base.into_iter(),
            inner: None,
            f: self.f,
        }
    }
    fn min_len(&self) -> usize {
        self.base.min_len()
    }
    fn max_len(&self) -> usize {
        self.base.max_len()
    }
    fn blocks(&self) -> super::plumbing::Blocks {
        self.base.blocks()
    }
    fn exact(&self) -> bool {
        false
    }
}

/// A piece of [`FlatMapIter`] as a sequential iterator.
pub struct FlatMapIterPiece<I, F, J> {
    outer: I,
    inner: Option<J>,
    f: Arc<F>,
}

impl<I, F, U> Iterator for FlatMapIterPiece<I, F, U::IntoIter>
where
    I: Iterator,
    F: Fn(I::Item) -> U,
    U: IntoIterator,
{
    type Item = U::Item;
    fn next(&mut self) -> Option<U::Item> {
        loop {
            if let Some(inner) = &mut self.inner {
                match inner.next() {
                    Some(x) => return Some(x),
                    // As std's `FlatMap`: a finished inner iterator is never asked again.
                    None => self.inner = None,
                }
            }
            self.inner = Some((self.f)(self.outer.next()?).into_iter());
        }
    }
    fn fold<B, G: FnMut(B, U::Item) -> B>(self, init: B, mut g: G) -> B {
        let acc = match self.inner {
            Some(inner) => inner.fold(init, &mut g),
            None => init,
        };
        let f = self.f;
        self.outer
            .fold(acc, move |acc, x| f(x).into_iter().fold(acc, &mut g))
    }
}

#[cfg(test)]
mod tests {
    use crate::iter::plumbing::Producer;
    use crate::prelude::*;

    /// Yields `Some(0)` after its first `None`: not fused.
    struct Flaky(u8);

    impl Iterator for Flaky {
        type Item = u8;
        fn next(&mut self) -> Option<u8> {
            self.0 += 1;
            (self.0 == 1 || self.0 == 3).then_some(0)
        }
    }

    #[test]
    fn a_finished_inner_iterator_is_not_asked_again() {
        let mut piece = [1u8]
            .par_iter()
            .flat_map_iter(|_| Flaky(0))
            .into_producer()
            .into_iter();
        assert_eq!(piece.next(), Some(0));
        assert_eq!(piece.next(), None);
        assert_eq!(piece.next(), None, "as std's flat_map after its end");
    }
}
