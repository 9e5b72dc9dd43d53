//! `map_with` and `map_init`: `map` with a mutable state per piece.
//!
//! The state lives in the producer, not in the function: `map_with` clones its value
//! whenever a producer splits (so there is one clone per piece, made only when a piece
//! is made), `map_init` calls its `init` once when a piece starts. Either way the
//! function gets `&mut` state that no other piece sees, for buffers, random number
//! generators or channel senders that are costly to make per item. `for_each_with`
//! and `for_each_init` are these followed by `for_each`.

use std::sync::Arc;

use super::plumbing::Producer;
use super::{IndexedParallelIterator, ParallelIterator};

/// The parallel iterator of [`ParallelIterator::map_with`].
#[derive(Debug)]
pub struct MapWith<I, T, F> {
    base: I,
    state: T,
    f: F,
}

impl<I, T, F> MapWith<I, T, F> {
    pub(super) fn new(base: I, state: T, f: F) -> Self {
        MapWith { base, state, f }
    }
}

impl<I, T, F, R> ParallelIterator for MapWith<I, T, F>
where
    I: ParallelIterator,
    T: Send + Clone,
    F: Fn(&mut T, I::Item) -> R + Sync + Send,
    R: Send,
{
    type Item = R;
    type Producer = MapWithProducer<I::Producer, T, F>;
    fn into_producer(self) -> Self::Producer {
        MapWithProducer {
            base: self.base.into_producer(),
            state: self.state,
            f: Arc::new(self.f),
        }
    }
}

impl<I, T, F, R> IndexedParallelIterator for MapWith<I, T, F>
where
    I: IndexedParallelIterator,
    T: Send + Clone,
    F: Fn(&mut T, I::Item) -> R + Sync + Send,
    R: Send,
{
    fn len(&self) -> usize {
        self.base.len()
    }
}

/// The producer of [`MapWith`]: carries the state, cloned at every split.
pub struct MapWithProducer<P, T, F> {
    base: P,
    state: T,
    f: Arc<F>,
}

impl<P, T, F, R> Producer for MapWithProducer<P, T, F>
where
    P: Producer,
    T: Send + Clone,
    F: Fn(&mut T, P::Item) -> R + Sync + Send,
{
    type Item = R;
    type IntoIter = StatefulMapIter<P::IntoIter, T, F>;
    fn len(&self) -> usize {
        self.base.len()
    }
    fn split_at(self, index: usize) -> (Self, Self) {
        let (l, r) = self.base.split_at(index);
        let left = MapWithProducer {
            base: l,
            state: self.state.clone(),
            f: Arc::clone(&self.f),
        };
        let right = MapWithProducer {
            base: r,
            state: self.state,
            f: self.f,
        };
        (left, right)
    }
    fn into_iter(self) -> Self::IntoIter {
        StatefulMapIter {
            inner: self.base.into_iter(),
            state: self.state,
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

/// The parallel iterator of [`ParallelIterator::map_init`].
#[derive(Debug)]
pub struct MapInit<I, INIT, F> {
    base: I,
    init: INIT,
    f: F,
}

impl<I, INIT, F> MapInit<I, INIT, F> {
    pub(super) fn new(base: I, init: INIT, f: F) -> Self {
        MapInit { base, init, f }
    }
}

impl<I, INIT, T, F, R> ParallelIterator for MapInit<I, INIT, F>
where
    I: ParallelIterator,
    INIT: Fn() -> T + Sync + Send,
    F: Fn(&mut T, I::Item) -> R + Sync + Send,
    R: Send,
{
    type Item = R;
    type Producer = MapInitProducer<I::Producer, INIT, F>;
    fn into_producer(self) -> Self::Producer {
        MapInitProducer {
            base: self.base.into_producer(),
            init: Arc::new(self.init),
            f: Arc::new(self.f),
        }
    }
}

impl<I, INIT, T, F, R> IndexedParallelIterator for MapInit<I, INIT, F>
where
    I: IndexedParallelIterator,
    INIT: Fn() -> T + Sync + Send,
    F: Fn(&mut T, I::Item) -> R + Sync + Send,
    R: Send,
{
    fn len(&self) -> usize {
        self.base.len()
    }
}

/// The producer of [`MapInit`]: a piece makes its state when it starts.
pub struct MapInitProducer<P, INIT, F> {
    base: P,
    init: Arc<INIT>,
    f: Arc<F>,
}

impl<P, INIT, T, F, R> Producer for MapInitProducer<P, INIT, F>
where
    P: Producer,
    INIT: Fn() -> T + Sync + Send,
    F: Fn(&mut T, P::Item) -> R + Sync + Send,
{
    type Item = R;
    type IntoIter = StatefulMapIter<P::IntoIter, T, F>;
    fn len(&self) -> usize {
        self.base.len()
    }
    fn split_at(self, index: usize) -> (Self, Self) {
        let (l, r) = self.base.split_at(index);
        let left = MapInitProducer {
            base: l,
            init: Arc::clone(&self.init),
            f: Arc::clone(&self.f),
        };
        let right = MapInitProducer {
            base: r,
            init: self.init,
            f: self.f,
        };
        (left, right)
    }
    fn into_iter(self) -> Self::IntoIter {
        StatefulMapIter {
            inner: self.base.into_iter(),
            state: (self.init)(),
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

/// A piece of [`MapWith`] or [`MapInit`] as a sequential iterator: the base piece, the
/// piece's state and the shared function.
pub struct StatefulMapIter<I, T, F> {
    inner: I,
    state: T,
    f: Arc<F>,
}

impl<I: Iterator, T, F: Fn(&mut T, I::Item) -> R, R> Iterator for StatefulMapIter<I, T, F> {
    type Item = R;
    fn next(&mut self) -> Option<R> {
        let x = self.inner.next()?;
        Some((self.f)(&mut self.state, x))
    }
    fn size_hint(&self) -> (usize, Option<usize>) {
        self.inner.size_hint()
    }
    fn fold<B, G: FnMut(B, R) -> B>(self, init: B, mut g: G) -> B {
        let (f, mut state) = (self.f, self.state);
        self.inner
            .fold(init, move |acc, x| g(acc, f(&mut state, x)))
    }
}

impl<I, T, F, R> DoubleEndedIterator for StatefulMapIter<I, T, F>
where
    I: DoubleEndedIterator,
    F: Fn(&mut T, I::Item) -> R,
{
    fn next_back(&mut self) -> Option<R> {
        let x = self.inner.next_back()?;
        Some((self.f)(&mut self.state, x))
    }
}

impl<I, T, F, R> ExactSizeIterator for StatefulMapIter<I, T, F>
where
    I: ExactSizeIterator,
    F: Fn(&mut T, I::Item) -> R,
{
}
