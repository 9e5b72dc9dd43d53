//! `filter` and `filter_map`: keep some items. Their producers yield fewer items than
//! positions (they are not exact), so they cannot be zipped or enumerated.

use std::ops::ControlFlow;
use std::sync::Arc;

use super::leaf_stop::{self, LeafStop, CHECK_EVERY};
use super::plumbing::Producer;
use super::ParallelIterator;

/// The parallel iterator of [`ParallelIterator::filter`].
#[derive(Debug)]
pub struct Filter<I, P> {
    base: I,
    predicate: P,
}

impl<I, P> Filter<I, P> {
    pub(super) fn new(base: I, predicate: P) -> Self {
        Filter { base, predicate }
    }
}

impl<I, P> ParallelIterator for Filter<I, P>
where
    I: ParallelIterator,
    P: Fn(&I::Item) -> bool + Sync + Send,
{
    type Item = I::Item;
    type Producer = FilterProducer<I::Producer, P, true>;
    fn into_producer(self) -> Self::Producer {
        FilterProducer {
            base: self.base.into_producer(),
            f: Arc::new(self.predicate),
        }
    }
}

/// The parallel iterator of [`ParallelIterator::filter_map`].
#[derive(Debug)]
pub struct FilterMap<I, F> {
    base: I,
    f: F,
}

impl<I, F> FilterMap<I, F> {
    pub(super) fn new(base: I, f: F) -> Self {
        FilterMap { base, f }
    }
}

impl<I, F, R> ParallelIterator for FilterMap<I, F>
where
    I: ParallelIterator,
    F: Fn(I::Item) -> Option<R> + Sync + Send,
    R: Send,
{
    type Item = R;
    type Producer = FilterProducer<I::Producer, F, false>;
    fn into_producer(self) -> Self::Producer {
        FilterProducer {
            base: self.base.into_producer(),
            f: Arc::new(self.f),
        }
    }
}

/// The producer of [`Filter`] (`PREDICATE = true`) and [`FilterMap`].
pub struct FilterProducer<P, F, const PREDICATE: bool> {
    base: P,
    f: Arc<F>,
}

impl<P, F, const PREDICATE: bool> FilterProducer<P, F, PREDICATE> {
    fn split(self, index: usize) -> (Self, Self)
    where
        P: Producer,
    {
        let (l, r) = self.base.split_at(index);
        let f = Arc::clone(&self.f);
        (
            FilterProducer { base: l, f },
            FilterProducer { base: r, f: self.f },
        )
    }
}

impl<P, F> Producer for FilterProducer<P, F, true>
where
    P: Producer,
    F: Fn(&P::Item) -> bool + Sync + Send,
{
    type Item = P::Item;
    type IntoIter = FilterIter<P::IntoIter, F>;
    fn len(&self) -> usize {
        self.base.len()
    }
    fn split_at(self, index: usize) -> (Self, Self) {
        self.split(index)
    }
    fn into_iter(self) -> Self::IntoIter {
        FilterIter {
            inner: self.base.into_iter(),
            f: self.f,
            stop: leaf_stop::building(),
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

impl<P, F, R> Producer for FilterProducer<P, F, false>
where
    P: Producer,
    F: Fn(P::Item) -> Option<R> + Sync + Send,
{
    type Item = R;
    type IntoIter = FilterMapIter<P::IntoIter, F>;
    fn len(&self) -> usize {
        self.base.len()
    }
    fn split_at(self, index: usize) -> (Self, Self) {
        self.split(index)
    }
    fn into_iter(self) -> Self::IntoIter {
        FilterMapIter {
            inner: self.base.into_iter(),
            f: self.f,
            stop: leaf_stop::building(),
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

/// A piece of [`Filter`] as a sequential iterator.
pub struct FilterIter<I, F> {
    inner: I,
    f: Arc<F>,
    /// The short-circuiting consumer's stop: `next` ends the piece when it is set.
    stop: Option<LeafStop>,
}

impl<I: Iterator, F: Fn(&I::Item) -> bool> Iterator for FilterIter<I, F> {
    type Item = I::Item;
    fn next(&mut self) -> Option<I::Item> {
        let f = &*self.f;
        match &self.stop {
            None => self.inner.find(|x| f(x)),
            Some(stop) => until_stop(&mut self.inner, stop, |x| f(&x).then_some(x)),
        }
    }
    fn fold<B, G: FnMut(B, I::Item) -> B>(self, init: B, mut g: G) -> B {
        let f = self.f;
        self.inner
            .fold(init, move |acc, x| if f(&x) { g(acc, x) } else { acc })
    }
    fn count(self) -> usize {
        // As std's `Filter::count`: no branch on the predicate, so it vectorises.
        let f = self.f;
        self.inner.map(|x| usize::from(f(&x))).sum()
    }
}

/// A piece of [`FilterMap`] as a sequential iterator.
pub struct FilterMapIter<I, F> {
    inner: I,
    f: Arc<F>,
    /// As [`FilterIter`]'s.
    stop: Option<LeafStop>,
}

impl<I: Iterator, F: Fn(I::Item) -> Option<R>, R> Iterator for FilterMapIter<I, F> {
    type Item = R;
    fn next(&mut self) -> Option<R> {
        match &self.stop {
            None => self.inner.find_map(&*self.f),
            Some(stop) => until_stop(&mut self.inner, stop, &*self.f),
        }
    }
    fn fold<B, G: FnMut(B, R) -> B>(self, init: B, mut g: G) -> B {
        let f = self.f;
        self.inner.fold(init, move |acc, x| match f(x) {
            Some(y) => g(acc, y),
            None => acc,
        })
    }
}

/// The first `Some` of `f` over `inner`, or `None` at the end or once `stop` is set
/// (looked at every [`CHECK_EVERY`] items `f` rejects).
#[inline]
fn until_stop<I: Iterator, R>(
    inner: &mut I,
    stop: &LeafStop,
    mut f: impl FnMut(I::Item) -> Option<R>,
) -> Option<R> {
    let mut rejected = 0u32;
    let found = inner.try_for_each(|x| match f(x) {
        Some(r) => ControlFlow::Break(Some(r)),
        None => {
            rejected += 1;
            if rejected % CHECK_EVERY == 0 && stop.requested() {
                ControlFlow::Break(None)
            } else {
                ControlFlow::Continue(())
            }
        }
    });
    match found {
        ControlFlow::Break(r) => r,
        ControlFlow::Continue(()) => None,
    }
}
