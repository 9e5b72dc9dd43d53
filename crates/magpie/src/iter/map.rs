//! `map`: applies a function to every item.

use std::sync::Arc;

use super::plumbing::Producer;
use super::{IndexedParallelIterator, ParallelIterator};

/// The parallel iterator of [`ParallelIterator::map`].
#[derive(Debug)]
pub struct Map<I, F> {
    base: I,
    f: F,
}

impl<I, F> Map<I, F> {
    pub(super) fn new(base: I, f: F) -> Self {
        Map { base, f }
    }
}

impl<I, F, R> ParallelIterator for Map<I, F>
where
    I: ParallelIterator,
    F: Fn(I::Item) -> R + Sync + Send,
    R: Send,
{
    type Item = R;
    type Producer = MapProducer<I::Producer, F>;
    fn into_producer(self) -> Self::Producer {
        MapProducer {
            base: self.base.into_producer(),
            f: Arc::new(self.f),
        }
    }
}

impl<I, F, R> IndexedParallelIterator for Map<I, F>
where
    I: IndexedParallelIterator,
    F: Fn(I::Item) -> R + Sync + Send,
    R: Send,
{
    fn len(&self) -> usize {
        self.base.len()
    }
}

/// The producer of [`Map`]; the pieces share the function.
pub struct MapProducer<P, F> {
    base: P,
    f: Arc<F>,
}

impl<P, F, R> Producer for MapProducer<P, F>
where
    P: Producer,
    F: Fn(P::Item) -> R + Sync + Send,
{
    type Item = R;
    type IntoIter = MapIter<P::IntoIter, F>;
    fn len(&self) -> usize {
        self.base.len()
    }
    fn split_at(self, index: usize) -> (Self, Self) {
        let (l, r) = self.base.split_at(index);
        let f = Arc::clone(&self.f);
        (
            MapProducer { base: l, f },
            MapProducer { base: r, f: self.f },
        )
    }
    fn into_iter(self) -> Self::IntoIter {
        MapIter {
            inner: self.base.into_iter(),
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
        self.base.exact()
    }
}

/// A piece of [`Map`] as a sequential iterator.
pub struct MapIter<I, F> {
    inner: I,
    f: Arc<F>,
}

impl<I: Iterator, F: Fn(I::Item) -> R, R> Iterator for MapIter<I, F> {
    type Item = R;
    fn next(&mut self) -> Option<R> {
        self.inner.next().map(&*self.f)
    }
    fn size_hint(&self) -> (usize, Option<usize>) {
        self.inner.size_hint()
    }
    fn fold<B, G: FnMut(B, R) -> B>(self, init: B, mut g: G) -> B {
        let f = self.f;
        self.inner.fold(init, move |acc, x| g(acc, f(x)))
    }
}

impl<I: DoubleEndedIterator, F: Fn(I::Item) -> R, R> DoubleEndedIterator for MapIter<I, F> {
    fn next_back(&mut self) -> Option<R> {
        self.inner.next_back().map(&*self.f)
    }
    fn rfold<B, G: FnMut(B, R) -> B>(self, init: B, mut g: G) -> B {
        let f = self.f;
        self.inner.rfold(init, move |acc, x| g(acc, f(x)))
    }
}

impl<I: ExactSizeIterator, F: Fn(I::Item) -> R, R> ExactSizeIterator for MapIter<I, F> {}
